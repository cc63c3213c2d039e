import { describe, expect, it } from 'vitest';
import { allowedAliasRatio, excessiveAliasing } from '../../src/util/yaml-alias-limit.js';

describe("go-yaml's alias ratio (decode.go, v2.2.4 and v3)", () => {
  it('allows 99% up to 400,000 nodes and 10% from 4,000,000, linear in between', () => {
    expect(allowedAliasRatio(1)).toBe(0.99);
    expect(allowedAliasRatio(400_000)).toBe(0.99);
    expect(allowedAliasRatio(2_200_000)).toBeCloseTo(0.545, 10);
    expect(allowedAliasRatio(4_000_000)).toBe(0.1);
    expect(allowedAliasRatio(40_000_000)).toBe(0.1);
    for (let count = 400_000; count < 4_000_000; count += 100_000) expect(allowedAliasRatio(count + 100_000)).toBeLessThan(allowedAliasRatio(count));
  });

  it('stops only past 100 aliased nodes and 1,000 decoded ones', () => {
    expect(excessiveAliasing(1000, 100)).toBe(false);
    expect(excessiveAliasing(1000, 999)).toBe(false);
    expect(excessiveAliasing(1001, 1000)).toBe(true);
    expect(excessiveAliasing(10_001, 100)).toBe(false);
    expect(excessiveAliasing(10_000, 9_900)).toBe(false);
    expect(excessiveAliasing(10_000, 9_901)).toBe(true);
    expect(excessiveAliasing(4_000_000, 400_000)).toBe(false);
    expect(excessiveAliasing(4_000_000, 400_001)).toBe(true);
  });
});
