import { describe, expect, it } from 'vitest';
import { coreDnsOptionAvailability, coreDnsPluginAvailability, isUsable } from '../../src/coredns/availability.js';
import { coreDnsFeatures } from '../../src/coredns/features.js';
import type { CoreDnsFeatures } from '../../src/coredns/features.js';
import { COREDNS_VERSIONS, compareCoreDnsVersions, UnknownCoreDnsVersionError } from '../../src/coredns/versions.js';
import type { CoreDnsVersion } from '../../src/coredns/versions.js';

/** The feature table (docs/coredns-versions.md checks its rendering: test/coredns/versions.test.ts). */

type FeatureName = Exclude<keyof CoreDnsFeatures, 'version'>;

describe('coreDnsFeatures at every boundary', () => {
  const boundaries: Array<[FeatureName, CoreDnsVersion, CoreDnsVersion, unknown, unknown]> = [
    ['proxy', '1.3.1', '1.4.0', 'available', 'deprecated'],
    ['proxy', '1.4.0', '1.5.0', 'deprecated', 'removed'],
    ['forward', '1.0.4', '1.0.5', 'absent', 'external'],
    ['forward', '1.0.5', '1.0.6', 'external', 'in-tree'],
    ['preferredForwarder', '1.0.5', '1.0.6', 'proxy', 'forward'],
    ['federation', '1.6.2', '1.6.3', 'in-tree', 'external'],
    ['federation', '1.6.9', '1.7.0', 'external', 'removed'],
    ['kubernetesUpstream', '1.0.5', '1.0.6', 'addresses-required', 'addresses-optional'],
    ['kubernetesUpstream', '1.3.1', '1.4.0', 'addresses-optional', 'arguments-ignored'],
    ['kubernetesUpstream', '1.5.1', '1.5.2', 'arguments-ignored', 'no-op'],
    ['kubernetesUpstream', '1.6.9', '1.7.0', 'no-op', 'removed'],
    ['kubernetesFallthroughZones', '1.0.2', '1.0.3', false, true],
    ['ready', '1.4.0', '1.5.0', false, true],
    ['loop', '1.2.0', '1.2.1', false, true],
    ['reload', '1.0.6', '1.1.0', false, true],
    ['healthLameduck', '1.0.4', '1.0.5', false, true],
    ['forwardMaxConcurrent', '1.6.7', '1.6.8', false, true],
    ['forwardHostnameTargets', '1.14.3', '1.14.4', false, true],
    ['forwardHttpsTargets', '1.14.4', '1.14.5', false, true],
    ['multipleForwardPerBlock', '1.9.3', '1.9.4', false, true],
    ['upstreamLimit', '1.0.0', '1.0.1', { max: 15, enforcement: 'none', counting: 'after-file-expansion' }, { max: 15, enforcement: 'unverified', counting: 'after-file-expansion' }],
    ['upstreamLimit', '1.0.6', '1.1.0', { max: 15, enforcement: 'unverified', counting: 'after-file-expansion' }, { max: 15, enforcement: 'enforced', counting: 'after-file-expansion' }],
    ['upstreamLimit', '1.14.3', '1.14.4', { max: 15, enforcement: 'enforced', counting: 'after-file-expansion' }, { max: 15, enforcement: 'enforced', counting: 'per-entry' }],
    ['queryNamesLowercased', '1.6.3', '1.6.4', false, true],
    ['serverBlockZonesLowercased', '1.14.6', '1.14.7', false, true],
    ['zoneKeyCase', '1.6.3', '1.6.4', 'case-sensitive', 'upper-case-unreachable'],
    ['zoneKeyCase', '1.14.6', '1.14.7', 'upper-case-unreachable', 'case-insensitive'],
    ['pluginSetup', '1.8.4', '1.8.5', 'per-key', 'per-block'],
    ['healthListener', '1.0.6', '1.1.0', 'first-only', 'exclusive'],
    ['healthListener', '1.6.5', '1.6.6', 'exclusive', 'shared'],
    ['forwardOncePerBlock', '1.0.6', '1.1.0', 'unverified', true],
    ['forwardOncePerBlock', '1.9.3', '1.9.4', true, false],
    ['forwardRefusesGrpc', '1.6.9', '1.7.0', false, true],
    ['forwardPolicySequential', '1.1.1', '1.1.2', false, true],
    ['template', '1.0.2', '1.0.3', false, true],
    ['cacheDisable', '1.9.3', '1.9.4', false, true],
    ['rewriteRcode', '1.11.1', '1.11.3', false, true],
    ['emptyHostKeyRefused', '1.3.0', '1.3.1', false, true],
    ['leadingDotKeyRefused', '1.9.4', '1.10.0', false, true],
    ['zoneDefinedTwiceWording', '1.0.6', '1.1.0', 'zone-already-defined', 'it-is-already-defined'],
    ['snippetImportsBounded', '1.12.4', '1.13.0', false, true],
    ['bindInterfaceNames', '1.8.3', '1.8.4', false, true],
    ['importGlobs', '1.2.2', '1.2.3', 'star-only', 'one-wildcard'],
  ];

  it.each(boundaries)('%s: %s → %s', (feature, before, at, valueBefore, valueAt) => {
    expect(coreDnsFeatures(before)[feature]).toEqual(valueBefore);
    expect(coreDnsFeatures(at)[feature]).toEqual(valueAt);
  });

  it('changes at exactly these releases and nowhere else', () => {
    const changes: string[] = [];
    let previous: string | undefined;
    for (const version of COREDNS_VERSIONS) {
      const { version: _, ...features } = coreDnsFeatures(version);
      const key = JSON.stringify(features);
      if (previous !== undefined && key !== previous) changes.push(version);
      previous = key;
    }
    expect(changes).toEqual([...new Set(boundaries.map(([, , at]) => at))].sort(compareCoreDnsVersions));
  });

  it('never takes a feature back once granted', () => {
    const grows: FeatureName[] = [
      'kubernetesFallthroughZones',
      'ready',
      'loop',
      'reload',
      'healthLameduck',
      'forwardMaxConcurrent',
      'forwardHostnameTargets',
      'forwardHttpsTargets',
      'multipleForwardPerBlock',
      'queryNamesLowercased',
      'serverBlockZonesLowercased',
      'forwardRefusesGrpc',
      'forwardPolicySequential',
      'template',
      'cacheDisable',
      'emptyHostKeyRefused',
      'leadingDotKeyRefused',
      'snippetImportsBounded',
    ];
    for (const feature of grows) {
      const values = COREDNS_VERSIONS.map((version) => coreDnsFeatures(version)[feature]);
      expect(values.slice(values.indexOf(true)).every(Boolean), feature).toBe(true);
    }
  });

  it('returns one frozen object per release', () => {
    expect(coreDnsFeatures('v1.8.0')).toBe(coreDnsFeatures('1.8.0'));
    expect(Object.isFrozen(coreDnsFeatures('1.8.0'))).toBe(true);
    expect(Object.isFrozen(coreDnsFeatures('1.8.0').upstreamLimit)).toBe(true);
    expect(coreDnsFeatures('1.8.0').version).toBe('1.8.0');
  });

  it('refuses unknown releases', () => {
    expect(() => coreDnsFeatures('1.8')).toThrow(UnknownCoreDnsVersionError);
    expect(() => coreDnsFeatures('1.20.0')).toThrow(/known releases: 1\.0\.0 to 1\.14\.7/);
  });

  it('agrees with the plugin table about forward, proxy and federation', () => {
    for (const version of COREDNS_VERSIONS) {
      const features = coreDnsFeatures(version);
      expect(features.forward !== 'absent').toBe(isUsable(coreDnsPluginAvailability('forward', version)));
      expect(features.proxy !== 'removed').toBe(isUsable(coreDnsPluginAvailability('proxy', version)));
      expect(features.federation !== 'removed').toBe(isUsable(coreDnsPluginAvailability('federation', version)));
      expect(isUsable(coreDnsPluginAvailability(features.preferredForwarder, version))).toBe(true);
      expect(features.kubernetesUpstream === 'removed').toBe(coreDnsOptionAvailability('kubernetes', 'upstream', version).status === 'removed');
    }
  });
});
