import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { translateLikeKubeadm } from '../../src/kubeadm/kubeadm-translation.js';
import { KUBEADM_PROFILE_IDS, KUBEADM_PROFILES } from '../../src/kubeadm/profiles.js';
import { COREDNS_VERSIONS, compareCoreDnsVersions, UnknownCoreDnsVersionError } from '../../src/coredns/versions.js';
import { coreDnsOptionAvailability, coreDnsPluginAvailability, isUsable } from '../../src/coredns/availability.js';
import { coreDnsFeatures } from '../../src/coredns/features.js';
import type { CoreDnsVersion } from '../../src/coredns/versions.js';
import {
  KUBERNETES_COREDNS_RELEASES,
  KUBERNETES_DEFAULT_COREFILE_IDS,
  KUBERNETES_DEFAULT_COREFILES,
  KUBERNETES_DEFAULT_REVERSE_ZONES,
  kubernetesDefaultCorefileFor,
  kubernetesDefaultMainBlock,
  KubernetesDefaultParametersError,
} from '../../src/coredns/kubernetes-default-corefile.js';
import type { DefaultDirective, KubernetesDefaultParameters } from '../../src/coredns/kubernetes-default-corefile.js';

/** `d('cache', '30')`, `d('health', [d('lameduck', '5s')])`: expected directives, written out by hand. */
function d(name: string, ...rest: Array<string | DefaultDirective[]>): DefaultDirective {
  const args = rest.filter((item): item is string => typeof item === 'string');
  const block = rest.find((item): item is DefaultDirective[] => Array.isArray(item));
  return block === undefined ? { name, args } : { name, args, block };
}

/** Corefile lines of a main block, without indentation (for comparing with kubeadm's text). */
function lines(keys: readonly string[], directives: readonly DefaultDirective[]): string[] {
  const out: string[] = [`${keys.join(' ')} {`];
  const walk = (list: readonly DefaultDirective[]): void => {
    for (const directive of list) {
      const head = [directive.name, ...directive.args].join(' ');
      if (directive.block === undefined) out.push(head);
      else {
        out.push(`${head} {`);
        walk(directive.block);
        out.push('}');
      }
    }
  };
  walk(directives);
  out.push('}');
  return out;
}

const PARAMS: KubernetesDefaultParameters = { clusterDomain: 'cluster.local', upstreams: ['10.0.0.10', '10.0.0.11:5353'] };
const TOS = ['10.0.0.10', '10.0.0.11:5353'];
const ZONES = ['cluster.local', 'in-addr.arpa', 'ip6.arpa'];

describe('the distinct defaults', () => {
  it('cover every known release exactly once, in order', () => {
    expect(KUBERNETES_DEFAULT_COREFILES.map((entry) => entry.id)).toEqual([...KUBERNETES_DEFAULT_COREFILE_IDS]);
    expect(KUBERNETES_DEFAULT_COREFILES[0]?.from).toBe(COREDNS_VERSIONS[0]);
    expect(KUBERNETES_DEFAULT_COREFILES.at(-1)?.to).toBe(COREDNS_VERSIONS.at(-1));
    for (let index = 0; index < KUBERNETES_DEFAULT_COREFILES.length; index += 1) {
      const entry = KUBERNETES_DEFAULT_COREFILES[index];
      const next = KUBERNETES_DEFAULT_COREFILES[index + 1];
      if (entry === undefined) continue;
      expect(compareCoreDnsVersions(entry.from, entry.to)).toBeLessThanOrEqual(0);
      if (next !== undefined) expect(COREDNS_VERSIONS[COREDNS_VERSIONS.indexOf(entry.to) + 1]).toBe(next.from);
    }
    for (const version of COREDNS_VERSIONS) expect(KUBERNETES_DEFAULT_COREFILE_IDS).toContain(kubernetesDefaultCorefileFor(version).id);
  });

  it('name the Kubernetes releases that shipped them, matching the release table', () => {
    for (const entry of KUBERNETES_DEFAULT_COREFILES) {
      for (const minor of entry.kubernetesReleases) {
        const shipped = KUBERNETES_COREDNS_RELEASES.find((release) => release.kubernetes === minor);
        expect(shipped, minor).toBeDefined();
        expect(kubernetesDefaultCorefileFor(shipped?.coredns ?? '').id).toBe(entry.id);
      }
      expect(entry.basis === 'adapted').toBe(entry.id.includes('adapted'));
    }
    // Every Kubernetes release maps into a default that lists it, except 1.14 (same CoreDNS as 1.15, no `ttl 30`).
    for (const release of KUBERNETES_COREDNS_RELEASES) {
      const entry = kubernetesDefaultCorefileFor(release.coredns);
      if (release.kubernetes === '1.14') expect(entry.kubernetesReleases).toEqual(['1.15']);
      else expect(entry.kubernetesReleases).toContain(release.kubernetes);
    }
  });

  it('refuses unknown releases', () => {
    expect(() => kubernetesDefaultCorefileFor('1.15.0')).toThrow(UnknownCoreDnsVersionError);
    expect(() => kubernetesDefaultMainBlock('1.8', PARAMS)).toThrow(UnknownCoreDnsVersionError);
  });
});

describe('kubernetesDefaultMainBlock: one test per distinct default', () => {
  it('k8s-1.10-adapted-no-fallthrough (1.0.0–1.0.2): upstream takes the addresses, no fallthrough', () => {
    const block = kubernetesDefaultMainBlock('1.0.2', PARAMS);
    expect(block.source.id).toBe('k8s-1.10-adapted-no-fallthrough');
    expect(block.keys).toEqual(['.:53']);
    expect(block.directives).toEqual([
      d('errors'),
      d('health'),
      d('kubernetes', ...ZONES, [d('pods', 'insecure'), d('upstream', ...TOS)]),
      d('prometheus', ':9153'),
      d('proxy', '.', ...TOS),
      d('cache', '30'),
    ]);
  });

  it('k8s-1.10-adapted (1.0.3–1.0.5): fallthrough with zones, upstream still with addresses', () => {
    expect(kubernetesDefaultMainBlock('1.0.5', PARAMS).directives).toEqual([
      d('errors'),
      d('health'),
      d('kubernetes', ...ZONES, [d('pods', 'insecure'), d('upstream', ...TOS), d('fallthrough', 'in-addr.arpa', 'ip6.arpa')]),
      d('prometheus', ':9153'),
      d('proxy', '.', ...TOS),
      d('cache', '30'),
    ]);
  });

  it('k8s-1.10 (1.0.6–1.1.2): Kubernetes 1.10 with CoreDNS 1.0.6', () => {
    expect(kubernetesDefaultMainBlock('1.0.6', PARAMS).directives).toEqual([
      d('errors'),
      d('health'),
      d('kubernetes', ...ZONES, [d('pods', 'insecure'), d('upstream'), d('fallthrough', 'in-addr.arpa', 'ip6.arpa')]),
      d('prometheus', ':9153'),
      d('proxy', '.', ...TOS),
      d('cache', '30'),
    ]);
  });

  it('k8s-1.11 (1.1.3–1.2.0): plus reload', () => {
    expect(kubernetesDefaultMainBlock('1.2.0', PARAMS).directives).toEqual([
      d('errors'),
      d('health'),
      d('kubernetes', ...ZONES, [d('pods', 'insecure'), d('upstream'), d('fallthrough', 'in-addr.arpa', 'ip6.arpa')]),
      d('prometheus', ':9153'),
      d('proxy', '.', ...TOS),
      d('cache', '30'),
      d('reload'),
    ]);
  });

  it('k8s-1.11-with-loop (1.2.1): plus loop, as corefile-migration adds it', () => {
    expect(kubernetesDefaultMainBlock('1.2.1', PARAMS).directives).toEqual([
      d('errors'),
      d('health'),
      d('kubernetes', ...ZONES, [d('pods', 'insecure'), d('upstream'), d('fallthrough', 'in-addr.arpa', 'ip6.arpa')]),
      d('prometheus', ':9153'),
      d('proxy', '.', ...TOS),
      d('cache', '30'),
      d('loop'),
      d('reload'),
    ]);
  });

  it('k8s-1.12 (1.2.2–1.3.0): loop and loadbalance', () => {
    expect(kubernetesDefaultMainBlock('1.2.6', PARAMS).directives).toEqual([
      d('errors'),
      d('health'),
      d('kubernetes', ...ZONES, [d('pods', 'insecure'), d('upstream'), d('fallthrough', 'in-addr.arpa', 'ip6.arpa')]),
      d('prometheus', ':9153'),
      d('proxy', '.', ...TOS),
      d('cache', '30'),
      d('loop'),
      d('reload'),
      d('loadbalance'),
    ]);
  });

  it('k8s-1.15 (1.3.1–1.4.0): forward, ttl 30, upstream kept', () => {
    expect(kubernetesDefaultMainBlock('1.4.0', PARAMS).directives).toEqual([
      d('errors'),
      d('health'),
      d('kubernetes', ...ZONES, [d('pods', 'insecure'), d('upstream'), d('fallthrough', 'in-addr.arpa', 'ip6.arpa'), d('ttl', '30')]),
      d('prometheus', ':9153'),
      d('forward', '.', ...TOS),
      d('cache', '30'),
      d('loop'),
      d('reload'),
      d('loadbalance'),
    ]);
  });

  it('k8s-1.16 (1.5.0–1.6.4): ready, no upstream', () => {
    expect(kubernetesDefaultMainBlock('1.5.0', PARAMS).directives).toEqual([
      d('errors'),
      d('health'),
      d('ready'),
      d('kubernetes', ...ZONES, [d('pods', 'insecure'), d('fallthrough', 'in-addr.arpa', 'ip6.arpa'), d('ttl', '30')]),
      d('prometheus', ':9153'),
      d('forward', '.', ...TOS),
      d('cache', '30'),
      d('loop'),
      d('reload'),
      d('loadbalance'),
    ]);
  });

  it('k8s-1.17 (1.6.5–1.6.9): health lameduck 5s', () => {
    expect(kubernetesDefaultMainBlock('1.6.9', PARAMS).directives).toEqual([
      d('errors'),
      d('health', [d('lameduck', '5s')]),
      d('ready'),
      d('kubernetes', ...ZONES, [d('pods', 'insecure'), d('fallthrough', 'in-addr.arpa', 'ip6.arpa'), d('ttl', '30')]),
      d('prometheus', ':9153'),
      d('forward', '.', ...TOS),
      d('cache', '30'),
      d('loop'),
      d('reload'),
      d('loadbalance'),
    ]);
  });

  it('k8s-1.19 (1.7.0–1.14.7): forward max_concurrent 1000', () => {
    const block = kubernetesDefaultMainBlock('1.14.7', PARAMS);
    expect(block.source.id).toBe('k8s-1.19');
    expect(block.version).toBe('1.14.7');
    expect(block.directives).toEqual([
      d('errors'),
      d('health', [d('lameduck', '5s')]),
      d('ready'),
      d('kubernetes', ...ZONES, [d('pods', 'insecure'), d('fallthrough', 'in-addr.arpa', 'ip6.arpa'), d('ttl', '30')]),
      d('prometheus', ':9153'),
      d('forward', '.', ...TOS, [d('max_concurrent', '1000')]),
      d('cache', '30'),
      d('loop'),
      d('reload'),
      d('loadbalance'),
    ]);
  });
});

describe('kubernetesDefaultMainBlock parameters', () => {
  it('substitutes the cluster domain and reverse zones; fallthrough keeps kubeadm’s zones', () => {
    const block = kubernetesDefaultMainBlock('v1.8.0', { clusterDomain: 'corp.internal', reverseZones: ['10.in-addr.arpa'], upstreams: ['/etc/resolv.conf'] });
    expect(block.directives[3]).toEqual(
      d('kubernetes', 'corp.internal', '10.in-addr.arpa', [d('pods', 'insecure'), d('fallthrough', 'in-addr.arpa', 'ip6.arpa'), d('ttl', '30')]),
    );
    expect(block.directives[5]).toEqual(d('forward', '.', '/etc/resolv.conf', [d('max_concurrent', '1000')]));
    expect(kubernetesDefaultMainBlock('1.8.0', { ...PARAMS, reverseZones: [] }).directives[3]?.args).toEqual(['cluster.local']);
    expect(KUBERNETES_DEFAULT_REVERSE_ZONES).toEqual(['in-addr.arpa', 'ip6.arpa']);
  });

  it('lets the caller pick the forwarder the version matrix prefers', () => {
    const kubernetes = kubernetesDefaultMainBlock('1.2.6', PARAMS);
    const preferred = kubernetesDefaultMainBlock('1.2.6', { ...PARAMS, forwarder: coreDnsFeatures('1.2.6').preferredForwarder });
    expect(preferred.directives[4]).toEqual(d('forward', '.', ...TOS));
    expect(preferred.directives.filter((_, index) => index !== 4)).toEqual(kubernetes.directives.filter((_, index) => index !== 4));
    expect(kubernetesDefaultMainBlock('1.0.4', { ...PARAMS, forwarder: coreDnsFeatures('1.0.4').preferredForwarder }).directives[4]?.name).toBe('proxy');
  });

  it.each([
    ['1.5.0', { ...PARAMS, forwarder: 'proxy' }, /CoreDNS 1\.5\.0 has no proxy plugin \(removed\)/],
    ['1.0.4', { ...PARAMS, forwarder: 'forward' }, /CoreDNS 1\.0\.4 has no forward plugin \(not-yet-added\)/],
    ['1.8.0', { ...PARAMS, upstreams: [] }, /upstreams must not be empty/],
    ['1.8.0', { ...PARAMS, upstreams: Array.from({ length: 16 }, (_, i) => `10.0.0.${i + 1}`) }, /at most 15 upstreams/],
    ['1.8.0', { ...PARAMS, upstreams: ['8.8.8.8 8.8.4.4'] }, /upstreams entry must be a non-empty Corefile word/],
    ['1.8.0', { ...PARAMS, upstreams: [''] }, /upstreams entry/],
    ['1.8.0', { ...PARAMS, clusterDomain: '' }, /clusterDomain/],
    ['1.8.0', { ...PARAMS, clusterDomain: 'cluster.local {' }, /clusterDomain/],
    ['1.8.0', { ...PARAMS, reverseZones: ['in-addr.arpa#'] }, /reverseZones entry/],
  ] as const)('refuses %s with %j', (version, parameters, message) => {
    expect(() => kubernetesDefaultMainBlock(version, parameters)).toThrow(KubernetesDefaultParametersError);
    expect(() => kubernetesDefaultMainBlock(version, parameters)).toThrow(message);
  });

  it('accepts exactly 15 upstreams', () => {
    const upstreams = Array.from({ length: 15 }, (_, i) => `10.0.0.${i + 1}`);
    expect(kubernetesDefaultMainBlock('1.8.0', { ...PARAMS, upstreams }).directives[5]?.args).toEqual(['.', ...upstreams]);
  });
});

describe('cross-check with kubeadm', () => {
  // kubeadm's own root block (no stub domains, no upstreamNameservers ⇒ /etc/resolv.conf) must be
  // the default of the CoreDNS release that Kubernetes release deployed.
  it.each(KUBEADM_PROFILE_IDS)('profile %s', (id) => {
    const minor = `1.${KUBEADM_PROFILES[id].kubernetesMinors[0] ?? 0}`;
    const shipped = KUBERNETES_COREDNS_RELEASES.find((release) => release.kubernetes === minor);
    expect(shipped, minor).toBeDefined();
    const outcome = translateLikeKubeadm(minor, {}, 'cluster.local');
    if (!outcome.ok) throw new Error(outcome.error);
    const kubeadm = outcome.corefile.split('\n');
    const root = kubeadm.slice(0, kubeadm.indexOf('}') + 1).map((line) => line.trim()).filter((line) => line !== '');
    const ours = kubernetesDefaultMainBlock(shipped?.coredns ?? '', { clusterDomain: 'cluster.local', upstreams: ['/etc/resolv.conf'] });
    const expected = lines(ours.keys, ours.directives);
    if (id === 'v1.14') expect(root).toEqual(expected.filter((line) => line !== 'ttl 30'));
    else expect(root).toEqual(expected);
  });
});

// ---------------------------------------------------------------------------------------------
// Cross-check with the version table: a default only uses what its release has.
// ---------------------------------------------------------------------------------------------

function problems(version: CoreDnsVersion, directives: readonly DefaultDirective[]): string[] {
  const features = coreDnsFeatures(version);
  const found: string[] = [];
  const forwarders = directives.filter((directive) => directive.name === 'forward' || directive.name === 'proxy');
  if (forwarders.length !== 1) found.push(`${forwarders.length} forwarders`);
  for (const directive of directives) {
    const plugin = coreDnsPluginAvailability(directive.name, version);
    if (!isUsable(plugin)) found.push(`plugin ${directive.name}: ${plugin.status}`);
    if (directive.name === 'forward' || directive.name === 'proxy') {
      const tos = directive.args.slice(1);
      if (directive.args[0] !== '.') found.push(`${directive.name} FROM ${directive.args[0]}`);
      if (tos.length === 0 || tos.length > features.upstreamLimit.max) found.push(`${directive.name} with ${tos.length} TOs`);
    }
    for (const option of directive.block ?? []) {
      const availability = coreDnsOptionAvailability(directive.name, option.name, version);
      if (!isUsable(availability)) found.push(`option ${directive.name} ${option.name}: ${availability.status}`);
      if (directive.name === 'kubernetes' && option.name === 'upstream') {
        const bareAllowed = ['addresses-optional', 'arguments-ignored', 'no-op'].includes(features.kubernetesUpstream);
        if (option.args.length === 0 && !bareAllowed) found.push(`bare upstream with ${features.kubernetesUpstream}`);
        if (features.kubernetesUpstream === 'no-op') found.push('upstream kept where it does nothing (1.5.2+)');
      }
      if (directive.name === 'kubernetes' && option.name === 'fallthrough' && option.args.length > 0 && !features.kubernetesFallthroughZones) {
        found.push('fallthrough zones before 1.0.3');
      }
      if (option.block !== undefined) found.push(`nested block under ${directive.name} ${option.name}`);
    }
  }
  return found;
}

const ipv4 = fc.tuple(fc.integer({ min: 1, max: 223 }), fc.nat(255), fc.nat(255), fc.integer({ min: 1, max: 254 })).map((parts) => parts.join('.'));
const upstream = fc.oneof(
  ipv4,
  fc.tuple(ipv4, fc.integer({ min: 1, max: 65535 })).map(([ip, port]) => `${ip}:${port}`),
  fc.constantFrom('2001:db8::1', '[2001:db8::53]:5353', '/etc/resolv.conf'),
);
const parameters: fc.Arbitrary<KubernetesDefaultParameters> = fc.record(
  {
    clusterDomain: fc.constantFrom('cluster.local', 'corp.internal', 'k8s.example.com'),
    reverseZones: fc.subarray(['in-addr.arpa', 'ip6.arpa', '10.in-addr.arpa']),
    upstreams: fc.array(upstream, { minLength: 1, maxLength: 15 }),
  },
  { requiredKeys: ['clusterDomain', 'upstreams'] },
);

describe('every default only uses what its release supports', () => {
  it.each(COREDNS_VERSIONS)('%s (fixed parameters, both forwarder choices)', (version) => {
    expect(problems(version, kubernetesDefaultMainBlock(version, PARAMS).directives)).toEqual([]);
    const preferred = coreDnsFeatures(version).preferredForwarder;
    const block = kubernetesDefaultMainBlock(version, { ...PARAMS, forwarder: preferred });
    expect(problems(version, block.directives)).toEqual([]);
    expect(block.directives.filter((directive) => directive.name === preferred)).toHaveLength(1);
  });

  it('for any release and any valid parameters (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...COREDNS_VERSIONS), parameters, fc.boolean(), (version, params, preferred) => {
        const chosen = preferred ? { ...params, forwarder: coreDnsFeatures(version).preferredForwarder } : params;
        const block = kubernetesDefaultMainBlock(version, chosen);
        expect(problems(version, block.directives)).toEqual([]);
        const kubernetes = block.directives.find((directive) => directive.name === 'kubernetes');
        expect(kubernetes?.args).toEqual([params.clusterDomain, ...(params.reverseZones ?? KUBERNETES_DEFAULT_REVERSE_ZONES)]);
        const forwarder = block.directives.find((directive) => directive.name === 'forward' || directive.name === 'proxy');
        expect(forwarder?.args).toEqual(['.', ...params.upstreams]);
      }),
      { numRuns: 300 },
    );
  });

  it('uses every new feature as soon as Kubernetes shipped it, and keeps it', () => {
    const uses = (version: CoreDnsVersion, name: string): boolean =>
      JSON.stringify(kubernetesDefaultMainBlock(version, PARAMS).directives).includes(`"name":"${name}"`);
    const first = (name: string): string | undefined => COREDNS_VERSIONS.find((version) => uses(version, name));
    expect(first('reload')).toBe('1.1.3');
    expect(first('loop')).toBe('1.2.1');
    expect(first('loadbalance')).toBe('1.2.2');
    expect(first('forward')).toBe('1.3.1');
    expect(first('ttl')).toBe('1.3.1');
    expect(first('ready')).toBe('1.5.0');
    expect(first('lameduck')).toBe('1.6.5');
    expect(first('max_concurrent')).toBe('1.7.0');
    for (const name of ['reload', 'loop', 'loadbalance', 'forward', 'ready', 'lameduck', 'max_concurrent']) {
      const from = COREDNS_VERSIONS.indexOf(first(name) as CoreDnsVersion);
      expect(COREDNS_VERSIONS.slice(from).every((version) => uses(version, name)), name).toBe(true);
    }
    expect(COREDNS_VERSIONS.filter((version) => uses(version, 'upstream')).at(-1)).toBe('1.4.0');
  });
});
