/**
 * kube-dns-to-coredns: turn a kube-dns ConfigMap into a CoreDNS Corefile.
 *
 * The public API, grouped by pipeline stage. Everything here is pure (no Node APIs), so it runs in
 * browsers and bundlers as well as in Node.
 */

// The base class of every error the package throws: `code`, `category`, `reason`, `position`.
export { KubeDnsToCoreDnsError } from './errors/kube-dns-to-coredns-error.js';
export type { ErrorCategory } from './errors/kube-dns-to-coredns-error.js';

// Reading a ConfigMap (YAML or JSON, as kubectl prints it).
export { ConfigMapInputError, readConfigMap } from './configmap/read-configmap.js';
export type { ConfigMapData, ConfigMapDocument, ReadConfigMapOptions } from './configmap/read-configmap.js';

// The kube-dns side: values decoded exactly like Go's encoding/json.
export {
  decodeFederations,
  decodeGoJson,
  decodeStubDomains,
  decodeUpstreamNameservers,
  GoJsonError,
  parseGoJson,
} from './kubedns/go-json.js';
export type { GoJsonErrorKind, GoJsonResult, GoJsonValue } from './kubedns/go-json.js';

// kubeadm's translation, one faithful profile per release (Kubernetes 1.10–1.20).
export { KUBEADM_DEFAULT_DNS_DOMAIN, translateLikeKubeadm } from './kubeadm/kubeadm-translation.js';
export type { KubeadmOutcome } from './kubeadm/kubeadm-translation.js';
export { translateKubeadmPieces } from './kubeadm/translate-pieces.js';
export type { KubeadmPieces, PiecesOutcome } from './kubeadm/translate-pieces.js';
export { renderKubeadmManifest } from './kubeadm/manifest.js';
export { kubeadmProfileFor, UnsupportedKubernetesVersionError } from './kubeadm/kubernetes-version.js';
export { KUBEADM_PROFILE_IDS, KUBEADM_PROFILES } from './kubeadm/profiles.js';
export type { KubeadmProfile, KubeadmProfileId } from './kubeadm/profiles.js';

// kubeadm's decisions around the translation.
export {
  ClusterDataError,
  detectDnsAddon,
  isKubeadmDefaultCorefile,
  kubeadmConfigMapDecision,
  kubeadmDnsServiceIp,
} from './kubeadm/cluster-decisions.js';
export type { ConfigMapDecision, CoreDnsConfigMapAction, DeploymentLike, DnsAddon } from './kubeadm/cluster-decisions.js';

// The Corefile model: lexer → parser → model → printer, server keys, equality.
export * from './corefile/index.js';

// The kube-dns side, read and validated the way kube-dns does.
export { readKubeDnsConfig, KUBE_DNS_KEYS } from './kubedns/read-kube-dns-config.js';
export { KUBE_DNS_CONFIGMAP_NAME, KUBE_DNS_CONFIGMAP_NAMESPACE, readKubeDnsConfigMap } from './kubedns/read-kube-dns-configmap.js';
export type { KubeDnsConfigMapDocument } from './kubedns/read-kube-dns-configmap.js';
export type { FederationEntry, KubeDnsConfig, KubeDnsReading, StubDomainEntry, ValueEntry } from './kubedns/read-kube-dns-config.js';
export { kubeDnsRules, NEWEST_KUBE_DNS_VERSION, UnsupportedKubeDnsVersionError } from './kubedns/kube-dns-versions.js';
export type { KubeDnsRules } from './kubedns/kube-dns-versions.js';

// The default translator, its diagnostics and the CoreDNS version matrix.
export { DEFAULT_CLUSTER_DOMAIN, TranslateOptionsError, translateKubeDns } from './translate/translate.js';
export type { TranslateOptions, Translation } from './translate/translate.js';
export { SelfCheckError } from './translate/self-check.js';
export { mergeTranslation } from './translate/merge.js';
export type { MergeResult } from './translate/merge.js';
export { DIAGNOSTIC_CODES } from './diagnostics/codes.js';
export type { DiagnosticCode } from './diagnostics/codes.js';
export { formatDiagnostic } from './diagnostics/diagnostic.js';
export type { Diagnostic, Severity } from './diagnostics/diagnostic.js';
export {
  COREDNS_VERSIONS,
  coreDnsFeatures,
  coreDnsOptionAvailability,
  coreDnsPluginAvailability,
  compareCoreDnsVersions,
  NEWEST_COREDNS_VERSION,
  parseCoreDnsVersion,
  UnknownCoreDnsVersionError,
} from './coredns/versions.js';
export type { CoreDnsFeatures, CoreDnsVersion } from './coredns/versions.js';
export { kubernetesDefaultMainBlock } from './coredns/kubernetes-default-corefile.js';
export { renderCoreDnsConfigMap } from './configmap/write-configmap.js';

// Linting a Corefile against a CoreDNS release.
export * from './lint/index.js';

// Who answers a name under kube-dns and under a Corefile, and the check that compares them.
export * from './routing/index.js';
