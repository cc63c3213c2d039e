import { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';
import type { ErrorLocation } from '../errors/kube-dns-to-coredns-error.js';
import type { SourcePosition } from '../util/source-position.js';
import { printable } from '../util/printable-text.js';
import { parseDocuments, PathLocator } from './read-configmap.js';
import { labelKeyProblem, labelValueProblem, namespaceProblem, objectNameProblem } from './kubernetes-names.js';

/**
 * Reading the Kubernetes objects of a kube-dns install from YAML or JSON text, as
 * `kubectl get -o yaml|json` prints them: one object, a `List` (or `DeploymentList`,
 * `ServiceList`, …) of them, or several YAML documents. Only the fields that bear on DNS are kept:
 * the containers of a Deployment's (or ReplicationController's, DaemonSet's) Pod template, or of a
 * Pod itself (`kubectl get pod -o yaml`: its `spec.containers` are what a template's
 * `spec.template.spec.containers` are), and a Service's `clusterIP`. Every other object is listed, so that the caller can say it was not used.
 */

/** Why a text does not hold Kubernetes objects this package can read. */
export type KubernetesObjectInputErrorCode =
  /** A field that must be a list of strings (`command`, `args`), a list of containers, etc. is something else. */
  | 'invalid-field'
  /** The same workload (kind, namespace and name) given twice with different containers. */
  | 'several-workloads'
  /** A text given as the kube-dns workload (or Service) holds none. */
  | 'object-missing'
  /** A container argument or env value longer than Linux passes to a program once `$(NAME)` references are expanded: the container never started. */
  | 'argument-too-long';

/** An object of a kube-dns install is malformed; the message is `FILE:LINE:COL: reason`. */
export class KubernetesObjectInputError extends KubeDnsToCoreDnsError {
  override readonly name = 'KubernetesObjectInputError';
  readonly category = 'input';
  declare readonly code: KubernetesObjectInputErrorCode;

  constructor(code: KubernetesObjectInputErrorCode, reason: string, location: ErrorLocation = {}) {
    super(code, reason, location);
  }
}

/** Where an object was read: the input's name and the place of the object in it. */
export interface ObjectSource {
  readonly filename: string;
  readonly position: SourcePosition | undefined;
}

/** One environment variable of a container: a literal value, or one known only at run time (`valueFrom`). */
export interface ObjectEnvVar {
  readonly name: string;
  /** Undefined when the variable is set by `valueFrom`. */
  readonly value?: string;
}

export interface ObjectContainer {
  readonly name: string;
  readonly image: string | undefined;
  readonly command: readonly string[] | undefined;
  readonly args: readonly string[] | undefined;
  readonly env: readonly ObjectEnvVar[];
  /** True when the container takes variables from `envFrom` (known only at run time). */
  readonly envFrom: boolean;
  /** Where each item of `command` and `args` is written, for diagnostics about one argument. */
  readonly positions: {
    readonly command: readonly (SourcePosition | undefined)[];
    readonly args: readonly (SourcePosition | undefined)[];
    /** Where each env entry's `value` is written (the entry, for one without a value). */
    readonly env: readonly (SourcePosition | undefined)[];
  };
}

/** A Deployment, ReplicationController, DaemonSet, ReplicaSet or StatefulSet: its Pod template's containers; or a Pod: its own. */
export interface WorkloadObject {
  readonly kind: string;
  readonly name: string | undefined;
  readonly namespace: string | undefined;
  readonly containers: readonly ObjectContainer[];
  readonly source: ObjectSource;
  /** The whole object as read (a plain JSON value), for tools that write it back or carry its settings over. */
  readonly object: Readonly<Record<string, unknown>>;
}

export interface ServiceObject {
  readonly name: string | undefined;
  readonly namespace: string | undefined;
  /** `spec.clusterIP` (`None` for a headless Service); undefined when not set. */
  readonly clusterIP: string | undefined;
  /** `spec.clusterIPs`, when given. */
  readonly clusterIPs: readonly string[];
  /** Where `spec.clusterIP` (else `spec.clusterIPs[0]`) is written. */
  readonly clusterIPPosition: SourcePosition | undefined;
  readonly source: ObjectSource;
  /** The whole object as read (a plain JSON value). */
  readonly object: Readonly<Record<string, unknown>>;
}

/** An object of the input that is neither a workload, a Service nor a ConfigMap. */
export interface OtherObject {
  readonly kind: string | undefined;
  readonly name: string | undefined;
  readonly namespace: string | undefined;
  readonly source: ObjectSource;
  /** For a document or List item that is not a mapping (`a string`, `a sequence`, `null`): what it is. */
  readonly notAnObject?: string;
  /** The whole object as read, for a mapping with `kind` or `apiVersion` (a ConfigMap, say). */
  readonly object?: Readonly<Record<string, unknown>>;
}

export interface KubernetesObjects {
  readonly workloads: readonly WorkloadObject[];
  readonly services: readonly ServiceObject[];
  /** The ConfigMaps of the input (read by `readConfigMap`); a bare data map has no name. */
  readonly configMaps: readonly OtherObject[];
  readonly others: readonly OtherObject[];
}

const WORKLOAD_KINDS: ReadonlySet<unknown> = new Set(['Deployment', 'ReplicationController', 'DaemonSet', 'ReplicaSet', 'StatefulSet', 'Pod']);
/** List kinds whose items are objects of the kind in front of `List` (the API leaves `kind` out of the items). */
const LIST_ITEM_KIND: Readonly<Record<string, string | undefined>> = {
  List: undefined,
  DeploymentList: 'Deployment',
  ReplicationControllerList: 'ReplicationController',
  DaemonSetList: 'DaemonSet',
  ReplicaSetList: 'ReplicaSet',
  StatefulSetList: 'StatefulSet',
  PodList: 'Pod',
  ServiceList: 'Service',
  ConfigMapList: 'ConfigMap',
};

/** A value as a message shows it: strings quoted, others as JSON. */
function shown(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') return `'${printable(value)}'`;
  const json = JSON.stringify(value);
  return json.length > 80 ? `${json.slice(0, 77)}...` : json;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The objects in `text` (YAML or JSON). Throws `ConfigMapInputError` (`not-yaml`) or {@link KubernetesObjectInputError}. */
export function readKubernetesObjects(text: string, options: { readonly filename?: string } = {}): KubernetesObjects {
  const filename = options.filename ?? '<input>';
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const documents = parseDocuments(source, filename);
  const workloads: WorkloadObject[] = [];
  const services: ServiceObject[] = [];
  const others: OtherObject[] = [];
  const configMaps: OtherObject[] = [];
  const locator = new PathLocator(source);
  const reader = new ObjectReader(locator, filename);
  const visit = (object: Record<string, unknown>, kind: string | undefined, documentIndex: number, path: readonly (string | number)[]): void => {
    const metadata = isRecord(object['metadata']) ? object['metadata'] : {};
    const text = (field: string) => (typeof metadata[field] === 'string' ? (metadata[field] as string) : undefined);
    const where: ObjectSource = { filename, position: locator.locate(documentIndex, path) };
    const common = { name: text('name'), namespace: text('namespace') };
    if (WORKLOAD_KINDS.has(kind) || kind === 'Service' || kind === 'ConfigMap') reader.identity(object, kind as string, documentIndex, path);
    if (WORKLOAD_KINDS.has(kind)) {
      workloads.push({ kind: kind as string, ...common, containers: reader.containers(object, kind as string, documentIndex, path), source: where, object });
    } else if (kind === 'Service') {
      reader.servicePorts(object, documentIndex, path);
      services.push({ ...common, ...reader.clusterIPs(object, documentIndex, path), source: where, object });
    } else if (kind === 'ConfigMap') {
      configMaps.push({ kind, ...common, source: where, object });
    } else if (kind !== undefined || object['apiVersion'] !== undefined) {
      others.push({ kind, ...common, source: where });
    }
  };
  const notObject = (value: unknown, documentIndex: number, path: readonly (string | number)[]) => {
    const what = value === null ? 'null' : Array.isArray(value) ? 'a sequence' : `a ${typeof value}`;
    others.push({ kind: undefined, name: undefined, namespace: undefined, source: { filename, position: locator.locate(documentIndex, path) }, notAnObject: what });
  };
  documents.forEach((document, documentIndex) => {
    // An empty document (`---` twice, a trailing `---`) is null: nothing to read.
    if (document === null || document === undefined) return;
    if (!isRecord(document)) {
      notObject(document, documentIndex, []);
      return;
    }
    const kind = typeof document['kind'] === 'string' ? document['kind'] : undefined;
    if (kind !== undefined && kind in LIST_ITEM_KIND && Array.isArray(document['items'])) {
      const itemKind = LIST_ITEM_KIND[kind];
      document['items'].forEach((item: unknown, index) => {
        if (!isRecord(item)) {
          notObject(item, documentIndex, ['items', index]);
          return;
        }
        const own = typeof item['kind'] === 'string' ? item['kind'] : itemKind;
        visit(item, own, documentIndex, ['items', index]);
      });
      return;
    }
    // A document without kind or apiVersion is a bare ConfigMap data map (readConfigMap reads it).
    if (kind === undefined && document['apiVersion'] === undefined) {
      configMaps.push({ kind: 'ConfigMap', name: undefined, namespace: undefined, source: { filename, position: locator.locate(documentIndex, []) } });
      return;
    }
    visit(document, kind, documentIndex, []);
  });
  return { workloads, services, configMaps, others };
}

/** Reads the fields of workloads and Services, refusing malformed ones with their position. */
class ObjectReader {
  constructor(
    private readonly locator: PathLocator,
    private readonly filename: string,
  ) {}

  private fail(documentIndex: number, path: readonly (string | number)[], reason: string): never {
    throw new KubernetesObjectInputError('invalid-field', reason, { filename: this.filename, position: this.locator.locate(documentIndex, path) });
  }

  /**
   * The name, namespace and labels of an object the install reads or writes back (a workload, a
   * Service, a ConfigMap), and the labels its selectors and Pod template name, as the API server
   * takes them: they reach the CoreDNS install, the cut-over's commands and its rollback file, so a
   * value the API server refuses (or shell syntax in a name) is refused here, at its place.
   */
  identity(object: Record<string, unknown>, kind: string, documentIndex: number, path: readonly (string | number)[]): void {
    const metadata = object['metadata'];
    if (metadata === undefined || metadata === null) return;
    if (!isRecord(metadata)) this.fail(documentIndex, [...path, 'metadata'], `metadata must be a mapping (name, namespace, labels), got ${shown(metadata)}`);
    const at = [...path, 'metadata'];
    const name = metadata['name'];
    if (name !== undefined && name !== null) {
      if (typeof name !== 'string') this.fail(documentIndex, [...at, 'name'], `metadata.name must be a string, got ${shown(name)}`);
      const problem = objectNameProblem(kind, name);
      if (problem !== undefined) this.fail(documentIndex, [...at, 'name'], `metadata.name ${shown(name)} is not a ${kind} name the API server takes: ${problem}`);
    }
    const namespace = metadata['namespace'];
    if (namespace !== undefined && namespace !== null) {
      if (typeof namespace !== 'string') this.fail(documentIndex, [...at, 'namespace'], `metadata.namespace must be a string, got ${shown(namespace)}`);
      const problem = namespaceProblem(namespace);
      if (problem !== undefined) this.fail(documentIndex, [...at, 'namespace'], `metadata.namespace ${shown(namespace)} is not a namespace name: ${problem}`);
    }
    this.labels(metadata['labels'], 'metadata.labels', documentIndex, [...at, 'labels']);
    const spec = isRecord(object['spec']) ? object['spec'] : {};
    if (kind === 'Service' || kind === 'ReplicationController') this.labels(spec['selector'], 'spec.selector', documentIndex, [...path, 'spec', 'selector']);
    else if (kind !== 'Pod' && isRecord(spec['selector'])) this.labels(spec['selector']['matchLabels'], 'spec.selector.matchLabels', documentIndex, [...path, 'spec', 'selector', 'matchLabels']);
    const template = isRecord(spec['template']) ? spec['template'] : {};
    if (kind !== 'Pod' && isRecord(template['metadata'])) this.labels(template['metadata']['labels'], 'spec.template.metadata.labels', documentIndex, [...path, 'spec', 'template', 'metadata', 'labels']);
  }

  /** A map of labels (absent or null: none): each key and value as the API server takes them. */
  private labels(value: unknown, name: string, documentIndex: number, at: readonly (string | number)[]): void {
    if (value === undefined || value === null) return;
    if (!isRecord(value)) this.fail(documentIndex, at, `${name} must be a mapping of labels to values, got ${shown(value)}`);
    for (const [key, entry] of Object.entries(value)) {
      const keyProblem = labelKeyProblem(key);
      if (keyProblem !== undefined) this.fail(documentIndex, [...at, key], `${name}: ${shown(key)} is not a label key: ${keyProblem}`);
      if (typeof entry !== 'string') this.fail(documentIndex, [...at, key], `${name} ${key} must be a string (quote it), got ${shown(entry)}`);
      const valueProblem = labelValueProblem(entry);
      if (valueProblem !== undefined) this.fail(documentIndex, [...at, key], `${name} ${key}: ${shown(entry)} is not a label value: ${valueProblem}`);
    }
  }

  /** The containers of a workload of `kind` (the List's item kind when the item has none). */
  containers(object: Record<string, unknown>, kind: string, documentIndex: number, path: readonly (string | number)[]): ObjectContainer[] {
    // A Pod's spec is what a workload's Pod template holds under spec.template.spec.
    const pod = kind === 'Pod';
    const podPath = pod ? [...path, 'spec'] : [...path, 'spec', 'template', 'spec'];
    const spec = object['spec'];
    const template = isRecord(spec) ? spec['template'] : undefined;
    const podSpec = pod ? spec : isRecord(template) ? template['spec'] : undefined;
    if (!isRecord(podSpec)) this.fail(documentIndex, path, pod ? 'Pod has no spec (its containers)' : `${kind} has no spec.template.spec (the Pod template)`);
    if (!pod) this.workloadSpec(spec as Record<string, unknown>, documentIndex, [...path, 'spec']);
    this.podScheduling(podSpec, documentIndex, podPath);
    const list = podSpec['containers'];
    if (!Array.isArray(list)) this.fail(documentIndex, podPath, `${pod ? 'spec' : 'spec.template.spec'}.containers must be a list of containers`);
    return list.map((container: unknown, index) => {
      const at = [...podPath, 'containers', index];
      if (!isRecord(container) || typeof container['name'] !== 'string') this.fail(documentIndex, at, 'a container must be a mapping with a name');
      const image = container['image'];
      const command = this.stringList(container, 'command', documentIndex, at);
      const args = this.stringList(container, 'args', documentIndex, at);
      const env = this.env(container, documentIndex, at);
      return {
        name: container['name'],
        image: typeof image === 'string' ? image : undefined,
        command,
        args,
        env,
        envFrom: Array.isArray(container['envFrom']) && container['envFrom'].length > 0,
        positions: {
          command: (command ?? []).map((_, index) => this.locator.locate(documentIndex, [...at, 'command', index])),
          args: (args ?? []).map((_, index) => this.locator.locate(documentIndex, [...at, 'args', index])),
          env: env.map((variable, index) => this.locator.locate(documentIndex, variable.value === undefined || variable.value === '' ? [...at, 'env', index] : [...at, 'env', index, 'value'])),
        },
      };
    });
  }

  /** The replica count, as the API server takes it: a whole number, not negative. */
  private workloadSpec(spec: Record<string, unknown>, documentIndex: number, at: readonly (string | number)[]): void {
    const replicas = spec['replicas'];
    if (replicas !== undefined && replicas !== null && !(typeof replicas === 'number' && Number.isInteger(replicas) && replicas >= 0)) {
      this.fail(documentIndex, [...at, 'replicas'], `spec.replicas must be a whole number of replicas, got ${shown(replicas)}`);
    }
  }

  /**
   * The scheduling fields of a Pod spec the CoreDNS install carries over, in the shapes the API
   * server takes (core/v1 PodSpec): a value of another shape was never applied.
   */
  private podScheduling(podSpec: Record<string, unknown>, documentIndex: number, at: readonly (string | number)[]): void {
    const field = (name: string) => (podSpec[name] === null ? undefined : podSpec[name]);
    const nodeSelector = field('nodeSelector');
    if (nodeSelector !== undefined) {
      if (!isRecord(nodeSelector)) this.fail(documentIndex, [...at, 'nodeSelector'], `nodeSelector must be a mapping of node labels to values, got ${shown(nodeSelector)}`);
      for (const [label, value] of Object.entries(nodeSelector)) {
        if (typeof value !== 'string') this.fail(documentIndex, [...at, 'nodeSelector', label], `nodeSelector ${label} must be a string (quote it), got ${shown(value)}`);
      }
    }
    this.mappings(field('tolerations'), 'tolerations', 'tolerations', documentIndex, [...at, 'tolerations']);
    this.mappings(field('topologySpreadConstraints'), 'topologySpreadConstraints', 'constraints', documentIndex, [...at, 'topologySpreadConstraints']);
    const priority = field('priorityClassName');
    if (priority !== undefined && typeof priority !== 'string') this.fail(documentIndex, [...at, 'priorityClassName'], `priorityClassName must be the name of a PriorityClass (a string), got ${shown(priority)}`);
    const secrets = this.mappings(field('imagePullSecrets'), 'imagePullSecrets', 'references to Secrets ({name: SECRET})', documentIndex, [...at, 'imagePullSecrets']);
    secrets.forEach((secret, index) => {
      if (typeof secret['name'] !== 'string' || secret['name'] === '') this.fail(documentIndex, [...at, 'imagePullSecrets', index], `imagePullSecrets[${index}] must name a Secret ({name: SECRET}), got ${shown(secret)}`);
    });
    const affinity = field('affinity');
    if (affinity === undefined) return;
    if (!isRecord(affinity)) this.fail(documentIndex, [...at, 'affinity'], `affinity must be a mapping (nodeAffinity, podAffinity, podAntiAffinity), got ${shown(affinity)}`);
    for (const kind of ['nodeAffinity', 'podAffinity', 'podAntiAffinity']) {
      const value = affinity[kind] === null ? undefined : affinity[kind];
      if (value === undefined) continue;
      const where = [...at, 'affinity', kind];
      if (!isRecord(value)) this.fail(documentIndex, where, `affinity.${kind} must be a mapping (requiredDuringSchedulingIgnoredDuringExecution, preferredDuringSchedulingIgnoredDuringExecution), got ${shown(value)}`);
      const required = value['requiredDuringSchedulingIgnoredDuringExecution'];
      if (kind === 'nodeAffinity') {
        if (required !== undefined && required !== null && !isRecord(required)) this.fail(documentIndex, [...where, 'requiredDuringSchedulingIgnoredDuringExecution'], `affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution must be a mapping (nodeSelectorTerms), got ${shown(required)}`);
      } else this.mappings(required, `affinity.${kind}.requiredDuringSchedulingIgnoredDuringExecution`, 'pod affinity terms', documentIndex, [...where, 'requiredDuringSchedulingIgnoredDuringExecution']);
      this.mappings(value['preferredDuringSchedulingIgnoredDuringExecution'], `affinity.${kind}.preferredDuringSchedulingIgnoredDuringExecution`, 'weighted terms', documentIndex, [...where, 'preferredDuringSchedulingIgnoredDuringExecution']);
    }
  }

  /** A list of mappings (absent or null: none), refused at the first entry of another shape. */
  private mappings(value: unknown, name: string, what: string, documentIndex: number, at: readonly (string | number)[]): Record<string, unknown>[] {
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) this.fail(documentIndex, at, `${name} must be a list of ${what}, got ${shown(value)}`);
    return value.map((entry: unknown, index) => {
      if (!isRecord(entry)) this.fail(documentIndex, [...at, index], `${name}[${index}] must be a mapping, got ${shown(entry)}`);
      return entry;
    });
  }

  /** A Service's ports as the API server takes them: mappings whose port is a number from 1 to 65535. */
  servicePorts(object: Record<string, unknown>, documentIndex: number, path: readonly (string | number)[]): void {
    const spec = isRecord(object['spec']) ? object['spec'] : {};
    const ports = this.mappings(spec['ports'], 'spec.ports', 'ports', documentIndex, [...path, 'spec', 'ports']);
    ports.forEach((port, index) => {
      const number = port['port'];
      if (!(typeof number === 'number' && Number.isInteger(number) && number >= 1 && number <= 65535)) this.fail(documentIndex, [...path, 'spec', 'ports', index, 'port'], `spec.ports[${index}].port must be a port number (1-65535), got ${shown(number)}`);
      const protocol = port['protocol'];
      if (protocol !== undefined && protocol !== null && typeof protocol !== 'string') this.fail(documentIndex, [...path, 'spec', 'ports', index, 'protocol'], `spec.ports[${index}].protocol must be UDP, TCP or SCTP, got ${shown(protocol)}`);
    });
  }

  private stringList(container: Record<string, unknown>, field: string, documentIndex: number, at: readonly (string | number)[]): string[] | undefined {
    const value = container[field];
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value)) this.fail(documentIndex, [...at, field], `${field} must be a list of strings`);
    return value.map((item: unknown, index) => {
      // Kubernetes stores strings only; YAML reads `--v=2` as a string but `2` as a number.
      if (typeof item !== 'string') this.fail(documentIndex, [...at, field, index], `${field}[${index}] must be a string (quote it), got ${item === null ? 'null' : typeof item}`);
      return item;
    });
  }

  private env(container: Record<string, unknown>, documentIndex: number, at: readonly (string | number)[]): ObjectEnvVar[] {
    const value = container['env'];
    if (value === undefined || value === null) return [];
    if (!Array.isArray(value)) this.fail(documentIndex, [...at, 'env'], 'env must be a list of name/value entries');
    return value.map((entry: unknown, index) => {
      if (!isRecord(entry) || typeof entry['name'] !== 'string') this.fail(documentIndex, [...at, 'env', index], 'an env entry must have a name');
      const literal = entry['value'];
      if (literal !== undefined && literal !== null && typeof literal !== 'string') this.fail(documentIndex, [...at, 'env', index, 'value'], 'an env value must be a string (quote it)');
      return typeof literal === 'string' && entry['valueFrom'] === undefined ? { name: entry['name'], value: literal } : entry['valueFrom'] === undefined ? { name: entry['name'], value: '' } : { name: entry['name'] };
    });
  }

  clusterIPs(object: Record<string, unknown>, documentIndex: number, path: readonly (string | number)[]): { clusterIP: string | undefined; clusterIPs: string[]; clusterIPPosition: SourcePosition | undefined } {
    const spec = isRecord(object['spec']) ? object['spec'] : {};
    const clusterIP = typeof spec['clusterIP'] === 'string' ? spec['clusterIP'] : undefined;
    const clusterIPs = Array.isArray(spec['clusterIPs']) ? spec['clusterIPs'].filter((ip): ip is string => typeof ip === 'string') : [];
    // The API server requires clusterIPs[0] to be clusterIP when both are set: an object with two others was never applied.
    if (clusterIP !== undefined && clusterIPs.length > 0 && clusterIPs[0] !== clusterIP) {
      this.fail(documentIndex, [...path, 'spec', 'clusterIPs', 0], `spec.clusterIPs[0] '${clusterIPs[0] ?? ''}' is not spec.clusterIP '${clusterIP}': the API server requires the first of clusterIPs to be clusterIP`);
    }
    const field = clusterIP === undefined ? ['clusterIPs', 0] : ['clusterIP'];
    return { clusterIP, clusterIPs, clusterIPPosition: clusterIP === undefined && clusterIPs.length === 0 ? undefined : this.locator.locate(documentIndex, [...path, 'spec', ...field]) };
  }
}
