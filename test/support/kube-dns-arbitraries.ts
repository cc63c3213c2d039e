import fc from 'fast-check';

/**
 * Random kube-dns ConfigMaps for property tests: mostly plausible values, with hostile strings
 * (quotes, braces, line breaks, non-ASCII, Corefile keywords) and the zones that matter for routing
 * (the cluster domain, its parents and children, reverse zones) mixed in.
 */

export const hostileString = fc.constantFrom('', ' ', 'a b', 'x"y', 'a\\b', '{', '}', '#', 'a#b', 'n\nl', 't\tu', 'c\rr', '{$X}', 'import', 'é.com', 'ACME.LOCAL', 'acme.local.', 'a..b', '.', '*', '😀');
export const dnsLabel = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,6}[a-z0-9])?$/);
const specialZone = fc.constantFrom('local', 'cluster.local', 'svc.cluster.local', 'arpa', '10.in-addr.arpa', 'in-addr.arpa', 'ip6.arpa', 'localhost');
export const stubDomainName = fc.oneof(
  { weight: 4, arbitrary: fc.array(dnsLabel, { minLength: 1, maxLength: 3 }).map((labels) => labels.join('.')) },
  { weight: 1, arbitrary: hostileString },
  { weight: 1, arbitrary: specialZone },
);
export const ipv4Text = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((octets) => octets.join('.'));
export const nameserverText = fc.oneof(
  { weight: 4, arbitrary: ipv4Text },
  { weight: 2, arbitrary: fc.tuple(ipv4Text, fc.integer({ min: 0, max: 70000 })).map(([ip, port]) => `${ip}:${port}`) },
  { weight: 2, arbitrary: fc.ipV6() },
  { weight: 1, arbitrary: fc.tuple(fc.ipV6(), fc.integer({ min: 1, max: 65535 })).map(([ip, port]) => `[${ip}]:${port}`) },
  { weight: 1, arbitrary: fc.constantFrom('127.0.0.1', '::1', '010.0.0.1', '[2001:db8::1]', '1.2.3.4:53', 'ns.example.com', 'localhost') },
  { weight: 1, arbitrary: stubDomainName },
  { weight: 1, arbitrary: hostileString },
);

export interface KubeDnsInput {
  readonly stubs: readonly (readonly [string, readonly string[]])[];
  readonly upstreams: readonly string[] | undefined;
  readonly federations: readonly (readonly [string, string])[] | undefined;
}

/** A kube-dns configuration; `maxNameservers` above 15 exercises CoreDNS's destination limit. */
export function kubeDnsInput(maxNameservers = 4): fc.Arbitrary<KubeDnsInput> {
  return fc.record({
    stubs: fc.array(fc.tuple(stubDomainName, fc.array(nameserverText, { maxLength: maxNameservers })), { maxLength: 6 }),
    upstreams: fc.option(fc.array(nameserverText, { maxLength: 4 }), { nil: undefined }),
    federations: fc.option(fc.array(fc.tuple(dnsLabel, stubDomainName), { maxLength: 2 }), { nil: undefined }),
  });
}

/**
 * The ConfigMap data of `input`: stubDomains as JSON (each key once, so that `reverse` changes the
 * order but not which duplicate wins), upstreams as JSON, federations as kube-dns's name=domain.
 */
export function kubeDnsData(input: KubeDnsInput, reverse = false): Record<string, string> {
  const unique = [...new Map(input.stubs.map(([key, values]) => [key, values])).entries()];
  const ordered = reverse ? unique.reverse() : unique;
  const data: Record<string, string> = { stubDomains: `{${ordered.map(([key, values]) => `${JSON.stringify(key)}: ${JSON.stringify(values)}`).join(', ')}}` };
  if (input.upstreams !== undefined) data['upstreamNameservers'] = JSON.stringify(input.upstreams);
  if (input.federations !== undefined) data['federations'] = input.federations.map(([name, value]) => `${name}=${value}`).join(',');
  return data;
}
