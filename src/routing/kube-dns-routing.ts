import { checkArgument } from '../errors/arguments.js';
import type { ConfigMapData } from '../configmap/config-map-data.js';
import type { ValueLocator } from '../util/source-position.js';
import { locateValueDiagnostics } from '../kubedns/locate-diagnostics.js';
import { isDns1123Label } from '../dns/go-net.js';
import { EXAMINED_LIST_ITEMS, KUBE_DNS_KEYS, readKubeDnsConfig } from '../kubedns/read-kube-dns-config.js';
import type { KubeDnsConfig, KubeDnsReading } from '../kubedns/read-kube-dns-config.js';
import { KUBERNETES_DEFAULT_REVERSE_ZONES } from '../coredns/kubernetes-default-corefile.js';
import { DEFAULT_CLUSTER_DOMAIN, normalizeZone } from '../dns/zones.js';
import { anyOf, describeDestination, RESOLV_CONF, RESOLV_CONF_MEMBER, serversDestination, socketAddress } from './destination.js';
import type { KubeDnsDeployment } from '../kubedns/kube-dns-install.js';
import { kubeDnsPod, kubeDnsVersionOfImage } from '../kubedns/kube-dns-pod.js';
import { readerName } from '../kubedns/kube-dns-versions.js';
import type { KubeDnsPod } from '../kubedns/kube-dns-pod.js';
import type { KubeDnsQuirk } from '../kubedns/kube-dns-quirks.js';
import { inetAton } from '../kubedns/dnsmasq-options.js';
import type { AddressEntry, DnsmasqSettings, ServerEntry } from '../kubedns/dnsmasq-options.js';
import type { RouteDestination, Route } from './destination.js';
import { canonicalName, displayName, isInZone, labelsAbove, ZoneTable } from '../dns/names.js';

/**
 * Who answers a query name under kube-dns (docs/reference/kube-dns-and-coredns.md §1.3–1.6).
 *
 * A kube-dns pod answers through dnsmasq, which dnsmasq-nanny starts with one `--server=/ZONE/ADDR`
 * per zone: the manifest's own (the cluster domain, `in-addr.arpa` and `ip6.arpa`, all to kubedns
 * on 127.0.0.1:10053) and one per stub domain nameserver; upstreamNameservers become plain
 * `--server=ADDR` with `--no-resolv`, else dnsmasq reads the node's resolv.conf. dnsmasq sends a
 * name to the servers of the most specific zone containing it, and only to those.
 *
 * - the cluster domain → kubedns, whose NXDOMAIN is final (`cluster`);
 * - a federation-shaped name `<svc>.<ns>.<federation>.svc.<cluster-domain>` → kubedns, which
 *   answers with a CNAME into the federation domain (`cluster` with `federation`);
 * - the reverse zones → kubedns, which forwards what it cannot answer (reverse lookups of non-cluster
 *   addresses) to the upstreams (`cluster, else upstreams`);
 * - a stub domain → its nameservers, with no fallback; a stub equal to one of the zones above
 *   makes dnsmasq choose between kubedns and the stub (`any-of`);
 * - everything else → upstreamNameservers, or resolv.conf when the key is absent or `[]`.
 *
 * A ConfigMap kube-dns rejects (validation is all-or-nothing) is ignored: at startup kube-dns runs
 * its defaults, so the model routes like an empty ConfigMap and says so in `notes`.
 *
 * Pure: no Node APIs.
 */
export interface KubeDnsRoutingOptions {
  /** The cluster domain (default: the Deployment's kubedns `--domain`, else `cluster.local`). */
  readonly clusterDomain?: string;
  /** The kube-dns version whose validation rules apply (default: the newest known). */
  readonly kubeDnsVersion?: string;
  /**
   * The kube-dns Deployment ({@link readKubeDnsInstall}): dnsmasq's own `--server`, `--address`
   * and `--no-resolv` flags change where names go (default: the stock manifest's, which send the
   * cluster domain and the reverse zones to kubedns).
   */
  readonly deployment?: KubeDnsDeployment;
  /**
   * kube-dns quirks the Corefile is meant to repair (see {@link KubeDnsQuirk}): the model routes as
   * if kube-dns had not had them. `check` uses it to tell the differences it expects.
   */
  readonly repairs?: readonly KubeDnsQuirk[];
  /**
   * Route as if the ConfigMap had no federations (the translator's `dropFederations`): their
   * names are plain cluster names. `check` uses it to tell the differences it expects.
   */
  readonly dropFederations?: boolean;
  /**
   * Where the ConfigMap's values are written in the file it was read from (`ConfigMapDocument.locate`):
   * the note on a ConfigMap kube-dns rejects then says where its first problem is in that file.
   */
  readonly locate?: ValueLocator;
}

export interface KubeDnsRouting {
  readonly clusterDomain: string;
  /** False when kube-dns rejected the ConfigMap; the model then routes like kube-dns's defaults. */
  readonly acceptedByKubeDns: boolean;
  /** The reading of the ConfigMap, with kube-dns's diagnostics. */
  readonly reading: KubeDnsReading;
  /** What the model assumed or could not follow, one sentence each. */
  readonly notes: readonly string[];
  /** Zones the model routes on: the cluster domain, the reverse zones and every stub domain in effect. */
  readonly zones: readonly string[];
  /** Names of the federations in effect, with their domains. */
  readonly federations: ReadonlyMap<string, string>;
  /**
   * Whether dnsmasq kept NXDOMAIN answers: `false` with `--no-negcache` or `--cache-size=0`;
   * undefined without a Deployment to read.
   */
  readonly cachesNegativeAnswers: boolean | undefined;
  /** The quirks modelled as repaired. */
  readonly repairs: readonly KubeDnsQuirk[];
  /**
   * Who answers a query for `name` (any case, trailing dot optional) of query type `type` (default
   * `A`; `AAAA`, `MX`, … any case). Only an `--address` zone routes by type.
   */
  route(name: string, type?: string): Route;
  /** Whether who answers `name` depends on the query type (it is in an `--address` zone). */
  dependsOnType(name: string): boolean;
  /**
   * The `--address` flag under whose domain dnsmasq 2.86+ (kube-dns 1.22.1+) turns a server's
   * NXDOMAIN for `name` into NOERROR without records (it "knows the domain exists": `forward.c`,
   * `process_reply`, `lookup_domain(…, F_CONFIG)`): the longest domain holding `name` that has an
   * address (IPv4, IPv6 or `#`); undefined when there is none or for an older dnsmasq. It applies
   * to the names dnsmasq forwards (a more specific stub, kubedns, the other query types).
   */
  nxdomainAsNoData(name: string): string | undefined;
  /**
   * The record types dnsmasq answers an ANY query for `name` with from its own `--address` entries
   * (dnsmasq 2.86+, measured with 2.90): those of the first of the name's IPv6 addresses, its IPv4
   * addresses and `#`, where `#` alone gives both null addresses (`['A', 'AAAA']`). Undefined where
   * no address answers ANY, or for an older dnsmasq (not measured).
   */
  anyRecordTypes(name: string): readonly string[] | undefined;
}

type ZoneEntry =
  | { readonly kind: 'cluster' }
  /** A zone dnsmasq sends to kubedns that kubedns does not serve: kubedns forwards it to its own resolver. */
  | { readonly kind: 'kubedns-forward' }
  /** `--address=/zone/` or `--server=/zone/`: dnsmasq answers every type itself (NXDOMAIN). */
  | { readonly kind: 'local'; readonly text: string }
  /**
   * `--address=/zone/ip`: dnsmasq answers the query types of its addresses itself; the other types
   * go to the zone's servers (`below`), else NODATA (`noData`: an NXDOMAIN entry of the same zone,
   * or dnsmasq before 2.86), else on as if the entry were not there (dnsmasq 2.86+).
   */
  | {
      readonly kind: 'address';
      readonly text: string;
      readonly types: ReadonlySet<string>;
      /** What was written: `A`, `AAAA` addresses and `#` (an ANY query gets the first of IPv6, IPv4, `#`). */
      readonly families: ReadonlySet<string>;
      readonly below: ZoneEntry | undefined;
      readonly noData: boolean;
    }
  | { readonly kind: 'reverse' }
  /**
   * `--server=/zone/#`: dnsmasq sends the zone's names to its default servers (those of no domain:
   * `--server=ADDR`, resolv.conf), as if no domain held them; it wins over the zone's other servers.
   */
  | { readonly kind: 'default'; readonly text: string }
  | { readonly kind: 'stub'; readonly servers: readonly string[] }
  | { readonly kind: 'both'; readonly own: 'cluster' | 'reverse'; readonly servers: readonly string[] };

const EMPTY_CONFIG: KubeDnsConfig = { stubDomains: [], upstreamNameservers: undefined, federations: undefined };

/** The kube-dns routing model of a ConfigMap's data (`null`: there is no ConfigMap). */
export function kubeDnsRouting(data: ConfigMapData | null, options: KubeDnsRoutingOptions = {}): KubeDnsRouting {
  return routingOf(data, options, {});
}

/**
 * The model as if no dnsmasq entry applied to names without a dot (neither `//` nor
 * `trailing-dot-domains`): what no Corefile can route otherwise where those entries are servers
 * (`check` lists such names as unavoidable). Internal: not part of the package's API.
 */
export function kubeDnsRoutingIgnoringUnqualified(data: ConfigMapData | null, options: KubeDnsRoutingOptions = {}): KubeDnsRouting {
  return routingOf(data, options, { ignoreUnqualified: true });
}

function routingOf(data: ConfigMapData | null, options: KubeDnsRoutingOptions, internal: { readonly ignoreUnqualified?: boolean }): KubeDnsRouting {
  checkArgument('kubeDnsRouting', 'options', options, 'object?');
  const deploymentDomain = options.deployment?.kubedns === undefined ? undefined : (options.deployment.kubedns.args.values.domain ?? DEFAULT_CLUSTER_DOMAIN);
  const clusterDomain = canonicalName(options.clusterDomain ?? deploymentDomain ?? DEFAULT_CLUSTER_DOMAIN);
  // The release of the Deployment's kubedns image when no version is given, as the translator reads it.
  const kubeDnsVersion = options.kubeDnsVersion ?? kubeDnsVersionOfImage(options.deployment?.kubedns?.image);
  const reading = readKubeDnsConfig(data, kubeDnsVersion === undefined ? {} : { kubeDnsVersion });
  const notes: string[] = [];
  const keys = Object.keys(data ?? {});
  if (keys.length > 0 && !keys.some((key) => (KUBE_DNS_KEYS as readonly string[]).includes(key))) {
    notes.push(`the ConfigMap has none of ${KUBE_DNS_KEYS.join(', ')} (only ${keys.join(', ')}): kube-dns runs its defaults`);
  }
  let config = reading.config;
  if (!reading.acceptedByKubeDns) {
    const problems = reading.diagnostics.filter((entry) => entry.severity === 'error' || entry.code === 'federations-json');
    const [first] = options.locate === undefined ? problems : locateValueDiagnostics(problems.slice(0, 1), { data: data ?? {}, locate: options.locate });
    const at = first?.location === undefined ? '' : ` (${first.location.filename}:${first.location.line}:${first.location.column})`;
    notes.push(
      `${readerName(reading.rules)} rejects this ConfigMap (${problems.length} problem${problems.length === 1 ? '' : 's'}${first === undefined ? '' : `, first: ${first.message}${at}`}) and runs its defaults at startup: no stub domains, no federations, upstreams from resolv.conf; the kube-dns routes are those defaults (after a later edit, kube-dns would keep its previous configuration instead)`,
    );
    config = EMPTY_CONFIG;
  }

  const pod = kubeDnsPod(options.deployment, reading.rules.version, clusterDomain);
  const repairs = new Set(options.repairs ?? []);
  if (!pod.nannyAppliesConfigMap && (config.stubDomains.length > 0 || config.upstreamNameservers !== undefined)) {
    notes.push(
      `${pod.throughDnsmasq ? 'dnsmasq runs without dnsmasq-nanny' : 'the Pod has no dnsmasq'}: the ConfigMap's stubDomains and upstreamNameservers never reached dnsmasq${pod.kubednsUpstreams.kind === 'configmap' ? ' (kubedns forwarded with upstreamNameservers)' : ''}`,
    );
  }
  const manifest = manifestServers(options.deployment, pod, notes);
  const upstreamNameservers = config.upstreamNameservers ?? [];
  const configMapUpstreams = upstreamNameservers.map((entry) => addressOf(entry.value, 'upstreamNameservers', notes));
  const nannyUpstreams = pod.nannyAppliesConfigMap ? configMapUpstreams : [];
  // Where kubedns forwards what it does not serve (docs/kube-dns-deployment.md, "Who applied the ConfigMap").
  const kubednsResolver: Route =
    pod.kubednsUpstreams.kind === 'configmap' && configMapUpstreams.length > 0
      ? { destination: serversDestination(configMapUpstreams), via: 'kubedns forwards it to upstreamNameservers' }
      : pod.kubednsUpstreams.kind === 'nameservers'
        ? { destination: serversDestination(pod.kubednsUpstreams.servers.map((server) => socketAddress(server).address)), via: 'kubedns forwards it to its --nameservers' }
        : { destination: RESOLV_CONF, via: "kubedns forwards it to the Pod's resolv.conf" };
  const dnsmasqUpstream: Route =
    manifest !== undefined && manifest.upstreams.length > 0 && (manifest.noResolv || nannyUpstreams.length > 0)
      ? { destination: serversDestination([...manifest.upstreams, ...nannyUpstreams]), via: 'dnsmasq --server with --no-resolv' }
      : manifest !== undefined && manifest.upstreams.length > 0
        ? { destination: serversDestination([...manifest.upstreams, RESOLV_CONF_MEMBER]), via: 'dnsmasq --server beside resolv.conf' }
        : nannyUpstreams.length === 0
          ? { destination: RESOLV_CONF, via: config.upstreamNameservers === undefined || !pod.nannyAppliesConfigMap ? 'no upstreamNameservers: resolv.conf' : 'upstreamNameservers is empty: resolv.conf' }
          : { destination: serversDestination(nannyUpstreams), via: 'upstreamNameservers' };
  const upstream: Route = pod.everyNameToKubeDns ? kubednsResolver : dnsmasqUpstream;
  // Repaired (`kubedns-upstreams`): what kubedns forwarded itself goes where dnsmasq sends the rest.
  const kubednsForwards: Route = repairs.has('kubedns-upstreams') ? upstream : kubednsResolver;

  const table = new ZoneTable<ZoneEntry>();
  // Every name to kubedns through dnsmasq's default server: the cluster's zones are kubedns's unless
  // a domain of dnsmasq's own holds them (it beats the default server), as the translator reads it.
  // The nanny's --server=/stub/… for a ConfigMap stub domain is such a domain too (kubespray-style `local`).
  const configMapStubZones = pod.nannyAppliesConfigMap ? configMapStubDomains(config) : [];
  const heldByDnsmasq = (zone: string) =>
    manifest !== undefined && !pod.zonesToKubeDns.has(zone) && [...manifest.stubs.keys(), ...manifest.local.map((entry) => entry.zone), ...configMapStubZones].some((domain) => domain !== '' && isInZone(zone, domain));
  const implicit = pod.everyNameToKubeDns && !repairs.has('unserved-cluster-zones') ? [clusterDomain, ...KUBERNETES_DEFAULT_REVERSE_ZONES].filter((zone) => !heldByDnsmasq(zone)) : [];
  const toKubeDns: ReadonlySet<string> = repairs.has('unserved-cluster-zones') ? new Set([clusterDomain, ...KUBERNETES_DEFAULT_REVERSE_ZONES, ...pod.zonesToKubeDns]) : new Set([...implicit, ...pod.zonesToKubeDns]);
  if (toKubeDns.has(clusterDomain)) table.set(clusterDomain, { kind: 'cluster' });
  else notes.push(`dnsmasq has no --server for the cluster domain ${clusterDomain} to kubedns: its names go ${pod.everyNameToKubeDns && heldByDnsmasq(clusterDomain) ? "where dnsmasq's most specific domain holding them sends them" : 'upstream'}`);
  for (const zone of KUBERNETES_DEFAULT_REVERSE_ZONES) {
    if (table.has(zone)) continue;
    if (toKubeDns.has(zone)) table.set(zone, { kind: 'reverse' });
    else notes.push(`dnsmasq has no --server for ${zone} to kubedns: reverse lookups there go ${pod.everyNameToKubeDns && heldByDnsmasq(zone) ? "where dnsmasq's most specific domain holding them sends them" : 'upstream'}`);
  }
  for (const zone of toKubeDns) if (!table.has(zone)) table.set(zone, { kind: 'kubedns-forward' });
  const stubDomains = pod.nannyAppliesConfigMap ? config.stubDomains : [];
  for (const stub of stubDomains) {
    const normalized = normalizeZone(stub.domain);
    if ('problem' in normalized) {
      notes.push(`stub domain '${stub.domain}' is not modelled: ${normalized.problem}`);
      continue;
    }
    const { zone } = normalized;
    if (stub.nameservers.length === 0) {
      notes.push(`stub domain ${zone} has no nameservers: dnsmasq-nanny adds no --server for it, so its names go upstream`);
      continue;
    }
    if (stub.listedNameservers !== undefined) {
      notes.push(`stub domain ${zone} lists ${stub.listedNameservers} nameservers: only the first ${EXAMINED_LIST_ITEMS} were read and are modelled`);
    }
    const servers = stub.nameservers.map((entry) => addressOf(entry.value, `stub domain ${zone}`, notes));
    const existing = table.get(zone);
    if (existing !== undefined && (existing.kind === 'cluster' || existing.kind === 'reverse')) {
      notes.push(`stub domain ${zone} is also served by kubedns: dnsmasq has two server sets for it and may pick either`);
      table.set(zone, { kind: 'both', own: existing.kind, servers });
    } else {
      table.set(zone, { kind: 'stub', servers });
    }
  }

  for (const [zone, servers] of manifest?.stubs ?? []) {
    const existing = table.get(zone);
    if (existing?.kind === 'stub') table.set(zone, { kind: 'stub', servers: [...servers, ...existing.servers] });
    else if (existing?.kind === 'cluster' || existing?.kind === 'reverse') table.set(zone, { kind: 'both', own: existing.kind, servers });
    else if (existing?.kind === 'both') table.set(zone, { ...existing, servers: [...servers, ...existing.servers] });
    else table.set(zone, { kind: 'stub', servers });
  }
  // `#` wins over the zone's servers, kubedns's included (domain-match.c: resolv servers sort before the others).
  for (const entry of manifest?.defaults ?? []) table.set(entry.zone, { kind: 'default', text: entry.text });
  for (const local of manifest?.local ?? []) {
    // dnsmasq 2.90: an address answers its type before the zone's servers; NXDOMAIN gives way to them.
    const existing = table.get(local.zone);
    if (local.address === undefined) {
      // Addresses come first: an NXDOMAIN entry beside one makes the zone's other types NODATA.
      if (existing?.kind === 'address') table.set(local.zone, { ...existing, noData: true });
      else if (existing === undefined) table.set(local.zone, { kind: 'local', text: local.text });
      continue;
    }
    // `#` is the null address of both families (0.0.0.0 and ::).
    const family = local.address === '#' ? '#' : local.address.includes(':') ? 'AAAA' : 'A';
    const types = family === '#' ? ['A', 'AAAA'] : [family];
    if (existing?.kind === 'address') table.set(local.zone, { ...existing, types: new Set([...existing.types, ...types]), families: new Set([...existing.families, family]) });
    else table.set(local.zone, { kind: 'address', text: local.text, types: new Set(types), families: new Set([family]), below: existing, noData: !pod.dnsmasqAddressTypesOnly });
  }

  const federations = new Map<string, string>(options.dropFederations === true ? [] : (config.federations ?? []).map((entry) => [entry.name, entry.domain]));
  const reverseDestination: RouteDestination = { kind: 'cluster', otherwise: kubednsForwards.destination };

  function clusterRoute(name: string, zone: string): Route {
    const federation = federationOf(name, zone, federations);
    if (federation !== undefined) return { destination: { kind: 'cluster', zone, federation: federation.domain }, via: `kubedns: federation ${federation.name}` };
    return { destination: { kind: 'cluster', zone }, via: `kubedns: cluster domain ${zone}` };
  }

  // Repaired (`trailing-dot-domains`): names without a dot go where every other name goes, but for the entries written for them (`//`).
  const unqualified = internal.ignoreUnqualified === true ? undefined : repairs.has('trailing-dot-domains') ? manifest?.unqualifiedWritten : manifest?.unqualified;

  // dnsmasq-nanny's upstreamNameservers beside the default server to kubedns (`raced-default-servers`):
  // dnsmasq asks the fastest of them, so a name that reaches the default server goes to either.
  // With --strict-order it asks them in order, and kubedns (the manifest's, before the nanny's) answers
  // every such name, however slow (measured with dnsmasq 2.90): no race.
  const strictOrder = options.deployment?.dnsmasq?.dnsmasq?.strictOrder === true;
  const racedUpstreams = pod.everyNameToKubeDns && pod.throughDnsmasq && nannyUpstreams.length > 0 && !strictOrder && !repairs.has('raced-default-servers') ? serversDestination(nannyUpstreams) : undefined;
  if (pod.everyNameToKubeDns && pod.throughDnsmasq && nannyUpstreams.length > 0 && strictOrder) {
    notes.push("every name reached kubedns through dnsmasq's default server, and dnsmasq-nanny added upstreamNameservers as more default servers after it; with --strict-order dnsmasq asked kubedns first for every name (the upstreams only when it failed)");
  }
  if (racedUpstreams !== undefined) {
    notes.push(`every name reached kubedns through dnsmasq's default server, and dnsmasq-nanny added upstreamNameservers as more default servers: dnsmasq asked whichever had answered first, so those names went to kubedns or to ${describeDestination(racedUpstreams)} (raced-default-servers)`);
  }
  // The cluster's zones reached through the default server (not through a --server=/zone/ of their own).
  const implicitZones = new Set(implicit.filter((zone) => !pod.zonesToKubeDns.has(zone)));

  // --dns-forward-max=0: dnsmasq keeps no query in flight and answers REFUSED to every query it would forward (measured with 2.90).
  const forwardsNothing = options.deployment?.dnsmasq?.dnsmasq?.dnsForwardMax === 0;
  if (forwardsNothing) notes.push('dnsmasq runs with --dns-forward-max=0: it answers REFUSED to every query it would forward, kubedns\'s names included');

  function route(query: string, type = 'A'): Route {
    const found = routeForwarded(query, type);
    if (!forwardsNothing || found.destination === LOCAL_ANSWER) return found;
    return { destination: LOCAL_ANSWER, via: `dnsmasq answers REFUSED itself (--dns-forward-max=0), where it would have forwarded: ${found.via}` };
  }

  function routeForwarded(query: string, type: string): Route {
    const name = canonicalName(query);
    const qtype = type.toUpperCase();
    const match = table.longestMatch(name);
    // A name without a dot: its own zone first, else what dnsmasq applies to such names (dnsmasq 2.86+).
    if (unqualified !== undefined && name !== '' && !name.includes('.') && match?.zone !== name) return unqualifiedRoute(name, match?.zone, match?.value, qtype, unqualified);
    const found = routeIn(name, match?.zone, match?.value, qtype);
    if (racedUpstreams === undefined || (match !== undefined && !implicitZones.has(match.zone))) return found;
    return { destination: anyOf([found.destination, racedUpstreams]), via: `${found.via}, or upstreamNameservers straight from dnsmasq (its fastest default server)` };
  }

  /** A name without a dot under the entries that apply to such names; the other types of an address go on from `zone`. */
  function unqualifiedRoute(name: string, zone: string | undefined, value: ZoneEntry | undefined, qtype: string, entries: UnqualifiedRoute): Route {
    if (entries.types === undefined || entries.types.has(qtype) || qtype === 'ANY') return entries.route;
    return entries.otherTypes ?? routeIn(name, zone, value, qtype);
  }

  /** Who answers `name` under the entry of `zone` (undefined: no zone holds it), for query type `qtype`. */
  function routeIn(name: string, zone: string | undefined, value: ZoneEntry | undefined, qtype: string): Route {
    if (zone === undefined || value === undefined) return upstream;
    switch (value.kind) {
      case 'cluster':
        return clusterRoute(name, zone);
      case 'reverse':
        return { destination: reverseDestination, via: `kubedns: reverse zone ${zone}` };
      case 'kubedns-forward':
        // kubedns answers the names of its own zones whichever dnsmasq zone sent them (`--server=/arpa/…`).
        if (isInZone(name, clusterDomain)) return clusterRoute(name, clusterDomain);
        if (KUBERNETES_DEFAULT_REVERSE_ZONES.some((reverse) => isInZone(name, reverse))) return { destination: reverseDestination, via: `kubedns: reverse lookup (dnsmasq sends ${displayName(zone)} to kubedns)` };
        return { destination: kubednsForwards.destination, via: `dnsmasq sends ${displayName(zone)} to kubedns, which serves no such zone: ${kubednsForwards.via}` };
      case 'local':
        return { destination: LOCAL_ANSWER, via: `dnsmasq answers itself (${value.text})` };
      case 'address': {
        // ANY gets the address too (with both families, dnsmasq 2.86+ answers it with the IPv6 one: measured with 2.90).
        if (value.types.has(qtype) || qtype === 'ANY') return { destination: LOCAL_ANSWER, via: `dnsmasq answers itself (${value.text})` };
        if (value.below !== undefined) return routeIn(name, zone, value.below, qtype);
        if (value.noData) return { destination: LOCAL_ANSWER, via: `dnsmasq answers ${qtype} NODATA itself (${value.text}${pod.dnsmasqAddressTypesOnly ? ' and an NXDOMAIN entry of the zone' : ', dnsmasq before 2.86'})` };
        // dnsmasq 2.86+: the other types are looked up as if the entry were not there; a name without
        // a dot that finds no other zone then meets the entries for such names (domain-match.c).
        const parent = zone === '' ? undefined : table.longestMatch(parentName(zone));
        const onward =
          unqualified !== undefined && !name.includes('.') && (parent === undefined || parent.zone === '')
            ? unqualifiedRoute(name, parent?.zone, parent?.value, qtype, unqualified)
            : routeIn(name, parent?.zone, parent?.value, qtype);
        return { destination: onward.destination, via: `${value.text} answers ${[...value.types].join(' and ')} only (dnsmasq 2.86+): ${onward.via}` };
      }
      case 'stub':
        return { destination: serversDestination(value.servers), via: `stub domain ${displayName(zone)}` };
      case 'default': {
        // Where a name no domain holds goes; with every name to kubedns, kubedns answers its own zones.
        const via = `dnsmasq sends ${displayName(zone)} to its default servers (${value.text})`;
        if (pod.everyNameToKubeDns && isInZone(name, clusterDomain)) return { ...clusterRoute(name, clusterDomain), via: `${via}: kubedns` };
        if (pod.everyNameToKubeDns && KUBERNETES_DEFAULT_REVERSE_ZONES.some((reverse) => isInZone(name, reverse))) return { destination: reverseDestination, via: `${via}: kubedns` };
        const found = upstream;
        return { destination: racedUpstreams === undefined ? found.destination : anyOf([found.destination, racedUpstreams]), via: `${via}: ${found.via}` };
      }
      case 'both': {
        const own = value.own === 'cluster' ? clusterRoute(name, zone).destination : reverseDestination;
        return { destination: anyOf([own, serversDestination(value.servers)]), via: `stub domain ${zone} and kubedns` };
      }
    }
  }

  const addressZones = new ZoneTable<string>();
  if (pod.dnsmasqAddressTypesOnly) for (const entry of manifest?.addressZones ?? []) if (!addressZones.has(entry.zone)) addressZones.set(entry.zone, entry.text);
  function nxdomainAsNoData(query: string): string | undefined {
    return addressZones.longestMatch(canonicalName(query))?.value;
  }

  function dependsOnType(query: string): boolean {
    const name = canonicalName(query);
    const match = table.longestMatch(name);
    if (unqualified?.types !== undefined && name !== '' && !name.includes('.') && match?.zone !== name) return true;
    return match?.value.kind === 'address';
  }

  function anyRecordTypes(query: string): readonly string[] | undefined {
    if (!pod.dnsmasqAddressTypesOnly) return undefined;
    const name = canonicalName(query);
    const match = table.longestMatch(name);
    if (unqualified !== undefined && name !== '' && !name.includes('.') && match?.zone !== name) return unqualified.anyTypes;
    if (match?.value.kind !== 'address') return undefined;
    // The IPv6 addresses, else the IPv4 ones, else `#` with both (measured with 2.90).
    const { families } = match.value;
    return families.has('AAAA') ? ['AAAA'] : families.has('A') ? ['A'] : ['A', 'AAAA'];
  }

  return {
    clusterDomain,
    acceptedByKubeDns: reading.acceptedByKubeDns,
    reading,
    notes,
    zones: [...table.zones()],
    federations,
    cachesNegativeAnswers: negativeCachingOf(options.deployment),
    repairs: [...repairs],
    route,
    dependsOnType,
    nxdomainAsNoData,
    anyRecordTypes,
  };
}

/** The zones of the stub domains dnsmasq-nanny gives dnsmasq a `--server` for (those with nameservers). */
function configMapStubDomains(config: KubeDnsConfig): string[] {
  return config.stubDomains.flatMap((stub) => {
    const normalized = normalizeZone(stub.domain);
    return 'problem' in normalized || stub.nameservers.length === 0 ? [] : [normalized.zone];
  });
}

/** A dnsmasq domain as a zone: `#` is every domain (the root). */
function dnsmasqZone(domain: string): string {
  return domain === '#' ? '' : canonicalName(domain);
}

/** The zone right above `zone` (`''` for a zone of one label). */
function parentName(zone: string): string {
  const dot = zone.indexOf('.');
  return dot === -1 ? '' : zone.slice(dot + 1);
}

function negativeCachingOf(deployment: KubeDnsDeployment | undefined): boolean | undefined {
  // A Pod without dnsmasq cached nothing: kubedns answers from its records, SkyDNS forwards uncached.
  if (deployment !== undefined && deployment.dnsmasq === undefined) return false;
  const dnsmasq = deployment?.dnsmasq?.dnsmasq;
  if (dnsmasq === undefined || dnsmasq.problem !== undefined) return undefined;
  return !(dnsmasq.noNegcache || dnsmasq.cacheSize === 0);
}

/**
 * dnsmasq's own answer (`--address`, `--server=/zone/`) stands as the CoreDNS plugin that gives the
 * same kind of answer from the configuration: `template`.
 */
const LOCAL_ANSWER: RouteDestination = Object.freeze({ kind: 'plugin', plugin: 'template' });

interface ManifestServers {
  /** Zones dnsmasq sends to kubedns (127.0.0.1 and kubedns's `--dns-port`). */
  readonly toKubeDns: ReadonlySet<string>;
  readonly stubs: ReadonlyMap<string, readonly string[]>;
  readonly upstreams: readonly string[];
  readonly noResolv: boolean;
  readonly local: readonly { readonly zone: string; readonly address: string | undefined; readonly text: string }[];
  /** The zones of `--server=/zone/#` (the default servers), with the option as written. */
  readonly defaults: readonly { readonly zone: string; readonly text: string }[];
  /** The domains of the `--address` flags with an address (IPv4, IPv6, `#`); `''` for `#` (every domain). */
  readonly addressZones: readonly { readonly zone: string; readonly text: string }[];
  /**
   * Where dnsmasq sends names without a dot that no zone of its own matches, when an entry applies
   * to them as well (a domain before the last ending in a dot, dnsmasq 2.86+); undefined: nowhere
   * special.
   */
  readonly unqualified: UnqualifiedRoute | undefined;
  /** The same for the entries written for names without a dot (`//`) only: what stays when `trailing-dot-domains` is repaired. */
  readonly unqualifiedWritten: UnqualifiedRoute | undefined;
}

/**
 * Names without a dot under dnsmasq 2.86+: `route` for every query type, or, for an address, for
 * its `types` only; the other types go to `otherTypes` (the servers that apply, or NODATA beside an
 * NXDOMAIN entry), else where every other name goes.
 */
interface UnqualifiedRoute {
  readonly route: Route;
  readonly types?: ReadonlySet<string>;
  readonly otherTypes?: Route;
  /** For an address: the record types of its answer to ANY (see `KubeDnsRouting.anyRecordTypes`). */
  readonly anyTypes?: readonly string[];
}

/** What the Deployment's dnsmasq flags say about where names go; undefined without a dnsmasq to read. */
function manifestServers(deployment: KubeDnsDeployment | undefined, pod: KubeDnsPod, notes: string[]): ManifestServers | undefined {
  const dnsmasq = deployment?.dnsmasq?.dnsmasq;
  if (deployment === undefined || dnsmasq === undefined || dnsmasq.problem !== undefined) return undefined;
  const kubedns = `127.0.0.1:${deployment.kubedns?.args.values.dnsPort ?? 10053}`;
  const toKubeDns = new Set<string>();
  const stubs = new Map<string, string[]>();
  const upstreams: string[] = [];
  const local: { zone: string; address: string | undefined; text: string }[] = [];
  const defaults: { zone: string; text: string }[] = [];
  const addressZones: { zone: string; text: string }[] = [];
  for (const server of dnsmasq.servers) {
    // `''` (written `//`) is names without a dot: their entries are gathered below (unqualifiedRoute).
    if (server.domains?.includes('') === true && server.target.kind === 'default-upstreams') notes.push(`${server.option.text}: dnsmasq 2.90 stops (a segmentation fault) at the first query for a name without a dot; not modelled`);
    const domains = server.domains?.filter((domain) => domain !== '');
    if (domains !== undefined && domains.length === 0) continue;
    // `#` is every domain (dnsmasq reads it as the empty domain without a dot rule: option.c, v2.86–v2.90).
    const every = domains?.includes('#') === true;
    if (every && (server.target.kind !== 'upstream' || domains?.length !== 1)) {
      notes.push(`${server.option.text} ('#': every domain) is not modelled`);
      continue;
    }
    const zones = every ? undefined : domains?.map((domain) => canonicalName(domain));
    if (server.target.kind === 'local-only' && zones !== undefined) {
      for (const zone of zones) local.push({ zone, address: undefined, text: server.option.text });
      continue;
    }
    // `--server=/zone/#` (SERV_USE_RESOLV, option.c and domain-match.c, v2.90): the default servers.
    if (server.target.kind === 'default-upstreams' && zones !== undefined) {
      for (const zone of zones) defaults.push({ zone, text: server.option.text });
      continue;
    }
    if (server.target.kind !== 'upstream') {
      notes.push(`${server.option.text} is not modelled`);
      continue;
    }
    const target = dnsmasqTarget(server.target);
    if (zones === undefined) {
      if (target !== kubedns) upstreams.push(target);
      continue;
    }
    for (const zone of zones) {
      if (target === kubedns) toKubeDns.add(zone);
      else stubs.set(zone, [...(stubs.get(zone) ?? []), target]);
    }
  }
  for (const entry of dnsmasq.addresses) {
    // An address (IPv4, IPv6, `#`) makes dnsmasq 2.86+ answer NODATA for a server's NXDOMAIN under its domains.
    if (entry.address !== undefined && entry.domains !== undefined) for (const domain of entry.domains) if (domain !== '') addressZones.push({ zone: dnsmasqZone(domain), text: entry.option.text });
    const domains = entry.domains?.filter((domain) => domain !== '');
    if (domains !== undefined && domains.length === 0) continue;
    if (domains === undefined) {
      notes.push(`${entry.option.text} is not modelled`);
      continue;
    }
    for (const domain of domains) local.push({ zone: dnsmasqZone(domain), address: entry.address, text: entry.option.text });
  }
  // Addresses first, so that an NXDOMAIN entry (which gives way to servers) never hides one.
  local.sort((a, b) => (a.address === undefined ? 1 : 0) - (b.address === undefined ? 1 : 0));
  // Names without a dot: the entries written for them (`//`, every dnsmasq), and with dnsmasq 2.86+
  // (kube-dns 1.22.1+) those whose domain list has a dot before its last (`trailing-dot-domains`).
  const written = (entry: { readonly domains: readonly string[] | undefined }) => entry.domains?.includes('') === true;
  const trailingDot = pod.dnsmasqTrailingDotUnqualified;
  const unqualified = unqualifiedEntries(dnsmasq, (entry) => written(entry) || (trailingDot && entry.trailingDotUnqualified), pod.dnsmasqAddressTypesOnly, (target) => dnsmasqTarget(target));
  const unqualifiedWritten = unqualifiedEntries(dnsmasq, written, pod.dnsmasqAddressTypesOnly, (target) => dnsmasqTarget(target));
  return { toKubeDns, stubs, upstreams, noResolv: dnsmasq.noResolv, local, defaults, addressZones, unqualified, unqualifiedWritten };
}

/**
 * Where dnsmasq sends names without a dot under the entries that `apply` to them (docs/kube-dns-deployment.md,
 * "Names without a dot"); undefined when none does. dnsmasq 2.86+ (`newRules`, `src/domain-match.c`,
 * `lookup_domain`): as for one domain, an address answers its types first, then servers, then an
 * NXDOMAIN entry; a type no address, server or NXDOMAIN entry serves is REFUSED (measured with 2.90).
 * Before (`src/forward.c`, `search_servers`, v2.85): an address answers its type and NODATA for the
 * others, an NXDOMAIN entry wins over servers.
 */
function unqualifiedEntries(
  dnsmasq: DnsmasqSettings,
  apply: (entry: ServerEntry | AddressEntry) => boolean,
  newRules: boolean,
  target: (server: { readonly address: string; readonly port: number }) => string,
): UnqualifiedRoute | undefined {
  const servers: string[] = [];
  let serversText: string | undefined;
  let nxdomain: string | undefined;
  let address: { readonly text: string; readonly types: Set<string> } | undefined;
  // The families written as addresses, and `#`: an ANY query gets the first of IPv6, IPv4, `#` (measured with 2.90).
  const written = new Set<string>();
  for (const server of dnsmasq.servers) {
    if (!apply(server)) continue;
    if (server.target.kind === 'upstream') {
      servers.push(target(server.target));
      serversText ??= server.option.text;
    } else if (server.target.kind === 'local-only') nxdomain ??= server.option.text;
  }
  for (const entry of dnsmasq.addresses) {
    if (!apply(entry)) continue;
    if (entry.address === undefined) {
      nxdomain ??= entry.option.text;
      continue;
    }
    // `#` is the null address of both families (0.0.0.0 and ::).
    const types = entry.address === '#' ? ['A', 'AAAA'] : [entry.address.includes(':') ? 'AAAA' : 'A'];
    written.add(entry.address === '#' ? '#' : (types[0] as string));
    address ??= { text: entry.option.text, types: new Set() };
    for (const type of types) address.types.add(type);
  }
  const via = 'names without a dot: dnsmasq applies';
  const toServers: Route | undefined = serversText === undefined ? undefined : { destination: serversDestination(servers), via: `${via} ${serversText} to them` };
  const answered: Route | undefined = nxdomain === undefined ? undefined : { destination: LOCAL_ANSWER, via: `${via} ${nxdomain} to them and answers NXDOMAIN itself` };
  if (address !== undefined) {
    const route: Route = { destination: LOCAL_ANSWER, via: `${via} ${address.text} to them and answers itself` };
    const noData: Route = { destination: LOCAL_ANSWER, via: `${via} ${address.text}${nxdomain === undefined ? '' : ` and ${nxdomain}`} to them and answers the other types NODATA itself${newRules ? '' : ' (dnsmasq before 2.86)'}` };
    const refused: Route = { destination: LOCAL_ANSWER, via: `${via} ${address.text} to them and answers the other types REFUSED itself (dnsmasq 2.86+)` };
    const anyTypes = written.has('AAAA') ? ['AAAA'] : written.has('A') ? ['A'] : ['A', 'AAAA'];
    return { route, types: address.types, otherTypes: !newRules ? noData : (toServers ?? (nxdomain === undefined ? refused : noData)), anyTypes };
  }
  if (!newRules && answered !== undefined) return { route: answered };
  return toServers !== undefined ? { route: toServers } : answered === undefined ? undefined : { route: answered };
}

/** A dnsmasq upstream as the routing models write socket addresses. */
function dnsmasqTarget(target: { readonly address: string; readonly port: number }): string {
  return target.address.includes(':') ? `[${target.address}]:${target.port}` : `${target.address}:${target.port}`;
}

/** A nameserver as dnsmasq uses it, noting what dnsmasq-nanny does to it. */
function addressOf(value: string, where: string, notes: string[]): string {
  const octal = /^(\d+\.\d+\.\d+\.\d+)(:\d+)?$/.exec(value);
  if (octal !== null && (octal[1] as string).split('.').some((octet) => octet.length > 1 && octet.startsWith('0'))) {
    // dnsmasq reads the text the nanny passes it with inet_aton: a leading-zero octet is octal.
    const dnsmasqAddress = inetAton(octal[1] as string);
    if (dnsmasqAddress === undefined) {
      notes.push(`${where}: dnsmasq refuses '${value}' (a leading-zero octet with an 8 or 9) and does not start; routed as written`);
    } else {
      notes.push(`${where}: dnsmasq reads '${value}' as ${dnsmasqAddress} (a leading-zero octet is octal)`);
      return socketAddress(`${dnsmasqAddress}${octal[2] ?? ''}`).address;
    }
  }
  const address = socketAddress(value);
  if (address.kind === 'hostname') {
    notes.push(`${where}: '${value}' is a hostname; dnsmasq-nanny resolves it once, when it configures dnsmasq, and uses only its first address`);
  } else if (address.bracketedWithPort) {
    notes.push(
      `${where}: dnsmasq-nanny passes '${value}' to dnsmasq as '${value.replace(/:(\d+)$/, '#$1')}', which dnsmasq refuses (it does not start); routed as if it had accepted the address`,
    );
  } else if (address.kind === 'unreadable') {
    notes.push(`${where}: '${value}' is not an address the model can read; compared as written`);
  }
  return address.address;
}

/**
 * The federation a name asks for, kube-dns's way: exactly `<svc>.<ns>.<federation>.svc` above the
 * cluster domain, `<svc>` a DNS-1035 label, `<ns>` and `<federation>` DNS-1123 labels, and
 * `<federation>` one of the configured names.
 */
function federationOf(name: string, clusterDomain: string, federations: ReadonlyMap<string, string>): { name: string; domain: string } | undefined {
  if (federations.size === 0) return undefined;
  const labels = labelsAbove(name, clusterDomain);
  if (labels.length !== 4 || labels[3] !== 'svc') return undefined;
  const [service, namespace, federation] = labels as [string, string, string, string];
  const domain = federations.get(federation);
  if (domain === undefined || !isDns1035Label(service) || !isDns1123Label(namespace) || !isDns1123Label(federation)) return undefined;
  return { name: federation, domain };
}

/** apimachinery's `IsDNS1035Label`: a DNS-1123 label that starts with a letter. */
function isDns1035Label(text: string): boolean {
  return isDns1123Label(text) && /^[a-z]/.test(text);
}
