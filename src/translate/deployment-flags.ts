/**
 * The plan stage's first step: what the kube-dns Deployment's container arguments mean for the
 * Corefile (docs/kube-dns-deployment.md, "What each flag becomes"): the cluster domain, dnsmasq's
 * extra servers, its caching and its logging. The options' meanings are the rows of
 * deployment-effects.ts; this module walks them and plans the servers. Every flag ends up in the
 * plan or in a diagnostic: none is dropped without a word.
 */
import { firstReleaseWith, noDenialCaching } from '../coredns/features.js';
import type { CoreDnsFeatures } from '../coredns/features.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { DiagnosticCode } from '../diagnostics/codes.js';
import type { AddressEntry, DnsmasqSettings, ServerEntry } from '../kubedns/dnsmasq-options.js';
import type { KubeDnsDeployment } from '../kubedns/kube-dns-install.js';
import { KUBE_DNS_RULE_TIMELINES, kubeDnsRules } from '../kubedns/kube-dns-versions.js';
import { firstReleaseWhere } from '../util/release-profile.js';
import { pushAll } from '../util/lists.js';
import { isDns1123Subdomain } from '../dns/go-net.js';
import { kubeDnsPod } from '../kubedns/kube-dns-pod.js';
import type { KubeDnsPod } from '../kubedns/kube-dns-pod.js';
import { DEFAULT_CLUSTER_DOMAIN, isWithin } from '../dns/zones.js';
import { DNSMASQ_EFFECTS, HARMLESS_DNSMASQ_OPTIONS, IGNORED_ARGUMENTS, KUBEDNS_EFFECTS, resolverText, SERVER_WITHOUT_UPSTREAM, shortenedNegativeCachingMessage } from './deployment-effects.js';
import type { DnsmasqFacts, EffectRow, KubednsFacts, OptionPlanFields } from './deployment-effects.js';
import type { TranslateInput } from './options.js';

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
  /**
   * Zones of `--server=/zone/#`: dnsmasq sent their names to its default servers (those of no
   * domain), even under a more general domain of its own (docs/kube-dns-deployment.md, "The default servers for a zone").
   */
  readonly defaultZones: readonly DeploymentServer[];
  /**
   * The domains (`''` for `#`, every domain) of the `--address` flags with an address (IPv4, IPv6,
   * `#`) under which the Pod's dnsmasq (2.86+) turned a server's NXDOMAIN into NOERROR without
   * records; empty for an older dnsmasq (docs/kube-dns-deployment.md, "NXDOMAIN under an address").
   */
  readonly noDataZones: readonly { readonly zone: string; readonly text: string }[];
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
  /** The same for the entries written for names without a dot (`//`) only: what stays when `trailing-dot-domains` is repaired. */
  readonly unqualifiedWritten: UnqualifiedNames | undefined;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * See {@link DeploymentPlan.unqualified}; `text` is the option as written; `quirk`: an entry applies
 * because of `trailing-dot-domains` (not written `//`).
 */
export type UnqualifiedNames = (
  | { readonly kind: 'nxdomain'; readonly text: string }
  /**
   * `address`: IPv4, IPv6 or `#` (both null addresses). `otherTypes`: what the query types of no
   * address get — NODATA beside an NXDOMAIN entry (or before dnsmasq 2.86), the servers that apply,
   * else REFUSED (dnsmasq 2.86+).
   */
  | {
      readonly kind: 'address';
      /** The first address written (for messages). */
      readonly address: string;
      /**
       * The records per type, in the order dnsmasq 2.86+ serves an ANY query from (IPv6 addresses,
       * IPv4 addresses, then what `#` adds for a family without one): every address of a family answers.
       */
      readonly answers: readonly { readonly type: 'A' | 'AAAA'; readonly values: readonly string[] }[];
      readonly text: string;
      readonly otherTypes: 'nodata' | 'servers' | 'refused';
    }
  | { readonly kind: 'servers'; readonly text: string }
) & { readonly quirk: boolean };

/**
 * The stock manifest of kube-dns `kubeDnsVersion` (kubernetes/kubernetes `cluster/addons/dns/`):
 * its dnsmasq runs with `--no-negcache` from Kubernetes 1.9 on (kubernetes/kubernetes#53604,
 * October 2017), whose manifest shipped kube-dns 1.14.7; older manifests cached NXDOMAIN.
 */
function stockDeploymentPlan(kubeDnsVersion: string, clusterDomainOption: string | undefined, features: CoreDnsFeatures): DeploymentPlan {
  const noNegativeCache = kubeDnsRules(kubeDnsVersion).stockManifestNoNegcache;
  const domain = `cluster domain ${clusterDomainOption ?? 'cluster.local'}`;
  const diagnostics: Diagnostic[] = [
    diagnostic('kube-dns-deployment-assumed', {
      message: noNegativeCache
        ? `no Deployment given: assuming the stock kube-dns ${kubeDnsVersion} manifest (${domain}, dnsmasq with --no-negcache: NXDOMAIN never cached)`
        : `no Deployment given: assuming the stock kube-dns ${kubeDnsVersion} manifest (${domain}; dnsmasq without --no-negcache before kube-dns ${STOCK_NO_NEGCACHE_FROM}: NXDOMAIN cached)`,
    }),
  ];
  if (noNegativeCache && !noDenialCaching(features).exact) diagnostics.push(diagnostic('negative-caching-shortened', { key: 'stock manifest', message: shortenedNegativeCachingMessage(features) }));
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
  defaultZones: [],
  noDataZones: [],
  besideResolvConf: false,
  throughDnsmasq: true,
  unservedZones: [],
  kubednsForwardZones: [],
  unqualified: undefined,
  unqualifiedWritten: undefined,
  diagnostics: [],
};



/** The Pod's plan and the cluster domain the translation serves (the Deployment's, or the option's when they disagree and it was given). */
export interface PodPlan {
  readonly plan: DeploymentPlan;
  readonly clusterDomain: string;
}

/**
 * The plan of the kube-dns Pod: `deployment`'s (undefined: the stock manifest's) for the resolved
 * options. A `--domain` other than the cluster domain option is a `cluster-domain-conflict`: an
 * error, or with `force` a warning, the option winning.
 */
export function planKubeDnsPod(deployment: KubeDnsDeployment | undefined, input: TranslateInput, configMapName?: string): PodPlan {
  if (deployment === undefined) return { plan: stockDeploymentPlan(input.kubeDnsRules.version, input.clusterDomainOption, input.features), clusterDomain: input.clusterDomain };
  const planned = planDeployment(deployment, input.features, input.kubeDnsRules.version, configMapName);
  const imageVersion = input.kubeDnsVersionFromImage;
  const imageKey = `container ${deployment.kubedns?.container ?? 'kubedns'}`;
  const imageNotes = [
    ...(input.kubeDnsVersionAssumed === undefined ? [] : [diagnostic('kube-dns-release-assumed', { key: imageKey, path: '[image]', message: input.kubeDnsVersionAssumed })]),
    ...(imageVersion === undefined || input.kubeDnsVersionAssumed !== undefined ? [] : [diagnostic('deployment-flag', { key: imageKey, path: '[image]', message: `kube-dns ${imageVersion} (the image's tag): the ConfigMap is validated with its rules` })]),
  ];
  const plan = imageNotes.length === 0 ? planned : { ...planned, diagnostics: [...imageNotes, ...planned.diagnostics] };
  const optionDomain = input.clusterDomain;
  if (plan.clusterDomain === undefined || plan.clusterDomain === optionDomain) return { plan, clusterDomain: plan.clusterDomain ?? optionDomain };
  if (input.clusterDomainOption === undefined) return { plan, clusterDomain: plan.clusterDomain };
  // Points at kubedns's last --domain as written, when there is one.
  const setting = deployment.kubedns?.args.lastSettings.get('domain');
  const written = setting === undefined ? undefined : deployment.kubedns?.written?.[setting.index];
  const conflict = diagnostic('cluster-domain-conflict', {
    ...(written === undefined ? {} : { key: written.key, path: written.path, ...(written.location === undefined ? {} : { location: written.location }) }),
    message: `--cluster-domain ${optionDomain}, but the Deployment serves ${plan.clusterDomain}`,
    ...(input.force ? { severity: 'warning' as const, hint: `Translated with ${optionDomain} (--force).` } : {}),
  });
  return { plan: { ...plan, diagnostics: [conflict, ...plan.diagnostics] }, clusterDomain: optionDomain };
}

/** The plan for `deployment`, its diagnostics in the order of the containers' arguments. */
function planDeployment(deployment: KubeDnsDeployment, features: CoreDnsFeatures, kubeDnsVersion: string, configMapName?: string): DeploymentPlan {
  const diagnostics: Diagnostic[] = [];
  const push = (code: DiagnosticCode, container: string, path: string, message: string) => diagnostics.push(diagnostic(code, { key: `container ${container}`, path: `[${path}]`, message }));
  const clusterDomain = planClusterDomain(deployment, push);
  const pod = kubeDnsPod(deployment, kubeDnsVersion, clusterDomain ?? DEFAULT_CLUSTER_DOMAIN);
  const { kubedns, sidecar } = deployment;
  if (kubedns !== undefined) {
    const facts: KubednsFacts = { args: kubedns.args, pod, configMapName };
    for (const row of KUBEDNS_EFFECTS) if (row.when(facts, features)) push(row.code, kubedns.container, pathOf(row, facts, () => `--${row.option}`), row.message(facts, features));
    reportIgnored(IGNORED_ARGUMENTS.kubedns, kubedns.container, kubedns.args.otherSettings.map((setting) => `--${setting.name}`), kubedns.args.positional, push);
  }
  if (sidecar !== undefined) {
    const flags = [...sidecar.args.probes.map((entry) => entry.setting), ...sidecar.args.otherSettings].map((setting) => `--${setting.name}`);
    reportIgnored(IGNORED_ARGUMENTS.sidecar, sidecar.container, [...new Set(flags)], sidecar.args.positional, push);
  }
  const dnsmasqReading = deployment.dnsmasq;
  if (dnsmasqReading === undefined) {
    // No dnsmasq in the Pod: kubedns answered clients itself, and nothing cached its answers.
    push('cache-disabled', deployment.kubedns?.container ?? 'kubedns', 'containers', 'the Pod has no dnsmasq: kubedns answered clients itself and nothing cached answers, so the Corefile has no cache');
    return { ...EMPTY_PLAN, clusterDomain, noCache: true, throughDnsmasq: false, pod, diagnostics };
  }
  const name = dnsmasqReading.container;
  reportIgnored(IGNORED_ARGUMENTS.nanny, name, (dnsmasqReading.nanny?.settings ?? []).map((setting) => `-${setting.name}=${setting.value}`), dnsmasqReading.nanny?.ignored ?? [], push);
  const dnsmasq = dnsmasqReading.dnsmasq;
  const servers = planServers(dnsmasq, pod, clusterDomain ?? DEFAULT_CLUSTER_DOMAIN, features, (code, path, message) => push(code, name, path, message));
  // How each option was written (`-N` for --no-negcache), for the diagnostics' paths: the reader kept it.
  const spelled = (option: string): string => [...new Set((dnsmasq.spellings.get(option) ?? []).map((entry) => entry.text))].join(' ') || `--${option}`;
  const facts: DnsmasqFacts = { settings: dnsmasq, upstreams: servers.upstreams, pod };
  const fields: { -readonly [Field in keyof OptionPlanFields]: OptionPlanFields[Field] } = {};
  const addresses: DeploymentAddress[] = [];
  for (const row of DNSMASQ_EFFECTS) {
    if ('entries' in row) planAddresses(dnsmasq, features, addresses, (code, path, message) => push(code, name, path, message));
    else if (row.when(facts, features)) {
      if (row.sets !== undefined) Object.assign(fields, row.sets(facts));
      push(row.code, name, pathOf(row, facts, spelled), row.message(facts, features));
    }
  }
  pushAll(addresses, servers.localOnly);
  for (const option of dnsmasq.otherOptions) {
    const note = HARMLESS_DNSMASQ_OPTIONS.get(option.name);
    if (note !== undefined) push('deployment-flag', name, option.text, `--${option.name}: ${note}`);
    else push('deployment-flag-not-translated', name, option.text, `--${option.name}${option.value === undefined ? '' : `=${option.value}`} is not translated`);
  }
  return {
    clusterDomain,
    stubs: servers.stubs,
    upstreams: servers.upstreams.length > 0 ? servers.upstreams : undefined,
    besideResolvConf: !dnsmasq.noResolv,
    noNegativeCache: fields.noNegativeCache ?? false,
    noCache: fields.noCache ?? false,
    logQueries: fields.logQueries ?? false,
    strictOrder: fields.strictOrder ?? false,
    maxConcurrent: fields.maxConcurrent,
    addresses,
    defaultZones: servers.defaultZones,
    noDataZones: pod.dnsmasqAddressTypesOnly
      ? dnsmasq.addresses.flatMap((entry) => (entry.address === undefined || entry.domains === undefined ? [] : entry.domains.filter((domain) => domain !== '').map((domain) => ({ zone: domain === '#' ? '' : domain.toLowerCase().replace(/^\.+/, '').replace(/\.$/, ''), text: entry.option.text }))))
      : [],
    throughDnsmasq: true,
    pod,
    unservedZones: servers.unservedZones,
    kubednsForwardZones: servers.kubednsForwardZones,
    unqualified: unqualifiedNames(dnsmasq, (entry) => writtenUnqualified(entry) || (pod.dnsmasqTrailingDotUnqualified && entry.trailingDotUnqualified), pod.dnsmasqAddressTypesOnly),
    unqualifiedWritten: unqualifiedNames(dnsmasq, writtenUnqualified, pod.dnsmasqAddressTypesOnly),
    diagnostics,
  };
}

/** A row's diagnostic path: the option as `spelled`, unless the row says otherwise. */
function pathOf<Facts>(row: EffectRow<Facts>, facts: Facts, spelled: (option: string) => string): string {
  const spelling = spelled(row.option);
  return row.path === undefined ? spelling : row.path(facts, spelling);
}

/** One diagnostic for a container's settings without a bearing on answers, one per positional argument. */
function reportIgnored(
  say: { readonly settings: string; readonly positional: string },
  container: string,
  settings: readonly string[],
  positional: readonly { readonly value: string }[],
  push: (code: DiagnosticCode, container: string, path: string, message: string) => void,
): void {
  if (settings.length > 0) push('deployment-flag', container, settings.join(' '), say.settings);
  for (const argument of positional) push('deployment-flag', container, argument.value, say.positional);
}

/** What dnsmasq's `--server`s come to: stub zones, upstreams, the zones kubedns served or forwarded. */
interface PlannedServers {
  readonly stubs: Map<string, DeploymentServer[]>;
  readonly upstreams: DeploymentServer[];
  readonly localOnly: DeploymentAddress[];
  /** `--server=/zone/#`: `target` is the zone. */
  readonly defaultZones: DeploymentServer[];
  readonly unservedZones: string[];
  readonly kubednsForwardZones: string[];
}

function planServers(dnsmasq: DnsmasqSettings, pod: KubeDnsPod, clusterDomain: string, features: CoreDnsFeatures, push: (code: DiagnosticCode, path: string, message: string) => void): PlannedServers {
  const kubedns = pod.kubednsAddress;
  const stubs = new Map<string, DeploymentServer[]>();
  const upstreams: DeploymentServer[] = [];
  const localOnly: DeploymentAddress[] = [];
  const defaultZones: DeploymentServer[] = [];
  const toKubeDns = new Set<string>();
  const kubednsForwardZones: string[] = [];
  for (const server of dnsmasq.servers) {
    const text = server.option.text;
    // `''` (`//`) is names without a dot: planned apart (unqualifiedNames), but for `//#`.
    if (server.domains?.includes('') === true && server.target.kind === 'default-upstreams') {
      push('deployment-flag-not-translated', text, `${text} sends names without a dot to the ordinary upstreams, where they go anyway; dnsmasq 2.90 stops (a segmentation fault) at the first query for such a name with it, so the Pod restarted then: not translated`);
    }
    const domains = server.domains?.filter((domain) => domain !== '');
    if (domains !== undefined && domains.length === 0) continue;
    if (server.target.kind === 'local-only' && domains !== undefined && features.template) {
      // dnsmasq 2.90 answers NXDOMAIN for these names, unless a server address is given for the same domain (checked on loopback).
      for (const domain of domains) localOnly.push({ zone: domain.toLowerCase().replace(/\.$/, ''), address: undefined, text, localOnly: true });
      continue;
    }
    if (server.target.kind === 'default-upstreams' && domains !== undefined && !domains.includes('#')) {
      // dnsmasq 2.90 (option.c: `#` sets SERV_USE_RESOLV; domain-match.c: such a domain sends its names to the servers of no domain).
      for (const domain of domains) {
        const zone = domain.toLowerCase().replace(/\.$/, '');
        defaultZones.push({ target: zone, text });
        push('deployment-flag', text, `'${zone}' goes to dnsmasq's default servers (those of no domain), even under a more general domain of its own: a block for it forwards where the main block does`);
      }
      continue;
    }
    if (server.target.kind !== 'upstream') {
      push('deployment-flag-not-translated', text, `${text} ${SERVER_WITHOUT_UPSTREAM[server.target.kind]}; not translated`);
      continue;
    }
    const target = coreDnsTarget(server.target);
    if (server.target.source !== undefined) {
      push('deployment-flag-not-translated', text, `${text} sends from ${server.target.source}: CoreDNS cannot choose the source; the server is used without it`);
    }
    const { written } = server.target;
    if (written !== server.target.address && !written.includes(':')) {
      push('deployment-flag', text, `dnsmasq reads '${written}' as ${server.target.address} (inet_aton: a leading 0 is octal); translated to ${server.target.address}`);
    }
    if (domains === undefined) {
      if (`${server.target.address}#${server.target.port}` === kubedns) {
        // An unqualified server to kubedns (old manifests: `--no-resolv --server=127.0.0.1#10053`) sends every name there.
        push('deployment-flag', text, `every name goes to kubedns (${kubedns}), which forwarded names outside the cluster with its own resolver (${resolverText(pod)}): the Corefile does the same`);
      } else {
        upstreams.push({ target, text });
      }
      continue;
    }
    for (const domain of domains) {
      const zone = domain.toLowerCase().replace(/\.$/, '');
      if (`${server.target.address}#${server.target.port}` === kubedns) {
        toKubeDns.add(zone);
        const served = isWithin(zone, clusterDomain) || KUBEDNS_REVERSE_ZONES.some((reverse) => isWithin(zone, reverse));
        push(
          'deployment-flag',
          text,
          served
            ? `'${zone}' goes to kubedns (${kubedns}): served by the kubernetes plugin`
            : `'${zone === '' ? '(unqualified names)' : zone}' goes to kubedns (${kubedns}), which has no records for it and forwarded the names with its own resolver; the Corefile does the same`,
        );
        if (!served && zone !== '' && !kubednsForwardZones.includes(zone)) kubednsForwardZones.push(zone);
        continue;
      }
      const list = stubs.get(zone) ?? [];
      list.push({ target, text });
      stubs.set(zone, list);
    }
  }
  const unservedZones: string[] = [];
  if (dnsmasq.problem === undefined && !pod.everyNameToKubeDns) {
    // kops templates sent in6.arpa (a typo) to kubedns: ip6.arpa went upstream. The translation reports the quirk.
    for (const zone of [clusterDomain, ...KUBEDNS_REVERSE_ZONES]) if (!toKubeDns.has(zone) && !stubs.has(zone)) unservedZones.push(zone);
  } else if (dnsmasq.problem === undefined) {
    // Every name reached kubedns through dnsmasq's default server, which any domain of its own beats:
    // a zone of the cluster under a --server, --local or --address domain went there instead.
    for (const zone of [clusterDomain, ...KUBEDNS_REVERSE_ZONES]) if (!toKubeDns.has(zone) && dnsmasqDomainOver(dnsmasq, kubedns, zone)) unservedZones.push(zone);
  }
  for (const [zone, servers] of stubs) {
    push('deployment-stub-server', servers.map((server) => server.text).join(' '), `'${zone}' → ${servers.map((server) => server.target).join(' ')} (merged with the ConfigMap's servers for it, if any)`);
  }
  return { stubs, upstreams, localOnly, defaultZones, unservedZones, kubednsForwardZones };
}

/** `--address=/zone/[ip]`: a fixed answer per zone, where the target has the template plugin. */
function planAddresses(dnsmasq: DnsmasqSettings, features: CoreDnsFeatures, addresses: DeploymentAddress[], push: (code: DiagnosticCode, path: string, message: string) => void): void {
  for (const entry of dnsmasq.addresses) {
    const text = entry.option.text;
    // `''` (`//`) is names without a dot: planned apart (unqualifiedNames).
    const domains = entry.domains?.filter((domain) => domain !== '');
    if (domains !== undefined && domains.length === 0) continue;
    if (domains === undefined) {
      push('deployment-flag-not-translated', text, `${text} is not translated (only --address=/domain/ip, --address=/domain/# and --address=/domain/ are)`);
      continue;
    }
    if (domains.includes('#')) {
      push('deployment-address-every-name', text, `${text}: '#' is every domain (dnsmasq answered the address for every name no other domain holds); without it every outside name would go upstream: not translated`);
      continue;
    }
    if (!features.template) {
      push('deployment-flag-not-translated', text, `CoreDNS ${features.version} has no template plugin (${firstReleaseWith((release) => release.template)}+) to answer ${text}`);
      continue;
    }
    // Zones inside the cluster's too: dnsmasq answered them before kubedns saw them (a more specific domain wins).
    // Whether a template block answers them depends on the stub domains of the ConfigMap too: the translation says so (planTemplates).
    for (const domain of domains) addresses.push({ zone: domain.toLowerCase().replace(/\.$/, ''), address: entry.address, text });
  }
}

/** The reverse zones kubedns serves (and the stock manifest sends it). */
const KUBEDNS_REVERSE_ZONES: readonly string[] = ['in-addr.arpa', 'ip6.arpa'];

/** The cluster domain the Deployment says: kubedns's `--domain`, else the sidecar's probes. */
function planClusterDomain(deployment: KubeDnsDeployment, push: (code: DiagnosticCode, container: string, path: string, message: string) => void): string | undefined {
  const kubedns = deployment.kubedns;
  const fromFlag = kubedns === undefined ? undefined : (kubedns.args.values.domain ?? 'cluster.local.').replace(/\.$/, '');
  const probed = new Set<string>();
  for (const entry of deployment.sidecar?.args.probes ?? []) {
    const written = /^kubernetes\.default\.svc\.(.*)\.$/.exec(entry.probe.name)?.[1];
    if (written === undefined) continue;
    const domain = written.toLowerCase();
    // `kubernetes.default.svc...` names no domain: `..` would become the zone `.` (every name); `svc..` names an empty one.
    if (isDns1123Subdomain(domain)) probed.add(domain);
    else push('deployment-flag-not-translated', deployment.sidecar?.container ?? 'sidecar', `--probe=${entry.setting.value}`, `the sidecar probes ${entry.probe.name}, whose domain '${written}' ${written === '' ? 'is empty' : 'is not a DNS-1123 subdomain'}: not taken as the cluster domain`);
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

/** `ip`, `ip:port` or `[v6]:port`: a CoreDNS destination for a dnsmasq upstream. */
function coreDnsTarget(target: { readonly address: string; readonly port: number }): string {
  const { address, port } = target;
  const ipv6 = address.includes(':');
  if (port === 53) return address;
  return ipv6 ? `[${address}]:${port}` : `${address}:${port}`;
}

/** Whether a `--server` (not to kubedns), `--local` or `--address` domain of dnsmasq holds `zone` (is it or a parent). */
function dnsmasqDomainOver(dnsmasq: DnsmasqSettings, kubedns: string, zone: string): boolean {
  const domains = [
    ...dnsmasq.servers.filter((server) => server.target.kind === 'local-only' || (server.target.kind === 'upstream' && `${server.target.address}#${server.target.port}` !== kubedns)).flatMap((server) => server.domains ?? []),
    ...dnsmasq.addresses.flatMap((entry) => entry.domains ?? []),
  ];
  return domains.some((domain) => domain !== '' && isWithin(zone, domain.toLowerCase().replace(/\.$/, '')));
}

/** Whether a `--server`, `--local` or `--address` is written for names without a dot (an empty domain, `//`). */
function writtenUnqualified(entry: { readonly domains: readonly string[] | undefined }): boolean {
  return entry.domains?.includes('') === true;
}

/**
 * What dnsmasq does with names without a dot under the entries that `apply` to them (`//`, and with
 * dnsmasq 2.86+ a domain list with a dot before its last): dnsmasq 2.86+ as for one domain — an
 * address answers its types first, then servers, then an NXDOMAIN entry (`--local`,
 * `--address=/…/`), and a type none of them serves is REFUSED; before 2.86 an address answers
 * NODATA for its other types and an NXDOMAIN entry wins over servers (docs/kube-dns-deployment.md,
 * "Names without a dot").
 */
function unqualifiedNames(dnsmasq: DnsmasqSettings, apply: (entry: ServerEntry | AddressEntry) => boolean, newRules: boolean): UnqualifiedNames | undefined {
  const servers = dnsmasq.servers.filter(apply);
  const addresses = dnsmasq.addresses.filter(apply);
  const quirk = [...servers, ...addresses].some((entry) => !writtenUnqualified(entry));
  const address = addresses.find((entry) => entry.address !== undefined);
  const upstream = servers.find((server) => server.target.kind === 'upstream');
  const nxdomain = servers.find((server) => server.target.kind === 'local-only') ?? addresses.find((entry) => entry.address === undefined);
  if (address?.address !== undefined) {
    // dnsmasq 2.86+ answers the address's type only (docs/kube-dns-deployment.md, "Query types of an address").
    const otherTypes = !newRules || (upstream === undefined && nxdomain !== undefined) ? 'nodata' : upstream !== undefined ? 'servers' : 'refused';
    // Measured with 2.90: every address of a family answers; `#` answers a family no address has.
    const written = addresses.flatMap((entry) => (entry.address === undefined || entry.address === '#' ? [] : [entry.address]));
    const v6 = written.filter((value) => value.includes(':'));
    const v4 = written.filter((value) => !value.includes(':'));
    const zeros = addresses.some((entry) => entry.address === '#');
    const answers: { readonly type: 'A' | 'AAAA'; readonly values: readonly string[] }[] = [
      ...(v6.length > 0 ? [{ type: 'AAAA' as const, values: v6 }] : []),
      ...(v4.length > 0 ? [{ type: 'A' as const, values: v4 }] : []),
      ...(zeros && v4.length === 0 ? [{ type: 'A' as const, values: ['0.0.0.0'] }] : []),
      ...(zeros && v6.length === 0 ? [{ type: 'AAAA' as const, values: ['::'] }] : []),
    ];
    return { kind: 'address', address: address.address, answers, text: address.option.text, otherTypes, quirk };
  }
  if (upstream !== undefined && (newRules || nxdomain === undefined)) return { kind: 'servers', text: upstream.option.text, quirk };
  return nxdomain === undefined ? undefined : { kind: 'nxdomain', text: nxdomain.option.text, quirk };
}
