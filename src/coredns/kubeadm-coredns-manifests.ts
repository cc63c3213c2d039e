/**
 * What kubeadm's CoreDNS Deployment looked like, release by release: the base of the install
 * (docs/reference/coredns-install.md §2.2, §3.1). Each row is the first kubeadm release whose manifest
 * changed in a way the install follows; a target CoreDNS release takes the newest row whose
 * CoreDNS is not newer than itself (the oldest row below that).
 */
import { compareCoreDnsVersions } from './versions.js';
import type { CoreDnsVersion } from './versions.js';

/** `ready` is a plugin from this release on (the readiness probe targets it). */
export const READY_FROM: CoreDnsVersion = '1.5.0';
/**
 * The kubernetes plugin reads EndpointSlices from 1.8.1 (falling back to Endpoints where they are
 * not served, up to 1.10.x) and EndpointSlices only from 1.11.0; ServiceImports for `multicluster`
 * zones from 1.12.2 (docs/reference/coredns-install.md §1.3, §1.5).
 */
export const SLICES_FROM: CoreDnsVersion = '1.8.1';
export const SLICES_ONLY_FROM: CoreDnsVersion = '1.11.0';
export const SERVICE_IMPORTS_FROM: CoreDnsVersion = '1.12.2';

/** One era of kubeadm's `CoreDNSDeployment` manifest. */
export interface KubeadmCoreDnsManifest {
  /** The Kubernetes release (kubeadm) where this manifest first appeared. */
  readonly kubernetes: string;
  /** The CoreDNS release that kubeadm deployed. */
  readonly coredns: CoreDnsVersion;
  /** The image path under the registry: `coredns` (tag `1.7.0`) or `coredns/coredns` (tag `v1.8.0`). */
  readonly imagePath: 'coredns' | 'coredns/coredns';
  /** `priorityClassName: system-cluster-critical`. */
  readonly priorityClass: boolean;
  /** The operating-system node label of the `nodeSelector`, if any. */
  readonly osLabel: 'beta.kubernetes.io/os' | 'kubernetes.io/os' | undefined;
  /** The control-plane taints tolerated (besides `CriticalAddonsOnly`). */
  readonly controlPlaneTaints: readonly string[];
  /** The preferred pod anti-affinity on `kubernetes.io/hostname`. */
  readonly preferredAntiAffinity: boolean;
  /** Probe ports named (`liveness-probe`, `readiness-probe`) and declared as container ports. */
  readonly namedProbePorts: boolean;
}

const MASTER = 'node-role.kubernetes.io/master';
const CONTROL_PLANE = 'node-role.kubernetes.io/control-plane';

/** kubeadm's manifest changes that the install follows, oldest first. */
const KUBEADM_COREDNS_MANIFESTS: readonly KubeadmCoreDnsManifest[] = Object.freeze([
  { kubernetes: '1.11', coredns: '1.1.3', imagePath: 'coredns', priorityClass: false, osLabel: undefined, controlPlaneTaints: [MASTER], preferredAntiAffinity: false, namedProbePorts: false },
  { kubernetes: '1.14', coredns: '1.3.1', imagePath: 'coredns', priorityClass: true, osLabel: 'beta.kubernetes.io/os', controlPlaneTaints: [MASTER], preferredAntiAffinity: false, namedProbePorts: false },
  { kubernetes: '1.18', coredns: '1.6.7', imagePath: 'coredns', priorityClass: true, osLabel: 'kubernetes.io/os', controlPlaneTaints: [MASTER], preferredAntiAffinity: false, namedProbePorts: false },
  { kubernetes: '1.20', coredns: '1.7.0', imagePath: 'coredns', priorityClass: true, osLabel: 'kubernetes.io/os', controlPlaneTaints: [MASTER, CONTROL_PLANE], preferredAntiAffinity: false, namedProbePorts: false },
  { kubernetes: '1.21', coredns: '1.8.0', imagePath: 'coredns/coredns', priorityClass: true, osLabel: 'kubernetes.io/os', controlPlaneTaints: [MASTER, CONTROL_PLANE], preferredAntiAffinity: false, namedProbePorts: false },
  { kubernetes: '1.25', coredns: '1.9.3', imagePath: 'coredns/coredns', priorityClass: true, osLabel: 'kubernetes.io/os', controlPlaneTaints: [CONTROL_PLANE], preferredAntiAffinity: true, namedProbePorts: false },
  { kubernetes: '1.34', coredns: '1.12.1', imagePath: 'coredns/coredns', priorityClass: true, osLabel: 'kubernetes.io/os', controlPlaneTaints: [CONTROL_PLANE], preferredAntiAffinity: true, namedProbePorts: true },
] as const satisfies readonly KubeadmCoreDnsManifest[]);

/** The manifest era a target CoreDNS release takes as its base. */
export function kubeadmManifestFor(coredns: CoreDnsVersion): KubeadmCoreDnsManifest {
  let chosen = KUBEADM_COREDNS_MANIFESTS[0] as KubeadmCoreDnsManifest;
  for (const manifest of KUBEADM_COREDNS_MANIFESTS) if (compareCoreDnsVersions(manifest.coredns, coredns) <= 0) chosen = manifest;
  return chosen;
}

/** The public registry of the Kubernetes project's images (k8s.gcr.io is frozen and redirects here). */
const PUBLIC_REGISTRY = 'registry.k8s.io';

/** Registries that serve the Kubernetes project's own images: a kube-dns image from one of them is not a private mirror. */
const PUBLIC_KUBERNETES_REGISTRIES: readonly string[] = ['registry.k8s.io', 'k8s.gcr.io', 'gcr.io/google_containers', 'gcr.io/google-containers', 'staging-k8s.gcr.io'];

/**
 * The CoreDNS image of a release: under the public registry with the era's path and tag
 * (`registry.k8s.io/coredns:1.7.0`, `registry.k8s.io/coredns/coredns:v1.8.0`), or under a
 * private repository as kubeadm writes it for a custom `imageRepository` (`REPO/coredns:TAG`).
 */
export function coreDnsImage(coredns: CoreDnsVersion, manifest: KubeadmCoreDnsManifest, privateRepository: string | undefined): string {
  const tag = manifest.imagePath === 'coredns/coredns' ? `v${coredns}` : coredns;
  return privateRepository === undefined ? `${PUBLIC_REGISTRY}/${manifest.imagePath}:${tag}` : `${privateRepository}/coredns:${tag}`;
}

/**
 * The repository a kube-dns image was pulled from when it is not one of the project's public
 * registries: everything before the image's last path element (`mirror.corp/k8s` of
 * `mirror.corp/k8s/k8s-dns-kube-dns-amd64:1.14.13`); undefined for public or unqualified images.
 */
export function privateRepositoryOf(image: string | undefined): string | undefined {
  if (image === undefined) return undefined;
  const name = image.replace(/@.*$/, '').replace(/:[^/:]*$/, '');
  const slash = name.lastIndexOf('/');
  if (slash < 0) return undefined;
  const repository = name.slice(0, slash);
  const first = repository.split('/')[0] as string;
  // Docker Hub names (`user/image`) have no registry host: not a mirror of the project's images.
  if (!first.includes('.') && !first.includes(':') && first !== 'localhost') return undefined;
  const lower = repository.toLowerCase();
  if (PUBLIC_KUBERNETES_REGISTRIES.some((registry) => lower === registry || lower.startsWith(`${registry}/`))) return undefined;
  if (/^([a-z]+\.)?gcr\.io\/(google[_-]containers|k8s-artifacts-prod)/.test(lower)) return undefined;
  return repository;
}
