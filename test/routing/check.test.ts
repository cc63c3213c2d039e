import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COREDNS_VERSIONS } from '../../src/coredns/versions.js';
import { translateKubeDns } from '../../src/translate/translate.js';
import { isStrictAncestor, isWithin } from '../../src/dns/zones.js';
import { assertSameRouting, checkRouting, formatRoutingCheck, formatTable, namesToCheck, routingModels, RoutingMismatchError } from '../../src/routing/check.js';
import { destinationKey } from '../../src/routing/destination.js';
import type { RoutingDifference } from '../../src/routing/check.js';
import { Outcomes } from '../support/outcomes.js';
import { kubeDnsConfig } from './support.js';
import { configMapYaml } from '../support/kube-dns-manifests.js';

const KUBE_DNS_YAML = configMapYaml(
  { stubDomains: '{"acme.local": ["10.150.0.1"], "local": ["10.150.0.2:5353"]}\n', upstreamNameservers: '["8.8.8.8", "8.8.4.4"]\n' },
  { metadata: 'block', values: 'block' },
);

/** A hand-written migration with two classic mistakes: no cluster.local key next to the 'local' stub (which captures cluster names), and acme.local forgotten (the 'local' block takes it). */
const NAIVE_COREFILE = `.:53 {
    errors
    kubernetes cluster.local in-addr.arpa ip6.arpa {
        fallthrough in-addr.arpa ip6.arpa
    }
    forward . 8.8.8.8 8.8.4.4
}
local:53 {
    forward . 10.150.0.2:5353
}
`;

function translated(data: Record<string, string>, options: Parameters<typeof translateKubeDns>[1] = {}): string {
  const translation = translateKubeDns(data, options);
  if (translation.corefile === undefined) throw new Error(`translation refused: ${translation.diagnostics.map((entry) => entry.message).join('; ')}`);
  return translation.corefile;
}

describe('check', () => {
  it('finds no difference for the default translation of a ConfigMap, given as YAML text', () => {
    const data = routingModels({ kubeDns: KUBE_DNS_YAML, corefile: '' }).kubeDns.reading.config;
    expect(data.stubDomains.map((stub) => stub.domain)).toEqual(['acme.local', 'local']);
    const corefile = translated({ stubDomains: '{"acme.local": ["10.150.0.1"], "local": ["10.150.0.2:5353"]}', upstreamNameservers: '["8.8.8.8", "8.8.4.4"]' });
    const result = checkRouting({ kubeDns: KUBE_DNS_YAML, corefile });
    expect(result).toMatchObject({ ok: true, differences: [], notes: [] });
    // `equivalent` is the deprecated name of `ok` (CHANGELOG): the same value, for one release.
    expect(result.equivalent).toBe(true);
    expect(result.names).toContain('kubernetes.default.svc.cluster.local');
  });

  it('notes, without failing, the blocks that cache NXDOMAIN where the stock manifest (no Deployment given) did not', () => {
    const corefile = translated({ stubDomains: '{"acme.local": ["10.150.0.1"], "local": ["10.150.0.2:5353"]}', upstreamNameservers: '["8.8.8.8", "8.8.4.4"]' });
    const caching = corefile.replaceAll(/cache 30 \{\n\s*disable denial\n\s*\}/g, 'cache 30');
    expect(caching).not.toBe(corefile);
    const stock = checkRouting({ kubeDns: KUBE_DNS_YAML, corefile: caching });
    expect(stock).toMatchObject({ ok: true, differences: [], negativeCaching: [] });
    expect(stock.notes).toEqual([expect.stringMatching(/^kube-dns: no Deployment given: the stock kube-dns 1\.26\.7 manifest runs dnsmasq with --no-negcache .* caches NXDOMAIN in block \.:53 cluster\.local:53 \(30 s\) and 2 more blocks;/)]);
    // The manifests before kube-dns 1.14.7 cached NXDOMAIN: nothing to say.
    expect(checkRouting({ kubeDns: KUBE_DNS_YAML, corefile: caching, kubeDnsVersion: '1.14.5' }).notes).toEqual([]);
  });

  it('reports each differing name with both destinations', () => {
    const result = checkRouting({ kubeDns: KUBE_DNS_YAML, corefile: NAIVE_COREFILE });
    expect(result.ok).toBe(false);
    const summary = result.differences.map((difference) => [difference.name, destinationKey(difference.kubeDns.destination), destinationKey(difference.coreDns.destination)]);
    expect(summary).toEqual([
      ['acme.local', 'servers(10.150.0.1:53)', 'servers(10.150.0.2:5353)'],
      ['x.acme.local', 'servers(10.150.0.1:53)', 'servers(10.150.0.2:5353)'],
      ['cluster.local', 'cluster@cluster.local', 'servers(10.150.0.2:5353)'],
      ['svc.cluster.local', 'cluster@cluster.local', 'servers(10.150.0.2:5353)'],
      ['default.svc.cluster.local', 'cluster@cluster.local', 'servers(10.150.0.2:5353)'],
      ['kubernetes.default.svc.cluster.local', 'cluster@cluster.local', 'servers(10.150.0.2:5353)'],
      ['x.cluster.local', 'cluster@cluster.local', 'servers(10.150.0.2:5353)'],
    ]);
    expect(formatRoutingCheck(result)).toBe(`kube-dns and the Corefile route 7 of ${result.names.length} checked names differently:

NAME                                  KUBE-DNS                                 COREDNS
acme.local                            10.150.0.1:53                            10.150.0.2:5353
x.acme.local                          (stub domain acme.local)                 (block "local:53" > forward . 10.150.0.2:5353)

cluster.local                         cluster cluster.local                    10.150.0.2:5353
svc.cluster.local                     (kubedns: cluster domain cluster.local)  (block "local:53" > forward . 10.150.0.2:5353)
default.svc.cluster.local
kubernetes.default.svc.cluster.local
x.cluster.local
`);
  });

  it('compares the names derived from both sides, the samples and extra names, in canonical DNS order', () => {
    const { kubeDns, coreDns } = routingModels({ kubeDns: { stubDomains: '{"acme.local": ["10.0.0.1"]}', federations: 'myfed=fed.example.com' }, corefile: 'consul.local:53 {\n    forward . 10.0.0.9\n}\n' });
    expect(namesToCheck(kubeDns, coreDns, ['Extra.Example.NET.'])).toEqual([
      '.',
      'arpa',
      'in-addr.arpa',
      '1.0.96.10.in-addr.arpa',
      '8.8.8.8.in-addr.arpa',
      'x.in-addr.arpa',
      'ip6.arpa',
      '8.b.d.0.1.0.0.2.ip6.arpa',
      'x.ip6.arpa',
      'example.com',
      'www.example.com',
      'example',
      'local',
      'acme.local',
      'x.acme.local',
      'cluster.local',
      'svc.cluster.local',
      'default.svc.cluster.local',
      'kubernetes.default.svc.cluster.local',
      'myfed.svc.cluster.local',
      'namespace.myfed.svc.cluster.local',
      'service.namespace.myfed.svc.cluster.local',
      'x.cluster.local',
      'consul.local',
      'x.consul.local',
      'net',
      'example.net',
      'extra.example.net',
      'x',
    ].map((name) => (name === '.' ? '' : name)));
  });

  it('reports what kube-dns did with a ConfigMap it rejects', () => {
    const data = { stubDomains: '{"Acme.local": ["10.0.0.1"]}' };
    const result = checkRouting({ kubeDns: data, corefile: translated(data, { force: true }) });
    expect(result.ok).toBe(false);
    expect(result.notes[0]).toMatch(/^kube-dns: kube-dns 1\.26\.7 rejects this ConfigMap/);
    expect(result.differences.map((difference) => difference.name)).toEqual(['acme.local', 'x.acme.local']);
    expect(formatRoutingCheck(result)).toMatch(/\nNotes:\n {2}- kube-dns: kube-dns 1\.26\.7 rejects this ConfigMap/);
  });

  it('finds no difference where the main block is split for CoreDNS 1.1.0–1.6.5 (stubs arpa, local and a)', () => {
    const data = { stubDomains: '{"arpa": ["10.0.0.1"], "local": ["10.0.0.3"], "a": ["10.0.0.2"]}', upstreamNameservers: '["8.8.8.8"]' };
    for (const coredns of ['1.1.3', '1.2.6', '1.6.5']) {
      const corefile = translated(data, { coredns });
      expect(corefile, coredns).toContain('\n\ncluster.local:53 in-addr.arpa:53 ip6.arpa:53 {\n');
      const result = checkRouting({ kubeDns: data, corefile });
      expect(result.ok, coredns).toBe(true);
      expect(result.names).toEqual(expect.arrayContaining(['kubernetes.default.svc.cluster.local', '1.0.96.10.in-addr.arpa', '8.8.8.8.in-addr.arpa', 'x.arpa', 'x.local']));
    }
  });

  it('checks another port and cluster domain', () => {
    const data = { stubDomains: '{"corp": ["10.0.0.1"]}' };
    const corefile = translated(data, { clusterDomain: 'k8s.corp' }).replaceAll(':53', ':1053');
    expect(checkRouting({ kubeDns: data, corefile, clusterDomain: 'k8s.corp', port: 1053 }).ok).toBe(true);
    expect(checkRouting({ kubeDns: data, corefile, clusterDomain: 'k8s.corp' }).differences.every((difference) => difference.coreDns.destination.kind === 'refused')).toBe(true);
  });
});

describe('assertSameRouting', () => {
  it('returns the check when every name agrees', () => {
    const data = { stubDomains: '{"acme.local": ["10.0.0.1"]}' };
    expect(assertSameRouting({ kubeDns: data, corefile: translated(data) }).ok).toBe(true);
  });

  it('throws an Error whose message is the table of differing names', () => {
    let thrown: unknown;
    try {
      assertSameRouting({ kubeDns: KUBE_DNS_YAML, corefile: NAIVE_COREFILE });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect(thrown).toBeInstanceOf(RoutingMismatchError);
    const error = thrown as RoutingMismatchError;
    expect(error.name).toBe('RoutingMismatchError');
    expect(error.message).toBe(formatRoutingCheck(error.check));
    expect(error.message).toMatch(/^kube-dns and the Corefile route 7 of \d+ checked names differently:\n\nNAME +KUBE-DNS +COREDNS\n/);
  });
});

/** The zones a stub domain of an accepted config sits on, for coverage counts. */
function placements(data: Record<string, string>, clusterDomain: string): string[] {
  const stubs = Object.entries(JSON.parse(data['stubDomains'] ?? '{}') as Record<string, string[]>).filter(([, servers]) => servers.length > 0);
  return stubs.flatMap(([zone]) => {
    const found: string[] = [];
    if (isStrictAncestor(zone, clusterDomain)) found.push('parent of the cluster domain');
    if (isWithin(zone, clusterDomain) && zone !== clusterDomain) found.push('under the cluster domain');
    if (['in-addr.arpa', 'ip6.arpa'].some((reverse) => isStrictAncestor(zone, reverse))) found.push('parent of a reverse zone');
    if (['in-addr.arpa', 'ip6.arpa'].some((reverse) => isWithin(zone, reverse) && zone !== reverse)) found.push('under a reverse zone');
    return found;
  });
}

describe('the default translator keeps kube-dns routing (property)', () => {
  it('check(config, translate(config)) finds no difference, for ≥ 200 accepted configs', () => {
    let accepted = 0;
    const covered = new Map<string, number>();
    fc.assert(
      fc.property(kubeDnsConfig, ({ clusterDomain, data }) => {
        const translation = translateKubeDns(data, { clusterDomain });
        if (translation.corefile === undefined) return;
        accepted += 1;
        for (const placement of placements(data, clusterDomain)) covered.set(placement, (covered.get(placement) ?? 0) + 1);
        const result = checkRouting({ kubeDns: data, corefile: translation.corefile, clusterDomain });
        if (!result.ok) throw new Error(`${translation.corefile}\n${formatRoutingCheck(result)}`);
      }),
      { numRuns: 400, seed: 5 },
    );
    expect(accepted).toBeGreaterThanOrEqual(200);
    for (const placement of ['parent of the cluster domain', 'under the cluster domain', 'parent of a reverse zone', 'under a reverse zone']) {
      expect(covered.get(placement) ?? 0, placement).toBeGreaterThanOrEqual(10);
    }
  });

  it('for older CoreDNS targets, differs only where the translator knowingly cannot keep kube-dns routing', () => {
    const seen = new Map<string, number>();
    const outcomes = new Outcomes<'checked' | 'refused' | 'same routing' | 'known deviations only'>();
    fc.assert(
      fc.property(kubeDnsConfig, fc.constantFrom(...COREDNS_VERSIONS), ({ clusterDomain, data }, coredns) => {
        const translation = translateKubeDns(data, { clusterDomain, coredns });
        if (translation.corefile === undefined) {
          outcomes.add('refused');
          return;
        }
        outcomes.add('checked');
        const result = checkRouting({ kubeDns: data, corefile: translation.corefile, clusterDomain });
        outcomes.add(result.differences.length === 0 ? 'same routing' : 'known deviations only');
        for (const difference of result.differences) {
          const reason = knownDeviation(difference, coredns);
          if (reason === undefined) throw new Error(`CoreDNS ${coredns}:\n${translation.corefile}\n${formatRoutingCheck(result)}`);
          seen.set(reason, (seen.get(reason) ?? 0) + 1);
        }
      }),
      { numRuns: 600, seed: 11 },
    );
    // With this seed: 397 Corefiles checked (311 routing the same, 86 with known deviations), 203 refused.
    outcomes.expectAtLeast({ checked: 300, 'same routing': 200, 'known deviations only': 40, refused: 1 });
    expect([...seen.keys()].sort()).toEqual(['hostname nameserver dropped (CoreDNS < 1.14.4)', 'reverse lookups outside the cluster end in NXDOMAIN (CoreDNS < 1.0.3)']);
  });
});

/**
 * Differences the default translator makes on purpose for old targets (each with a diagnostic or a
 * documented default): hostname nameservers are dropped where forward cannot resolve them, and
 * CoreDNS before 1.0.3 has no `fallthrough ZONES`, so kubernetes answers every reverse name.
 */
function knownDeviation(difference: RoutingDifference, coredns: string): string | undefined {
  const kube = difference.kubeDns.destination;
  const core = difference.coreDns.destination;
  const [major, minor, patch] = coredns.split('.').map(Number) as [number, number, number];
  const before = (a: number, b: number, c: number) => major < a || (major === a && (minor < b || (minor === b && patch < c)));
  if (before(1, 14, 4) && kube.kind === 'servers' && core.kind === 'servers') {
    const withoutHostnames = kube.servers.filter((server) => /^[0-9[]/.test(server));
    if (withoutHostnames.length < kube.servers.length && withoutHostnames.join() === core.servers.join()) return 'hostname nameserver dropped (CoreDNS < 1.14.4)';
  }
  if (before(1, 0, 3) && kube.kind === 'cluster' && kube.otherwise !== undefined && core.kind === 'cluster' && core.otherwise === undefined) {
    return 'reverse lookups outside the cluster end in NXDOMAIN (CoreDNS < 1.0.3)';
  }
  return undefined;
}

describe('large inputs (timings: npm run bench)', () => {
  it('checks a ConfigMap with 1,000 stub domains', () => {
    const stubs: Record<string, string[]> = {};
    for (let index = 0; index < 1000; index += 1) {
      stubs[`svc${index}.team${index % 37}.corp${index % 5}.example`] = [`10.${index % 250}.${(index * 7) % 250}.1`, `10.${index % 250}.${(index * 7) % 250}.2:5353`];
    }
    const data = { stubDomains: JSON.stringify(stubs), upstreamNameservers: '["8.8.8.8"]' };
    const corefile = translated(data);
    const result = checkRouting({ kubeDns: data, corefile });
    expect(result.ok).toBe(true);
    expect(result.names.length).toBeGreaterThan(2000);
  });
});

describe('formatTable at scale', () => {
  it('lays out 200,000 rows (Math.max over a spread list overflowed the stack)', () => {
    const rows = Array.from({ length: 200_000 }, (_, index) => [`name${index}.example`, 'resolv.conf', index % 2 === 0 ? 'REFUSED' : 'cluster\nelse']);
    const table = formatTable(['NAME', 'KUBE-DNS', 'COREDNS'], rows);
    expect(table.split('\n')[0]).toBe(`NAME${' '.repeat('name199999.example'.length - 4 + 2)}KUBE-DNS     COREDNS`);
  });
});
