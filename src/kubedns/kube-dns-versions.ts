/**
 * What changed in kube-dns's reading of its ConfigMap between releases
 * (docs/reference/kube-dns-and-coredns.md §1.2, §1.4). The translator validates a ConfigMap
 * with the rules of the kube-dns version the cluster ran; by default the newest.
 */

import { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';
import { changesIn, profileAt } from '../util/release-profile.js';
import type { ProfileTimelines } from '../util/release-profile.js';

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

export const OLDEST_KUBE_DNS_VERSION = '1.14.0';
export const NEWEST_KUBE_DNS_VERSION = '1.26.7';

export interface KubeDnsRules {
  /**
   * The version these rules are for, normalized (`1.22.20`); for {@link GKE_COREDNS_READER}, the
   * kube-dns release whose rules it is assumed to share (the newest).
   */
  readonly version: string;
  /**
   * Who reads the ConfigMap: kube-dns itself, or GKE's kube-dns on CoreDNS (GKE 1.36+), which
   * reads the same ConfigMap (docs/platforms.md, "GKE's kube-dns on CoreDNS").
   */
  readonly reader: 'kube-dns' | 'gke-coredns';
  /** The most upstream nameservers the reader accepts: 3 for kube-dns, 15 for GKE's reader; more and the ConfigMap is refused. */
  readonly maxUpstreamNameservers: number;
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
  /**
   * The release's dnsmasq (kubernetes/dns `images/dnsmasq/Makefile`, `DNSMASQ_VERSION`: 2.78–2.85
   * up to 1.22.0, 2.86 from 1.22.1, 2.90 from 1.23.0) applies a `--server`, `--local` or `--address`
   * whose domain list has a domain ending in a dot before its last one to names without a dot as
   * well (dnsmasq 2.86+, docs/kube-dns-deployment.md "Domains that end in a dot").
   */
  readonly dnsmasqTrailingDotUnqualified: boolean;
  /**
   * The release's dnsmasq (2.86+, from kube-dns 1.22.1) answers only the query type of an
   * `--address=/zone/ip`'s address (A for IPv4, AAAA for IPv6) and looks the zone's other types up
   * as if the entry were not there — the zone's own servers, else a parent zone's entry, else the
   * upstreams — unless an NXDOMAIN entry of the same zone (`--local=/zone/`, `--address=/zone/`)
   * makes it answer them NODATA; dnsmasq 2.85 and older answered them NODATA unless the zone had
   * servers (docs/kube-dns-deployment.md, "Query types of an address").
   */
  readonly dnsmasqAddressTypesOnly: boolean;
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

/** Orders two kube-dns versions (both `MAJOR.MINOR.PATCH`). */
function order(a: string, b: string): number {
  const left = parse(a);
  const right = parse(b);
  if (left === undefined || right === undefined) throw new UnsupportedKubeDnsVersionError('syntax', `kube-dns version '${left === undefined ? a : b}' is not a version like 1.22.20`);
  return compare(left, right);
}

type KubeDnsFacts = Omit<KubeDnsRules, 'version' | 'reader' | 'maxUpstreamNameservers'>;

/** Who read the ConfigMap under `rules`, for messages: `kube-dns 1.22.20`, or GKE's kube-dns on CoreDNS. */
export function readerName(rules: Pick<KubeDnsRules, 'reader' | 'version'>): string {
  return rules.reader === 'gke-coredns' ? "GKE's kube-dns on CoreDNS" : `kube-dns ${rules.version}`;
}

/**
 * The `kubeDnsVersion` that selects GKE's kube-dns on CoreDNS as the reader: kube-dns's newest
 * rules, with up to 15 upstream nameservers instead of 3.
 */
export const GKE_COREDNS_READER = 'gke-coredns';
/** kube-dns's limit on `upstreamNameservers` (pkg/dns/config `Validate`), every version. */
const KUBE_DNS_MAX_UPSTREAMS = 3;
/** GKE's kube-dns on CoreDNS: up to 15 upstream nameservers (Google's GKE documentation). */
const GKE_COREDNS_MAX_UPSTREAMS = 15;

/** The kube-dns releases where the rules change, one timeline per rule. */
const KUBE_DNS_TIMELINES: ProfileTimelines<KubeDnsFacts> = {
  stubPortSplit: [
    { from: OLDEST_KUBE_DNS_VERSION, value: 'none' },
    { from: '1.14.2', value: 'first-colon' },
    { from: '1.17.0', value: 'host-port' },
  ],
  upstreamPorts: changesIn(OLDEST_KUBE_DNS_VERSION, false, '1.14.9', true),
  stubHostnamesResolved: changesIn(OLDEST_KUBE_DNS_VERSION, false, '1.15.1', true),
  ipText: changesIn<KubeDnsRules['ipText'], string>(OLDEST_KUBE_DNS_VERSION, 'lenient', '1.26.6', 'canonical'),
  stockManifestNoNegcache: changesIn(OLDEST_KUBE_DNS_VERSION, false, '1.14.7', true),
  upstreamsFromConfigMap: changesIn(OLDEST_KUBE_DNS_VERSION, false, '1.14.10', true),
  dnsmasqTrailingDotUnqualified: changesIn(OLDEST_KUBE_DNS_VERSION, false, '1.22.1', true),
  dnsmasqAddressTypesOnly: changesIn(OLDEST_KUBE_DNS_VERSION, false, '1.22.1', true),
};

// Parsed once: the reader asks for the rules of each ConfigMap (each `--batch` case).
const OLDEST = parse(OLDEST_KUBE_DNS_VERSION) as Triple;
const NEWEST = parse(NEWEST_KUBE_DNS_VERSION) as Triple;
const RULES = new Map<string, KubeDnsRules>();

let gkeRules: KubeDnsRules | undefined;

/**
 * The rules of kube-dns `version` (`1.22.20`, `v1.14.13`), or of GKE's kube-dns on CoreDNS for
 * {@link GKE_COREDNS_READER}; throws for other text outside 1.14.0–1.26.7.
 */
export function kubeDnsRules(version: string = NEWEST_KUBE_DNS_VERSION): KubeDnsRules {
  if (version.trim() === GKE_COREDNS_READER) {
    gkeRules ??= Object.freeze({ ...kubeDnsRules(NEWEST_KUBE_DNS_VERSION), reader: 'gke-coredns', maxUpstreamNameservers: GKE_COREDNS_MAX_UPSTREAMS });
    return gkeRules;
  }
  const parsed = parse(version);
  if (parsed === undefined) {
    throw new UnsupportedKubeDnsVersionError('syntax', `kube-dns version '${version}' is not a version like 1.22.20 (or ${GKE_COREDNS_READER}, GKE's kube-dns on CoreDNS)`);
  }
  if (compare(parsed, OLDEST) < 0 || compare(parsed, NEWEST) > 0) {
    throw new UnsupportedKubeDnsVersionError(
      'out-of-range',
      `kube-dns version '${version}' is outside the versions whose ConfigMap rules are known (${OLDEST_KUBE_DNS_VERSION} to ${NEWEST_KUBE_DNS_VERSION})`,
    );
  }
  const normalized = parsed.join('.');
  let rules = RULES.get(normalized);
  if (rules === undefined) {
    rules = Object.freeze({ version: normalized, reader: 'kube-dns', maxUpstreamNameservers: KUBE_DNS_MAX_UPSTREAMS, ...profileAt(KUBE_DNS_TIMELINES, normalized, order) } as const);
    if (RULES.size < 256) RULES.set(normalized, rules);
  }
  return rules;
}

/** The timelines behind {@link kubeDnsRules}, for tests and documentation. */
export const KUBE_DNS_RULE_TIMELINES: ProfileTimelines<KubeDnsFacts> = KUBE_DNS_TIMELINES;
