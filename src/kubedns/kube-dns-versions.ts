/**
 * What changed in kube-dns's reading of its ConfigMap between releases
 * (docs/reference/kube-dns-and-coredns.md §1.2, §1.4). The translator validates a ConfigMap
 * with the rules of the kube-dns version the cluster ran; by default the newest.
 */

import { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';

/** A kube-dns version the rules know, or text that is not one. */
export class UnsupportedKubeDnsVersionError extends KubeDnsToCoreDnsError {
  override readonly name = 'UnsupportedKubeDnsVersionError';
  readonly category = 'input';
  declare readonly code: UnsupportedKubeDnsVersionCode;

  constructor(code: UnsupportedKubeDnsVersionCode, message: string) {
    super(code, message);
  }
}

/** Why there are no rules for a kube-dns version: not a version, or outside the known ones. */
export type UnsupportedKubeDnsVersionCode = 'syntax' | 'out-of-range';

const OLDEST_KUBE_DNS_VERSION = '1.14.0';
export const NEWEST_KUBE_DNS_VERSION = '1.26.7';

export interface KubeDnsRules {
  /** The version these rules are for, normalized (`1.22.20`). */
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
  /**
   * The stock manifest that shipped this release (kubernetes/kubernetes `cluster/addons/dns/`) runs
   * dnsmasq with `--no-negcache`, so NXDOMAIN was never cached: from 1.14.7, the release of the
   * Kubernetes 1.9 manifest that added the flag (kubernetes/kubernetes#53604, October 2017).
   */
  readonly stockManifestNoNegcache: boolean;
  /**
   * kubedns forwards the names it does not serve to the ConfigMap's upstreamNameservers (1.14.10+,
   * kubernetes/dns commit ac1eec9d for issue #198); before, to its `--nameservers` or the Pod's
   * resolv.conf.
   */
  readonly upstreamsFromConfigMap: boolean;
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

function threshold(version: string): Triple {
  const parsed = parse(version);
  if (parsed === undefined) throw new Error(`bad threshold ${version}`);
  return parsed;
}

// Parsed once: the reader asks for the rules of each ConfigMap (each `--batch` case).
const OLDEST = threshold(OLDEST_KUBE_DNS_VERSION);
const NEWEST = threshold(NEWEST_KUBE_DNS_VERSION);
const V1_14_2 = threshold('1.14.2');
const V1_14_7 = threshold('1.14.7');
const V1_14_9 = threshold('1.14.9');
const V1_14_10 = threshold('1.14.10');
const V1_15_1 = threshold('1.15.1');
const V1_17_0 = threshold('1.17.0');
const V1_26_6 = threshold('1.26.6');

function atLeast(version: Triple, minimum: Triple): boolean {
  return compare(version, minimum) >= 0;
}

/** The rules of kube-dns `version` (`1.22.20`, `v1.14.13`); throws for text outside 1.14.0–1.26.7. */
export function kubeDnsRules(version: string = NEWEST_KUBE_DNS_VERSION): KubeDnsRules {
  const parsed = parse(version);
  if (parsed === undefined) {
    throw new UnsupportedKubeDnsVersionError('syntax', `kube-dns version '${version}' is not a version like 1.22.20`);
  }
  if (compare(parsed, OLDEST) < 0 || compare(parsed, NEWEST) > 0) {
    throw new UnsupportedKubeDnsVersionError(
      'out-of-range',
      `kube-dns version '${version}' is outside the versions whose ConfigMap rules are known (${OLDEST_KUBE_DNS_VERSION} to ${NEWEST_KUBE_DNS_VERSION})`,
    );
  }
  return {
    version: parsed.join('.'),
    stubPortSplit: atLeast(parsed, V1_17_0) ? 'host-port' : atLeast(parsed, V1_14_2) ? 'first-colon' : 'none',
    upstreamPorts: atLeast(parsed, V1_14_9),
    stubHostnamesResolved: atLeast(parsed, V1_15_1),
    ipText: atLeast(parsed, V1_26_6) ? 'canonical' : 'lenient',
    stockManifestNoNegcache: atLeast(parsed, V1_14_7),
    upstreamsFromConfigMap: atLeast(parsed, V1_14_10),
  };
}
