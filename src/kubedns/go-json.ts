/**
 * Go's `encoding/json` decoding (`json.Unmarshal`, Go 1.19 wording) into the Go types `string`,
 * `[]T` and `map[string]T`, and a value tree of any JSON text with Go's syntax check. The kube-dns
 * values (`stubDomains`, `upstreamNameservers`, `federations`) are decoded with it in
 * kube-dns-values.ts; the kube-dns reader walks its value tree.
 *
 * What is reproduced:
 *
 * - `Unmarshal` first syntax-checks the whole text, so a syntax error anywhere wins over any type
 *   error. Grammar: strict RFC 8259; whitespace is space, tab, CR and LF only; nesting deeper than
 *   10000 arrays/objects is rejected (`exceeded max depth`).
 * - Syntax error texts are Go's: `invalid character <c> <context>` or `unexpected end of JSON
 *   input`. Go's scanner reads UTF-8 bytes, so `<c>` is the offending *byte* (for a non-ASCII
 *   character its UTF-8 lead byte, read as a Latin-1 rune), quoted like Go's `quoteChar`.
 *   At the end of the input Go feeds the scanner one space, so a truncated literal or number
 *   reports `invalid character ' ' …` instead of `unexpected end of JSON input`.
 * - Type errors (`json: cannot unmarshal <kind> into Go value of type <type>`) are collected in
 *   document order while decoding goes on; the first one is reported.
 * - `null` makes a map or slice nil and leaves a string at its zero value `""`.
 * - Duplicate object keys: the last value wins; in the returned `Map` the key keeps the position
 *   of its first appearance.
 * - Strings: `\uXXXX` surrogate pairs combine; lone surrogate escapes and (the JavaScript
 *   equivalent of invalid UTF-8) lone surrogate code units in the text become U+FFFD.
 *
 * Pure (no Node APIs), iterative (no recursion on input depth) and linear in the input size.
 *
 * @module
 */

import { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';
import { positionAt } from '../util/source-position.js';
import type { SourcePosition } from '../util/source-position.js';
import { InternalError } from '../errors/internal-error.js';

/** Go's `encoding/json` nesting limit (Go ≥ 1.15): deeper input is a syntax error. */
export const GO_JSON_MAX_DEPTH = 10000;

/**
 * The `code` of a {@link GoJsonError}: `'syntax'`, Go's `*json.SyntaxError` (the text is not
 * JSON); `'type'`, Go's `*json.UnmarshalTypeError` (valid JSON of the wrong shape).
 */
export type GoJsonErrorKind = 'syntax' | 'type';

/**
 * A decoding failure whose `message` (and `reason`) is exactly the text Go's `encoding/json` error
 * prints, without a location. `position` is in the decoded text: `offset` is the JavaScript string
 * index of the offending character for a syntax error (the text's length for an error at its end),
 * of the start of the offending value for a type error.
 */
export class GoJsonError extends KubeDnsToCoreDnsError {
  override readonly name = 'GoJsonError';
  readonly category = 'input';
  declare readonly code: GoJsonErrorKind;
  declare readonly position: SourcePosition & { readonly offset: number };

  constructor(code: GoJsonErrorKind, message: string, text: string, offset: number) {
    super(code, message, { message, position: { ...positionAt(text, offset), offset } });
  }
}

/** Result of a decode: the value, or the error Go would return. */
export type GoJsonResult<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: GoJsonError };

// ---------------------------------------------------------------------------------------------
// Value tree
// ---------------------------------------------------------------------------------------------

/** Source range of a parsed value: `text.slice(offset, end)` is the value's text. */
export interface GoJsonSpan {
  /** Index of the value's first character in the input. */
  readonly offset: number;
  /** Index just past the value's last character. */
  readonly end: number;
}

/** JSON `null`. */
export interface GoJsonNull extends GoJsonSpan {
  readonly kind: 'null';
}
/** JSON `true` / `false` (Go calls the kind `bool`). */
export interface GoJsonBool extends GoJsonSpan {
  readonly kind: 'bool';
  readonly value: boolean;
}
/** A JSON number: its exact source text and the JavaScript number `JSON.parse` would give. */
export interface GoJsonNumber extends GoJsonSpan {
  readonly kind: 'number';
  readonly raw: string;
  readonly value: number;
}
/** A JSON string, decoded the way Go decodes it. */
export interface GoJsonString extends GoJsonSpan {
  readonly kind: 'string';
  readonly value: string;
}
/** A JSON array. */
export interface GoJsonArray extends GoJsonSpan {
  readonly kind: 'array';
  /** The items; only the first `keepItems` when read by {@link parseGoJsonTree} with that option. */
  readonly items: readonly GoJsonValue[];
  /** The items after the kept ones, counted but not built (only with `keepItems`). */
  readonly omitted?: GoJsonOmittedItems;
}

/** Items of a long array that were syntax-checked and counted, but not built. */
export interface GoJsonOmittedItems {
  /** How many items follow the kept ones. */
  readonly count: number;
  /** For each JSON kind among them: how many, and the index and offset of the first. */
  readonly kinds: Readonly<Partial<Record<GoJsonValue['kind'], GoJsonKindCount>>>;
}

export interface GoJsonKindCount {
  readonly count: number;
  /** Index of the first item of this kind in the whole array. */
  readonly index: number;
  /** Offset of that item in the text. */
  readonly offset: number;
}

/**
 * How {@link parseGoJsonTree} builds the tree. Both options keep the tree linear in the size of
 * what a reader can use, however long the input: the kube-dns reader needs the value Go keeps for
 * each key and only so many list items before a count is over its limit.
 */
export interface GoJsonTreeOptions {
  /**
   * Objects keep one member per key, at its first position (`keyOffset` of the first occurrence)
   * with the value of its last occurrence — what Go's `encoding/json` stores in a map.
   */
  readonly collapseDuplicateKeys?: boolean;
  /**
   * Arrays build their first `keepItems` items; the rest are syntax-checked like everything
   * else, and summarised in `omitted` (count and kinds) instead of being built.
   */
  readonly keepItems?: number;
}
/** One `key: value` member of an object, in source order (duplicates are all kept). */
export interface GoJsonMember {
  readonly key: string;
  /** Index of the key's opening quote. */
  readonly keyOffset: number;
  readonly value: GoJsonValue;
}
/** A JSON object: every member in source order, duplicate keys included. */
export interface GoJsonObject extends GoJsonSpan {
  readonly kind: 'object';
  readonly members: readonly GoJsonMember[];
}

/**
 * A parsed JSON value. `kind` uses Go's names for JSON kinds (the ones in `cannot unmarshal
 * <kind>` messages), plus `'null'`.
 */
export type GoJsonValue =
  | GoJsonNull
  | GoJsonBool
  | GoJsonNumber
  | GoJsonString
  | GoJsonArray
  | GoJsonObject;

// ---------------------------------------------------------------------------------------------
// Error texts
// ---------------------------------------------------------------------------------------------

/**
 * Go's `strconv.IsPrint` restricted to runes U+0000–U+00FF: printable ASCII, and Latin-1 from
 * U+00A1 except the soft hyphen U+00AD (U+0080–U+00A0 are not printable).
 */
export function goIsPrintLatin1(r: number): boolean {
  if (r >= 0x20 && r <= 0x7e) return true;
  return r >= 0xa1 && r <= 0xff && r !== 0xad;
}

const HEX = '0123456789abcdef';

/**
 * Go's `encoding/json` `quoteChar(c byte)`: the offending byte as it appears in a syntax error,
 * including the surrounding single quotes. `'` gives `'\''`, `"` gives `'"'`; every other byte is
 * taken as the rune U+00XX and quoted like `strconv.Quote` does (printable runes as themselves,
 * `\\`, `\a \b \f \n \r \t \v`, other C0 controls and DEL as `\xHH`, U+0080–U+00A0 and U+00AD as
 * `\u00hh`; hex digits in lower case).
 *
 * @param byte - 0–255.
 */
export function goQuoteChar(byte: number): string {
  if (!Number.isInteger(byte) || byte < 0 || byte > 0xff) {
    throw new InternalError(`goQuoteChar: not a byte: ${String(byte)}`);
  }
  if (byte === 0x27) return "'\\''";
  if (byte === 0x22) return "'\"'";
  if (byte === 0x5c) return "'\\\\'";
  if (goIsPrintLatin1(byte)) return `'${String.fromCharCode(byte)}'`;
  const hex = HEX.charAt(byte >> 4) + HEX.charAt(byte & 0xf);
  switch (byte) {
    case 0x07:
      return "'\\a'";
    case 0x08:
      return "'\\b'";
    case 0x0c:
      return "'\\f'";
    case 0x0a:
      return "'\\n'";
    case 0x0d:
      return "'\\r'";
    case 0x09:
      return "'\\t'";
    case 0x0b:
      return "'\\v'";
    default:
      return byte < 0x20 || byte === 0x7f ? `'\\x${hex}'` : `'\\u00${hex}'`;
  }
}

/**
 * The first UTF-8 byte of the character at `index`, as Node would encode `text` (a lone surrogate
 * becomes U+FFFD, i.e. EF BF BD). That is the byte Go's scanner would complain about.
 */
function leadByteAt(text: string, index: number): number {
  const c = text.charCodeAt(index);
  if (c < 0x80) return c;
  if (c < 0x800) return 0xc0 | (c >> 6);
  if (c >= 0xd800 && c <= 0xdbff) {
    const d = text.charCodeAt(index + 1);
    // A valid pair is a code point ≥ U+10000: lead byte F0–F4.
    if (d >= 0xdc00 && d <= 0xdfff) return 0xf0 | ((((c - 0xd800) << 10) + (d - 0xdc00) + 0x10000) >> 18);
    return 0xef;
  }
  if (c >= 0xdc00 && c <= 0xdfff) return 0xef; // lone low surrogate
  return 0xe0 | (c >> 12);
}

function syntaxErrorAt(text: string, index: number, context: string): GoJsonError {
  let byte: number;
  if (index >= text.length) {
    // Go's eof() feeds the scanner a space.
    byte = 0x20;
    index = text.length;
  } else {
    byte = leadByteAt(text, index);
  }
  return new GoJsonError('syntax', `invalid character ${goQuoteChar(byte)} ${context}`, text, index);
}

function unexpectedEnd(text: string): GoJsonError {
  return new GoJsonError('syntax', 'unexpected end of JSON input', text, text.length);
}

// ---------------------------------------------------------------------------------------------
// Parser
// ---------------------------------------------------------------------------------------------

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const DIGIT0 = 0x30;
const DIGIT9 = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const LOWER_U = 0x75;

function isDigit(c: number): boolean {
  return c >= DIGIT0 && c <= DIGIT9;
}

function hexValue(c: number): number {
  if (c >= DIGIT0 && c <= DIGIT9) return c - DIGIT0;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/** An open array or object while parsing (frames are reused per depth). */
interface Frame {
  isArray: boolean;
  /** Index of the opening bracket. */
  offset: number;
  /** An object's pending member key and the index of its opening quote. */
  key: string;
  keyOffset: number;
  /** Tree mode: the children read so far (both `null` for a container that is not built). */
  items: GoJsonValue[] | null;
  members: GoJsonMember[] | null;
  /** Tree mode, `collapseDuplicateKeys`: where each key's member is in `members`. */
  memberIndex: Map<string, number> | null;
  /** Tree mode, `keepItems`: items after the kept ones, and their kinds. */
  omittedCount: number;
  omittedKinds: Partial<Record<GoJsonValue['kind'], { count: number; index: number; offset: number }>> | null;
  /** Typed mode: the Go type of the children (`null`: not decoded, only syntax-checked). */
  elem: GoType | null;
  /** Typed mode: the slice or map being filled (both `null` after a type mismatch). */
  list: unknown[] | null;
  map: Map<string, unknown> | null;
}

/** Thrown inside the parser, caught at its entry point. */
class Failure {
  constructor(readonly error: GoJsonError) {}
}

/**
 * One pass over the text that does Go's syntax check and, at the same time, either builds the
 * value tree (tree mode) or decodes into a Go type (typed mode). Go decodes only after the whole
 * text passed the syntax check; here a type error is merely recorded and loses to any syntax
 * error found later, which gives the same result.
 */
class Parser {
  private readonly text: string;
  private readonly n: number;
  /** Typed mode: the Go type of the top-level value. */
  private readonly rootType: GoType | undefined;
  /** Typed mode: the first type mismatch, in document order. */
  typeError: GoJsonError | undefined;
  /** End index of the last string literal read. */
  private pos = 0;
  /** Open containers: `frames[0 … depth-1]`; entries beyond are kept for reuse. */
  private readonly frames: Frame[] = [];
  private depth = 0;
  /** Tree mode: see {@link GoJsonTreeOptions}. */
  private readonly collapseDuplicateKeys: boolean;
  private readonly keepItems: number;

  constructor(text: string, rootType: GoType | undefined, options: GoJsonTreeOptions = {}) {
    this.text = text;
    this.n = text.length;
    this.rootType = rootType;
    this.collapseDuplicateKeys = options.collapseDuplicateKeys === true;
    this.keepItems = options.keepItems ?? Number.POSITIVE_INFINITY;
  }

  private fail(index: number, context: string): never {
    throw new Failure(syntaxErrorAt(this.text, index, context));
  }

  private failEnd(): never {
    throw new Failure(unexpectedEnd(this.text));
  }

  /** Skips JSON whitespace from `i`; returns the index of the next other character (or n). */
  private skipSpace(i: number): number {
    const text = this.text;
    const n = this.n;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c > SPACE || (c !== SPACE && c !== LF && c !== CR && c !== TAB)) break;
      i++;
    }
    return i;
  }

  /**
   * Parses the whole input. Tree mode returns a {@link GoJsonValue}; typed mode returns the
   * decoded value (meaningless if `typeError` is set).
   */
  parse(): unknown {
    const text = this.text;
    const n = this.n;
    const typed = this.rootType !== undefined;
    let i = 0;
    // Each turn of the outer loop reads one value (Go: "looking for beginning of value").
    for (;;) {
      i = this.skipSpace(i);
      if (i >= n) this.failEnd();
      const start = i;
      const c = text.charCodeAt(i);
      const parent = this.depth === 0 ? undefined : (this.frames[this.depth - 1] as Frame);
      // Typed mode: the Go type this value decodes into (null: skipped).
      let type: GoType | null = null;
      if (typed) type = parent === undefined ? (this.rootType ?? null) : parent.elem;
      // Tree mode: whether this value is built, or only syntax-checked (and counted by its array).
      const build = !typed && (parent === undefined || this.buildsChildren(parent));
      let value: unknown;
      // The JSON kind and offset of the value just completed, for arrays that only count it.
      let kind: GoJsonValue['kind'];
      let offset = start;
      if (c === LBRACE || c === LBRACKET) {
        if (this.depth >= GO_JSON_MAX_DEPTH) this.fail(i, 'exceeded max depth');
        const isArray = c === LBRACKET;
        i = this.skipSpace(i + 1);
        if (i >= n) this.failEnd();
        const frame = this.open(isArray, start, typed, type, build);
        if (text.charCodeAt(i) !== (isArray ? RBRACKET : RBRACE)) {
          if (!isArray) i = this.readKey(frame, i);
          continue; // read the first element / member value
        }
        i++;
        value = this.close(frame, i, typed);
        kind = isArray ? 'array' : 'object';
      } else if (c === QUOTE) {
        const s = this.readString(i, build || type !== null);
        i = this.pos;
        kind = 'string';
        value = typed ? this.scalar(type, 'string', s, start) : build ? { kind: 'string', offset: start, end: i, value: s } : null;
      } else if (c === MINUS || isDigit(c)) {
        i = this.readNumber(i);
        kind = 'number';
        if (typed) {
          value = this.scalar(type, 'number', '', start);
        } else if (build) {
          const raw = text.slice(start, i);
          value = { kind: 'number', offset: start, end: i, raw, value: Number(raw) };
        } else {
          value = null;
        }
      } else if (c === 0x74 /* t */ || c === 0x66 /* f */) {
        const truth = c === 0x74;
        i = this.readLiteral(i, truth ? 'true' : 'false');
        kind = 'bool';
        value = typed ? this.scalar(type, 'bool', '', start) : build ? { kind: 'bool', offset: start, end: i, value: truth } : null;
      } else if (c === 0x6e /* n */) {
        i = this.readLiteral(i, 'null');
        kind = 'null';
        value = typed ? this.scalar(type, 'null', '', start) : build ? { kind: 'null', offset: start, end: i } : null;
      } else {
        this.fail(i, 'looking for beginning of value');
      }

      // A value is complete: store it in its container, then read what follows it (Go: "end
      // of value"), closing containers for as long as they end.
      for (;;) {
        if (this.depth === 0) {
          i = this.skipSpace(i);
          if (i < n) this.fail(i, 'after top-level value');
          return value;
        }
        const frame = this.frames[this.depth - 1] as Frame;
        if (typed) {
          if (frame.list !== null) frame.list.push(value);
          else if (frame.map !== null) frame.map.set(frame.key, value);
        } else if (frame.isArray) {
          const items = frame.items;
          if (items !== null) {
            if (items.length < this.keepItems) items.push(value as GoJsonValue);
            else omitItem(frame, kind, this.keepItems, offset);
          }
        } else if (frame.members !== null) {
          this.addMember(frame, frame.members, value as GoJsonValue);
        }
        i = this.skipSpace(i);
        if (i >= n) this.failEnd();
        const d = text.charCodeAt(i);
        if (frame.isArray) {
          if (d === COMMA) {
            i++;
            break;
          }
          if (d !== RBRACKET) this.fail(i, 'after array element');
        } else {
          if (d === COMMA) {
            i = this.skipSpace(i + 1);
            if (i >= n) this.failEnd();
            i = this.readKey(frame, i);
            break;
          }
          if (d !== RBRACE) this.fail(i, 'after object key:value pair');
        }
        i++;
        value = this.close(frame, i, typed);
        kind = frame.isArray ? 'array' : 'object';
        offset = frame.offset;
      }
    }
  }

  /** Tree mode: whether the values read into `frame` are built (its own, or items past `keepItems`, are not). */
  private buildsChildren(frame: Frame): boolean {
    if (frame.isArray) return frame.items !== null && frame.items.length < this.keepItems;
    return frame.members !== null;
  }

  /** Tree mode: adds the member `frame.key` to an object, or (collapsing) replaces its earlier value. */
  private addMember(frame: Frame, members: GoJsonMember[], value: GoJsonValue): void {
    if (!this.collapseDuplicateKeys) {
      members.push({ key: frame.key, keyOffset: frame.keyOffset, value });
      return;
    }
    const index = (frame.memberIndex ??= new Map<string, number>());
    const at = index.get(frame.key);
    if (at === undefined) {
      index.set(frame.key, members.length);
      members.push({ key: frame.key, keyOffset: frame.keyOffset, value });
    } else {
      // Go's map keeps the last value; the key keeps its first position.
      members[at] = { key: frame.key, keyOffset: (members[at] as GoJsonMember).keyOffset, value };
    }
  }

  /**
   * Pushes a frame for an array or object starting at `offset` that decodes into `type` (typed
   * mode) or, in tree mode, is built or only syntax-checked (`build`).
   */
  private open(isArray: boolean, offset: number, typed: boolean, type: GoType | null, build: boolean): Frame {
    let frame = this.frames[this.depth];
    if (frame === undefined) {
      frame = { isArray, offset, key: '', keyOffset: -1, items: null, members: null, memberIndex: null, omittedCount: 0, omittedKinds: null, elem: null, list: null, map: null };
      this.frames.push(frame);
    }
    this.depth++;
    frame.isArray = isArray;
    frame.offset = offset;
    frame.key = '';
    frame.keyOffset = -1;
    frame.items = null;
    frame.members = null;
    frame.memberIndex = null;
    frame.omittedCount = 0;
    frame.omittedKinds = null;
    frame.elem = null;
    frame.list = null;
    frame.map = null;
    if (!typed) {
      if (!build) return frame;
      if (isArray) frame.items = [];
      else frame.members = [];
    } else if (type !== null) {
      if (isArray && type.kind === 'slice') {
        frame.list = [];
        frame.elem = type.elem;
      } else if (!isArray && type.kind === 'map') {
        frame.map = new Map<string, unknown>();
        frame.elem = type.elem;
      } else {
        this.mismatch(isArray ? 'array' : 'object', type, offset);
      }
    }
    return frame;
  }

  /** Pops `frame` (the innermost one), whose closing bracket ends just before `end`. */
  private close(frame: Frame, end: number, typed: boolean): unknown {
    this.depth--;
    if (typed) return frame.list ?? frame.map;
    if (frame.isArray) {
      if (frame.items === null) return null;
      if (frame.omittedKinds === null) return { kind: 'array', offset: frame.offset, end, items: frame.items };
      const omitted: GoJsonOmittedItems = { count: frame.omittedCount, kinds: frame.omittedKinds };
      return { kind: 'array', offset: frame.offset, end, items: frame.items, omitted };
    }
    if (frame.members === null) return null;
    return { kind: 'object', offset: frame.offset, end, members: frame.members };
  }

  /** Typed mode: the decoded value of a literal or string of JSON kind `kind` into `type`. */
  private scalar(type: GoType | null, kind: 'string' | 'number' | 'bool' | 'null', s: string, offset: number): unknown {
    if (type === null) return undefined;
    // null leaves a string at its zero value and makes a map or slice nil
    if (kind === 'null') return type.kind === 'string' ? '' : null;
    if (kind === 'string' && type.kind === 'string') return s;
    this.mismatch(kind, type, offset);
    return type.kind === 'string' ? '' : null;
  }

  private mismatch(kind: string, type: GoType, offset: number): void {
    this.typeError ??= unmarshalTypeError(kind, type, this.text, offset);
  }

  /**
   * At `i` (not whitespace, not the end) an object key must start. Reads the key and the colon
   * into `frame`; returns the index after the colon.
   */
  private readKey(frame: Frame, i: number): number {
    if (this.text.charCodeAt(i) !== QUOTE) this.fail(i, 'looking for beginning of object key string');
    frame.key = this.readString(i);
    frame.keyOffset = i;
    i = this.skipSpace(this.pos);
    if (i >= this.n) this.failEnd();
    if (this.text.charCodeAt(i) !== COLON) this.fail(i, 'after object key');
    return i + 1;
  }

  /**
   * Reads a string literal whose opening quote is at `start`; sets `pos` after it. Returns `''`
   * without decoding when the value is not `wanted` (only syntax-checked).
   */
  private readString(start: number, wanted = true): string {
    const text = this.text;
    const n = this.n;
    let i = start + 1;
    let plain = true;
    for (;;) {
      if (i >= n) this.failEnd(); // a space would be fine inside a string
      const c = text.charCodeAt(i);
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        plain = false;
        i++;
        if (i >= n) this.fail(i, 'in string escape code');
        const e = text.charCodeAt(i);
        if (e === LOWER_U) {
          for (let k = 1; k <= 4; k++) {
            if (i + k >= n || hexValue(text.charCodeAt(i + k)) < 0) {
              this.fail(i + k, 'in \\u hexadecimal character escape');
            }
          }
          i += 5;
          continue;
        }
        // " \ / b f n r t
        if (
          e === QUOTE ||
          e === BACKSLASH ||
          e === 0x2f ||
          e === 0x62 ||
          e === 0x66 ||
          e === 0x6e ||
          e === 0x72 ||
          e === 0x74
        ) {
          i++;
          continue;
        }
        this.fail(i, 'in string escape code');
      }
      if (c < SPACE) this.fail(i, 'in string literal');
      if (c >= 0xd800 && c <= 0xdfff) plain = false;
      i++;
    }
    this.pos = i + 1;
    if (!wanted) return '';
    return plain ? text.slice(start + 1, i) : decodeStringBody(text, start + 1, i);
  }

  /** Reads a number starting at `i` (a `-` or a digit); returns the index after it. */
  private readNumber(i: number): number {
    const text = this.text;
    const n = this.n;
    let c = text.charCodeAt(i);
    if (c === MINUS) {
      i++;
      c = text.charCodeAt(i); // NaN at the end: not a digit
      if (!isDigit(c)) this.fail(i, 'in numeric literal');
    }
    i++;
    // a leading 0 stands alone: "01" is 0 followed by 1
    if (c !== DIGIT0) {
      while (i < n && isDigit(text.charCodeAt(i))) i++;
    }
    if (i < n && text.charCodeAt(i) === DOT) {
      i++;
      if (!isDigit(text.charCodeAt(i))) this.fail(i, 'after decimal point in numeric literal');
      i++;
      while (i < n && isDigit(text.charCodeAt(i))) i++;
    }
    if (i < n) {
      c = text.charCodeAt(i);
      if (c === LOWER_E || c === UPPER_E) {
        i++;
        c = text.charCodeAt(i);
        if (c === PLUS || c === MINUS) i++;
        if (!isDigit(text.charCodeAt(i))) this.fail(i, 'in exponent of numeric literal');
        i++;
        while (i < n && isDigit(text.charCodeAt(i))) i++;
      }
    }
    return i;
  }

  /** Reads `word` (true, false or null) whose first letter is at `i`; returns the index after it. */
  private readLiteral(i: number, word: string): number {
    const text = this.text;
    for (let k = 1; k < word.length; k++) {
      if (text.charCodeAt(i + k) !== word.charCodeAt(k)) {
        this.fail(i + k, `in literal ${word} (expecting '${word.charAt(k)}')`);
      }
    }
    return i + word.length;
  }
}

/** Tree mode: counts an item of a full array (`keepItems` built already) by its kind. */
function omitItem(frame: Frame, kind: GoJsonValue['kind'], keepItems: number, offset: number): void {
  const index = keepItems + frame.omittedCount;
  frame.omittedCount += 1;
  const kinds = (frame.omittedKinds ??= {});
  const counted = kinds[kind];
  if (counted === undefined) kinds[kind] = { count: 1, index, offset };
  else counted.count += 1;
}

function unmarshalTypeError(kind: string, type: GoType, text: string, offset: number): GoJsonError {
  return new GoJsonError('type', `json: cannot unmarshal ${kind} into Go value of type ${goTypeName(type)}`, text, offset);
}

/**
 * Decodes the body `text[from, to)` of a string literal that has passed the syntax check and
 * contains escapes or surrogate code units, the way Go's `unquote` does.
 */
function decodeStringBody(text: string, from: number, to: number): string {
  let out = '';
  let run = from; // start of the pending run of characters copied as they are
  let i = from;
  while (i < to) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) {
      if (run < i) out += text.slice(run, i);
      const e = text.charCodeAt(i + 1);
      if (e === LOWER_U) {
        const r = hex4(text, i + 2);
        i += 6;
        if (r >= 0xd800 && r <= 0xdfff) {
          // A high surrogate escape followed by a low surrogate escape is one character;
          // anything else is U+FFFD, and a following \u escape is decoded on its own.
          if (r <= 0xdbff && i + 6 <= to && text.charCodeAt(i) === BACKSLASH && text.charCodeAt(i + 1) === LOWER_U) {
            const r2 = hex4(text, i + 2);
            if (r2 >= 0xdc00 && r2 <= 0xdfff) {
              out += String.fromCharCode(r, r2);
              i += 6;
              run = i;
              continue;
            }
          }
          out += '\ufffd';
        } else {
          out += String.fromCharCode(r);
        }
      } else {
        out += simpleEscape(e);
        i += 2;
      }
      run = i;
      continue;
    }
    if (c >= 0xd800 && c <= 0xdfff) {
      if (c <= 0xdbff) {
        const d = text.charCodeAt(i + 1);
        if (i + 1 < to && d >= 0xdc00 && d <= 0xdfff) {
          i += 2;
          continue;
        }
      }
      // Lone surrogate: Node encodes it as U+FFFD's bytes.
      if (run < i) out += text.slice(run, i);
      out += '\ufffd';
      i++;
      run = i;
      continue;
    }
    i++;
  }
  if (run < to) out += text.slice(run, to);
  return out;
}

function hex4(text: string, i: number): number {
  return (
    (hexValue(text.charCodeAt(i)) << 12) |
    (hexValue(text.charCodeAt(i + 1)) << 8) |
    (hexValue(text.charCodeAt(i + 2)) << 4) |
    hexValue(text.charCodeAt(i + 3))
  );
}

function simpleEscape(e: number): string {
  switch (e) {
    case 0x62:
      return '\b';
    case 0x66:
      return '\f';
    case 0x6e:
      return '\n';
    case 0x72:
      return '\r';
    case 0x74:
      return '\t';
    default:
      return String.fromCharCode(e); // " \ /
  }
}

/**
 * Parses `text` like Go's `encoding/json` syntax check, into a value tree that keeps every
 * object member (duplicates included) in source order, with source offsets.
 *
 * @returns the value, or a `'syntax'` {@link GoJsonError} with Go's message.
 */
export function parseGoJson(text: string): GoJsonResult<GoJsonValue> {
  return parseGoJsonTree(text, {});
}

/**
 * {@link parseGoJson} with {@link GoJsonTreeOptions}: the same syntax check of the whole text,
 * a tree that holds only what `options` keep. Without options it is {@link parseGoJson}.
 */
export function parseGoJsonTree(text: string, options: GoJsonTreeOptions): GoJsonResult<GoJsonValue> {
  try {
    return { ok: true, value: new Parser(text, undefined, options).parse() as GoJsonValue };
  } catch (e) {
    if (e instanceof Failure) return { ok: false, error: e.error };
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------
// Typed decoding
// ---------------------------------------------------------------------------------------------

/**
 * A Go target type: `string`, `[]T` (slice) or `map[string]T`. Built with {@link goString},
 * {@link goSlice} and {@link goMap}.
 */
export type GoType =
  | { readonly kind: 'string' }
  | { readonly kind: 'slice'; readonly elem: GoType }
  | { readonly kind: 'map'; readonly elem: GoType };

/**
 * The JavaScript value a {@link GoType} decodes to: `string`; `T[] | null` for a slice (nil is
 * `null`); `Map<string, T> | null` for a map (in first-appearance key order).
 */
export type GoDecoded<T extends GoType> = T extends { readonly kind: 'string' }
  ? string
  : T extends { readonly kind: 'slice'; readonly elem: infer E extends GoType }
    ? GoDecoded<E>[] | null
    : T extends { readonly kind: 'map'; readonly elem: infer E extends GoType }
      ? Map<string, GoDecoded<E>> | null
      : never;

/** Go's `string`. */
export const goString: { readonly kind: 'string' } = { kind: 'string' };

/** Go's `[]elem`. */
export function goSlice<E extends GoType>(elem: E): { readonly kind: 'slice'; readonly elem: E } {
  return { kind: 'slice', elem };
}

/** Go's `map[string]elem`. */
export function goMap<E extends GoType>(elem: E): { readonly kind: 'map'; readonly elem: E } {
  return { kind: 'map', elem };
}

/** Go's `reflect.Type.String()` of a {@link GoType}, e.g. `map[string][]string`. */
export function goTypeName(type: GoType): string {
  let prefix = '';
  let t: GoType = type;
  while (t.kind !== 'string') {
    prefix += t.kind === 'slice' ? '[]' : 'map[string]';
    t = t.elem;
  }
  return `${prefix}string`;
}

/**
 * Decodes an already parsed value (of `text`, for the error's position) into `type` like Go's
 * `Unmarshal` does after its syntax check: wrong kinds are recorded (first one wins) and skipped,
 * decoding goes on.
 */
export function decodeGoJsonValue<T extends GoType>(value: GoJsonValue, type: T, text: string): GoJsonResult<GoDecoded<T>> {
  const sink: Sink = { error: undefined, text };
  const decoded = decodeInto(value, type, sink);
  if (sink.error !== undefined) return { ok: false, error: sink.error };
  return { ok: true, value: decoded as GoDecoded<T> };
}

/** Recursion depth is bounded by the depth of `type`, not of the input. */
interface Sink {
  error: GoJsonError | undefined;
  readonly text: string;
}

function decodeInto(value: GoJsonValue, type: GoType, sink: Sink): unknown {
  if (value.kind === 'null') return type.kind === 'string' ? '' : null;
  switch (type.kind) {
    case 'string':
      if (value.kind === 'string') return value.value;
      break;
    case 'slice':
      if (value.kind === 'array') {
        const items = value.items;
        const out: unknown[] = new Array<unknown>(items.length);
        for (let k = 0; k < items.length; k++) out[k] = decodeInto(items[k] as GoJsonValue, type.elem, sink);
        return out;
      }
      break;
    case 'map':
      if (value.kind === 'object') {
        const out = new Map<string, unknown>();
        for (const m of value.members) out.set(m.key, decodeInto(m.value, type.elem, sink));
        return out;
      }
      break;
  }
  sink.error ??= unmarshalTypeError(value.kind, type, sink.text, value.offset);
  return type.kind === 'string' ? '' : null;
}

/**
 * `json.Unmarshal(text, &v)` with `v` of the Go type `type`: syntax check of the whole text
 * first, then decoding.
 */
export function decodeGoJson<T extends GoType>(text: string, type: T): GoJsonResult<GoDecoded<T>> {
  const parser = new Parser(text, type);
  let value: unknown;
  try {
    value = parser.parse();
  } catch (e) {
    if (e instanceof Failure) return { ok: false, error: e.error };
    throw e;
  }
  if (parser.typeError !== undefined) return { ok: false, error: parser.typeError };
  return { ok: true, value: value as GoDecoded<T> };
}
