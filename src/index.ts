/**
 * kube-dns-to-coredns: turn a kube-dns ConfigMap into a CoreDNS Corefile.
 *
 * The public API, grouped by pipeline stage. Everything here is pure (no Node APIs), so it runs in
 * browsers and bundlers as well as in Node.
 */

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
