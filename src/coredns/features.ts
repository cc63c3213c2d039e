/**
 * The feature table: what one CoreDNS release supports, as far as a kube-dns → CoreDNS translator
 * and a Corefile linter need to know, one frozen record per release. Plugin facts come from
 * availability.ts (itself from plugin.cfg) and option facts from the plugin syntax table
 * (plugin-syntax.ts); the other facts are timelines ({@link COREDNS_FEATURE_TIMELINES}, the generic
 * release profile of src/util/release-profile.ts) read from the sources named on each field ("§N": section N of docs/reference/kube-dns-and-coredns.md; the other
 * evidence keys: see versions.ts).
 *
 * Pure data and functions: no Node APIs.
 */
import { changesIn, profileAt } from '../util/release-profile.js';
import type { ProfileTimelines } from '../util/release-profile.js';
import { coreDnsOptionAvailability, coreDnsPluginAvailability, isUsable, kubernetesUpstreamSupport } from './availability.js';
import type { KubernetesUpstreamSupport } from './availability.js';
import { eraAt, optionArgumentsAt, optionSyntax, pluginSyntax } from './plugin-syntax.js';
import type { OncePerBlock } from './plugin-syntax.js';
import { compareCoreDnsVersions, COREDNS_RELEASES, OLDEST_COREDNS_VERSION, parseCoreDnsVersion } from './versions.js';
import type { CoreDnsVersion } from './versions.js';

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
  /**
   * A second `forward` in one server block: allowed (`false`), refused with `plugin.ErrOnce`
   * (`true`), or `unverified` (1.0.5–1.0.6, not checked). From the forward row of the plugin syntax
   * table; {@link multipleForwardPerBlock} is this being `false`.
   */
  readonly forwardOncePerBlock: OncePerBlock;
  /**
   * `forward` refuses `grpc://` destinations ("'grpc' is not supported as a destination protocol
   * in forward"): read at v1.7.0 (§2.3); older releases were not checked, so `false` says nothing.
   */
  readonly forwardRefusesGrpc: boolean;
  /** `forward { policy sequential }` (1.1.2+), from the forward row's `policy` arguments. */
  readonly forwardPolicySequential: boolean;
  /** The `template` plugin (1.0.3+), from plugin.cfg. Notes 1.0.3. */
  readonly template: boolean;
  /** `cache { disable success|denial }` (1.9.4+), from the cache row (plugin/cache/setup.go). */
  readonly cacheDisable: boolean;
  /** `rewrite … rcode FROM TO` (1.11.3+, coredns#6204), from the rewrite row's first argument (plugin/rewrite/rcode.go). */
  readonly rewriteRcode: boolean;
  /**
   * A server key with an empty host (`:53`) is refused (1.3.1+: miekg/dns v1.1.2 made
   * `IsDomainName("")` false); older releases serve it as the root zone (syntax §5.1, run on 1.2.6).
   */
  readonly emptyHostKeyRefused: boolean;
  /**
   * A server key with a leading dot (`.example.org`) is refused (1.10.0+, miekg/dns v1.1.50); older
   * releases serve it as written (syntax §5.1, run on 1.2.6).
   */
  readonly leadingDotKeyRefused: boolean;
  /**
   * The wording of a zone served twice: "cannot serve … - zone already defined for …" (1.0.x) or
   * "cannot serve … - it is already defined" (1.1.0+). syntax §5.2.
   */
  readonly zoneDefinedTwiceWording: 'zone-already-defined' | 'it-is-already-defined';
  /**
   * CoreDNS counts the snippet imports of a parse and refuses the 10,001st ("maximum snippet import
   * depth (10000) exceeded"; coredns/caddy `maxSnippetExpansions`, built in from 1.13.0; checked
   * against the real 1.14.7). Before, snippet imports are expanded without a bound.
   */
  readonly snippetImportsBounded: boolean;
  /**
   * bind takes network interface names beside IP addresses (1.8.4+: "not a valid IP address or
   * interface name" when the machine has no such interface); before, IP addresses only ("not a
   * valid IP address"). plugin/bind/setup.go at v1.8.0, v1.8.4, v1.14.7.
   */
  readonly bindInterfaceNames: boolean;
  /**
   * How `import PATTERN` of files reads a pattern (the caddy each release builds with: its Makefile's
   * checkout before 1.5.0, go.mod after; caddyfile/parse.go `doImport`). `star-only` (caddy before
   * v0.10.13, CoreDNS before 1.2.3): a pattern that matches no file imports nothing (a logged
   * warning) only when it holds `*`; any other pattern names a file that must exist ("File to
   * import not found"). `one-wildcard` (v0.10.13+, CoreDNS 1.2.3+): any of `*?[]` makes it a glob
   * that may match nothing, and a pattern with more than one `*`, more than one `?`, or both `[` and
   * `]` stops CoreDNS ("Glob pattern may only contain one wildcard (*), but has others"; caddy#2096).
   * Checked with the real 1.2.6, 1.6.9, 1.8.0, 1.14.7.
   */
  readonly importGlobs: 'star-only' | 'one-wildcard';
}

/** The features that are no plugin or option of a release: thresholds, one timeline each. */
type TimelineFeatures = Pick<
  CoreDnsFeatures,
  | 'kubernetesFallthroughZones'
  | 'forwardHostnameTargets'
  | 'forwardHttpsTargets'
  | 'upstreamLimit'
  | 'queryNamesLowercased'
  | 'serverBlockZonesLowercased'
  | 'pluginSetup'
  | 'healthListener'
  | 'forwardRefusesGrpc'
  | 'emptyHostKeyRefused'
  | 'leadingDotKeyRefused'
  | 'zoneDefinedTwiceWording'
  | 'snippetImportsBounded'
  | 'bindInterfaceNames'
  | 'importGlobs'
>;

const FIRST = OLDEST_COREDNS_VERSION;

const limit = (enforcement: UpstreamLimit['enforcement'], counting: UpstreamLimit['counting']): UpstreamLimit => Object.freeze({ max: 15, enforcement, counting });

/** Where each feature that is no plugin or option changes; see the fields of {@link CoreDnsFeatures} for the evidence. */
export const COREDNS_FEATURE_TIMELINES: ProfileTimelines<TimelineFeatures, CoreDnsVersion> = {
  kubernetesFallthroughZones: changesIn(FIRST, false, '1.0.3', true),
  forwardHostnameTargets: changesIn(FIRST, false, '1.14.4', true),
  forwardHttpsTargets: changesIn(FIRST, false, '1.14.5', true),
  upstreamLimit: [
    { from: FIRST, value: limit('none', 'after-file-expansion') },
    { from: '1.0.1', value: limit('unverified', 'after-file-expansion') },
    { from: '1.1.0', value: limit('enforced', 'after-file-expansion') },
    { from: '1.14.4', value: limit('enforced', 'per-entry') },
  ],
  queryNamesLowercased: changesIn(FIRST, false, '1.6.4', true),
  serverBlockZonesLowercased: changesIn(FIRST, false, '1.14.7', true),
  pluginSetup: changesIn<PluginSetupCount, CoreDnsVersion>(FIRST, 'per-key', '1.8.5', 'per-block'),
  healthListener: [
    { from: FIRST, value: 'first-only' },
    { from: '1.1.0', value: 'exclusive' },
    { from: '1.6.6', value: 'shared' },
  ],
  forwardRefusesGrpc: changesIn(FIRST, false, '1.7.0', true),
  emptyHostKeyRefused: changesIn(FIRST, false, '1.3.1', true),
  leadingDotKeyRefused: changesIn(FIRST, false, '1.10.0', true),
  zoneDefinedTwiceWording: changesIn<CoreDnsFeatures['zoneDefinedTwiceWording'], CoreDnsVersion>(FIRST, 'zone-already-defined', '1.1.0', 'it-is-already-defined'),
  snippetImportsBounded: changesIn(FIRST, false, '1.13.0', true),
  bindInterfaceNames: changesIn(FIRST, false, '1.8.4', true),
  importGlobs: changesIn<CoreDnsFeatures['importGlobs'], CoreDnsVersion>(FIRST, 'star-only', '1.2.3', 'one-wildcard'),
};

/** A second `forward` per block in `version`, from the forward row of the plugin syntax table. */
function forwardOncePerBlock(version: CoreDnsVersion): OncePerBlock {
  const forward = pluginSyntax('forward');
  return (forward === undefined ? undefined : eraAt(forward.oncePerBlock, version)) ?? false;
}

/** Whether `forward { policy sequential }` is accepted in `version`, from the forward row. */
function forwardPolicySequential(version: CoreDnsVersion): boolean {
  const policy = optionSyntax('forward', 'policy');
  if (policy === undefined || !isUsable(coreDnsOptionAvailability('forward', 'policy', version))) return false;
  const spec = optionArgumentsAt(policy, version)?.positions?.[0];
  return spec?.kind === 'enum' && spec.values.includes('sequential');
}

/** Whether the release's `rewrite` takes the `rcode` field (its first argument's words). */
function rewriteRcode(version: CoreDnsVersion): boolean {
  const syntax = pluginSyntax('rewrite');
  const shape = syntax === undefined ? undefined : eraAt(syntax.arguments, version);
  const spec = shape === undefined || shape === 'unchecked' ? undefined : shape.positions?.[0];
  return spec?.kind === 'enum' && spec.values.includes('rcode');
}

function buildFeatures(version: CoreDnsVersion): CoreDnsFeatures {
  const proxy = coreDnsPluginAvailability('proxy', version);
  const forward = coreDnsPluginAvailability('forward', version);
  const federation = coreDnsPluginAvailability('federation', version);
  const forwardSupport: ForwardPluginSupport = !isUsable(forward) ? 'absent' : forward.externalModule === undefined ? 'in-tree' : 'external';
  const timelines = profileAt(COREDNS_FEATURE_TIMELINES, version, compareCoreDnsVersions);
  const oncePerBlock = forwardOncePerBlock(version);
  return Object.freeze({
    version,
    proxy: proxy.status === 'removed' ? 'removed' : proxy.status === 'deprecated' ? 'deprecated' : 'available',
    forward: forwardSupport,
    preferredForwarder: forwardSupport === 'in-tree' ? 'forward' : 'proxy',
    federation: federation.status === 'removed' ? 'removed' : federation.externalModule === undefined ? 'in-tree' : 'external',
    kubernetesUpstream: kubernetesUpstreamSupport(version),
    kubernetesFallthroughZones: timelines.kubernetesFallthroughZones,
    ready: isUsable(coreDnsPluginAvailability('ready', version)),
    loop: isUsable(coreDnsPluginAvailability('loop', version)),
    reload: isUsable(coreDnsPluginAvailability('reload', version)),
    healthLameduck: isUsable(coreDnsOptionAvailability('health', 'lameduck', version)),
    forwardMaxConcurrent: isUsable(coreDnsOptionAvailability('forward', 'max_concurrent', version)),
    forwardHostnameTargets: timelines.forwardHostnameTargets,
    forwardHttpsTargets: timelines.forwardHttpsTargets,
    multipleForwardPerBlock: oncePerBlock === false,
    upstreamLimit: timelines.upstreamLimit,
    queryNamesLowercased: timelines.queryNamesLowercased,
    serverBlockZonesLowercased: timelines.serverBlockZonesLowercased,
    zoneKeyCase: timelines.serverBlockZonesLowercased ? 'case-insensitive' : timelines.queryNamesLowercased ? 'upper-case-unreachable' : 'case-sensitive',
    pluginSetup: timelines.pluginSetup,
    healthListener: timelines.healthListener,
    forwardOncePerBlock: oncePerBlock,
    forwardRefusesGrpc: timelines.forwardRefusesGrpc,
    forwardPolicySequential: forwardPolicySequential(version),
    template: isUsable(coreDnsPluginAvailability('template', version)),
    cacheDisable: isUsable(coreDnsOptionAvailability('cache', 'disable', version)),
    rewriteRcode: rewriteRcode(version),
    emptyHostKeyRefused: timelines.emptyHostKeyRefused,
    leadingDotKeyRefused: timelines.leadingDotKeyRefused,
    zoneDefinedTwiceWording: timelines.zoneDefinedTwiceWording,
    snippetImportsBounded: timelines.snippetImportsBounded,
    bindInterfaceNames: timelines.bindInterfaceNames,
    importGlobs: timelines.importGlobs,
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

/** The capacity of a `cache` without a `success`/`denial` capacity: 9984 answers (plugin/cache/setup.go, `defaultCap`). */
export const CACHE_DEFAULT_CAPACITY = 9984;

/** How a cache of one release keeps no denial (NXDOMAIN, NODATA) answers: see {@link noDenialCaching}. */
export interface NoDenialCaching {
  /** The option inside `cache { … }`. */
  readonly name: 'disable' | 'denial';
  readonly arguments: readonly string[];
  /** The option as written: `disable denial` or `denial 9984 1`. */
  readonly text: string;
  /** `true` for `disable denial`; `false`: denials are still kept, for at most 1 s. */
  readonly exact: boolean;
  /** The first release that has `disable denial` (the cache row's `disable`). */
  readonly disableFrom: CoreDnsVersion;
}

const DISABLE_FROM = optionSyntax('cache', 'disable')?.since ?? OLDEST_COREDNS_VERSION;
const DISABLE_DENIAL: NoDenialCaching = Object.freeze({ name: 'disable', arguments: Object.freeze(['denial']), text: 'disable denial', exact: true, disableFrom: DISABLE_FROM });
const SHORT_DENIAL: NoDenialCaching = Object.freeze({
  name: 'denial',
  arguments: Object.freeze([String(CACHE_DEFAULT_CAPACITY), '1']),
  text: `denial ${CACHE_DEFAULT_CAPACITY} 1`,
  exact: false,
  disableFrom: DISABLE_FROM,
});

/**
 * The rule for a cache that must not keep denials (kube-dns's dnsmasq ran with `--no-negcache`):
 * `disable denial` where the release has it (1.9.4+), else `denial 9984 1`, the shortest denial TTL
 * older releases accept (capacity at its default). The translator writes it; migrate writes the same
 * when it moves `disable denial` to an older release.
 */
export function noDenialCaching(features: CoreDnsFeatures): NoDenialCaching {
  return features.cacheDisable ? DISABLE_DENIAL : SHORT_DENIAL;
}

/**
 * The first release users could run (its images were published, see `CoreDnsRelease.unpublished`)
 * whose features pass `test`, for messages such as "max_concurrent (1.6.9+)"; undefined when none does.
 */
export function firstReleaseWith(test: (features: CoreDnsFeatures) => boolean): CoreDnsVersion | undefined {
  return COREDNS_RELEASES.find((release) => release.unpublished !== true && test(coreDnsFeatures(release.version)))?.version;
}
