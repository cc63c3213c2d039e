import { describe, expect, it } from 'vitest';
import { maxOf, pushAll } from '../../src/util/lists.js';

/** More items than a call can take spread (about 130,000 overflow V8's stack). */
const MANY = 500_000;

describe('list helpers for any number of items', () => {
  it('pushAll appends every item, where push(...items) overflows the stack', () => {
    const items = Array.from({ length: MANY }, (_, index) => index);
    expect(() => [].push(...(items as never[]))).toThrow(RangeError);
    const target = [-1];
    pushAll(target, items);
    expect(target).toHaveLength(MANY + 1);
    expect(target[MANY]).toBe(MANY - 1);
  });

  it('maxOf finds the largest, where Math.max(...values) overflows the stack', () => {
    const values = Array.from({ length: MANY }, (_, index) => (index * 7919) % MANY);
    expect(() => Math.max(...values)).toThrow(RangeError);
    expect(maxOf(values)).toBe(MANY - 1);
    expect(maxOf([])).toBe(Number.NEGATIVE_INFINITY);
    expect(maxOf([], 0)).toBe(0);
    expect(maxOf([-3, -1, -2])).toBe(-1);
  });
});
