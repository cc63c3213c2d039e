/**
 * The install is checked before anyone sees it: every object against the Kubernetes API schema
 * fragment of schemas/kubernetes-install.schema.json (precompiled with ajv), then the rules that
 * tie the objects together. A failure is a defect of this package, never output.
 */
import { validateKubernetesInstall } from '../generated/validate-kubernetes-install.js';
import { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';

/** Which check an install object failed. */
export type InstallValidationErrorCode = 'schema' | 'cross-object';

/** The install this package built does not validate: a defect of the package, with the object and path. */
export class InstallValidationError extends KubeDnsToCoreDnsError {
  override readonly name = 'InstallValidationError';
  readonly category = 'internal';
  declare readonly code: InstallValidationErrorCode;
  /** `Kind/name` of the object. */
  readonly object: string;
  /** JSON pointer inside the object (`/spec/template/spec/containers/0/ports/1/name`). */
  readonly path: string;

  constructor(code: InstallValidationErrorCode, object: string, path: string, reason: string) {
    super(code, `internal error: the CoreDNS install does not validate: ${object} ${path || '/'}: ${reason}`);
    this.object = object;
    this.path = path;
  }
}

type Json = Readonly<Record<string, unknown>>;

const record = (value: unknown): Json => (typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {});
const list = (value: unknown): readonly unknown[] => (Array.isArray(value) ? value : []);
const nameOf = (object: Json) => `${String(object['kind'])}/${String(record(object['metadata'])['name'])}`;

/** Checks every object against the schema, then the cross-object rules; throws {@link InstallValidationError}. */
export function validateInstallObjects(objects: readonly Json[]): void {
  for (const object of objects) {
    if (!validateKubernetesInstall(object)) {
      // ajv's `if`/`then` adds a wrapper error; the first error with a path inside the object says what is wrong.
      const errors = validateKubernetesInstall.errors ?? [];
      const error = errors.find((entry) => entry.keyword !== 'if') ?? errors[0];
      const detail = error === undefined ? 'invalid' : `${error.message ?? 'invalid'}${error.params !== undefined && Object.keys(error.params).length > 0 ? ` (${JSON.stringify(error.params)})` : ''}`;
      throw new InstallValidationError('schema', nameOf(object), error?.instancePath ?? '', detail);
    }
  }
  checkCrossObjectRules(objects);
}

function fail(object: Json, path: string, reason: string): never {
  throw new InstallValidationError('cross-object', nameOf(object), path, reason);
}

function subset(labels: Json, of: Json): boolean {
  return Object.entries(labels).every(([key, value]) => of[key] === value);
}

/**
 * Deployment selector ⊆ pod labels; Service selector ⊆ pod labels; the config volume names the
 * ConfigMap, whose key is the file `-conf` reads; probe and Service target ports exist on the
 * container; the ServiceAccount and the binding's subject are the Pod's.
 */
export function checkCrossObjectRules(objects: readonly Json[]): void {
  const find = (kind: string) => objects.find((object) => object['kind'] === kind);
  const deployment = find('Deployment');
  const service = find('Service');
  const configMap = find('ConfigMap');
  const serviceAccount = find('ServiceAccount');
  const binding = find('ClusterRoleBinding');
  const role = find('ClusterRole');
  if (deployment === undefined || service === undefined || configMap === undefined || serviceAccount === undefined || binding === undefined || role === undefined) {
    throw new InstallValidationError('cross-object', 'install', '', 'an object is missing (ServiceAccount, ClusterRole, ClusterRoleBinding, ConfigMap, Deployment and Service are all needed)');
  }
  const spec = record(deployment['spec']);
  const template = record(spec['template']);
  const podLabels = record(record(template['metadata'])['labels']);
  const podSpec = record(template['spec']);
  if (!subset(record(record(spec['selector'])['matchLabels']), podLabels)) fail(deployment, '/spec/selector/matchLabels', 'the selector does not match the pod labels');
  const serviceSpec = record(service['spec']);
  const selector = record(serviceSpec['selector']);
  if (Object.keys(selector).length === 0) fail(service, '/spec/selector', 'the Service selects no pods');
  if (!subset(selector, podLabels)) fail(service, '/spec/selector', "the Service's selector does not match the CoreDNS pod labels");
  const namespace = record(deployment['metadata'])['namespace'];
  for (const object of [service, configMap, serviceAccount]) {
    if (record(object['metadata'])['namespace'] !== namespace) fail(object, '/metadata/namespace', `not the Deployment's namespace ${String(namespace)}`);
  }
  const container = record(list(podSpec['containers'])[0]);
  const args = list(container['args']);
  const conf = args[args.indexOf('-conf') + 1];
  if (args.indexOf('-conf') < 0 || typeof conf !== 'string') fail(deployment, '/spec/template/spec/containers/0/args', 'no -conf FILE');
  const mounts = list(container['volumeMounts']).map(record);
  const mount = mounts.find((entry) => typeof entry['mountPath'] === 'string' && conf.startsWith(`${String(entry['mountPath']).replace(/\/$/, '')}/`));
  if (mount === undefined) fail(deployment, '/spec/template/spec/containers/0/volumeMounts', `no volume is mounted where -conf ${conf} is`);
  const volume = list(podSpec['volumes']).map(record).find((entry) => entry['name'] === mount['name']);
  const configMapName = record(configMap['metadata'])['name'];
  if (volume === undefined || record(volume['configMap'])['name'] !== configMapName) fail(deployment, '/spec/template/spec/volumes', `the volume mounted at ${String(mount['mountPath'])} is not ConfigMap ${String(configMapName)}`);
  const file = conf.slice(String(mount['mountPath']).replace(/\/$/, '').length + 1);
  const item = list(record(volume['configMap'])['items']).map(record).find((entry) => entry['path'] === file);
  const key = item === undefined ? file : item['key'];
  if (typeof key !== 'string' || typeof record(configMap['data'])[key] !== 'string') fail(configMap, '/data', `no key ${String(key)}, the file -conf ${conf} reads`);
  const ports = list(container['ports']).map(record);
  const hasPort = (port: unknown, protocol = 'TCP') => ports.some((entry) => (typeof port === 'number' ? entry['containerPort'] === port : entry['name'] === port) && (entry['protocol'] ?? 'TCP') === protocol);
  for (const probe of ['livenessProbe', 'readinessProbe']) {
    const httpGet = record(record(container[probe])['httpGet']);
    if (container[probe] !== undefined && !hasPort(httpGet['port'])) fail(deployment, `/spec/template/spec/containers/0/${probe}/httpGet/port`, `port ${String(httpGet['port'])} is not a container port`);
  }
  list(serviceSpec['ports']).forEach((value, index) => {
    const port = record(value);
    const target = port['targetPort'] ?? port['port'];
    if (!hasPort(target, typeof port['protocol'] === 'string' ? port['protocol'] : 'TCP')) fail(service, `/spec/ports/${index}/targetPort`, `port ${String(target)} is not a port of the CoreDNS container`);
  });
  if (podSpec['serviceAccountName'] !== record(serviceAccount['metadata'])['name']) fail(deployment, '/spec/template/spec/serviceAccountName', 'not the ServiceAccount of the install');
  const subject = record(list(binding['subjects'])[0]);
  if (subject['name'] !== record(serviceAccount['metadata'])['name'] || subject['namespace'] !== namespace) fail(binding, '/subjects/0', 'not the ServiceAccount of the install');
  if (record(binding['roleRef'])['name'] !== record(role['metadata'])['name']) fail(binding, '/roleRef/name', 'not the ClusterRole of the install');
}
