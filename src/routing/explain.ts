import { checkArgument, checkOptions } from '../errors/arguments.js';
import type { ConfigMapData } from '../configmap/config-map-data.js';
import type { ValueLocator } from '../util/source-position.js';
import type { Corefile } from '../corefile/model.js';
import { formatNotes, formatTable, routeCell } from './check.js';
import { coreDnsRouting } from './coredns-routing.js';
import { sameDestination } from './destination.js';
import type { Route } from './destination.js';
import { kubeDnsRoutingOfInput } from './kube-dns-input.js';
import { canonicalName, displayName } from '../dns/names.js';
import { printable } from '../util/printable-text.js';
import type { KubeDnsDeployment } from '../kubedns/kube-dns-install.js';

/**
 * `explain`: what a pod's resolver does with a name, and who answers each name it tries.
 *
 * A pod with `dnsPolicy: ClusterFirst` gets `search <ns>.svc.<cluster-domain> svc.<cluster-domain>
 * <cluster-domain>` and `options ndots:5` (the kubelet also appends the node's own search domains,
 * which are not known here; pass them as `searchPath` to include them). The candidates follow the
 * glibc resolver: a name ending in `.` is tried as is only; a name with at least `ndots` dots is
 * tried as is first, then with each search domain; any other name with each search domain first,
 * then as is.
 *
 * Pure: no Node APIs.
 */

export interface ExplainInput {
  /** The kube-dns ConfigMap: `data`, YAML/JSON text, or `null` for none. */
  readonly kubeDns: ConfigMapData | string | null;
  /** The Corefile, as text or model; without it only kube-dns is explained. */
  readonly corefile?: string | Corefile;
  /** The cluster domain (default `cluster.local`). */
  readonly clusterDomain?: string;
  readonly kubeDnsVersion?: string;
  /** The CoreDNS port pods reach (default 53). */
  readonly port?: number | string;
  /** The pod's namespace (default `default`). */
  readonly namespace?: string;
  /** The resolver's `ndots` (default 5, the kubelet's). */
  readonly ndots?: number;
  /** Search domains after the three cluster ones (the node's, as the kubelet appends them). */
  readonly searchPath?: readonly string[];
  /** The kube-dns Deployment, when not in the `kubeDns` text: its dnsmasq flags route names. */
  readonly kubeDnsDeployment?: KubeDnsDeployment;
  /**
   * Where the `kubeDns` data's values are written in the file they were read from
   * (`ConfigMapDocument.locate`), for notes that point into it; text given as `kubeDns` is located itself.
   */
  readonly kubeDnsLocate?: ValueLocator;
}

export interface CandidateExplanation {
  /** The name the resolver sends (lower case, no trailing dot). */
  readonly name: string;
  readonly kubeDns: Route;
  /** Absent without a Corefile. */
  readonly coreDns?: Route;
  /** Whether both answer it from the same destination; absent without a Corefile. */
  readonly same?: boolean;
}

export interface Explanation {
  readonly query: string;
  readonly searchPath: readonly string[];
  readonly ndots: number;
  /** In the order the resolver tries them; the first that gets an answer wins. */
  readonly candidates: readonly CandidateExplanation[];
  readonly notes: readonly string[];
}

const KUBELET_NDOTS = 5;

/** The search path the kubelet writes for a ClusterFirst pod in `namespace`. */
export function clusterSearchPath(namespace: string, clusterDomain: string): string[] {
  checkArgument('clusterSearchPath', 'namespace', namespace, 'string');
  checkArgument('clusterSearchPath', 'clusterDomain', clusterDomain, 'string');
  const domain = canonicalName(clusterDomain);
  return [`${namespace}.svc.${domain}`, `svc.${domain}`, domain];
}

/** The names a glibc resolver tries for `query`, in order (see the module comment). */
export function resolverCandidates(query: string, searchPath: readonly string[], ndots: number = KUBELET_NDOTS): string[] {
  checkArgument('resolverCandidates', 'query', query, 'string');
  checkArgument('resolverCandidates', 'searchPath', searchPath, 'array');
  checkArgument('resolverCandidates', 'ndots', ndots, 'number?');
  const trimmed = query.trim();
  const name = canonicalName(trimmed);
  if (trimmed.endsWith('.')) return [name];
  const searched = searchPath.map((domain) => canonicalName(domain)).map((domain) => (domain === '' ? name : `${name}.${domain}`));
  const dots = (trimmed.match(/\./g) ?? []).length;
  const ordered = dots >= ndots ? [name, ...searched] : [...searched, name];
  return [...new Set(ordered)];
}

/** Who answers each candidate of `query` under kube-dns and, with a Corefile, under CoreDNS. */
export function explainName(query: string, input: ExplainInput): Explanation {
  checkArgument('explainName', 'query', query, 'string');
  checkArgument('explainName', 'input', input, 'object');
  const kubeDns = kubeDnsRoutingOfInput(input.kubeDns, {
    ...(input.clusterDomain === undefined ? {} : { clusterDomain: input.clusterDomain }),
    ...(input.kubeDnsVersion === undefined ? {} : { kubeDnsVersion: input.kubeDnsVersion }),
    ...(input.kubeDnsDeployment === undefined ? {} : { deployment: input.kubeDnsDeployment }),
    ...(input.kubeDnsLocate === undefined ? {} : { locate: input.kubeDnsLocate }),
  });
  const coreDns = input.corefile === undefined ? undefined : coreDnsRouting(input.corefile, input.port === undefined ? {} : { port: input.port });
  const ndots = input.ndots ?? KUBELET_NDOTS;
  const searchPath = [...clusterSearchPath(input.namespace ?? 'default', kubeDns.clusterDomain), ...(input.searchPath ?? []).map(canonicalName)];
  const candidates = resolverCandidates(query, searchPath, ndots).map((name): CandidateExplanation => {
    const kubeRoute = kubeDns.route(name);
    if (coreDns === undefined) return { name, kubeDns: kubeRoute };
    const coreRoute = coreDns.route(name);
    return { name, kubeDns: kubeRoute, coreDns: coreRoute, same: sameDestination(kubeRoute.destination, coreRoute.destination) };
  });
  const notes = [...new Set([...kubeDns.notes.map((note) => `kube-dns: ${note}`), ...(coreDns?.notes ?? []).map((note) => `Corefile: ${note}`)])];
  return { query, searchPath, ndots, candidates, notes };
}

/** The explanation for people: the search path, then one row per candidate. */
export function formatExplanation(explanation: Explanation): string {
  checkOptions('formatExplanation', 'explanation', explanation, { candidates: 'array' }, true);
  const withCorefile = explanation.candidates.some((candidate) => candidate.coreDns !== undefined);
  const rows = explanation.candidates.map((candidate, index) => [
    String(index + 1),
    printable(displayName(candidate.name)),
    routeCell(candidate.kubeDns),
    ...(candidate.coreDns === undefined ? [] : [routeCell(candidate.coreDns), candidate.same === true ? 'yes' : 'NO']),
  ]);
  const header = ['#', 'CANDIDATE', 'KUBE-DNS', ...(withCorefile ? ['COREDNS', 'SAME'] : [])];
  const intro = printable(`${JSON.stringify(explanation.query)}: search ${explanation.searchPath.map(displayName).join(' ')}, ndots:${explanation.ndots}; tried in this order until one gets an answer:`);
  return `${intro}\n\n${formatTable(header, rows)}\n${formatNotes(explanation.notes)}`;
}
