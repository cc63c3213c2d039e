/**
 * What the kube-dns Deployment's container arguments mean for the Corefile (docs/kube-dns-deployment.md,
 * "What each flag becomes"): the cluster domain, dnsmasq's extra servers, its caching and its
 * logging. Every flag ends up in the plan or in a diagnostic: none is dropped without a word.
 */
import { CACHE_DEFAULT_CAPACITY, firstReleaseWith, noDenialCaching } from '../coredns/features.js';
import type { CoreDnsFeatures } from '../coredns/features.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { DiagnosticCode } from '../diagnostics/codes.js';
import { splitDnsmasqOptions } from '../kubedns/dnsmasq-options.js';
import type { DnsmasqOption, DnsmasqSettings, ServerEntry } from '../kubedns/dnsmasq-options.js';
import type { FlagSetting } from '../kubedns/go-flags.js';
import type { KubeDnsDeployment } from '../kubedns/kube-dns-install.js';
import { KUBE_DNS_RULE_TIMELINES, kubeDnsRules } from '../kubedns/kube-dns-versions.js';
import { firstReleaseWhere } from '../util/release-profile.js';
import { pushAll } from '../util/lists.js';
import { isDns1123Subdomain } from '../dns/go-net.js';
import { kubeDnsAddress, kubeDnsPod } from '../kubedns/kube-dns-pod.js';
import type { KubeDnsPod } from '../kubedns/kube-dns-pod.js';
import { DEFAULT_CLUSTER_DOMAIN, isWithin } from '../dns/zones.js';

/** The first kube-dns release whose stock manifest runs dnsmasq with --no-negcache. */
const STOCK_NO_NEGCACHE_FROM = firstReleaseWhere(KUBE_DNS_RULE_TIMELINES.stockManifestNoNegcache, (value) => value) ?? '?';

/** A `--server` or `--address` of the manifest, as the translation uses it. */
export interface DeploymentServer {
  /** The CoreDNS form of the address: `ip`, `ip:port`, `[v6]:port`. */
  readonly target: string;
  /** The option as written, for diagnostics. */
  readonly text: string;
}

/**
 * A fixed answer from `--address=/zone/[address]` or `--server=/zone/`: the address, or undefined
 * for NXDOMAIN. dnsmasq 2.90 (checked on loopback): an address beats servers for the same domain,
 * NXDOMAIN (no address) loses to them; a more specific domain beats both.
 */
export interface DeploymentAddress {
  readonly zone: string;
  readonly address: string | undefined;
  readonly text: string;
  /** From `--server=/zone/` (dnsmasq answers from local data only), not `--address`. */
  readonly localOnly?: boolean;
}

/** What the translation does because of the Deployment's arguments (or the stock manifest's). */
export interface DeploymentPlan {
  /** The cluster domain from kubedns's `--domain` (or the sidecar's probes), without the trailing dot. */
  readonly clusterDomain: string | undefined;
  /** Stub zones from `--server=/zone/address`: zone → servers, in the manifest's order. */
  readonly stubs: ReadonlyMap<string, readonly DeploymentServer[]>;
  /** `--server=address`: those servers are upstreams (with `--no-resolv` the only ones). */
  readonly upstreams: readonly DeploymentServer[] | undefined;
  /** dnsmasq read the node's resolv.conf too (no `--no-resolv` in the manifest). */
  readonly besideResolvConf: boolean;
  /** `--no-negcache`: no denial caching. */
  readonly noNegativeCache: boolean;
  /** `--cache-size=0`: no cache at all. */
  readonly noCache: boolean;
  readonly logQueries: boolean;
  readonly strictOrder: boolean;
  /** `--dns-forward-max`, where the target has `max_concurrent`. */
  readonly maxConcurrent: number | undefined;
  readonly addresses: readonly DeploymentAddress[];
  /** The ConfigMap's nameservers reached dnsmasq (through the nanny): addresses are read as dnsmasq reads them. */
  readonly throughDnsmasq: boolean;
  /** Which program applied what: the nanny the ConfigMap, kubedns its own forwarding (src/kubedns/kube-dns-pod.ts). */
  readonly pod: KubeDnsPod;
  /** Zones of the cluster (the cluster domain, the reverse zones) dnsmasq did not send to kubedns: their names went upstream. */
  readonly unservedZones: readonly string[];
  /** Zones dnsmasq sent to kubedns that it has no records for: kubedns forwarded them with its own resolver. */
  readonly kubednsForwardZones: readonly string[];
  /**
   * What the Pod's dnsmasq did with names without a dot that no zone of its own holds, when an
   * entry with a domain ending in a dot before its last applied to them too (dnsmasq 2.86+, kube-dns
   * 1.22.1+): answered NXDOMAIN, answered with an address, or sent to servers. Undefined: nothing special.
   */
  readonly unqualified: UnqualifiedNames | undefined;
  readonly diagnostics: readonly Diagnostic[];
}

/** See {@link DeploymentPlan.unqualified}; `text` is the option as written. */
export type UnqualifiedNames =
  | { readonly kind: 'nxdomain'; readonly text: string }
  | { readonly kind: 'address'; readonly address: string; readonly text: string }
  | { readonly kind: 'servers'; readonly text: string };

/**
 * The stock manifest of kube-dns `kubeDnsVersion` (kubernetes/kubernetes `cluster/addons/dns/`):
 * its dnsmasq runs with `--no-negcache` from Kubernetes 1.9 on (kubernetes/kubernetes#53604,
 * October 2017), whose manifest shipped kube-dns 1.14.7; older manifests cached NXDOMAIN.
 */
export function stockDeploymentPlan(kubeDnsVersion: string, clusterDomainOption: string | undefined, features: CoreDnsFeatures): DeploymentPlan {
  const noNegativeCache = kubeDnsRules(kubeDnsVersion).stockManifestNoNegcache;
  const domain = `cluster domain ${clusterDomainOption ?? 'cluster.local'}`;
  const diagnostics: Diagnostic[] = [
    diagnostic('kube-dns-deployment-assumed', {
      message: noNegativeCache
        ? `no Deployment given: assuming the stock kube-dns ${kubeDnsVersion} manifest (${domain}, dnsmasq with --no-negcache: NXDOMAIN never cached)`
        : `no Deployment given: assuming the stock kube-dns ${kubeDnsVersion} manifest (${domain}; dnsmasq without --no-negcache before kube-dns ${STOCK_NO_NEGCACHE_FROM}: NXDOMAIN cached)`,
    }),
  ];
  if (noNegativeCache && !noDenialCaching(features).exact) diagnostics.push(shortenedNegativeCaching('stock manifest', features));
  return { ...EMPTY_PLAN, noNegativeCache, pod: kubeDnsPod(undefined, kubeDnsVersion, clusterDomainOption ?? DEFAULT_CLUSTER_DOMAIN), diagnostics };
}

const EMPTY_PLAN: Omit<DeploymentPlan, 'pod'> = {
  clusterDomain: undefined,
  stubs: new Map(),
  upstreams: undefined,
  noNegativeCache: false,
  noCache: false,
  logQueries: false,
  strictOrder: false,
  maxConcurrent: undefined,
  addresses: [],
  besideResolvConf: false,
  throughDnsmasq: true,
  unservedZones: [],
  kubednsForwardZones: [],
  unqualified: undefined,
  diagnostics: [],
};

function shortenedNegativeCaching(source: string, features: CoreDnsFeatures): Diagnostic {
  return diagnostic('negative-caching-shortened', {
    key: source,
    message: `CoreDNS ${features.version} cannot switch denial caching off: NXDOMAIN is cached for at most 1 s (${noDenialCaching(features).text}) where kube-dns never cached it`,
  });
}

/** The plan for `deployment`, its diagnostics in the order of the containers' arguments. */
export function planDeployment(deployment: KubeDnsDeployment, features: CoreDnsFeatures, kubeDnsVersion: string, configMapName?: string): DeploymentPlan {
  const diagnostics: Diagnostic[] = [];
  const say = (code: DiagnosticCode, container: string, path: string, message: string) => diagnostic(code, { key: `container ${container}`, path: `[${path}]`, message });
  const push = (code: DiagnosticCode, container: string, path: string, message: string) => diagnostics.push(say(code, container, path, message));
  const clusterDomain = planClusterDomain(deployment, push);
  const pod = kubeDnsPod(deployment, kubeDnsVersion, clusterDomain ?? DEFAULT_CLUSTER_DOMAIN);
  reportKubeDnsFlags(deployment, configMapName, pod, push);
  reportSidecarFlags(deployment, push);
  const dnsmasqReading = deployment.dnsmasq;
  if (dnsmasqReading === undefined) {
    // No dnsmasq in the Pod: kubedns answered clients itself, and nothing cached its answers.
    push('cache-disabled', deployment.kubedns?.container ?? 'kubedns', 'containers', 'the Pod has no dnsmasq: kubedns answered clients itself and nothing cached answers, so the Corefile has no cache');
    return { ...EMPTY_PLAN, clusterDomain, noCache: true, throughDnsmasq: false, pod, diagnostics };
  }
  const name = dnsmasqReading.container;
  const nannySettings = dnsmasqReading.nanny?.settings ?? [];
  if (nannySettings.length > 0) {
    push('deployment-flag', name, nannySettings.map((setting) => flagText(setting, '-')).join(' '), "dnsmasq-nanny's own settings (where it reads the ConfigMap, restarts, logging): no bearing on answers");
  }
  for (const ignored of dnsmasqReading.nanny?.ignored ?? []) push('deployment-flag', name, ignored.value, 'dnsmasq-nanny stops reading its flags before this argument and ignores it');
  const dnsmasq = dnsmasqReading.dnsmasq;
  const kubedns = kubeDnsAddress(deployment);
  // The options as written (`-N` for --no-negcache), for the diagnostics' paths.
  const written = new Map<string, string[]>();
  for (const option of splitDnsmasqOptions(dnsmasqReading.dnsmasqArgs).options) {
    // Appended in place: copying the list per option was quadratic (20,000 --server flags: 13 s).
    const texts = written.get(option.name);
    if (texts === undefined) written.set(option.name, [option.text]);
    else texts.push(option.text);
  }
  const as = (name: string, fallback: string): string => [...new Set(written.get(name) ?? [fallback])].join(' ');
  const stubs = new Map<string, DeploymentServer[]>();
  const globalServers: DeploymentServer[] = [];
  const localOnly: DeploymentAddress[] = [];
  const toKubeDns = new Set<string>();
  const kubednsForwardZones: string[] = [];
  for (const server of dnsmasq.servers) {
    const text = server.option.text;
    if (server.target.kind === 'local-only' && server.domains !== undefined && !server.domains.includes('') && features.template) {
      // dnsmasq 2.90 answers NXDOMAIN for these names, unless a server address is given for the same domain (checked on loopback).
      for (const domain of server.domains) localOnly.push({ zone: domain.toLowerCase().replace(/\.$/, ''), address: undefined, text, localOnly: true });
      continue;
    }
    if (server.target.kind !== 'upstream') {
      const meaning =
        server.target.kind === 'local-only'
          ? 'answers these names from local data only (NXDOMAIN)'
          : server.target.kind === 'default-upstreams'
            ? 'sends these names to the ordinary upstreams'
            : 'has no address';
      push('deployment-flag-not-translated', name, text, `${text} ${meaning}; not translated`);
      continue;
    }
    const target = coreDnsTarget(server);
    if (server.target.source !== undefined) {
      push('deployment-flag-not-translated', name, text, `${text} sends from ${server.target.source}: CoreDNS cannot choose the source; the server is used without it`);
    }
    const written = serverAddressText(server.option);
    if (written !== undefined && written !== server.target.address && !written.includes(':')) {
      push('deployment-flag', name, text, `dnsmasq reads '${written}' as ${server.target.address} (inet_aton: a leading 0 is octal); translated to ${server.target.address}`);
    }
    if (server.domains === undefined) {
      if (`${server.target.address}#${server.target.port}` === kubedns) {
        // An unqualified server to kubedns (old manifests: `--no-resolv --server=127.0.0.1#10053`) sends every name there.
        push('deployment-flag', name, text, `every name goes to kubedns (${kubedns}), which forwarded names outside the cluster with its own resolver (${resolverText(pod)}): the Corefile does the same`);
      } else {
        globalServers.push({ target, text });
      }
      continue;
    }
    for (const domain of server.domains) {
      const zone = domain.toLowerCase().replace(/\.$/, '');
      if (`${server.target.address}#${server.target.port}` === kubedns) {
        toKubeDns.add(zone);
        const served = isWithin(zone, clusterDomain ?? DEFAULT_CLUSTER_DOMAIN) || KUBEDNS_REVERSE_ZONES.some((reverse) => isWithin(zone, reverse));
        push(
          'deployment-flag',
          name,
          text,
          served
            ? `'${zone}' goes to kubedns (${kubedns}): served by the kubernetes plugin`
            : `'${zone === '' ? '(unqualified names)' : zone}' goes to kubedns (${kubedns}), which has no records for it and forwarded the names with its own resolver; the Corefile does the same`,
        );
        if (!served && zone !== '' && !kubednsForwardZones.includes(zone)) kubednsForwardZones.push(zone);
        continue;
      }
      if (zone === '') {
        push('deployment-flag-not-translated', name, text, `${text} is for names without a dot; CoreDNS has no such zone`);
        continue;
      }
      const list = stubs.get(zone) ?? [];
      list.push({ target, text });
      stubs.set(zone, list);
    }
  }
  const kubeDnsServesAll = pod.everyNameToKubeDns;
  const unservedZones: string[] = [];
  if (dnsmasq.problem === undefined && !kubeDnsServesAll) {
    // kops templates sent in6.arpa (a typo) to kubedns: ip6.arpa went upstream. The translation reports the quirk.
    for (const zone of [clusterDomain ?? DEFAULT_CLUSTER_DOMAIN, ...KUBEDNS_REVERSE_ZONES]) if (!toKubeDns.has(zone) && !stubs.has(zone)) unservedZones.push(zone);
  } else if (dnsmasq.problem === undefined) {
    // Every name reached kubedns through dnsmasq's default server, which any domain of its own beats:
    // a zone of the cluster under a --server, --local or --address domain went there instead.
    for (const zone of [clusterDomain ?? DEFAULT_CLUSTER_DOMAIN, ...KUBEDNS_REVERSE_ZONES]) if (!toKubeDns.has(zone) && dnsmasqDomainOver(dnsmasq, kubedns, zone)) unservedZones.push(zone);
  }
  for (const [zone, servers] of stubs) {
    push('deployment-stub-server', name, servers.map((server) => server.text).join(' '), `'${zone}' → ${servers.map((server) => server.target).join(' ')} (merged with the ConfigMap's servers for it, if any)`);
  }
  let upstreams: DeploymentServer[] | undefined;
  if (globalServers.length > 0) {
    const list = globalServers.map((server) => server.text).join(' ');
    if (dnsmasq.noResolv) {
      upstreams = globalServers;
      push('deployment-upstream-server', name, `${list} ${as('no-resolv', '--no-resolv')}`, `--no-resolv: upstreams ${globalServers.map((server) => server.target).join(' ')} instead of the node's resolv.conf`);
    } else {
      upstreams = globalServers;
      push('deployment-upstream-server', name, list, `without --no-resolv, dnsmasq used ${globalServers.map((server) => server.target).join(' ')} beside the node's resolv.conf (unless the ConfigMap has upstreamNameservers: dnsmasq-nanny then adds --no-resolv); the Corefile forwards to both`);
    }
  } else if (kubeDnsServesAll) {
    push('deployment-flag', name, as('no-resolv', '--no-resolv'), `--no-resolv with kubedns as the only server: kubedns forwarded the names outside its zones (${resolverText(pod)}), as the Corefile does`);
  } else if (dnsmasq.noResolv) {
    push('deployment-flag', name, as('no-resolv', '--no-resolv'), '--no-resolv without servers of the manifest: the upstreams are the ConfigMap\'s (dnsmasq-nanny adds them with --no-resolv)');
  }
  const noNegativeCache = dnsmasq.noNegcache;
  const noCache = dnsmasq.cacheSize === 0;
  if (noCache) push('cache-disabled', name, as('cache-size', '--cache-size=0'), 'dnsmasq cached nothing: the Corefile has no cache');
  else if (dnsmasq.cacheSize !== undefined) push('deployment-flag', name, as('cache-size', `--cache-size=${dnsmasq.cacheSize}`), `dnsmasq held ${dnsmasq.cacheSize} names; CoreDNS's cache holds up to ${CACHE_DEFAULT_CAPACITY} answers per block (capacity not carried over)`);
  if (noNegativeCache && noCache) push('deployment-flag', name, as('no-negcache', '--no-negcache'), 'no negative caching, and --cache-size=0 turns every cache off anyway');
  if (noNegativeCache && !noCache) {
    if (noDenialCaching(features).exact) diagnostics.push(diagnostic('negative-caching-disabled', { key: `container ${name}`, path: `[${as('no-negcache', '--no-negcache')}]`, message: 'NXDOMAIN was never cached: every cache gets disable denial' }));
    else diagnostics.push({ ...shortenedNegativeCaching(`container ${name}`, features), path: `[${as('no-negcache', '--no-negcache')}]` });
  }
  if (dnsmasq.logQueries) push('dnsmasq-option-translated', name, as('log-queries', '--log-queries'), 'dnsmasq logged every query: every block gets log');
  let strictOrder = false;
  if (dnsmasq.strictOrder) {
    strictOrder = features.preferredForwarder === 'forward' && features.forwardPolicySequential;
    if (strictOrder) push('dnsmasq-option-translated', name, as('strict-order', '--strict-order'), 'servers tried in order: every forward gets policy sequential');
    else push('deployment-flag-not-translated', name, as('strict-order', '--strict-order'), `CoreDNS ${features.version} has no forward policy sequential (${firstReleaseWith((release) => release.forwardPolicySequential)}+); servers are picked at random`);
  }
  if (dnsmasq.allServers) push('deployment-flag-not-translated', name, as('all-servers', '--all-servers'), 'dnsmasq sent every query to all servers and took the first answer; CoreDNS forwards to one at a time');
  let maxConcurrent: number | undefined;
  if (dnsmasq.dnsForwardMax !== undefined) {
    if (features.forwardMaxConcurrent && features.preferredForwarder === 'forward' && dnsmasq.dnsForwardMax > 0) {
      maxConcurrent = dnsmasq.dnsForwardMax;
      push('dnsmasq-option-translated', name, as('dns-forward-max', `--dns-forward-max=${dnsmasq.dnsForwardMax}`), `at most ${dnsmasq.dnsForwardMax} queries in flight: every forward gets max_concurrent ${dnsmasq.dnsForwardMax} (a limit per forward, where dnsmasq had one for the process)`);
    } else {
      push('deployment-flag-not-translated', name, as('dns-forward-max', `--dns-forward-max=${dnsmasq.dnsForwardMax}`), `CoreDNS ${features.version} has no forward max_concurrent (${firstReleaseWith((release) => release.forwardMaxConcurrent)}+); no limit`);
    }
  }
  const addresses: DeploymentAddress[] = [];
  for (const entry of dnsmasq.addresses) {
    const text = entry.option.text;
    if (entry.domains === undefined || entry.address === '#' || entry.domains.includes('')) {
      push('deployment-flag-not-translated', name, text, `${text} is not translated (only --address=/domain/ip and --address=/domain/ are)`);
      continue;
    }
    if (!features.template) {
      push('deployment-flag-not-translated', name, text, `CoreDNS ${features.version} has no template plugin (${firstReleaseWith((release) => release.template)}+) to answer ${text}`);
      continue;
    }
    // Zones inside the cluster's too: dnsmasq answered them before kubedns saw them (a more specific domain wins).
    // Whether a template block answers them depends on the stub domains of the ConfigMap too: the translation says so (planTemplates).
    for (const domain of entry.domains) addresses.push({ zone: domain.toLowerCase().replace(/\.$/, ''), address: entry.address, text });
  }
  pushAll(addresses, localOnly);
  if (dnsmasq.domainNeeded) push('deployment-flag-not-translated', name, as('domain-needed', '--domain-needed'), 'dnsmasq never forwarded names without a dot; CoreDNS forwards them');
  if (dnsmasq.port !== undefined) push('deployment-flag', name, as('port', `--port=${dnsmasq.port}`), 'the port dnsmasq listened on inside the Pod; the Service maps clients to it');
  for (const option of dnsmasq.otherOptions) reportOtherOption(option, name, push);
  const unqualified = pod.dnsmasqTrailingDotUnqualified ? unqualifiedNames(dnsmasq) : undefined;
  return { clusterDomain, stubs, upstreams, besideResolvConf: !dnsmasq.noResolv, noNegativeCache, noCache, logQueries: dnsmasq.logQueries, strictOrder, maxConcurrent, addresses, throughDnsmasq: true, pod, unservedZones, kubednsForwardZones, unqualified, diagnostics };
}

/** Whether a `--server` (not to kubedns), `--local` or `--address` domain of dnsmasq holds `zone` (is it or a parent). */
function dnsmasqDomainOver(dnsmasq: DnsmasqSettings, kubedns: string, zone: string): boolean {
  const domains = [
    ...dnsmasq.servers.filter((server) => server.target.kind === 'local-only' || (server.target.kind === 'upstream' && `${server.target.address}#${server.target.port}` !== kubedns)).flatMap((server) => server.domains ?? []),
    ...dnsmasq.addresses.filter((entry) => entry.address !== '#').flatMap((entry) => entry.domains ?? []),
  ];
  return domains.some((domain) => domain !== '' && isWithin(zone, domain.toLowerCase().replace(/\.$/, '')));
}

/**
 * What dnsmasq 2.86+ does with names without a dot for the entries that apply to them as well (a
 * domain before the last ends in a dot): as for one zone, an address answers before servers, and
 * an NXDOMAIN entry (`--local`, `--address=/…/`) gives way to them.
 */
function unqualifiedNames(dnsmasq: DnsmasqSettings): UnqualifiedNames | undefined {
  const servers = dnsmasq.servers.filter((server) => server.trailingDotUnqualified);
  const addresses = dnsmasq.addresses.filter((entry) => entry.trailingDotUnqualified && entry.address !== '#');
  const address = addresses.find((entry) => entry.address !== undefined);
  if (address?.address !== undefined) return { kind: 'address', address: address.address, text: address.option.text };
  const upstream = servers.find((server) => server.target.kind === 'upstream');
  if (upstream !== undefined) return { kind: 'servers', text: upstream.option.text };
  const local = servers.find((server) => server.target.kind === 'local-only') ?? addresses[0];
  return local === undefined ? undefined : { kind: 'nxdomain', text: local.option.text };
}

/** The reverse zones kubedns serves (and the stock manifest sends it). */
const KUBEDNS_REVERSE_ZONES: readonly string[] = ['in-addr.arpa', 'ip6.arpa'];

/** dnsmasq options that do not change answers or routing. */
const HARMLESS_DNSMASQ_OPTIONS: ReadonlySet<string> = new Set([
  'keep-in-foreground',
  'no-daemon',
  'log-facility',
  'log-async',
  'dns-loop-detect',
  'user',
  'group',
  'pid-file',
  'bind-interfaces',
  'bind-dynamic',
  'listen-address',
  'interface',
  'except-interface',
  'log-dhcp',
  'no-poll',
  // The source ports of upstream queries.
  'min-port',
  'max-port',
  'query-port',
]);

function reportOtherOption(option: DnsmasqOption, container: string, push: (code: DiagnosticCode, container: string, path: string, message: string) => void): void {
  if (HARMLESS_DNSMASQ_OPTIONS.has(option.name)) {
    const note = option.name === 'dns-loop-detect' ? 'loop detection: the loop plugin does the same' : 'no bearing on answers';
    push('deployment-flag', container, option.text, `--${option.name}: ${note}`);
    return;
  }
  push('deployment-flag-not-translated', container, option.text, `--${option.name}${option.value === undefined ? '' : `=${option.value}`} is not translated`);
}

function flagText(setting: FlagSetting, dashes: string): string {
  return `${dashes}${setting.name}=${setting.value}`;
}

/** The cluster domain the Deployment says: kubedns's `--domain`, else the sidecar's probes. */
function planClusterDomain(deployment: KubeDnsDeployment, push: (code: DiagnosticCode, container: string, path: string, message: string) => void): string | undefined {
  const kubedns = deployment.kubedns;
  const fromFlag = kubedns === undefined ? undefined : (kubedns.args.values.domain ?? 'cluster.local.').replace(/\.$/, '');
  const probed = new Set<string>();
  for (const entry of deployment.sidecar?.args.probes ?? []) {
    const written = /^kubernetes\.default\.svc\.(.+)\.$/.exec(entry.probe.name)?.[1];
    if (written === undefined) continue;
    const domain = written.toLowerCase();
    // `kubernetes.default.svc...` names no domain: `..` would become the zone `.` (every name).
    if (isDns1123Subdomain(domain)) probed.add(domain);
    else push('deployment-flag-not-translated', deployment.sidecar?.container ?? 'sidecar', `--probe=${entry.setting.value}`, `the sidecar probes ${entry.probe.name}, whose domain '${written}' is not a DNS-1123 subdomain: not taken as the cluster domain`);
  }
  const fromProbe = probed.size === 1 ? [...probed][0] : undefined;
  const domain = fromFlag ?? fromProbe;
  if (domain === undefined) return undefined;
  const source = fromFlag !== undefined ? (kubedns?.args.values.domain === undefined ? 'kubedns without --domain (its default)' : `kubedns --domain=${kubedns.args.values.domain}`) : 'the sidecar\'s probes';
  push('cluster-domain-from-deployment', fromFlag !== undefined ? (kubedns?.container ?? 'kubedns') : (deployment.sidecar?.container ?? 'sidecar'), '--domain', `cluster domain ${domain} (from ${source})`);
  for (const other of probed) {
    if (other !== domain) push('deployment-flag', deployment.sidecar?.container ?? 'sidecar', '--probe', `the sidecar probes kubernetes.default.svc.${other}, not in the cluster domain ${domain}: its health check failed`);
  }
  return domain;
}

function reportKubeDnsFlags(deployment: KubeDnsDeployment, configMapName: string | undefined, pod: KubeDnsPod, push: (code: DiagnosticCode, container: string, path: string, message: string) => void): void {
  const kubedns = deployment.kubedns;
  if (kubedns === undefined) return;
  const { values } = kubedns.args;
  const name = kubedns.container;
  if (values.dnsPort !== undefined) push('deployment-flag', name, `--dns-port=${values.dnsPort}`, 'the port dnsmasq reached kubedns on, inside the Pod; the kubernetes plugin takes its place');
  if (values.dnsBindAddress !== undefined) push('deployment-flag', name, `--dns-bind-address=${values.dnsBindAddress}`, 'where kubedns listened inside the Pod');
  if (values.configDir !== undefined) push('deployment-flag', name, `--config-dir=${values.configDir}`, 'kubedns read its ConfigMap from this mounted directory: translate that ConfigMap');
  if (values.configMap !== undefined) {
    push('deployment-flag', name, `--config-map=${values.configMap}`, `kubedns read ConfigMap ${values.configMapNamespace ?? 'kube-system'}/${values.configMap} from the API: translate that one`);
    if (configMapName !== undefined && configMapName !== values.configMap) {
      push('deployment-flag-not-translated', name, `--config-map=${values.configMap}`, `kubedns read ConfigMap ${values.configMap}, but the ConfigMap given is ${configMapName}`);
    }
  }
  if (values.configMap === undefined && values.configDir === undefined) {
    // cmd/kube-dns/app/server.go: without either, kubedns takes federations and upstreams from its flags.
    push(
      'deployment-flag-not-translated',
      name,
      '--config-dir',
      `kubedns has neither --config-dir nor --config-map: it read no ConfigMap (its federations were not in effect, --federations and --nameservers were)${pod.nannyAppliesConfigMap ? '; dnsmasq-nanny still applied stubDomains and upstreamNameservers from its own mount' : ''}`,
    );
  }
  if (values.nameservers !== undefined) {
    push(
      pod.kubednsUpstreams.kind === 'nameservers' ? 'deployment-flag' : 'deployment-flag-not-translated',
      name,
      `--nameservers=${values.nameservers}`,
      pod.kubednsUpstreams.kind === 'nameservers'
        ? `kubedns forwarded the names it does not serve to these servers (kube-dns ${pod.kubeDnsVersion}); the Corefile does the same`
        : `kube-dns ${pod.kubeDnsVersion} reads a ConfigMap, so kubedns ignored --nameservers (from 1.14.10 its upstreams are the ConfigMap's)`,
    );
  }
  if (values.federations !== undefined && values.federations.size > 0) {
    push('deployment-flag-not-translated', name, '--federations', `federations ${[...values.federations.keys()].join(', ')} from the flag are not translated; put them in the ConfigMap's federations key`);
  }
  const other = kubedns.args.otherSettings.map((setting) => `--${setting.name}`);
  if (other.length > 0) push('deployment-flag', name, other.join(' '), 'API access, health port, timers and logging: no bearing on answers');
  for (const positional of kubedns.args.positional) push('deployment-flag', name, positional.value, 'an argument kube-dns accepts and ignores');
}

function reportSidecarFlags(deployment: KubeDnsDeployment, push: (code: DiagnosticCode, container: string, path: string, message: string) => void): void {
  const sidecar = deployment.sidecar;
  if (sidecar === undefined) return;
  const flags = [...sidecar.args.probes.map((entry) => entry.setting), ...sidecar.args.otherSettings].map((setting) => `--${setting.name}`);
  if (flags.length > 0) push('deployment-flag', sidecar.container, [...new Set(flags)].join(' '), 'health probes and metrics of the sidecar: CoreDNS has health, ready and prometheus');
  for (const positional of sidecar.args.positional) push('deployment-flag', sidecar.container, positional.value, 'an argument the sidecar accepts and ignores');
}

/** The address part of a `--server` value as written (after the domains, before `#` and `@`). */
function serverAddressText(option: DnsmasqOption): string | undefined {
  const value = option.value ?? '';
  const afterDomains = value.startsWith('/') ? value.slice(value.lastIndexOf('/') + 1) : value;
  return afterDomains.split('@')[0]?.split('#')[0];
}

/** `ip`, `ip:port` or `[v6]:port`: a CoreDNS destination for a dnsmasq upstream. */
function coreDnsTarget(server: ServerEntry): string {
  if (server.target.kind !== 'upstream') return '';
  const { address, port } = server.target;
  const ipv6 = address.includes(':');
  if (port === 53) return address;
  return ipv6 ? `[${address}]:${port}` : `${address}:${port}`;
}

/** Where kubedns's own resolver sent names, for messages. */
function resolverText(pod: KubeDnsPod): string {
  switch (pod.kubednsUpstreams.kind) {
    case 'configmap':
      return `kube-dns ${pod.kubeDnsVersion}: the ConfigMap's upstreamNameservers, else the Pod's resolv.conf`;
    case 'nameservers':
      return `its --nameservers ${pod.kubednsUpstreams.servers.join(',')}`;
    case 'resolv.conf':
      return `kube-dns ${pod.kubeDnsVersion}: the Pod's resolv.conf`;
  }
}
