import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INDENTED_LEVELS, stringifyPrettyJson, writePrettyJson } from '../../src/util/pretty-json.js';

describe('stringifyPrettyJson', () => {
  it('writes what JSON.stringify(value, null, 2) writes, for plain data with and without undefined members', () => {
    let containers = 0;
    let withUndefined = 0;
    const plain = fc.letrec((tie) => ({
      value: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 2 }), tie('array'), tie('object'), fc.constant(undefined)),
      array: fc.array(tie('value'), { maxLength: 4 }),
      object: fc.dictionary(fc.string({ maxLength: 4 }), tie('value'), { maxKeys: 4 }),
    }));
    fc.assert(
      fc.property(fc.oneof(plain.array, plain.object), (value) => {
        containers += 1;
        if (JSON.stringify(value, (_key, member: unknown) => (member === undefined ? '\u0000undefined' : member)).includes('\\u0000undefined')) withUndefined += 1;
        expect(stringifyPrettyJson(value)).toBe(JSON.stringify(value, null, 2));
      }),
      { numRuns: 1000 },
    );
    expect(containers).toBe(1000);
    expect(withUndefined).toBeGreaterThan(100);
  });

  it('writes scalars like JSON.stringify', () => {
    for (const value of [null, true, 0, -1.5, 'a"b\n', '']) expect(stringifyPrettyJson(value)).toBe(JSON.stringify(value, null, 2));
  });

  it('writes 100,000 nested objects, where JSON.stringify overflows the call stack: indented to a depth, compact below', () => {
    let deep: Record<string, unknown> = { end: true };
    for (let level = 0; level < 100_000; level += 1) deep = { next: deep };
    expect(() => JSON.stringify(deep, null, 2)).toThrow(RangeError);
    const text = stringifyPrettyJson(deep);
    const lines = text.split('\n');
    // One line per indented level on the way in and out, the compact rest on the line between.
    expect(lines).toHaveLength(2 * INDENTED_LEVELS + 1);
    expect(lines[INDENTED_LEVELS - 1]).toBe(`${'  '.repeat(INDENTED_LEVELS - 1)}"next": {`);
    const compact = 100_000 - INDENTED_LEVELS;
    expect(lines[INDENTED_LEVELS]).toBe(`${'  '.repeat(INDENTED_LEVELS)}"next": ${'{"next":'.repeat(compact)}{"end":true}${'}'.repeat(compact)}`);
    expect(lines.at(-1)).toBe('}');
  });

  it('writes shallower data exactly like JSON.stringify, and the same data below the depth', () => {
    let deep: Record<string, unknown> = { end: [1, { a: 'x' }] };
    for (let level = 0; level < INDENTED_LEVELS + 10; level += 1) deep = { next: deep, n: level };
    expect(JSON.parse(stringifyPrettyJson(deep))).toEqual(deep);
    let shallow: Record<string, unknown> = { end: true };
    for (let level = 0; level < INDENTED_LEVELS - 2; level += 1) shallow = { next: shallow };
    expect(stringifyPrettyJson(shallow)).toBe(JSON.stringify(shallow, null, 2));
  });
});

describe('writePrettyJson', () => {
  it('hands the text over in bounded chunks that join to stringifyPrettyJson, never as one string', () => {
    const value = { corefile: 'x'.repeat(1000), notices: Array.from({ length: 50_000 }, (_, index) => ({ code: 'migrate-proxy-replaced', line: index, message: `proxy on line ${index}` })) };
    const chunks: string[] = [];
    writePrettyJson(value, (chunk) => chunks.push(chunk));
    expect(chunks.join('')).toBe(JSON.stringify(value, null, 2));
    expect(chunks.length).toBeGreaterThan(50);
    // Each chunk holds a bounded number of pieces: the largest is a few hundred KB at most.
    expect(Math.max(...chunks.map((chunk) => chunk.length))).toBeLessThan(512 * 1024);
  });
});
