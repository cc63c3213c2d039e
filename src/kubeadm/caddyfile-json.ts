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
function caddyBodyLine(tokens: readonly string[]): string {
  let line = '\t';
  for (let index = 0; index < tokens.length; index += 1) line += (index === 0 ? '' : ' ') + caddyToken(tokens[index] as string);
  return `${line}\n`;
}

/** The opening line of a server block: keys joined by `, `. */
function caddyBlockOpening(keys: readonly string[]): string {
  return `${keys.join(', ')} {\n`;
}

/** Closes a server block. */
const CADDY_BLOCK_CLOSING = '}';

/** One server block as FromJSON wrote it. */
function caddyServerBlockText(block: CaddyServerBlock): string {
  return caddyBlockOpening(block.keys) + block.body.map(caddyBodyLine).join('') + CADDY_BLOCK_CLOSING;
}

/** Separates consecutive server blocks in FromJSON's output. */
const CADDY_BLOCK_SEPARATOR = '\n\n';

/** The whole FromJSON output: blocks separated by an empty line. */
export function caddyfileFromJson(blocks: readonly CaddyServerBlock[]): string {
  return blocks.map(caddyServerBlockText).join(CADDY_BLOCK_SEPARATOR);
}

/**
 * `prepCorefileFormat(caddyfileFromJson(blocks), indentation, …)` written block by block, the way
 * kubeadm's stub-domain text looks in its manifest: every line indented, tabs as three spaces. The
 * composition runs two replacements over the whole text, which costs more than the rest of the
 * translation for a 1 MiB ConfigMap (~16,000 blocks); this writer only rewrites the rare key or
 * token that holds a line break or a tab. The equality is a law in the tests.
 */
export class IndentedCaddyWriter {
  /** Finished blocks, each one flat string. */
  private readonly parts: string[] = [];
  /** Fragments of the open block. */
  private openBlock: string[] = [];
  private readonly newline: string;
  private blocks = 0;

  constructor(indentation: number) {
    this.newline = `\n${' '.repeat(indentation)}`;
  }

  /** A key or token as prepCorefileFormat leaves it. */
  private indented(text: string): string {
    if (text.indexOf('\n') < 0 && text.indexOf('\t') < 0) return text;
    return text.replaceAll('\n', this.newline).replaceAll('\t', '   ');
  }

  /** Opens a block; `keys` as FromJSON joined them (`a, b`). */
  open(keys: string): void {
    // Blocks are separated by an empty line, which prepCorefileFormat indents too.
    this.openBlock = this.blocks > 0 ? [this.newline] : [];
    this.blocks += 1;
    this.openBlock.push(this.newline, this.indented(keys), ' {');
  }

  /** One body line of the open block. */
  line(tokens: readonly string[]): void {
    this.openBlock.push(this.newline, '   ');
    for (let index = 0; index < tokens.length; index += 1) {
      if (index > 0) this.openBlock.push(' ');
      this.openBlock.push(this.indented(caddyToken(tokens[index] as string)));
    }
  }

  close(): void {
    this.openBlock.push(this.newline, CADDY_BLOCK_CLOSING);
    this.parts.push(this.openBlock.join(''));
  }

  block(block: CaddyServerBlock): void {
    this.open(block.keys.join(', '));
    for (const tokens of block.body) this.line(tokens);
    this.close();
  }

  /** The text so far; for no blocks, what prepCorefileFormat makes of an empty text. */
  text(emptyStaysEmpty: boolean): string {
    if (this.blocks === 0) return emptyStaysEmpty ? '' : this.newline;
    return this.parts.join('');
  }
}
