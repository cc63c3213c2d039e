import { checkArgument } from '../errors/arguments.js';
import { CorefileSyntaxError, makeWarning } from './errors.js';
import type { CorefileWarning } from './errors.js';

/**
 * Stage 1: text → lexemes (words and comments), exactly as CoreDNS's Corefile lexer splits it.
 *
 * - Separators are Go's `unicode.IsSpace` set (not JavaScript's `\s`); only `\n` counts lines.
 * - `\r` outside quotes is deleted, not a separator (`ab\rcd` is `abcd`), so CRLF files work.
 * - A `"` starts a quoted word only as a word's first character; inside, only `\"` is an escape
 *   (every other backslash stays, with the character after it); the closing `"` ends the word even
 *   with no space after it. `""` is an empty word. An unclosed quote runs to the end of input.
 * - `#` outside quotes starts a comment anywhere. At a word's start it runs to the end of the
 *   line; inside a word it cuts the word and runs only to the next separator.
 * - `{` and `}` are words like any other; the parser decides that a whole word `{` is a brace
 *   (quoted or not — CoreDNS does not record quoting).
 * - A U+FEFF as the very first character is dropped; anywhere else it is an ordinary character.
 *
 * {@link Scanner} is the allocation-free cursor the parser pulls from (one pass, linear time);
 * {@link lexCorefile} collects its lexemes as objects for tools and tests.
 */

export interface WordLexeme {
  readonly kind: 'word';
  readonly text: string;
  /** Written in quotes (only informative: CoreDNS treats quoted and bare words alike). */
  readonly quoted: boolean;
  /** Line and column of the first character (the opening quote for a quoted word). */
  readonly line: number;
  readonly column: number;
  /** Line of the last character; differs from `line` only for quoted words spanning lines. */
  readonly endLine: number;
  /** UTF-16 offset of the first character in the text given to the lexer. */
  readonly offset: number;
}

export interface CommentLexeme {
  readonly kind: 'comment';
  /** Text after `#`, `\r` removed, trailing whitespace removed. */
  readonly text: string;
  readonly line: number;
  readonly column: number;
  readonly offset: number;
}

export type Lexeme = WordLexeme | CommentLexeme;

export interface LexResult {
  readonly lexemes: readonly Lexeme[];
  readonly warnings: readonly CorefileWarning[];
}

export interface LexOptions {
  /** Name used in messages. Default `Corefile`. */
  readonly filename?: string;
}

/** Splits `text` into words and comments. Throws {@link CorefileSyntaxError} on lone surrogates. */
export function lexCorefile(text: string, options: LexOptions = {}): LexResult {
  checkArgument('lexCorefile', 'text', text, 'string');
  checkArgument('lexCorefile', 'options', options, 'object?');
  const scanner = new Scanner(text, options.filename ?? 'Corefile');
  const lexemes: Lexeme[] = [];
  while (scanner.next()) {
    const { text: lexemeText, line, column, offset } = scanner;
    lexemes.push(
      scanner.kind === 'word'
        ? { kind: 'word', text: lexemeText, quoted: scanner.quoted, line, column, endLine: scanner.endLine, offset }
        : { kind: 'comment', text: lexemeText, line, column, offset },
    );
  }
  return { lexemes, warnings: scanner.warnings };
}

const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const SPACE = 0x20;
const QUOTE = 0x22;
const HASH = 0x23;
const BACKSLASH = 0x5c;
const BYTE_ORDER_MARK = 0xfeff;

/** Go's `unicode.IsSpace`: the characters that separate Corefile tokens. */
export function isCorefileSeparator(code: number): boolean {
  if (code <= SPACE) return code === SPACE || (code >= 0x09 && code <= 0x0d);
  if (code < 0x85) return false;
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * A lone UTF-16 surrogate: in a `u` expression a pair is one code point, so only an unpaired
 * surrogate falls in the range (the code points of `\p{Cs}`, written out: a property escape makes
 * V8 build its class from ICU's tables when it first runs, ~1.5 M instructions of every start).
 */
const LONE_SURROGATE = /[\ud800-\udfff]/u;

/**
 * Whether `text` holds a lone surrogate: `isWellFormed` (ES2024) where the runtime has it, many
 * times faster than the regular expression on texts with characters beyond Latin-1.
 */
function hasLoneSurrogate(text: string): boolean {
  const isWellFormed = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return isWellFormed === undefined ? LONE_SURROGATE.test(text) : !isWellFormed.call(text);
}

const INTERN_SLOTS = 4096;
const MAX_INTERNED_LENGTH = 24;
/**
 * The intern table, shared by every scanner: an entry is used only after its text is compared
 * with the source, and strings are immutable, so words left by earlier texts are harmless. One
 * table per scanner cost a 4096-slot fill per text, most of the work for a small Corefile (the
 * translator parses one per `--batch` case).
 */
const INTERNED: string[] = new Array<string>(INTERN_SLOTS).fill('');

/**
 * A cursor over the lexemes of a text: `next()` moves to the next lexeme and describes it in the
 * scanner's own fields (no object per lexeme). Throws {@link CorefileSyntaxError} on lone
 * surrogates, which no UTF-8 file can contain.
 */
export class Scanner {
  /** The current lexeme (valid after `next()` returned true). */
  kind: 'word' | 'comment' = 'word';
  text = '';
  quoted = false;
  line = 1;
  column = 1;
  endLine = 1;
  offset = 0;
  /**
   * For a word whose string is shared from the intern table, its slot there (equal words then
   * have the same slot and the same string); -1 for other words and comments.
   */
  slot = -1;
  readonly warnings: CorefileWarning[] = [];

  private index: number;
  /** Line being scanned and where it starts. */
  private currentLine = 1;
  private lineStart: number;
  /** Astral characters (two UTF-16 units, one column) seen since `lineStart`. */
  private astral = 0;
  /** Set when a word ended at a `#`: the comment inside the word comes next. */
  private commentInsideWordAt = -1;
  private readonly interned: string[] = INTERNED;

  /**
   * `firstLine`: the line number of the text's first line (1 unless the text is a run of lines of
   * a larger text, which `parseCorefileLines` reads on its own).
   */
  constructor(
    private readonly source: string,
    private readonly filename: string,
    private readonly firstLine = 1,
  ) {
    const lone = hasLoneSurrogate(source) ? LONE_SURROGATE.exec(source) : null;
    if (lone !== null) this.failAt(lone.index, 'the text contains a lone UTF-16 surrogate (not valid UTF-8)');
    this.index = source.charCodeAt(0) === BYTE_ORDER_MARK ? 1 : 0;
    this.lineStart = this.index;
    this.currentLine = firstLine;
    this.line = this.endLine = firstLine;
  }

  /** Moves to the next word or comment; false at the end of the text. */
  next(): boolean {
    if (this.commentInsideWordAt !== -1) {
      const start = this.commentInsideWordAt;
      this.commentInsideWordAt = -1;
      this.commentInsideWord(start);
      return true;
    }
    const { source } = this;
    const length = source.length;
    let index = this.index;
    while (index < length) {
      const code = source.charCodeAt(index);
      if (code === SPACE) {
        index += 1;
        continue;
      }
      if (code === LINE_FEED) {
        index += 1;
        this.newLine(index);
        continue;
      }
      this.index = index;
      if (code === CARRIAGE_RETURN) {
        if (source.charCodeAt(index + 1) !== LINE_FEED) this.warnCarriageReturn(index);
        index += 1;
      } else if (code === HASH) {
        this.lineComment();
        return true;
      } else if (code === QUOTE) {
        if (this.quotedWord()) return true;
        index = this.index;
      } else if (isCorefileSeparator(code)) {
        index += 1;
      } else {
        this.bareWord();
        return true;
      }
    }
    this.index = index;
    return false;
  }

  private newLine(nextLineStart: number): void {
    this.currentLine += 1;
    this.lineStart = nextLineStart;
    this.astral = 0;
  }

  private columnAt(offset: number): number {
    return offset - this.lineStart - this.astral + 1;
  }

  private setComment(raw: string, offset: number, column: number): void {
    const withoutReturns = raw.includes('\r') ? raw.replaceAll('\r', '') : raw;
    this.kind = 'comment';
    this.text = trimTrailingSeparators(withoutReturns);
    this.slot = -1;
    this.quoted = false;
    this.line = this.endLine = this.currentLine;
    this.column = column;
    this.offset = offset;
  }

  /** `#` at a word's start: everything up to the line feed (not consumed). */
  private lineComment(): void {
    const start = this.index;
    const column = this.columnAt(start);
    let end = this.source.indexOf('\n', start);
    if (end === -1) end = this.source.length;
    this.index = end;
    this.setComment(this.source.slice(start + 1, end), start, column);
  }

  private bareWord(): void {
    const { source } = this;
    const length = source.length;
    const start = this.index;
    const column = this.columnAt(start);
    let pieces: string[] | undefined;
    let pieceStart = start;
    let index = start;
    // The intern hash of a plain ASCII word is computed while scanning it (see `intern`).
    let hash = 0;
    while (index < length) {
      const code = source.charCodeAt(index);
      if (code > SPACE && code < 0x80 && code !== HASH) {
        hash = (Math.imul(hash, 31) + code) | 0;
        index += 1;
        continue;
      }
      if (code === HASH) {
        this.commentInsideWordAt = index;
        break;
      }
      if (code === CARRIAGE_RETURN) {
        if (source.charCodeAt(index + 1) === LINE_FEED) break;
        // A lone CR inside a word is deleted: the word continues after it.
        this.warnCarriageReturn(index);
        (pieces ??= []).push(source.slice(pieceStart, index));
        index += 1;
        pieceStart = index;
        continue;
      }
      if (isCorefileSeparator(code)) break;
      if (isHighSurrogate(code)) {
        this.astral += 1;
        index += 2;
        continue;
      }
      index += 1;
    }
    this.kind = 'word';
    if (pieces === undefined) {
      this.text = this.intern(start, index, hash);
    } else {
      this.text = pieces.join('') + source.slice(pieceStart, index);
      this.slot = -1;
    }
    this.quoted = false;
    this.line = this.endLine = this.currentLine;
    this.column = column;
    this.offset = start;
    this.index = index;
  }

  /**
   * `source.slice(start, end)`, reusing the string of an earlier identical short word: Corefiles
   * repeat their words (`forward`, `.`, `cache`, `30`…), and every string kept costs memory.
   * `hash` is the hash of the word's ASCII characters (h = 31·h + c from 0), computed by the
   * caller while scanning; equal words get equal hashes. Sets `slot`.
   */
  private intern(start: number, end: number, hash: number): string {
    const length = end - start;
    if (length > MAX_INTERNED_LENGTH) {
      this.slot = -1;
      return this.source.slice(start, end);
    }
    const slot = (hash + Math.imul(length, 0x9e3779b1)) & (INTERN_SLOTS - 1);
    this.slot = slot;
    const known = this.interned[slot] as string;
    if (known.length === length && this.source.startsWith(known, start)) return known;
    const word = this.source.slice(start, end);
    this.interned[slot] = word;
    return word;
  }

  /** `#` after a word's first character: cuts the word, hides text up to the next separator. */
  private commentInsideWord(start: number): void {
    const { source } = this;
    const column = this.columnAt(start);
    let index = start + 1;
    while (index < source.length) {
      const code = source.charCodeAt(index);
      if (code !== CARRIAGE_RETURN && isCorefileSeparator(code)) break;
      if (isHighSurrogate(code)) {
        this.astral += 1;
        index += 1;
      }
      index += 1;
    }
    this.index = index;
    this.setComment(source.slice(start + 1, index), start, column);
    this.warnings.push(
      makeWarning(
        'comment-inside-word',
        "'#' inside a word starts a comment that ends at the next space: the text after it is not part of the word",
        { line: this.currentLine, column },
        this.filename,
      ),
    );
  }

  /** A quoted word; false when an unclosed quote with nothing after it yields no word at all. */
  private quotedWord(): boolean {
    const { source } = this;
    const length = source.length;
    const start = this.index;
    const startLine = this.currentLine;
    const column = this.columnAt(start);
    let pieces: string[] | undefined;
    let pieceStart = start + 1;
    let index = start + 1;
    let closed = false;
    while (index < length) {
      const code = source.charCodeAt(index);
      if (code === QUOTE) {
        closed = true;
        break;
      }
      if (code === BACKSLASH) {
        if (index + 1 >= length) {
          // CoreDNS holds the backslash back waiting for the next character, which never comes.
          (pieces ??= []).push(source.slice(pieceStart, index));
          pieceStart = index = length;
          break;
        }
        const next = source.charCodeAt(index + 1);
        if (next === QUOTE) {
          (pieces ??= []).push(source.slice(pieceStart, index), '"');
          index += 2;
          pieceStart = index;
          continue;
        }
        // Any other escaped character stays, together with its backslash.
        index += 1;
        this.track(next, index);
        index += isHighSurrogate(next) ? 2 : 1;
        continue;
      }
      this.track(code, index);
      index += isHighSurrogate(code) ? 2 : 1;
    }
    const tail = source.slice(pieceStart, index);
    const word = pieces === undefined ? tail : pieces.join('') + tail;
    this.index = closed ? index + 1 : length;
    if (!closed) {
      this.warnings.push(
        makeWarning('unterminated-quote', 'this quote is never closed: the word runs to the end of the file', { line: startLine, column }, this.filename),
      );
      // CoreDNS emits no token for an unclosed quote with nothing after it.
      if (word === '') return false;
    }
    if (word === '{' || word === '}') {
      this.warnings.push(
        makeWarning('quoted-brace', `"${word}" is a brace even when quoted: CoreDNS does not record quoting`, { line: startLine, column }, this.filename),
      );
    }
    this.kind = 'word';
    this.text = word;
    this.slot = -1;
    this.quoted = true;
    this.line = startLine;
    this.endLine = this.currentLine;
    this.column = column;
    this.offset = start;
    return true;
  }

  /** Line and column bookkeeping for a character inside a quoted word. */
  private track(code: number, index: number): void {
    if (code === LINE_FEED) this.newLine(index + 1);
    else if (isHighSurrogate(code)) this.astral += 1;
  }

  private warnCarriageReturn(index: number): void {
    this.warnings.push(
      makeWarning(
        'carriage-return',
        'a carriage return that does not end a line (CRLF) is deleted by CoreDNS: the text around it joins up',
        { line: this.currentLine, column: this.columnAt(index) },
        this.filename,
      ),
    );
  }

  private failAt(offset: number, reason: string): never {
    const { source } = this;
    const skipped = source.charCodeAt(0) === BYTE_ORDER_MARK ? 1 : 0;
    let line = this.firstLine;
    let lineStart = skipped;
    for (let index = source.indexOf('\n'); index !== -1 && index < offset; index = source.indexOf('\n', index + 1)) {
      line += 1;
      lineStart = index + 1;
    }
    let column = 1;
    for (let index = lineStart; index < offset; index += isHighSurrogate(source.charCodeAt(index)) ? 2 : 1) column += 1;
    throw new CorefileSyntaxError('invalid-text', reason, { line, column }, this.filename);
  }
}

/** Removes trailing separator characters (Go `unicode.IsSpace`). */
export function trimTrailingSeparators(text: string): string {
  let end = text.length;
  while (end > 0 && isCorefileSeparator(text.charCodeAt(end - 1))) end -= 1;
  return end === text.length ? text : text.slice(0, end);
}
