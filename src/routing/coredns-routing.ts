import { checkArgument, checkCorefileModel } from '../errors/arguments.js';
import { ServerKeyError } from '../corefile/errors.js';
import { serverBlocks } from '../corefile/model.js';
import type { Corefile, Directive, ServerBlock } from '../corefile/model.js';
import { expandSnippetsOrThrow } from '../corefile/expand.js';
import type { ExpandedServerBlock } from '../corefile/expand.js';
import { parseCorefile } from '../corefile/parser.js';
import { parseServerKey } from '../corefile/server-key.js';
import { formatGoIP, parseGoIP } from '../dns/go-net.js';
import { defaultDestinationPort, readDestination } from '../coredns/destinations.js';
import { firstReleaseWith } from '../coredns/features.js';
import { REFUSED, RESOLV_CONF_MEMBER, SERVFAIL, serversDestination, socketAddress } from './destination.js';
import type { RouteDestination, Route } from './destination.js';
import { canonicalName, displayName, fromFullyQualified, isInZone, labelsAbove, ZoneTable } from '../dns/names.js';
import { pushAll } from '../util/lists.js';

/** The first release that lower-cases server-block zones, whose matching the model follows. */
const ZONE_KEYS_LOWERCASED_FROM = firstReleaseWith((features) => features.serverBlockZonesLowercased) ?? '?';

/**
 * Who answers a query name under a CoreDNS Corefile (docs/reference/kube-dns-and-coredns.md
 * §2.8–2.9), for a query arriving over plain DNS on one port.
 *
 * 1. **Server block**: among the blocks with a key on that port, the one with the longest zone
 *    containing the name (`.` last); none ⇒ REFUSED. A block without plugins ⇒ REFUSED.
 * 2. **Plugin**: the block's plugins run in CoreDNS's compiled order (plugin.cfg), not Corefile
 *    order; the first that handles the name answers:
 *    - `federation` (≤ 1.6.x): a federation-shaped name in its zones ⇒ `cluster` with `federation`;
 *    - `kubernetes`: a name in its zones (arguments, else the block's zones) ⇒ `cluster`; with
 *      `fallthrough [ZONES]` covering the name, NXDOMAIN continues to the next plugins
 *      (`cluster, else …`);
 *    - `forward FROM TO…` (several per block chain in Corefile order, 1.9.4+): a name under FROM and
 *      not under an `except` name (FROM itself always) ⇒ the TOs; `proxy` likewise, the longest
 *      FROM among the block's proxies winning; `grpc FROM TO…` likewise;
 *    - `hosts`: a name listed inline ⇒ `plugin hosts`; other names of its zones pass on with
 *      `fallthrough` (names from its file are not known: noted), else `plugin hosts`;
 *    - file, auto, secondary, etcd, template, k8s_external, route53, azure, clouddns, erratic,
 *      whoami: a name in their zones ⇒ `plugin NAME` (their own answer; `fallthrough` honoured);
 *    - nothing handles it ⇒ SERVFAIL.
 *
 * Semantics are CoreDNS 1.14.7's (keys lower-cased; query names compared case-insensitively).
 * Snippets defined in the same file are expanded; file imports, plugins that rewrite names or
 * filter clients (rewrite, autopath, acl, view, dns64, local…) and plugins outside the default
 * build are not modelled: each occurrence is listed in `notes`.
 *
 * Pure: no Node APIs.
 */
export interface CoreDnsRoutingOptions {
  /** The port queries arrive on (default 53); only blocks with a plain-DNS key on it see them. */
  readonly port?: number | string;
}

export interface CoreDnsRouting {
  /** The port modelled. */
  readonly port: string;
  /** What the model did not follow or assumed, one sentence each. */
  readonly notes: readonly string[];
  /** Zones the Corefile routes on: block zones on the port, plugin zones, forward FROM and except names. */
  readonly zones: readonly string[];
  /**
   * Who answers a query for `name` (any case, trailing dot optional) of class IN and type `type`
   * (default `A`; any case): a `template` of another type passes it on.
   */
  route(name: string, type?: string): Route;
  /** Whether who answers `name` may depend on the query type (a `template` of one type holds it). */
  dependsOnType(name: string): boolean;
  /**
   * Whether the block serving `name` turns an NXDOMAIN answer for it into NOERROR: a `rewrite`
   * rule `rcode [exact|prefix|suffix|substring|regex] STRING NXDOMAIN NOERROR` (CoreDNS 1.11.3+)
   * matching the name.
   */
  nxdomainAsNoData(name: string): boolean;
  /**
   * The record types a `template` answers an ANY query for `name` with: those of its `answer` lines
   * (CoreDNS answers ANY with the first template whose type and regex match, every template of any
   * type matching ANY: plugin/template `match`, v1.0.3–v1.14.7). Undefined where another plugin
   * answers, or an answer line's type cannot be read.
   */
  anyRecordTypes(name: string): readonly string[] | undefined;
}

/**
 * Plugins in the order CoreDNS runs them (plugin.cfg of the default build, all releases merged).
 * Releases order a few plugins differently (`root` moved to the front in 1.11.3, `cache` ran before
 * `rewrite` and `loadbalance` up to 1.0.4), but never the plugins this model routes through: a
 * test compares their order with every release's plugin.cfg.
 */
export const PLUGIN_ORDER: readonly string[] = [
  'metadata', 'geoip', 'cancel', 'proxyproto', 'tls', 'quic', 'grpc_server', 'https', 'https3', 'timeouts', 'multisocket', 'reload', 'nsid', 'bufsize', 'root', 'bind',
  'debug', 'trace', 'ready', 'health', 'pprof', 'shed', 'prometheus', 'errors', 'log', 'dnstap', 'local', 'dns64', 'acl', 'any', 'chaos', 'loadbalance',
  'tsig', 'cache', 'rewrite', 'header', 'dnssec', 'autopath', 'minimal', 'reverse', 'template', 'transfer', 'hosts', 'route53', 'azure', 'clouddns',
  'federation', 'k8s_external', 'kubernetes', 'file', 'auto', 'secondary', 'etcd', 'loop', 'forward', 'proxy', 'grpc', 'erratic', 'whoami', 'on',
  'sign', 'view', 'nomad', 'startup', 'shutdown',
];
const ORDER = new Map(PLUGIN_ORDER.map((name, index) => [name, index]));

/** Plugins that never answer a class-IN query by name and never change which name is asked. */
export const PASSIVE: ReadonlySet<string> = new Set([
  'metadata', 'geoip', 'cancel', 'proxyproto', 'tls', 'quic', 'grpc_server', 'https', 'https3', 'timeouts', 'multisocket', 'reload', 'nsid', 'bufsize', 'root', 'bind',
  'debug', 'trace', 'ready', 'health', 'pprof', 'shed', 'prometheus', 'errors', 'log', 'dnstap', 'any', 'chaos', 'loadbalance', 'tsig', 'cache', 'header',
  'dnssec', 'minimal', 'transfer', 'loop', 'on', 'sign', 'startup', 'shutdown',
]);

/** Plugins that change routing in ways the model does not follow. */
export const NOT_MODELLED: Readonly<Record<string, string>> = {
  rewrite: 'rewrites query names before the plugins below see them',
  autopath: 'answers search-path-expanded names from this block, bypassing other blocks',
  acl: 'may block, refuse or drop names and clients',
  view: 'selects server blocks by client or query',
  dns64: 'synthesises AAAA answers',
  local: 'answers localhost names itself',
  reverse: 'answers reverse zones of its networks itself',
  nomad: 'answers the names of its zone from the Nomad service catalogue',
};

/** Answering plugins: where their zone arguments start (`undefined`: no zone arguments). */
const ZONE_PLUGINS: Readonly<Record<string, { readonly zonesFrom: number | undefined; readonly zoneColon?: boolean }>> = {
  template: { zonesFrom: 2 },
  file: { zonesFrom: 1 },
  auto: { zonesFrom: 0 },
  secondary: { zonesFrom: 0 },
  etcd: { zonesFrom: 0 },
  k8s_external: { zonesFrom: 0 },
  route53: { zonesFrom: 0, zoneColon: true },
  azure: { zonesFrom: 0, zoneColon: true },
  clouddns: { zonesFrom: 0, zoneColon: true },
  erratic: { zonesFrom: undefined },
  whoami: { zonesFrom: undefined },
};

/** What one plugin instance does with a name: nothing (`undefined`), or answer it. */
interface Decision {
  readonly destination: RouteDestination;
  readonly via: string;
  /** The answer may be NXDOMAIN that falls through to the next plugins. */
  readonly fallthrough: boolean;
  /** The types of the records a template answers with (its `answer` lines), where they can be read. */
  readonly records?: readonly string[];
}

interface Step {
  readonly order: number;
  readonly sequence: number;
  decide(name: string, type: string): Decision | undefined;
}

interface PreparedBlock {
  readonly label: string;
  readonly empty: boolean;
  readonly steps: readonly Step[];
  /** Zones of the block's templates that answer one query type only. */
  readonly typedZones: readonly string[];
  /** The block's `rewrite … rcode` rules turning NXDOMAIN into NOERROR: whether each matches a name. */
  readonly noDataRules: readonly ((name: string) => boolean)[];
}

/** What CoreDNS serves when the Corefile has no server block. */
const DEFAULT_SERVER_BLOCK: ServerBlock = { kind: 'server-block', keys: ['.:53'], directives: [{ name: 'whoami', arguments: [] }] };

/**
 * The CoreDNS routing model of a Corefile (text or model). Throws `CorefileSyntaxError` for text
 * CoreDNS cannot parse, `CorefileExpansionError` for snippet imports past the expansion bounds.
 */
export function coreDnsRouting(corefile: string | Corefile, options: CoreDnsRoutingOptions = {}): CoreDnsRouting {
  checkArgument('coreDnsRouting', 'corefile', corefile, 'string|object');
  if (typeof corefile !== 'string') checkCorefileModel('coreDnsRouting', 'corefile', corefile);
  checkArgument('coreDnsRouting', 'options', options, 'object?');
  const model = typeof corefile === 'string' ? parseCorefile(corefile).corefile : corefile;
  const port = String(options.port ?? 53);
  const notes: string[] = [];
  const interesting = new Set<string>();
  for (const item of model.items) {
    if (item.kind === 'import') notes.push(`top-level 'import ${item.pattern}' is not modelled (it may add server blocks)`);
  }
  // The one bounded expansion (src/corefile/expand.ts); past its bounds the routing is not known.
  const expansion = expandSnippetsOrThrow(model);
  const expanded = new Map(expansion.blocks.map((entry) => [entry.block, entry]));

  const table = new ZoneTable<number>();
  let blocks = serverBlocks(model);
  if (blocks.length === 0 && !model.items.some((item) => item.kind === 'import')) {
    notes.push('the Corefile has no server blocks: CoreDNS then serves its default, whoami on port 53');
    blocks = [DEFAULT_SERVER_BLOCK];
  }
  const blockZones: string[][] = [];
  let otherPorts = 0;
  blocks.forEach((block, index) => {
    const all: string[] = [];
    let onPort = false;
    for (const key of block.keys) {
      let address;
      try {
        address = parseServerKey(key);
      } catch (error) {
        if (!(error instanceof ServerKeyError)) throw error;
        notes.push(`server key '${key}': CoreDNS refuses to start (${error.message})`);
        continue;
      }
      const zones = address.zones.map(fromFullyQualified);
      pushAll(all, zones);
      if (address.transport !== 'dns' || address.port !== port) {
        otherPorts += 1;
        continue;
      }
      onPort = true;
      const zoneText = key.replace(/^[a-z0-9]+:\/\//, '').replace(/:[^:]*$/, '');
      if (zoneText !== zoneText.toLowerCase() && address.cidr === undefined) {
        notes.push(`server key '${key}' has upper-case letters: CoreDNS before ${ZONE_KEYS_LOWERCASED_FROM} never matches it (modelled as ${ZONE_KEYS_LOWERCASED_FROM}, lower-cased)`);
      }
      for (const zone of zones) {
        interesting.add(zone);
        if (table.has(zone)) {
          notes.push(`zone ${displayName(zone)} on port ${port} is served by two blocks: CoreDNS refuses to start ('already defined'); the first block is modelled`);
        } else {
          table.set(zone, index);
        }
      }
    }
    blockZones.push(onPort ? all : []);
  });
  if (otherPorts > 0) notes.push(`${otherPorts} server key${otherPorts === 1 ? '' : 's'} on other ports or transports than dns port ${port} never see these queries`);

  const prepared = new Map<number, PreparedBlock>();
  blockZones.forEach((zones, index) => {
    if (zones.length === 0) return;
    const block = blocks[index] as ServerBlock;
    prepared.set(index, prepareBlock(block, expanded.get(block), zones, { notes, interesting }));
  });

  function route(query: string, type = 'A'): Route {
    const name = canonicalName(query);
    const match = table.longestMatch(name);
    if (match === undefined) return { destination: REFUSED, via: `no server block on port ${port} serves it` };
    const block = prepared.get(match.value) as PreparedBlock;
    if (block.empty) return { destination: REFUSED, via: `block ${block.label} has no plugins` };
    return evaluate(block, name, type.toUpperCase());
  }

  function dependsOnType(query: string): boolean {
    const name = canonicalName(query);
    const match = table.longestMatch(name);
    const block = match === undefined ? undefined : prepared.get(match.value);
    return block !== undefined && block.typedZones.some((zone) => isInZone(name, zone));
  }

  function nxdomainAsNoData(query: string): boolean {
    const name = canonicalName(query);
    const match = table.longestMatch(name);
    const block = match === undefined ? undefined : prepared.get(match.value);
    const fqdn = name === '' ? '.' : `${name}.`;
    return block !== undefined && block.noDataRules.some((matches) => matches(fqdn));
  }

  function anyRecordTypes(query: string): readonly string[] | undefined {
    const name = canonicalName(query);
    const match = table.longestMatch(name);
    const block = match === undefined ? undefined : prepared.get(match.value);
    if (block === undefined || block.empty) return undefined;
    // The first plugin that decides, unless one before it falls through (its answer is then not known).
    for (const step of block.steps) {
      const decision = step.decide(name, 'ANY');
      if (decision === undefined) continue;
      return decision.fallthrough ? undefined : decision.records;
    }
    return undefined;
  }

  return { port, notes, zones: [...interesting], route, dependsOnType, nxdomainAsNoData, anyRecordTypes };
}

/**
 * Runs the block's plugins in order on `name`: the first that decides answers, and one that falls
 * through gets the rest of the chain as its `otherwise`. A loop, not recursion: a block may hold
 * any number of plugins that fall through (`template` can be repeated).
 */
function evaluate(block: PreparedBlock, name: string, type: string): Route {
  const fallingThrough: Decision[] = [];
  let last: Route = { destination: SERVFAIL, via: `block ${block.label}: no plugin answers` };
  for (const step of block.steps) {
    const decision = step.decide(name, type);
    if (decision === undefined) continue;
    if (decision.fallthrough) {
      fallingThrough.push(decision);
      continue;
    }
    last = { destination: decision.destination, via: `block ${block.label} > ${decision.via}` };
    break;
  }
  if (fallingThrough.length === 0) return last;
  let destination = last.destination;
  for (let index = fallingThrough.length - 1; index >= 0; index -= 1) {
    destination = { ...(fallingThrough[index] as Decision).destination, otherwise: destination } as RouteDestination;
  }
  const vias = fallingThrough.map((decision) => decision.via);
  vias.push(last.via.replace(`block ${block.label} > `, ''));
  return { destination, via: `block ${block.label} > ${vias.join(', fallthrough > ')}` };
}

interface PrepareContext {
  readonly notes: string[];
  readonly interesting: Set<string>;
}

function prepareBlock(block: ServerBlock, expanded: ExpandedServerBlock | undefined, blockZones: readonly string[], context: PrepareContext): PreparedBlock {
  const label = routingLabel(block.keys);
  // The default block (no server block written) has no expansion: its directives are its own.
  const directives = expanded === undefined ? block.directives : expanded.directives.map((entry) => entry.directive);
  for (const skipped of expanded?.unexpanded ?? []) context.notes.push(`block ${label}: 'import ${skipped.pattern}' (a file or glob) is not modelled`);
  const steps: Step[] = [];
  const typedZones: string[] = [];
  const noDataRules: ((name: string) => boolean)[] = [];
  const proxies: { directive: Directive; sequence: number }[] = [];
  directives.forEach((directive, sequence) => {
    const order = ORDER.get(directive.name);
    const add = (decide: Step['decide']) => steps.push({ order: order ?? 0, sequence, decide });
    if (order === undefined) {
      context.notes.push(`block ${label}: plugin '${directive.name}' is not in CoreDNS's default build; not modelled (assumed not to answer)`);
      return;
    }
    if (PASSIVE.has(directive.name)) return;
    // A rewrite of the response code only changes no name: modelled (NXDOMAIN to NOERROR) or passive.
    const rcode = directive.name === 'rewrite' ? rcodeRule(directive) : undefined;
    if (rcode !== undefined) {
      if (rcode.noData !== undefined) noDataRules.push(rcode.noData);
      return;
    }
    const reason = NOT_MODELLED[directive.name];
    if (reason !== undefined) {
      context.notes.push(`block ${label}: '${directive.name}' ${reason}; not modelled`);
      return;
    }
    switch (directive.name) {
      case 'kubernetes':
        add(kubernetesStep(directive, blockZones, label, context));
        return;
      case 'federation':
        add(federationStep(directive, blockZones, directives, label, context));
        return;
      case 'forward':
      case 'grpc':
        add(forwardStep([directive], label, context));
        return;
      case 'hosts':
        add(hostsStep(directive, blockZones, label, context));
        return;
      case 'proxy':
        // One proxy plugin instance serves every proxy line of the block: collected below.
        proxies.push({ directive, sequence });
        return;
      default: {
        const zonePlugin = ZONE_PLUGINS[directive.name];
        if (zonePlugin !== undefined) add(zonePluginStep(directive, zonePlugin, blockZones, label, context, typedZones));
      }
    }
  });
  const firstProxy = proxies[0];
  if (firstProxy !== undefined) {
    const decide = forwardStep(proxies.map((entry) => entry.directive), label, context);
    steps.push({ order: ORDER.get('proxy') ?? 0, sequence: firstProxy.sequence, decide });
  }
  steps.sort((a, b) => a.order - b.order || a.sequence - b.sequence);
  return { label, empty: directives.length === 0, steps, typedZones, noDataRules };
}

/** Keys a block's label lists; the rest are counted. */
const LABEL_KEYS = 3;

/**
 * `"a.example b.example"`: the block as routes and notes name it. Every route through the block
 * repeats it, so a block with thousands of keys is named by its first few and a count (its full
 * key list made each description as long as the block, and `check` quadratic in its keys).
 */
function routingLabel(keys: readonly string[]): string {
  if (keys.length <= LABEL_KEYS) return `"${keys.join(' ')}"`;
  return `"${keys.slice(0, LABEL_KEYS).join(' ')} …" (${keys.length.toLocaleString('en')} keys)`;
}

/** Zones written as plugin arguments (names or CIDRs), in the models' form; unreadable ones noted. */
function pluginZones(args: readonly string[], label: string, plugin: string, context: PrepareContext): string[] {
  const zones: string[] = [];
  for (const arg of args) {
    try {
      pushAll(zones, parseServerKey(arg).zones.map(fromFullyQualified));
    } catch (error) {
      if (!(error instanceof ServerKeyError)) throw error;
      context.notes.push(`block ${label}: ${plugin} zone '${arg}' is not a zone CoreDNS reads (${error.message})`);
    }
  }
  for (const zone of zones) context.interesting.add(zone);
  return zones;
}

function subDirectives(directive: Directive, name: string): Directive[] {
  return (directive.block?.directives ?? []).filter((entry) => entry.name === name);
}

/** The zones a `fallthrough [ZONES…]` option covers: `undefined` without the option, `['']` (all) without arguments. */
function fallthroughZones(directive: Directive, label: string, context: PrepareContext): string[] | undefined {
  const options = subDirectives(directive, 'fallthrough');
  if (options.length === 0) return undefined;
  const zones = options.flatMap((option) => (option.arguments.length === 0 ? [''] : pluginZones(option.arguments, label, `${directive.name} fallthrough`, context)));
  return zones;
}

function inAny(name: string, zones: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const zone of zones) if (isInZone(name, zone) && (best === undefined || zone.length > best.length)) best = zone;
  return best;
}

function kubernetesStep(directive: Directive, blockZones: readonly string[], label: string, context: PrepareContext): Step['decide'] {
  const zones = directive.arguments.length > 0 ? pluginZones(directive.arguments, label, 'kubernetes', context) : [...blockZones];
  const fallthrough = fallthroughZones(directive, label, context);
  return (name) => {
    const zone = inAny(name, zones);
    if (zone === undefined) return undefined;
    const falls = fallthrough !== undefined && inAny(name, fallthrough) !== undefined;
    return { destination: clusterIn(zone), via: `kubernetes (zone ${displayName(zone)})`, fallthrough: falls };
  };
}

/** The cluster answering in `zone`; the zone is left out for reverse zones, where it does not change the answer. */
function clusterIn(zone: string): RouteDestination {
  return isInZone(zone, 'arpa') ? { kind: 'cluster' } : { kind: 'cluster', zone };
}

function federationStep(directive: Directive, blockZones: readonly string[], all: readonly Directive[], label: string, context: PrepareContext): Step['decide'] {
  const zones = directive.arguments.length > 0 ? pluginZones(directive.arguments, label, 'federation', context) : [...blockZones];
  const federations = new Map<string, string>();
  for (const entry of directive.block?.directives ?? []) {
    if (entry.name !== 'upstream' && entry.arguments[0] !== undefined) federations.set(entry.name, canonicalName(entry.arguments[0]));
  }
  if (!all.some((entry) => entry.name === 'kubernetes')) {
    context.notes.push(`block ${label}: federation without kubernetes in the same block does nothing`);
    return () => undefined;
  }
  return (name) => {
    const zone = inAny(name, zones);
    if (zone === undefined) return undefined;
    const labels = labelsAbove(name, zone);
    if (labels.length !== 4 || labels[3] !== 'svc') return undefined;
    const domain = federations.get(labels[2] as string);
    if (domain === undefined) return undefined;
    return { destination: { ...clusterIn(zone), federation: domain }, via: `federation ${labels[2] as string}`, fallthrough: false };
  };
}

/** `forward`/`proxy`/`grpc` stanzas of one plugin instance: the longest matching FROM wins (one stanza for forward and grpc). */
function forwardStep(stanzas: readonly Directive[], label: string, context: PrepareContext): Step['decide'] {
  const plugin = (stanzas[0] as Directive).name;
  const prepared = stanzas.map((stanza) => {
    const [fromText, ...tos] = stanza.arguments;
    if (fromText === undefined || tos.length === 0) {
      context.notes.push(`block ${label}: '${plugin}' without ${fromText === undefined ? 'FROM and ' : ''}TO: CoreDNS refuses to start`);
    }
    const from = fromText === undefined ? [] : pluginZones([fromText], label, plugin, context).slice(0, 1);
    const except = subDirectives(stanza, 'except').flatMap((option) => pluginZones(option.arguments, label, `${plugin} except`, context));
    for (const option of stanza.block?.directives ?? []) {
      if (option.name === 'next') context.notes.push(`block ${label}: '${plugin}' option 'next' (try the next plugin on some answers) is not modelled`);
      if (plugin === 'proxy' && option.name === 'protocol') context.notes.push(`block ${label}: proxy 'protocol ${option.arguments.join(' ')}' is not modelled`);
    }
    const servers = tos.map((to) => forwardTarget(to, plugin, label, context));
    return { from: from[0], except, destination: serversDestination(servers), text: `${plugin} ${stanza.arguments.join(' ')}` };
  });
  return (name) => {
    let best: (typeof prepared)[number] | undefined;
    for (const stanza of prepared) {
      if (stanza.from === undefined || !isInZone(name, stanza.from)) continue;
      if (name !== stanza.from && stanza.except.some((zone) => isInZone(name, zone))) continue;
      if (best === undefined || (best.from as string).length < stanza.from.length) best = stanza;
    }
    if (best === undefined) return undefined;
    return { destination: best.destination, via: best.text, fallthrough: false };
  };
}

/**
 * A forward/proxy/grpc TO as a socket address (or the resolv.conf member), read with lint's
 * `readDestination` (CoreDNS's `HostPortOrFile`): `8.8.8.8` → `8.8.8.8:53`, `tls://9.9.9.9` →
 * `tls://9.9.9.9:853`, `/etc/resolv.conf` → the resolv.conf member, another file → `file:PATH`.
 */
function forwardTarget(to: string, plugin: string, label: string, context: PrepareContext): string {
  const destination = readDestination(to);
  switch (destination.kind) {
    case 'placeholder':
      context.notes.push(`block ${label}: ${plugin} target '${to}' holds an environment placeholder; compared as written`);
      return to;
    case 'invalid':
      context.notes.push(`block ${label}: ${plugin} target '${to}' is not an address CoreDNS reads (${destination.problem}); compared as written`);
      return to;
    case 'file':
      if (destination.scheme === 'dns' && destination.path === '/etc/resolv.conf') return RESOLV_CONF_MEMBER;
      context.notes.push(`block ${label}: ${plugin} reads nameservers from the file '${destination.path}'; compared as the file name`);
      return `file:${destination.path}`;
    default: {
      const scheme = plugin === 'grpc' ? 'grpc' : destination.scheme;
      if (scheme === 'https') return to;
      const port = destination.port ?? defaultDestinationPort(scheme);
      const host = destination.kind === 'ip' ? formatGoIP(parseGoIP(destination.host, 'strict') ?? []) : canonicalName(destination.name);
      const address = host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
      return scheme === 'dns' ? address : `${scheme}://${address}`;
    }
  }
}

/**
 * `hosts [FILE [ZONES…]] { IP NAME… ; fallthrough [ZONES…] }`: answers the names it lists. Inline
 * entries are known; the file's are not (noted). Without `fallthrough` it answers every name of its
 * zones itself (SERVFAIL for names it does not have).
 */
function hostsStep(directive: Directive, blockZones: readonly string[], label: string, context: PrepareContext): Step['decide'] {
  const args = directive.arguments.slice(1);
  const zones = args.length > 0 ? pluginZones(args, label, 'hosts', context) : [...blockZones];
  const fallthrough = fallthroughZones(directive, label, context);
  const inline = new Set<string>();
  for (const entry of directive.block?.directives ?? []) {
    if (socketAddress(entry.name).kind === 'ip') for (const name of entry.arguments) inline.add(canonicalName(name));
  }
  const file = directive.arguments[0] ?? '/etc/hosts';
  if (fallthrough !== undefined) {
    context.notes.push(`block ${label}: hosts answers the names listed in ${file} itself (not modelled; inline entries are)`);
  }
  return (name) => {
    if (inAny(name, zones) === undefined) return undefined;
    if (inline.has(name)) return { destination: { kind: 'plugin', plugin: 'hosts' }, via: 'hosts (inline entry)', fallthrough: false };
    if (fallthrough !== undefined && inAny(name, fallthrough) !== undefined) return undefined;
    return { destination: { kind: 'plugin', plugin: 'hosts' }, via: 'hosts', fallthrough: false };
  };
}

function zonePluginStep(
  directive: Directive,
  shape: { readonly zonesFrom: number | undefined; readonly zoneColon?: boolean },
  blockZones: readonly string[],
  label: string,
  context: PrepareContext,
  typedZones: string[],
): Step['decide'] {
  let args = shape.zonesFrom === undefined ? [] : directive.arguments.slice(shape.zonesFrom);
  if (shape.zoneColon === true) args = args.map((arg) => arg.slice(0, Math.max(arg.indexOf(':'), 0)) || arg);
  const zones = args.length > 0 ? pluginZones(args, label, directive.name, context) : [...blockZones];
  const fallthrough = fallthroughZones(directive, label, context);
  const matches = directive.name === 'template' ? templateMatches(directive, label, context) : undefined;
  const answers = directive.name === 'template' ? templateQuestions(directive) : undefined;
  const records = directive.name === 'template' ? templateRecordTypes(directive) : undefined;
  const answered = records === undefined ? {} : { records };
  if (answers?.type !== undefined) pushAll(typedZones, zones);
  return (name, type) => {
    if (inAny(name, zones) === undefined) return undefined;
    // A template of another class or type passes the query on, as if it were not there (every release);
    // an ANY query matches a template of every type (plugin/template `match`, v1.0.3 to v1.14.7).
    if (answers !== undefined && (!answers.classIn || (answers.type !== undefined && answers.type !== type && type !== 'ANY'))) return undefined;
    const falls = fallthrough !== undefined && inAny(name, fallthrough) !== undefined;
    // A template with `match` answers only the names a regex matches; the others pass on with `fallthrough`.
    if (matches !== undefined && !matches(name)) {
      if (falls) return undefined;
      return { destination: { kind: 'plugin', plugin: directive.name }, via: `${directive.name} (no regex matches)`, fallthrough: false };
    }
    if (matches !== undefined) return { destination: { kind: 'plugin', plugin: directive.name }, via: `${directive.name} (a regex matches)`, fallthrough: false, ...answered };
    return { destination: { kind: 'plugin', plugin: directive.name }, via: directive.name, fallthrough: falls, ...answered };
  };
}

/** Record types an `answer` line may name (the ones a template answer is written with). */
const RECORD_TYPES: ReadonlySet<string> = new Set(['A', 'AAAA', 'CNAME', 'MX', 'NS', 'PTR', 'SOA', 'SRV', 'TXT', 'CAA', 'HINFO', 'DS', 'DNSKEY']);

/**
 * The types of a template's `answer` records, in order (`{{ .Name }} 0 IN A 10.0.0.1` is A): the
 * first word of each line after its owner that names a record type; undefined when a line has none
 * (written with template actions the model does not run).
 */
function templateRecordTypes(directive: Directive): string[] | undefined {
  const types: string[] = [];
  for (const option of subDirectives(directive, 'answer')) {
    const text = option.arguments.join(' ').replace(/\{\{[^}]*\}\}/g, 'name');
    const type = text.split(/\s+/).slice(1).find((word) => RECORD_TYPES.has(word.toUpperCase()));
    if (type === undefined) return undefined;
    types.push(type.toUpperCase());
  }
  return types;
}

/**
 * The questions a `template CLASS TYPE` answers, for a query of class IN: `classIn` false for
 * another class; `type` undefined for ANY (plugin/template `match`, unchanged from 1.0.3 to 1.14.7).
 */
function templateQuestions(directive: Directive): { readonly classIn: boolean; readonly type: string | undefined } {
  const [qclass = 'ANY', qtype = 'ANY'] = directive.arguments.map((argument) => argument.toUpperCase());
  return { classIn: qclass === 'ANY' || qclass === 'IN', type: qtype === 'ANY' ? undefined : qtype };
}

/**
 * The names a template's `match` regexes select (CoreDNS tries each, unanchored, on the lower-case
 * query name with its trailing dot); undefined when it has none (it answers every name of its
 * zones) or when one is outside the syntax that reads the same in Go's regexp and here (noted;
 * the template is then taken to answer every name, as without `match`).
 */
function templateMatches(directive: Directive, label: string, context: PrepareContext): ((name: string) => boolean) | undefined {
  const patterns = subDirectives(directive, 'match').flatMap((option) => option.arguments);
  if (patterns.length === 0) return undefined;
  const regexes: RegExp[] = [];
  for (const pattern of patterns) {
    // Literals, classes, groups (capturing or `(?:`), anchors, alternation and the usual
    // quantifiers mean the same in both; lookarounds, back-references, named groups, flags and
    // Go's own escapes do not, and are not followed.
    if (!/^(?:[^\\(]|\\[.\\^$|?*+()[\]{}\-dDwWsS]|\((?!\?)|\(\?:)*$/.test(pattern)) {
      context.notes.push(`block ${label}: template match '${pattern}' is not modelled (taken to match every name)`);
      return undefined;
    }
    try {
      regexes.push(new RegExp(pattern));
    } catch {
      context.notes.push(`block ${label}: template match '${pattern}' is not modelled (taken to match every name)`);
      return undefined;
    }
  }
  return (name) => {
    const text = name === '' ? '.' : `${name}.`;
    return regexes.some((regex) => regex.test(text));
  };
}

const RCODES: Readonly<Record<string, number>> = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 };

/**
 * A one-line `rewrite [continue|stop] rcode [TYPE] STRING FROM TO` (plugin/rewrite/rcode.go,
 * v1.12.0–v1.14.7): `noData` matches the fully qualified, lower-case names whose NXDOMAIN it makes
 * NOERROR (absent for another pair of codes); undefined for any other rewrite.
 */
function rcodeRule(directive: Directive): { readonly noData?: (name: string) => boolean } | undefined {
  if (directive.block !== undefined) return undefined;
  const args = directive.arguments[0] === 'continue' || directive.arguments[0] === 'stop' ? directive.arguments.slice(1) : directive.arguments;
  if (args[0] !== 'rcode' || (args.length !== 4 && args.length !== 5)) return undefined;
  const [kind, text] = args.length === 4 ? ['exact', args[1] as string] : [(args[1] as string).toLowerCase(), args[2] as string];
  const code = (word: string) => (/^\d+$/.test(word) ? Number(word) : RCODES[word.toUpperCase()]);
  const from = code(args[args.length - 2] as string);
  const to = code(args[args.length - 1] as string);
  if (from === undefined || to === undefined) return undefined;
  // plugin.Name(…).Normalize(): lower case, fully qualified.
  const normal = text.toLowerCase().endsWith('.') ? text.toLowerCase() : `${text.toLowerCase()}.`;
  let matches: ((name: string) => boolean) | undefined;
  if (kind === 'exact') matches = (name) => name === normal;
  else if (kind === 'prefix') matches = (name) => name.startsWith(normal);
  else if (kind === 'suffix') matches = (name) => name.endsWith(normal);
  else if (kind === 'substring') matches = (name) => name.includes(normal);
  else if (kind === 'regex') {
    let pattern: RegExp;
    try {
      pattern = new RegExp(text);
    } catch {
      return undefined;
    }
    matches = (name) => pattern.test(name);
  }
  if (matches === undefined) return undefined;
  return from === 3 && to === 0 ? { noData: matches } : {};
}
