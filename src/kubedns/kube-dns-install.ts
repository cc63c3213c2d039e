/**
 * The whole kube-dns install — its Deployment (or ReplicationController), its Service and its
 * ConfigMap — read from one or several texts, with each container's arguments parsed the way its
 * program reads them. Objects and containers that play no part are named in a diagnostic.
 */
import { checkArgument } from '../errors/arguments.js';
import { ConfigMapInputError } from '../configmap/config-map-data.js';
import { KubernetesObjectInputError, readKubernetesObjects } from '../configmap/read-kubernetes-objects.js';
import type { KubernetesObjects, ObjectContainer, ObjectSource, ServiceObject, WorkloadObject } from '../configmap/read-kubernetes-objects.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import { parseGoIP } from '../dns/go-net.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { formatAt } from '../util/source-position.js';
import type { SourcePosition, ValueLocation } from '../util/source-position.js';
import { MAX_ARG_STRLEN, readContainerArgv } from './container-args.js';
import type { ContainerArgv } from './container-args.js';
import { parseDnsmasqArgs } from './dnsmasq-options.js';
import type { DnsmasqSettings } from './dnsmasq-options.js';
import { parseNannyArgs } from './dnsmasq-nanny-args.js';
import type { NannyArgs } from './dnsmasq-nanny-args.js';
import { parseKubeDnsArgs } from './kubedns-args.js';
import type { KubeDnsArgs } from './kubedns-args.js';
import { readKubeDnsConfigMapAlone } from './read-kube-dns-configmap.js';
import type { KubeDnsConfigMapDocument } from './read-kube-dns-configmap.js';
import { parseSidecarArgs } from './sidecar-args.js';
import type { SidecarArgs } from './sidecar-args.js';
import { pushAll } from '../util/lists.js';

/** One input text and the name error messages give it. */
export interface KubeDnsInstallSource {
  readonly text: string;
  readonly filename?: string;
  /**
   * What the text was given as (the CLI's `--kube-dns-deployment`, `--kube-dns-service`): it must
   * hold a kube-dns workload, or a Service; otherwise a {@link KubernetesObjectInputError}
   * (`object-missing`) names what it holds (a CoreDNS Deployment given by mistake, say).
   */
  readonly holds?: 'workload' | 'service';
}

export interface ReadKubeDnsInstallOptions {
  /** Pick the ConfigMap with this `metadata.name` (default: `kube-dns` when there are several). */
  readonly configMapName?: string;
}

/** A container of the kube-dns Pod: its name and the argument vector its program receives. */
export interface KubeDnsContainerReading {
  readonly container: string;
  /** The container's image, when set. */
  readonly image: string | undefined;
  readonly argv: ContainerArgv;
  /**
   * Where each of the program's arguments is written, by argument index: the workload as `key`
   * (`Deployment kube-dns`), `[container X].args[i]` as `path`, and the line and column in the file as
   * `location`.
   */
  readonly written?: readonly ({ readonly key: string; readonly path: string; readonly location?: ValueLocation } | undefined)[];
}

export interface DnsmasqContainerReading extends KubeDnsContainerReading {
  /** The nanny's own arguments; undefined when the container runs dnsmasq directly (old manifests). */
  readonly nanny: NannyArgs | undefined;
  /** dnsmasq's arguments from the manifest (after the nanny's `--`), before the nanny adds the ConfigMap's. */
  readonly dnsmasqArgs: readonly string[];
  readonly dnsmasq: DnsmasqSettings;
}

/** The kube-dns workload with each known container's arguments read. */
export interface KubeDnsDeployment {
  /**
   * `Deployment`, `ReplicationController`, …, or `Pod` for a Pod given on its own (its
   * `spec.containers` read as a template's; `object` is the Pod).
   */
  readonly kind: string;
  readonly name: string | undefined;
  readonly namespace: string | undefined;
  readonly source: ObjectSource;
  readonly kubedns: (KubeDnsContainerReading & { readonly args: KubeDnsArgs }) | undefined;
  readonly dnsmasq: DnsmasqContainerReading | undefined;
  readonly sidecar: (KubeDnsContainerReading & { readonly args: SidecarArgs }) | undefined;
  /** The workload object as read (a plain JSON value): its scheduling settings, for the CoreDNS install. */
  readonly object: Readonly<Record<string, unknown>>;
}

export interface KubeDnsService {
  readonly name: string | undefined;
  readonly namespace: string | undefined;
  /** The cluster DNS IP; undefined for a Service without one (or headless). */
  readonly clusterIP: string | undefined;
  readonly source: ObjectSource;
  /** The Service object as read (a plain JSON value). */
  readonly object: Readonly<Record<string, unknown>>;
}

/** A kube-dns install as read: each part undefined when the input did not hold it. */
export interface KubeDnsInstall {
  readonly configMap: KubeDnsConfigMapDocument | undefined;
  /** The ConfigMap object as read, when the input held it as an object (not a bare data map). */
  readonly configMapObject?: Readonly<Record<string, unknown>>;
  readonly deployment: KubeDnsDeployment | undefined;
  readonly service: KubeDnsService | undefined;
  /**
   * The workload that scales kube-dns (cluster-proportional-autoscaler with `--target=KIND/NAME`
   * naming the kube-dns workload, usually Deployment `kube-dns-autoscaler`), as read: no part in
   * the DNS settings, but the cut-over scales it with kube-dns and its rollback restores it.
   */
  readonly autoscaler?: KubeDnsAutoscaler;
  /** About what was read: objects and containers not used, references only known at run time, arguments a program refuses. */
  readonly diagnostics: readonly Diagnostic[];
}

/** The workload that scales kube-dns: see {@link KubeDnsInstall.autoscaler}. */
export interface KubeDnsAutoscaler {
  readonly kind: string;
  readonly name: string | undefined;
  readonly namespace: string | undefined;
  /** The whole object as read. */
  readonly object: Readonly<Record<string, unknown>>;
}

const KUBE_DNS_NAME = 'kube-dns';
const KUBE_SYSTEM = 'kube-system';
/** The name of the ConfigMap the CoreDNS outputs write (kubeadm's). */
const COREDNS_CONFIGMAP = 'coredns';

/** Why a ConfigMap of the input is CoreDNS's (a Corefile key, files CoreDNS imports, its name), or undefined. */
function coreDnsConfigMapSign(other: { readonly name: string | undefined; readonly object?: Readonly<Record<string, unknown>> }): string | undefined {
  const data = record(other.object?.['data']);
  const keys = Object.keys(data);
  if (keys.some((key) => key === 'stubDomains' || key === 'upstreamNameservers' || key === 'federations')) return undefined;
  if (keys.includes('Corefile')) return 'its data has a Corefile';
  if (other.name === COREDNS_CONFIGMAP) return `named ${COREDNS_CONFIGMAP}`;
  return undefined;
}

type ContainerRole = 'kubedns' | 'dnsmasq' | 'sidecar';

/** Which kube-dns program a container runs, by name, then by image. */
function containerRole(container: ObjectContainer): ContainerRole | undefined {
  if (container.name === 'kubedns' || container.name === 'dnsmasq' || container.name === 'sidecar') return container.name;
  const image = container.image ?? '';
  if (/kube-?dns(-amd64|-arm64|-arm|-ppc64le|-s390x)?[:@]/.test(image)) return 'kubedns';
  if (image.includes('dnsmasq')) return 'dnsmasq';
  if (image.includes('dns-sidecar')) return 'sidecar';
  return undefined;
}

/**
 * Reads the kube-dns install from `sources` (each may hold any of the objects). Throws the
 * readers' input errors (`ConfigMapInputError`, `KubernetesObjectInputError`) for text that is not
 * YAML or malformed objects.
 */
export function readKubeDnsInstall(sources: readonly KubeDnsInstallSource[], options: ReadKubeDnsInstallOptions = {}): KubeDnsInstall {
  checkArgument('readKubeDnsInstall', 'sources', sources, 'array');
  checkArgument('readKubeDnsInstall', 'options', options, 'object?');
  const diagnostics: Diagnostic[] = [];
  const workloads: WorkloadObject[] = [];
  const services: ServiceObject[] = [];
  const read: ReadSource[] = [];
  for (const source of sources) {
    const filename = source.filename ?? '<input>';
    // The same file given twice (FILE and --kube-dns-deployment) is read once.
    const earlier = read.find((entry) => entry.filename === filename && entry.text === source.text);
    const objects = earlier?.objects ?? readKubernetesObjects(source.text, { filename });
    if (source.holds !== undefined) requireObject(source.holds, objects, filename);
    if (earlier === undefined) read.push({ text: source.text, filename, objects });
  }
  for (const { objects } of read) {
    pushAll(workloads, objects.workloads);
    pushAll(services, objects.services);
    for (const other of objects.others) {
      diagnostics.push(
        unused(
          other.source,
          other.notAnObject !== undefined
            ? `${other.notAnObject} where a Kubernetes object was expected; not read`
            : `${other.kind ?? 'an object'}${other.name === undefined ? '' : ` ${other.name}`} plays no part in kube-dns's DNS settings; not read`,
        ),
      );
    }
  }
  const { configMap, configMapObject } = readConfigMapOnce(read, options, diagnostics);
  // A Pod is one replica of a workload: the workload is read when both are given.
  const workload = pick(workloads.filter((entry) => entry.kind !== 'Pod'), isKubeDnsWorkload) ?? pick(workloads, isKubeDnsWorkload);
  const autoscaler = workloads.find((other) => other !== workload && scaledWorkload(other)?.toLowerCase() === `${(workload?.kind ?? 'Deployment').toLowerCase()}/${workload?.name ?? KUBE_DNS_NAME}`);
  for (const other of workloads) {
    if (other === workload) continue;
    if (other === autoscaler) {
      diagnostics.push(unused(other.source, `${other.kind} ${other.name ?? '(unnamed)'} scales kube-dns (--target=${scaledWorkload(other) ?? ''}) and plays no part in its DNS settings; not read for the translation (the cut-over scales it to 0 with kube-dns, and its rollback restores it as read)`));
      continue;
    }
    if (workload !== undefined && other.name === workload.name && other.kind === workload.kind && other.namespace === workload.namespace) {
      // The same object twice (its own file and a List): the same containers are read once; different ones are ambiguous.
      if (containersContent(other) !== containersContent(workload)) {
        throw new KubernetesObjectInputError('several-workloads', `a second ${other.kind} ${other.name ?? '(unnamed)'} with other containers than the one at ${where(workload.source)}; give it once`, {
          filename: other.source.filename,
          position: other.source.position,
        });
      }
      diagnostics.push(unused(other.source, `${other.kind} ${other.name ?? '(unnamed)'} again, the same as at ${where(workload.source)}; read once`));
      continue;
    }
    if (workload !== undefined && other.kind === 'Pod' && isPodOf(other, workload)) {
      const differs = containersContent(other) !== containersContent(workload) ? `; its containers differ from the ${workload.kind}'s (a Pod of another rollout?), and the ${workload.kind}'s are what new Pods run` : '';
      diagnostics.push(unused(other.source, `Pod ${qualified(other)} is a Pod of ${workload.kind} ${qualified(workload)} (${podOwnership(other, workload)}): the ${workload.kind} is read, not the Pod${differs}`));
      continue;
    }
    diagnostics.push(
      unused(
        other.source,
        isKubeDnsWorkload(other)
          ? `${other.kind} ${qualified(other)} is not the kube-dns workload (that is ${workload === undefined ? '(none)' : qualified(workload)}); not read`
          : `${other.kind} ${other.name ?? '(unnamed)'} runs no kubedns, dnsmasq or sidecar container (containers: ${other.containers.map((container) => container.name).join(', ') || 'none'}); not read`,
      ),
    );
  }
  const service = pick(services, () => true);
  for (const other of services) {
    if (other === service) continue;
    const same = service !== undefined && other.name === service.name && other.namespace === service.namespace && serviceIp(other) === serviceIp(service);
    diagnostics.push(unused(other.source, same ? `Service ${other.name ?? '(unnamed)'} again, the same as at ${where(service.source)}; read once` : `Service ${other.name ?? '(unnamed)'} is not the kube-dns Service; not read`));
  }
  return {
    configMap,
    ...(configMapObject === undefined ? {} : { configMapObject }),
    deployment: workload === undefined ? undefined : readDeployment(workload, diagnostics),
    service: service === undefined ? undefined : { name: service.name, namespace: service.namespace, clusterIP: checkedServiceIp(service), source: service.source, object: service.object },
    ...(autoscaler === undefined ? {} : { autoscaler: { kind: autoscaler.kind, name: autoscaler.name, namespace: autoscaler.namespace, object: autoscaler.object } }),
    diagnostics,
  };
}

interface ReadSource {
  readonly text: string;
  readonly filename: string;
  readonly objects: KubernetesObjects;
}

/**
 * The kube-dns ConfigMap among the texts: read from the text holding one named `kube-dns` (or
 * `options.configMapName`), else from the only text holding ConfigMaps. The same ConfigMap in a
 * second text (its own file and a List) is read once; a different one, or ConfigMaps in several
 * texts none of which is named so, is refused. Every ConfigMap not read is named.
 */
function readConfigMapOnce(
  read: readonly ReadSource[],
  options: ReadKubeDnsInstallOptions,
  diagnostics: Diagnostic[],
): { readonly configMap: KubeDnsConfigMapDocument | undefined; readonly configMapObject: Readonly<Record<string, unknown>> | undefined } {
  const wanted = options.configMapName ?? KUBE_DNS_NAME;
  const holding = read.filter((source) => source.objects.configMaps.length > 0);
  const named = holding.filter((source) => source.objects.configMaps.some((entry) => entry.name === wanted));
  const readFrom = (source: ReadSource) => readKubeDnsConfigMapAlone(source.text, { filename: source.filename, ...(options.configMapName === undefined ? {} : { name: options.configMapName }) });
  const [first, ...rest] = named.length > 0 ? named : holding;
  if (first === undefined) return { configMap: undefined, configMapObject: undefined };
  if (named.length === 0 && rest.length > 0) {
    const found = holding.flatMap((source) => source.objects.configMaps.map((entry) => `${entry.name ?? '(a data map)'} in ${source.filename}`));
    throw new ConfigMapInputError('several-configmaps', `ConfigMaps in several files, none named ${wanted} (found: ${found.join(', ')}); give the kube-dns ConfigMap once, or choose it with --name`, {
      filename: rest[0]?.filename,
    });
  }
  const configMap = readFrom(first);
  const chosen = first.objects.configMaps.find((entry) => entry.name === configMap.name);
  for (const source of holding) {
    for (const other of source.objects.configMaps) {
      if (other === chosen) continue;
      if (other.name === configMap.name && source === first) {
        // readConfigMap refused a different copy of the same namespace; another namespace is another object.
        const same = other.namespace === chosen?.namespace;
        diagnostics.push(
          unused(
            other.source,
            same
              ? `ConfigMap ${other.name ?? '(unnamed)'} again, the same as at ${chosen === undefined ? first.filename : where(chosen.source)}; read once`
              : `ConfigMap ${qualified(other)} is not the kube-dns ConfigMap (that is ${chosen === undefined ? first.filename : qualified(chosen)}); not read`,
          ),
        );
        continue;
      }
      if (other.name === configMap.name) {
        const again = readFrom(source);
        if (JSON.stringify(again.data) !== JSON.stringify(configMap.data) || other.namespace !== chosen?.namespace) {
          throw new ConfigMapInputError('several-configmaps', `a second ConfigMap ${other.name ?? '(unnamed)'} with other data than the one at ${chosen === undefined ? first.filename : where(chosen.source)}; give it once`, {
            filename: other.source.filename,
            position: other.source.position,
          });
        }
        diagnostics.push(unused(other.source, `ConfigMap ${other.name ?? '(unnamed)'} again, the same as at ${chosen === undefined ? first.filename : where(chosen.source)}; read once`));
        continue;
      }
      const coreDns = coreDnsConfigMapSign(other);
      if (coreDns !== undefined && (other.namespace ?? KUBE_SYSTEM) === (chosen?.namespace ?? KUBE_SYSTEM)) {
        diagnostics.push(
          diagnostic('coredns-configmap-present', {
            key: `ConfigMap ${qualified(other)}`,
            ...locatedAt(other.source.filename, other.source.position),
            message: `ConfigMap ${qualified(other)} is CoreDNS's (${coreDns}), not kube-dns's: not read for the translation. The ConfigMap this package writes for CoreDNS (-o configmap, -o install, cutover) is ${COREDNS_CONFIGMAP} in ${chosen?.namespace ?? KUBE_SYSTEM}${other.name === COREDNS_CONFIGMAP ? ': applying it overwrites this one\'s Corefile' : ''}. If that CoreDNS serves names of its own, merge the translation into its Corefile (--merge) instead`,
          }),
        );
        continue;
      }
      diagnostics.push(unused(other.source, `ConfigMap ${other.name ?? '(unnamed)'} is not the kube-dns ConfigMap (that is ${configMap.name ?? 'the unnamed one'}); not read`));
    }
  }
  return { configMap, configMapObject: chosen?.object };
}

/**
 * Whether `pod` belongs to `workload`: in its namespace, and matched by its selector (what the
 * controller counts as its own: a Deployment's or ReplicaSet's `spec.selector`, a
 * ReplicationController's plain map), or owned through `metadata.ownerReferences` (the
 * ReplicaSet `NAME-HASH` a Deployment `NAME` makes, or the controller itself).
 */
function isPodOf(pod: WorkloadObject, workload: WorkloadObject): boolean {
  if (pod.namespace !== undefined && workload.namespace !== undefined && pod.namespace !== workload.namespace) return false;
  return podOwnership(pod, workload) !== undefined;
}

/** How `pod` belongs to `workload`, in words; undefined when it does not. */
function podOwnership(pod: WorkloadObject, workload: WorkloadObject): string | undefined {
  const metadata = record(pod.object['metadata']);
  const owners = Array.isArray(metadata['ownerReferences']) ? metadata['ownerReferences'].map(record) : [];
  const owned = owners.some(
    (owner) => owner['name'] === workload.name || (workload.kind === 'Deployment' && owner['kind'] === 'ReplicaSet' && typeof owner['name'] === 'string' && owner['name'].startsWith(`${workload.name ?? ''}-`)),
  );
  if (owned) return 'its ownerReferences';
  const selector = record(record(workload.object['spec'])['selector']);
  const labels = record(metadata['labels']);
  return selectorMatches(workload.kind === 'ReplicationController' ? { matchLabels: selector } : selector, labels) ? `its labels match the ${workload.kind}'s selector` : undefined;
}

/** A label selector (`matchLabels`, `matchExpressions`) applied to `labels`; an empty selector matches nothing here. */
function selectorMatches(selector: Readonly<Record<string, unknown>>, labels: Readonly<Record<string, unknown>>): boolean {
  const matchLabels = Object.entries(record(selector['matchLabels']));
  const expressions = Array.isArray(selector['matchExpressions']) ? selector['matchExpressions'].map(record) : [];
  if (matchLabels.length === 0 && expressions.length === 0) return false;
  if (!matchLabels.every(([key, value]) => labels[key] === value)) return false;
  return expressions.every((expression) => {
    const key = String(expression['key']);
    const values = Array.isArray(expression['values']) ? expression['values'] : [];
    switch (expression['operator']) {
      case 'In':
        return values.includes(labels[key]);
      case 'NotIn':
        return !values.includes(labels[key]);
      case 'Exists':
        return key in labels;
      case 'DoesNotExist':
        return !(key in labels);
      default:
        return false;
    }
  });
}

function record(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

function isKubeDnsWorkload(workload: WorkloadObject): boolean {
  return workload.containers.some((container) => containerRole(container) !== undefined);
}

/** `KIND/NAME` of cluster-proportional-autoscaler's `--target` (`Deployment/kube-dns`), when a container of `workload` runs it. */
function scaledWorkload(workload: WorkloadObject): string | undefined {
  for (const container of workload.containers) {
    const words = [...(container.command ?? []), ...(container.args ?? [])];
    if (!(container.image ?? '').includes('cluster-proportional-autoscaler') && !words.some((word) => word.endsWith('cluster-proportional-autoscaler'))) continue;
    const target = words.find((word) => /^--?target=/.test(word));
    if (target !== undefined) return target.slice(target.indexOf('=') + 1);
  }
  return undefined;
}

/** Refuses a text given as the workload (or the Service) that holds none, naming what it holds. */
function requireObject(holds: 'workload' | 'service', objects: KubernetesObjects, filename: string): void {
  if (holds === 'workload' ? objects.workloads.some(isKubeDnsWorkload) : objects.services.length > 0) return;
  const found = [
    ...objects.workloads.map((workload) => `${workload.kind} ${workload.name ?? '(unnamed)'} (containers: ${workload.containers.map((container) => container.name).join(', ') || 'none'})`),
    ...objects.services.map((service) => `Service ${service.name ?? '(unnamed)'}`),
    ...objects.configMaps.map((configMap) => `ConfigMap ${configMap.name ?? '(a data map)'}`),
    ...objects.others.map((other) => `${other.kind ?? 'an object'} ${other.name ?? '(unnamed)'}`),
  ];
  const wanted = holds === 'workload' ? 'no kube-dns workload (a Deployment, ReplicationController or Pod with a kubedns, dnsmasq or sidecar container)' : 'no Service';
  const shown = found.length > 5 ? [...found.slice(0, 5), `${found.length - 5} more`] : found;
  throw new KubernetesObjectInputError('object-missing', `${wanted} in this file; it holds ${shown.length === 0 ? 'no Kubernetes object' : shown.join('; ')}`, { filename });
}

/** The object named kube-dns in kube-system, else one named kube-dns, else the first that fits. */
function pick<T extends { readonly name: string | undefined; readonly namespace: string | undefined }>(objects: readonly T[], fits: (object: T) => boolean): T | undefined {
  return (
    objects.find((object) => object.name === KUBE_DNS_NAME && object.namespace === KUBE_SYSTEM && fits(object)) ??
    objects.find((object) => object.name === KUBE_DNS_NAME && fits(object)) ??
    objects.find(fits)
  );
}

/** `namespace/name`, or the name alone when the object names no namespace. */
function qualified(object: { readonly name: string | undefined; readonly namespace: string | undefined }): string {
  return `${object.namespace === undefined ? '' : `${object.namespace}/`}${object.name ?? '(unnamed)'}`;
}

function serviceIp(service: ServiceObject): string | undefined {
  const ip = service.clusterIP ?? service.clusterIPs[0];
  return ip === undefined || ip === '' || ip === 'None' ? undefined : ip;
}

/** The Service's cluster IP, refused at its position when it is not an IP (the API server refuses it too). */
function checkedServiceIp(service: ServiceObject): string | undefined {
  const ip = serviceIp(service);
  if (ip !== undefined && parseGoIP(ip) === undefined) {
    throw new KubernetesObjectInputError('invalid-field', `Service ${service.name ?? '(unnamed)'}: spec.clusterIP '${ip}' is not an IP address`, {
      filename: service.source.filename,
      position: service.clusterIPPosition ?? service.source.position,
    });
  }
  return ip;
}

/**
 * `unused-object` located at `source`: the place is the diagnostic's `location` (a field of its own, never
 * mixed into a key), and the message names the object, so it has no key.
 */
function unused(source: ObjectSource, message: string): Diagnostic {
  return diagnostic('unused-object', source.position === undefined ? { key: source.filename, message } : { ...locatedAt(source.filename, source.position), message });
}

/** `location` for a position in the input file, when known: kept apart from the key, which names the object. */
function locatedAt(filename: string, position: SourcePosition | undefined): { location?: ValueLocation } {
  return position === undefined ? {} : { location: { filename, line: position.line, column: position.column, exact: true } };
}

/** The containers of a workload as data, without where they are written: two copies of one object start on different lines. */
function containersContent(workload: WorkloadObject): string {
  return JSON.stringify(workload.containers, (key, value: unknown) => (key === 'positions' ? undefined : value));
}

function where(source: ObjectSource): string {
  return source.position === undefined ? source.filename : formatAt(source.filename, source.position, '').replace(/: $/, '');
}

function readDeployment(workload: WorkloadObject, diagnostics: Diagnostic[]): KubeDnsDeployment {
  // The object is the key; where it is written is the diagnostic's location.
  const key = `${workload.kind} ${workload.name ?? '(unnamed)'}`;
  const objectAt = locatedAt(workload.source.filename, workload.source.position);
  let kubedns: KubeDnsDeployment['kubedns'];
  let dnsmasq: KubeDnsDeployment['dnsmasq'];
  let sidecar: KubeDnsDeployment['sidecar'];
  for (const container of workload.containers) {
    const role = containerRole(container);
    const taken = role === 'kubedns' ? kubedns : role === 'dnsmasq' ? dnsmasq : role === 'sidecar' ? sidecar : undefined;
    if (role === undefined || taken !== undefined) {
      diagnostics.push(
        diagnostic('unused-container', {
          key,
          ...objectAt,
          path: `[container ${container.name}]`,
          message: `container ${container.name}${container.image === undefined ? '' : ` (${container.image})`} is not kubedns, dnsmasq or sidecar${taken === undefined ? '' : ' (a second one)'}; its settings are not read`,
        }),
      );
      continue;
    }
    const argv = readContainerArgv({
      ...(container.command === undefined ? {} : { command: container.command }),
      ...(container.args === undefined ? {} : { args: container.args }),
      env: container.env,
    });
    const [tooLong] = argv.tooLong;
    if (tooLong !== undefined) {
      const item = tooLong.field === 'env' ? `env[${tooLong.index}] (${container.env[tooLong.index]?.name ?? ''})` : `${tooLong.field}[${tooLong.index}]`;
      const position = container.positions[tooLong.field][tooLong.index] ?? workload.source.position;
      const written = tooLong.field === 'env' ? container.env[tooLong.index]?.value : container[tooLong.field]?.[tooLong.index];
      const literal = written !== undefined && !written.includes('$(');
      const length = literal ? ` (${Math.ceil(written.length / 1024)} KiB)` : '';
      throw new KubernetesObjectInputError(
        'argument-too-long',
        `container ${container.name}: ${item} is longer than ${MAX_ARG_STRLEN / 1024} KiB${literal ? `${length} as written` : ' once its $(NAME) references are expanded'}; Linux starts no program with an argument or environment string that long (execve: E2BIG), so this container never ran`,
        { filename: workload.source.filename, position },
      );
    }
    for (const reference of argv.unresolved) {
      diagnostics.push(
        diagnostic('container-args-unresolved', {
          key,
          ...argumentAt(workload, container.positions[reference.field][reference.index]),
          path: `[container ${container.name}].${reference.field}[${reference.index}]`,
          message: `$(${reference.name}) is ${reference.reason === 'run-time' ? 'set from valueFrom, known only in the running Pod' : container.envFrom ? 'not in env (perhaps from envFrom, known only in the running Pod)' : 'not defined in env, so the program received it as written'}; read as written`,
        }),
      );
    }
    const programArguments = argv.programArguments ?? [];
    if (argv.programArguments === undefined) {
      diagnostics.push(
        diagnostic('container-args-unresolved', { key, ...objectAt, path: `[container ${container.name}]`, message: `container ${container.name} sets neither command nor args: the image's defaults run; read as no arguments` }),
      );
    }
    const written = programArguments.map((_, index) => {
      const argument = writtenArgument(container, index);
      return argument?.position === undefined ? undefined : { key, path: `[container ${container.name}].${argument.field}[${argument.index}]`, ...locatedAt(workload.source.filename, argument.position) };
    });
    if (role === 'kubedns') kubedns = { container: container.name, image: container.image, argv, written, args: parseKubeDnsArgs(programArguments) };
    else if (role === 'sidecar') sidecar = { container: container.name, image: container.image, argv, written, args: parseSidecarArgs(programArguments) };
    else dnsmasq = { ...readDnsmasqContainer(container, argv, programArguments), written };
  }
  reportRefusals(workload, key, kubedns, dnsmasq, sidecar, diagnostics);
  return { kind: workload.kind, name: workload.name, namespace: workload.namespace, source: workload.source, kubedns, dnsmasq, sidecar, object: workload.object };
}

/** Whether the container runs dnsmasq-nanny (which takes dnsmasq's arguments after `--`) or dnsmasq itself. */
function runsNanny(container: ObjectContainer, programArguments: readonly string[]): boolean {
  const image = container.image ?? '';
  if (image.includes('nanny')) return true;
  const program = container.command?.[0] ?? '';
  if (program.includes('nanny')) return true;
  if (program.endsWith('dnsmasq') || /dnsmasq(-amd64)?[:@]/.test(image)) return false;
  return programArguments.includes('--');
}

function readDnsmasqContainer(container: ObjectContainer, argv: ContainerArgv, programArguments: readonly string[]): DnsmasqContainerReading {
  if (!runsNanny(container, programArguments)) return { container: container.name, image: container.image, argv, nanny: undefined, dnsmasqArgs: programArguments, dnsmasq: parseDnsmasqArgs(programArguments) };
  const nanny = parseNannyArgs(programArguments);
  return { container: container.name, image: container.image, argv, nanny, dnsmasqArgs: nanny.dnsmasqArgs, dnsmasq: parseDnsmasqArgs(nanny.dnsmasqArgs) };
}

/** An argument a program refuses: it exits before serving, so the Pod never ran with these arguments. */
function reportRefusals(
  workload: WorkloadObject,
  key: string,
  kubedns: KubeDnsDeployment['kubedns'],
  dnsmasq: KubeDnsDeployment['dnsmasq'],
  sidecar: KubeDnsDeployment['sidecar'],
  diagnostics: Diagnostic[],
): void {
  // `index` counts the program's arguments (after the nanny's `--` for dnsmasq): the diagnostic points at the item of command or args that holds it.
  const refuse = (container: string, message: string, index?: number) => {
    const spec = index === undefined ? undefined : workload.containers.find((entry) => entry.name === container);
    const written = spec === undefined || index === undefined ? undefined : writtenArgument(spec, index);
    diagnostics.push(
      diagnostic('deployment-program-exits', {
        key,
        ...argumentAt(workload, written?.position),
        path: `[container ${container}]${written === undefined ? '' : `.${written.field}[${written.index}]`}`,
        message,
      }),
    );
  };
  const dnsmasqStart = dnsmasq?.nanny === undefined ? 0 : (dnsmasq.argv.programArguments ?? []).indexOf('--') + 1;
  const values = kubedns?.args.values;
  if (kubedns !== undefined && values?.configMap !== undefined && values.configDir !== undefined) {
    // cmd/kube-dns/app/server.go: "Cannot use both ConfigMap and ConfigDir".
    refuse(kubedns.container, 'kube-dns exits when given both --config-map and --config-dir');
  }
  for (const reading of [kubedns, sidecar]) {
    if (reading === undefined) continue;
    const program = reading === kubedns ? 'kube-dns' : 'the sidecar';
    if (reading.args.problem !== undefined) refuse(reading.container, `${program} exits on '${reading.args.problem.token}' (${reading.args.problem.kind})`, reading.args.problem.index);
    for (const entry of reading.args.invalid) refuse(reading.container, `${program} refuses --${entry.setting.name}=${entry.setting.value}: ${entry.reason}`, entry.setting.index);
  }
  if (dnsmasq === undefined) return;
  if (dnsmasq.nanny?.problem !== undefined) refuse(dnsmasq.container, `dnsmasq-nanny exits on '${dnsmasq.nanny.problem.token}' (${dnsmasq.nanny.problem.kind})`, dnsmasq.nanny.problem.index);
  if (dnsmasq.dnsmasq.problem !== undefined) refuse(dnsmasq.container, `dnsmasq exits on '${dnsmasq.dnsmasq.problem.token}': ${dnsmasq.dnsmasq.problem.reason}`, dnsmasqStart + dnsmasq.dnsmasq.problem.index);
  for (const entry of dnsmasq.dnsmasq.invalid) refuse(dnsmasq.container, `dnsmasq refuses ${entry.option.text}: ${entry.reason}`, dnsmasqStart + entry.option.index);
}

/** The item of `command` or `args` that holds the program's argument `index` (argv[1 + index]), with its position. */
/** Where program argument `index` of `container` is written (the container itself, not looked up by name: once per argument). */
function writtenArgument(container: WorkloadObject['containers'][number], index: number): { field: 'command' | 'args'; index: number; position: SourcePosition | undefined } | undefined {
  const command = container.command ?? [];
  if (command.length > 0 && index + 1 < command.length) return { field: 'command', index: index + 1, position: container.positions.command[index + 1] };
  const argsIndex = command.length > 0 ? index - (command.length - 1) : index;
  if (container.args === undefined || argsIndex >= container.args.length) return undefined;
  return { field: 'args', index: argsIndex, position: container.positions.args[argsIndex] };
}

/** Where a container argument is written, else where its workload starts. */
function argumentAt(workload: WorkloadObject, position: SourcePosition | undefined): { location?: ValueLocation } {
  return locatedAt(workload.source.filename, position ?? workload.source.position);
}
