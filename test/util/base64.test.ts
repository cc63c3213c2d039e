import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeStdBase64 } from '../../src/util/base64.js';

const encode = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

describe('decodeStdBase64', () => {
  it('decodes what the standard encoding writes, line breaks skipped', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        const text = encode(bytes);
        expect(decodeStdBase64(text)).toEqual(bytes);
        expect(decodeStdBase64(text.replace(/(.{4})/g, '$1\r\n'))).toEqual(bytes);
      }),
      { numRuns: 300 },
    );
  });

  it('refuses what Go’s standard decoder refuses', () => {
    for (const text of ['e', 'eyJ', 'eyJh=', 'e=Jh', 'ey J', 'eyJh!', 'eyJ-', 'eyJ_', '====']) expect(decodeStdBase64(text), text).toBeUndefined();
    expect(decodeStdBase64('')).toEqual(new Uint8Array());
  });
});
