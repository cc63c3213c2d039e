import { describe, expect, it } from 'vitest';
import { COREDNS_FEATURE_TIMELINES } from '../../src/coredns/features.js';
import { compareCoreDnsVersions, OLDEST_COREDNS_VERSION } from '../../src/coredns/versions.js';
import { KUBE_DNS_RULE_TIMELINES } from '../../src/kubedns/kube-dns-versions.js';
import { compareNodeCacheReleases, NODE_CACHE_TIMELINES, OLDEST_NODE_CACHE_RELEASE } from '../../src/nodelocal/node-cache-releases.js';
import { changePoints, changesIn, firstReleaseWhere, profileAt, valueAt } from '../../src/util/release-profile.js';
import type { ProfileTimelines, ReleaseOrder, Timeline } from '../../src/util/release-profile.js';

const numeric: ReleaseOrder<string> = (a, b) => Number(a) - Number(b);

describe('release profiles over eras', () => {
  const timeline: Timeline<string> = [
    { from: '1', value: 'a' },
    { from: '3', value: 'b' },
    { from: '7', value: 'c' },
  ];

  it('answers the era a release falls in, nothing before the first', () => {
    expect(['0', '1', '2', '3', '6', '7', '99'].map((version) => valueAt(timeline, version, numeric))).toEqual([undefined, 'a', 'a', 'b', 'b', 'c', 'c']);
    expect(firstReleaseWhere(timeline, (value) => value !== 'a')).toBe('3');
    expect(firstReleaseWhere(timeline, (value) => value === 'z')).toBeUndefined();
    expect(changesIn('1', false, '5', true)).toEqual([{ from: '1', value: false }, { from: '5', value: true }]);
  });

  it('builds one profile from one timeline per field, and lists where any field changes', () => {
    const timelines: ProfileTimelines<{ letter: string; late: boolean }> = { letter: timeline, late: changesIn('1', false, '5', true) };
    expect(profileAt(timelines, '4', numeric)).toEqual({ letter: 'b', late: false });
    expect(profileAt(timelines, '7', numeric)).toEqual({ letter: 'c', late: true });
    expect(changePoints(timelines, numeric)).toEqual(['1', '3', '5', '7']);
  });

  // The tables of the three programs: each timeline starts at the program's oldest modelled release
  // (so every field has a value for every release) and is ordered, without two eras at one release
  // or two neighbours with the same value (a change point that changes nothing).
  const tables: Array<[string, ProfileTimelines<Record<string, unknown>>, string, ReleaseOrder<string>]> = [
    ['CoreDNS features', COREDNS_FEATURE_TIMELINES as never, OLDEST_COREDNS_VERSION, compareCoreDnsVersions],
    // kube-dns versions are ordered like node-cache's: MAJOR.MINOR.PATCH, numerically.
    ['kube-dns rules', KUBE_DNS_RULE_TIMELINES as never, '1.14.0', compareNodeCacheReleases],
    ['node-cache profiles', NODE_CACHE_TIMELINES as never, OLDEST_NODE_CACHE_RELEASE, compareNodeCacheReleases],
  ];
  it.each(tables)('%s: every timeline starts at the oldest release and moves forward', (_name, timelines, oldest, order) => {
    for (const [field, eras] of Object.entries(timelines)) {
      expect(eras[0]?.from, field).toBe(oldest);
      for (let index = 1; index < eras.length; index++) {
        expect(order(eras[index - 1]?.from ?? '', eras[index]?.from ?? ''), field).toBeLessThan(0);
        expect(eras[index - 1]?.value, field).not.toEqual(eras[index]?.value);
      }
    }
  });
});
