/**
 * What changed in kube-dns's reading of its ConfigMap between releases
 * (../shared/reference/kube-dns-and-coredns.md §1.2, §1.4). The translator validates a ConfigMap
 * with the rules of the kube-dns version the cluster ran; by default the newest.
 */

/** A kube-dns version the rules know, or text that is not one. */
export class UnsupportedKubeDnsVersionError extends Error {
  override readonly name = 'UnsupportedKubeDnsVersionError';
}

export const OLDEST_KUBE_DNS_VERSION = '1.14.0';
export const NEWEST_KUBE_DNS_VERSION = '1.26.7';

export interface KubeDnsRules {
  /** The version these rules are for, normalised (`1.22.20`). */
  readonly version: string;
  /**
   * How a stub nameserver was split into host and port: not at all (before 1.14.2), at the first
   * colon (1.14.2–1.16.x, so bare IPv6 failed), or with Go's `net.SplitHostPort` (1.17.0+).
   */
  readonly stubPortSplit: 'none' | 'first-colon' | 'host-port';
  /** Upstream nameservers may carry a port (1.14.9+); before, bare IPs only. */
  readonly upstreamPorts: boolean;
  /** The dnsmasq nanny resolves hostname nameservers (1.15.1+); before, dnsmasq failed to start. */
  readonly stubHostnamesResolved: boolean;
  /**
   * How IP text was checked: Go's lenient parser (leading zeros accepted) up to 1.26.5; from 1.26.6
   * strict and canonical (`2001:DB8::1`, `010.0.0.1` and `::ffff:1.2.3.4` refused).
   */
  readonly ipText: 'lenient' | 'canonical';
}

type Triple = readonly [number, number, number];

const VERSION = /^v?(\d+)\.(\d+)\.(\d+)$/;

function parse(version: string): Triple | undefined {
  const match = VERSION.exec(version.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

function compare(a: Triple, b: Triple): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

function atLeast(version: Triple, threshold: string): boolean {
  const parsed = parse(threshold);
  if (parsed === undefined) throw new Error(`bad threshold ${threshold}`);
  return compare(version, parsed) >= 0;
}

/** The rules of kube-dns `version` (`1.22.20`, `v1.14.13`); throws for text outside 1.14.0–1.26.7. */
export function kubeDnsRules(version: string = NEWEST_KUBE_DNS_VERSION): KubeDnsRules {
  const parsed = parse(version);
  const oldest = parse(OLDEST_KUBE_DNS_VERSION);
  const newest = parse(NEWEST_KUBE_DNS_VERSION);
  if (parsed === undefined || oldest === undefined || newest === undefined) {
    throw new UnsupportedKubeDnsVersionError(`kube-dns version '${version}' is not a version like 1.22.20`);
  }
  if (compare(parsed, oldest) < 0 || compare(parsed, newest) > 0) {
    throw new UnsupportedKubeDnsVersionError(
      `kube-dns version '${version}' is outside the versions whose ConfigMap rules are known (${OLDEST_KUBE_DNS_VERSION} to ${NEWEST_KUBE_DNS_VERSION})`,
    );
  }
  return {
    version: parsed.join('.'),
    stubPortSplit: atLeast(parsed, '1.17.0') ? 'host-port' : atLeast(parsed, '1.14.2') ? 'first-colon' : 'none',
    upstreamPorts: atLeast(parsed, '1.14.9'),
    stubHostnamesResolved: atLeast(parsed, '1.15.1'),
    ipText: atLeast(parsed, '1.26.6') ? 'canonical' : 'lenient',
  };
}
