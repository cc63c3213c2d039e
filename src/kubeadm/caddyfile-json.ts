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

/** The whole FromJSON output: blocks separated by an empty line, body lines indented by a tab. */
export function caddyfileFromJson(blocks: readonly CaddyServerBlock[]): string {
  return blocks
    .map((block) => {
      const lines = block.body.map((tokens) => `\t${tokens.map(caddyToken).join(' ')}\n`).join('');
      return `${block.keys.join(', ')} {\n${lines}}`;
    })
    .join('\n\n');
}
