/**
 * What each option of the kube-dns Pod's programs means for the Corefile, as data: one table per
 * container (docs/kube-dns-deployment.md, "What each flag becomes"; docs/architecture.md, "The
 * translator"). A row names the option, the plan fields it sets, the diagnostic code it is reported
 * with and its message, as a corefile-migration option record keeps an option's status and its
 * action together. The planner (deployment-flags.ts) walks the rows in order; it has no code path
 * of its own per flag. Every row whose `when` holds is reported (rows of one option exclude each
 * other where only one may apply).
 */
import { CACHE_DEFAULT_CAPACITY, firstReleaseWith, noDenialCaching } from '../coredns/features.js';
import type { CoreDnsFeatures } from '../coredns/features.js';
import type { DiagnosticCode } from '../diagnostics/codes.js';
import type { DnsmasqSettings } from '../kubedns/dnsmasq-options.js';
import type { KubeDnsArgs } from '../kubedns/kubedns-args.js';
import type { KubeDnsPod } from '../kubedns/kube-dns-pod.js';

/** The plan fields a container's options set (the rest of the plan comes from its servers). */
export interface OptionPlanFields {
  /** `--no-negcache`: no denial caching. */
  readonly noNegativeCache?: boolean;
  /** `--cache-size=0`: no cache at all. */
  readonly noCache?: boolean;
  readonly logQueries?: boolean;
  readonly strictOrder?: boolean;
  /** `--dns-forward-max`, where the target has `max_concurrent`. */
  readonly maxConcurrent?: number;
}

/** One row: an option of a program, read from `Facts`. */
export interface EffectRow<Facts> {
  /** The option, by the name its program declares (dnsmasq's long name, kube-dns's flag name). */
  readonly option: string;
  /** Whether the row applies. */
  readonly when: (facts: Facts, target: CoreDnsFeatures) => boolean;
  /** The plan fields the option sets when the row applies. */
  readonly sets?: (facts: Facts) => OptionPlanFields;
  readonly code: DiagnosticCode;
  readonly message: (facts: Facts, target: CoreDnsFeatures) => string;
  /**
   * The diagnostic's path (without brackets), from the facts and the option's spelling as written
   * (`spelled`); default: the spelling.
   */
  readonly path?: (facts: Facts, spelled: string) => string;
}

/**
 * A row whose option is planned entry by entry (`--address`: one template per domain): the
 * planner's own step, at this place in the order of the reports.
 */
export interface EntriesRow {
  readonly option: string;
  readonly entries: true;
}

/** What the dnsmasq rows read: its settings and what its servers came to. */
export interface DnsmasqFacts {
  readonly settings: DnsmasqSettings;
  /** The manifest's servers for every name, other than kubedns. */
  readonly upstreams: readonly { readonly target: string; readonly text: string }[];
  readonly pod: KubeDnsPod;
}

const DNSMASQ_UPSTREAMS = (facts: DnsmasqFacts): string => facts.upstreams.map((server) => server.target).join(' ');
const DNSMASQ_UPSTREAM_TEXTS = (facts: DnsmasqFacts): string => facts.upstreams.map((server) => server.text).join(' ');

/**
 * The dnsmasq container's options, in the order they are reported (after its `--server`s, before
 * the options without a bearing on the Corefile, {@link HARMLESS_DNSMASQ_OPTIONS}).
 */
export const DNSMASQ_EFFECTS: readonly (EffectRow<DnsmasqFacts> | EntriesRow)[] = [
  {
    option: 'no-resolv',
    when: (facts) => facts.upstreams.length > 0 && facts.settings.noResolv,
    code: 'deployment-upstream-server',
    path: (facts, spelled) => `${DNSMASQ_UPSTREAM_TEXTS(facts)} ${spelled}`,
    message: (facts) => `--no-resolv: upstreams ${DNSMASQ_UPSTREAMS(facts)} instead of the node's resolv.conf`,
  },
  {
    option: 'no-resolv',
    when: (facts) => facts.upstreams.length > 0 && !facts.settings.noResolv,
    code: 'deployment-upstream-server',
    path: (facts) => DNSMASQ_UPSTREAM_TEXTS(facts),
    message: (facts) =>
      `without --no-resolv, dnsmasq used ${DNSMASQ_UPSTREAMS(facts)} beside the node's resolv.conf (unless the ConfigMap has upstreamNameservers: dnsmasq-nanny then adds --no-resolv); the Corefile forwards to both`,
  },
  {
    option: 'no-resolv',
    when: (facts) => facts.upstreams.length === 0 && facts.pod.everyNameToKubeDns,
    code: 'deployment-flag',
    message: (facts) => `--no-resolv with kubedns as the only server: kubedns forwarded the names outside its zones (${resolverText(facts.pod)}), as the Corefile does`,
  },
  {
    option: 'no-resolv',
    when: (facts) => facts.upstreams.length === 0 && !facts.pod.everyNameToKubeDns && facts.settings.noResolv,
    code: 'deployment-flag',
    message: () => "--no-resolv without servers of the manifest: the upstreams are the ConfigMap's (dnsmasq-nanny adds them with --no-resolv)",
  },
  { option: 'cache-size', when: (facts) => facts.settings.cacheSize === 0, sets: () => ({ noCache: true }), code: 'cache-disabled', message: () => 'dnsmasq cached nothing: the Corefile has no cache' },
  {
    option: 'cache-size',
    when: (facts) => facts.settings.cacheSize !== undefined && facts.settings.cacheSize !== 0,
    code: 'deployment-flag',
    message: (facts) => `dnsmasq held ${facts.settings.cacheSize} names; CoreDNS's cache holds up to ${CACHE_DEFAULT_CAPACITY} answers per block (capacity not carried over)`,
  },
  {
    option: 'no-negcache',
    when: (facts) => facts.settings.noNegcache && facts.settings.cacheSize === 0,
    sets: () => ({ noNegativeCache: true }),
    code: 'deployment-flag',
    message: () => 'no negative caching, and --cache-size=0 turns every cache off anyway',
  },
  {
    option: 'no-negcache',
    when: (facts, target) => facts.settings.noNegcache && facts.settings.cacheSize !== 0 && noDenialCaching(target).exact,
    sets: () => ({ noNegativeCache: true }),
    code: 'negative-caching-disabled',
    message: () => 'NXDOMAIN was never cached: every cache gets disable denial',
  },
  {
    option: 'no-negcache',
    when: (facts, target) => facts.settings.noNegcache && facts.settings.cacheSize !== 0 && !noDenialCaching(target).exact,
    sets: () => ({ noNegativeCache: true }),
    code: 'negative-caching-shortened',
    message: (_facts, target) => shortenedNegativeCachingMessage(target),
  },
  { option: 'log-queries', when: (facts) => facts.settings.logQueries, sets: () => ({ logQueries: true }), code: 'dnsmasq-option-translated', message: () => 'dnsmasq logged every query: every block gets log' },
  {
    option: 'strict-order',
    when: (facts, target) => facts.settings.strictOrder && hasPolicySequential(target),
    sets: () => ({ strictOrder: true }),
    code: 'dnsmasq-option-translated',
    message: () => 'servers tried in order: every forward gets policy sequential',
  },
  {
    option: 'strict-order',
    when: (facts, target) => facts.settings.strictOrder && !hasPolicySequential(target),
    code: 'deployment-flag-not-translated',
    message: (_facts, target) => `CoreDNS ${target.version} has no forward policy sequential (${firstReleaseWith((release) => release.forwardPolicySequential)}+); servers are picked at random`,
  },
  {
    option: 'all-servers',
    when: (facts) => facts.settings.allServers,
    code: 'deployment-flag-not-translated',
    message: () => 'dnsmasq sent every query to all servers and took the first answer; CoreDNS forwards to one at a time',
  },
  {
    option: 'dns-forward-max',
    when: (facts, target) => facts.settings.dnsForwardMax !== undefined && hasMaxConcurrent(target) && facts.settings.dnsForwardMax > 0 && facts.settings.dnsForwardMax <= MAX_CONCURRENT_LIMIT,
    sets: (facts) => ({ maxConcurrent: facts.settings.dnsForwardMax as number }),
    code: 'dnsmasq-option-translated',
    message: (facts) => `at most ${facts.settings.dnsForwardMax} queries in flight: every forward gets max_concurrent ${facts.settings.dnsForwardMax} (a limit per forward, where dnsmasq had one for the process)`,
  },
  {
    // dnsmasq 2.90 (src/forward.c, get_new_frec): no free forwarding record → the query is answered REFUSED.
    option: 'dns-forward-max',
    when: (facts) => facts.settings.dnsForwardMax === 0,
    code: 'deployment-forwards-nothing',
    message: () =>
      "dnsmasq may keep no query in flight: it answered REFUSED to every query it would have forwarded (kubedns's names and every outside name alike) and resolved only what it answered itself; a Corefile that forwards would resolve what the cluster never did: not translated",
  },
  {
    option: 'dns-forward-max',
    when: (facts, target) => facts.settings.dnsForwardMax !== undefined && hasMaxConcurrent(target) && facts.settings.dnsForwardMax > MAX_CONCURRENT_LIMIT,
    code: 'translation-target-refuses',
    message: (facts, target) => {
      const written = [...(facts.settings.spellings.get('dns-forward-max') ?? [])].pop()?.value ?? String(facts.settings.dnsForwardMax);
      return `--dns-forward-max=${written}: CoreDNS ${target.version}'s max_concurrent takes a whole number up to ${MAX_CONCURRENT_LIMIT}; not translated`;
    },
  },
  {
    option: 'dns-forward-max',
    when: (facts, target) => facts.settings.dnsForwardMax !== undefined && facts.settings.dnsForwardMax > 0 && !hasMaxConcurrent(target),
    code: 'deployment-flag-not-translated',
    message: (_facts, target) => `CoreDNS ${target.version} has no forward max_concurrent (${firstReleaseWith((release) => release.forwardMaxConcurrent)}+); no limit`,
  },
  { option: 'address', entries: true },
  { option: 'domain-needed', when: (facts) => facts.settings.domainNeeded, code: 'deployment-flag-not-translated', message: () => 'dnsmasq never forwarded names without a dot; CoreDNS forwards them' },
  { option: 'port', when: (facts) => facts.settings.port !== undefined, code: 'deployment-flag', message: () => 'the port dnsmasq listened on inside the Pod; the Service maps clients to it' },
];

function hasPolicySequential(target: CoreDnsFeatures): boolean {
  return target.preferredForwarder === 'forward' && target.forwardPolicySequential;
}

/**
 * The largest `max_concurrent` the translation writes: CoreDNS reads it with Go's `strconv.Atoi`
 * (64-bit `int`), and every larger value this package could carry exactly is above 2^53.
 */
const MAX_CONCURRENT_LIMIT = Number.MAX_SAFE_INTEGER;

function hasMaxConcurrent(target: CoreDnsFeatures): boolean {
  return target.forwardMaxConcurrent && target.preferredForwarder === 'forward';
}

/** The message of `negative-caching-shortened`, for the Deployment's `--no-negcache` and the stock manifest's alike. */
export function shortenedNegativeCachingMessage(target: CoreDnsFeatures): string {
  return `CoreDNS ${target.version} cannot switch denial caching off: NXDOMAIN is cached for at most 1 s (${noDenialCaching(target).text}) where kube-dns never cached it`;
}

/** dnsmasq options that do not change answers or routing, and what to say of them. */
export const HARMLESS_DNSMASQ_OPTIONS: ReadonlyMap<string, string> = new Map([
  ...['keep-in-foreground', 'no-daemon', 'log-facility', 'log-async'].map((name): [string, string] => [name, 'no bearing on answers']),
  ['dns-loop-detect', 'loop detection: the loop plugin does the same'],
  ...['user', 'group', 'pid-file', 'bind-interfaces', 'bind-dynamic', 'listen-address', 'interface', 'except-interface', 'log-dhcp', 'no-poll'].map((name): [string, string] => [name, 'no bearing on answers']),
  // The source ports of upstream queries.
  ...['min-port', 'max-port', 'query-port'].map((name): [string, string] => [name, 'no bearing on answers']),
]);

/** What a `--server` that names no upstream means, by its target's kind (each: `deployment-flag-not-translated`). */
export const SERVER_WITHOUT_UPSTREAM: Readonly<Record<'local-only' | 'default-upstreams' | 'empty', string>> = {
  'local-only': 'answers these names from local data only (NXDOMAIN)',
  'default-upstreams': 'sends these names to the ordinary upstreams',
  empty: 'has no address',
};

/** What the kubedns rows read. */
export interface KubednsFacts {
  readonly args: KubeDnsArgs;
  readonly pod: KubeDnsPod;
  /** The name of the ConfigMap given, if any. */
  readonly configMapName: string | undefined;
}

/** The kubedns container's flags, in the order they are reported. Paths are the flag with its value. */
export const KUBEDNS_EFFECTS: readonly EffectRow<KubednsFacts>[] = [
  {
    option: 'dns-port',
    when: (facts) => facts.args.values.dnsPort !== undefined,
    code: 'deployment-flag',
    path: (facts) => `--dns-port=${facts.args.values.dnsPort}`,
    message: (facts) =>
      facts.pod.throughDnsmasq
        ? 'the port dnsmasq reached kubedns on, inside the Pod; the kubernetes plugin takes its place'
        : 'the port kubedns answered clients on (the Pod has no dnsmasq); the kubernetes plugin takes its place, and the Service maps clients to CoreDNS',
  },
  {
    option: 'dns-bind-address',
    when: (facts) => facts.args.values.dnsBindAddress !== undefined,
    code: 'deployment-flag',
    path: (facts) => `--dns-bind-address=${facts.args.values.dnsBindAddress}`,
    message: () => 'where kubedns listened inside the Pod',
  },
  {
    option: 'config-dir',
    when: (facts) => facts.args.values.configDir !== undefined,
    code: 'deployment-flag',
    path: (facts) => `--config-dir=${facts.args.values.configDir}`,
    message: () => 'kubedns read its ConfigMap from this mounted directory: translate that ConfigMap',
  },
  {
    option: 'config-map',
    when: (facts) => facts.args.values.configMap !== undefined,
    code: 'deployment-flag',
    path: (facts) => `--config-map=${facts.args.values.configMap}`,
    message: (facts) => `kubedns read ConfigMap ${facts.args.values.configMapNamespace ?? 'kube-system'}/${facts.args.values.configMap} from the API: translate that one`,
  },
  {
    option: 'config-map',
    when: (facts) => facts.args.values.configMap !== undefined && facts.configMapName !== undefined && facts.configMapName !== facts.args.values.configMap,
    code: 'deployment-flag-not-translated',
    path: (facts) => `--config-map=${facts.args.values.configMap}`,
    message: (facts) => `kubedns read ConfigMap ${facts.args.values.configMap}, but the ConfigMap given is ${facts.configMapName}`,
  },
  {
    // cmd/kube-dns/app/server.go: without either, kubedns takes federations and upstreams from its flags.
    option: 'config-dir',
    when: (facts) => facts.args.values.configMap === undefined && facts.args.values.configDir === undefined,
    code: 'deployment-flag-not-translated',
    path: () => '--config-dir',
    message: (facts) =>
      `kubedns has neither --config-dir nor --config-map: it read no ConfigMap (its federations were not in effect, --federations and --nameservers were)${facts.pod.nannyAppliesConfigMap ? '; dnsmasq-nanny still applied stubDomains and upstreamNameservers from its own mount' : ''}`,
  },
  {
    option: 'nameservers',
    when: (facts) => facts.args.values.nameservers !== undefined && facts.pod.kubednsUpstreams.kind === 'nameservers',
    code: 'deployment-flag',
    path: (facts) => `--nameservers=${facts.args.values.nameservers}`,
    message: (facts) => `kubedns forwarded the names it does not serve to these servers (kube-dns ${facts.pod.kubeDnsVersion}); the Corefile does the same`,
  },
  {
    option: 'nameservers',
    when: (facts) => facts.args.values.nameservers !== undefined && facts.pod.kubednsUpstreams.kind !== 'nameservers',
    code: 'deployment-flag-not-translated',
    path: (facts) => `--nameservers=${facts.args.values.nameservers}`,
    message: (facts) => `kube-dns ${facts.pod.kubeDnsVersion} reads a ConfigMap, so kubedns ignored --nameservers (from 1.14.10 its upstreams are the ConfigMap's)`,
  },
  {
    option: 'federations',
    when: (facts) => facts.args.values.federations !== undefined && facts.args.values.federations.size > 0,
    code: 'deployment-flag-not-translated',
    path: () => '--federations',
    message: (facts) => `federations ${[...(facts.args.values.federations?.keys() ?? [])].join(', ')} from the flag are not translated; put them in the ConfigMap's federations key`,
  },
];

/** What is said, per container, of the settings without a bearing on answers (one diagnostic for all) and of positional arguments (one each). */
export const IGNORED_ARGUMENTS: Readonly<Record<'kubedns' | 'sidecar' | 'nanny', { readonly settings: string; readonly positional: string }>> = {
  kubedns: { settings: 'API access, health port, timers and logging: no bearing on answers', positional: 'an argument kube-dns accepts and ignores' },
  sidecar: { settings: 'health probes and metrics of the sidecar: CoreDNS has health, ready and prometheus', positional: 'an argument the sidecar accepts and ignores' },
  nanny: { settings: "dnsmasq-nanny's own settings (where it reads the ConfigMap, restarts, logging): no bearing on answers", positional: 'dnsmasq-nanny stops reading its flags before this argument and ignores it' },
};

/** Where kubedns's own resolver sent names, for messages. */
export function resolverText(pod: KubeDnsPod): string {
  switch (pod.kubednsUpstreams.kind) {
    case 'configmap':
      return `kube-dns ${pod.kubeDnsVersion}: the ConfigMap's upstreamNameservers, else the Pod's resolv.conf`;
    case 'nameservers':
      return `its --nameservers ${pod.kubednsUpstreams.servers.join(',')}`;
    case 'resolv.conf':
      return `kube-dns ${pod.kubeDnsVersion}: the Pod's resolv.conf`;
  }
}
