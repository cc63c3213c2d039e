/**
 * Where bytes stop being UTF-8: for the message of an input that is not UTF-8 text, which then
 * names the line, the column and the byte offset of the first byte that is not, as the messages of
 * other input errors name their place.
 *
 * Pure: no Node APIs.
 */

/** The place of the first byte that is not UTF-8: 0-based byte `offset`, 1-based `line` and `column` (code points). */
export interface InvalidUtf8 {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
  /** The byte found there. */
  readonly byte: number;
}

/**
 * The first byte of `bytes` that does not start or continue a well-formed UTF-8 sequence (what a
 * fatal decoder refuses: stray continuation bytes, overlong forms, surrogates, code points past
 * U+10FFFF, a sequence cut short); undefined when `bytes` is UTF-8 throughout. For a sequence cut
 * short or broken inside, its lead byte is the place. Linear; call it once a decoder has refused.
 */
export function firstInvalidUtf8(bytes: Uint8Array): InvalidUtf8 | undefined {
  let line = 1;
  let column = 1;
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index] as number;
    const length = sequenceLength(bytes, index);
    if (length === 0) return { offset: index, line, column, byte: lead };
    if (lead === 0x0a) {
      line += 1;
      column = 1;
    } else {
      column += 1;
    }
    index += length;
  }
  return undefined;
}

/** The length of the well-formed sequence at `index` (1 to 4), or 0 when there is none. */
function sequenceLength(bytes: Uint8Array, index: number): number {
  const lead = bytes[index] as number;
  if (lead < 0x80) return 1;
  // The second byte's range depends on the lead (no overlong forms, no surrogates, nothing past U+10FFFF).
  let length: number;
  let low = 0x80;
  let high = 0xbf;
  if (lead >= 0xc2 && lead <= 0xdf) length = 2;
  else if (lead >= 0xe0 && lead <= 0xef) {
    length = 3;
    if (lead === 0xe0) low = 0xa0;
    if (lead === 0xed) high = 0x9f;
  } else if (lead >= 0xf0 && lead <= 0xf4) {
    length = 4;
    if (lead === 0xf0) low = 0x90;
    if (lead === 0xf4) high = 0x8f;
  } else return 0;
  for (let offset = 1; offset < length; offset += 1) {
    const next = bytes[index + offset];
    if (next === undefined || next < low || next > high) return 0;
    low = 0x80;
    high = 0xbf;
  }
  return length;
}

/** `not UTF-8 text: byte 0xff at byte offset 41`: what {@link firstInvalidUtf8} found, in words (the line and column go where the caller puts places). */
export function describeInvalidUtf8(found: InvalidUtf8): string {
  return `not UTF-8 text: byte ${hexByte(found.byte)} at byte offset ${found.offset}`;
}

/** `FILE:LINE:COL: not UTF-8 text: byte 0xff at byte offset 41`: {@link describeInvalidUtf8} placed in the file `name`. */
export function invalidUtf8In(name: string, found: InvalidUtf8): string {
  return `${name}:${found.line}:${found.column}: ${describeInvalidUtf8(found)}`;
}

/** A byte as the messages write it (`0x0a`). */
export function hexByte(byte: number): string {
  return `0x${byte.toString(16).padStart(2, '0')}`;
}
