import { checkArgument, checkCorefileModel } from '../errors/arguments.js';
import { CorefilePrintError } from './errors.js';
import type { CorefilePrintErrorCode } from './errors.js';
import { isCorefileSeparator, lexCorefile, trimTrailingSeparators } from './lexer.js';
import type { WordLexeme } from './lexer.js';
import { findSelfImport } from './parser.js';
import type { AfterBlock, Block, Comment, Corefile, CorefileItem, Directive, DirectiveList, ServerBlock } from './model.js';
import type { SourcePosition } from '../util/source-position.js';

/**
 * Stage 3: {@link Corefile} → text. The only place in the project that decides quoting.
 *
 * Canonical layout: keys on one line separated by single spaces, then ` {`; one directive per
 * line, indented by four spaces per level; a nested block's `{` at the end of its directive's
 * line; every `}` on its own line; a blank line between top-level items; comments where the model
 * attaches them; a final line feed. The layout flags of the model (see `model.ts`) are printed as
 * recorded, so that CoreDNS reads back exactly the model and every token inside a block starts a
 * line exactly when it did in the source.
 *
 * A token is printed bare when CoreDNS reads it back unchanged, otherwise in double quotes with
 * `"` escaped as `\"`; a token no form reproduces is refused with {@link CorefilePrintError},
 * never printed. Deterministic: the output depends only on the model.
 */

/** Spaces per nesting level. */
const INDENT_WIDTH = 4;
/** Path entries named at each end of an error's path (a block and its directive are two). */
const PATH_ENDS = 8;

/** How a token is written. */
export type TokenForm =
  | { readonly form: 'bare'; readonly text: string }
  | { readonly form: 'quoted'; readonly text: string }
  | { readonly form: 'unrepresentable'; readonly code: CorefilePrintErrorCode; readonly reason: string };

/**
 * A lone UTF-16 surrogate: in a `u` expression a pair is one code point, so only an unpaired
 * surrogate falls in the range (the code points of `\p{Cs}`, written out: a property escape makes
 * V8 build its class from ICU's tables when it first runs, ~1.5 M instructions of every start).
 */
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/**
 * Decides how `token` must be written so that CoreDNS's lexer reads exactly `token` back:
 * - bare when it is not empty, holds no separator, `\r` or `#`, and does not start with `"`;
 * - quoted when every run of backslashes right before a `"` or the end has even length (inside
 *   quotes only `\"` is an escape, so an odd run would escape the quote that follows it);
 * - otherwise, and for the structural `{` and `}`, unrepresentable.
 */
export function classifyToken(token: string): TokenForm {
  checkArgument('classifyToken', 'token', token, 'string');
  if (token === '{' || token === '}') {
    return { form: 'unrepresentable', code: 'brace-token', reason: `'${token}' is always read as a brace, quoted or not` };
  }
  if (LONE_SURROGATE.test(token)) {
    return { form: 'unrepresentable', code: 'unrepresentable-token', reason: `${describe(token)} contains a lone UTF-16 surrogate (not encodable as UTF-8)` };
  }
  if (isBare(token)) return { form: 'bare', text: token };
  const quoted = quotedForm(token);
  if (quoted !== undefined) return { form: 'quoted', text: quoted };
  return {
    form: 'unrepresentable',
    code: 'unrepresentable-token',
    reason: `${describe(token)} needs quotes, but an odd run of backslashes before a '"' or at its end cannot be written inside quotes`,
  };
}

/** `"token"` with `"` escaped, or undefined when an odd backslash run precedes a `"` or the end. */
function quotedForm(token: string): string | undefined {
  let backslashes = 0;
  for (let index = 0; index < token.length; index += 1) {
    const code = token.charCodeAt(index);
    if (code === 0x5c) {
      backslashes += 1;
      continue;
    }
    if (code === 0x22 && backslashes % 2 === 1) return undefined;
    backslashes = 0;
  }
  if (backslashes % 2 === 1) return undefined;
  return `"${token.replaceAll('"', '\\"')}"`;
}

function isBare(token: string): boolean {
  if (token === '' || token.charCodeAt(0) === 0x22) return false;
  for (let index = 0; index < token.length; index += 1) {
    const code = token.charCodeAt(index);
    if (code > 0x20 && code < 0x7f && code !== 0x23) continue;
    if (code === 0x23 || isCorefileSeparator(code)) return false;
  }
  return true;
}

function describe(token: string): string {
  return `the token ${JSON.stringify(token)}`;
}

/** `token` as it must appear in a Corefile; throws {@link CorefilePrintError} when impossible. */
export function formatToken(token: string): string {
  checkArgument('formatToken', 'token', token, 'string');
  const form = classifyToken(token);
  if (form.form === 'unrepresentable') throw new CorefilePrintError(form.code, form.reason, 'token');
  return form.text;
}

/** Prints `corefile` in canonical form. Throws {@link CorefilePrintError} for unrepresentable models. */
export function printCorefile(corefile: Corefile): string {
  checkArgument('printCorefile', 'corefile', corefile, 'object');
  checkCorefileModel('printCorefile', 'corefile', corefile);
  const printer = new Printer(new Output(() => measure(corefile)));
  try {
    printer.corefile(corefile);
    return printer.finish();
  } catch (error) {
    if (error instanceof OutputTooLarge) printer.failTooLarge();
    throw error;
  }
}

/**
 * Prints `corefile` without keeping the text, only to learn whether it fits in a string; throws
 * the `output-too-large` refusal (or any refusal met first) when it does not. A print calls it
 * once it has written {@link MEASURE_AFTER_INDENTATION} spaces of indentation: indentation grows
 * with the square of the nesting depth, so a deep model can need far more text than the model
 * holds, and keeping that text up to the limit before refusing it took half a gigabyte.
 */
function measure(corefile: Corefile): void {
  const printer = new Printer(new Output(undefined));
  try {
    printer.corefile(corefile);
    printer.finish();
  } catch (error) {
    if (error instanceof OutputTooLarge) printer.failTooLarge();
    throw error;
  }
}

type Context = 'server' | 'nested' | 'snippet';

/** A node whose position an error message can point at. */
interface Located {
  readonly position?: SourcePosition | undefined;
}

/** UTF-8 decoders (stateless when not streaming): one that drops a leading BOM, one that keeps it. */
const DECODER = new TextDecoder();
const ENCODER = new TextEncoder();
const DECODER_KEEPING_BOM = new TextDecoder('utf-8', { ignoreBOM: true });
const CHUNK_SIZE = 1 << 16;
/**
 * The longest text printed, in UTF-16 code units: 2^27 (134,217,728), a quarter of what a V8 string
 * holds (2^29 - 24) and 128 times what a Kubernetes ConfigMap holds. Canonical indentation grows
 * with nesting depth, so a model nested a few thousand levels deep can need more (its text grows
 * with the square of the depth); it is refused with `output-too-large`. A text this long costs
 * about three times its length in memory by the time it is written (the pieces, the joined string,
 * its UTF-8 bytes); at the engine's own limit that was 1.5 GB for a 66 KB Corefile.
 */
const MAX_TEXT_LENGTH = 2 ** 27;
/**
 * Spaces of indentation a print writes before it measures the whole text first (see `measure`).
 * A Corefile of a few levels gets there only past about four million lines (the CLI reads 16 MiB:
 * at most eight million), and then pays one more walk of its model that keeps no text; a deep one
 * gets there within a few thousand levels, long before its text would be too long to keep.
 */
const MEASURE_AFTER_INDENTATION = 2 ** 24;

/** Thrown by {@link Output} when the text passes {@link MAX_TEXT_LENGTH}; the printer reports it. */
class OutputTooLarge extends Error {}

/**
 * The buffer of the last output, lent to the next one while the garbage collector lets it live:
 * printing many Corefiles in a row (a `--batch`) then writes into memory already in use instead of
 * allocating a fresh buffer each time.
 */
let spareBuffer: WeakRef<Uint8Array> | undefined;

/**
 * The output, as UTF-8 bytes in one buffer (see `spareBuffer`). A full buffer is decoded into a
 * string (between two pieces, so never inside a character) and reused, the strings joined once at
 * the end: no string per line or per piece, no buffer doubled and copied over and over.
 */
class Output {
  private bytes: Uint8Array;
  /** Bytes in `bytes`. */
  private used = 0;
  /** Bytes already decoded into `chunks`. */
  private flushed = 0;
  private readonly chunks: string[] = [];
  /** UTF-16 code units in `chunks`. */
  private characters = 0;
  /** Set while written bytes must stay in the buffer, to be read back with `text(from)`. */
  private holding = false;
  /** Spaces written by `writeSpaces`. */
  private indentation = 0;
  /**
   * Called once when `indentation` passes {@link MEASURE_AFTER_INDENTATION}; undefined for an
   * output that only measures: it counts the text and drops it (`finish` returns '').
   */
  private whenDeep: (() => void) | undefined;
  private readonly measuring: boolean;

  constructor(whenDeep: (() => void) | undefined) {
    this.whenDeep = whenDeep;
    this.measuring = whenDeep === undefined;
    const spare = this.measuring ? undefined : spareBuffer?.deref();
    // Taken, not shared: a nested print (from a getter of a hand-built model) gets its own.
    if (!this.measuring) spareBuffer = undefined;
    this.bytes = spare ?? new Uint8Array(CHUNK_SIZE);
  }

  /** Bytes written so far. */
  get length(): number {
    return this.flushed + this.used;
  }

  write(text: string): void {
    this.ensure(text.length * 3);
    const { bytes } = this;
    let length = this.used;
    for (let index = 0; index < text.length; index += 1) {
      const code = text.charCodeAt(index);
      if (code >= 0x80) {
        length += ENCODER.encodeInto(text.slice(index), bytes.subarray(length)).written;
        break;
      }
      bytes[length] = code;
      length += 1;
    }
    this.used = length;
  }

  /**
   * Writes `token` when it is printable ASCII without `#`, not starting with `"` and not a lone
   * brace (the common case, decided while copying); otherwise writes nothing and returns false.
   */
  writePlainAscii(token: string): boolean {
    const length = token.length;
    if (length === 0 || token.charCodeAt(0) === 0x22 || (length === 1 && (token === '{' || token === '}'))) return false;
    this.ensure(length);
    const { bytes } = this;
    const start = this.used;
    for (let index = 0; index < length; index += 1) {
      const code = token.charCodeAt(index);
      if (code <= 0x20 || code >= 0x7f || code === 0x23) return false;
      bytes[start + index] = code;
    }
    this.used = start + length;
    return true;
  }

  writeByte(byte: number): void {
    if (this.used === this.bytes.length) this.ensure(1);
    this.bytes[this.used] = byte;
    this.used += 1;
  }

  /** Two ASCII characters, e.g. ` {`. */
  writeBytes(first: number, second: number): void {
    if (this.used + 2 > this.bytes.length) this.ensure(2);
    this.bytes[this.used] = first;
    this.bytes[this.used + 1] = second;
    this.used += 2;
  }

  /** `count` spaces. */
  writeSpaces(count: number): void {
    this.ensure(count);
    const { bytes } = this;
    const end = this.used + count;
    // A loop for the usual few levels; fill() for deep ones (its call costs more than it saves below).
    if (count > 64) bytes.fill(SPACE, this.used, end);
    else for (let index = this.used; index < end; index += 1) bytes[index] = SPACE;
    this.used = end;
    this.indentation += count;
    if (this.indentation > MEASURE_AFTER_INDENTATION && this.whenDeep !== undefined) {
      const whenDeep = this.whenDeep;
      this.whenDeep = undefined;
      whenDeep();
    }
  }

  /** Keeps what is written from now on readable with `text(from)` until `release()`. */
  hold(): void {
    this.holding = true;
  }

  release(): void {
    this.holding = false;
  }

  /** The text written since `from` (a `length` taken while holding). */
  text(from: number): string {
    return DECODER.decode(this.bytes.subarray(from - this.flushed, this.used));
  }

  /** All the text. */
  finish(): string {
    this.flush();
    if (this.measuring) return '';
    const { chunks } = this;
    const text = chunks.length === 1 ? (chunks[0] as string) : chunks.join('');
    spareBuffer = new WeakRef(this.bytes);
    return text;
  }

  /**
   * Makes room for `needed` more bytes: decodes the buffer when it is full, else (while holding,
   * or for a piece larger than the buffer) grows it.
   */
  private ensure(needed: number): void {
    if (this.used + needed <= this.bytes.length) return;
    if (!this.holding) {
      this.flush();
      if (needed <= this.bytes.length) return;
    }
    // A UTF-8 byte sequence decodes to at least a third as many code units.
    if (this.characters + Math.ceil((this.used + needed) / 3) > MAX_TEXT_LENGTH) throw new OutputTooLarge();
    let size = this.bytes.length * 2;
    while (size < this.used + needed) size *= 2;
    const bigger = new Uint8Array(size);
    bigger.set(this.bytes.subarray(0, this.used));
    this.bytes = bigger;
  }

  private flush(): void {
    if (this.used === 0) return;
    const decoder = this.flushed === 0 ? DECODER : DECODER_KEEPING_BOM;
    const chunk = decoder.decode(this.bytes.subarray(0, this.used));
    this.characters += chunk.length;
    if (this.characters > MAX_TEXT_LENGTH) throw new OutputTooLarge();
    if (!this.measuring) this.chunks.push(chunk);
    this.flushed += this.used;
    this.used = 0;
  }
}

const LINE_FEED = 0x0a;
const SPACE = 0x20;
const HASH = 0x23;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const COMMA = 0x2c;

class Printer {
  private readonly out: Output;
  /** The current line is still open: its comment (if any) is written when it ends. */
  private lineOpen = false;
  private lineComment: string | undefined;
  private readonly snippetNames = new Set<string>();
  /**
   * Where the printer is, for error messages: label/detail pairs up to `frameTop`, formatted only
   * on failure (a top index rather than `length`, which would drop and reallocate the storage).
   */
  private readonly frames: (string | number)[] = [];
  private frameTop = 0;
  /** The blocks open around the directive being printed (see `body`). */
  private readonly openLists: DirectiveList[] = [];
  private readonly openOwners: (Directive | AfterBlock)[] = [];
  private readonly nextIndex: number[] = [];
  /** The node being printed, for the position of an `output-too-large` refusal. */
  private current: Located | undefined;

  constructor(out: Output) {
    this.out = out;
  }

  finish(): string {
    this.endLine();
    return this.out.finish();
  }

  /** Refuses the model when its text outgrew {@link MAX_TEXT_LENGTH} (see `Output`). */
  failTooLarge(): never {
    this.fail(
      'output-too-large',
      `the printed Corefile would be longer than ${MAX_TEXT_LENGTH.toLocaleString('en')} characters, the most the printer writes (indentation grows by four spaces per nesting level)`,
      this.current?.position,
    );
  }

  private pushFrame(label: string, detail: string | number): void {
    this.frames[this.frameTop] = label;
    this.frames[this.frameTop + 1] = detail;
    this.frameTop += 2;
  }

  // ── lines ────────────────────────────────────────────────────────────────────────────────────

  private endLine(): void {
    if (!this.lineOpen) return;
    if (this.lineComment !== undefined) {
      this.out.writeBytes(SPACE, HASH);
      this.out.write(this.lineComment);
      this.lineComment = undefined;
    }
    this.out.writeByte(LINE_FEED);
    this.lineOpen = false;
  }

  private startLine(depth: number): void {
    this.endLine();
    if (depth > 0) this.out.writeSpaces(depth * INDENT_WIDTH);
    this.lineOpen = true;
  }

  private blankLine(): void {
    this.endLine();
    this.out.writeByte(LINE_FEED);
  }

  private setLineComment(comment: Comment | undefined, slot: string): void {
    if (comment !== undefined) this.lineComment = this.commentText(comment, slot);
  }

  private commentLines(comments: readonly Comment[] | undefined, depth: number, firstCanBeBlank: boolean): void {
    if (comments === undefined) return;
    for (let index = 0; index < comments.length; index += 1) {
      const comment = comments[index] as Comment;
      if (comment.blankLineBefore === true && (index > 0 || firstCanBeBlank)) this.blankLine();
      this.startLine(depth);
      this.out.writeByte(HASH);
      this.out.write(this.commentText(comment, `comment ${index + 1}`));
    }
  }

  /**
   * Writes a token in the form CoreDNS reads back as itself, or fails. Error details (`what`
   * numbered by `index` when ≥ 0, the position from `positions` or `node`) are only computed then.
   */
  private token(text: string, what: string, index: number, node: Located | undefined, positions?: readonly SourcePosition[]): void {
    if (this.out.writePlainAscii(text)) return;
    const form = classifyToken(text);
    if (form.form === 'unrepresentable') {
      this.fail(form.code, form.reason, positions?.[Math.max(index, 0)] ?? node?.position, index >= 0 ? `${what} ${index + 1}` : what);
    }
    this.out.write(form.text);
  }

  // ── structure ────────────────────────────────────────────────────────────────────────────────

  corefile(corefile: Corefile): void {
    const { items } = corefile;
    for (let index = 0; index < items.length; index += 1) {
      const item = items[index] as CorefileItem;
      if (index > 0) this.blankLine();
      this.pushFrame(item.kind === 'server-block' ? 'server block' : item.kind, index + 1);
      this.item(item);
      this.frameTop = 0;
    }
    if (corefile.endComments !== undefined && corefile.endComments.length > 0) {
      if (items.length > 0) this.blankLine();
      this.pushFrame('final comments', '');
      this.commentLines(corefile.endComments, 0, false);
      this.frameTop = 0;
    }
  }

  private item(item: CorefileItem): void {
    this.current = item;
    const leading = item.leadingComments;
    this.commentLines(leading, 0, false);
    if (item.blankLineBefore === true && leading !== undefined && leading.length > 0) this.blankLine();
    switch (item.kind) {
      case 'import':
        if (item.pattern === '') this.fail('invalid-model', 'an import needs a non-empty pattern', item.position);
        this.startLine(0);
        this.out.write('import ');
        this.token(item.pattern, 'pattern', -1, item);
        this.setLineComment(item.trailingComment, 'trailing comment');
        return;
      case 'snippet': {
        if (this.snippetNames.has(item.name)) this.fail('invalid-model', `snippet '${item.name}' is defined twice (CoreDNS: redeclaration)`, item.position);
        this.snippetNames.add(item.name);
        this.startLine(0);
        this.token(`(${item.name})`, 'name', -1, item);
        this.out.writeBytes(SPACE, OPEN_BRACE);
        this.setLineComment(item.trailingComment, 'trailing comment');
        this.endLine();
        this.out.hold();
        const bodyStart = this.out.length;
        this.body(item, 'snippet');
        this.checkSnippetBody(item.name, bodyStart);
        this.out.release();
        this.closeLine(0, item);
        return;
      }
      case 'server-block':
        this.startLine(0);
        this.keys(item);
        this.out.writeBytes(SPACE, OPEN_BRACE);
        this.setLineComment(item.trailingComment, 'trailing comment');
        this.body(item, 'server');
        this.closeLine(0, item);
        return;
    }
  }

  /** CoreDNS ≥ 1.13 refuses a snippet that imports itself; so does the parser. */
  private checkSnippetBody(name: string, bodyStart: number): void {
    this.endLine();
    const body = this.out.text(bodyStart);
    if (!body.includes('import')) return;
    const words = lexCorefile(body).lexemes.filter((lexeme): lexeme is WordLexeme => lexeme.kind === 'word');
    if (findSelfImport(name, words) !== -1) this.fail('invalid-model', `snippet '${name}' imports itself`);
  }

  /**
   * Keys on one line. A key that cannot stand alone — empty, ending in `,`, exactly `{`, or a first
   * key `import` — is written with one more trailing comma (CoreDNS strips one and expects another
   * key), which is possible for every key but the last.
   */
  private keys(server: ServerBlock): void {
    const { keys, keyPositions: positions } = server;
    // CoreDNS drops empty keys; a block whose keys were all empty is kept in the model and
    // printed with the one key that reads back as "no keys".
    if (keys.length === 0) {
      this.out.write('""');
      return;
    }
    const first = keys[0];
    if (keys.length === 1 && first !== undefined && first.startsWith('(') && first.endsWith(')')) {
      this.fail('unrepresentable-key', `a server block whose only key is '${first}' would be read as a snippet definition`, positions?.[0], 'key 1');
    }
    const atStartOfFile = this.out.length === 0;
    for (let index = 0; index < keys.length; index += 1) {
      const key = keys[index] as string;
      const at = positions?.[index];
      if (index > 0) this.out.writeByte(SPACE);
      const problem = keyProblem(key, index);
      if (problem !== undefined && index === keys.length - 1) {
        this.fail('unrepresentable-key', `${problem}, and as the last key it cannot be followed by a comma`, at, `key ${index + 1}`);
      }
      const written = problem === undefined ? key : `${key},`;
      // A lone `}` key is what CoreDNS makes of a stray top-level brace; it reads back the same.
      if (written === '}') {
        this.out.write(written);
      } else if (index === 0 && atStartOfFile && written.startsWith('\ufeff')) {
        // CoreDNS drops a U+FEFF that opens the file (a byte order mark): quotes keep it.
        const quoted = quotedForm(written);
        if (quoted === undefined) {
          this.fail('unrepresentable-key', 'a first key starting with U+FEFF at the start of the file needs quotes, which cannot write it', at, 'key 1');
        }
        this.out.write(quoted);
      } else {
        this.token(written, 'key', index, server, positions);
      }
    }
  }

  /**
   * The directives of a server block or snippet body (indented one level), nested blocks
   * included. Nesting is walked without recursion, so that depth is bounded only by the model:
   * the blocks open around the current directive wait on the `open…` stacks, one entry per level,
   * with the segment (directive or afterBlock) each belongs to and the index of its next directive.
   */
  private body(list: DirectiveList, context: Context): void {
    const inner: Context = context === 'snippet' ? 'snippet' : 'nested';
    const { openLists, openOwners, nextIndex } = this;
    let level = 0;
    openLists[0] = list;
    nextIndex[0] = 0;
    for (;;) {
      const current = openLists[level] as DirectiveList;
      const depth = level + 1;
      const index = nextIndex[level] as number;
      const { directives } = current;
      if (index < directives.length) {
        nextIndex[level] = index + 1;
        const directive = directives[index] as Directive;
        this.pushFrame('directive', directive.name);
        const inline = index === 0 && level > 0 && (current as Block).firstTokenOnOpeningLine === true;
        this.directive(directive, depth, level === 0 ? context : inner, index, inline);
        const { block } = directive;
        if (block === undefined) {
          if (directive.afterBlock !== undefined) this.fail('invalid-model', 'afterBlock needs a block before it');
          this.frameTop -= 2;
          continue;
        }
        this.openBlock(block, depth);
        level += 1;
        openLists[level] = block;
        openOwners[level] = directive;
        nextIndex[level] = 0;
        continue;
      }
      if (current.endComments !== undefined) {
        this.pushFrame('end comments', '');
        this.commentLines(current.endComments, depth, directives.length > 0);
        this.frameTop -= 2;
      }
      if (level === 0) return;
      // The list is a block: close it, then go on with the rest of the segment it belongs to.
      this.frameTop -= 2;
      this.closeBlock(current as Block, depth - 1, inner);
      const after = (openOwners[level] as Directive | AfterBlock).afterBlock;
      level -= 1;
      if (after === undefined) {
        this.frameTop -= 2;
        continue;
      }
      if (after.arguments.length === 0 && after.block === undefined) this.fail('invalid-model', 'afterBlock needs arguments or a block');
      this.arguments(after.arguments, undefined, after.argumentPositions, 'argument after the block');
      if (after.block === undefined) {
        if (after.afterBlock !== undefined) this.fail('invalid-model', 'afterBlock needs a block before it');
        this.frameTop -= 2;
        continue;
      }
      this.openBlock(after.block, depth - 1);
      level += 1;
      openLists[level] = after.block;
      openOwners[level] = after;
      nextIndex[level] = 0;
    }
  }

  /**
   * A directive's line up to its block: leading comments, name, arguments, trailing comment.
   * `inline`: it follows its block's `{` on that line.
   */
  private directive(directive: Directive, depth: number, context: Context, index: number, inline: boolean): void {
    this.current = directive;
    const leading = directive.leadingComments;
    const hasLeading = leading !== undefined && leading.length > 0;
    if (hasLeading) this.commentLines(leading, depth, index > 0);
    if (directive.blankLineBefore === true && (index > 0 || hasLeading)) this.blankLine();
    if (directive.name === 'import' && context !== 'snippet') this.checkImport(directive, context);
    if (inline) this.out.writeByte(SPACE);
    else this.startLine(depth);
    this.token(directive.name, 'name', -1, directive);
    this.arguments(directive.arguments, directive, directive.argumentPositions, 'argument');
    this.setLineComment(directive.trailingComment, 'trailing comment');
  }

  /** The checks CoreDNS applies to `import`, so that the printed text parses. */
  private checkImport(directive: Directive, context: Context): void {
    const pattern = directive.arguments[0];
    if (directive.arguments.length !== 1 || pattern === undefined || pattern === '') {
      this.fail('invalid-model', 'an import directive takes exactly one non-empty argument', directive.position);
    }
    if (directive.block !== undefined && (context === 'server' || directive.block.openedOnNewLine !== true)) {
      this.fail('invalid-model', 'an import directive cannot have a block here', directive.position);
    }
  }

  private arguments(values: readonly string[], node: Located | undefined, positions: readonly SourcePosition[] | undefined, what: string): void {
    for (let index = 0; index < values.length; index += 1) {
      this.out.writeByte(SPACE);
      this.token(values[index] as string, what, index, node, positions);
    }
  }

  /** A block's `{`, for a directive at `depth`; its directives follow. */
  private openBlock(block: Block, depth: number): void {
    if (block.openedOnNewLine === true) {
      this.startLine(depth);
      this.out.writeByte(OPEN_BRACE);
      this.setLineComment(block.openingComment, 'opening comment');
    } else {
      if (block.openingComment !== undefined) this.fail('invalid-model', 'openingComment needs openedOnNewLine', block.position);
      this.out.writeBytes(SPACE, OPEN_BRACE);
    }
    if (block.firstTokenOnOpeningLine === true) this.checkFirstTokenOnOpeningLine(block);
    this.pushFrame('block', '');
  }

  /** What `firstTokenOnOpeningLine` excludes: the parser reads each of these differently. */
  private checkFirstTokenOnOpeningLine(block: Block): void {
    if (this.lineComment !== undefined) {
      this.fail('invalid-model', "a block whose first token shares the '{' line leaves that line no end for an earlier comment", block.position);
    }
    const first = block.directives[0];
    if (first === undefined) {
      if ((block.endComments?.length ?? 0) > 0) this.fail('invalid-model', "an empty block closed on its '{' line has no line for end comments", block.position);
      return;
    }
    if ((first.leadingComments?.length ?? 0) > 0) {
      this.fail('invalid-model', "a first directive on the '{' line has no line for leading comments", first.position ?? block.position);
    }
    if (first.name === 'import') {
      this.fail('invalid-model', "an import right after '{' on its line is not an import (CoreDNS hands it to the plugin as a word)", first.position ?? block.position);
    }
  }

  /** A block's `}`, for a directive at `depth`. */
  private closeBlock(block: Block, depth: number, context: Context): void {
    const last = block.directives[block.directives.length - 1];
    if (block.closedOnLastLine === true && last !== undefined) {
      if ((block.endComments?.length ?? 0) > 0 || block.closingComment !== undefined) {
        this.fail('invalid-model', 'a block closed on its last line has no line for end or closing comments', block.position);
      }
      if (last.name === 'import' && context !== 'snippet') {
        this.fail('invalid-model', "a '}' after an import on its line would be read as a second import argument", block.position);
      }
      this.out.writeBytes(SPACE, CLOSE_BRACE);
      return;
    }
    if (last === undefined && block.firstTokenOnOpeningLine === true) {
      this.out.writeBytes(SPACE, CLOSE_BRACE);
      this.setLineComment(block.closingComment, 'closing comment');
      return;
    }
    this.closeLine(depth, block);
  }

  private closeLine(depth: number, list: DirectiveList): void {
    this.startLine(depth);
    this.out.writeByte(CLOSE_BRACE);
    this.setLineComment(list.closingComment, 'closing comment');
  }

  /** A comment's text as printed after `#`: trailing whitespace dropped (the lexer drops it too). */
  private commentText(comment: Comment, slot: string): string {
    const { text } = comment;
    if (text.includes('\n') || text.includes('\r')) {
      this.fail('unrepresentable-comment', `the comment ${JSON.stringify(text)} contains a line break`, comment.position, slot);
    }
    if (LONE_SURROGATE.test(text)) this.fail('unrepresentable-comment', 'a comment contains a lone UTF-16 surrogate', comment.position, slot);
    return trimTrailingSeparators(text);
  }

  /**
   * Throws the error, `path` naming the node: its frames joined with ` > `; in a model nested
   * deeper than {@link PATH_ENDS} levels at each end, the middle ones are counted, not listed.
   */
  private fail(code: CorefilePrintErrorCode, reason: string, at?: SourcePosition, what?: string): never {
    const parts: string[] = [];
    const count = this.frameTop / 2;
    for (let frame = 0; frame < count; frame += 1) {
      if (frame === PATH_ENDS && count > 2 * PATH_ENDS + 1) {
        parts.push(`… ${(count - 2 * PATH_ENDS).toLocaleString('en')} more …`);
        frame = count - PATH_ENDS - 1;
        continue;
      }
      const label = this.frames[2 * frame] as string;
      const detail = this.frames[2 * frame + 1] as string | number;
      parts.push(label === 'directive' ? `directive '${detail}'` : detail === '' ? label : `${label} ${detail}`);
    }
    const path = parts.join(' > ') + (what === undefined ? '' : ` ${what}`);
    throw new CorefilePrintError(code, reason, path === '' ? 'Corefile' : path, at);
  }
}

/** Why `key` cannot be written as itself at position `index`, if it cannot. */
function keyProblem(key: string, index: number): string | undefined {
  if (key === '') return 'an empty key is dropped by CoreDNS';
  if (key.charCodeAt(key.length - 1) === COMMA) return "a key ending in ',' loses the comma";
  if (key === '{') return "a key '{' opens the block";
  if (index === 0 && key === 'import') return "a first key 'import' is read as an import";
  return undefined;
}
