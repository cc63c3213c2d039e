import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/diagnostics/diagnostic.js';
import { lintCorefile } from '../../src/lint/index.js';
import { COREDNS_VERSIONS } from '../../src/translate/coredns-versions.js';
import { translateKubeDns } from '../../src/translate/translate.js';

/**
 * The default translator's outputs as a test subject: whatever kube-dns ConfigMap it accepts, the
 * Corefile it writes must lint clean for the release it targets. The only findings allowed are the
 * ones the translator documents itself:
 * - `destination-hostname` (warning): a hostname nameserver kept for CoreDNS ≥ 1.14.4, which the
 *   translator reports as `hostname-nameserver`;
 * - `resolv-conf-loop-risk` (info): no upstreamNameservers ⇒ `forward . /etc/resolv.conf` beside
 *   `loop`, which the translator reports as `upstream-resolv-conf`;
 * - `option-deprecated` (info): the bare kubernetes `upstream` kept on CoreDNS 1.4.0 as kubeadm did;
 * - `version-caveat` (info): federation on 1.6.3–1.6.9 (built from the external repository), which
 *   the translator reports as `federation-semantics`.
 */
const EXPECTED = new Set(['destination-hostname', 'resolv-conf-loop-risk', 'option-deprecated', 'version-caveat']);

const hostile = fc.constantFrom('', ' ', 'a b', 'x"y', 'a\\b', '{', '}', '#', 'a#b', 'n\nl', 't\tu', 'c\rr', '{$X}', 'import', 'é.com', 'ACME.LOCAL', 'acme.local.', 'a..b', '.', '*', '😀');
const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,6}[a-z0-9])?$/);
const special = fc.constantFrom('local', 'cluster.local', 'svc.cluster.local', 'arpa', '10.in-addr.arpa', 'in-addr.arpa', 'ip6.arpa', 'localhost');
const domain = fc.oneof(
  { weight: 4, arbitrary: fc.array(label, { minLength: 1, maxLength: 3 }).map((labels) => labels.join('.')) },
  { weight: 1, arbitrary: hostile },
  { weight: 1, arbitrary: special },
);
const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((octets) => octets.join('.'));
const nameserver = fc.oneof(
  { weight: 4, arbitrary: ipv4 },
  { weight: 2, arbitrary: fc.tuple(ipv4, fc.integer({ min: 0, max: 70000 })).map(([ip, port]) => `${ip}:${port}`) },
  { weight: 2, arbitrary: fc.ipV6() },
  { weight: 1, arbitrary: fc.tuple(fc.ipV6(), fc.integer({ min: 1, max: 65535 })).map(([ip, port]) => `[${ip}]:${port}`) },
  { weight: 1, arbitrary: fc.constantFrom('127.0.0.1', '::1', '010.0.0.1', '[2001:db8::1]', '1.2.3.4:53', 'ns.example.com', 'localhost') },
  { weight: 1, arbitrary: domain },
  { weight: 1, arbitrary: hostile },
);
const config = fc.record({
  stubs: fc.array(fc.tuple(domain, fc.array(nameserver, { maxLength: 17 })), { maxLength: 6 }),
  upstreams: fc.option(fc.array(nameserver, { maxLength: 4 }), { nil: undefined }),
  federations: fc.option(fc.array(fc.tuple(label, domain), { maxLength: 2 }), { nil: undefined }),
});
type Config = typeof config extends fc.Arbitrary<infer T> ? T : never;

function dataOf(input: Config): Record<string, string> {
  const unique = [...new Map(input.stubs.map(([key, values]) => [key, values])).entries()];
  const data: Record<string, string> = { stubDomains: `{${unique.map(([key, values]) => `${JSON.stringify(key)}: ${JSON.stringify(values)}`).join(', ')}}` };
  if (input.upstreams !== undefined) data['upstreamNameservers'] = JSON.stringify(input.upstreams);
  if (input.federations !== undefined) data['federations'] = input.federations.map(([name, value]) => `${name}=${value}`).join(',');
  return data;
}

describe('the default translator lints clean', () => {
  it('for any ConfigMap it accepts, the Corefile has no error and only the documented findings', () => {
    fc.assert(
      fc.property(config, fc.constantFrom(...COREDNS_VERSIONS), fc.boolean(), fc.boolean(), fc.option(fc.constantFrom('cluster.local', 'k8s.internal', 'local'), { nil: undefined }), (input, coredns, force, dropFederations, clusterDomain) => {
        const translation = translateKubeDns(dataOf(input), { coredns, force, dropFederations, ...(clusterDomain === undefined ? {} : { clusterDomain }) });
        if (translation.corefile === undefined) return;
        const result = lintCorefile(translation.corefile, { coredns });
        const unexpected = result.diagnostics.filter((entry) => entry.severity === 'error' || !EXPECTED.has(entry.code));
        expect(unexpected.map(formatDiagnostic), `CoreDNS ${coredns}:\n${translation.corefile}`).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it('lints the documented findings where the translator documents them', () => {
    const plain = translateKubeDns({ stubDomains: '{"acme.local": ["ns.acme.example"]}' }, { coredns: '1.14.7' });
    const codes = lintCorefile(plain.corefile ?? '', { coredns: '1.14.7' }).diagnostics.map((entry) => entry.code);
    expect(codes).toEqual(['resolv-conf-loop-risk', 'destination-hostname']);
  });
});
