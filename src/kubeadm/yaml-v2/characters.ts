/**
 * Character classes of yaml.v2's scanner (`yamlprivateh.go`), on UTF-16 code units. Every class
 * libyaml tests is made of BMP characters, so one code unit decides it; a code unit past the end of
 * the input is 0 (NUL), like yaml.v2's buffer padding.
 */

const NUL = 0x00;
export const TAB = 0x09;
export const LF = 0x0a;
export const CR = 0x0d;
export const SPACE = 0x20;
export const NEL = 0x85;
export const LINE_SEPARATOR = 0x2028;
export const PARAGRAPH_SEPARATOR = 0x2029;

export const CH = {
  bang: 0x21,
  doubleQuote: 0x22,
  hash: 0x23,
  percent: 0x25,
  ampersand: 0x26,
  singleQuote: 0x27,
  asterisk: 0x2a,
  plus: 0x2b,
  comma: 0x2c,
  minus: 0x2d,
  dot: 0x2e,
  zero: 0x30,
  nine: 0x39,
  colon: 0x3a,
  less: 0x3c,
  greater: 0x3e,
  question: 0x3f,
  at: 0x40,
  leftBracket: 0x5b,
  backslash: 0x5c,
  rightBracket: 0x5d,
  backtick: 0x60,
  leftBrace: 0x7b,
  pipe: 0x7c,
  rightBrace: 0x7d,
} as const;

/** Space or tab (`is_blank`). */
export function isBlank(c: number): boolean {
  return c === SPACE || c === TAB;
}

/**
 * A line break for YAML 1.1 (`is_break`): LF, CR, NEL (U+0085), LINE SEPARATOR (U+2028) and
 * PARAGRAPH SEPARATOR (U+2029).
 */
export function isBreak(c: number): boolean {
  return c === LF || c === CR || c === NEL || c === LINE_SEPARATOR || c === PARAGRAPH_SEPARATOR;
}

/** A line break or the end of the input (`is_breakz`). */
export function isBreakOrEnd(c: number): boolean {
  return c === NUL || isBreak(c);
}

/** Space, tab, line break or end of input (`is_blankz`). */
export function isBlankOrEnd(c: number): boolean {
  return c === SPACE || c === TAB || c === NUL || isBreak(c);
}

/** `[0-9A-Za-z_-]` (`is_alpha`): anchor names, tag handles, directive names. */
export function isWordChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f || c === 0x2d;
}

export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

export function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

export function hexDigitValue(c: number): number {
  if (c >= 0x61) return c - 0x61 + 10;
  if (c >= 0x41) return c - 0x41 + 10;
  return c - 0x30;
}

/** The characters a tag URI may contain besides word characters (and `%` escapes). */
const URI_PUNCTUATION = new Set(Array.from(";/?:@&=+$,.!~*'()[]%", (ch) => ch.charCodeAt(0)));

export function isUriChar(c: number): boolean {
  return isWordChar(c) || URI_PUNCTUATION.has(c);
}

/** The indicators that cannot start a plain scalar (apart from the `-?:` exceptions). */
const INDICATORS = new Set(Array.from("-?:,[]{}#&*!|>'\"%@`", (ch) => ch.charCodeAt(0)));

export function isIndicator(c: number): boolean {
  return INDICATORS.has(c);
}
