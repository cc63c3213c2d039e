/**
 * kube-dns-to-coredns: turn a kube-dns ConfigMap into a CoreDNS Corefile.
 *
 * The main entry: the operations (read, translate, lint, migrate, check, explain, node-local-dns)
 * and every error class. Three subpaths sit beside it: `kube-dns-to-coredns/corefile` (the Corefile
 * model, src/corefile/index.ts), `kube-dns-to-coredns/routing` (the routing models,
 * src/routing/index.ts) and `kube-dns-to-coredns/releases` (release facts of CoreDNS, kube-dns,
 * kubeadm and node-cache, src/releases.ts). Every name is documented in docs/library.md, and every
 * type an exported signature uses is exported too. api/ records one report per entry;
 * test/package/api-report.test.ts fails when one changes without `npm run api`. Everything here is
 * pure (no Node APIs), so it runs in browsers and bundlers as well as in Node.
 */

// The base class of every error the package throws: `code`, `category`, `reason`, `position`.
export { KubeDnsToCoreDnsError } from './errors/kube-dns-to-coredns-error.js';
export type { ErrorCategory, ErrorLocation, KubeDnsToCoreDnsErrorOptions } from './errors/kube-dns-to-coredns-error.js';
// A library call with an argument of the wrong kind (from JavaScript, or parsed JSON).
export { InvalidArgumentError } from './errors/arguments.js';
export type { InvalidArgumentCode } from './errors/arguments.js';

// Reading a ConfigMap (YAML or JSON, as kubectl prints it).
export { ConfigMapInputError, readConfigMap } from './configmap/read-configmap.js';
export type { ConfigMapData, ConfigMapDocument, ConfigMapInputErrorCode, ReadConfigMapOptions } from './configmap/read-configmap.js';

// The kube-dns side: the kube-dns ConfigMap, its values decoded exactly like Go's encoding/json,
// the kube-dns releases whose validation rules are known.
export { readKubeDnsConfigMap } from './kubedns/read-kube-dns-configmap.js';
export type { KubeDnsConfigMapDocument } from './kubedns/read-kube-dns-configmap.js';
export { readKubeDnsConfig } from './kubedns/read-kube-dns-config.js';
export type {
  FederationEntry,
  KubeDnsConfig,
  KubeDnsReading,
  ReadKubeDnsOptions,
  StubDomainEntry,
  ValueEntry,
} from './kubedns/read-kube-dns-config.js';
export { decodeFederations, decodeStubDomains, decodeUpstreamNameservers } from './kubedns/kube-dns-values.js';
export { GoJsonError } from './kubedns/go-json.js';
export type { GoJsonErrorKind, GoJsonResult } from './kubedns/go-json.js';
export { UnsupportedKubeDnsVersionError } from './kubedns/kube-dns-versions.js';
export type { KubeDnsRules, UnsupportedKubeDnsVersionCode } from './kubedns/kube-dns-versions.js';
export { KUBE_DNS_QUIRKS } from './kubedns/kube-dns-quirks.js';
export type { KubeDnsQuirk } from './kubedns/kube-dns-quirks.js';

// The whole kube-dns install: its Deployment (each container's arguments read as its program
// reads them), its Service and its ConfigMap, from one text or several; and its translation.
export { KubernetesObjectInputError } from './configmap/read-kubernetes-objects.js';
export type { KubernetesObjectInputErrorCode, ObjectSource } from './configmap/read-kubernetes-objects.js';
export { readKubeDnsInstall } from './kubedns/kube-dns-install.js';
export type {
  DnsmasqContainerReading,
  KubeDnsAutoscaler,
  KubeDnsContainerReading,
  KubeDnsDeployment,
  KubeDnsInstall,
  KubeDnsInstallSource,
  KubeDnsService,
  ReadKubeDnsInstallOptions,
} from './kubedns/kube-dns-install.js';
export type { ContainerArgv, TooLongValue, UnresolvedReference } from './kubedns/container-args.js';
export type { FlagProblem, FlagSetting } from './kubedns/go-flags.js';
export type { InvalidSetting, KubeDnsArgs, KubeDnsFlagValues } from './kubedns/kubedns-args.js';
export type { NannyArgs } from './kubedns/dnsmasq-nanny-args.js';
export type { AddressEntry, DnsmasqOption, DnsmasqSettings, ServerEntry, ServerTarget } from './kubedns/dnsmasq-options.js';
export type { Probe, ProbeType, SidecarArgs } from './kubedns/sidecar-args.js';
export { translateKubeDnsInstall } from './translate/translate.js';
export type { NegativeCachingBlock } from './routing/negative-caching.js';

// The default translator: a Corefile for a target CoreDNS release, merged into an existing one if
// wanted, wrapped in a CoreDNS ConfigMap if wanted.
export { TranslateOptionsError, translateKubeDns } from './translate/translate.js';
export type { TranslateOptions, TranslateOptionsErrorCode, TranslationResult } from './translate/translate.js';
export { SelfCheckError } from './translate/self-check.js';
export type { SelfCheckErrorCode } from './translate/self-check.js';
export { mergeTranslation } from './translate/merge.js';
export { buildCoreDnsInstall, CoreDnsInstallInputError } from './install/install.js';
export type { CoreDnsInstallInputErrorCode, CoreDnsInstallOptions, CoreDnsInstallResult, KubernetesObjectValue } from './install/install.js';
export { formatCutoverJson, formatCutoverScript, formatCutoverText, planCutover } from './install/cutover.js';
export type { CutoverFile, CutoverOptions, CutoverPlan, CutoverStep } from './install/cutover.js';
export { compareProbe, formatVerifyReport, verifyProbes, verifyReport } from './verify/probes.js';
export type { LiveAnswer, VerifyProbe, ProbeComparison, ProbeOptions, Verdict, VerifyReport } from './verify/probes.js';
export type { DnsRecord, QueryType } from './verify/dns-wire.js';
export type { MergeResult } from './translate/merge.js';
export { configMapWithCorefile, renderConfigMapWithCorefile, renderCoreDnsConfigMap, serverSetFields } from './configmap/write-configmap.js';

// Diagnostics: stable codes, severities, one-line messages.
export { DIAGNOSTIC_CODES } from './diagnostics/codes.js';
export type { DiagnosticArea, DiagnosticCode, DiagnosticCodeEntry } from './diagnostics/codes.js';
export { formatDiagnostic } from './diagnostics/diagnostic.js';
export type { Diagnostic, Severity } from './diagnostics/diagnostic.js';

// The CoreDNS releases: which exist, and what each has.
export { COREDNS_VERSIONS, UnknownCoreDnsVersionError } from './coredns/versions.js';
export type { CoreDnsVersion, UnknownCoreDnsVersionReason } from './coredns/versions.js';
export { UnresolvedCoreDnsReleaseError } from './coredns/resolve-release.js';
export type {
  CoreDnsImageReference,
  CoreDnsReleaseMapping,
  CoreDnsReleaseNotice,
  CoreDnsReleaseInput,
  CoreDnsReleaseNoticeCode,
  CoreDnsReleaseResult,
  ResolvedCoreDnsRelease,
  UnresolvedCoreDnsReleaseCode,
} from './coredns/resolve-release.js';
export type { Availability, AvailabilityStatus } from './coredns/availability.js';

// kubeadm's translation, one faithful profile per release (Kubernetes 1.10–1.20).
export { translateLikeKubeadm } from './kubeadm/kubeadm-translation.js';
export type { KubeadmResult } from './kubeadm/kubeadm-translation.js';
export { translateKubeadmPieces } from './kubeadm/translate-pieces.js';
export type { KubeadmPieces, KubeadmPiecesResult, KubeadmRequest, KubeadmStubRequest } from './kubeadm/translate-pieces.js';
export { renderKubeadmManifest } from './kubeadm/manifest.js';
export { UnsupportedKubernetesVersionError } from './kubeadm/kubernetes-version.js';
export type { UnsupportedKubernetesVersionCode } from './kubeadm/kubernetes-version.js';
export { KUBEADM_PROFILE_IDS } from './kubeadm/profiles.js';
export type { KubeadmProfile, KubeadmProfileId, YamlV2Release } from './kubeadm/profiles.js';

// node-cache's (NodeLocal DNSCache) translation, one profile per behaviour change (1.15.6–1.26.8).
export { UnsupportedNodeCacheReleaseError } from './nodelocal/node-cache-releases.js';
export type { NodeCacheProfile, UnsupportedNodeCacheReleaseCode } from './nodelocal/node-cache-releases.js';
export { NodeCacheInputError, translateLikeNodeCache } from './nodelocal/translate-like-node-cache.js';
export type { NodeCacheInput, NodeCacheInputErrorCode, NodeCacheNote, NodeCacheRejection, NodeCacheResult } from './nodelocal/translate-like-node-cache.js';
// node-local-dns: the bundled template, the pre-flight, and node-local-dns as a routing tier in front of CoreDNS.
export { nodeLocalDnsTemplate } from './nodelocal/node-local-dns-template.js';
export type { NodeLocalDnsInstall, NodeLocalDnsTemplateId } from './nodelocal/node-local-dns-template.js';
export { PREFLIGHT_LOCAL_IPS, PREFLIGHT_UPSTREAM_IP, preflightNodeLocalDns } from './nodelocal/preflight.js';
export type { NodeLocalDnsPreflight, NodeLocalDnsPreflightOptions } from './nodelocal/preflight.js';
export { checkNodeLocalDnsRouting, explainNodeLocalDns, formatNodeLocalCheck, formatNodeLocalExplanation } from './nodelocal/node-local-check.js';
export type { NodeLocalCandidate, NodeLocalCheck, NodeLocalCheckInput, NodeLocalDifference, NodeLocalExplainInput, NodeLocalExplanation } from './nodelocal/node-local-check.js';
export type { NodeLocalRoute, NodeLocalRouting, NodeLocalRoutingOptions } from './routing/node-local-routing.js';
export type { PortParser } from './dns/go-net.js';

// kubeadm's decisions around the translation.
export { ClusterDataError, detectDnsAddon, kubeadmConfigMapDecision, kubeadmDnsServiceIp } from './kubeadm/cluster-decisions.js';
export type { ClusterDataErrorCode, ConfigMapDecision, CoreDnsConfigMapAction, DeploymentLike, DnsAddon } from './kubeadm/cluster-decisions.js';

// The Corefile model: lexer → parser → model → printer, server keys, equality.
export { CorefileError, CorefileExpansionError, CorefilePrintError, CorefileSyntaxError, ServerKeyError } from './corefile/index.js';
export type {
  AfterBlock,
  Block,
  Comment,
  CommentLexeme,
  Corefile,
  CorefileErrorCode,
  CorefileExpansionErrorCode,
  CorefileItem,
  CorefilePrintErrorCode,
  CorefileSyntaxErrorCode,
  CorefileWarning,
  CorefileWarningCode,
  Directive,
  DirectiveList,
  ExpandedDirective,
  ExpandedServerBlock,
  ExpansionLimit,
  FormatResult,
  ImportStatement,
  Lexeme,
  LexOptions,
  LexResult,
  ParseOptions,
  ParseResult,
  ParseServerKeyOptions,
  ServerAddress,
  ServerBlock,
  ServerKeyErrorCode,
  ServerTransport,
  SnippetDefinition,
  SnippetExpansion,
  TokenForm,
  TopLevelTrivia,
  UnexpandedImport,
  WordLexeme,
} from './corefile/index.js';
export type { SourcePosition, ValueLocation, ValueLocator } from './util/source-position.js';

// Linting a Corefile against a CoreDNS release.
export { lintCorefile, lintParsedCorefile, PluginCfgSyntaxError } from './lint/index.js';
export type { ImportedFile, ImportReader, LintModelOptions, LintOptions, LintResult, PluginCfgLine, PluginCfgSyntaxErrorCode } from './lint/index.js';

// Migrating a Corefile between CoreDNS releases, and kubeadm's default Corefile per Kubernetes release.
export { migrateCorefile } from './migrate/index.js';
export type { MigrateOptions, MigrationAction, MigrationNotice, MigrationResult, ReleaseSpan } from './migrate/index.js';
export { isKubeadmDefaultCorefileFor } from './kubeadm/cluster-decisions.js';

// Who answers a name under kube-dns and under a Corefile, and the check that compares them.
export {
  assertSameRouting,
  checkRouting,
  explainName,
  formatExplanation,
  formatRoutingCheck,
  RoutingMismatchError,
} from './routing/index.js';
export type {
  AnyOfDestination,
  CandidateExplanation,
  ClusterDestination,
  CoreDnsRouting,
  CoreDnsRoutingOptions,
  ExplainInput,
  Explanation,
  KubeDnsRouting,
  KubeDnsRoutingOptions,
  PluginDestination,
  RefusedDestination,
  ResolvConfDestination,
  Route,
  RouteDestination,
  RoutingCheck,
  NxdomainAnswerDifference,
  AnyAnswerDifference,
  RoutingDifference,
  RoutingInput,
  ServersDestination,
  ServfailDestination,
  SocketAddress,
} from './routing/index.js';
