import { describe, expect, it } from 'vitest';
import { expectEqual, expectSame } from './hot-expect.js';

describe('expectEqual and expectSame', () => {
  it('pass what toEqual and toBe pass, without calling the matcher when nothing differs', () => {
    expect(() => expectEqual({ a: [1, { b: 'c' }] }, { a: [1, { b: 'c' }] })).not.toThrow();
    // Not strictly equal, but toEqual's: an undefined property against a missing one.
    expect(() => expectEqual({ a: 1, b: undefined }, { a: 1 })).not.toThrow();
    expect(() => expectSame('x', 'x')).not.toThrow();
  });

  it('fail as the matcher does, with its message', () => {
    expect(() => expectEqual({ a: [1, 2] }, { a: [1, 3] }, 'the case')).toThrow(/the case: expected .* to deeply equal/);
    expect(() => expectSame(1, 2)).toThrow(/expected 1 to be 2/);
    expect(() => expectSame(0, -0)).toThrow();
  });
});
