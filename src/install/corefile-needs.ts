/**
 * What a Corefile asks of the Pod that runs it: the ports it listens on (DNS server blocks,
 * `health`, `ready`, `prometheus`) and what its `kubernetes` plugin reads from the API, which
 * decides the ClusterRole (docs/reference/coredns-install.md §1).
 */
import { coreDnsFeatures } from '../coredns/features.js';
import { READY_FROM, SERVICE_IMPORTS_FROM, SLICES_FROM, SLICES_ONLY_FROM } from '../coredns/kubeadm-coredns-manifests.js';
import { compareCoreDnsVersions } from '../coredns/versions.js';
import type { CoreDnsVersion } from '../coredns/versions.js';
import { serverBlocks } from '../corefile/model.js';
import type { Corefile, Directive } from '../corefile/model.js';
import { parseServerKey } from '../corefile/server-key.js';

export type PortProtocol = 'UDP' | 'TCP';

/** A port the CoreDNS container listens on. */
export interface ListenPort {
  readonly port: number;
  readonly protocol: PortProtocol;
  /** `dns`, `dns-tcp`, `metrics`, … as kubeadm names them; `dns-5353`, `dns-tcp-5353` for further server ports. */
  readonly name: string;
}

/** An HTTP listener (`health`, `ready`): its port, path and the host it binds, if any. */
export interface HttpListener {
  readonly port: number;
  readonly path: string;
  /** The host part of the address (`127.0.0.1` in `health 127.0.0.1:8080`); empty for all addresses. */
  readonly host: string;
}

export interface CorefileNeeds {
  readonly dnsPorts: readonly ListenPort[];
  /** The first `health` listener (liveness); undefined when the Corefile has none. */
  readonly health: HttpListener | undefined;
  /** The first `ready` listener (readiness); undefined when there is none or the release has no `ready`. */
  readonly ready: HttpListener | undefined;
  /** The release has the `ready` plugin. */
  readonly readyAvailable: boolean;
  /** The `prometheus` port, when the plugin is used. */
  readonly metricsPort: number | undefined;
  /** Some `kubernetes` block has `pods verified` (the plugin watches Pods). */
  readonly watchesPods: boolean;
  /** Some `kubernetes` block reads endpoints (none has `noendpoints` in every block). */
  readonly readsEndpoints: boolean;
  /** The Corefile has a `kubernetes` plugin at all. */
  readonly usesKubernetes: boolean;
  /** The `federation` plugin is used on a release whose kubernetes plugin looks up the node for it. */
  readonly federation: boolean;
  /** Some `kubernetes` block has `multicluster` zones (ServiceImports). */
  readonly multicluster: boolean;
}

/** `health`, `ready` and `prometheus` defaults (each plugin's README at every release read). */
const HEALTH_DEFAULT = { address: ':8080', path: '/health' };
const READY_DEFAULT = { address: ':8181', path: '/ready' };
const METRICS_DEFAULT_ADDRESS = 'localhost:9153';

function directives(corefile: Corefile): { readonly block: number; readonly directive: Directive }[] {
  return serverBlocks(corefile).flatMap((block, index) => block.directives.map((directive) => ({ block: index, directive })));
}

/** `HOST:PORT`, `:PORT` or `[::1]:PORT`: host and port; undefined when the port is not a number. */
function splitAddress(address: string): { readonly host: string; readonly port: number } | undefined {
  const colon = address.lastIndexOf(':');
  if (colon < 0) return undefined;
  const port = Number(address.slice(colon + 1));
  if (!Number.isInteger(port) || port < 1 || port > 65535) return undefined;
  return { host: address.slice(0, colon).replace(/^\[|\]$/g, ''), port };
}

function httpListener(directive: Directive | undefined, defaults: { readonly address: string; readonly path: string }): HttpListener | undefined {
  if (directive === undefined) return undefined;
  const split = splitAddress(directive.arguments[0] ?? defaults.address);
  return split === undefined ? undefined : { port: split.port, path: defaults.path, host: split.host };
}

const PROTOCOLS_OF: Readonly<Record<string, readonly PortProtocol[]>> = { dns: ['UDP', 'TCP'], tls: ['TCP'], grpc: ['TCP'], https: ['TCP'], quic: ['UDP'], https3: ['UDP'] };

/** What `corefile` (already accepted by the translator's self-check) needs from its Pod and the API. */
export function corefileNeeds(corefile: Corefile, coredns: CoreDnsVersion): CorefileNeeds {
  const ports = new Map<string, ListenPort>();
  for (const block of serverBlocks(corefile)) {
    for (const key of block.keys) {
      const address = parseServerKey(key);
      const port = Number(address.port);
      if (!Number.isInteger(port)) continue;
      for (const protocol of PROTOCOLS_OF[address.transport] ?? []) {
        const base = protocol === 'UDP' ? 'dns' : 'dns-tcp';
        ports.set(`${port}/${protocol}`, { port, protocol, name: port === 53 ? base : `${base}-${port}` });
      }
    }
  }
  const all = directives(corefile);
  const named = (name: string) => all.filter((entry) => entry.directive.name === name).map((entry) => entry.directive);
  const kubernetes = named('kubernetes');
  const option = (directive: Directive, name: string) => directive.block?.directives.filter((entry) => entry.name === name) ?? [];
  const metrics = named('prometheus')[0];
  const metricsAddress = metrics === undefined ? undefined : splitAddress(metrics.arguments[0] ?? METRICS_DEFAULT_ADDRESS);
  return {
    dnsPorts: [...ports.values()].sort((a, b) => a.port - b.port || (a.protocol === b.protocol ? 0 : a.protocol === 'UDP' ? -1 : 1)),
    health: httpListener(named('health')[0], HEALTH_DEFAULT),
    ready: compareCoreDnsVersions(coredns, READY_FROM) >= 0 ? httpListener(named('ready')[0], READY_DEFAULT) : undefined,
    readyAvailable: compareCoreDnsVersions(coredns, READY_FROM) >= 0,
    metricsPort: metricsAddress?.port,
    watchesPods: kubernetes.some((directive) => option(directive, 'pods').some((pods) => pods.arguments[0] === 'verified')),
    readsEndpoints: kubernetes.some((directive) => option(directive, 'noendpoints').length === 0),
    usesKubernetes: kubernetes.length > 0,
    federation: named('federation').length > 0 && coreDnsFeatures(coredns).federation === 'in-tree',
    multicluster: kubernetes.some((directive) => option(directive, 'multicluster').length > 0),
  };
}

/** One rule of a ClusterRole. */
export interface PolicyRule {
  readonly apiGroups: readonly string[];
  readonly resources: readonly string[];
  readonly verbs: readonly string[];
}


/**
 * The least ClusterRole the target release's kubernetes plugin needs for this Corefile
 * (coredns/coredns `plugin/kubernetes/controller.go` at each tag): list and watch of what it
 * watches, `get` of nodes only for the federation lookup, no write verbs.
 */
export function clusterRoleRules(needs: CorefileNeeds, coredns: CoreDnsVersion): PolicyRule[] {
  if (!needs.usesKubernetes) return [];
  const atLeast = (version: CoreDnsVersion) => compareCoreDnsVersions(coredns, version) >= 0;
  const core = [
    ...(needs.readsEndpoints && !atLeast(SLICES_ONLY_FROM) ? ['endpoints'] : []),
    'services',
    ...(needs.watchesPods ? ['pods'] : []),
    'namespaces',
  ];
  const rules: PolicyRule[] = [{ apiGroups: [''], resources: core, verbs: ['list', 'watch'] }];
  if (needs.readsEndpoints && atLeast(SLICES_FROM)) rules.push({ apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: ['list', 'watch'] });
  if (needs.multicluster && atLeast(SERVICE_IMPORTS_FROM)) rules.push({ apiGroups: ['multicluster.x-k8s.io'], resources: ['serviceimports'], verbs: ['list', 'watch'] });
  if (needs.federation) rules.push({ apiGroups: [''], resources: ['nodes'], verbs: ['get'] });
  return rules;
}
