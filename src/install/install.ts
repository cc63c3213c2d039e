/**
 * The whole CoreDNS install that takes kube-dns's place (docs/migration-guide.md): ServiceAccount,
 * ClusterRole, ClusterRoleBinding, the ConfigMap with the translator's Corefile, the Deployment
 * (kubeadm's manifest for the target release as the base, with the kube-dns Deployment's
 * scheduling carried over) and the kube-dns Service as it is, so that the Service keeps its cluster
 * IP and its endpoints while CoreDNS pods join them. Validated before it is returned.
 */
import { checkOptions } from '../errors/arguments.js';
import { dump, loadAll } from 'js-yaml';
import type { CoreDnsVersion } from '../coredns/versions.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { InternalError } from '../errors/internal-error.js';
import type { KubeDnsInstall } from '../kubedns/kube-dns-install.js';
import { mergeTranslation } from '../translate/merge.js';
import { translateKubeDnsInstall } from '../translate/translate.js';
import type { TranslateOptions, TranslationResult } from '../translate/translate.js';
import { clusterRoleRules, corefileNeeds } from './corefile-needs.js';
import type { CorefileNeeds, HttpListener } from './corefile-needs.js';
import { coreDnsReleaseOf } from '../coredns/resolve-release.js';
import { coreDnsImage, kubeadmManifestFor, privateRepositoryOf, SLICES_ONLY_FROM } from '../coredns/kubeadm-coredns-manifests.js';
import { compareCoreDnsVersions } from '../coredns/versions.js';
import type { KubeadmCoreDnsManifest } from '../coredns/kubeadm-coredns-manifests.js';
import { validateInstallObjects } from './validate-install.js';
import { checkMergedRouting, refused } from './merge-check.js';
import { checkImageReference } from './image-reference.js';
import { CoreDnsInstallInputError } from './install-input-error.js';

export interface CoreDnsInstallOptions extends TranslateOptions {
  /** The CoreDNS image to run instead of the release's (an air-gapped mirror, say). */
  readonly image?: string;
  /**
   * An existing Corefile (its text) the translation is merged into, as {@link mergeTranslation}
   * does (`--merge`): the ConfigMap carries the merged Corefile instead of the translation alone.
   */
  readonly merge?: string;
  /** What the messages about `merge` call it (its FILE, as {@link mergeTranslation}'s `filename`); default `Corefile`. */
  readonly mergeFilename?: string;
}

/** A Kubernetes object as a plain JSON value. */
export type KubernetesObjectValue = Readonly<Record<string, unknown>>;

/** The outcome of {@link buildCoreDnsInstall}, discriminated by `ok` like a translation. */
export type CoreDnsInstallResult =
  | {
      readonly ok: true;
      /** ServiceAccount, ClusterRole, ClusterRoleBinding, ConfigMap, Deployment, Service, in the order they are applied. */
      readonly objects: readonly KubernetesObjectValue[];
      /** The objects as YAML documents for `kubectl apply -f -`. */
      readonly yaml: string;
      /** The translation whose Corefile the ConfigMap holds (merged into `merge` when given). */
      readonly translation: TranslationResult & { readonly ok: true };
      /** The translation's diagnostics, then the install's. */
      readonly diagnostics: readonly Diagnostic[];
      readonly coredns: CoreDnsVersion;
    }
  | {
      readonly ok: false;
      readonly objects: undefined;
      readonly yaml: undefined;
      readonly translation: TranslationResult;
      readonly diagnostics: readonly Diagnostic[];
      readonly coredns: CoreDnsVersion;
    };

export { CoreDnsInstallInputError } from './install-input-error.js';
export type { CoreDnsInstallInputErrorCode } from './install-input-error.js';

type Json = Readonly<Record<string, unknown>>;
type Mutable = Record<string, unknown>;

const KUBE_DNS_LABEL = { 'k8s-app': 'kube-dns' } as const;
const COREDNS = 'coredns';
const CLUSTER_ROLE = 'system:coredns';
const CONFIG_MOUNT = '/etc/coredns';
const COREFILE_KEY = 'Corefile';
const DEFAULT_REPLICAS = 2;

const record = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});
const has = (object: Json, key: string) => object[key] !== undefined && object[key] !== null;

/**
 * Builds the CoreDNS install from a kube-dns install: the translation (refused ⇒ no install), the
 * objects, their validation and YAML. Throws {@link CoreDnsInstallInputError} when the cluster
 * DNS IP is unknown (no Service and no `clusterDnsIp`) or contradicts the Service, and an
 * `InstallValidationError` (internal) should the objects not validate.
 */
export function buildCoreDnsInstall(install: KubeDnsInstall, options: CoreDnsInstallOptions = {}): CoreDnsInstallResult {
  checkOptions('buildCoreDnsInstall', 'install', install, { configMap: 'object?', deployment: 'object?', service: 'object?', diagnostics: 'array' }, true);
  checkOptions('buildCoreDnsInstall', 'options', options, { image: 'string?', merge: 'string?', mergeFilename: 'string?' });
  if (options.image !== undefined) checkImageReference(options.image);
  const serviceIp = install.service?.clusterIP;
  if (install.service !== undefined && serviceIp === undefined) {
    throw new CoreDnsInstallInputError('service-without-cluster-ip', `Service ${install.service.name ?? '(unnamed)'} has no cluster IP (headless): pods reach the cluster DNS at a cluster IP, so the install needs one`);
  }
  if (install.service !== undefined && Object.keys(record(record(install.service.object['spec'])['selector'])).length === 0) {
    throw new CoreDnsInstallInputError('service-without-selector', `Service ${install.service.name ?? '(unnamed)'} has no selector: its endpoints are not chosen by pod labels, so CoreDNS pods would never join them (the install keeps the Service's selector; give the Service as the cluster has it)`);
  }
  if (serviceIp === undefined && options.clusterDnsIp === undefined) {
    throw new CoreDnsInstallInputError('cluster-dns-ip-required', 'the install keeps the kube-dns Service and its cluster IP: give the kube-dns Service in the input (kubectl get svc/kube-dns -o yaml) or --cluster-dns-ip');
  }
  if (serviceIp !== undefined && options.clusterDnsIp !== undefined && options.clusterDnsIp !== serviceIp) {
    throw new CoreDnsInstallInputError('cluster-dns-ip-conflict', `--cluster-dns-ip ${options.clusterDnsIp}, but the kube-dns Service's cluster IP is ${serviceIp}; the install keeps the Service's (drop the option)`);
  }
  const { image, merge, mergeFilename, ...translateOptions } = options;
  const translated = translateKubeDnsInstall(install, translateOptions);
  const translation = merge === undefined || !translated.ok ? translated : checkedMerge(install, options, mergedTranslation(merge, translated, mergeFilename));
  if (!translation.ok) return { ok: false, objects: undefined, yaml: undefined, translation, diagnostics: translation.diagnostics, coredns: translation.coredns };
  const diagnostics: Diagnostic[] = [...releaseDiagnostics(install, translation.coredns, image)];
  // A release newer than the package knows is translated as the newest it knows: so is the image.
  const release = coreDnsReleaseOf(options.coredns ?? translation.coredns);
  if (image === undefined && release.notices.some((notice) => notice.code === 'newer-than-known')) {
    const asked = release.mapping.base;
    diagnostics.push(
      diagnostic('install-image-release-assumed', {
        key: '--coredns',
        message: `the pods run the CoreDNS ${translation.coredns} image, not ${asked}: ${translation.coredns} is the release the Corefile, ClusterRole and probes are checked for; to run ${asked} anyway, give its image with --image`,
      }),
    );
  }
  const objects = installObjects(install, translation, options.clusterDnsIp ?? (serviceIp as string), image, diagnostics);
  validateInstallObjects(objects);
  return { ok: true, objects, yaml: renderInstallYaml(objects), translation, diagnostics: [...translation.diagnostics, ...diagnostics], coredns: translation.coredns };
}

/**
 * Workload API versions Kubernetes stopped serving in 1.16 (kubernetes/kubernetes CHANGELOG-1.16,
 * docs/reference/coredns-install.md §5): a kube-dns workload read in one of them comes from a
 * cluster of Kubernetes 1.15 or older.
 */
const WORKLOAD_VERSIONS_BEFORE_1_16: ReadonlySet<string> = new Set(['extensions/v1beta1', 'apps/v1beta1', 'apps/v1beta2']);
/** EndpointSlices `discovery.k8s.io/v1` are served from this Kubernetes release on (the only ones CoreDNS reads from {@link SLICES_ONLY_FROM}). */
const ENDPOINT_SLICES_V1_KUBERNETES = '1.21';

/**
 * The operating-system node label of the base's nodeSelector: the era's, except that a cluster of
 * Kubernetes 1.15 or older (a kube-dns workload in an API version 1.16 stopped serving) gets
 * `beta.kubernetes.io/os`, which its nodes carry in every release, where the kubelet sets
 * `kubernetes.io/os` only from 1.14 (docs/reference/coredns-install.md §5): CoreDNS would stay
 * Pending on older nodes.
 */
function osLabelFor(install: KubeDnsInstall, manifest: KubeadmCoreDnsManifest, diagnostics: Diagnostic[]): string {
  const label = manifest.osLabel ?? 'kubernetes.io/os';
  const apiVersion = install.deployment?.object['apiVersion'];
  if (label !== 'kubernetes.io/os' || typeof apiVersion !== 'string' || !WORKLOAD_VERSIONS_BEFORE_1_16.has(apiVersion)) return label;
  diagnostics.push(
    diagnostic('install-base-adapted', {
      key: 'Deployment',
      path: '.spec.template.spec.nodeSelector',
      message: `nodeSelector beta.kubernetes.io/os: linux in place of the base's kubernetes.io/os: the kube-dns ${install.deployment?.kind ?? 'workload'} is ${apiVersion} (Kubernetes 1.15 or older), and the kubelet labels nodes kubernetes.io/os only from 1.14: on older nodes no CoreDNS pod would be scheduled`,
    }),
  );
  return 'beta.kubernetes.io/os';
}

/**
 * What the inputs say against the target release: a cluster too old for it (`install-coredns-too-new`)
 * and an `--image` whose tag is another release (`install-image-tag-mismatch`).
 */
function releaseDiagnostics(install: KubeDnsInstall, coredns: CoreDnsVersion, image: string | undefined): Diagnostic[] {
  const found: Diagnostic[] = [...addonManagerDiagnostics(install)];
  const workload = install.deployment;
  const apiVersion = workload?.object['apiVersion'];
  if (workload !== undefined && typeof apiVersion === 'string' && WORKLOAD_VERSIONS_BEFORE_1_16.has(apiVersion) && compareCoreDnsVersions(coredns, SLICES_ONLY_FROM) >= 0) {
    found.push(
      diagnostic('install-coredns-too-new', {
        key: `${workload.kind} ${workload.name ?? '(unnamed)'}`,
        path: '.apiVersion',
        message: `the kube-dns ${workload.kind} is ${apiVersion}, which Kubernetes stopped serving in 1.16: the cluster runs 1.15 or older, and CoreDNS ${coredns} reads only discovery.k8s.io/v1 EndpointSlices, served from Kubernetes ${ENDPOINT_SLICES_V1_KUBERNETES}: its kubernetes plugin would never sync and no CoreDNS pod would become Ready. Target a release before ${SLICES_ONLY_FROM} (which fall back to Endpoints), or upgrade the cluster first`,
      }),
    );
  }
  if (image !== undefined) {
    const tag = imageTag(image);
    const sameRelease = tag !== undefined && (tag.replace(/^v/, '') === coredns || new RegExp(`^v?${coredns.replaceAll('.', '\\.')}[-+_]`).test(tag));
    if (!sameRelease && !(tag === undefined && image.includes('@'))) {
      found.push(
        diagnostic('install-image-tag-mismatch', {
          key: '--image',
          message: `--image ${image} runs ${tag === undefined ? 'the untagged (latest)' : `tag ${tag}`}, but the install is for CoreDNS ${coredns} (--coredns): its Corefile, ClusterRole and probes follow ${coredns}; give the ${coredns} image, or --coredns for the release the image holds`,
        }),
      );
    }
  }
  return found;
}

/** The label kube-up's addon manager (kube-addon-manager) selects the objects it reconciles by. */
const ADDON_MANAGER_MODE = 'addonmanager.kubernetes.io/mode';

/**
 * `install-addon-manager-reconciles`: kube-dns objects labelled `addonmanager.kubernetes.io/mode:
 * Reconcile` (kube-up's addon manifests, kubernetes/kubernetes cluster/addons/dns/kube-dns). The
 * addon manager (cluster/addons/addon-manager, `kube-addons.sh`) re-applies every manifest of its
 * directory with that label, and prunes none it did not create, every minute or so: it recreates a
 * kube-dns Deployment the cut-over deletes, sets back what the CoreDNS install changed in the
 * Service (its ports), and, where the manifest sets `replicas`, scales kube-dns up again. It reads
 * the mode from its files, so relabelling the live objects does not stop it.
 */
function addonManagerDiagnostics(install: KubeDnsInstall): Diagnostic[] {
  const objects = [
    { what: install.deployment === undefined ? undefined : `${install.deployment.kind} ${install.deployment.name ?? '(unnamed)'}`, object: install.deployment?.object },
    { what: install.service === undefined ? undefined : `Service ${install.service.name ?? '(unnamed)'}`, object: install.service?.object },
    { what: install.configMap === undefined ? undefined : `ConfigMap ${install.configMap.name ?? '(unnamed)'}`, object: install.configMapObject },
  ];
  const reconciled = objects.filter((entry) => entry.what !== undefined && record(record(entry.object?.['metadata'])['labels'])[ADDON_MANAGER_MODE] === 'Reconcile').map((entry) => entry.what as string);
  if (reconciled.length === 0) return [];
  const namespace = install.deployment?.namespace ?? install.service?.namespace ?? 'kube-system';
  return [
    diagnostic('install-addon-manager-reconciles', {
      key: reconciled[0] as string,
      path: `.metadata.labels["${ADDON_MANAGER_MODE}"]`,
      message: `${reconciled.join(' and ')} in ${namespace} ${reconciled.length === 1 ? 'carries' : 'carry'} ${ADDON_MANAGER_MODE}: Reconcile: the cluster's addon manager (kube-up clusters) applies ${reconciled.length === 1 ? 'it' : 'them'} again from its manifest files every minute or so. After the switch it would recreate the kube-dns Deployment the cut-over deletes (its pods joining the kube-dns Service beside CoreDNS's), and set the Service back to its manifest (dropping any port the install adds); the mode is read from the files, so relabelling the live objects does not stop it`,
    }),
  ];
}

/** The tag of an image reference (`v1.11.1` of `mirror:5000/coredns/coredns:v1.11.1@sha256:…`); undefined without one. */
function imageTag(image: string): string | undefined {
  const name = image.replace(/@.*$/, '');
  const colon = name.lastIndexOf(':');
  return colon > name.lastIndexOf('/') ? name.slice(colon + 1) : undefined;
}

/** The translation merged into an existing Corefile: a translation result whose Corefile is the merged one. */
function mergedTranslation(existing: string, translation: TranslationResult & { readonly ok: true }, filename?: string): TranslationResult {
  const merged = mergeTranslation(existing, translation, filename);
  return merged.ok
    ? { ok: true, corefile: merged.corefile, model: merged.model, diagnostics: merged.diagnostics, coredns: translation.coredns }
    : { ok: false, corefile: undefined, model: undefined, diagnostics: merged.diagnostics, coredns: translation.coredns };
}

/**
 * A merged Corefile must still do what kube-dns did, or the install is not produced: one with the
 * node-local-dns template's `__PILLAR__` placeholders (which node-cache fills in at start-up; CoreDNS
 * reads them as names) is refused (`install-merge-placeholders`), and one that routes a checked name
 * differently from kube-dns is refused as {@link checkMergedRouting} says (a warning under `force`).
 */
function checkedMerge(install: KubeDnsInstall, options: CoreDnsInstallOptions, merged: TranslationResult): TranslationResult {
  if (!merged.ok) return merged;
  const placeholders = [...new Set(merged.corefile.match(/__PILLAR__[A-Z0-9_]*__/g) ?? [])];
  if (placeholders.length > 0) {
    return refused(
      merged,
      diagnostic('install-merge-placeholders', {
        key: 'Corefile',
        message: `the Corefile of --merge is a template: it holds ${placeholders.join(', ')}, placeholders its installer fills in (node-cache at start-up for node-local-dns, the addon scripts for Kubernetes' cluster/addons manifests) and CoreDNS reads as they are; merge into the Corefile the cluster's CoreDNS runs (kubectl -n kube-system get configmap coredns -o yaml)`,
      }),
    );
  }
  return checkMergedRouting(install, options, merged, 'Installed');
}

function installObjects(install: KubeDnsInstall, translation: TranslationResult & { ok: true }, clusterIp: string, image: string | undefined, diagnostics: Diagnostic[]): Json[] {
  const coredns = translation.coredns;
  const manifest = kubeadmManifestFor(coredns);
  const needs = corefileNeeds(translation.model, coredns);
  const namespace = install.service?.namespace ?? install.deployment?.namespace ?? 'kube-system';
  const service = serviceObject(install, clusterIp, namespace, needs, diagnostics);
  const selector = record(record(service['spec'])['selector']);
  const meta = (name: string) => ({ name, namespace });
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: meta(COREDNS) },
    { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: CLUSTER_ROLE }, rules: clusterRoleRules(needs, coredns).map((rule) => ({ ...rule })) },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: CLUSTER_ROLE },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: CLUSTER_ROLE },
      subjects: [{ kind: 'ServiceAccount', name: COREDNS, namespace }],
    },
    { apiVersion: 'v1', kind: 'ConfigMap', metadata: meta(COREDNS), data: { [COREFILE_KEY]: translation.corefile } },
    deploymentObject(install, manifest, coredns, needs, namespace, selector, image, diagnostics),
    service,
  ];
}

/** Fields the API server writes; never sent back. */
const SERVER_METADATA = ['uid', 'resourceVersion', 'creationTimestamp', 'generation', 'managedFields', 'selfLink', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'ownerReferences'];
/** Annotations written by the API server's controllers (the Deployment's revision) and by kubectl (its last-applied copy). */
const SERVER_ANNOTATIONS = ['deployment.kubernetes.io/revision', 'kubectl.kubernetes.io/last-applied-configuration'];

/**
 * An object as read, without what the API server (and kubectl) wrote into it: status, uid,
 * resourceVersion, creationTimestamp, generation, managedFields, …, the Deployment's revision
 * annotation and kubectl's last-applied annotation.
 */
export function withoutServerFields(object: Json): Json {
  const metadata: Mutable = { ...record(object['metadata']) };
  for (const field of SERVER_METADATA) delete metadata[field];
  const annotations: Mutable = { ...record(metadata['annotations']) };
  for (const annotation of SERVER_ANNOTATIONS) delete annotations[annotation];
  if (Object.keys(annotations).length > 0) metadata['annotations'] = annotations;
  else delete metadata['annotations'];
  const copy: Mutable = { ...object, metadata };
  delete copy['status'];
  return copy;
}

function serviceObject(install: KubeDnsInstall, clusterIp: string, namespace: string, needs: CorefileNeeds, diagnostics: Diagnostic[]): Json {
  const key = 'Service';
  const wanted = [...needs.dnsPorts, ...(needs.metricsPort === undefined ? [] : [{ port: needs.metricsPort, protocol: 'TCP' as const, name: 'metrics' }])];
  if (install.service === undefined) {
    diagnostics.push(diagnostic('install-service-created', { key, message: `no kube-dns Service in the input: Service ${namespace}/kube-dns with cluster IP ${clusterIp} (--cluster-dns-ip) as kubeadm writes it; an existing kube-dns Service keeps its other fields` }));
    return {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'kube-dns', namespace, labels: { ...KUBE_DNS_LABEL, 'kubernetes.io/cluster-service': 'true', 'kubernetes.io/name': 'CoreDNS' }, ...(needs.metricsPort === undefined ? {} : { annotations: { 'prometheus.io/port': String(needs.metricsPort), 'prometheus.io/scrape': 'true' } }) },
      spec: { clusterIP: clusterIp, ports: wanted.map((port) => ({ name: port.name, port: port.port, protocol: port.protocol, targetPort: port.port })), selector: { ...KUBE_DNS_LABEL } },
    };
  }
  const read = withoutServerFields(install.service.object);
  const metadata: Mutable = { ...record(read['metadata']) };
  const spec: Mutable = { ...record(read['spec']) };
  const ports = Array.isArray(spec['ports']) ? spec['ports'].map(record) : [];
  const covered = (port: number, protocol: string) => ports.some((entry) => entry['port'] === port && (entry['protocol'] ?? 'TCP') === protocol);
  const added = wanted.filter((port) => !covered(port.port, port.protocol));
  const names = new Set(ports.map((entry) => entry['name']));
  const newPorts = added.map((port) => ({ name: names.has(port.name) ? `${port.name}-${port.port}` : port.name, port: port.port, protocol: port.protocol, targetPort: port.port }));
  for (const port of added) {
    diagnostics.push(diagnostic('install-service-port-added', { key, path: '.spec.ports', message: `the Corefile listens on ${port.port}/${port.protocol} (${port.name === 'metrics' ? 'prometheus' : 'a server block'}), which the kube-dns Service does not expose: port added` }));
  }
  if (added.length > 0) spec['ports'] = [...ports, ...newPorts];
  if (record(spec['selector'])['k8s-app'] !== 'kube-dns') {
    diagnostics.push(diagnostic('install-setting-carried', { key, path: '.spec.selector', message: `the Service selects ${JSON.stringify(spec['selector'] ?? {})}, not only k8s-app: kube-dns: kept, and the CoreDNS pods carry those labels too` }));
  }
  return { apiVersion: 'v1', kind: 'Service', metadata, spec, ...Object.fromEntries(Object.entries(read).filter(([field]) => !['apiVersion', 'kind', 'metadata', 'spec'].includes(field))) };
}

/** Pod-spec fields the CoreDNS base sets itself: what kube-dns had there is replaced. */
const REPLACED_POD_FIELDS = ['containers', 'volumes', 'serviceAccountName', 'serviceAccount', 'dnsPolicy', 'securityContext'];
/** Deployment-spec fields the CoreDNS base sets itself. */
const REPLACED_SPEC_FIELDS = ['selector', 'strategy', 'minReadySeconds'];
/** Pod-spec fields carried from kube-dns. */
const CARRIED_POD_FIELDS = ['nodeSelector', 'tolerations', 'affinity', 'priorityClassName', 'imagePullSecrets', 'topologySpreadConstraints'];
const POD_FIELD_OWN: Readonly<Record<string, string>> = { containers: 'the coredns container', volumes: 'the coredns ConfigMap volume', dnsPolicy: 'Default', securityContext: "the container's securityContext" };
/** Values the API server fills in when a field is not set: the same for the CoreDNS pods. */
const API_DEFAULTS: Readonly<Record<string, unknown>> = {
  restartPolicy: 'Always',
  schedulerName: 'default-scheduler',
  terminationGracePeriodSeconds: 30,
  securityContext: {},
  revisionHistoryLimit: 10,
  progressDeadlineSeconds: 600,
  enableServiceLinks: true,
  preemptionPolicy: 'PreemptLowerPriority',
  priority: 2000000000,
};

function deploymentObject(
  install: KubeDnsInstall,
  manifest: KubeadmCoreDnsManifest,
  coredns: CoreDnsVersion,
  needs: CorefileNeeds,
  namespace: string,
  serviceSelector: Json,
  image: string | undefined,
  diagnostics: Diagnostic[],
): Json {
  const key = install.deployment === undefined ? 'Deployment' : `${install.deployment.kind} ${install.deployment.name ?? '(unnamed)'}`;
  const read = record(install.deployment?.object);
  // A Pod given on its own is one replica of kube-dns: its spec is what a template's would be; it
  // names no replica count and holds what the scheduler and admission wrote (see podSpecAsTemplate).
  const isPod = install.deployment?.kind === 'Pod';
  const readSpec = isPod ? {} : record(read['spec']);
  const readTemplate = isPod ? { metadata: read['metadata'], spec: podSpecAsTemplate(record(read['spec'])) } : record(readSpec['template']);
  const readPod = record(readTemplate['spec']);
  const podPath = isPod ? '.spec' : '.spec.template.spec';
  const podMetadataPath = isPod ? '.metadata' : '.spec.template.metadata';
  const carried = (path: string, what: string) => diagnostics.push(diagnostic('install-setting-carried', { key, path, message: what }));
  // Replicas: the kube-dns count (kubeadm keeps the running count too), 2 without one.
  let replicas = DEFAULT_REPLICAS;
  if (isPod) diagnostics.push(diagnostic('install-setting-replaced', { key, path: '.spec.replicas', message: `a Pod names no replica count (its workload does): CoreDNS gets ${DEFAULT_REPLICAS}, kubeadm's default; give the Deployment to carry its count` }));
  if (typeof readSpec['replicas'] === 'number') {
    replicas = readSpec['replicas'];
    if (replicas === 0) {
      replicas = DEFAULT_REPLICAS;
      diagnostics.push(diagnostic('install-setting-dropped', { key, path: '.spec.replicas', message: `kube-dns runs 0 replicas: CoreDNS gets ${DEFAULT_REPLICAS}, kubeadm's default` }));
    } else carried('.spec.replicas', `replicas: ${replicas}`);
  } else if (!isPod) {
    // No count in the manifest: an autoscaler sets it (the cluster-proportional-autoscaler writes
    // only the scale), so the count running is the one its status showed — the count the cut-over's
    // rollback brings kube-dns back to. Without a status the API server's default, 1, ran.
    const running = replicaCount(read['status']);
    if (running !== undefined) {
      replicas = running;
      carried('.status.replicas', `replicas: ${running}, the count kube-dns ran (its manifest names none: an autoscaler sets it)`);
    } else diagnostics.push(diagnostic('install-setting-replaced', { key, path: '.spec.replicas', message: `kube-dns names no replica count and shows no status (it ran 1, the API server's default): CoreDNS gets ${DEFAULT_REPLICAS}, kubeadm's default` }));
  }
  const pod: Mutable = {};
  if (manifest.priorityClass) pod['priorityClassName'] = 'system-cluster-critical';
  pod['serviceAccountName'] = COREDNS;
  if (manifest.preferredAntiAffinity) {
    pod['affinity'] = {
      podAntiAffinity: {
        preferredDuringSchedulingIgnoredDuringExecution: [{ weight: 100, podAffinityTerm: { labelSelector: { matchExpressions: [{ key: 'k8s-app', operator: 'In', values: ['kube-dns'] }] }, topologyKey: 'kubernetes.io/hostname' } }],
      },
    };
  }
  const tolerations: Json[] = [{ key: 'CriticalAddonsOnly', operator: 'Exists' }, ...manifest.controlPlaneTaints.map((taint) => ({ key: taint, effect: 'NoSchedule' }))];
  pod['tolerations'] = tolerations;
  if (manifest.osLabel !== undefined) pod['nodeSelector'] = { [osLabelFor(install, manifest, diagnostics)]: 'linux' };
  // What the cluster chose for kube-dns carries over.
  for (const field of CARRIED_POD_FIELDS) {
    if (!has(readPod, field)) continue;
    const value = readPod[field];
    const path = `${podPath}.${field}`;
    if (field === 'tolerations' && Array.isArray(value)) {
      const extra = value.filter((entry) => !tolerations.some((own) => sameToleration(own, record(entry))));
      pod['tolerations'] = [...tolerations, ...extra];
      carried(path, extra.length === 0 ? 'tolerations: all already in the CoreDNS base' : `tolerations added to the base's: ${extra.map((entry) => JSON.stringify(entry)).join(', ')}`);
    } else if (field === 'nodeSelector') {
      pod['nodeSelector'] = { ...record(pod['nodeSelector']), ...record(value) };
      carried(path, `nodeSelector: ${JSON.stringify(value)}`);
    } else if (field === 'affinity') {
      pod[field] = relaxedAffinity(record(value), { ...serviceSelector, ...KUBE_DNS_LABEL }, namespace, key, `${podPath}.affinity`, diagnostics);
      carried(path, `${field}: ${manifest.preferredAntiAffinity ? "kube-dns's, in place of the base's preferred anti-affinity" : JSON.stringify(value)}`);
    } else {
      pod[field] = value;
      carried(path, `${field}: ${JSON.stringify(value)}`);
    }
  }
  const readTemplateMeta = record(readTemplate['metadata']);
  for (const [field, value] of Object.entries(readPod)) {
    if (CARRIED_POD_FIELDS.includes(field)) continue;
    const path = `${podPath}.${field}`;
    if (JSON.stringify(API_DEFAULTS[field]) === JSON.stringify(value)) continue;
    if (REPLACED_POD_FIELDS.includes(field)) diagnostics.push(diagnostic('install-setting-replaced', { key, path, message: `${field}: CoreDNS's own (${POD_FIELD_OWN[field] ?? 'the coredns ServiceAccount'})` }));
    else diagnostics.push(diagnostic('install-setting-dropped', { key, path, message: `${field}: ${JSON.stringify(value)} is not carried over to the CoreDNS pods` }));
  }
  for (const [field, value] of Object.entries(readSpec)) {
    if (['replicas', 'template'].includes(field) || JSON.stringify(API_DEFAULTS[field]) === JSON.stringify(value)) continue;
    if (field === 'selector' && JSON.stringify(value) === JSON.stringify({ matchLabels: KUBE_DNS_LABEL })) continue;
    const replaced = REPLACED_SPEC_FIELDS.includes(field);
    diagnostics.push(diagnostic(replaced ? 'install-setting-replaced' : 'install-setting-dropped', { key, path: `.spec.${field}`, message: `${field}: ${JSON.stringify(value)} ${replaced ? "is replaced by the CoreDNS base's" : 'is not carried over'}` }));
  }
  if (has(readTemplateMeta, 'annotations')) diagnostics.push(diagnostic('install-setting-dropped', { key, path: `${podMetadataPath}.annotations`, message: `pod annotations ${JSON.stringify(readTemplateMeta['annotations'])} are not carried over` }));
  // pod-template-hash is the ReplicaSet's, written on each of its Pods.
  const otherLabels = Object.entries(record(readTemplateMeta['labels'])).filter(([label]) => serviceSelector[label] === undefined && label !== 'k8s-app' && !(isPod && label === 'pod-template-hash'));
  if (otherLabels.length > 0) diagnostics.push(diagnostic('install-setting-dropped', { key, path: `${podMetadataPath}.labels`, message: `pod labels ${JSON.stringify(Object.fromEntries(otherLabels))} are not carried over (the CoreDNS pods carry k8s-app: kube-dns and the Service's selector)` }));
  // The image: --image, else the release's under the public registry, else under kube-dns's private one.
  const kubeDnsImage = install.deployment?.kubedns?.image ?? install.deployment?.dnsmasq?.image;
  const repository = privateRepositoryOf(kubeDnsImage);
  const chosenImage = image ?? coreDnsImage(coredns, manifest, repository);
  if (image !== undefined) carried('.image', `image ${image} (--image)`);
  else if (repository !== undefined) carried('.image', `kube-dns's images come from ${repository}: CoreDNS is taken from there too, as kubeadm names it for a custom image repository (${chosenImage}); mirror it there or give --image`);
  if (has(readPod, 'imagePullSecrets') && image === undefined && repository === undefined) {
    diagnostics.push(diagnostic('install-setting-carried', { key, path: '.spec.template.spec.imagePullSecrets', message: `imagePullSecrets kept, although ${chosenImage} is public` }));
  }
  const podLabels = { ...serviceSelector, ...KUBE_DNS_LABEL };
  pod['containers'] = [containerObject(manifest, needs, chosenImage, diagnostics)];
  pod['dnsPolicy'] = 'Default';
  pod['volumes'] = [{ name: 'config-volume', configMap: { name: COREDNS, items: [{ key: COREFILE_KEY, path: COREFILE_KEY }] } }];
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: COREDNS, namespace, labels: { ...KUBE_DNS_LABEL } },
    spec: {
      replicas,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1 } },
      selector: { matchLabels: { ...KUBE_DNS_LABEL } },
      template: { metadata: { labels: podLabels }, spec: orderPodSpec(pod) },
    },
  };
}

/**
 * kube-dns's affinity with every REQUIRED pod anti-affinity term that selects the CoreDNS pods'
 * own labels made a preferred one (weight 100, the same term), with an `install-anti-affinity-relaxed`
 * warning: the CoreDNS pods carry `k8s-app: kube-dns` (and the Service's selector), as the kube-dns
 * pods do, so such a term keeps every CoreDNS pod off each node that runs a kube-dns pod during the
 * overlap (the rollout can time out), and keeps kube-dns off the nodes CoreDNS holds on rollback;
 * on a cluster with fewer nodes than replicas it leaves replicas Pending (docs/migration-guide.md).
 */
function relaxedAffinity(affinity: Json, podLabels: Json, namespace: string, key: string, path: string, diagnostics: Diagnostic[]): Json {
  const anti = record(affinity['podAntiAffinity']);
  const required = anti['requiredDuringSchedulingIgnoredDuringExecution'];
  if (!Array.isArray(required)) return affinity;
  const selectsOwn = (term: Json) => {
    const namespaces = term['namespaces'];
    if (Array.isArray(namespaces) && namespaces.length > 0 && !namespaces.includes(namespace)) return false;
    // A term without a labelSelector selects no pod.
    return term['labelSelector'] !== undefined && term['labelSelector'] !== null && selectorMatches(record(term['labelSelector']), podLabels);
  };
  const relaxed = required.filter((term) => selectsOwn(record(term)));
  if (relaxed.length === 0) return affinity;
  const kept = required.filter((term) => !selectsOwn(record(term)));
  const preferred = Array.isArray(anti['preferredDuringSchedulingIgnoredDuringExecution']) ? anti['preferredDuringSchedulingIgnoredDuringExecution'] : [];
  const newAnti: Mutable = { ...anti, preferredDuringSchedulingIgnoredDuringExecution: [...preferred, ...relaxed.map((term) => ({ weight: 100, podAffinityTerm: term }))] };
  if (kept.length > 0) newAnti['requiredDuringSchedulingIgnoredDuringExecution'] = kept;
  else delete newAnti['requiredDuringSchedulingIgnoredDuringExecution'];
  for (const term of relaxed) {
    diagnostics.push(
      diagnostic('install-anti-affinity-relaxed', {
        key,
        path: `${path}.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution`,
        message: `the required pod anti-affinity ${JSON.stringify(term)} selects the CoreDNS pods too (they carry ${JSON.stringify(podLabels)}, as the kube-dns pods do): kept required, no CoreDNS pod could be scheduled where (${String(record(term)['topologyKey'])}) a kube-dns pod runs (the rollout can time out) and the rollback could not bring kube-dns back where CoreDNS runs; carried as a preferred anti-affinity (weight 100) instead`,
      }),
    );
  }
  return { ...affinity, podAntiAffinity: newAnti };
}

/** Whether a Kubernetes label selector (matchLabels and matchExpressions: In, NotIn, Exists, DoesNotExist) selects a pod with these labels. */
function selectorMatches(selector: Json, labels: Json): boolean {
  const matchLabels = record(selector['matchLabels']);
  if (!Object.entries(matchLabels).every(([label, value]) => labels[label] === value)) return false;
  const expressions = Array.isArray(selector['matchExpressions']) ? selector['matchExpressions'].map(record) : [];
  return expressions.every((expression) => {
    const label = expression['key'];
    const values = Array.isArray(expression['values']) ? expression['values'] : [];
    const value = typeof label === 'string' ? labels[label] : undefined;
    switch (expression['operator']) {
      case 'In':
        return value !== undefined && values.includes(value);
      case 'NotIn':
        return value === undefined || !values.includes(value);
      case 'Exists':
        return value !== undefined;
      case 'DoesNotExist':
        return value === undefined;
      default:
        return false;
    }
  });
}

/**
 * Two tolerations that tolerate the same taints: compared field by field, whatever the order
 * kubectl printed the fields in (it sorts them: `effect` before `key`), with the API's defaults
 * (`operator: Equal`, empty `value` and `effect`).
 */
function sameToleration(a: Json, b: Json): boolean {
  const canonical = (toleration: Json) => [toleration['key'] ?? '', toleration['operator'] ?? 'Equal', toleration['value'] ?? '', toleration['effect'] ?? '', toleration['tolerationSeconds'] ?? null];
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/** The tolerations the DefaultTolerationSeconds admission plugin adds to every Pod (not-ready and unreachable, NoExecute, 300 s). */
const ADMISSION_TOLERATIONS: readonly Json[] = ['node.kubernetes.io/not-ready', 'node.kubernetes.io/unreachable'].map((key) => ({ key, operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }));
/** What the scheduler (`nodeName`) and the API server (the deprecated `serviceAccount` copy, the defaulted `priority`) write into a Pod's spec: not the cluster's choice. */
const POD_RUNTIME_FIELDS: readonly string[] = ['nodeName', 'priority'];

/**
 * A Pod's spec read as its template's: without what the scheduler and admission wrote into the Pod
 * (the node it runs on, its priority value, the tolerations every Pod is given).
 */
function podSpecAsTemplate(spec: Json): Json {
  const copy: Mutable = Object.fromEntries(Object.entries(spec).filter(([field]) => !POD_RUNTIME_FIELDS.includes(field)));
  if (Array.isArray(copy['tolerations'])) {
    const own = copy['tolerations'].filter((entry) => !ADMISSION_TOLERATIONS.some((added) => sameToleration(added, record(entry))));
    if (own.length > 0) copy['tolerations'] = own;
    else delete copy['tolerations'];
  }
  return copy;
}

/** kubeadm's field order: priorityClassName, serviceAccountName, affinity, tolerations, nodeSelector, containers, dnsPolicy, volumes. */
function orderPodSpec(pod: Mutable): Mutable {
  const order = ['priorityClassName', 'serviceAccountName', 'affinity', 'tolerations', 'nodeSelector', 'topologySpreadConstraints', 'imagePullSecrets', 'containers', 'dnsPolicy', 'volumes'];
  return Object.fromEntries(order.filter((field) => pod[field] !== undefined).map((field) => [field, pod[field]]));
}

function containerObject(manifest: KubeadmCoreDnsManifest, needs: CorefileNeeds, image: string, diagnostics: Diagnostic[]): Json {
  const ports: Mutable[] = needs.dnsPorts.map((port) => ({ containerPort: port.port, name: port.name, protocol: port.protocol }));
  if (needs.metricsPort !== undefined) ports.push({ containerPort: needs.metricsPort, name: 'metrics', protocol: 'TCP' });
  // The translator's Corefile opens health (and ready where the release has it) on all addresses;
  // a merged or given Corefile may not: the probe that would fail is left out (or readiness falls
  // back to health), with a warning naming it.
  const health = probed(needs.health, 'health', HEALTH_PROBE, 'liveness', diagnostics);
  const ready = needs.readyAvailable ? probed(needs.ready, 'ready', READY_PROBE, 'readiness', diagnostics, health) : undefined;
  const readiness = needs.readyAvailable ? ready : health;
  // Every probe port is declared on the container (kubeadm names them from 1.34 on and probes by name; before, by number).
  const declare = (listener: HttpListener, name: string): number | string => {
    const existing = ports.find((port) => port['containerPort'] === listener.port && port['protocol'] === 'TCP');
    if (existing === undefined) ports.push({ containerPort: listener.port, name, protocol: 'TCP' });
    return manifest.namedProbePorts ? ((existing?.['name'] as string | undefined) ?? name) : listener.port;
  };
  const livenessPort = health === undefined ? undefined : declare(health, 'liveness-probe');
  const readinessPort = readiness === undefined ? undefined : readiness === health ? livenessPort : declare(readiness, 'readiness-probe');
  return {
    name: COREDNS,
    image,
    imagePullPolicy: 'IfNotPresent',
    resources: { limits: { memory: '170Mi' }, requests: { cpu: '100m', memory: '70Mi' } },
    args: ['-conf', `${CONFIG_MOUNT}/${COREFILE_KEY}`],
    volumeMounts: [{ name: 'config-volume', mountPath: CONFIG_MOUNT, readOnly: true }],
    ports,
    ...(health === undefined ? {} : { livenessProbe: { httpGet: { path: health.path, port: livenessPort, scheme: 'HTTP' }, initialDelaySeconds: 60, timeoutSeconds: 5, successThreshold: 1, failureThreshold: 5 } }),
    ...(readiness === undefined ? {} : { readinessProbe: { httpGet: { path: readiness.path, port: readinessPort, scheme: 'HTTP' } } }),
    securityContext: { allowPrivilegeEscalation: false, capabilities: { add: ['NET_BIND_SERVICE'], drop: ['ALL'] }, readOnlyRootFilesystem: true },
  };
}

/** kubeadm's probes (port and path) where the Corefile has no listener for them. */
const HEALTH_PROBE = 'GET /health on 8080';
const READY_PROBE = 'GET /ready on 8181';

/**
 * The listener a probe targets: it must exist and listen on all addresses (the kubelet probes the
 * pod's IP). Otherwise an `install-probe-unanswered` warning naming the probe kubeadm's manifest
 * would have and why it would fail; readiness then falls back to `fallback` (health), liveness is
 * left out.
 */
function probed(listener: HttpListener | undefined, plugin: string, kubeadmProbe: string, probe: 'liveness' | 'readiness', diagnostics: Diagnostic[], fallback?: HttpListener): HttpListener | undefined {
  if (listener !== undefined && (listener.host === '' || listener.host === '0.0.0.0' || listener.host === '::')) return listener;
  const target = listener === undefined ? kubeadmProbe : `GET ${listener.path} on ${listener.port}`;
  const why = listener === undefined ? `the Corefile has no ${plugin} plugin` : `${plugin} listens on ${listener.host}:${listener.port} only, and the kubelet probes the pod's IP`;
  const instead =
    probe === 'liveness'
      ? 'the install has no liveness probe: a CoreDNS that hangs is not restarted'
      : fallback === undefined
        ? 'the install has no readiness probe: each pod joins the Service as soon as it runs, before its kubernetes plugin has read the API'
        : `the readiness probe targets health (GET ${fallback.path} on ${fallback.port}) instead: a pod joins the Service once its server runs, before its kubernetes plugin has read the API`;
  diagnostics.push(diagnostic('install-probe-unanswered', { key: 'Corefile', message: `the ${probe} probe (${target}) would fail: ${why}; ${instead}. Add ${plugin === 'health' ? '`health`' : '`ready`'} to the main server block to have it` }));
  return probe === 'readiness' ? fallback : undefined;
}

/**
 * The objects as YAML documents, in order; checked to load back to exactly the objects (the
 * Corefile as a literal block when YAML can hold it so).
 */
export function renderInstallYaml(objects: readonly Json[]): string {
  const text = objects.map((object) => `---\n${dump(object, { lineWidth: -1, noRefs: true })}`).join('');
  const back = loadAll(text, { maxAliases: 0 });
  if (JSON.stringify(back) !== JSON.stringify(objects)) throw new InternalError('the install YAML does not load back to its objects');
  return text;
}

/** The `replicas` of a workload's `spec` or `status` when it is a count of at least one. */
export function replicaCount(part: unknown): number | undefined {
  const value = part !== null && typeof part === 'object' ? (part as { replicas?: unknown }).replicas : undefined;
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : undefined;
}
