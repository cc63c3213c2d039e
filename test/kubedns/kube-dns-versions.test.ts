import { describe, expect, it } from 'vitest';
import { kubeDnsRules } from '../../src/kubedns/kube-dns-versions.js';
import type { KubeDnsRules } from '../../src/kubedns/kube-dns-versions.js';
import { changePoints, grid } from '../support/release-grid.js';

/**
 * kube-dns's ConfigMap rules as deltas: each row is one change between two adjacent releases, and
 * one law says the rules change there and nowhere else (over every 1.MINOR.PATCH of the range,
 * patches 0–20), so no era-by-era copy is written.
 */

describe('kube-dns rules, release by release', () => {
  const deltas: Array<[keyof KubeDnsRules, string, string, unknown, unknown]> = [
    ['stubPortSplit', '1.14.1', '1.14.2', 'none', 'first-colon'],
    ['stockManifestNoNegcache', '1.14.6', '1.14.7', false, true],
    ['upstreamPorts', '1.14.8', '1.14.9', false, true],
    ['upstreamsFromConfigMap', '1.14.9', '1.14.10', false, true],
    ['stubHostnamesResolved', '1.15.0', '1.15.1', false, true],
    ['stubPortSplit', '1.16.20', '1.17.0', 'first-colon', 'host-port'],
    ['dnsmasqTrailingDotUnqualified', '1.22.0', '1.22.1', false, true],
    ['ipText', '1.26.5', '1.26.6', 'lenient', 'canonical'],
  ];

  it.each(deltas)('%s: %s → %s', (rule, before, at, valueBefore, valueAt) => {
    expect(kubeDnsRules(before)[rule]).toEqual(valueBefore);
    expect(kubeDnsRules(at)[rule]).toEqual(valueAt);
  });

  it('changes at exactly these releases and nowhere else', () => {
    const changes = changePoints(grid('1.14.0', '1.26.7'), kubeDnsRules, ({ version: _, ...rules }) => rules);
    expect(changes).toEqual(deltas.map(([, , at]) => at));
  });

  it('normalises the version it was asked for, and is the same object for the same release', () => {
    expect(kubeDnsRules('v1.22.20').version).toBe('1.22.20');
    expect(kubeDnsRules(' 1.22.20 ')).toBe(kubeDnsRules('1.22.20'));
  });
});
