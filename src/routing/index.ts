/**
 * Routing: who answers a query name under kube-dns and under a CoreDNS Corefile, and the check that
 * compares the two ("will every name still go where it went?"). Pure: no Node APIs.
 */
export { kubeDnsRouting } from './kube-dns-routing.js';
export type { KubeDnsRouting, KubeDnsRoutingOptions } from './kube-dns-routing.js';

export { coreDnsRouting } from './coredns-routing.js';
export type { CoreDnsRouting, CoreDnsRoutingOptions } from './coredns-routing.js';

export { describeDestination, destinationKey, sameDestination } from './destination.js';
export type {
  AnyOfDestination,
  ClusterDestination,
  RouteDestination,
  PluginDestination,
  RefusedDestination,
  ResolvConfDestination,
  Route,
  ServersDestination,
  ServfailDestination,
  SocketAddress,
} from './destination.js';

export { assertSameRouting, checkRouting, formatRoutingCheck, namesToCheck, RoutingMismatchError } from './check.js';
export type { RoutingCheck, RoutingDifference, RoutingInput } from './check.js';

export { clusterSearchPath, explainName, formatExplanation, resolverCandidates } from './explain.js';
export type { CandidateExplanation, Explanation, ExplainInput } from './explain.js';
