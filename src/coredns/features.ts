/**
 * The feature table: what one CoreDNS release supports, as far as a kube-dns → CoreDNS translator
 * and a Corefile linter need to know, one frozen record per release. Plugin facts come from
 * availability.ts (itself from plugin.cfg); the other facts are thresholds read from the sources
 * named on each field ("§N": section N of docs/reference/kube-dns-and-coredns.md; the other
 * evidence keys: see versions.ts).
 *
 * Pure data and functions: no Node APIs.
 */
import { coreDnsOptionAvailability, coreDnsPluginAvailability, isUsable, kubernetesUpstreamSupport } from './availability.js';
import type { KubernetesUpstreamSupport } from './availability.js';
import { isCoreDnsVersionAtLeast, parseCoreDnsVersion } from './versions.js';
import type { CoreDnsVersion } from './versions.js';

const atLeast = isCoreDnsVersionAtLeast;

/** The `forward` plugin: not in the build, compiled in from an external module (1.0.5), or in-tree. */
export type ForwardPluginSupport = 'absent' | 'external' | 'in-tree';

/** The `proxy` plugin: usable, usable but deprecated (1.4.0), or gone (1.5.0+). */
export type ProxyPluginSupport = 'available' | 'deprecated' | 'removed';

/** The `federation` plugin: in-tree (≤1.6.2), built from the external repository (1.6.3–1.6.9), gone (1.7.0+). */
export type FederationPluginSupport = 'in-tree' | 'external' | 'removed';

/**
 * How CoreDNS treats letter case in server-block zones:
 * - `case-sensitive` (<1.6.4): keys and query names compared as written, so a mixed-case query
 *   misses a lower-case block;
 * - `upper-case-unreachable` (1.6.4–1.14.6): query names are lower-cased but keys are not, so a
 *   block whose key has an upper-case letter never matches (REFUSED or the `.` block answers);
 * - `case-insensitive` (1.14.7+): keys are lower-cased too.
 */
export type ZoneKeyCaseHandling = 'case-sensitive' | 'upper-case-unreachable' | 'case-insensitive';

/**
 * How often CoreDNS runs a plugin's setup for a server block with several keys:
 * - `per-key` (≤1.8.4): once per key, each run registering its own start-up work (Caddy's
 *   `executeDirectives` loops over the keys of a block; coredns/caddy v1.1.0 still did);
 * - `per-block` (1.8.5+): once, for the first key; the other keys share that plugin chain
 *   (coredns/coredns#4593 "Share plugins among zones in the same server block", with
 *   coredns/caddy v1.1.1 "init plugins only for first zone in block").
 */
export type PluginSetupCount = 'per-key' | 'per-block';

/**
 * What the `health` plugin does when it is set up more than once for one listen address (a block
 * with several keys while setup runs {@link PluginSetupCount | per key}, or several blocks naming
 * the same address):
 * - `first-only` (1.0.0–1.0.6): one listener per process (`plugin/health/health.go` guards it with
 *   a package-level `sync.Once`); later setups add nothing, whatever address they name;
 * - `exclusive` (1.1.0–1.6.5): every setup binds its address with a plain listen (the `once` went
 *   with coredns/coredns#1585 in 1.1.0), so the second bind fails with "listen tcp ADDR: bind:
 *   address already in use" and CoreDNS does not start;
 * - `shared` (1.6.6+): the listener sets SO_REUSEPORT (`plugin/pkg/reuseport`,
 *   coredns/coredns#3455, #3473), so every bind on the same address succeeds.
 *
 * `prometheus` and `ready` keep one listener per address in every release (their setup goes
 * through `plugin/pkg/uniq`), and `pprof` one per process until 1.6.5 (a package-level
 * `sync.Once`) and SO_REUSEPORT from 1.6.6: none of them refuses a block with several keys.
 */
export type HealthListenerSharing = 'first-only' | 'exclusive' | 'shared';

/** The cap on `TO` addresses of one `forward`/`proxy` line. */
export interface UpstreamLimit {
  /** `more than 15 TOs configured: N` above this. */
  readonly max: 15;
  /**
   * `none`: 1.0.0 had no cap; `unverified`: 1.0.1–1.0.6 (present at 1.1.0, absent at 1.0.0, the
   * release in between not checked — treat 15 as the limit); `enforced`: 1.1.0+.
   */
  readonly enforcement: 'none' | 'unverified' | 'enforced';
  /**
   * `after-file-expansion` (≤1.14.3): a resolv.conf-style file counts as its nameservers;
   * `per-entry` (1.14.4+): each configured TO counts once (a hostname may resolve to several IPs).
   */
  readonly counting: 'after-file-expansion' | 'per-entry';
}

/** What one CoreDNS release supports. All fields are facts about the default build. */
export interface CoreDnsFeatures {
  readonly version: CoreDnsVersion;
  /** `proxy`: deprecated in 1.4.0, removed in 1.5.0 ("Unknown directive 'proxy'"). §2.1, §2.2; notes 1.4.0, 1.5.0. */
  readonly proxy: ProxyPluginSupport;
  /** `forward`: external module in 1.0.5 (binary not checked), in-tree from 1.0.6. §2.1; notes 1.0.5, 1.0.6. */
  readonly forward: ForwardPluginSupport;
  /**
   * The forwarding plugin a translator should emit: `forward` where it is in-tree (1.0.6+), else
   * `proxy` (1.0.0–1.0.5, where `forward` was absent or external and unverified). §6 rule 10.
   */
  readonly preferredForwarder: 'proxy' | 'forward';
  /** `federation`: in-tree ≤1.6.2, external build 1.6.3–1.6.9, removed 1.7.0. §2.1, §2.5; notes 1.7.0. */
  readonly federation: FederationPluginSupport;
  /** The kubernetes `upstream` option. §2.1, §2.4; notes 1.7.0; CM (1.4.0 deprecated, 1.5.x–1.6.x ignored, 1.7.0 removed). */
  readonly kubernetesUpstream: KubernetesUpstreamSupport;
  /** kubernetes `fallthrough` takes zones (`fallthrough in-addr.arpa ip6.arpa`) from 1.0.3 on. Notes 1.0.3. */
  readonly kubernetesFallthroughZones: boolean;
  /** `ready` plugin (1.5.0+). §2.1; CM new default at 1.5.0. */
  readonly ready: boolean;
  /** `loop` plugin (1.2.1+). §2.1, §2.6; CM new default at 1.2.1. */
  readonly loop: boolean;
  /** `reload` plugin (1.1.0+). Notes 1.1.0. */
  readonly reload: boolean;
  /**
   * `health { lameduck DURATION }` (1.0.5+). Notes 1.0.5. Kubernetes defaults carry
   * `lameduck 5s` only from CoreDNS 1.6.5 (Kubernetes 1.17, kubernetes/kubernetes#85108).
   */
  readonly healthLameduck: boolean;
  /**
   * `forward { max_concurrent N }` (1.6.8+; 1.6.8 was tagged from the same source as 1.6.9 but
   * never published, so in practice 1.6.9+). Notes 1.6.8, 1.6.9; §2.3.
   */
  readonly forwardMaxConcurrent: boolean;
  /**
   * `forward` TOs may be hostnames, resolved at startup (and reload); a failed lookup stops
   * CoreDNS (1.14.4+). Before: `not an IP address or file`. `proxy` never accepted hostnames.
   * §2.3 (`ce0e5a6f3`); coredns/coredns#5646.
   */
  readonly forwardHostnameTargets: boolean;
  /** `forward` TOs may be `https://` (DNS over HTTPS) (1.14.5+). §2.1, §2.3 (`f2f5b5a1c`). */
  readonly forwardHttpsTargets: boolean;
  /**
   * Several `forward` lines in one server block, chained by FROM (1.9.4+). Before, a second one
   * fails with `this plugin can only be used once per Server Block` (enforced from 1.1.0, notes
   * 1.1.0; in 1.0.5–1.0.6 the outcome was not checked — do not rely on it). Several `proxy`
   * lines per block were always allowed (§2.2). §2.1, §2.3 (`513f27b9a`).
   */
  readonly multipleForwardPerBlock: boolean;
  /** `cache { disable denial }` switches NXDOMAIN caching off; before, the shortest is `denial CAPACITY 1` (from the syntax table). */
  readonly cacheDisableDenial: boolean;
  /** The 15-TO cap of `forward`/`proxy`. §2.1, §2.2, §2.3; coredns/coredns#1339. */
  readonly upstreamLimit: UpstreamLimit;
  /** Query names are lower-cased before picking a server block (1.6.4+, `27e22b069`). §2.8. */
  readonly queryNamesLowercased: boolean;
  /** Server-block zone keys are lower-cased (1.14.7+, `55949d626`, PR #8320, fixes #6624). §2.8. */
  readonly serverBlockZonesLowercased: boolean;
  /** Consequence of the two above for a zone key with upper-case letters. §2.8. */
  readonly zoneKeyCase: ZoneKeyCaseHandling;
  /**
   * Plugin setup runs once per key of a block (≤1.8.4) or once per block (1.8.5+). Caddy
   * `caddy.go` `executeDirectives` (mholt/caddy, coredns/caddy v1.1.0) and coredns/caddy v1.1.1;
   * `core/dnsserver/register.go` at v1.8.5 (coredns/coredns#4593).
   */
  readonly pluginSetup: PluginSetupCount;
  /**
   * A second `health` listener on the same address: ignored (≤1.0.6), refused (1.1.0–1.6.5) or
   * shared through SO_REUSEPORT (1.6.6+). `plugin/health/health.go` and `setup.go` at v1.0.6,
   * v1.1.0, v1.6.5, v1.6.6; checked with the real 1.2.6 (refused) and 1.6.9 (starts).
   */
  readonly healthListener: HealthListenerSharing;
}

function upstreamLimit(version: CoreDnsVersion): UpstreamLimit {
  const enforcement = atLeast(version, '1.1.0') ? 'enforced' : atLeast(version, '1.0.1') ? 'unverified' : 'none';
  const counting = atLeast(version, '1.14.4') ? 'per-entry' : 'after-file-expansion';
  return Object.freeze({ max: 15, enforcement, counting });
}

function buildFeatures(version: CoreDnsVersion): CoreDnsFeatures {
  const proxy = coreDnsPluginAvailability('proxy', version);
  const forward = coreDnsPluginAvailability('forward', version);
  const federation = coreDnsPluginAvailability('federation', version);
  const forwardSupport: ForwardPluginSupport = !isUsable(forward) ? 'absent' : forward.externalModule === undefined ? 'in-tree' : 'external';
  const queryNamesLowercased = atLeast(version, '1.6.4');
  const serverBlockZonesLowercased = atLeast(version, '1.14.7');
  return Object.freeze({
    version,
    proxy: proxy.status === 'removed' ? 'removed' : proxy.status === 'deprecated' ? 'deprecated' : 'available',
    forward: forwardSupport,
    preferredForwarder: forwardSupport === 'in-tree' ? 'forward' : 'proxy',
    federation: federation.status === 'removed' ? 'removed' : federation.externalModule === undefined ? 'in-tree' : 'external',
    kubernetesUpstream: kubernetesUpstreamSupport(version),
    kubernetesFallthroughZones: atLeast(version, '1.0.3'),
    ready: isUsable(coreDnsPluginAvailability('ready', version)),
    loop: isUsable(coreDnsPluginAvailability('loop', version)),
    reload: isUsable(coreDnsPluginAvailability('reload', version)),
    healthLameduck: isUsable(coreDnsOptionAvailability('health', 'lameduck', version)),
    forwardMaxConcurrent: isUsable(coreDnsOptionAvailability('forward', 'max_concurrent', version)),
    forwardHostnameTargets: atLeast(version, '1.14.4'),
    forwardHttpsTargets: atLeast(version, '1.14.5'),
    multipleForwardPerBlock: atLeast(version, '1.9.4'),
    cacheDisableDenial: isUsable(coreDnsOptionAvailability('cache', 'disable', version)),
    upstreamLimit: upstreamLimit(version),
    queryNamesLowercased,
    serverBlockZonesLowercased,
    zoneKeyCase: serverBlockZonesLowercased ? 'case-insensitive' : queryNamesLowercased ? 'upper-case-unreachable' : 'case-sensitive',
    pluginSetup: atLeast(version, '1.8.5') ? 'per-block' : 'per-key',
    healthListener: atLeast(version, '1.6.6') ? 'shared' : atLeast(version, '1.1.0') ? 'exclusive' : 'first-only',
  });
}

const FEATURES = new Map<CoreDnsVersion, CoreDnsFeatures>();

/**
 * The feature table of one release (frozen; the same object for the same release).
 *
 * @throws {UnknownCoreDnsVersionError} when `version` is not a known release.
 */
export function coreDnsFeatures(version: string): CoreDnsFeatures {
  const parsed = parseCoreDnsVersion(version);
  let features = FEATURES.get(parsed);
  if (features === undefined) {
    features = buildFeatures(parsed);
    FEATURES.set(parsed, features);
  }
  return features;
}
