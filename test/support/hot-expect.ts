import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';

/**
 * `expect(actual).toEqual(expected)` for the hot loop of a property test: the matcher runs only
 * when a strict deep comparison finds a difference, and it then decides (and words the failure)
 * exactly as before. Whatever is strictly deep-equal is also `toEqual`, so nothing passes that the
 * matcher would refuse; what is saved is the matcher's own bookkeeping on every run, which cost
 * more than the comparison itself (a fifth of test/corefile/laws.test.ts's CPU time).
 */
export function expectEqual(actual: unknown, expected: unknown, message?: string): void {
  if (!isDeepStrictEqual(actual, expected)) expect(actual, message).toEqual(expected);
}

/** `expect(actual).toBe(expected)` for a hot loop, the matcher run only on a difference (see {@link expectEqual}). */
export function expectSame(actual: unknown, expected: unknown, message?: string): void {
  if (!Object.is(actual, expected)) expect(actual, message).toBe(expected);
}
