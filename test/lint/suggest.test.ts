import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allPluginNames } from '../../src/coredns/plugin-cfg.js';
import { closestNames, editDistance, editDistanceWithin } from '../../src/lint/suggest.js';
import { cpuPerRun, expectDoublingGrowth } from '../support/growth.js';
import { Outcomes } from '../support/outcomes.js';

describe('editDistance', () => {
  it.each([
    ['forward', 'forward', 0],
    ['forwrd', 'forward', 1],
    ['forwrad', 'forward', 1],
    ['lgo', 'log', 1],
    ['', 'cache', 5],
    ['rrl', 'acl', 2],
    ['kitten', 'sitting', 3],
  ])('%s → %s: %i', (a, b, distance) => {
    expect(editDistance(a, b)).toBe(distance);
    expect(editDistance(b, a)).toBe(distance);
  });

  it('is zero exactly for equal strings and never more than the longer length (property)', () => {
    let runs = 0;
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.string({ maxLength: 12 }), (a, b) => {
        runs += 1;
        const distance = editDistance(a, b);
        expect(distance === 0).toBe(a === b);
        expect(distance).toBeLessThanOrEqual(Math.max(a.length, b.length));
        expect(distance).toBeGreaterThanOrEqual(Math.abs(a.length - b.length));
      }),
    );
    expect(runs).toBeGreaterThanOrEqual(100);
  });
});

describe('editDistanceWithin', () => {
  it('is editDistance where that is at most max, and above max elsewhere (property)', () => {
    const outcomes = new Outcomes<'within' | 'beyond'>();
    // Small alphabets, so that near strings are common.
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 9 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 3 }), (a, b, max) => {
        const full = editDistance(a, b);
        const bounded = editDistanceWithin(a, b, max);
        if (full <= max) {
          outcomes.add('within');
          expect(bounded).toBe(full);
        } else {
          outcomes.add('beyond');
          expect(bounded).toBeGreaterThan(max);
        }
      }),
      { numRuns: 2000 },
    );
    // About 315 of 2,000 runs are within (±15 by seed): the floor stays far below that.
    outcomes.expectAtLeast({ within: 150, beyond: 300 });
  });

  it('costs a long name a band of the table, not all of it: a 1 MB name against every plugin', async () => {
    const long = `${'forward'.repeat(150_000)}x`;
    const variant = `${long.slice(0, -1)}y`;
    expect(closestNames(long, allPluginNames())).toEqual([]);
    expect(editDistanceWithin(long, variant, 2)).toBe(1);
    // Against a name as long, the band grows with the length, not with its square: doubling the
    // name at most triples the CPU time (the whole table would quadruple it).
    await expectDoublingGrowth(
      (size) => [`${'forward'.repeat(size)}x`, `${'forward'.repeat(size)}y`] as const,
      ([name, other]) => editDistanceWithin(name, other, 2),
      { size: 10_000 },
    );
    // Against every plugin, the band is skipped at once by the length difference: the ~70
    // candidates together cost less than the one band above (the whole table would be 1 MB × the
    // candidate's length for each of them, hundreds of times as much).
    const band = await cpuPerRun(() => editDistanceWithin(long, variant, 2));
    const everyPlugin = await cpuPerRun(() => closestNames(long, allPluginNames()));
    expect(everyPlugin, `every plugin ${everyPlugin.toFixed(2)} ms of CPU, one band ${band.toFixed(2)} ms`).toBeLessThan(band);
  });
});

describe('closestNames', () => {
  it.each([
    ['forwrd', ['forward']],
    ['Forward', ['forward']],
    ['helth', ['health']],
    ['kubernets', ['kubernetes']],
    ['k8s-external', ['k8s_external']],
    ['lgo', ['log']],
    ['rrl', []],
    ['alias', []],
    ['10.0.0.1', []],
    ['fallthrough', []],
  ])('%s → %j', (name, expected) => {
    expect(closestNames(name, allPluginNames())).toEqual(expected);
  });

  it('never suggests the name itself, and at most three names', () => {
    expect(closestNames('cache', allPluginNames())).toEqual([]);
    expect(closestNames('ab', ['aa', 'ac', 'ad', 'ae'])).toEqual(['aa', 'ac', 'ad']);
  });
});
