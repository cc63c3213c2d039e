import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeInvalidUtf8, firstInvalidUtf8 } from '../../src/util/utf8.js';

const fatal = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const decodes = (bytes: Uint8Array) => {
  try {
    fatal.decode(bytes);
    return true;
  } catch {
    return false;
  }
};
const bytesOf = (...parts: (string | number[])[]) => new Uint8Array(parts.flatMap((part) => (typeof part === 'string' ? [...new TextEncoder().encode(part)] : part)));

describe('firstInvalidUtf8', () => {
  it('places the first bad byte by line, column (code points) and byte offset', () => {
    expect(firstInvalidUtf8(bytesOf('a: b\nné: 😀', [0xff], 'x'))).toEqual({ offset: 14, line: 2, column: 6, byte: 0xff });
    expect(firstInvalidUtf8(bytesOf('\n\n', [0x80]))).toEqual({ offset: 2, line: 3, column: 1, byte: 0x80 });
    // A sequence cut short or broken inside is placed at its lead byte.
    expect(firstInvalidUtf8(bytesOf('ab', [0xe2, 0x82]))).toMatchObject({ offset: 2, column: 3, byte: 0xe2 });
    expect(firstInvalidUtf8(bytesOf('ab', [0xe2, 0x41, 0x41]))).toMatchObject({ offset: 2, byte: 0xe2 });
    // Overlong forms, surrogates and code points past U+10FFFF are not UTF-8.
    for (const bad of [[0xc0, 0xaf], [0xe0, 0x80, 0xaf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf5, 0x80, 0x80, 0x80]]) {
      expect(firstInvalidUtf8(bytesOf('x', bad))).toMatchObject({ offset: 1, column: 2 });
    }
    expect(firstInvalidUtf8(bytesOf('ok ✓ 😀\n'))).toBeUndefined();
    expect(describeInvalidUtf8({ offset: 14, line: 2, column: 6, byte: 0xff })).toBe('not UTF-8 text: byte 0xff at byte offset 14');
  });

  it('agrees with a fatal decoder: undefined exactly when it decodes, and everything before the place decodes', () => {
    const byte = fc.oneof(fc.integer({ min: 0, max: 0x7f }), fc.integer({ min: 0x80, max: 0xff }), fc.constantFrom(0xc2, 0xe0, 0xed, 0xf0, 0xf4, 0x80, 0xbf, 0x0a));
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 24 }), (list) => {
        const bytes = new Uint8Array(list);
        const found = firstInvalidUtf8(bytes);
        expect(found === undefined).toBe(decodes(bytes));
        if (found !== undefined) {
          const before = bytes.subarray(0, found.offset);
          expect(decodes(before)).toBe(true);
          const text = fatal.decode(before);
          expect(found.line).toBe(text.split('\n').length);
          expect(found.column).toBe([...(text.split('\n').pop() as string)].length + 1);
        }
      }),
      { numRuns: 500 },
    );
  });
});
