/**
 * The text that mholt/caddy's `caddyfile.FromJSON` produced for the server blocks kubeadm
 * assembled (vendored at v0.10.10-57, byte-identical in caddy v1.0.3). kubeadm built every stub
 * domain and federation block this way, so its quirks are part of the stored Corefile:
 * keys are emitted as they are, a body token is quoted only for `"`, space, `\n`, `\t` or `\r`
 * (escaping nothing but `"`), and an empty token leaves two separators side by side.
 */

/** One server block as kubeadm encoded it: keys and body lines of tokens. */
export interface CaddyServerBlock {
  readonly keys: readonly string[];
  readonly body: readonly (readonly string[])[];
}

/** The five characters that made FromJSON quote a token. */
const QUOTE_TRIGGER = /["\t\n\r ]/;

/** One body token as FromJSON wrote it. */
export function caddyToken(token: string): string {
  return QUOTE_TRIGGER.test(token) ? `"${token.replaceAll('"', '\\"')}"` : token;
}

/** One body line as FromJSON wrote it: a tab, the tokens joined by spaces, a line break. */
export function caddyBodyLine(tokens: readonly string[]): string {
  let line = '\t';
  for (let index = 0; index < tokens.length; index += 1) line += (index === 0 ? '' : ' ') + caddyToken(tokens[index] as string);
  return `${line}\n`;
}

/** The opening line of a server block: keys joined by `, `. */
export function caddyBlockOpening(keys: readonly string[]): string {
  return `${keys.join(', ')} {\n`;
}

/** Closes a server block. */
export const CADDY_BLOCK_CLOSING = '}';

/** One server block as FromJSON wrote it. */
export function caddyServerBlockText(block: CaddyServerBlock): string {
  return caddyBlockOpening(block.keys) + block.body.map(caddyBodyLine).join('') + CADDY_BLOCK_CLOSING;
}

/** Separates consecutive server blocks in FromJSON's output. */
export const CADDY_BLOCK_SEPARATOR = '\n\n';

/** The whole FromJSON output: blocks separated by an empty line. */
export function caddyfileFromJson(blocks: readonly CaddyServerBlock[]): string {
  return blocks.map(caddyServerBlockText).join(CADDY_BLOCK_SEPARATOR);
}
