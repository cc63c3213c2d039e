import fc from 'fast-check';

/** Generators of kube-dns ConfigMaps for the routing tests: stub domains around the cluster's own zones. */

export const CLUSTER_DOMAINS = ['cluster.local', 'k8s.example.org', 'corp'] as const;

const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,5}[a-z0-9]$/);
const randomDomain = fc.array(label, { minLength: 1, maxLength: 3 }).map((labels) => labels.join('.'));

/** Stub domains that sit on, above or below the cluster domain and the reverse zones. */
export function stubDomain(clusterDomain: string): fc.Arbitrary<string> {
  const parents = clusterDomain.split('.').map((_, index, labels) => labels.slice(index).join('.'));
  return fc.oneof(
    { weight: 3, arbitrary: randomDomain },
    { weight: 2, arbitrary: fc.constantFrom(...parents, `my.${clusterDomain}`, `svc.${clusterDomain}`, `ns.svc.${clusterDomain}`) },
    { weight: 2, arbitrary: fc.constantFrom('arpa', 'in-addr.arpa', 'ip6.arpa', '10.in-addr.arpa', '96.10.in-addr.arpa', '8.b.d.0.1.0.0.2.ip6.arpa', 'local', 'example.com') },
    { weight: 1, arbitrary: fc.tuple(label, randomDomain).map(([first, rest]) => `${first}.${rest}`) },
  );
}

const publicIpv4 = fc.tuple(fc.integer({ min: 1, max: 223 }), fc.nat(255), fc.nat(255), fc.integer({ min: 1, max: 254 })).filter(([a]) => a !== 127 && a !== 10).map((octets) => octets.join('.'));
const ipv6 = fc.tuple(fc.integer({ min: 0x2001, max: 0x2fff }), fc.nat(0xffff), fc.nat(0xffff)).map(([a, b, c]) => `${a.toString(16)}:${b.toString(16)}::${c.toString(16)}`);
const port = fc.integer({ min: 1, max: 65535 });

/** Not [IPv6]:port: dnsmasq-nanny passes it as `[v6]#port`, which dnsmasq refuses (the translation refuses it too). */
export const stubNameserver = fc.oneof(
  { weight: 4, arbitrary: publicIpv4 },
  { weight: 2, arbitrary: fc.tuple(publicIpv4, port).map(([ip, p]) => `${ip}:${p}`) },
  { weight: 2, arbitrary: ipv6 },
  { weight: 1, arbitrary: randomDomain.map((domain) => `ns.${domain}`) },
);

export const upstreamNameserver = fc.oneof(
  { weight: 4, arbitrary: publicIpv4 },
  { weight: 1, arbitrary: fc.tuple(publicIpv4, port).map(([ip, p]) => `${ip}:${p}`) },
  { weight: 1, arbitrary: ipv6 },
);

export interface GeneratedConfig {
  readonly clusterDomain: string;
  readonly data: Record<string, string>;
}

/** A kube-dns ConfigMap's data with its cluster domain. */
export const kubeDnsConfig: fc.Arbitrary<GeneratedConfig> = fc.constantFrom(...CLUSTER_DOMAINS).chain((clusterDomain) =>
  fc
    .record({
      stubs: fc.uniqueArray(fc.tuple(stubDomain(clusterDomain), fc.array(stubNameserver, { minLength: 0, maxLength: 3 })), { maxLength: 6, selector: ([domain]) => domain }),
      upstreams: fc.option(fc.array(upstreamNameserver, { maxLength: 3 }), { nil: undefined }),
    })
    .map(({ stubs, upstreams }) => {
      const data: Record<string, string> = { stubDomains: JSON.stringify(Object.fromEntries(stubs)) };
      if (upstreams !== undefined) data['upstreamNameservers'] = JSON.stringify(upstreams);
      return { clusterDomain, data };
    }),
);
