import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

describe('the fast-check seed of a run (test/support/fast-check-seed.ts)', () => {
  it('is one integer for every property of the run, so that a failure replays', () => {
    const { seed } = fc.readConfigureGlobal();
    expect(Number.isSafeInteger(seed)).toBe(true);
    if (process.env['KUBE_DNS_TO_COREDNS_SEED'] !== undefined && process.env['KUBE_DNS_TO_COREDNS_SEED'] !== '') expect(seed).toBe(Number(process.env['KUBE_DNS_TO_COREDNS_SEED']));
    // The same seed draws the same cases: what failed once fails again.
    expect(fc.sample(fc.string(), 20)).toEqual(fc.sample(fc.string(), 20));
  });
});
