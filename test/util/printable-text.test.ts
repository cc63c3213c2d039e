import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { printable, printableLines } from '../../src/util/printable-text.js';

/** What may never reach a message line raw (the definition, written out character by character). */
function isUnprintable(character: string): boolean {
  const code = character.charCodeAt(0);
  return code <= 0x1f || (code >= 0x7f && code <= 0x9f) || [0x061c, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069].includes(code);
}

const text = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.constantFrom('a', '.', '\\', 'u', '\n', '\r', '\t', '\u001b', '\u0000', '\u007f', '\u0085', '\u2028', '\u2029', '\u202e', '\u2066', 'é', '😀') }),
);

describe('printable', () => {
  it('escapes line breaks, tabs, escape and the other controls visibly', () => {
    expect(printable('a\nb\r\tc')).toBe('a\\nb\\r\\tc');
    expect(printable('\u001b[31mred\u001b[0m')).toBe('\\u001b[31mred\\u001b[0m');
    expect(printable('x\u2028y\u202ez\u0085\u0000')).toBe('x\\u2028y\\u202ez\\u0085\\u0000');
    expect(printable('plain é 😀 \\n')).toBe('plain é 😀 \\n');
  });

  it('leaves no unprintable character, keeps every other one in order, and changes nothing else', () => {
    let escaped = 0;
    fc.assert(
      fc.property(text, (input) => {
        const output = printable(input);
        expect([...output].some(isUnprintable)).toBe(false);
        const expected = [...input].map((character) => (isUnprintable(character) ? `\\${{ '\n': 'n', '\r': 'r', '\t': 't' }[character] ?? `u${character.charCodeAt(0).toString(16).padStart(4, '0')}`}` : character)).join('');
        expect(output).toBe(expected);
        if (output !== input) escaped += 1;
      }),
      { numRuns: 2000 },
    );
    expect(escaped).toBeGreaterThan(500);
  });

  it('printableLines keeps the line feeds between lines and escapes the rest', () => {
    expect(printableLines('Error: a\u001bb\n    at x (\r)')).toBe('Error: a\\u001bb\n    at x (\\r)');
    fc.assert(
      fc.property(fc.array(text.map(printable), { maxLength: 5 }), (lines) => {
        expect(printableLines(lines.join('\n')).split('\n')).toEqual(lines.length === 0 ? [''] : lines);
      }),
    );
  });
});
