/**
 * What node-cache (NodeLocal DNSCache, kubernetes/dns `cmd/node-cache`) did with the kube-dns
 * ConfigMap, release by release. The facts and the upstream commits are in docs/node-local-dns.md.
 */

import { checkArgument } from '../errors/arguments.js';
import { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';
import { changesIn, profileAt } from '../util/release-profile.js';
import type { ProfileTimelines } from '../util/release-profile.js';

/** A node-cache release outside the known ones, or text that is not a release. */
export class UnsupportedNodeCacheReleaseError extends KubeDnsToCoreDnsError {
  override readonly name = 'UnsupportedNodeCacheReleaseError';
  readonly category = 'input';
  declare readonly code: UnsupportedNodeCacheReleaseCode;

  constructor(code: UnsupportedNodeCacheReleaseCode, message: string) {
    super(code, message);
  }
}

/** Why there is no profile: not a release, or outside the known ones. */
export type UnsupportedNodeCacheReleaseCode = 'syntax' | 'out-of-range';

/** The first release that read the kube-dns ConfigMap (stub domains and upstream nameservers). */
export const OLDEST_NODE_CACHE_RELEASE = '1.15.6';
/** The newest release whose behaviour is recorded here. */
export const NEWEST_NODE_CACHE_RELEASE = '1.26.8';

/** How one node-cache release turns the ConfigMap into its Corefile. */
export interface NodeCacheProfile {
  /** The release, normalized (`1.22.10`). */
  readonly release: string;
  /** 1.15.7+: the `bind` line of a stub block lists the local IPs space-separated; before, as the comma-separated flag. */
  readonly stubBindSpaceSeparated: boolean;
  /** 1.15.13+: `__PILLAR__LOCAL__DNS__` becomes the space-separated IPs; before, the comma-separated flag. */
  readonly templateListenIpsSpaceSeparated: boolean;
  /** 1.15.13+: stub blocks forward over UDP; before, each stub `forward` had a `force_tcp` block. */
  readonly stubForwardOverUdp: boolean;
  /**
   * 1.15.13+: with upstream nameservers set, the template's TCP upstream block (`forward . __PILLAR__UPSTREAM__SERVERS__ {`
   * / `force_tcp` / `}`, exactly indented) becomes a plain UDP `forward` line.
   */
  readonly upstreamTcpToUdpSwap: boolean;
  /** 1.15.13+: any `__PILLAR__DNS__SERVER__` left in the template is removed. */
  readonly dnsServerVariableBlanked: boolean;
  /** 1.22.10+: nameservers are checked the way CoreDNS's forward plugin parses them before anything is written. */
  readonly validationGate: boolean;
  /** The CoreDNS release node-cache is built with (kubernetes/dns `Gopkg.lock` or `go.mod` at the tag), which loads the Corefile. */
  readonly coreDns: string;
  /**
   * The directives node-cache's CoreDNS can load: node-cache compiles in only the plugins its
   * `cmd/node-cache/main.go` imports (the `metrics` plugin is the `prometheus` directive), not
   * CoreDNS's default build. 1.26.8 adds `timeouts`.
   */
  readonly plugins: readonly string[];
}

type Triple = readonly [number, number, number];

const RELEASE = /^v?(\d+)\.(\d+)\.(\d+)$/;

function parseRelease(text: string): Triple | undefined {
  const match = RELEASE.exec(text.trim());
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

function compare(a: Triple, b: Triple): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

function syntaxError(release: string): UnsupportedNodeCacheReleaseError {
  return new UnsupportedNodeCacheReleaseError('syntax', `node-cache release '${release}' is not a release like 1.22.10`);
}

/** Orders two node-cache releases (both `MAJOR.MINOR.PATCH`). */
export function compareNodeCacheReleases(a: string, b: string): number {
  const left = parseRelease(a);
  if (left === undefined) throw syntaxError(a);
  const right = parseRelease(b);
  if (right === undefined) throw syntaxError(b);
  return compare(left, right);
}

type NodeCacheFacts = Omit<NodeCacheProfile, 'release'>;

const BIND_COMMA_FIX = '1.15.7';
const UDP_SWITCH = '1.15.13';
const first = OLDEST_NODE_CACHE_RELEASE;
const PLUGINS_1_17 = 'bind cache debug errors forward health loadbalance log loop prometheus pprof reload template whoami';

/** A frozen, sorted list of directive names from space-separated text. */
function directives(names: string): readonly string[] {
  return Object.freeze(names.split(' ').sort());
}

/**
 * The node-cache releases where a behaviour changes, one timeline per field. `coreDns`: the CoreDNS
 * release each node-cache release embeds, from the first release of a run, read from kubernetes/dns
 * at each tag (`Gopkg.lock` up to 1.15.16, `go.mod` from 1.16.0; 1.26.8 from kubernetes-sigs/node-local-dns,
 * where the code moved). `plugins`: the imports of `cmd/node-cache/main.go` at each tag. 1.20.0 was built from a branch
 * with a newer CoreDNS than the 1.21 and 1.22 lines that followed it.
 */
export const NODE_CACHE_TIMELINES: ProfileTimelines<NodeCacheFacts> = {
  stubBindSpaceSeparated: changesIn(first, false, BIND_COMMA_FIX, true),
  templateListenIpsSpaceSeparated: changesIn(first, false, UDP_SWITCH, true),
  stubForwardOverUdp: changesIn(first, false, UDP_SWITCH, true),
  upstreamTcpToUdpSwap: changesIn(first, false, UDP_SWITCH, true),
  dnsServerVariableBlanked: changesIn(first, false, UDP_SWITCH, true),
  validationGate: changesIn(first, false, '1.22.10', true),
  coreDns: [
    { from: first, value: '1.2.6' },
    { from: '1.15.8', value: '1.6.4' },
    { from: '1.15.10', value: '1.6.7' },
    { from: '1.16.0', value: '1.7.0' },
    { from: '1.20.0', value: '1.8.3' },
    { from: '1.21.0', value: '1.7.0' },
    { from: '1.22.14', value: '1.10.0' },
    { from: '1.24.0', value: '1.11.3' },
    { from: '1.26.5', value: '1.12.2' },
    { from: '1.26.6', value: '1.13.1' },
    { from: '1.26.8', value: '1.13.2' },
  ],
  plugins: [
    { from: first, value: directives('bind cache debug errors forward health log loop prometheus reload') },
    { from: '1.15.8', value: directives('bind cache debug errors forward health log loop prometheus pprof reload') },
    { from: '1.15.10', value: directives('bind cache debug errors forward health loadbalance log loop prometheus pprof reload whoami') },
    { from: UDP_SWITCH, value: directives('bind cache debug errors forward health loadbalance log loop prometheus pprof reload template whoami') },
    { from: '1.17.0', value: directives(`${PLUGINS_1_17} hosts rewrite trace`) },
    { from: '1.21.3', value: directives(`${PLUGINS_1_17} hosts rewrite trace dns64`) },
    { from: '1.22.7', value: directives(`${PLUGINS_1_17} hosts rewrite trace dns64 bufsize`) },
    { from: '1.26.8', value: directives(`${PLUGINS_1_17} hosts rewrite trace dns64 bufsize timeouts`) },
  ],
};

const OLDEST = parseRelease(OLDEST_NODE_CACHE_RELEASE) as Triple;
const NEWEST = parseRelease(NEWEST_NODE_CACHE_RELEASE) as Triple;

/** The profile of node-cache `release` (`1.22.10`, `v1.15.13`); throws for text outside 1.15.6–1.26.8. */
export function nodeCacheProfile(release: string = NEWEST_NODE_CACHE_RELEASE): NodeCacheProfile {
  checkArgument('nodeCacheProfile', 'release', release, 'string?');
  const parsed = parseRelease(release);
  if (parsed === undefined) throw syntaxError(release);
  if (compare(parsed, OLDEST) < 0 || compare(parsed, NEWEST) > 0) {
    throw new UnsupportedNodeCacheReleaseError(
      'out-of-range',
      `node-cache release '${release}' is outside the known ones that read the kube-dns ConfigMap (${OLDEST_NODE_CACHE_RELEASE} to ${NEWEST_NODE_CACHE_RELEASE})`,
    );
  }
  const normalized = parsed.join('.');
  return { release: normalized, ...profileAt(NODE_CACHE_TIMELINES, normalized, compareNodeCacheReleases) };
}
