import { checkArgument, checkCorefileModel, InvalidArgumentError } from '../errors/arguments.js';
import type { Corefile } from '../corefile/model.js';
import { parseGoIP } from '../dns/go-net.js';
import { canonicalName } from '../dns/names.js';
import { coreDnsRouting } from './coredns-routing.js';
import type { CoreDnsRouting } from './coredns-routing.js';
import { anyOf, serversDestination, socketAddress } from './destination.js';
import type { Route, RouteDestination } from './destination.js';

/**
 * NodeLocal DNSCache as a routing tier in front of CoreDNS: a pod's query reaches node-local-dns
 * first, which routes it through the Corefile node-cache wrote (the same CoreDNS model as any
 * Corefile); where that sends it to the kube-dns-upstream Service (the ClusterIP node-cache put in
 * for `__PILLAR__CLUSTER__DNS__`), the query goes on into CoreDNS's own Corefile. Anything else
 * (stub nameservers, upstream nameservers, the node's resolv.conf) is answered without CoreDNS.
 *
 * Pure: no Node APIs.
 */
export interface NodeLocalRoutingOptions {
  /** The ClusterIP of the kube-dns-upstream Service, which leads to CoreDNS. */
  readonly upstreamIp: string;
  /** The port node-local-dns serves on (default 53). */
  readonly port?: number | string;
  /** The port of the kube-dns-upstream Service (default 53). */
  readonly upstreamPort?: number | string;
}

/** Who answers a name in each tier. */
export interface NodeLocalRoute {
  /** What node-local-dns does with the name. */
  readonly nodeLocal: Route;
  /** What CoreDNS does with it, when node-local-dns sends it there. */
  readonly coreDns?: Route;
  /** The end of the path: CoreDNS's answer where the query reaches it, else node-local-dns's. */
  readonly final: Route;
}

export interface NodeLocalRouting {
  /** Notes of the node-local-dns model (`node-local-dns: …`) and of CoreDNS's (`Corefile: …`). */
  readonly notes: readonly string[];
  /** Zones node-local-dns's Corefile routes on. */
  readonly zones: readonly string[];
  /** The socket address of the kube-dns-upstream Service as forward destinations spell it (`10.96.0.20:53`). */
  readonly upstream: string;
  route(name: string): NodeLocalRoute;
}

/**
 * The two tiers: `nodeCacheCorefile` (what node-cache wrote; text or model) in front of `coreDns`
 * (the model of CoreDNS's Corefile). Throws `CorefileSyntaxError` for a node-cache Corefile CoreDNS
 * cannot parse, and an `InvalidArgumentError` for an `upstreamIp` that is not an IP address.
 */
export function nodeLocalDnsRouting(nodeCacheCorefile: string | Corefile, coreDns: CoreDnsRouting, options: NodeLocalRoutingOptions): NodeLocalRouting {
  checkArgument('nodeLocalDnsRouting', 'nodeCacheCorefile', nodeCacheCorefile, 'string|object');
  if (typeof nodeCacheCorefile !== 'string') checkCorefileModel('nodeLocalDnsRouting', 'nodeCacheCorefile', nodeCacheCorefile);
  checkArgument('nodeLocalDnsRouting', 'coreDns', coreDns, 'object');
  checkArgument('nodeLocalDnsRouting', 'options', options, 'object');
  checkArgument('nodeLocalDnsRouting', 'options.upstreamIp', options.upstreamIp, 'string');
  if (parseGoIP(options.upstreamIp) === undefined) {
    throw new InvalidArgumentError('invalid-value', 'nodeLocalDnsRouting', 'options.upstreamIp', `'${options.upstreamIp}' is not an IP address (the kube-dns-upstream Service's IP)`);
  }
  const upstream = socketAddress(options.upstreamIp, Number(options.upstreamPort ?? 53)).address;
  const nodeLocal = coreDnsRouting(nodeCacheCorefile, options.port === undefined ? {} : { port: options.port });
  const notes = [...new Set([...nodeLocal.notes.map((note) => `node-local-dns: ${note}`), ...coreDns.notes.map((note) => `Corefile: ${note}`)])];

  function route(query: string): NodeLocalRoute {
    const name = canonicalName(query);
    const first = nodeLocal.route(name);
    const destination = first.destination;
    if (destination.kind !== 'servers' || !destination.servers.includes(upstream)) return { nodeLocal: first, final: first };
    const second = coreDns.route(name);
    const others = destination.servers.filter((server) => server !== upstream);
    // node-cache picks among the servers of one forward: CoreDNS's answer is one of the outcomes.
    const final: RouteDestination = others.length === 0 ? second.destination : anyOf([second.destination, serversDestination(others)]);
    return { nodeLocal: first, coreDns: second, final: { destination: final, via: `node-local-dns ${first.via}; CoreDNS ${second.via}` } };
  }
  return { notes, zones: nodeLocal.zones, upstream, route };
}
