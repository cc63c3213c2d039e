/**
 * The translator's plan stage: from the ConfigMap as kube-dns read it and the Pod's plan
 * (deployment-flags.ts), what the Corefile will be — every block, what it forwards to, its cache
 * and log — with a diagnostic for every decision. Data only: the render stage (render.ts) writes
 * the model from it; nothing here calls back into the reading or the options.
 */
import { classifyToken } from '../corefile/printer.js';
import { diagnostic, hasErrors } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { inetAton } from '../kubedns/dnsmasq-options.js';
import type { KubeDnsQuirk } from '../kubedns/kube-dns-quirks.js';
import type { FederationEntry, KubeDnsConfig, StubDomainEntry, ValueEntry } from '../kubedns/read-kube-dns-config.js';
import type { CoreDnsFeatures } from '../coredns/features.js';
import { KUBERNETES_DEFAULT_REVERSE_ZONES } from '../coredns/kubernetes-default-corefile.js';
import { isLoopback, isSameAddress, readForwardTarget } from '../coredns/forward-targets.js';
import type { ForwardTarget } from '../coredns/forward-targets.js';
import { isStrictAncestor, isWithin, normalizeZone } from '../dns/zones.js';
import { HEALTH_DEFAULT_ADDRESS } from '../coredns/listen-addresses.js';
import type { DeploymentPlan, DeploymentServer, PodPlan } from './deployment-flags.js';
import type { TranslateInput } from './options.js';
import { apexAddressTemplates, apexTemplates, planUnqualifiedNames, unqualifiedInEffect } from './unqualified-names.js';
import type { Directive } from '../corefile/model.js';
import { pushAll } from '../util/lists.js';

/** Port of every server block: the main block's, as in Kubernetes' default. */
export const DNS_PORT = '53';
const RESOLV_CONF = '/etc/resolv.conf';

/** A stub block: its zone and the forward's destinations (`ip`, `ip:port`, a host name, `/etc/resolv.conf`). */
export interface PlannedStub {
  readonly zone: string;
  readonly targets: readonly { readonly text: string }[];
}

/**
 * A template block for a dnsmasq `--address`/`--local` zone: the addresses it answers (none:
 * NXDOMAIN for every type), with the first flag as written, and what its other query types get.
 */
export interface PlannedTemplate {
  readonly zone: string;
  readonly text: string;
  /** The addresses per query type (`A`, `AAAA`), every one of a type answering; empty: NXDOMAIN for every type. */
  readonly answers: readonly { readonly type: 'A' | 'AAAA'; readonly address: string }[];
  /**
   * The type whose template comes first, answering an ANY query: the family of the written IPv6
   * addresses, else of the IPv4 ones, else (`#` alone) AAAA — as dnsmasq 2.90 answers ANY.
   */
  readonly anyFirst?: 'A' | 'AAAA';
  /** The other query types of a zone with answers (docs/kube-dns-deployment.md, "Query types of an address"). */
  readonly otherTypes: TemplateOtherTypes;
  /** Templates for the zone's own name, of one label, before `otherTypes` (what dnsmasq applied to names without a dot). */
  readonly apex?: readonly Directive[];
}

/**
 * What a template block does with the query types its addresses do not answer: NODATA (dnsmasq
 * before 2.86, or an NXDOMAIN entry of the same zone), or, as dnsmasq found them, what serves the
 * zone without the template: forward to servers (the zone's own, a parent stub's, the upstreams),
 * the main block or the reverse block (a copy of its plugins), or the template block of a parent zone.
 */
export type TemplateOtherTypes =
  | { readonly kind: 'nodata' }
  | { readonly kind: 'forward'; readonly targets: readonly { readonly text: string }[] }
  | { readonly kind: 'main' }
  | { readonly kind: 'reverse' }
  | { readonly kind: 'template'; readonly zone: string };

/** What the Corefile will be: every block decided. */
export interface CorefilePlan {
  readonly features: CoreDnsFeatures;
  readonly clusterDomain: string;
  readonly mainKeys: readonly string[];
  /** The main block's added zones get a copy of it without health (main-block-split). */
  readonly splitMainBlock: boolean;
  readonly upstreams: readonly string[];
  /** Federations the federation plugin serves. */
  readonly federations: readonly FederationEntry[] | undefined;
  readonly stubs: readonly PlannedStub[];
  readonly templates: readonly PlannedTemplate[];
  /** Reverse zones served by a copy of the main block that forwards to kubedns's resolver. */
  readonly reverseBlockZones: readonly string[];
  readonly resolver: readonly string[];
  /** Zones of the cluster dnsmasq did not send to kubedns: not the kubernetes plugin's. */
  readonly unserved: readonly string[];
  /** Every block's cache: the default, one without denial caching (--no-negcache), or none (--cache-size=0, no dnsmasq). */
  readonly cache: 'default' | 'no-denial' | 'none';
  /** Every block logs (--log-queries). */
  readonly log: boolean;
  /** Every forward tries its servers in order (--strict-order). */
  readonly strictOrder: boolean;
  /** Every forward's max_concurrent (--dns-forward-max). */
  readonly maxConcurrent: number | undefined;
  /** Templates of the main block after `errors` (names without a dot, src/translate/unqualified-names.ts). */
  readonly mainTemplates: readonly Directive[];
}

/**
 * The plan of the Corefile for `config` (what kube-dns read of the ConfigMap) in the Pod of `pod`;
 * undefined when an error among `diagnostics` (which it appends to) refuses the translation.
 */
export function planCorefile(config: KubeDnsConfig, pod: PodPlan, input: TranslateInput, diagnostics: Diagnostic[]): CorefilePlan | undefined {
  const { clusterDomain } = pod;
  const plan = withZonesUnderConfigMapStubs(pod.plan, config, clusterDomain);
  const { features } = input;
  const context: Context = { features, clusterDomain, clusterDnsIp: input.clusterDnsIp, diagnostics, plan, repairs: input.repairs, forced: input.force };
  // What the Pod ran: without dnsmasq-nanny, dnsmasq never saw the ConfigMap's servers.
  const applied = plan.pod.nannyAppliesConfigMap ? config : withoutConfigMapServers(config, context);
  planRacedDefaultServers(applied, context);
  const configured = planStubs(withDeploymentStubs(applied, plan), context);
  const dnsmasqUpstreams = plan.pod.everyNameToKubeDns ? undefined : planUpstreams(withDeploymentUpstreams(applied.upstreamNameservers, plan), applied.listedUpstreamNameservers, context);
  // Servers of the manifest without --no-resolv: dnsmasq read resolv.conf beside them (the nanny's --no-resolv comes with the ConfigMap's upstreams).
  if (dnsmasqUpstreams !== undefined && plan.besideResolvConf && plan.upstreams !== undefined && (applied.upstreamNameservers ?? []).length === 0 && !dnsmasqUpstreams.includes(RESOLV_CONF)) dnsmasqUpstreams.push(RESOLV_CONF);
  // Where kubedns forwarded what it does not serve; reported here unless the same entries were planned above.
  const resolver = kubednsResolver(config, dnsmasqUpstreams !== undefined && plan.pod.nannyAppliesConfigMap, context);
  const upstreams = dnsmasqUpstreams ?? resolver;
  const planned = withDefaultServerZones(configured, upstreams, context);
  const unserved = planUnservedZones(context);
  const { templates: zoneTemplates, replacedZones } = planTemplates(plan, planned, context);
  const { reverseBlockZones, forwardStubs } = planKubednsForwarding(resolver, upstreams, unserved, [...planned.map((stub) => stub.zone), ...zoneTemplates.map((template) => template.zone)], context);
  const stubs = [...(replacedZones.size === 0 ? planned : planned.filter((stub) => !replacedZones.has(stub.zone))), ...forwardStubs].sort((a, b) => (a.zone < b.zone ? -1 : a.zone > b.zone ? 1 : 0));
  const federations = planFederation(config.federations, input.dropFederations, context);
  // Stub and template zones alike: a parent of the cluster's zones would capture them.
  const parents: ZoneOwner[] = [...stubs.map(stubOwner), ...zoneTemplates.map(templateOwner)];
  const protectedZones = [clusterDomain, ...KUBERNETES_DEFAULT_REVERSE_ZONES].filter((zone) => !unserved.includes(zone) && !reverseBlockZones.includes(zone));
  const mainKeys = mainBlockKeys(parents, protectedZones, context);
  const splitMainBlock = needsMainBlockSplit(mainKeys, parents, context);
  const mainZones = mainKeys.map((key) => key.replace(/:\d+$/, '')).map((zone) => (zone === '.' ? '' : zone));
  const templates = planOtherTypes(zoneTemplates, { stubs, mainZones, reverseBlockZones, upstreams, resolver }, context);
  // Names without a dot (dnsmasq 2.86+ quirk): one-label zones dnsmasq has an entry for keep theirs.
  const ownZones = [...mainKeys.map((key) => key.replace(/:\d+$/, '')), ...stubs.map((stub) => stub.zone), ...templates.map((template) => template.zone), clusterDomain, ...plan.pod.zonesToKubeDns, ...plan.kubednsForwardZones, ...plan.unservedZones];
  const unqualified = planUnqualifiedNames(plan.unqualified, plan.unqualifiedWritten, new Set(ownZones.filter((zone) => zone !== '' && zone !== '.' && !zone.includes('.'))), features, context.repairs, plan.pod.kubeDnsVersion);
  pushAll(diagnostics, unqualified.diagnostics);
  if (!features.kubernetesFallthroughZones) {
    report(context, 'reverse-lookups-not-forwarded', '', '', `CoreDNS ${features.version}'s kubernetes plugin cannot fall through for in-addr.arpa and ip6.arpa`);
  }
  if (hasErrors(diagnostics)) return undefined;
  return {
    features,
    clusterDomain,
    mainKeys,
    splitMainBlock,
    upstreams,
    federations,
    stubs,
    templates,
    reverseBlockZones,
    resolver,
    unserved,
    cache: plan.noCache ? 'none' : plan.noNegativeCache ? 'no-denial' : 'default',
    log: plan.logQueries,
    strictOrder: plan.strictOrder,
    maxConcurrent: plan.maxConcurrent,
    mainTemplates: unqualified.directives,
  };
}

interface Context {
  readonly features: CoreDnsFeatures;
  readonly clusterDomain: string;
  readonly clusterDnsIp: string | undefined;
  readonly diagnostics: Diagnostic[];
  readonly plan: DeploymentPlan;
  readonly repairs: ReadonlySet<KubeDnsQuirk>;
  /** `force`: what kube-dns refused is translated with a warning. */
  readonly forced: boolean;
}

function planStubs(config: KubeDnsConfig, context: Context): PlannedStub[] {
  const planned = new Map<string, PlannedStub>();
  for (const stub of config.stubDomains) {
    const normalized = normalizeZone(stub.domain);
    if ('problem' in normalized) {
      report(context, 'invalid-zone', FROM_DEPLOYMENT.has(stub) ? 'container dnsmasq' : 'stubDomains', stub.path, normalized.problem);
      continue;
    }
    const { zone } = normalized;
    if (normalized.changes.length > 0) report(context, 'zone-normalized', 'stubDomains', stub.path, `'${stub.domain}' becomes '${zone}' (${normalized.changes.join(', ')})`);
    if (planned.has(zone)) {
      report(context, 'duplicate-zone', 'stubDomains', stub.path, `'${stub.domain}' is the zone '${zone}' a second time`);
      continue;
    }
    if (!checkStubPlacement(zone, stub, context)) continue;
    if (stub.nameservers.length === 0) {
      report(context, 'empty-stub-domain', 'stubDomains', stub.path, `'${zone}' has no nameservers; no server block is emitted`);
      continue;
    }
    if (stub.listedNameservers !== undefined) {
      // Only the first nameservers were read (the reader's long-list-not-examined): over the limit whatever they are.
      report(context, 'too-many-nameservers', 'stubDomains', stub.path, `'${zone}' has ${stub.listedNameservers} nameservers; CoreDNS forwards to at most ${context.features.upstreamLimit.max}`);
      continue;
    }
    const reportedBefore = context.diagnostics.length;
    // Sized up front and cut to what was kept (the list lives as long as the translation).
    const targets = new Array<ForwardTarget>(stub.nameservers.length);
    let kept = 0;
    for (const nameserver of stub.nameservers) {
      const target = stubTarget(nameserver, context);
      if (target !== undefined) targets[kept++] = target;
    }
    targets.length = kept;
    if (hasErrorSince(context, reportedBefore)) continue;
    if (targets.length === 0) {
      report(context, 'stub-without-nameservers', 'stubDomains', stub.path, `no nameserver of '${zone}' is left`);
      continue;
    }
    if (targets.length > context.features.upstreamLimit.max) {
      report(context, 'too-many-nameservers', 'stubDomains', stub.path, `'${zone}' has ${targets.length} nameservers; CoreDNS forwards to at most ${context.features.upstreamLimit.max}`);
      continue;
    }
    planned.set(zone, { zone, targets });
  }
  // Deterministic output whatever the key order in the JSON.
  return [...planned.values()].sort((a, b) => (a.zone < b.zone ? -1 : a.zone > b.zone ? 1 : 0));
}

/** Routing checks that depend on where the stub sits relative to the cluster's own zones. */
function checkStubPlacement(zone: string, stub: StubDomainEntry, context: Context): boolean {
  if (zone === context.clusterDomain) {
    report(context, 'stub-equals-cluster-domain', 'stubDomains', stub.path, `'${zone}' is the cluster domain`);
    return false;
  }
  const reverse = KUBERNETES_DEFAULT_REVERSE_ZONES.find((reverseZone) => reverseZone === zone);
  if (reverse !== undefined) {
    report(context, 'stub-equals-reverse-zone', 'stubDomains', stub.path, `'${zone}' is served by the kubernetes plugin`);
    return false;
  }
  if (isWithin(zone, context.clusterDomain)) {
    report(context, 'stub-under-cluster-domain', 'stubDomains', stub.path, `'${zone}' lies inside the cluster domain '${context.clusterDomain}'`);
  }
  return true;
}

function stubTarget(nameserver: ValueEntry, context: Context): ForwardTarget | undefined {
  const target = checkedTarget(nameserver, 'stubDomains', context);
  if (target === undefined) return undefined;
  if (target.kind === 'hostname' && !acceptHostname(target.name, nameserver, 'stubDomains', context)) return undefined;
  return target;
}

/** Whether a hostname target can be emitted for the target CoreDNS; reports either way. */
function acceptHostname(name: string, nameserver: ValueEntry, key: string, context: Context): boolean {
  if (isWithin(name, context.clusterDomain)) {
    report(context, 'cluster-hostname-nameserver', key, nameserver.path, `'${name}' is a name inside the cluster domain`);
    return false;
  }
  if (!context.features.forwardHostnameTargets) {
    report(context, 'hostname-nameserver-dropped', key, nameserver.path, `'${name}' dropped: CoreDNS ${context.features.version} forwards to IP addresses only`);
    return false;
  }
  // CoreDNS 1.14.4+ (plugin/forward/resolve.go) looks the name up at start-up, through the node's resolver, and exits when that fails.
  if (!name.includes('.')) {
    report(context, 'single-label-hostname-nameserver', key, nameserver.path, `'${name}' has one label: CoreDNS ${context.features.version} looks it up through the node's resolver when it starts, where it does not resolve, and exits`);
    return false;
  }
  report(
    context,
    'hostname-nameserver',
    key,
    nameserver.path,
    `'${name}' is resolved once when CoreDNS starts, through the node's resolver; CoreDNS ${context.features.version} exits if it does not resolve then; kube-dns used only its first address`,
  );
  return true;
}

/** Reads a nameserver as a forward target and applies the checks every target needs. */
function checkedTarget(nameserver: ValueEntry, key: string, context: Context): ForwardTarget | undefined {
  const value = context.plan.throughDnsmasq ? asDnsmasqReadIt(nameserver, key, context) : nameserver.value;
  if (value === undefined) return undefined;
  const reading = readForwardTarget(value);
  if (!reading.ok) {
    report(context, reading.code, key, nameserver.path, reading.problem);
    return undefined;
  }
  const { target } = reading;
  if (reading.rewritten && target.kind === 'ip') {
    report(context, 'ip-rewritten', key, nameserver.path, `'${nameserver.value}' is written as '${target.text}'`);
  }
  if (isLoopback(target) || (context.clusterDnsIp !== undefined && isSameAddress(target, context.clusterDnsIp))) {
    report(context, 'loop-nameserver', key, nameserver.path, `'${nameserver.value}' would make CoreDNS forward to itself`);
    return undefined;
  }
  return target;
}

/** `[IPv6]:port`: the nanny turns it into a form dnsmasq refuses. */
const BRACKETED_WITH_PORT = /^\[[^\]]*\]:\d+$/;

/** IPv4 text with a port or not, for the leading-zero check. */
const DOTTED_IPV4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)(:\d+)?$/;

/**
 * A ConfigMap nameserver as dnsmasq read it (dnsmasq-nanny passes the text through): an IPv4
 * octet with a leading zero is octal there (inet_aton), while kube-dns's Go validation read it as
 * decimal. Undefined (and an error) when dnsmasq refuses the address.
 */
function asDnsmasqReadIt(nameserver: ValueEntry, key: string, context: Context): string | undefined {
  if (BRACKETED_WITH_PORT.test(nameserver.value)) {
    // dnsmasq-nanny writes `[v6]:port` as `[v6]#port`, and dnsmasq 2.90 does not read brackets.
    const passed = nameserver.value.replace(/:(\d+)$/, '#$1');
    if (context.forced) {
      context.diagnostics.push(diagnostic('address-refused-by-dnsmasq', { key, path: nameserver.path, severity: 'warning', message: `'${nameserver.value}': dnsmasq-nanny passed it to dnsmasq as '${passed}', which dnsmasq refuses, so kube-dns's dnsmasq did not start; translated as written (--force)` }));
      return nameserver.value;
    }
    report(context, 'address-refused-by-dnsmasq', key, nameserver.path, `'${nameserver.value}': dnsmasq-nanny passes it to dnsmasq as '${passed}', which dnsmasq refuses (it reads no brackets), so kube-dns's dnsmasq did not start with this ConfigMap; write the address without brackets and port 53, or translate with --force`);
    return undefined;
  }
  const match = DOTTED_IPV4.exec(nameserver.value);
  if (match === null) return nameserver.value;
  const octets = match.slice(1, 5) as string[];
  if (!octets.some((octet) => octet.length > 1 && octet.startsWith('0'))) return nameserver.value;
  const decimal = octets.map((octet) => String(Number(octet))).join('.');
  const port = match[5] ?? '';
  const dnsmasqAddress = inetAton(octets.join('.'));
  if (dnsmasqAddress === undefined) {
    report(context, 'address-refused-by-dnsmasq', key, nameserver.path, `'${nameserver.value}': Go's validation read ${decimal}, but dnsmasq reads a leading-zero octet as octal and refuses 8 and 9 in one, so kube-dns's dnsmasq did not start`);
    return undefined;
  }
  if (dnsmasqAddress === decimal) return nameserver.value;
  report(context, 'octal-address', key, nameserver.path, `'${nameserver.value}': dnsmasq read ${dnsmasqAddress} (octal), Go's validation ${decimal}; translated to ${dnsmasqAddress}, the server kube-dns's dnsmasq forwarded to`);
  return `${dnsmasqAddress}${port}`;
}

function planUpstreams(nameservers: readonly ValueEntry[] | undefined, listed: number | undefined, context: Context): string[] {
  if (nameservers === undefined || nameservers.length === 0) {
    report(context, 'upstream-resolv-conf', 'upstreamNameservers', '', `forwarding to ${RESOLV_CONF} of the node`);
    return [RESOLV_CONF];
  }
  const { max } = context.features.upstreamLimit;
  if (listed !== undefined) {
    // Only the first ones were read (the reader's long-list-not-examined): over the limit whatever they are.
    report(context, 'too-many-nameservers', 'upstreamNameservers', '', `${listed} upstream nameservers; CoreDNS forwards to at most ${max}`);
    return [];
  }
  const targets = nameservers.flatMap((nameserver) => {
    const target = checkedTarget(nameserver, 'upstreamNameservers', context);
    if (target?.kind === 'hostname' && !acceptHostname(target.name, nameserver, 'upstreamNameservers', context)) return [];
    return target === undefined ? [] : [target.text];
  });
  if (targets.length > max) {
    // Only reachable with --force (kube-dns took at most 3): CoreDNS would refuse the forward line.
    report(context, 'too-many-nameservers', 'upstreamNameservers', '', `${targets.length} upstream nameservers; CoreDNS forwards to at most ${max}`);
    return [];
  }
  if (targets.length === 0 && !hasErrors(context.diagnostics)) {
    report(context, 'no-upstream-left', 'upstreamNameservers', '', `every upstream nameserver was dropped; falling back to ${RESOLV_CONF} would change where names go`);
  }
  return targets;
}

function planFederation(federations: readonly FederationEntry[] | undefined, dropFederations: boolean, context: Context): readonly FederationEntry[] | undefined {
  if (federations === undefined || federations.length === 0) return undefined;
  if (context.features.federation === 'removed') {
    if (!dropFederations) {
      report(context, 'federation-unsupported', 'federations', '', `CoreDNS ${context.features.version} cannot serve ${federations.length} federation${federations.length === 1 ? '' : 's'}`);
      return undefined;
    }
    report(context, 'federations-dropped', 'federations', '', `dropped ${federations.map((entry) => entry.name).join(', ')}`);
    return undefined;
  }
  for (const entry of federations) {
    for (const token of [entry.name, entry.domain]) {
      const form = classifyToken(token);
      if (form.form === 'unrepresentable') report(context, 'unrepresentable-value', 'federations', entry.path, form.reason);
    }
  }
  report(context, 'federation-semantics', 'federations', '', `federation ${federations.map((entry) => entry.name).join(', ')} translated to the federation plugin`);
  return federations;
}

/**
 * A zone with a block of its own (a stub domain, a dnsmasq template), and where it was written
 * (`path`, made only for a diagnostic: every stub domain has one of these, and few are reported).
 */
interface ZoneOwner {
  readonly zone: string;
  readonly key: string;
  readonly path: () => string;
}

function stubOwner(stub: PlannedStub): ZoneOwner {
  return { zone: stub.zone, key: 'stubDomains', path: () => `[${JSON.stringify(stub.zone)}]` };
}

function templateOwner(template: { readonly zone: string; readonly text: string }): ZoneOwner {
  return { zone: template.zone, key: 'container dnsmasq', path: () => `[${template.text}]` };
}

/**
 * The main block's keys. A stub or template zone that is a parent of a zone the kubernetes plugin
 * serves (`--local=/local/` above `cluster.local`) would capture that zone in CoreDNS (longest
 * matching block wins), while dnsmasq still sent it to kubedns (most specific domain wins): serving
 * the zone from the main block restores that.
 */
function mainBlockKeys(parents: readonly ZoneOwner[], protectedZones: readonly string[], context: Context): string[] {
  const keys = [`.:${DNS_PORT}`];
  for (const zone of protectedZones) {
    const parent = parents.find((owner) => isStrictAncestor(owner.zone, zone));
    if (parent !== undefined) {
      keys.push(`${zone}:${DNS_PORT}`);
      // Where health binds once per key, the added zones get a copy of the main block instead (main-block-split).
      const where = context.features.healthListener === 'exclusive' ? 'served by a copy of the main block' : 'added to the main block';
      report(context, 'main-block-key-added', parent.key, parent.path(), `'${zone}' ${where} so that '${parent.zone}' does not capture it`);
    }
  }
  return keys;
}

/**
 * Whether the zones added to the main block need a block of their own: CoreDNS 1.1.0–1.6.5 set
 * `health` up once per key, each binding its address, so a main block with several keys does not
 * start there. The copy without `health` answers exactly as the main block would (plugin setup runs
 * per key in those releases anyway, so every other plugin is set up as often as before).
 */
function needsMainBlockSplit(mainKeys: readonly string[], parents: readonly ZoneOwner[], context: Context): boolean {
  if (context.features.healthListener !== 'exclusive' || mainKeys.length < 2) return false;
  const added = mainKeys.slice(1).map((key) => key.slice(0, key.lastIndexOf(':')));
  const parent = parents.find((owner) => added.some((zone) => isStrictAncestor(owner.zone, zone)));
  report(
    context,
    'main-block-split',
    parent?.key ?? 'stubDomains',
    parent?.path() ?? '',
    `${added.join(', ')} ${added.length === 1 ? 'is' : 'are'} served by a copy of the main block without health: CoreDNS ${context.features.version} sets health up once per key, and the second listener on ${HEALTH_DEFAULT_ADDRESS} would stop it`,
  );
  return true;
}

/** The ConfigMap's stub domains with the Deployment's `--server=/zone/…` servers added (dnsmasq used both). */
/** Stub domains only the Deployment's dnsmasq flags name: their diagnostics point at the container, not at stubDomains. */
const FROM_DEPLOYMENT = new WeakSet<object>();

function withDeploymentStubs(config: KubeDnsConfig, plan: DeploymentPlan): KubeDnsConfig {
  if (plan.stubs.size === 0) return config;
  const remaining = new Map(plan.stubs);
  const entry = (server: DeploymentServer, prefix: string): ValueEntry => ({ value: server.target, path: `${prefix} (${server.text})`, offset: 0 });
  const stubDomains = config.stubDomains.map((stub) => {
    const zone = stub.domain.toLowerCase().replace(/\.$/, '');
    const servers = remaining.get(zone);
    if (servers === undefined) return stub;
    remaining.delete(zone);
    // dnsmasq tries the servers of one domain in the order given (the nanny appends the ConfigMap's): the manifest's first.
    const added = servers.map((server) => entry(server, stub.path));
    const known = new Set(servers.map((server) => server.target));
    return { ...stub, nameservers: [...added, ...stub.nameservers.filter((nameserver) => !known.has(nameserver.value))] };
  });
  for (const [zone, servers] of remaining) {
    const stub = { domain: zone, path: `[${servers.map((server) => server.text).join(' ')}]`, offset: 0, nameservers: servers.map((server, index) => entry(server, `[${JSON.stringify(zone)}][${index}]`)) };
    FROM_DEPLOYMENT.add(stub);
    stubDomains.push(stub);
  }
  return { ...config, stubDomains };
}

/** The ConfigMap's upstreams with the Deployment's `--no-resolv` servers added (the nanny appends the ConfigMap's to the manifest's). */
function withDeploymentUpstreams(nameservers: readonly ValueEntry[] | undefined, plan: DeploymentPlan): readonly ValueEntry[] | undefined {
  if (plan.upstreams === undefined) return nameservers;
  const known = new Set((nameservers ?? []).map((nameserver) => nameserver.value));
  const added = plan.upstreams.filter((server) => !known.has(server.target)).map((server, index) => ({ value: server.target, path: `[${index}] (${server.text})`, offset: 0 }));
  return [...added, ...(nameservers ?? [])];
}

/** A zone's `--address`/`--local` entries as planned: its answers, and the NXDOMAIN entry beside them. */
interface ZoneTemplate {
  readonly zone: string;
  readonly text: string;
  readonly answers: { readonly type: 'A' | 'AAAA'; readonly address: string }[];
  /** `--address=/zone/#` as written: the null address of each family no address of the zone has. */
  zeros: string | undefined;
  /** See `PlannedTemplate.anyFirst`. */
  anyFirst: 'A' | 'AAAA';
  /** An NXDOMAIN entry of the same zone (`--local=/zone/`, `--address=/zone/`), as written. */
  nxdomain: string | undefined;
  /** The zone's stub block, which the template replaces: the other types go to its servers. */
  stub: PlannedStub | undefined;
  /** From `--server=/zone/` (dnsmasq answers from local data only). */
  readonly localOnly: boolean;
  /** dnsmasq sent the zone to kubedns (`--server=/zone/127.0.0.1#10053`): the other types went there. */
  readonly toKubeDns: boolean;
}

/**
 * One block per `--address=/zone/[ip]` (and `--server=/zone/`) zone: templates answering the
 * addresses, or NXDOMAIN, as dnsmasq did. An address replaces the stub block of the same zone
 * (dnsmasq answered its type before forwarding), whose servers then get the other types; NXDOMAIN
 * gives way to it (dnsmasq forwarded). What the other types of an address zone get is decided
 * once the blocks are known ({@link planOtherTypes}).
 */
function planTemplates(plan: DeploymentPlan, stubs: readonly PlannedStub[], context: Context): { templates: ZoneTemplate[]; replacedZones: Set<string> } {
  const replacedZones = new Set<string>();
  const stubsByZone = new Map(stubs.map((stub) => [stub.zone, stub]));
  // The zones kubedns answered (dnsmasq sent them there): an NXDOMAIN entry gives way to that server, an address does not.
  const kubednsZones = new Set([context.clusterDomain, ...KUBERNETES_DEFAULT_REVERSE_ZONES].filter((zone) => !plan.unservedZones.includes(zone)));
  const byZone = new Map<string, ZoneTemplate>();
  // Addresses first: an NXDOMAIN entry of a zone with an address is what makes its other types NODATA.
  const entries = [...plan.addresses.filter((entry) => entry.address !== undefined), ...plan.addresses.filter((entry) => entry.address === undefined)];
  for (const entry of entries) {
    const normalized = normalizeZone(entry.zone);
    const where = `[${entry.text}]`;
    const existing = 'problem' in normalized ? undefined : byZone.get(normalized.zone);
    // `#`: both null addresses, for the families no address of the zone has (measured with dnsmasq 2.90).
    const zeros = entry.address === '#';
    const type = entry.address === undefined || zeros ? undefined : entry.address.includes(':') ? 'AAAA' : 'A';
    if ('problem' in normalized || (existing !== undefined && existing.answers.length === 0 && existing.zeros === undefined)) {
      report(context, 'deployment-flag-not-translated', 'container dnsmasq', where, `${entry.text}: '${entry.zone}' is ${'problem' in normalized ? 'not a zone CoreDNS serves' : 'answered by another template'}; not translated`);
      continue;
    }
    const { zone } = normalized;
    if (existing !== undefined) {
      if (zeros) {
        if (existing.zeros === undefined) existing.zeros = entry.text;
        report(context, 'dnsmasq-option-translated', 'container dnsmasq', where, `${zone}: '#' answers the null address of each family no other address of the zone has, in the template block of ${existing.text}`);
        continue;
      }
      if (entry.address === undefined || type === undefined) {
        if (existing.nxdomain === undefined && existing.stub === undefined) {
          existing.nxdomain = entry.text;
          report(context, 'dnsmasq-option-translated', 'container dnsmasq', where, `${zone}: beside ${existing.text}, dnsmasq answered the query types of no address NODATA itself: the template block does the same`);
        } else {
          report(context, 'deployment-flag', 'container dnsmasq', where, `${zone}: ${existing.stub === undefined ? `another NXDOMAIN entry (${existing.nxdomain ?? ''}) says the same` : "dnsmasq sent the zone's other query types to its servers all the same (they win over an NXDOMAIN entry)"}`);
        }
        continue;
      }
      existing.answers.push({ type, address: entry.address });
      // dnsmasq answers with every address of the family (measured with 2.90).
      const more = existing.answers.filter((answer) => answer.type === type).length > 1 ? ' beside the others of the family, as dnsmasq answered with all of them' : '';
      report(context, 'dnsmasq-option-translated', 'container dnsmasq', where, `${zone}: ${type} answered with ${entry.address} by the template block of ${existing.text}${more}`);
      continue;
    }
    if (entry.address === undefined && plan.pod.zonesToKubeDns.has(zone) && !plan.unservedZones.includes(zone)) {
      report(context, 'deployment-flag', 'container dnsmasq', where, `dnsmasq sent '${zone}' to kubedns all the same (its server wins over an NXDOMAIN entry)`);
      continue;
    }
    if (kubednsZones.has(zone)) {
      if (entry.address === undefined) {
        report(context, 'deployment-flag', 'container dnsmasq', where, `dnsmasq sent '${zone}' to kubedns all the same: the kubernetes plugin answers it`);
        continue;
      }
      // dnsmasq answered every name of a zone of the cluster with one address: the cluster's own names did not resolve.
      context.diagnostics.push(diagnostic('deployment-flag-not-translated', { key: 'container dnsmasq', path: where, severity: 'error', message: `${entry.text}: dnsmasq answered every name of '${zone}' with ${entry.address}, so kubedns never answered them; not translated` }));
      continue;
    }
    const stub = stubsByZone.get(zone);
    if (stub !== undefined) {
      if (entry.address === undefined) {
        report(context, 'deployment-flag', 'container dnsmasq', where, `dnsmasq forwarded '${zone}' to its servers all the same: the stub block stays`);
        continue;
      }
      replacedZones.add(zone);
      report(context, 'deployment-flag', 'container dnsmasq', where, `dnsmasq answered ${zeros ? 'A and AAAA' : (type ?? 'A')} of '${zone}' with ${zeros ? '0.0.0.0 and ::' : entry.address} and sent its other query types to its servers: the template block answers ${zeros ? 'those' : 'the one'} and forwards the others, in place of the stub block`);
    }
    // An address is reported with what its other query types get (planOtherTypes).
    if (entry.address === undefined) report(context, 'dnsmasq-option-translated', 'container dnsmasq', where, `${zone} answered NXDOMAIN by a template block${entry.localOnly === true ? ' (dnsmasq answers from local data only)' : ''}`);
    byZone.set(zone, {
      zone,
      text: entry.text,
      answers: entry.address === undefined || type === undefined ? [] : [{ type, address: entry.address }],
      zeros: zeros ? entry.text : undefined,
      anyFirst: 'AAAA',
      nxdomain: undefined,
      stub: entry.address === undefined ? undefined : stub,
      localOnly: entry.localOnly === true,
      toKubeDns: plan.pod.zonesToKubeDns.has(zone),
    });
  }
  // Deterministic whatever the order of the flags.
  const templates = [...byZone.values()].sort((a, b) => (a.zone < b.zone ? -1 : a.zone > b.zone ? 1 : 0));
  for (const template of templates) {
    const zerosOnly = template.zeros !== undefined && template.answers.length === 0;
    // dnsmasq answers ANY with the written IPv6 addresses, else the IPv4 ones, else `#` (measured with 2.90).
    template.anyFirst = template.answers.some((answer) => answer.type === 'AAAA') || !template.answers.some((answer) => answer.type === 'A') ? 'AAAA' : 'A';
    if (template.zeros !== undefined) {
      if (!template.answers.some((answer) => answer.type === 'A')) template.answers.push({ type: 'A', address: '0.0.0.0' });
      if (!template.answers.some((answer) => answer.type === 'AAAA')) template.answers.push({ type: 'AAAA', address: '::' });
    }
    // Stable: a family's addresses keep the order they were written in.
    template.answers.sort((a, b) => (a.type < b.type ? -1 : a.type > b.type ? 1 : 0));
    if (zerosOnly) {
      // dnsmasq 2.90 answers ANY with both null addresses; the block's first template (AAAA) with one.
      report(
        context,
        'any-query-one-family',
        'container dnsmasq',
        `[${template.zeros ?? ''}]`,
        `${template.zeros ?? ''}: dnsmasq answered an ANY query for a name under ${template.zone} with both null addresses (A 0.0.0.0 and AAAA ::); the Corefile answers it with AAAA :: only: a template answers ANY with the first template that matches, and none can match ANY alone`,
      );
    }
  }
  return { templates, replacedZones };
}

/**
 * What the other query types of each address zone get (docs/kube-dns-deployment.md, "Query types
 * of an address"): the zone's own servers (every dnsmasq); NODATA beside an NXDOMAIN entry (every
 * dnsmasq) or before dnsmasq 2.86 (kube-dns before 1.22.1); else, from 2.86, what serves the zone
 * without the template: the longest block zone above it, as CoreDNS would choose it.
 */
function planOtherTypes(
  zoneTemplates: readonly ZoneTemplate[],
  blocks: { readonly stubs: readonly PlannedStub[]; readonly mainZones: readonly string[]; readonly reverseBlockZones: readonly string[]; readonly upstreams: readonly string[]; readonly resolver: readonly string[] },
  context: Context,
): PlannedTemplate[] {
  const onward = context.plan.pod.dnsmasqAddressTypesOnly;
  const kinds = new Map<string, TemplateOtherTypes>();
  for (const stub of blocks.stubs) kinds.set(stub.zone, { kind: 'forward', targets: stub.targets });
  for (const zone of blocks.reverseBlockZones) kinds.set(zone, { kind: 'reverse' });
  for (const zone of blocks.mainZones) kinds.set(zone, { kind: 'main' });
  for (const template of zoneTemplates) kinds.set(template.zone, { kind: 'template', zone: template.zone });
  // The main block's plugins serve a zone outside the cluster's own by forwarding: the same forward does.
  const servedByKubernetes = (zone: string) => [context.clusterDomain, ...KUBERNETES_DEFAULT_REVERSE_ZONES].some((own) => isWithin(zone, own));
  return zoneTemplates.map((template): PlannedTemplate => {
    const { zone, text, answers } = template;
    if (answers.length === 0) return { zone, text, answers, otherTypes: { kind: 'nodata' } };
    const [first] = answers as [{ readonly type: string; readonly address: string }];
    const say = (others: string) => report(context, 'dnsmasq-option-translated', 'container dnsmasq', `[${text}]`, `${zone} answered ${first.type} with ${first.address} by a template block; ${others}`);
    if (template.stub !== undefined) {
      say("its other query types go to the zone's servers, as dnsmasq sent them");
      return { zone, text, answers, otherTypes: { kind: 'forward', targets: template.stub.targets } };
    }
    if (template.toKubeDns) {
      // The zone's server is kubedns: it answers its own zones, and forwards the rest with its resolver (kubedns-upstreams).
      const reverse = blocks.reverseBlockZones.find((own) => isWithin(zone, own));
      const kubedns: TemplateOtherTypes = servedByKubernetes(zone)
        ? reverse === undefined
          ? { kind: 'main' }
          : { kind: 'reverse' }
        : { kind: 'forward', targets: (context.repairs.has('kubedns-upstreams') ? blocks.upstreams : blocks.resolver).map((target) => ({ text: target })) };
      say(`its other query types go to ${kubedns.kind === 'forward' ? "kubedns's resolver" : 'the kubernetes plugin'}, as dnsmasq sent them to kubedns`);
      return { zone, text, answers, otherTypes: kubedns };
    }
    if (template.nxdomain !== undefined || !onward) {
      say(
        template.nxdomain !== undefined
          ? `its other query types NODATA, as dnsmasq answered them beside ${template.nxdomain}`
          : `its other query types NODATA, as the dnsmasq of kube-dns ${context.plan.pod.kubeDnsVersion} (before 2.86: kube-dns before 1.22.1) answered them`,
      );
      return { zone, text, answers, otherTypes: { kind: 'nodata' } };
    }
    let parent = '';
    for (const candidate of kinds.keys()) if (candidate !== zone && isWithin(zone, candidate) && candidate.length > parent.length) parent = candidate;
    const found = kinds.get(parent);
    const otherTypes: TemplateOtherTypes = found === undefined || (found.kind === 'main' && !servedByKubernetes(zone)) ? { kind: 'forward', targets: blocks.upstreams.map((target) => ({ text: target })) } : found;
    const where =
      otherTypes.kind === 'forward'
        ? found?.kind === 'forward'
          ? `stub domain ${parent}'s servers`
          : 'the upstreams'
        : otherTypes.kind === 'template'
          ? `the template block of ${otherTypes.zone}`
          : otherTypes.kind === 'reverse'
            ? "the copy of the main block for the reverse zones (kubedns's answers)"
            : "the main block's plugins (kubedns's answers)";
    say(`its other query types go to ${where}, where the dnsmasq of kube-dns ${context.plan.pod.kubeDnsVersion} (2.86+: kube-dns 1.22.1+) sent them, as if the address were not there`);
    const unqualified = unqualifiedInEffect(context.plan.unqualified, context.plan.unqualifiedWritten, context.repairs);
    if (!zone.includes('.') && unqualified !== undefined) {
      // The zone's own name has no dot: dnsmasq's lookup of its other types ends at the entries for such names.
      const quirk = unqualified.quirk ? 'trailing-dot-domains: ' : '';
      const met = `${quirk}the other query types of the name '${zone}' itself met ${unqualified.text} (it applied to names without a dot)`;
      const sendsThem = `the template block sends them ${where === 'the upstreams' ? 'upstream' : `to ${where}`}`;
      const notKept = (message: string) => context.diagnostics.push(diagnostic('deployment-flag-not-translated', { key: 'container dnsmasq', path: `[${text}]`, message }));
      const apex = apexTemplates(unqualified, zone, context.features);
      if (apex !== undefined) {
        report(context, 'dnsmasq-option-translated', 'container dnsmasq', `[${text}]`, `${met}: a template of the block does the same`);
        return { zone, text, answers, otherTypes, apex };
      }
      const addressAlone = apexAddressTemplates(unqualified, zone);
      if (addressAlone !== undefined) {
        // An address beside servers for names without a dot: as in the main block, the address is kept, its other types are not.
        report(context, 'dnsmasq-option-translated', 'container dnsmasq', `[${text}]`, `${met}: a template of the block answers the address's types`);
        notKept(`${quirk}dnsmasq sent the other query types of the name '${zone}' to the --server entries for names without a dot; not kept: ${sendsThem} (check lists them as expected)`);
        return { zone, text, answers, otherTypes, apex: addressAlone };
      }
      notKept(`${met}; not kept: ${sendsThem}`);
    }
    return { zone, text, answers, otherTypes };
  }).map((planned, index) => ({ ...planned, anyFirst: (zoneTemplates[index] as ZoneTemplate).anyFirst }));
}

/** Whether a diagnostic reported after the first `reportedBefore` is an error (looking only at those). */
function hasErrorSince(context: Context, reportedBefore: number): boolean {
  const { diagnostics } = context;
  for (let index = reportedBefore; index < diagnostics.length; index += 1) if ((diagnostics[index] as Diagnostic).severity === 'error') return true;
  return false;
}

function report(context: Context, code: Parameters<typeof diagnostic>[0], key: string, path: string, message: string): void {
  context.diagnostics.push(diagnostic(code, { key, path, message }));
}

/**
 * The ConfigMap's servers dnsmasq never saw (it ran without dnsmasq-nanny, or the Pod had no
 * dnsmasq): stubDomains were not in effect at all (kubedns only validates them), and
 * upstreamNameservers only where kubedns forwarded with them (1.14.10+).
 */
function withoutConfigMapServers(config: KubeDnsConfig, context: Context): KubeDnsConfig {
  const { pod } = context.plan;
  const why = pod.throughDnsmasq ? 'dnsmasq ran without dnsmasq-nanny, which is what applies them' : 'the Pod has no dnsmasq, and dnsmasq-nanny is what applies them';
  if (config.stubDomains.length > 0) {
    report(context, 'configmap-not-applied', 'stubDomains', '', `${config.stubDomains.map((stub) => stub.domain).join(', ')}: never in effect (${why}; kubedns does not forward stub domains): not translated`);
  }
  if (config.upstreamNameservers !== undefined && pod.kubednsUpstreams.kind !== 'configmap') {
    report(context, 'configmap-not-applied', 'upstreamNameservers', '', `never in effect (${why}, and kube-dns ${pod.kubeDnsVersion}'s kubedns forwards with ${pod.kubednsUpstreams.kind === 'nameservers' ? 'its --nameservers' : "the Pod's resolv.conf"}): not translated`);
  }
  const { listedUpstreamNameservers: _listed, ...rest } = config;
  return { ...rest, stubDomains: [], upstreamNameservers: undefined };
}

/**
 * Where kubedns forwarded the names it does not serve (src/kubedns/kube-dns-pod.ts): the
 * ConfigMap's upstreams as Go read them, its `--nameservers`, or resolv.conf. Diagnostics are
 * reported unless the same entries were planned as the dnsmasq upstreams already.
 */
function kubednsResolver(config: KubeDnsConfig, alreadyPlanned: boolean, context: Context): string[] {
  const upstreams = context.plan.pod.kubednsUpstreams;
  // kubedns reads addresses with Go, not with dnsmasq's inet_aton.
  const asKubeDns: Context = { ...context, plan: { ...context.plan, throughDnsmasq: false }, diagnostics: alreadyPlanned ? [] : context.diagnostics };
  if (upstreams.kind === 'configmap' && config.upstreamNameservers !== undefined && config.upstreamNameservers.length > 0) {
    return planUpstreams(config.upstreamNameservers, config.listedUpstreamNameservers, asKubeDns);
  }
  if (upstreams.kind === 'nameservers') {
    const entries = upstreams.servers.map((value, index): ValueEntry => ({ value, path: `[--nameservers][${index}]`, offset: 0 }));
    return planUpstreams(entries, undefined, { ...asKubeDns, diagnostics: context.diagnostics });
  }
  return [RESOLV_CONF];
}

/** The ConfigMap stub domain whose nanny `--server` holds a zone of the cluster, by zone (see {@link withZonesUnderConfigMapStubs}). */
const HELD_BY_STUB = new WeakMap<DeploymentPlan, ReadonlyMap<string, StubDomainEntry>>();

/**
 * Every name reached kubedns through dnsmasq's default server (`--no-resolv
 * --server=127.0.0.1#10053`) while dnsmasq-nanny applied the ConfigMap: a stub domain at or above a
 * zone of the cluster (`local`, `arpa`) got a `--server=/stub/…`, which beats the default server
 * (dnsmasq's most specific domain wins), so that zone's names went to the stub's nameservers — as
 * a `--server` of the manifest would (`unserved-cluster-zones`). The plan with those zones unserved.
 */
function withZonesUnderConfigMapStubs(plan: DeploymentPlan, config: KubeDnsConfig, clusterDomain: string): DeploymentPlan {
  if (!plan.pod.everyNameToKubeDns || !plan.pod.nannyAppliesConfigMap || config.stubDomains.length === 0) return plan;
  const held = new Map<string, StubDomainEntry>();
  for (const zone of [clusterDomain, ...KUBERNETES_DEFAULT_REVERSE_ZONES]) {
    if (plan.pod.zonesToKubeDns.has(zone) || plan.unservedZones.includes(zone)) continue;
    const stub = config.stubDomains.find((entry) => {
      const normalized = normalizeZone(entry.domain);
      return !('problem' in normalized) && entry.nameservers.length > 0 && isWithin(zone, normalized.zone);
    });
    if (stub !== undefined) held.set(zone, stub);
  }
  if (held.size === 0) return plan;
  const extended: DeploymentPlan = { ...plan, unservedZones: [...plan.unservedZones, ...held.keys()] };
  HELD_BY_STUB.set(extended, held);
  return extended;
}

/**
 * Every name reached kubedns through dnsmasq's default server while dnsmasq-nanny added the
 * ConfigMap's upstreamNameservers as more default servers (`raced-default-servers`, docs/routing.md):
 * dnsmasq asked whichever default server had answered first, so cluster names went now to kubedns,
 * now to the upstreams. No Corefile races like that: an error unless repaired, and repaired every
 * such name goes to kubedns (what the translation does).
 */
function planRacedDefaultServers(config: KubeDnsConfig, context: Context): void {
  const { pod } = context.plan;
  const upstreams = config.upstreamNameservers ?? [];
  if (!pod.everyNameToKubeDns || !pod.throughDnsmasq || !pod.nannyAppliesConfigMap || upstreams.length === 0) return;
  if (context.plan.strictOrder) {
    // dnsmasq 2.90 with --strict-order asks its default servers in order: kubedns, written before the nanny's upstreams, answers every name.
    context.diagnostics.push(
      diagnostic('deployment-flag', {
        key: 'container dnsmasq',
        path: '[--strict-order]',
        message: `every name reached kubedns through dnsmasq's default server (--no-resolv --server=${kubeDnsAddressOf(context)}) and dnsmasq-nanny added upstreamNameservers ${upstreams.map((entry) => entry.value).join(' ')} after it; with --strict-order dnsmasq asked kubedns first for every name, so no race (raced-default-servers does not apply): the Corefile sends them to the kubernetes plugin and what it does not serve to kubedns's upstreams`,
      }),
    );
    return;
  }
  const what = `raced-default-servers: every name reached kubedns through dnsmasq's default server (--no-resolv --server=${kubeDnsAddressOf(context)}), and dnsmasq-nanny added upstreamNameservers ${upstreams.map((entry) => entry.value).join(' ')} as more default servers; dnsmasq asks all of them now and then (the first query, every 50 queries, every 20 s) and in between the one that answered first, so cluster names went to kubedns or straight to the upstreams (which answer them NXDOMAIN)`;
  context.diagnostics.push(
    context.repairs.has('raced-default-servers')
      ? diagnostic('kube-dns-quirk-repaired', { key: 'upstreamNameservers', path: '', message: `${what}; repaired as asked: every such name goes to the kubernetes plugin and what it does not serve to kubedns's upstreams (check --repair raced-default-servers expects the difference)` })
      : diagnostic('kube-dns-quirk-kept', { key: 'upstreamNameservers', path: '', message: `${what}: no Corefile picks among servers like that, not translated (--repair raced-default-servers sends every such name to kubedns, as the manifest's --server meant)`, severity: 'error' }),
  );
}

/** The zones of the cluster dnsmasq did not send to kubedns, kept (not the kubernetes plugin's) unless repaired. */
function planUnservedZones(context: Context): string[] {
  const zones = context.plan.unservedZones;
  if (zones.length === 0) return [];
  const where = (zone: string) => `[--server=/${zone}/${kubeDnsAddressOf(context)}]`;
  const held = HELD_BY_STUB.get(context.plan);
  const repair = context.repairs.has('unserved-cluster-zones');
  for (const zone of zones) {
    const stub = held?.get(zone);
    if (stub === undefined) continue;
    // The stub's --server beat the default server to kubedns: the zone's names went to the stub's nameservers.
    const cluster = zone === context.clusterDomain;
    const what = `unserved-cluster-zones: every name reached kubedns through dnsmasq's default server (--no-resolv --server=${kubeDnsAddressOf(context)}), and the --server dnsmasq-nanny gave dnsmasq for stub domain '${stub.domain}' is more specific, so dnsmasq sent the names of '${zone}' to ${stub.nameservers.map((entry) => entry.value).join(' ')}`;
    context.diagnostics.push(
      repair
        ? diagnostic('kube-dns-quirk-repaired', { key: 'stubDomains', path: stub.path, message: `${what}; repaired as asked: the kubernetes plugin answers them (check --repair unserved-cluster-zones expects the difference)` })
        : diagnostic('kube-dns-quirk-kept', {
            key: 'stubDomains',
            path: stub.path,
            message: cluster
              ? `${what}, never to kubedns: not translated as it was (--repair unserved-cluster-zones lets the kubernetes plugin answer them)`
              : `${what}; kept: the kubernetes plugin does not serve '${zone}', the stub block gets its names (--repair unserved-cluster-zones to serve it)`,
            ...(cluster ? { severity: 'error' as const } : {}),
          }),
    );
  }
  if (repair) {
    for (const zone of zones) {
      if (held?.has(zone) === true) continue;
      context.diagnostics.push(
        diagnostic('kube-dns-quirk-repaired', { key: 'container dnsmasq', path: where(zone), message: `unserved-cluster-zones: dnsmasq sent '${zone}' upstream (no --server to kubedns); repaired as asked: the kubernetes plugin answers it (check --repair unserved-cluster-zones expects the difference)` }),
      );
    }
    return [];
  }
  for (const zone of zones) {
    if (held?.has(zone) === true) continue;
    const cluster = zone === context.clusterDomain;
    context.diagnostics.push(
      diagnostic('kube-dns-quirk-kept', {
        key: 'container dnsmasq',
        path: where(zone),
        message: cluster
          ? `dnsmasq had no server for the cluster domain '${zone}' to kubedns, so every cluster name went upstream: not translated as it was (--repair unserved-cluster-zones lets the kubernetes plugin answer it)`
          : `unserved-cluster-zones: dnsmasq had no server for '${zone}' to kubedns, so those names went upstream (kops sent the typo in6.arpa instead); kept: the kubernetes plugin does not serve '${zone}' (--repair unserved-cluster-zones to serve it)`,
        ...(cluster ? { severity: 'error' as const } : {}),
      }),
    );
  }
  return [...zones];
}

/**
 * What kubedns forwarded itself (reverse lookups it has no records for, zones dnsmasq sent it that
 * it does not serve), where that is not where the Corefile's main block forwards: a copy of the
 * main block for the reverse zones and a stub block per such zone, forwarding to kubedns's
 * resolver — unless `kubedns-upstreams` is repaired.
 */
function planKubednsForwarding(
  resolver: readonly string[],
  upstreams: readonly string[],
  unserved: readonly string[],
  blockZones: readonly string[],
  context: Context,
): { reverseBlockZones: string[]; forwardStubs: PlannedStub[] } {
  const sorted = [...upstreams].sort();
  const same = resolver.length === upstreams.length && [...resolver].sort().every((target, index) => target === sorted[index]);
  const reverse = context.features.kubernetesFallthroughZones ? KUBERNETES_DEFAULT_REVERSE_ZONES.filter((zone) => !unserved.includes(zone)) : [];
  // A zone dnsmasq sent to kubedns under a stub or template zone: dnsmasq's more specific server won, so it needs its own block.
  const zones = context.plan.kubednsForwardZones.filter((zone) => !blockZones.includes(zone));
  const underParent = zones.filter((zone) => blockZones.some((parent) => isStrictAncestor(parent, zone)));
  const toMain = (list: readonly string[]): PlannedStub[] => list.map((zone) => ({ zone, targets: upstreams.map((text) => ({ text })) }));
  // Nothing to tell apart when the upstreams are already refused.
  if (same || (reverse.length === 0 && zones.length === 0) || hasErrors(context.diagnostics)) return { reverseBlockZones: [], forwardStubs: toMain(underParent) };
  const what = [...(reverse.length === 0 ? [] : [`reverse lookups kubedns has no records for (${reverse.join(', ')})`]), ...(zones.length === 0 ? [] : [`the names of ${zones.join(', ')}`])].join(' and ');
  const whereTo = resolver.join(' ');
  const main = upstreams.join(' ');
  if (context.repairs.has('kubedns-upstreams')) {
    report(context, 'kube-dns-quirk-repaired', 'container kubedns', '', `kubedns-upstreams: kubedns forwarded ${what} to ${whereTo}; repaired as asked: they go to ${main} like every other name (check --repair kubedns-upstreams expects the difference)`);
    return { reverseBlockZones: [], forwardStubs: toMain(underParent) };
  }
  report(
    context,
    'kube-dns-quirk-kept',
    'container kubedns',
    '',
    `kubedns-upstreams: kubedns forwarded ${what} with its own resolver, ${whereTo}, not to ${main} (kube-dns ${context.plan.pod.kubeDnsVersion}: ${context.plan.pod.kubednsUpstreams.kind === 'configmap' ? "upstreamNameservers, never dnsmasq's own --server" : 'before 1.14.10 never upstreamNameservers, kubernetes/dns#198'}); kept: ${reverse.length === 0 ? '' : 'a copy of the main block serves the reverse zones, '}forwarding to ${whereTo} (--repair kubedns-upstreams to forward them like the rest)`,
  );
  return { reverseBlockZones: reverse, forwardStubs: zones.map((zone) => ({ zone, targets: resolver.map((text) => ({ text })) })) };
}

/**
 * `--server=/zone/#`: the zone's names went to dnsmasq's default servers, which are the main
 * block's upstreams, so the zone gets a block forwarding there (in place of a stub block of the
 * same zone: `#` won over its servers). Refused (`deployment-default-servers-not-kept`) where the
 * default server was kubedns, or for a zone of the cluster that kubedns served.
 */
function withDefaultServerZones(stubs: readonly PlannedStub[], upstreams: readonly string[], context: Context): PlannedStub[] {
  const zones = context.plan.defaultZones;
  if (zones.length === 0) return [...stubs];
  const kept: PlannedStub[] = [];
  for (const { target: zone, text } of zones) {
    const ofCluster = [context.clusterDomain, ...KUBERNETES_DEFAULT_REVERSE_ZONES].find((own) => zone === own || zone.endsWith(`.${own}`) || own.endsWith(`.${zone}`) || zone === '');
    const why = context.plan.pod.everyNameToKubeDns
      ? `dnsmasq's default server was kubedns (${kubeDnsAddressOf(context)}), which answered the cluster's names and forwarded the rest with its own resolver`
      : ofCluster !== undefined
        ? `'${zone}' holds or is inside '${ofCluster}', which kubedns served: its names went to the upstreams instead`
        : context.plan.pod.zonesToKubeDns.has(zone)
          ? `dnsmasq also sent '${zone}' to kubedns`
          : undefined;
    if (why !== undefined) {
      report(context, 'deployment-default-servers-not-kept', 'container dnsmasq', `[${text}]`, `${text}: ${why}; no Corefile block sends these names the same way`);
      continue;
    }
    if (kept.some((stub) => stub.zone === zone)) continue;
    kept.push({ zone, targets: upstreams.map((entry) => ({ text: entry })) });
  }
  const replaced = new Set(kept.map((stub) => stub.zone));
  return [...stubs.filter((stub) => !replaced.has(stub.zone)), ...kept];
}

function kubeDnsAddressOf(context: Context): string {
  return context.plan.pod.kubednsAddress;
}
