import { describe, expect, it } from 'vitest';
import { nodeCacheProfile } from '../../src/nodelocal/node-cache-releases.js';
import type { NodeCacheProfile } from '../../src/nodelocal/node-cache-releases.js';
import { changePoints, grid } from '../support/release-grid.js';

/**
 * node-cache's behaviour as deltas: each row is one change between two adjacent releases, and one
 * law says the profile changes there and nowhere else (patches 0–20 of every minor), so no
 * era-by-era copy is written.
 */

describe('node-cache profiles, release by release', () => {
  const deltas: Array<[keyof NodeCacheProfile, string, string, unknown, unknown]> = [
    ['stubBindSpaceSeparated', '1.15.6', '1.15.7', false, true],
    ['coreDns', '1.15.7', '1.15.8', '1.2.6', '1.6.4'],
    ['coreDns', '1.15.9', '1.15.10', '1.6.4', '1.6.7'],
    ['stubForwardOverUdp', '1.15.12', '1.15.13', false, true],
    ['coreDns', '1.15.20', '1.16.0', '1.6.7', '1.7.0'],
    ['coreDns', '1.19.20', '1.20.0', '1.7.0', '1.8.3'],
    ['coreDns', '1.20.20', '1.21.0', '1.8.3', '1.7.0'],
    ['validationGate', '1.22.9', '1.22.10', false, true],
    ['coreDns', '1.22.13', '1.22.14', '1.7.0', '1.10.0'],
    ['coreDns', '1.23.20', '1.24.0', '1.10.0', '1.11.3'],
    ['coreDns', '1.26.4', '1.26.5', '1.11.3', '1.12.2'],
    ['coreDns', '1.26.5', '1.26.6', '1.12.2', '1.13.1'],
  ];

  it.each(deltas)('%s: %s → %s', (field, before, at, valueBefore, valueAt) => {
    expect(nodeCacheProfile(before)[field]).toEqual(valueBefore);
    expect(nodeCacheProfile(at)[field]).toEqual(valueAt);
  });

  it('changes at exactly these releases and nowhere else; the 1.15.13 switch moves four fields together', () => {
    const changes = changePoints(grid('1.15.6', '1.26.7'), nodeCacheProfile, ({ release: _, ...profile }) => profile);
    expect(changes).toEqual([...new Set(deltas.map(([, , at]) => at))]);
    const switched = (release: string) => {
      const profile = nodeCacheProfile(release);
      return [profile.templateListenIpsSpaceSeparated, profile.stubForwardOverUdp, profile.upstreamTcpToUdpSwap, profile.dnsServerVariableBlanked];
    };
    expect([switched('1.15.12'), switched('1.15.13')]).toEqual([
      [false, false, false, false],
      [true, true, true, true],
    ]);
  });
});
