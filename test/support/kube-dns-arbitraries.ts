import fc from 'fast-check';

/**
 * Random kube-dns ConfigMaps for property tests, of two kinds:
 * - {@link kubeDnsInput}, hostile: mostly plausible values, with hostile strings (quotes, braces,
 *   line breaks, non-ASCII, Corefile keywords) and the zones that matter for routing mixed in.
 *   kube-dns rejects most of these, so the translator refuses most of them;
 * - {@link validKubeDnsInput}: ConfigMaps the newest kube-dns accepts, with the variety that matters
 *   to the translator. Most of them translate; the few that do not are the ones kube-dns accepted
 *   and CoreDNS cannot serve the same way.
 * Properties about translated Corefiles use {@link anyKubeDnsInput}, weighted toward valid input.
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

// ---------------------------------------------------------------------------------------------
// Valid ConfigMaps: what kube-dns 1.26.7 accepts (Validate in kubernetes/dns pkg/dns/config:
// stub domains and federation domains are DNS-1123 subdomains, federation names DNS-1123 labels,
// stub nameservers IP[:port] or a hostname without port, at most 3 upstream IP[:port], IP text
// canonical).
// ---------------------------------------------------------------------------------------------

/** A DNS-1123 label whose last character is a letter (so that a name ending in it is no IP look-alike). */
const letterLabel = fc.stringMatching(/^[a-z]([a-z0-9-]{0,8}[a-z])?$/);
const validDomain = fc.tuple(fc.array(dnsLabel, { maxLength: 2 }), letterLabel).map(([labels, last]) => [...labels, last].join('.'));
const octet = fc.nat(255);

/**
 * Zones below in-addr.arpa and ip6.arpa: the kubernetes plugin falls through for them, so a stub
 * there must still get its names.
 */
const reverseZone = fc.oneof(
  fc.array(octet, { minLength: 1, maxLength: 3 }).map((octets) => `${octets.join('.')}.in-addr.arpa`),
  fc.array(fc.nat(15), { minLength: 1, maxLength: 8 }).map((nibbles) => `${nibbles.map((nibble) => nibble.toString(16)).join('.')}.ip6.arpa`),
);

/**
 * Zones around the cluster's own, for the default cluster domain and for `k8s.internal` / `local`
 * (the other domains the properties use): parents (the main block gains keys so that they do not
 * capture the cluster's names) and children (a stub inside the cluster domain, warned about).
 */
const clusterParent = fc.constantFrom('local', 'arpa', 'internal');
const clusterChild = fc.constantFrom('svc.cluster.local', 'corp.svc.cluster.local', 'acme.local', 'k8s.internal.corp', 'x.k8s.internal');

/** Names at the limits: a 63-character label, a name of 253 characters, punycode. */
const longZone = fc.constantFrom(`${'l'.repeat(63)}.example`, `${Array.from({ length: 4 }, (_, index) => String.fromCharCode(97 + index).repeat(61)).join('.')}.org`, 'xn--bcher-kva.example');

/** A stub domain kube-dns accepts and the translator can serve. */
export const translatableStubDomainName = fc.oneof(
  { weight: 12, arbitrary: validDomain },
  { weight: 4, arbitrary: reverseZone },
  { weight: 2, arbitrary: clusterParent },
  { weight: 2, arbitrary: clusterChild },
  { weight: 1, arbitrary: longZone },
);

/** Public-looking IPv4 addresses (127.0.0.0/8 is CoreDNS itself inside its pod). */
const validIpv4 = fc.tuple(fc.integer({ min: 1, max: 223 }).filter((first) => first !== 127), octet, octet, octet).map((octets) => octets.join('.'));
const validPort = fc.oneof(fc.constant(53), fc.constant(5353), fc.integer({ min: 1, max: 65535 }));

/**
 * IPv6 addresses in the text Go prints (lower case, the longest run of zero groups shortened, the
 * first on a tie), which is the only text kube-dns 1.26.6+ accepts. The URL parser prints IPv6
 * hosts by the same rule. IPv4-mapped addresses (Go prints them dotted), `::` and `::1` are left out.
 */
const validIpv6 = fc
  .tuple(fc.integer({ min: 0x2001, max: 0xfdff }), fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 0xffff })), { minLength: 7, maxLength: 7 }))
  .map(([first, rest]) => new URL(`http://[${[first, ...rest].map((group) => group.toString(16)).join(':')}]/`).hostname.slice(1, -1));

/**
 * A stub nameserver kube-dns accepts and the translator keeps: IPv4, IPv4:port, IPv6, or a
 * hostname without port (kept from CoreDNS 1.14.4, dropped before: a stub with only hostnames is
 * refused there). Not [IPv6]:port: dnsmasq-nanny passes it as `[v6]#port`, which dnsmasq refuses.
 */
export const translatableStubNameserver = fc.oneof(
  { weight: 16, arbitrary: validIpv4 },
  { weight: 6, arbitrary: fc.tuple(validIpv4, validPort).map(([ip, port]) => `${ip}:${port}`) },
  { weight: 6, arbitrary: validIpv6 },
  { weight: 1, arbitrary: validDomain.map((domain) => `ns.${domain}`) },
);

/** An upstream nameserver kube-dns accepts (IP or IP:port, no hostnames) and the translator keeps (not [IPv6]:port, as above). */
export const translatableUpstreamNameserver = fc.oneof(
  { weight: 12, arbitrary: validIpv4 },
  { weight: 3, arbitrary: fc.tuple(validIpv4, validPort).map(([ip, port]) => `${ip}:${port}`) },
  { weight: 4, arbitrary: validIpv6 },
);

/**
 * What kube-dns accepts and CoreDNS cannot do as kube-dns did, one thing per ConfigMap: a stub that
 * is the cluster domain or a reverse zone the kubernetes plugin owns, a label longer than 63
 * (kube-dns checks only the name's length), a loopback nameserver (CoreDNS itself), port 0, a
 * hostname inside the cluster domain, more nameservers than CoreDNS forwards to.
 */
type Untranslatable =
  | { readonly kind: 'stub'; readonly stub: readonly [string, readonly string[]] }
  | { readonly kind: 'stub-nameserver'; readonly nameserver: string; readonly at: number }
  | { readonly kind: 'upstream'; readonly nameserver: string };

function untranslatable(maxNameservers: number): fc.Arbitrary<Untranslatable> {
  const zone = fc.constantFrom('cluster.local', 'in-addr.arpa', 'ip6.arpa', `${'a'.repeat(64)}.example`);
  const nameserver = fc.constantFrom('127.0.0.1', '127.0.0.53:53', '::1', '10.0.0.10:0', 'localhost', 'kube-dns.kube-system.svc.cluster.local');
  const tooMany = fc.array(translatableStubNameserver, { minLength: 16, maxLength: Math.max(16, maxNameservers) });
  return fc.oneof(
    fc.tuple(zone, fc.array(translatableStubNameserver, { minLength: 1, maxLength: 2 })).map(([domain, servers]) => ({ kind: 'stub' as const, stub: [domain, servers] as const })),
    fc.tuple(nameserver, fc.nat()).map(([server, at]) => ({ kind: 'stub-nameserver' as const, nameserver: server, at })),
    fc.constantFrom('127.0.0.1', '::1').map((server) => ({ kind: 'upstream' as const, nameserver: server })),
    ...(maxNameservers > 15 ? [fc.tuple(validDomain, tooMany).map(([domain, servers]) => ({ kind: 'stub' as const, stub: [domain, servers] as const }))] : []),
  );
}

function withUntranslatable(input: KubeDnsInput, twist: Untranslatable): KubeDnsInput {
  switch (twist.kind) {
    case 'stub':
      return { ...input, stubs: [...input.stubs, twist.stub] };
    case 'stub-nameserver': {
      const target = input.stubs.length === 0 ? -1 : twist.at % input.stubs.length;
      if (target < 0) return { ...input, stubs: [['corp.example', [twist.nameserver]]] };
      return { ...input, stubs: input.stubs.map(([domain, servers], index) => [domain, index === target ? [...servers.slice(0, 14), twist.nameserver] : servers] as const) };
    }
    case 'upstream':
      return { ...input, upstreams: [...(input.upstreams ?? []).slice(0, 2), twist.nameserver] };
  }
}

/**
 * A kube-dns configuration the newest kube-dns accepts: 0–5 stub domains (some of them children
 * of another) with 1–15 nameservers (mostly 1–4, now and then none), at most 3 upstreams,
 * federations now and then. One in ten also holds one thing the translator must refuse (see
 * {@link untranslatable}); `maxNameservers` above 15 adds a stub with too many nameservers to those.
 */
export function validKubeDnsInput(maxNameservers = 15): fc.Arbitrary<KubeDnsInput> {
  const nameservers = fc.oneof(
    { weight: 12, arbitrary: fc.array(translatableStubNameserver, { minLength: 1, maxLength: 4 }) },
    { weight: 2, arbitrary: fc.array(translatableStubNameserver, { minLength: 5, maxLength: Math.min(15, maxNameservers), size: 'max' }) },
    { weight: 1, arbitrary: fc.constant([]) },
  );
  const stubs = fc.array(fc.tuple(translatableStubDomainName, nameservers), { maxLength: 5 });
  // Children of generated stubs: kube-dns (dnsmasq) sends their names to the most specific stub.
  const children = fc.array(fc.tuple(fc.nat(), dnsLabel, nameservers), { maxLength: 2 });
  const base = fc.record({
    stubs: fc.tuple(stubs, children).map(([parents, offspring]) =>
      [...parents, ...offspring.flatMap(([at, label, servers]) => {
        const parent = parents[at % Math.max(1, parents.length)];
        return parent === undefined || parent[0].length + label.length >= 253 ? [] : [[`${label}.${parent[0]}`, servers] as const];
      })],
    ),
    upstreams: fc.oneof(
      { weight: 2, arbitrary: fc.constant(undefined) },
      { weight: 5, arbitrary: fc.array(translatableUpstreamNameserver, { minLength: 1, maxLength: 3 }) },
      { weight: 1, arbitrary: fc.constant([]) },
    ),
    federations: fc.oneof({ weight: 4, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.array(fc.tuple(dnsLabel, validDomain), { minLength: 1, maxLength: 2 }) }),
  });
  return fc
    .tuple(base, fc.oneof({ weight: 9, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: untranslatable(maxNameservers) }))
    .map(([input, twist]) => (twist === undefined ? input : withUntranslatable(input, twist)));
}

/**
 * Mostly valid ConfigMaps (most translate), and now and then a hostile one (most are refused).
 * `maxNameservers` above 15 gives the hostile ones that many nameservers too.
 */
export function anyKubeDnsInput(maxNameservers = 15): fc.Arbitrary<KubeDnsInput> {
  return fc.oneof({ weight: 7, arbitrary: validKubeDnsInput(maxNameservers) }, { weight: 1, arbitrary: kubeDnsInput(maxNameservers > 15 ? maxNameservers : 4) });
}
