/**
 * `kube-dns-to-coredns/releases`: the release facts the package knows, of CoreDNS (releases,
 * plugins, options, image references), kube-dns (whose ConfigMap rules are known), kubeadm (one
 * profile per behaviour) and node-cache. The operations of the main entry ask these; a program can
 * ask them too (which releases exist, what one of them supports). Pure: no Node APIs.
 */

// CoreDNS: which releases exist, how version text and image references read, what each release has.
export { COREDNS_VERSIONS, NEWEST_COREDNS_VERSION, parseCoreDnsVersion, UnknownCoreDnsVersionError } from './coredns/versions.js';
export type { CoreDnsVersion, UnknownCoreDnsVersionReason } from './coredns/versions.js';
export { resolveCoreDnsRelease, UnresolvedCoreDnsReleaseError } from './coredns/resolve-release.js';
export type {
  CoreDnsImageReference,
  CoreDnsReleaseMapping,
  CoreDnsReleaseNotice,
  CoreDnsReleaseNoticeCode,
  CoreDnsReleaseResult,
  UnresolvedCoreDnsReleaseCode,
} from './coredns/resolve-release.js';
export { coreDnsOptionAvailability, coreDnsPluginAvailability } from './coredns/availability.js';
export type { Availability, AvailabilityStatus } from './coredns/availability.js';
// A custom build's plugin.cfg, and the plugins it loads.
export { loadablePlugins, parsePluginCfg, PluginCfgSyntaxError } from './coredns/plugin-cfg.js';
export type { PluginCfgLine, PluginCfgSyntaxErrorCode } from './coredns/plugin-cfg.js';

// kube-dns: the releases whose ConfigMap rules are known.
export { GKE_COREDNS_READER, NEWEST_KUBE_DNS_VERSION, UnsupportedKubeDnsVersionError } from './kubedns/kube-dns-versions.js';
export type { KubeDnsRules, UnsupportedKubeDnsVersionCode } from './kubedns/kube-dns-versions.js';

// kubeadm: one profile per behaviour (Kubernetes 1.10–1.20).
export { kubeadmProfileFor, UnsupportedKubernetesVersionError } from './kubeadm/kubernetes-version.js';
export type { UnsupportedKubernetesVersionCode } from './kubeadm/kubernetes-version.js';
export { KUBEADM_PROFILE_IDS, KUBEADM_PROFILES } from './kubeadm/profiles.js';
export type { KubeadmProfile, KubeadmProfileId, YamlV2Release } from './kubeadm/profiles.js';
export type { PortParser } from './dns/go-net.js';

// node-cache (NodeLocal DNSCache): one profile per behaviour change (1.15.6–1.26.8), and the
// template text paired with each release.
export { NEWEST_NODE_CACHE_RELEASE, OLDEST_NODE_CACHE_RELEASE, nodeCacheProfile, UnsupportedNodeCacheReleaseError } from './nodelocal/node-cache-releases.js';
export type { NodeCacheProfile, UnsupportedNodeCacheReleaseCode } from './nodelocal/node-cache-releases.js';
export { NODE_LOCAL_DNS_TEMPLATES, nodeLocalDnsTemplateId } from './nodelocal/node-local-dns-template.js';
export type { NodeLocalDnsTemplateId } from './nodelocal/node-local-dns-template.js';

// The base class of every error (see the main entry).
export { KubeDnsToCoreDnsError } from './errors/kube-dns-to-coredns-error.js';
export type { ErrorCategory, ErrorLocation, KubeDnsToCoreDnsErrorOptions } from './errors/kube-dns-to-coredns-error.js';
export type { SourcePosition } from './util/source-position.js';
