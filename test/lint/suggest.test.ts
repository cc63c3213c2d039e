import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ALL_PLUGIN_NAMES } from '../../src/coredns/plugin-cfg.js';
import { closestNames, editDistance } from '../../src/lint/suggest.js';

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
    expect(closestNames(name, ALL_PLUGIN_NAMES)).toEqual(expected);
  });

  it('never suggests the name itself, and at most three names', () => {
    expect(closestNames('cache', ALL_PLUGIN_NAMES)).toEqual([]);
    expect(closestNames('ab', ['aa', 'ac', 'ad', 'ae'])).toEqual(['aa', 'ac', 'ad']);
  });
});
