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
export type { AnyAnswerDifference, NxdomainAnswerDifference, RoutingCheck, RoutingDifference, RoutingInput } from './check.js';

export { clusterSearchPath, explainName, formatExplanation, resolverCandidates } from './explain.js';
export type { CandidateExplanation, Explanation, ExplainInput } from './explain.js';

export { nodeLocalDnsRouting } from './node-local-routing.js';
export type { NodeLocalRoute, NodeLocalRouting, NodeLocalRoutingOptions } from './node-local-routing.js';
export type { NegativeCachingBlock } from './negative-caching.js';

// The base class of every error (see the main entry).
export { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';
export type { ErrorCategory, ErrorLocation, KubeDnsToCoreDnsErrorOptions } from '../errors/kube-dns-to-coredns-error.js';

// The types the routing models' inputs are made of (also exported by the main entry).
export { KUBE_DNS_QUIRKS } from '../kubedns/kube-dns-quirks.js';
export type { KubeDnsQuirk } from '../kubedns/kube-dns-quirks.js';
export type { ConfigMapData } from '../configmap/config-map-data.js';
export type { Corefile, CorefileItem, ServerBlock, SnippetDefinition, ImportStatement, TopLevelTrivia, Directive, DirectiveList, Block, AfterBlock, Comment } from '../corefile/model.js';
export type { SourcePosition, ValueLocation, ValueLocator } from '../util/source-position.js';
export type { KubeDnsReading, KubeDnsConfig, StubDomainEntry, ValueEntry, FederationEntry } from '../kubedns/read-kube-dns-config.js';
export type {
  DnsmasqContainerReading,
  KubeDnsContainerReading,
  KubeDnsDeployment,
} from '../kubedns/kube-dns-install.js';
export type { ContainerArgv, TooLongValue, UnresolvedReference } from '../kubedns/container-args.js';
export type { FlagProblem, FlagSetting } from '../kubedns/go-flags.js';
export type { InvalidSetting, KubeDnsArgs, KubeDnsFlagValues } from '../kubedns/kubedns-args.js';
export type { NannyArgs } from '../kubedns/dnsmasq-nanny-args.js';
export type { AddressEntry, DnsmasqOption, DnsmasqSettings, ServerEntry, ServerTarget } from '../kubedns/dnsmasq-options.js';
export type { Probe, ProbeType, SidecarArgs } from '../kubedns/sidecar-args.js';
export type { ObjectSource } from '../configmap/read-kubernetes-objects.js';
export type { Diagnostic, Severity } from '../diagnostics/diagnostic.js';
export { DIAGNOSTIC_CODES } from '../diagnostics/codes.js';
export type { DiagnosticArea, DiagnosticCode, DiagnosticCodeEntry } from '../diagnostics/codes.js';
export type { KubeDnsRules } from '../kubedns/kube-dns-versions.js';
