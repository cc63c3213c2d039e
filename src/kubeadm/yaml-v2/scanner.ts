import {
  CH,
  CR,
  LF,
  LINE_SEPARATOR,
  NEL,
  PARAGRAPH_SEPARATOR,
  SPACE,
  TAB,
  hexDigitValue,
  isBlank,
  isBlankOrEnd,
  isBreak,
  isBreakOrEnd,
  isDigit,
  isHexDigit,
  isIndicator,
  isUriChar,
  isWordChar,
} from './characters.js';
import type { YamlV2Dialect } from './dialect.js';
import { GoPanicError, YamlSyntaxError } from './errors.js';
import type { Mark } from './errors.js';
import { InputReader } from './reader.js';
import { ScalarStyle, TokenKind, makeToken } from './tokens.js';
import type { Token } from './tokens.js';

/** A position where a simple (implicit) mapping key may have started. */
interface SimpleKey {
  possible: boolean;
  /** In block context at the current indentation: the line must turn out to be `key: …`. */
  required: boolean;
  /** Number of the token (counted over the whole stream) the key would be inserted before. */
  tokenNumber: number;
  mark: Mark;
}

/** v2.2.8's limit on nested flow collections and on block indentation levels. */
const MAX_NESTING_DEPTH = 10_000;

/** A simple key longer than this many characters is no longer a key candidate. */
const SIMPLE_KEY_MAX_LENGTH = 1024;

const NO_KEY_MARK: Mark = { index: 0, line: 0, column: 0 };

/**
 * gopkg.in/yaml.v2's scanner (`scannerc.go`, a port of libyaml): turns the character stream into
 * tokens on demand, with libyaml's exact laziness. The parser asks for one token at a time
 * ({@link peekToken}); the scanner fetches only as many tokens as it needs to decide whether the
 * head token starts a simple key (`key: value` without `?`). That laziness decides which error a
 * broken manifest reports: a scanner error further down the text is never reached if the parser
 * fails first, and the reader validates characters only when the scanner asks for them
 * ({@link InputReader}).
 *
 * The behaviour that matters for kubeadm's manifests:
 *
 * * Line breaks are LF, CR, CRLF, NEL, LS and PS (YAML 1.1); a break inside a literal block line
 *   ends the line, and the next line's indentation decides whether the block continues.
 * * A literal block (`|`) ends at the first non-empty line indented less than its indentation
 *   (taken from its first non-empty line). Whitespace-only lines inside are empty lines; a tab
 *   where indentation spaces are expected is an error.
 * * A plain scalar in block context continues over lines indented more than the enclosing block
 *   collection; a potential simple key that spans lines is stale, and if it was *required* (first
 *   token at the block's indentation) that is `could not find expected ':'` — at the position where
 *   the staleness is noticed, which depends on the dialect ({@link YamlV2Dialect.simpleKeyStaleness}).
 * * Errors carry libyaml's marks; {@link YamlSyntaxError} records them for `parser.fail()`.
 */
export class Scanner {
  private readonly reader: InputReader;
  private readonly text: string;
  private readonly length: number;
  private readonly dialect: YamlV2Dialect;
  private readonly lazyKeys: boolean;

  /** Current code unit, and libyaml's mark of the current character. */
  private pos: number;
  private index = 0;
  private line = 0;
  private column = 0;

  private readonly tokens: Token[] = [];
  private head = 0;
  /** Tokens handed to the parser so far. */
  private tokensParsed = 0;
  private tokenAvailable = false;
  private streamStartProduced = false;
  private streamEndProduced = false;

  private indent = -1;
  private readonly indents: number[] = [];
  private flowLevel = 0;
  private simpleKeyAllowed = false;
  private readonly simpleKeys: SimpleKey[] = [];
  /** v2.2.8's `simple_keys_by_tok`: token number → index in {@link simpleKeys}. */
  private readonly keysByToken = new Map<number, number>();
  /** Eager dialects: the keys saved as possible, oldest first (see {@link removeStaleSimpleKeys}). */
  private readonly keyQueue: SimpleKey[] = [];
  private keyQueueHead = 0;
  /** Eager dialects: how many possible keys stand before each token number. */
  private readonly possibleKeysByToken = new Map<number, number>();

  constructor(text: string, dialect: YamlV2Dialect) {
    this.reader = new InputReader(text);
    this.text = text;
    this.length = text.length;
    this.dialect = dialect;
    this.lazyKeys = dialect.simpleKeyStaleness === 'lazy';
    this.pos = this.reader.startUnit;
  }

  /** Whether the STREAM-END token has been handed out (libyaml's `stream_end_produced`). */
  get streamEnded(): boolean {
    return this.streamEndProduced;
  }

  /** `peek_token`: the next token, fetching more as needed. */
  peekToken(): Token {
    if (!this.tokenAvailable) this.fetchMoreTokens();
    return this.tokens[this.head] as Token;
  }

  /** `skip_token`: hands the peeked token to the parser. */
  skipToken(): void {
    const token = this.tokens[this.head] as Token;
    this.tokenAvailable = false;
    this.tokensParsed += 1;
    this.streamEndProduced = token.kind === TokenKind.StreamEnd;
    this.head += 1;
    if (this.head > 64 && this.head * 2 > this.tokens.length) {
      this.tokens.splice(0, this.head);
      this.head = 0;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Input access.

  private mark(): Mark {
    return { index: this.index, line: this.line, column: this.column };
  }

  /** `cache(parser, n)`: makes sure `n` characters are decoded from the current one on. */
  private need(n: number): void {
    if (this.reader.decodedChars - this.index < n && !this.reader.atEnd) this.reader.fill(this.pos, this.index, n);
  }

  /**
   * The code unit `k` units ahead. libyaml only looks ahead past ASCII characters, so `k` units
   * ahead is `k` characters ahead wherever it is used.
   */
  private at(k: number): number {
    const unit = this.pos + k;
    return unit < this.length ? this.text.charCodeAt(unit) : 0;
  }

  /** `skip`: moves past the current character (one or two code units). */
  private skip(): void {
    const c = this.pos < this.length ? this.text.charCodeAt(this.pos) : 0;
    if (c >= 0xd800 && c <= 0xdbff) {
      const low = this.pos + 1 < this.length ? this.text.charCodeAt(this.pos + 1) : 0;
      this.pos += low >= 0xdc00 && low <= 0xdfff ? 2 : 1;
    } else {
      this.pos += 1;
    }
    this.index += 1;
    this.column += 1;
  }

  /** `skip_line`: moves past a line break (CRLF as one). */
  private skipLine(): void {
    const c = this.at(0);
    if (c === CR && this.at(1) === LF) {
      this.pos += 2;
      this.index += 2;
      this.column = 0;
      this.line += 1;
    } else if (isBreak(c)) {
      this.pos += 1;
      this.index += 1;
      this.column = 0;
      this.line += 1;
    }
  }

  /**
   * `for !is_breakz(…) { skip(); cache(1) }`: moves to the next line break (or the end), asking the
   * reader for more characters exactly when yaml.v2 would. A tight loop: literal blocks and comments
   * of big manifests go through here.
   */
  private skipToLineEnd(): void {
    const text = this.text;
    const length = this.length;
    const reader = this.reader;
    let pos = this.pos;
    let index = this.index;
    let column = this.column;
    let decoded = reader.atEnd ? Number.POSITIVE_INFINITY : reader.decodedChars;
    for (;;) {
      const c = pos < length ? text.charCodeAt(pos) : 0;
      if (c === LF || c === CR || c === 0 || c === NEL || c === LINE_SEPARATOR || c === PARAGRAPH_SEPARATOR) break;
      if (c >= 0xd800 && c <= 0xdbff && pos + 1 < length) {
        const low = text.charCodeAt(pos + 1);
        pos += low >= 0xdc00 && low <= 0xdfff ? 2 : 1;
      } else {
        pos += 1;
      }
      index += 1;
      column += 1;
      if (decoded - index < 1) {
        this.pos = pos;
        this.index = index;
        this.column = column;
        this.need(1);
        decoded = reader.atEnd ? Number.POSITIVE_INFINITY : reader.decodedChars;
      }
    }
    this.pos = pos;
    this.index = index;
    this.column = column;
  }

  /**
   * `read_line`: moves past a line break and returns what it contributes to a scalar: CR, LF, CRLF
   * and NEL become `\n`, LS and PS stay themselves. Not at a break: returns '' and does not move.
   */
  private readLine(): string {
    const c = this.at(0);
    let text: string;
    if (c === CR && this.at(1) === LF) {
      this.pos += 2;
      this.index += 2;
      text = '\n';
    } else if (c === CR || c === LF || c === NEL) {
      this.pos += 1;
      this.index += 1;
      text = '\n';
    } else if (c === LINE_SEPARATOR || c === PARAGRAPH_SEPARATOR) {
      this.pos += 1;
      this.index += 1;
      text = String.fromCharCode(c);
    } else {
      return '';
    }
    this.column = 0;
    this.line += 1;
    return text;
  }

  private error(context: string, contextMark: Mark, problem: string): YamlSyntaxError {
    return new YamlSyntaxError('scanner', problem, this.mark(), context, contextMark);
  }

  // ---------------------------------------------------------------------------------------------
  // Token queue and simple keys.

  private tokenCount(): number {
    return this.tokensParsed + (this.tokens.length - this.head);
  }

  /** `yaml_insert_token`: appends (`position < 0`) or inserts relative to the queue head. */
  private insertToken(position: number, token: Token): void {
    if (position < 0) this.tokens.push(token);
    else this.tokens.splice(this.head + position, 0, token);
  }

  /** `yaml_parser_fetch_more_tokens`. */
  private fetchMoreTokens(): void {
    for (;;) {
      if (this.head !== this.tokens.length) {
        if (this.lazyKeys) {
          // v2.2.8: only the key that could occupy the head position is checked.
          const slot = this.keysByToken.get(this.tokensParsed);
          if (slot === undefined) break;
          const key = this.simpleKeys[slot];
          if (key === undefined) throw new GoPanicError('runtime error: index out of range');
          if (!this.keyIsStillPossible(key)) break;
        } else {
          // libyaml: drop stale keys, then look for a possible key at the head position.
          this.removeStaleSimpleKeys();
          if ((this.possibleKeysByToken.get(this.tokensParsed) ?? 0) === 0) break;
        }
      }
      this.fetchNextToken();
    }
    this.tokenAvailable = true;
  }

  /** A key candidate must stay on one line and within 1024 characters. */
  private isStale(key: SimpleKey): boolean {
    return key.mark.line < this.line || key.mark.index + SIMPLE_KEY_MAX_LENGTH < this.index;
  }

  /**
   * libyaml's `yaml_parser_stale_simple_keys` (eager dialects): every possible key that has become
   * stale is dropped, and a stale required key is an error. libyaml walks the whole key stack (one
   * entry per flow level) each time, which is quadratic for deeply nested flow collections; here the
   * possible keys wait in creation order instead. Staleness only grows with age and only the
   * outermost key can be required, so dropping stale keys from the oldest on finds the same keys
   * and the same error.
   */
  private removeStaleSimpleKeys(): void {
    const queue = this.keyQueue;
    while (this.keyQueueHead < queue.length) {
      const key = queue[this.keyQueueHead] as SimpleKey;
      if (key.possible) {
        if (!this.isStale(key)) break;
        if (key.required) throw this.error('while scanning a simple key', key.mark, "could not find expected ':'");
        this.dropKey(key);
      }
      this.keyQueueHead += 1;
    }
    if (this.keyQueueHead > 1024 && this.keyQueueHead * 2 > queue.length) {
      queue.splice(0, this.keyQueueHead);
      this.keyQueueHead = 0;
    }
  }

  /** Marks a key impossible, keeping the eager bookkeeping in step. */
  private dropKey(key: SimpleKey): void {
    if (key.possible && !this.lazyKeys) {
      const count = (this.possibleKeysByToken.get(key.tokenNumber) ?? 1) - 1;
      if (count === 0) this.possibleKeysByToken.delete(key.tokenNumber);
      else this.possibleKeysByToken.set(key.tokenNumber, count);
    }
    key.possible = false;
  }

  /** v2.2.8's `yaml_simple_key_is_valid` (lazy dialect). */
  private keyIsStillPossible(key: SimpleKey): boolean {
    if (!key.possible) return false;
    if (this.isStale(key)) {
      if (key.required) throw this.error('while scanning a simple key', key.mark, "could not find expected ':'");
      key.possible = false;
      return false;
    }
    return true;
  }

  private currentKey(): SimpleKey {
    return this.simpleKeys[this.simpleKeys.length - 1] as SimpleKey;
  }

  /** `yaml_parser_save_simple_key`: the current token may be a simple key. */
  private saveSimpleKey(): void {
    const required = this.flowLevel === 0 && this.indent === this.column;
    if (required && !this.simpleKeyAllowed && this.dialect.panicsOnDisallowedRequiredKey) {
      throw new GoPanicError('should not happen');
    }
    if (!this.simpleKeyAllowed) return;
    const key: SimpleKey = { possible: true, required, tokenNumber: this.tokenCount(), mark: this.mark() };
    this.removeSimpleKey();
    const slot = this.simpleKeys.length - 1;
    this.simpleKeys[slot] = key;
    if (this.lazyKeys) {
      this.keysByToken.set(key.tokenNumber, slot);
    } else {
      this.keyQueue.push(key);
      this.possibleKeysByToken.set(key.tokenNumber, (this.possibleKeysByToken.get(key.tokenNumber) ?? 0) + 1);
    }
  }

  /** `yaml_parser_remove_simple_key`: a required key that is dropped is an error. */
  private removeSimpleKey(): void {
    const key = this.currentKey();
    if (key.possible && key.required) {
      throw this.error('while scanning a simple key', key.mark, "could not find expected ':'");
    }
    if (key.possible && this.lazyKeys) this.keysByToken.delete(key.tokenNumber);
    this.dropKey(key);
  }

  private increaseFlowLevel(): void {
    const placeholder: SimpleKey = this.lazyKeys
      ? { possible: false, required: false, tokenNumber: this.tokenCount(), mark: this.mark() }
      : { possible: false, required: false, tokenNumber: 0, mark: NO_KEY_MARK };
    this.simpleKeys.push(placeholder);
    this.flowLevel += 1;
    if (this.dialect.limitsNestingDepth && this.flowLevel > MAX_NESTING_DEPTH) {
      throw this.error('while increasing flow level', placeholder.mark, `exceeded max depth of ${MAX_NESTING_DEPTH}`);
    }
  }

  private decreaseFlowLevel(): void {
    if (this.flowLevel === 0) return;
    this.flowLevel -= 1;
    const key = this.simpleKeys.pop() as SimpleKey;
    if (this.lazyKeys) this.keysByToken.delete(key.tokenNumber);
    // A key that leaves the stack is no longer looked at.
    else this.dropKey(key);
  }

  /**
   * `yaml_parser_roll_indent`: in block context, a collection starting at `column` beyond the
   * current indentation opens a new level with a BLOCK-SEQUENCE-START or BLOCK-MAPPING-START token,
   * inserted before token number `tokenNumber` (or appended when it is -1).
   */
  private rollIndent(column: number, tokenNumber: number, kind: TokenKind, mark: Mark): void {
    if (this.flowLevel > 0) return;
    if (this.indent < column) {
      this.indents.push(this.indent);
      this.indent = column;
      if (this.dialect.limitsNestingDepth && this.indents.length > MAX_NESTING_DEPTH) {
        throw this.error('while increasing indent level', this.currentKey().mark, `exceeded max depth of ${MAX_NESTING_DEPTH}`);
      }
      this.insertToken(tokenNumber > -1 ? tokenNumber - this.tokensParsed : -1, makeToken(kind, mark, mark));
    }
  }

  /** `yaml_parser_unroll_indent`: closes block collections indented deeper than `column`. */
  private unrollIndent(column: number): void {
    if (this.flowLevel > 0) return;
    while (this.indent > column) {
      const mark = this.mark();
      this.insertToken(-1, makeToken(TokenKind.BlockEnd, mark, mark));
      this.indent = this.indents.pop() as number;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // The token dispatcher.

  /** `yaml_parser_fetch_next_token`. */
  private fetchNextToken(): void {
    this.need(1);
    if (!this.streamStartProduced) {
      this.fetchStreamStart();
      return;
    }
    this.scanToNextToken();
    if (!this.lazyKeys) this.removeStaleSimpleKeys();
    this.unrollIndent(this.column);
    this.need(4);

    const c = this.at(0);
    if (c === 0) {
      this.fetchStreamEnd();
      return;
    }
    if (this.column === 0) {
      if (c === CH.percent) {
        this.fetchDirective();
        return;
      }
      if (
        (c === CH.minus || c === CH.dot) &&
        this.at(1) === c &&
        this.at(2) === c &&
        isBlankOrEnd(this.at(3))
      ) {
        this.fetchDocumentIndicator(c === CH.minus ? TokenKind.DocumentStart : TokenKind.DocumentEnd);
        return;
      }
    }
    switch (c) {
      case CH.leftBracket:
        this.fetchFlowCollectionStart(TokenKind.FlowSequenceStart);
        return;
      case CH.leftBrace:
        this.fetchFlowCollectionStart(TokenKind.FlowMappingStart);
        return;
      case CH.rightBracket:
        this.fetchFlowCollectionEnd(TokenKind.FlowSequenceEnd);
        return;
      case CH.rightBrace:
        this.fetchFlowCollectionEnd(TokenKind.FlowMappingEnd);
        return;
      case CH.comma:
        this.fetchFlowEntry();
        return;
      default:
        break;
    }
    if (c === CH.minus && isBlankOrEnd(this.at(1))) {
      this.fetchBlockEntry();
      return;
    }
    if (c === CH.question && (this.flowLevel > 0 || isBlankOrEnd(this.at(1)))) {
      this.fetchKey();
      return;
    }
    if (c === CH.colon && (this.flowLevel > 0 || isBlankOrEnd(this.at(1)))) {
      this.fetchValue();
      return;
    }
    switch (c) {
      case CH.asterisk:
        this.fetchAnchor(TokenKind.Alias);
        return;
      case CH.ampersand:
        this.fetchAnchor(TokenKind.Anchor);
        return;
      case CH.bang:
        this.fetchTag();
        return;
      default:
        break;
    }
    if (this.flowLevel === 0 && (c === CH.pipe || c === CH.greater)) {
      this.fetchBlockScalar(c === CH.pipe);
      return;
    }
    if (c === CH.singleQuote || c === CH.doubleQuote) {
      this.fetchFlowScalar(c === CH.singleQuote);
      return;
    }
    if (
      !(isBlankOrEnd(c) || isIndicator(c)) ||
      (c === CH.minus && !isBlank(this.at(1))) ||
      (this.flowLevel === 0 && (c === CH.question || c === CH.colon) && !isBlankOrEnd(this.at(1)))
    ) {
      this.fetchPlainScalar();
      return;
    }
    throw this.error('while scanning for the next token', this.mark(), 'found character that cannot start any token');
  }

  private fetchStreamStart(): void {
    this.indent = -1;
    this.simpleKeys.push({ possible: false, required: false, tokenNumber: 0, mark: NO_KEY_MARK });
    this.simpleKeyAllowed = true;
    this.streamStartProduced = true;
    const mark = this.mark();
    this.insertToken(-1, makeToken(TokenKind.StreamStart, mark, mark));
  }

  private fetchStreamEnd(): void {
    // The end of the stream counts as the start of a line.
    if (this.column !== 0) {
      this.column = 0;
      this.line += 1;
    }
    this.unrollIndent(-1);
    this.removeSimpleKey();
    this.simpleKeyAllowed = false;
    const mark = this.mark();
    this.insertToken(-1, makeToken(TokenKind.StreamEnd, mark, mark));
  }

  private fetchDirective(): void {
    this.unrollIndent(-1);
    this.removeSimpleKey();
    this.simpleKeyAllowed = false;
    this.insertToken(-1, this.scanDirective());
  }

  private fetchDocumentIndicator(kind: TokenKind): void {
    this.unrollIndent(-1);
    this.removeSimpleKey();
    this.simpleKeyAllowed = false;
    const start = this.mark();
    this.skip();
    this.skip();
    this.skip();
    this.insertToken(-1, makeToken(kind, start, this.mark()));
  }

  private fetchFlowCollectionStart(kind: TokenKind): void {
    this.saveSimpleKey();
    this.increaseFlowLevel();
    this.simpleKeyAllowed = true;
    const start = this.mark();
    this.skip();
    this.insertToken(-1, makeToken(kind, start, this.mark()));
  }

  private fetchFlowCollectionEnd(kind: TokenKind): void {
    this.removeSimpleKey();
    this.decreaseFlowLevel();
    this.simpleKeyAllowed = false;
    const start = this.mark();
    this.skip();
    this.insertToken(-1, makeToken(kind, start, this.mark()));
  }

  private fetchFlowEntry(): void {
    this.removeSimpleKey();
    this.simpleKeyAllowed = true;
    const start = this.mark();
    this.skip();
    this.insertToken(-1, makeToken(TokenKind.FlowEntry, start, this.mark()));
  }

  private fetchBlockEntry(): void {
    if (this.flowLevel === 0) {
      if (!this.simpleKeyAllowed) {
        throw this.error('', this.mark(), 'block sequence entries are not allowed in this context');
      }
      this.rollIndent(this.column, -1, TokenKind.BlockSequenceStart, this.mark());
    }
    // In flow context a '-' is an error the parser reports.
    this.removeSimpleKey();
    this.simpleKeyAllowed = true;
    const start = this.mark();
    this.skip();
    this.insertToken(-1, makeToken(TokenKind.BlockEntry, start, this.mark()));
  }

  private fetchKey(): void {
    if (this.flowLevel === 0) {
      if (!this.simpleKeyAllowed) {
        throw this.error('', this.mark(), 'mapping keys are not allowed in this context');
      }
      this.rollIndent(this.column, -1, TokenKind.BlockMappingStart, this.mark());
    }
    this.removeSimpleKey();
    this.simpleKeyAllowed = this.flowLevel === 0;
    const start = this.mark();
    this.skip();
    this.insertToken(-1, makeToken(TokenKind.Key, start, this.mark()));
  }

  private fetchValue(): void {
    const key = this.currentKey();
    const simpleKeyFound = this.lazyKeys ? this.keyIsStillPossible(key) : key.possible;
    if (simpleKeyFound) {
      // The candidate was a key after all: insert KEY (and maybe BLOCK-MAPPING-START) before it.
      this.insertToken(key.tokenNumber - this.tokensParsed, makeToken(TokenKind.Key, key.mark, key.mark));
      this.rollIndent(key.mark.column, key.tokenNumber, TokenKind.BlockMappingStart, key.mark);
      this.dropKey(key);
      if (this.lazyKeys) this.keysByToken.delete(key.tokenNumber);
      this.simpleKeyAllowed = false;
    } else {
      // The ':' follows a complex key ('?') or stands alone.
      if (this.flowLevel === 0) {
        if (!this.simpleKeyAllowed) {
          throw this.error('', this.mark(), 'mapping values are not allowed in this context');
        }
        this.rollIndent(this.column, -1, TokenKind.BlockMappingStart, this.mark());
      }
      this.simpleKeyAllowed = this.flowLevel === 0;
    }
    const start = this.mark();
    this.skip();
    this.insertToken(-1, makeToken(TokenKind.Value, start, this.mark()));
  }

  private fetchAnchor(kind: TokenKind): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    this.insertToken(-1, this.scanAnchor(kind));
  }

  private fetchTag(): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    this.insertToken(-1, this.scanTag());
  }

  private fetchBlockScalar(literal: boolean): void {
    this.removeSimpleKey();
    this.simpleKeyAllowed = true;
    this.insertToken(-1, this.scanBlockScalar(literal));
  }

  private fetchFlowScalar(single: boolean): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    this.insertToken(-1, this.scanFlowScalar(single));
  }

  private fetchPlainScalar(): void {
    this.saveSimpleKey();
    this.simpleKeyAllowed = false;
    this.insertToken(-1, this.scanPlainScalar());
  }

  // ---------------------------------------------------------------------------------------------
  // Scanners.

  /**
   * `yaml_parser_scan_to_next_token`: skips spaces, comments and line breaks (tabs only where a
   * simple key is not allowed, or in flow context). At column 0 it also skips one character when
   * yaml.v2's buggy `is_bom` sees a byte order mark at the start of its buffer.
   */
  private scanToNextToken(): void {
    for (;;) {
      this.need(1);
      if (this.column === 0 && this.reader.bufferStartsWithBom()) this.skip();
      this.need(1);
      for (;;) {
        const c = this.at(0);
        if (!(c === SPACE || ((this.flowLevel > 0 || !this.simpleKeyAllowed) && c === TAB))) break;
        this.skip();
        this.need(1);
      }
      if (this.at(0) === CH.hash) this.skipToLineEnd();
      if (!isBreak(this.at(0))) return;
      this.need(2);
      this.skipLine();
      if (this.flowLevel === 0) this.simpleKeyAllowed = true;
    }
  }

  /** Skips blanks and a comment up to the end of the line. */
  private skipBlanksAndComment(): void {
    this.need(1);
    while (isBlank(this.at(0))) {
      this.skip();
      this.need(1);
    }
    if (this.at(0) === CH.hash) this.skipToLineEnd();
  }

  /** `%YAML` and `%TAG` directives. */
  private scanDirective(): Token {
    const start = this.mark();
    this.skip();
    const name = this.scanDirectiveName(start);
    let token: Token;
    if (name === 'YAML') {
      this.skipBlanks();
      const major = this.scanVersionNumber(start);
      if (this.at(0) !== CH.dot) {
        throw this.error('while scanning a %YAML directive', start, "did not find expected digit or '.' character");
      }
      this.skip();
      const minor = this.scanVersionNumber(start);
      token = { ...makeToken(TokenKind.VersionDirective, start, this.mark()), major, minor };
    } else if (name === 'TAG') {
      this.skipBlanks();
      const handle = this.scanTagHandle(true, start);
      this.need(1);
      if (!isBlank(this.at(0))) {
        throw this.error('while scanning a %TAG directive', start, 'did not find expected whitespace');
      }
      while (isBlank(this.at(0))) {
        this.skip();
        this.need(1);
      }
      const prefix = this.scanTagUri(true, '', start);
      this.need(1);
      if (!isBlankOrEnd(this.at(0))) {
        throw this.error('while scanning a %TAG directive', start, 'did not find expected whitespace or line break');
      }
      token = makeToken(TokenKind.TagDirective, start, this.mark(), handle, prefix);
    } else {
      throw this.error('while scanning a directive', start, 'found unknown directive name');
    }
    this.skipBlanksAndComment();
    if (!isBreakOrEnd(this.at(0))) {
      throw this.error('while scanning a directive', start, 'did not find expected comment or line break');
    }
    if (isBreak(this.at(0))) {
      this.need(2);
      this.skipLine();
    }
    return token;
  }

  private skipBlanks(): void {
    this.need(1);
    while (isBlank(this.at(0))) {
      this.skip();
      this.need(1);
    }
  }

  private scanDirectiveName(start: Mark): string {
    this.need(1);
    const from = this.pos;
    while (isWordChar(this.at(0))) {
      this.skip();
      this.need(1);
    }
    if (this.pos === from) throw this.error('while scanning a directive', start, 'could not find expected directive name');
    if (!isBlankOrEnd(this.at(0))) {
      throw this.error('while scanning a directive', start, 'found unexpected non-alphabetical character');
    }
    return this.text.slice(from, this.pos);
  }

  private scanVersionNumber(start: Mark): number {
    this.need(1);
    let value = 0;
    let length = 0;
    while (isDigit(this.at(0))) {
      length += 1;
      if (length > 2) throw this.error('while scanning a %YAML directive', start, 'found extremely long version number');
      value = value * 10 + (this.at(0) - CH.zero);
      this.skip();
      this.need(1);
    }
    if (length === 0) throw this.error('while scanning a %YAML directive', start, 'did not find expected version number');
    return value;
  }

  private scanAnchor(kind: TokenKind): Token {
    const start = this.mark();
    this.skip();
    this.need(1);
    const from = this.pos;
    while (isWordChar(this.at(0))) {
      this.skip();
      this.need(1);
    }
    const end = this.mark();
    const c = this.at(0);
    const endsWell =
      isBlankOrEnd(c) ||
      c === CH.question ||
      c === CH.colon ||
      c === CH.comma ||
      c === CH.rightBracket ||
      c === CH.rightBrace ||
      c === CH.percent ||
      c === CH.at ||
      c === CH.backtick;
    if (this.pos === from || !endsWell) {
      const context = kind === TokenKind.Anchor ? 'while scanning an anchor' : 'while scanning an alias';
      throw this.error(context, start, 'did not find expected alphabetic or numeric character');
    }
    return makeToken(kind, start, end, this.text.slice(from, this.pos));
  }

  private tagError(directive: boolean, start: Mark, problem: string): YamlSyntaxError {
    return this.error(directive ? 'while parsing a %TAG directive' : 'while parsing a tag', start, problem);
  }

  /** `!<verbatim>`, `!handle!suffix`, `!suffix` and `!`. */
  private scanTag(): Token {
    const start = this.mark();
    this.need(2);
    let handle: string;
    let suffix: string;
    if (this.at(1) === CH.less) {
      handle = '';
      this.skip();
      this.skip();
      suffix = this.scanTagUri(false, '', start);
      if (this.at(0) !== CH.greater) throw this.error('while scanning a tag', start, "did not find the expected '>'");
      this.skip();
    } else {
      handle = this.scanTagHandle(false, start);
      if (handle.length > 1 && handle.endsWith('!')) {
        suffix = this.scanTagUri(false, '', start);
      } else {
        // Not a handle after all: it is the start of the suffix of a '!' tag.
        suffix = this.scanTagUri(false, handle, start);
        handle = '!';
        if (suffix.length === 0) {
          handle = '';
          suffix = '!';
        }
      }
    }
    this.need(1);
    if (!isBlankOrEnd(this.at(0))) {
      throw this.error('while scanning a tag', start, 'did not find expected whitespace or line break');
    }
    return makeToken(TokenKind.Tag, start, this.mark(), handle, suffix);
  }

  private scanTagHandle(directive: boolean, start: Mark): string {
    this.need(1);
    if (this.at(0) !== CH.bang) throw this.tagError(directive, start, "did not find expected '!'");
    const from = this.pos;
    this.skip();
    this.need(1);
    while (isWordChar(this.at(0))) {
      this.skip();
      this.need(1);
    }
    if (this.at(0) === CH.bang) {
      this.skip();
    } else if (directive) {
      // A %TAG handle must end with '!' unless it is the primary handle '!' itself.
      const loneBang = this.pos - from === 1;
      if (this.dialect.legacyTagScanning) {
        // 2017 tests `s[1] == 0`, one byte past the end of a lone '!'.
        if (loneBang) throw new GoPanicError('runtime error: index out of range [1] with length 1');
        throw this.tagError(directive, start, "did not find expected '!'");
      }
      if (!loneBang) throw this.tagError(directive, start, "did not find expected '!'");
    }
    return this.text.slice(from, this.pos);
  }

  /** A tag URI; `head` is a would-be handle whose characters after the '!' start the URI. */
  private scanTagUri(directive: boolean, head: string, start: Mark): string {
    const parts: string[] = head.length > 0 ? [head.slice(1)] : [];
    // 2017 counts the head and the characters read, v2.2 anything (escapes too).
    let hasTag = head.length > 0;
    this.need(1);
    let from = this.pos;
    while (isUriChar(this.at(0))) {
      if (this.at(0) === CH.percent) {
        parts.push(this.text.slice(from, this.pos));
        parts.push(this.scanUriEscapes(directive, start));
        from = this.pos;
        if (!this.dialect.legacyTagScanning) hasTag = true;
      } else {
        this.skip();
        hasTag = true;
      }
      this.need(1);
    }
    parts.push(this.text.slice(from, this.pos));
    if (!hasTag) throw this.tagError(directive, start, 'did not find expected tag URI');
    return parts.join('');
  }

  /** `%XX` escapes of one UTF-8 character in a tag URI. */
  private scanUriEscapes(directive: boolean, start: Mark): string {
    const octets: number[] = [];
    let remaining = 1024;
    while (remaining > 0) {
      this.need(3);
      if (!(this.at(0) === CH.percent && isHexDigit(this.at(1)) && isHexDigit(this.at(2)))) {
        throw this.tagError(directive, start, 'did not find URI escaped octet');
      }
      const octet = (hexDigitValue(this.at(1)) << 4) + hexDigitValue(this.at(2));
      if (remaining === 1024) {
        remaining = utf8SequenceLength(octet);
        if (remaining === 0) throw this.tagError(directive, start, 'found an incorrect leading UTF-8 octet');
      } else if ((octet & 0xc0) !== 0x80) {
        throw this.tagError(directive, start, 'found an incorrect trailing UTF-8 octet');
      }
      octets.push(octet);
      this.skip();
      this.skip();
      this.skip();
      remaining -= 1;
    }
    return decodeUtf8(octets);
  }

  /** Literal (`|`) and folded (`>`) block scalars. */
  private scanBlockScalar(literal: boolean): Token {
    const start = this.mark();
    this.skip();
    this.need(1);
    let chomping = 0;
    let increment = 0;
    let c = this.at(0);
    if (c === CH.plus || c === CH.minus) {
      chomping = c === CH.plus ? 1 : -1;
      this.skip();
      this.need(1);
      if (isDigit(this.at(0))) {
        if (this.at(0) === CH.zero) {
          throw this.error('while scanning a block scalar', start, 'found an indentation indicator equal to 0');
        }
        increment = this.at(0) - CH.zero;
        this.skip();
      }
    } else if (isDigit(c)) {
      if (c === CH.zero) throw this.error('while scanning a block scalar', start, 'found an indentation indicator equal to 0');
      increment = c - CH.zero;
      this.skip();
      this.need(1);
      c = this.at(0);
      if (c === CH.plus || c === CH.minus) {
        chomping = c === CH.plus ? 1 : -1;
        this.skip();
      }
    }
    this.skipBlanksAndComment();
    if (!isBreakOrEnd(this.at(0))) {
      throw this.error('while scanning a block scalar', start, 'did not find expected comment or line break');
    }
    if (isBreak(this.at(0))) {
      this.need(2);
      this.skipLine();
    }

    const state: BlockScalarState = {
      indent: increment > 0 ? (this.indent >= 0 ? this.indent + increment : increment) : 0,
      endIndex: this.index,
      endLine: this.line,
      endColumn: this.column,
      breaks: '',
      value: '',
      literalFast: literal,
      bodyStart: this.pos,
      lastContentEnd: -1,
    };
    let leadingBreak = '';
    let leadingBlank = false;
    this.scanBlockScalarBreaks(state, start);

    this.need(1);
    while (this.column === state.indent && this.at(0) !== 0) {
      // At the start of a non-empty line.
      if (state.literalFast) {
        // The value is cut out of the source at the end (see literalBlockText).
        leadingBreak = '';
        state.breaks = '';
        this.skipToLineEnd();
        state.lastContentEnd = this.pos;
      } else {
        const trailingBlank = isBlank(this.at(0));
        if (!literal && !leadingBlank && !trailingBlank && leadingBreak.length > 0 && leadingBreak.charCodeAt(0) === LF) {
          // Folding: a single line break between two text lines becomes a space.
          if (state.breaks.length === 0) state.value += ' ';
        } else {
          state.value += leadingBreak;
        }
        leadingBreak = '';
        state.value += state.breaks;
        state.breaks = '';
        leadingBlank = isBlank(this.at(0));
        const from = this.pos;
        this.skipToLineEnd();
        state.value += this.text.slice(from, this.pos);
      }
      this.need(2);
      leadingBreak = this.readBlockBreak(state);
      this.scanBlockScalarBreaks(state, start);
    }
    if (state.literalFast && state.lastContentEnd >= 0) state.value += this.literalBlockText(state);

    // Chomping: clip keeps one final break, keep (+) all, strip (-) none.
    if (chomping !== -1) state.value += leadingBreak;
    if (chomping === 1) state.value += state.breaks;

    return makeToken(
      TokenKind.Scalar,
      start,
      { index: state.endIndex, line: state.endLine, column: state.endColumn },
      state.value,
      '',
      literal ? ScalarStyle.Literal : ScalarStyle.Folded,
    );
  }

  /**
   * The text of a literal block's lines so far, all ended by LF: the source from the block's first
   * line to the end of its last content line, with each line's indentation (up to the block's
   * indentation, spaces only) removed. Building it with one native replace instead of a slice per
   * line keeps decoding a multi-megabyte Corefile fast; it equals what libyaml's line loop appends.
   */
  private literalBlockText(state: BlockScalarState): string {
    const text = this.text;
    // The first line's indentation, then every other line's.
    let first = state.bodyStart;
    while (first < state.lastContentEnd && first - state.bodyStart < state.indent && text.charCodeAt(first) === SPACE) first += 1;
    return text.slice(first, state.lastContentEnd).replace(indentationPattern(state.indent), '\n');
  }

  /**
   * `read_line` inside a block scalar. A break other than LF ends the fast path of a literal block:
   * the lines so far become one part and the rest is collected line by line.
   */
  private readBlockBreak(state: BlockScalarState): string {
    if (state.literalFast && this.at(0) !== LF) {
      state.literalFast = false;
      if (state.lastContentEnd >= 0) state.value += this.literalBlockText(state);
    }
    return this.readLine();
  }

  /**
   * `yaml_parser_scan_block_scalar_breaks`: eats indentation and empty lines, collecting their
   * breaks; without an explicit indentation indicator, the first non-empty line (or the deepest
   * whitespace-only line before it) fixes the block's indentation — at least one more than the
   * enclosing block's.
   */
  private scanBlockScalarBreaks(state: BlockScalarState, start: Mark): void {
    state.endIndex = this.index;
    state.endLine = this.line;
    state.endColumn = this.column;
    let maxIndent = 0;
    for (;;) {
      this.need(1);
      while ((state.indent === 0 || this.column < state.indent) && this.at(0) === SPACE) {
        // A space is one code unit and one character.
        this.pos += 1;
        this.index += 1;
        this.column += 1;
        this.need(1);
      }
      if (this.column > maxIndent) maxIndent = this.column;
      if ((state.indent === 0 || this.column < state.indent) && this.at(0) === TAB) {
        throw this.error('while scanning a block scalar', start, 'found a tab character where an indentation space is expected');
      }
      if (!isBreak(this.at(0))) break;
      this.need(2);
      state.breaks += this.readBlockBreak(state);
      state.endIndex = this.index;
      state.endLine = this.line;
      state.endColumn = this.column;
    }
    if (state.indent === 0) {
      state.indent = Math.max(maxIndent, this.indent + 1, 1);
    }
  }

  /** Single- and double-quoted scalars. */
  private scanFlowScalar(single: boolean): Token {
    const start = this.mark();
    this.skip();
    let value = '';
    let leadingBreak = '';
    let trailingBreaks = '';
    let whitespaces = '';
    for (;;) {
      this.need(4);
      if (
        this.column === 0 &&
        (this.at(0) === CH.minus || this.at(0) === CH.dot) &&
        this.at(1) === this.at(0) &&
        this.at(2) === this.at(0) &&
        isBlankOrEnd(this.at(3))
      ) {
        throw this.error('while scanning a quoted scalar', start, 'found unexpected document indicator');
      }
      if (this.at(0) === 0) throw this.error('while scanning a quoted scalar', start, 'found unexpected end of stream');

      // Non-blank characters.
      let leadingBlanks = false;
      let from = this.pos;
      while (!isBlankOrEnd(this.at(0))) {
        const c = this.at(0);
        if (single && c === CH.singleQuote && this.at(1) === CH.singleQuote) {
          value += `${this.text.slice(from, this.pos)}'`;
          this.skip();
          this.skip();
          from = this.pos;
        } else if (single ? c === CH.singleQuote : c === CH.doubleQuote) {
          break;
        } else if (!single && c === CH.backslash && isBreak(this.at(1))) {
          // An escaped line break: the break and the next line's indentation vanish.
          value += this.text.slice(from, this.pos);
          this.need(3);
          this.skip();
          this.skipLine();
          leadingBlanks = true;
          from = this.pos;
          break;
        } else if (!single && c === CH.backslash) {
          value += this.text.slice(from, this.pos);
          value += this.scanEscape(start);
          from = this.pos;
        } else {
          this.skip();
        }
        this.need(2);
      }
      value += this.text.slice(from, this.pos);

      if (this.at(0) === (single ? CH.singleQuote : CH.doubleQuote)) break;

      // Blanks and line breaks.
      this.need(1);
      while (isBlank(this.at(0)) || isBreak(this.at(0))) {
        if (isBlank(this.at(0))) {
          if (!leadingBlanks) whitespaces += String.fromCharCode(this.at(0));
          this.skip();
        } else {
          this.need(2);
          if (!leadingBlanks) {
            whitespaces = '';
            leadingBreak = this.readLine();
            leadingBlanks = true;
          } else {
            trailingBreaks += this.readLine();
          }
        }
        this.need(1);
      }

      // Join whitespace or fold line breaks.
      if (leadingBlanks) {
        if (leadingBreak.length > 0 && leadingBreak.charCodeAt(0) === LF) {
          value += trailingBreaks.length === 0 ? ' ' : trailingBreaks;
        } else {
          value += leadingBreak + trailingBreaks;
        }
        leadingBreak = '';
        trailingBreaks = '';
      } else {
        value += whitespaces;
        whitespaces = '';
      }
    }
    this.skip();
    return makeToken(
      TokenKind.Scalar,
      start,
      this.mark(),
      value,
      '',
      single ? ScalarStyle.SingleQuoted : ScalarStyle.DoubleQuoted,
    );
  }

  /** A backslash escape of a double-quoted scalar; returns the character(s) it stands for. */
  private scanEscape(start: Mark): string {
    let codeLength = 0;
    let text = '';
    switch (this.at(1)) {
      case 0x30: text = '\0'; break; // 0
      case 0x61: text = '\x07'; break; // a
      case 0x62: text = '\b'; break; // b
      case 0x74: case TAB: text = '\t'; break; // t
      case 0x6e: text = '\n'; break; // n
      case 0x76: text = '\v'; break; // v
      case 0x66: text = '\f'; break; // f
      case 0x72: text = '\r'; break; // r
      case 0x65: text = '\x1b'; break; // e
      case SPACE: text = ' '; break;
      case CH.doubleQuote: text = '"'; break;
      case CH.singleQuote: text = "'"; break;
      case CH.backslash: text = '\\'; break;
      case 0x4e: text = '\x85'; break; // N
      case 0x5f: text = '\xa0'; break; // _
      case 0x4c: text = '\u2028'; break; // L
      case 0x50: text = '\u2029'; break; // P
      case 0x78: codeLength = 2; break; // x
      case 0x75: codeLength = 4; break; // u
      case 0x55: codeLength = 8; break; // U
      default:
        throw this.error('while parsing a quoted scalar', start, 'found unknown escape character');
    }
    this.skip();
    this.skip();
    if (codeLength === 0) return text;
    this.need(codeLength);
    let value = 0;
    for (let k = 0; k < codeLength; k += 1) {
      const digit = this.at(k);
      if (!isHexDigit(digit)) {
        throw this.error('while parsing a quoted scalar', start, 'did not find expected hexdecimal number');
      }
      value = value * 16 + hexDigitValue(digit);
    }
    if ((value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff) {
      throw this.error('while parsing a quoted scalar', start, 'found invalid Unicode character escape code');
    }
    for (let k = 0; k < codeLength; k += 1) this.skip();
    return String.fromCodePoint(value);
  }

  /**
   * Plain (unquoted) scalars. In block context a plain scalar continues on the next line when that
   * line is indented more than the enclosing block collection (`indent` below); line breaks fold to
   * spaces (an empty line to a break), LS and PS stay as they are. A tab in the indentation of a
   * continuation line is an error.
   */
  private scanPlainScalar(): Token {
    // Appending to a string (a rope in V8) is much cheaper than joining a part per line.
    let value = '';
    let leadingBreak = '';
    let trailingBreaks = '';
    let leadingBlanks = false;
    const indent = this.indent + 1;
    const start = this.mark();
    let endIndex = start.index;
    let endLine = start.line;
    let endColumn = start.column;
    // The text of a line is copied as one slice: its words and the blanks between them are
    // contiguous in the source (libyaml copies the blanks when another word follows on the same
    // line, and drops them before a line break or the end of the scalar).
    let segmentStart = -1;
    let segmentEnd = -1;

    for (;;) {
      this.need(4);
      if (
        this.column === 0 &&
        (this.at(0) === CH.minus || this.at(0) === CH.dot) &&
        this.at(1) === this.at(0) &&
        this.at(2) === this.at(0) &&
        isBlankOrEnd(this.at(3))
      ) {
        break;
      }
      if (this.at(0) === CH.hash) break;

      // Non-blank characters: the first one joins the pending whitespace or line breaks.
      if (!isBlankOrEnd(this.at(0)) && !this.endsPlainScalar(start)) {
        if (leadingBlanks) {
          if (leadingBreak.charCodeAt(0) === LF) {
            value += trailingBreaks.length === 0 ? ' ' : trailingBreaks;
          } else {
            value += leadingBreak + trailingBreaks;
          }
          leadingBreak = '';
          trailingBreaks = '';
          leadingBlanks = false;
        }
        if (segmentStart < 0) segmentStart = this.pos;
        this.skip();
        this.need(2);
        this.skipPlainChars(start);
        segmentEnd = this.pos;
        endIndex = this.index;
        endLine = this.line;
        endColumn = this.column;
      }

      if (!(isBlank(this.at(0)) || isBreak(this.at(0)))) break;

      // Blanks and line breaks.
      this.need(1);
      for (;;) {
        const c = this.at(0);
        if (c === SPACE || c === TAB) {
          if (leadingBlanks && this.column < indent && c === TAB) {
            throw this.error('while scanning a plain scalar', start, this.dialect.tabInPlainScalarMessage);
          }
          // One code unit, one character.
          this.pos += 1;
          this.index += 1;
          this.column += 1;
        } else if (isBreak(c)) {
          this.need(2);
          if (!leadingBlanks) {
            if (segmentStart >= 0) {
              value += this.text.slice(segmentStart, segmentEnd);
              segmentStart = -1;
            }
            leadingBreak = this.readLine();
            leadingBlanks = true;
          } else {
            trailingBreaks += this.readLine();
          }
        } else {
          break;
        }
        this.need(1);
      }

      if (this.flowLevel === 0 && this.column < indent) break;
    }
    if (segmentStart >= 0) value += this.text.slice(segmentStart, segmentEnd);

    if (leadingBlanks) this.simpleKeyAllowed = true;
    const end: Mark = { index: endIndex, line: endLine, column: endColumn };
    return makeToken(TokenKind.Scalar, start, end, value, '', ScalarStyle.Plain);
  }

  /**
   * Whether the current (non-blank) character ends a plain scalar: `: ` always, and `,?[]{}` in
   * flow context. In 2017, `:` followed by a non-blank inside a flow collection is an error.
   */
  private endsPlainScalar(start: Mark): boolean {
    const c = this.at(0);
    if (c === CH.colon) {
      if (isBlankOrEnd(this.at(1))) return true;
      if (this.flowLevel > 0 && this.dialect.flowColonIsError) {
        throw this.error('while scanning a plain scalar', start, "found unexpected ':'");
      }
      return false;
    }
    return (
      this.flowLevel > 0 &&
      (c === CH.comma || c === CH.question || c === CH.leftBracket || c === CH.rightBracket || c === CH.leftBrace || c === CH.rightBrace)
    );
  }

  /**
   * The rest of a run of non-blank plain-scalar characters: libyaml's per-character loop (checks,
   * copy, `cache(2)`) as a tight loop over the source.
   */
  private skipPlainChars(start: Mark): void {
    const text = this.text;
    const length = this.length;
    const reader = this.reader;
    const inFlow = this.flowLevel > 0;
    let decoded = reader.atEnd ? Number.POSITIVE_INFINITY : reader.decodedChars;
    for (;;) {
      const c = this.pos < length ? text.charCodeAt(this.pos) : 0;
      if (c === SPACE || c === TAB || c === LF || c === CR || c === 0 || c === NEL || c === LINE_SEPARATOR || c === PARAGRAPH_SEPARATOR) return;
      if (c === CH.colon || (inFlow && (c === CH.comma || c === CH.question || c === CH.leftBracket || c === CH.rightBracket || c === CH.leftBrace || c === CH.rightBrace))) {
        if (this.endsPlainScalar(start)) return;
      }
      if (c >= 0xd800 && c <= 0xdbff && this.pos + 1 < length) {
        const low = text.charCodeAt(this.pos + 1);
        this.pos += low >= 0xdc00 && low <= 0xdfff ? 2 : 1;
      } else {
        this.pos += 1;
      }
      this.index += 1;
      this.column += 1;
      if (decoded - this.index < 2) {
        this.need(2);
        decoded = reader.atEnd ? Number.POSITIVE_INFINITY : reader.decodedChars;
      }
    }
  }

}

interface BlockScalarState {
  indent: number;
  /** The token's end mark: after the last line break consumed. */
  endIndex: number;
  endLine: number;
  endColumn: number;
  /** Breaks of empty lines not yet added to the value. */
  breaks: string;
  /** The value so far (slow path). */
  value: string;
  /** A literal block whose breaks have all been LF: its lines are cut out of the source at the end. */
  literalFast: boolean;
  /** Code unit where the block's first line starts. */
  bodyStart: number;
  /** Code unit where the last content line ends (-1: none yet). */
  lastContentEnd: number;
}

const indentationPatterns = new Map<number, RegExp>();

/** `\n` followed by 1 to `indent` spaces. */
function indentationPattern(indent: number): RegExp {
  let pattern = indentationPatterns.get(indent);
  if (pattern === undefined) {
    pattern = new RegExp(`\\n {1,${indent}}`, 'g');
    indentationPatterns.set(indent, pattern);
  }
  return pattern;
}

/** `width()` of a UTF-8 leading octet: 1–4, or 0 for a continuation or invalid octet. */
function utf8SequenceLength(octet: number): number {
  if ((octet & 0x80) === 0) return 1;
  if ((octet & 0xe0) === 0xc0) return 2;
  if ((octet & 0xf0) === 0xe0) return 3;
  if ((octet & 0xf8) === 0xf0) return 4;
  return 0;
}

/** Decodes the octets of `%`-escapes (a well-formed sequence by construction) to a string. */
function decodeUtf8(octets: readonly number[]): string {
  const first = octets[0] ?? 0;
  const length = octets.length;
  let codePoint = length === 1 ? first : first & (0xff >> (length + 1));
  for (let k = 1; k < length; k += 1) codePoint = (codePoint << 6) | ((octets[k] ?? 0) & 0x3f);
  if (codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(codePoint);
}
