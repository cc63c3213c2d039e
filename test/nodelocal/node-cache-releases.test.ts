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
    ['coreDns', '1.26.7', '1.26.8', '1.13.1', '1.13.2'],
  ];

  // The directives node-cache compiles in (cmd/node-cache/main.go's imports): each change adds these.
  const added: Array<[string, string, readonly string[]]> = [
    ['1.15.7', '1.15.8', ['pprof']],
    ['1.15.9', '1.15.10', ['loadbalance', 'whoami']],
    ['1.15.12', '1.15.13', ['template']],
    ['1.16.9', '1.17.0', ['hosts', 'rewrite', 'trace']],
    ['1.21.2', '1.21.3', ['dns64']],
    ['1.22.6', '1.22.7', ['bufsize']],
    ['1.26.7', '1.26.8', ['timeouts']],
  ];

  it('1.15.6 loads ten directives, metrics as prometheus, and no other build\'s plugins', () => {
    expect(nodeCacheProfile('1.15.6').plugins).toEqual(['bind', 'cache', 'debug', 'errors', 'forward', 'health', 'log', 'loop', 'prometheus', 'reload']);
  });

  it.each(added)('plugins: %s → %s adds %j and removes none', (before, at, names) => {
    const previous = nodeCacheProfile(before).plugins;
    const next = nodeCacheProfile(at).plugins;
    expect(next.filter((name) => !previous.includes(name))).toEqual(names);
    expect(previous.filter((name) => !next.includes(name))).toEqual([]);
  });

  it.each(deltas)('%s: %s → %s', (field, before, at, valueBefore, valueAt) => {
    expect(nodeCacheProfile(before)[field]).toEqual(valueBefore);
    expect(nodeCacheProfile(at)[field]).toEqual(valueAt);
  });

  it('changes at exactly these releases and nowhere else; the 1.15.13 switch moves four fields together', () => {
    const changes = changePoints(grid('1.15.6', '1.26.8'), nodeCacheProfile, ({ release: _, ...profile }) => profile);
    const expected = [...new Set([...deltas.map(([, , at]) => at), ...added.map(([, at]) => at)])];
    expect(changes).toEqual(grid('1.15.6', '1.26.8').filter((release) => expected.includes(release)));
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
