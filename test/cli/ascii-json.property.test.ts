import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringifyAsciiJson } from '../../src/cli/ascii-json.js';

/**
 * `stringifyAsciiJson` builds its text by concatenation and skips escaping work for plain strings;
 * it must still write exactly the Python `json.dumps` layout, defined here the straightforward way.
 */
function referenceAsciiJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return JSON.stringify(value);
  if (typeof value === 'string') return JSON.stringify(value).replace(/[^\x20-\x7e]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (Array.isArray(value)) return `[${value.map(referenceAsciiJson).join(', ')}]`;
  const members = Object.entries(value as Record<string, unknown>)
    .filter(([, member]) => member !== undefined)
    .map(([key, member]) => `${referenceAsciiJson(key)}: ${referenceAsciiJson(member)}`);
  return `{${members.join(', ')}}`;
}

const text = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme-ascii' }),
  fc.constantFrom('', 'plain', 'a"b', 'a\\b', 'line\nbreak', '\u007f', 'é', '…', '😀', '\ud800', 'x\udc00y', '\u2028', 'x'.repeat(5000) + 'é'),
);
const value = fc.letrec((tie) => ({
  json: fc.oneof(
    { weight: 4, arbitrary: text },
    { weight: 1, arbitrary: fc.oneof(fc.constant(null), fc.boolean(), fc.integer(), fc.double()) },
    { weight: 1, arbitrary: fc.array(tie('json'), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.dictionary(text, fc.oneof(tie('json'), fc.constant(undefined)), { maxKeys: 4 }) },
  ),
})).json;

describe('stringifyAsciiJson', () => {
  it('writes what the plain definition writes', () => {
    fc.assert(
      fc.property(value, (input) => {
        expect(stringifyAsciiJson(input)).toBe(referenceAsciiJson(input));
      }),
      { numRuns: 3000 },
    );
  });
});
