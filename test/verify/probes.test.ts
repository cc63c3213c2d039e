import fc from 'fast-check';
import dnsPacket from 'dns-packet';
import { describe, expect, it } from 'vitest';
import { readKubeDnsInstall } from '../../src/kubedns/kube-dns-install.js';
import { translateKubeDnsInstall } from '../../src/translate/translate.js';
import { decodeResponse, DnsWireError, encodeQuery } from '../../src/verify/dns-wire.js';
import { compareProbe, formatProbeNames, MAX_PROBES, parseProbeNames, ProbeNamesError, reverseName, verifyProbes, verifyReport } from '../../src/verify/probes.js';
import type { LiveAnswer, VerifyProbe } from '../../src/verify/probes.js';
import { kubeDnsData, validKubeDnsInput } from '../support/kube-dns-arbitraries.js';
import { configMapYaml, deploymentYaml } from '../support/kube-dns-manifests.js';
import { Outcomes } from '../support/outcomes.js';

const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,10}[a-z0-9])?$/);
const domain = fc.array(label, { minLength: 1, maxLength: 4 }).map((labels) => labels.join('.'));
const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((octets) => octets.join('.'));
const ipv6 = fc.array(fc.nat(0xffff), { minLength: 8, maxLength: 8 }).map((groups) => groups.map((group) => group.toString(16)).join(':'));

/** Records dns-packet encodes, with the presentation form this codec must give their data. */
const record = fc.oneof(
  ipv4.map((data) => ({ type: 'A', data, text: data })),
  // The WHATWG URL serializer writes IPv6 hosts in RFC 5952's canonical form: an independent oracle.
  ipv6.map((data) => ({ type: 'AAAA', data, text: new URL(`http://[${data}]/`).hostname.slice(1, -1) })),
  domain.map((data) => ({ type: 'PTR', data, text: `${data}.` })),
  domain.map((data) => ({ type: 'CNAME', data, text: `${data}.` })),
  fc.tuple(fc.nat(65535), fc.nat(65535), fc.nat(65535), domain).map(([priority, weight, port, target]) => ({ type: 'SRV', data: { priority, weight, port, target }, text: `${priority} ${weight} ${port} ${target}.` })),
  fc.array(fc.stringMatching(/^[ -!#-[\]-~]{0,20}$/), { minLength: 1, maxLength: 3 }).map((strings) => ({ type: 'TXT', data: strings, text: strings.map((part) => `"${part}"`).join(' ') })),
  fc.tuple(domain, domain, fc.nat(2 ** 31)).map(([mname, rname, serial]) => ({ type: 'SOA', data: { mname, rname, serial, refresh: 7200, retry: 1800, expire: 86400, minimum: 30 }, text: `${mname}. ${rname}. ${serial} 7200 1800 86400 30` })),
);

describe('the DNS wire codec', () => {
  it('decodes what dns-packet encodes: rcode, TC, every record in presentation form (compressed names too)', () => {
    const outcomes = new Outcomes<'records' | 'empty' | 'truncated'>();
    fc.assert(
      fc.property(fc.nat(65535), domain, fc.array(record, { maxLength: 5 }), fc.constantFrom('NOERROR', 'NXDOMAIN', 'SERVFAIL', 'REFUSED'), fc.boolean(), (id, name, records, rcode, truncated) => {
        const flags = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3, REFUSED: 5 }[rcode] | (truncated ? dnsPacket.TRUNCATED_RESPONSE : 0);
        const bytes = dnsPacket.encode({ id, type: 'response', flags, questions: [{ type: 'A', name, class: 'IN' }], answers: records.map((entry) => ({ type: entry.type, name, ttl: 30, class: 'IN', data: entry.data })) });
        const decoded = decodeResponse(bytes);
        expect(decoded).toEqual({ id, rcode, truncated, answers: records.map((entry) => ({ name: `${name}.`, type: entry.type, ttl: 30, data: entry.text })) });
        outcomes.add(truncated ? 'truncated' : records.length === 0 ? 'empty' : 'records');
      }),
      { numRuns: 300 },
    );
    outcomes.expectAtLeast({ records: 100, empty: 5, truncated: 50 });
  });

  it('encodes a query dns-packet reads back', () => {
    fc.assert(
      fc.property(fc.nat(65535), domain, fc.constantFrom('A', 'AAAA', 'SRV', 'PTR', 'TXT', 'SOA') as fc.Arbitrary<'A'>, (id, name, type) => {
        const query = dnsPacket.decode(Buffer.from(encodeQuery(id, name, type)));
        expect(query).toMatchObject({ id, type: 'query', questions: [{ name, type, class: 'IN' }] });
        expect((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED).toBe(dnsPacket.RECURSION_DESIRED);
      }),
    );
    expect(dnsPacket.decode(Buffer.from(encodeQuery(7, '.', 'A'))).questions?.[0]?.name).toBe('.');
  });

  it('refuses what is not a response it can read', () => {
    expect(() => decodeResponse(encodeQuery(1, 'a.b', 'A'))).toThrow(DnsWireError);
    expect(() => decodeResponse(Uint8Array.from([0, 1, 0x80]))).toThrow(/ends early/);
    const loop = Uint8Array.from([0, 1, 0x81, 0x80, 0, 0, 0, 1, 0, 0, 0, 0, 0xc0, 12, 0, 1, 0, 1, 0, 0, 0, 0, 0, 4, 1, 2, 3, 4]);
    expect(() => decodeResponse(loop)).toThrow(/compression loop/);
    expect(() => encodeQuery(1, `${'a'.repeat(64)}.b`, 'A')).toThrow(/1 to 63/);
  });
});

const answer = (rcode: string, ...records: [string, string, string][]): LiveAnswer => ({ rcode, answers: records.map(([name, type, data]) => ({ name, type, ttl: 5, data })) });
const probe = (name: string, type: VerifyProbe['type']): VerifyProbe => ({ name, type, why: 'test' });

describe('compareProbe', () => {
  it('ignores order and TTL; names rcode and record differences', () => {
    const a = answer('NOERROR', ['x.', 'A', '1.1.1.1'], ['x.', 'A', '2.2.2.2']);
    const b = { rcode: 'NOERROR', answers: [...a.answers].reverse().map((entry) => ({ ...entry, ttl: 99 })) };
    expect(compareProbe(probe('x.', 'A'), a, b, 'cluster.local', []).verdict).toBe('agree');
    const nx = compareProbe(probe('x.', 'A'), a, answer('NXDOMAIN'), 'cluster.local', []);
    expect(nx).toMatchObject({ verdict: 'unexpected', reason: 'NOERROR from kube-dns, NXDOMAIN from CoreDNS' });
  });

  it('a SERVFAIL or REFUSED from CoreDNS is unexpected, even when kube-dns answered the same', () => {
    for (const rcode of ['SERVFAIL', 'REFUSED']) {
      for (const type of ['A', 'TXT', 'SOA', 'SRV'] as const) {
        const name = type === 'TXT' ? 'dns-version.cluster.local.' : type === 'SOA' ? 'cluster.local.' : 'kubernetes.default.svc.cluster.local.';
        expect(compareProbe(probe(name, type), answer(rcode), answer(rcode), 'cluster.local', []), `${rcode} ${type}`).toMatchObject({ verdict: 'unexpected', reason: `${rcode} from CoreDNS, as kube-dns did: a failure all the same (two servers failing alike do not agree on an answer)` });
      }
      expect(compareProbe(probe('x.', 'A'), answer('NOERROR', ['x.', 'A', '1.1.1.1']), answer(rcode), 'cluster.local', []).reason).toBe(`${rcode} from CoreDNS (kube-dns: NOERROR)`);
    }
    // From kube-dns alone it is an ordinary difference; NXDOMAIN from both still agrees.
    expect(compareProbe(probe('x.', 'A'), answer('SERVFAIL'), answer('NXDOMAIN'), 'cluster.local', []).reason).toBe('SERVFAIL from kube-dns, NXDOMAIN from CoreDNS');
    expect(compareProbe(probe('x.', 'A'), answer('NXDOMAIN'), answer('NXDOMAIN'), 'cluster.local', []).verdict).toBe('agree');
  });

  it('a name that must exist without a record of its type from CoreDNS is unexpected, even when kube-dns did not answer it either', () => {
    const name = 'kubernetes.default.svc.cluster.local.';
    const must: VerifyProbe = { name, type: 'A', why: "the API server's Service, which every cluster has", mustExist: true };
    const positive = answer('NOERROR', [name, 'A', '10.96.0.1']);
    const negatives = [answer('NXDOMAIN'), answer('NOERROR'), answer('NOERROR', [name, 'CNAME', 'x.example.'])];
    let failed = 0;
    for (const negative of negatives) {
      const both = compareProbe(must, negative, negative, 'cluster.local', []);
      expect(both.verdict, both.reason).toBe('unexpected');
      expect(both.reason).toMatch(/^(NXDOMAIN|NOERROR without a A record) from CoreDNS for a name that must exist \(the API server's Service, which every cluster has\); kube-dns did not answer it either: a failure all the same/);
      // Without the mark the same answers agree: the mark is what fails them.
      expect(compareProbe({ ...must, mustExist: false }, negative, negative, 'cluster.local', []).verdict).toBe('agree');
      expect(compareProbe(must, positive, negative, 'cluster.local', []).reason).toMatch(/; kube-dns answered it\. CoreDNS does not see the cluster's Services/);
      failed += 1;
    }
    expect(failed).toBe(3);
    // A positive answer from CoreDNS is compared as usual; announced differences do not excuse a missing one.
    expect(compareProbe(must, positive, positive, 'cluster.local', []).verdict).toBe('agree');
    expect(compareProbe(must, positive, answer('NOERROR', [name, 'A', '10.96.0.2']), 'cluster.local', []).verdict).toBe('unexpected');
    const announced = [{ code: 'hostname-nameserver-dropped', severity: 'warning', key: 'stubDomains', path: '["cluster.local"]', message: 'm', hint: 'h' }] as const;
    expect(compareProbe(must, positive, answer('NXDOMAIN'), 'cluster.local', announced).verdict).toBe('unexpected');
    expect(compareProbe(must, answer('SERVFAIL'), answer('SERVFAIL'), 'cluster.local', []).reason).toMatch(/^SERVFAIL from CoreDNS, as kube-dns did/);
  });

  it('classifies the documented differences and those the translator announced', () => {
    const cases: [VerifyProbe, LiveAnswer, LiveAnswer, string][] = [
      [probe('dns-version.cluster.local.', 'TXT'), answer('NOERROR', ['dns-version.cluster.local.', 'TXT', '"1.0.0"']), answer('NXDOMAIN'), 'dns-version'],
      [probe('cluster.local.', 'SOA'), answer('NOERROR', ['cluster.local.', 'SOA', 'a. b. 1 2 3 4 5']), answer('NOERROR', ['cluster.local.', 'SOA', 'a. b. 1 2 3 4 30']), 'SOA'],
      [probe('_dns._udp.kube-dns.kube-system.svc.cluster.local.', 'SRV'), answer('NOERROR', ['s.', 'SRV', '10 100 53 a1b2.kube-dns.kube-system.svc.cluster.local.']), answer('NOERROR', ['s.', 'SRV', '0 100 53 kube-dns.kube-system.svc.cluster.local.']), 'SRV'],
    ];
    for (const [entry, old, current, why] of cases) expect(compareProbe(entry, old, current, 'cluster.local', []).verdict, why).toBe('expected');
    // An SRV answer with other ports is a real difference.
    expect(compareProbe(cases[2]![0], cases[2]![1], answer('NOERROR', ['s.', 'SRV', '10 100 5353 x.']), 'cluster.local', []).verdict).toBe('unexpected');
    const dropped = [{ code: 'hostname-nameserver-dropped', severity: 'warning', key: 'stubDomains', path: '["acme.local"][0]', message: 'm', hint: 'h' }] as const;
    const announced = compareProbe(probe('x.acme.local.', 'A'), answer('NOERROR', ['x.acme.local.', 'A', '1.2.3.4']), answer('NXDOMAIN'), 'cluster.local', dropped);
    expect(announced).toMatchObject({ verdict: 'expected', code: 'hostname-nameserver-dropped' });
    // Announced or not, a CoreDNS that cannot answer fails the check.
    expect(compareProbe(probe('x.acme.local.', 'A'), answer('NOERROR', ['x.acme.local.', 'A', '1.2.3.4']), answer('SERVFAIL'), 'cluster.local', dropped).verdict).toBe('unexpected');
    expect(verifyReport([announced]).ok).toBe(true);
    expect(verifyReport([announced, compareProbe(probe('x.', 'A'), answer('NOERROR'), answer('NXDOMAIN'), 'cluster.local', [])])).toMatchObject({ ok: false, expected: 1, unexpected: 1 });
  });
});

describe('verifyProbes', () => {
  it('asks every stub domain and a child, the cluster names, reverse zones, and a missing name twice; bounded', () => {
    const outcomes = new Outcomes<'stubs' | 'none'>();
    fc.assert(
      fc.property(validKubeDnsInput(), (input) => {
        const install = readKubeDnsInstall([{ text: [deploymentYaml(), 'apiVersion: v1\nkind: Service\nmetadata: {name: kube-dns, namespace: kube-system}\nspec: {clusterIP: 10.96.0.10}\n', configMapYaml(kubeDnsData(input))].join('---\n') }]);
        const translation = translateKubeDnsInstall(install, { dropFederations: true });
        if (!translation.ok) return;
        const probes = verifyProbes(install, translation);
        expect(probes.length).toBeLessThanOrEqual(MAX_PROBES);
        const asked = new Set(probes.map((entry) => `${entry.name} ${entry.type}`));
        // A stub domain without nameservers is not in effect (kube-dns skips it).
        const stubs = Object.entries(JSON.parse(kubeDnsData(input)['stubDomains'] as string) as Record<string, string[]>).filter(([, servers]) => servers.length > 0).map(([stub]) => stub);
        for (const stub of stubs) {
          const zone = stub.toLowerCase().replace(/\.$/, '');
          const type = /(^|\.)(in-addr|ip6)\.arpa$/.test(zone) ? 'PTR' : 'A';
          expect(asked.has(`${zone}. ${type}`), stub).toBe(true);
          expect(asked.has(`x.${zone}. ${type}`), stub).toBe(true);
        }
        outcomes.add(stubs.length > 0 ? 'stubs' : 'none');
        for (const expected of ['kubernetes.default.svc.cluster.local. A', '_dns._udp.kube-dns.kube-system.svc.cluster.local. SRV', 'cluster.local. SOA', 'dns-version.cluster.local. TXT', '10.0.96.10.in-addr.arpa. PTR']) expect(asked.has(expected), expected).toBe(true);
        expect(probes.filter((entry) => entry.name === 'kube-dns-to-coredns-missing.default.svc.cluster.local.').length).toBe(2);
      }),
      { numRuns: 40 },
    );
    outcomes.expectAtLeast({ stubs: 15 });
  });

  it("marks kubernetes.default and the cluster DNS Service's own name as names that must exist, and nothing else", () => {
    const input = (service: string) => readKubeDnsInstall([{ text: [deploymentYaml(), service, configMapYaml({ stubDomains: '{"acme.local": ["10.1.0.1"]}' })].join('---\n') }]);
    for (const [service, own] of [
      ['apiVersion: v1\nkind: Service\nmetadata: {name: kube-dns, namespace: kube-system}\nspec: {clusterIP: 10.96.0.10}\n', 'kube-dns.kube-system'],
      ['apiVersion: v1\nkind: Service\nmetadata: {name: cluster-dns, namespace: dns}\nspec: {clusterIP: 10.96.0.10}\n', 'cluster-dns.dns'],
    ] as const) {
      const install = input(service);
      const translation = translateKubeDnsInstall(install, {});
      if (!translation.ok) throw new Error('refused');
      const marked = verifyProbes(install, translation).filter((entry) => entry.mustExist === true).map((entry) => `${entry.name} ${entry.type}`);
      expect(marked).toEqual(['kubernetes.default.svc.cluster.local. A', `${own}.svc.cluster.local. A`]);
    }
  });

  it('reads and prints NAME TYPE lists (the dnsperf format)', () => {
    const probes = parseProbeNames('# extra\nfoo.example.com\nBar.Example.COM. aaaa\n\n_x._tcp.svc srv\n');
    expect(formatProbeNames(probes)).toBe('foo.example.com. A\nbar.example.com. AAAA\n_x._tcp.svc. SRV\n');
    expect(() => parseProbeNames('a.b A extra')).toThrow(ProbeNamesError);
    expect(() => parseProbeNames('ok.example\na..b')).toThrow(/line 2, column 1: 'a\.\.b' is not a domain name/);
    expect(() => parseProbeNames('a.b HINFO')).toThrow(/TYPE one of/);
  });

  it('writes reverse names', () => {
    expect(reverseName('10.96.0.10')).toBe('10.0.96.10.in-addr.arpa.');
    expect(reverseName('fd00::a')).toBe(`a.${'0.'.repeat(29)}d.f.ip6.arpa.`);
    expect(reverseName('not-an-ip')).toBeUndefined();
  });
});
