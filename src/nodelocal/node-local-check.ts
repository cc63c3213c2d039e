/**
 * The two-tier routing check and explanation: a pod's query goes to node-local-dns first (the
 * Corefile node-cache writes from the kube-dns ConfigMap and its base), and on to CoreDNS where
 * node-local-dns forwards to the kube-dns-upstream Service. Compares where each name ends with
 * where CoreDNS alone sends it (what its Corefile intends) and where kube-dns alone sent it.
 * The models are those of src/routing, with node-local-dns as one more tier.
 *
 * Pure: no Node APIs.
 */

import { checkArgument, checkOptions } from '../errors/arguments.js';
import type { ConfigMapData } from '../configmap/config-map-data.js';
import type { Corefile } from '../corefile/model.js';
import { canonicalName, displayName } from '../dns/names.js';
import { readKubeDnsConfigMap } from '../kubedns/read-kube-dns-configmap.js';
import { formatNotes, formatTable, namesToCheck, routeCell } from '../routing/check.js';
import { coreDnsRouting } from '../routing/coredns-routing.js';
import type { CoreDnsRouting } from '../routing/coredns-routing.js';
import { sameDestination } from '../routing/destination.js';
import type { Route } from '../routing/destination.js';
import { clusterSearchPath, resolverCandidates } from '../routing/explain.js';
import { kubeDnsRoutingOfInput } from '../routing/kube-dns-input.js';
import type { KubeDnsRouting } from '../routing/kube-dns-routing.js';
import type { KubeDnsDeployment } from '../kubedns/kube-dns-install.js';
import type { ValueLocator } from '../util/source-position.js';
import { nodeLocalDnsRouting } from '../routing/node-local-routing.js';
import type { NodeLocalRoute, NodeLocalRouting } from '../routing/node-local-routing.js';
import { printable } from '../util/printable-text.js';
import { preflightNodeLocalDns } from './preflight.js';
import type { NodeLocalDnsPreflight } from './preflight.js';

/** A cluster with NodeLocal DNSCache in front of CoreDNS. */
export interface NodeLocalCheckInput {
  /** The node-cache release the nodes run (`1.22.10`). */
  readonly release: string;
  /** The kube-dns ConfigMap: `data`, YAML/JSON text, or `null` for none. */
  readonly kubeDns: ConfigMapData | string | null;
  /** CoreDNS's Corefile (text or model). */
  readonly corefile: string | Corefile;
  /** node-cache's `-localip` flag. */
  readonly localIps: string;
  /** The kube-dns-upstream ClusterIP (node-cache's `__PILLAR__CLUSTER__DNS__`), which leads to CoreDNS. */
  readonly upstreamIp: string;
  /** The node-local-dns ConfigMap's Corefile. Default: the bundled template of the release. */
  readonly baseCorefile?: string;
  /** Default `cluster.local`. */
  readonly clusterDomain?: string;
  /** The kube-dns release whose rules the kube-dns model applies (default: the newest known). */
  readonly kubeDnsVersion?: string;
  /** The port CoreDNS serves on, behind the kube-dns-upstream Service (default 53). */
  readonly port?: number | string;
  /** The port node-local-dns serves on (default 53). */
  readonly nodeLocalPort?: number | string;
  /** More names to compare. */
  readonly names?: readonly string[];
  /**
   * The kube-dns Deployment, when not in the `kubeDns` text: the kube-dns-alone column follows it
   * as `checkRouting` does (dnsmasq's own `--server`, `--address`, `--no-resolv` flags; who applied
   * the ConfigMap). node-cache reads the ConfigMap alone either way.
   */
  readonly kubeDnsDeployment?: KubeDnsDeployment;
  /** Where the `kubeDns` data's values are written in their file (`ConfigMapDocument.locate`), for notes. */
  readonly kubeDnsLocate?: ValueLocator;
}

export interface NodeLocalDifference {
  readonly name: string;
  /** pod → node-local-dns → (CoreDNS). */
  readonly twoTier: NodeLocalRoute;
  /** CoreDNS alone: what its Corefile intends for the name. */
  readonly coreDns: Route;
  /** kube-dns alone, from the same ConfigMap. */
  readonly kubeDns: Route;
}

export interface NodeLocalCheck {
  /** node-cache takes the ConfigMap, its Corefile loads, and no name differs. */
  readonly ok: boolean;
  /** The pre-flight of the ConfigMap for the release, with the Corefile node-cache writes. */
  readonly preflight: NodeLocalDnsPreflight;
  /** Names whose two-tier path ends elsewhere than CoreDNS alone or kube-dns alone sends them; empty when node-cache refuses the update. */
  readonly differences: readonly NodeLocalDifference[];
  /** Every name compared, in canonical DNS order (none when node-cache refuses the update). */
  readonly names: readonly string[];
  readonly notes: readonly string[];
}

interface Models {
  readonly preflight: NodeLocalDnsPreflight;
  readonly kubeDns: KubeDnsRouting;
  readonly coreDns: CoreDnsRouting;
  readonly twoTier: NodeLocalRouting | undefined;
}

function kubeDnsData(kubeDns: ConfigMapData | string | null): ConfigMapData | null {
  return typeof kubeDns === 'string' ? readKubeDnsConfigMap(kubeDns).data : kubeDns;
}

function models(input: NodeLocalCheckInput): Models {
  const clusterDomain = input.clusterDomain === undefined ? {} : { clusterDomain: input.clusterDomain };
  const preflight = preflightNodeLocalDns(input.release, kubeDnsData(input.kubeDns), {
    localIps: input.localIps,
    clusterDnsIp: input.upstreamIp,
    ...clusterDomain,
    ...(input.baseCorefile === undefined ? {} : { baseCorefile: input.baseCorefile }),
    ...(input.nodeLocalPort === undefined ? {} : { port: String(input.nodeLocalPort) }),
  });
  // The kube-dns model reads the Deployment (given, or in the kubeDns text) as plain check does.
  const kubeDns = kubeDnsRoutingOfInput(input.kubeDns, {
    ...clusterDomain,
    ...(input.kubeDnsVersion === undefined ? {} : { kubeDnsVersion: input.kubeDnsVersion }),
    ...(input.kubeDnsDeployment === undefined ? {} : { deployment: input.kubeDnsDeployment }),
    ...(input.kubeDnsLocate === undefined ? {} : { locate: input.kubeDnsLocate }),
  });
  const coreDns = coreDnsRouting(input.corefile, input.port === undefined ? {} : { port: input.port });
  const { result } = preflight;
  const twoTier = result.ok
    ? nodeLocalDnsRouting(result.corefile, coreDns, {
        upstreamIp: input.upstreamIp,
        ...(input.nodeLocalPort === undefined ? {} : { port: input.nodeLocalPort }),
        ...(input.port === undefined ? {} : { upstreamPort: input.port }),
      })
    : undefined;
  return { preflight, kubeDns, coreDns, twoTier };
}

function notesOf(found: Models): string[] {
  const { preflight, kubeDns, coreDns, twoTier } = found;
  const notes = [
    ...preflight.result.notes.map((note) => note.message),
    ...kubeDns.notes.map((note) => `kube-dns: ${note}`),
    ...(twoTier?.notes ?? coreDns.notes.map((note) => `Corefile: ${note}`)),
  ];
  return [...new Set(notes)];
}

/**
 * Routes every name through the two tiers and reports those that end elsewhere than under CoreDNS
 * alone or kube-dns alone; fails outright (`ok: false`, no names) when node-cache refuses the
 * ConfigMap, and fails when the Corefile it writes does not load. Throws `ConfigMapInputError`,
 * `CorefileSyntaxError`, `UnsupportedNodeCacheReleaseError` or `NodeCacheInputError` for unusable input.
 */
export function checkNodeLocalDnsRouting(input: NodeLocalCheckInput): NodeLocalCheck {
  checkArgument('checkNodeLocalDnsRouting', 'input', input, 'object');
  const found = models(input);
  const { preflight, kubeDns, coreDns, twoTier } = found;
  const notes = notesOf(found);
  if (twoTier === undefined) return { ok: false, preflight, differences: [], names: [], notes };
  const extra = [...(input.names ?? []), ...twoTier.zones.flatMap((zone) => [zone === '' ? '.' : zone, zone === '' ? 'x' : `x.${zone}`])];
  const names = namesToCheck(kubeDns, coreDns, extra);
  const differences: NodeLocalDifference[] = [];
  let reachesCoreDns = false;
  for (const name of names) {
    const route = twoTier.route(name);
    if (route.coreDns !== undefined) reachesCoreDns = true;
    const alone = coreDns.route(name);
    const kube = kubeDns.route(name);
    if (!sameDestination(route.final.destination, alone.destination) || !sameDestination(route.final.destination, kube.destination)) {
      differences.push({ name, twoTier: route, coreDns: alone, kubeDns: kube });
    }
  }
  if (!reachesCoreDns) {
    notes.unshift(`node-local-dns sends none of the ${names.length} checked names to ${twoTier.upstream}: is --upstream-ip the address its Corefile forwards the cluster domain to (the kube-dns-upstream ClusterIP, or in IPVS mode the kube-dns ClusterIP written into the node-local-dns ConfigMap)?`);
  }
  return { ok: preflight.loads && differences.length === 0, preflight, differences, names, notes };
}

/** The check for people: the verdict, then one row per differing name, then the notes. */
export function formatNodeLocalCheck(check: NodeLocalCheck): string {
  checkOptions('formatNodeLocalCheck', 'check', check, { preflight: 'object', names: 'array' }, true);
  const { preflight } = check;
  const head = `node-cache ${preflight.release} (CoreDNS ${preflight.coreDns})`;
  if (!preflight.accepted) return `${head} refuses the kube-dns ConfigMap: ${printable(preflight.reason ?? '')}\n${formatNotes(check.notes)}`;
  const loads = preflight.loads ? '' : `${head}: ${printable(preflight.reason ?? '')}\n`;
  const count = check.names.length;
  if (check.differences.length === 0) return `${loads}pod → node-local-dns → CoreDNS routes all ${count} checked names as CoreDNS alone and kube-dns alone do.\n${formatNotes(check.notes)}`;
  const rows = check.differences.map((difference) => [
    printable(displayName(difference.name)),
    `${routeCell(difference.twoTier.final)}`,
    routeCell(difference.coreDns),
    routeCell(difference.kubeDns),
  ]);
  const table = formatTable(['NAME', 'POD → NODE-LOCAL-DNS → …', 'COREDNS ALONE', 'KUBE-DNS ALONE'], rows);
  return `${loads}pod → node-local-dns → CoreDNS routes ${check.differences.length} of ${count} checked names elsewhere than CoreDNS alone or kube-dns alone:\n\n${table}\n${formatNotes(check.notes)}`;
}

/** Explain options: those of the check, and the pod's resolver. */
export interface NodeLocalExplainInput extends Omit<NodeLocalCheckInput, 'names'> {
  /** The pod's namespace (default `default`). */
  readonly namespace?: string;
  /** The resolver's `ndots` (default 5). */
  readonly ndots?: number;
  /** Search domains after the cluster ones. */
  readonly searchPath?: readonly string[];
}

export interface NodeLocalCandidate {
  readonly name: string;
  readonly twoTier: NodeLocalRoute;
  readonly coreDns: Route;
  readonly kubeDns: Route;
  /** The two-tier path ends where CoreDNS alone and kube-dns alone send the name. */
  readonly same: boolean;
}

export interface NodeLocalExplanation {
  readonly query: string;
  readonly searchPath: readonly string[];
  readonly ndots: number;
  readonly preflight: NodeLocalDnsPreflight;
  /** In the resolver's order; empty when node-cache refuses the ConfigMap. */
  readonly candidates: readonly NodeLocalCandidate[];
  readonly notes: readonly string[];
}

/** Each name a pod's resolver tries for `query`, through both tiers, next to CoreDNS alone and kube-dns alone. */
export function explainNodeLocalDns(query: string, input: NodeLocalExplainInput): NodeLocalExplanation {
  checkArgument('explainNodeLocalDns', 'query', query, 'string');
  checkArgument('explainNodeLocalDns', 'input', input, 'object');
  const found = models(input);
  const { preflight, kubeDns, coreDns, twoTier } = found;
  const ndots = input.ndots ?? 5;
  const searchPath = [...clusterSearchPath(input.namespace ?? 'default', kubeDns.clusterDomain), ...(input.searchPath ?? []).map(canonicalName)];
  const candidates =
    twoTier === undefined
      ? []
      : resolverCandidates(query, searchPath, ndots).map((name): NodeLocalCandidate => {
          const route = twoTier.route(name);
          const alone = coreDns.route(name);
          const kube = kubeDns.route(name);
          return { name, twoTier: route, coreDns: alone, kubeDns: kube, same: sameDestination(route.final.destination, alone.destination) && sameDestination(route.final.destination, kube.destination) };
        });
  return { query, searchPath, ndots, preflight, candidates, notes: notesOf(found) };
}

/** The explanation for people: one row per candidate, the node-local-dns tier, then CoreDNS's. */
export function formatNodeLocalExplanation(explanation: NodeLocalExplanation): string {
  checkOptions('formatNodeLocalExplanation', 'explanation', explanation, { preflight: 'object', candidates: 'array' }, true);
  const { preflight } = explanation;
  if (!preflight.accepted) return `node-cache ${preflight.release} refuses the kube-dns ConfigMap: ${printable(preflight.reason ?? '')}\n${formatNotes(explanation.notes)}`;
  const rows = explanation.candidates.map((candidate, index) => [
    String(index + 1),
    printable(displayName(candidate.name)),
    routeCell(candidate.twoTier.nodeLocal),
    candidate.twoTier.coreDns === undefined ? '-' : routeCell(candidate.twoTier.coreDns),
    routeCell(candidate.coreDns),
    routeCell(candidate.kubeDns),
    candidate.same ? 'yes' : 'NO',
  ]);
  const header = ['#', 'CANDIDATE', 'NODE-LOCAL-DNS', 'THEN COREDNS', 'COREDNS ALONE', 'KUBE-DNS ALONE', 'SAME'];
  const loads = preflight.loads ? '' : `node-cache ${preflight.release}: ${printable(preflight.reason ?? '')}\n`;
  const intro = printable(`${JSON.stringify(explanation.query)}: search ${explanation.searchPath.map(displayName).join(' ')}, ndots:${explanation.ndots}; tried in this order until one gets an answer:`);
  return `${loads}${intro}\n\n${formatTable(header, rows)}\n${formatNotes(explanation.notes)}`;
}
