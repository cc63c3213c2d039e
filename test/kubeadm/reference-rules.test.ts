import { describe, expect, it } from 'vitest';
import { translateLikeKubeadm } from '../../src/kubeadm/kubeadm-translation.js';
import type { KubeadmResult } from '../../src/kubeadm/kubeadm-translation.js';

/**
 * Rules of docs/reference/kubeadm-translation.md that the reference corpus exercises rarely
 * or not at all. The Go-library parts (net.SplitHostPort, net.ParseIP, strconv, encoding/json)
 * were cross-checked against the Go standard library; the expectations follow the reference.
 */

const HOST_ERROR = (hostport: string, host: string): string =>
  `invalid format to parse for proxy: hostport ${hostport}: host '${host}' must be a valid IP address or a valid RFC-1123 DNS subdomain`;
const PORT_ERROR = (hostport: string, port: string): string =>
  `invalid format to parse for proxy: hostport ${hostport}: port ${port} must be a valid number between 1 and 65535, inclusive`;
const HOSTNAME_WARNING = (host: string): string =>
  `your kube-dns configuration contains a hostname ${host}. It will be omitted in the translation to CoreDNS as hostnames are unsupported`;

function upstream(release: string, ...values: string[]): KubeadmResult {
  return translateLikeKubeadm(release, { upstreamNameservers: JSON.stringify(values) });
}

/** The root block's forward line of a successful outcome. */
function forwardLine(outcome: KubeadmResult): string | undefined {
  if (!outcome.ok) return undefined;
  return outcome.corefile.split('\n').find((line) => line.startsWith('    forward . '));
}

describe('§5 value checks (v1.15+)', () => {
  it('accepts ports 1…65535, leading zeros included, and nothing outside', () => {
    for (const release of ['v1.15', 'v1.19']) {
      expect(forwardLine(upstream(release, '1.2.3.4:65535', '1.2.3.4:00053'))).toMatch(/^ {4}forward \. 1\.2\.3\.4:65535 1\.2\.3\.4:00053( \{)?$/);
      for (const port of ['65536', '0', '-0', '+0', '-1', '0x35', ' 53']) {
        expect(upstream(release, `1.2.3.4:${port}`)).toMatchObject({ ok: false, stage: 'translate', error: PORT_ERROR(`1.2.3.4:${port}`, port) });
      }
    }
  });

  it('keeps IPv4-mapped IPv6 addresses, bare or bracketed with a port', () => {
    expect(forwardLine(upstream('v1.17', '::ffff:1.2.3.4', '[::ffff:1.2.3.4]:53'))).toBe('    forward . ::ffff:1.2.3.4 [::ffff:1.2.3.4]:53');
  });

  it('rejects IPv6 zones, bare or bracketed', () => {
    expect(upstream('v1.15', 'fe80::1%eth0')).toMatchObject({ ok: false, error: HOST_ERROR('fe80::1%eth0', 'fe80::1%eth0') });
    expect(upstream('v1.19', '[fe80::1%eth0]:53')).toMatchObject({ ok: false, error: HOST_ERROR('[fe80::1%eth0]:53', 'fe80::1%eth0') });
  });

  it('drops DNS-1123 names that only look numeric, warning with the host part only', () => {
    const outcome = upstream('v1.15', '256.1.1.1', '[a.com]:53', 'b.com:5353', '8.8.8.8');
    expect(forwardLine(outcome)).toBe('    forward . 8.8.8.8');
    expect(outcome.warnings).toEqual([HOSTNAME_WARNING('256.1.1.1'), HOSTNAME_WARNING('a.com'), HOSTNAME_WARNING('b.com')]);
  });

  it('rejects names that are not DNS-1123 subdomains (trailing dot, underscore, empty host)', () => {
    expect(upstream('v1.17', 'a.com.')).toMatchObject({ ok: false, error: HOST_ERROR('a.com.', 'a.com.') });
    expect(upstream('v1.17', 'a_b.com')).toMatchObject({ ok: false, error: HOST_ERROR('a_b.com', 'a_b.com') });
    expect(upstream('v1.17', ':53')).toMatchObject({ ok: false, error: HOST_ERROR(':53', '') });
  });

  it('keeps the warnings logged before a later value fails (stub values first, then upstream)', () => {
    const outcome = translateLikeKubeadm('v1.19', {
      stubDomains: JSON.stringify({ 'a.com': ['ns.a.com', '1.1.1.1'] }),
      upstreamNameservers: JSON.stringify(['ns.example.com', 'NS.bad']),
    });
    expect(outcome).toEqual({
      ok: false,
      stage: 'translate',
      error: HOST_ERROR('NS.bad', 'NS.bad'),
      warnings: [HOSTNAME_WARNING('ns.a.com'), HOSTNAME_WARNING('ns.example.com')],
    });
  });
});

describe('§4 JSON decoding (Go 1.19 encoding/json wording)', () => {
  it('reports a literal cut off at the end as the space Go feeds its scanner', () => {
    expect(translateLikeKubeadm('v1.10', { upstreamNameservers: 'tru' })).toMatchObject({
      ok: false,
      error: "failed to parse JSON from 'kube-dns ConfigMap: invalid character ' ' in literal true (expecting 'e')",
    });
  });

  it('rejects nesting deeper than 10000 and a non-ASCII byte by its UTF-8 lead byte', () => {
    expect(translateLikeKubeadm('v1.14', { stubDomains: '['.repeat(10001) })).toMatchObject({
      ok: false,
      error: "failed to parse JSON from 'kube-dns ConfigMap: invalid character '[' exceeded max depth",
    });
    expect(translateLikeKubeadm('v1.17', { federations: '\u00a0{}' })).toMatchObject({
      ok: false,
      error: "failed to parse JSON from kube-dns ConfigMap: invalid character 'Â' looking for beginning of value",
    });
  });
});
