import { checkArgument } from '../errors/arguments.js';
import { ConfigMapInputError, readConfigMap } from '../configmap/read-configmap.js';
import { readKubernetesObjects } from '../configmap/read-kubernetes-objects.js';
import type { KubernetesObjects, ObjectSource } from '../configmap/read-kubernetes-objects.js';
import { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';
import type { ConfigMapDocument, ReadConfigMapOptions } from '../configmap/read-configmap.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { KUBE_DNS_KEYS } from './read-kube-dns-config.js';

/**
 * Reading the kube-dns ConfigMap from YAML or JSON text, and saying so when the text holds another
 * one. kube-dns reads exactly one ConfigMap: the kube-dns pod mounts `kube-dns` of its own
 * namespace, `kube-system` (kubernetes/kubernetes `cluster/addons/dns/kube-dns/kube-dns.yaml.in`,
 * where the volume is optional: no ConfigMap, defaults). A copy under another
 * name may be what it ran with or not; a CoreDNS ConfigMap (`coredns`, NodeLocal DNSCache's
 * `node-local-dns-config`, AKS's `coredns-custom`) is no kube-dns configuration at all, and reading
 * it as one would translate it to the defaults without a word.
 */

const KUBE_DNS_CONFIGMAP_NAME = 'kube-dns';
const KUBE_DNS_CONFIGMAP_NAMESPACE = 'kube-system';

export interface KubeDnsConfigMapDocument extends ConfigMapDocument {
  /** Diagnostics about the ConfigMap that was read (`configmap-not-kube-dns`, `binary-data-key`); empty for kube-system/kube-dns with data only. */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * {@link readConfigMap} for the kube-dns ConfigMap: among several ConfigMaps the one named
 * `kube-dns` is used (or `options.name`). Throws {@link ConfigMapInputError} for what readConfigMap
 * refuses and for a CoreDNS ConfigMap (its data has a `Corefile`, a `*.server` or `*.override` key,
 * or it is named `coredns`, and none of the kube-dns keys). A ConfigMap with another name (unless
 * `options.name` asked for it) or in another namespace than kube-system is read, with a
 * `configmap-not-kube-dns` warning naming it. A missing name or namespace is fine. Each binaryData
 * key gets a `binary-data-key` diagnostic (an error for a kube-dns setting).
 */
export function readKubeDnsConfigMap(text: string, options: ReadConfigMapOptions = {}): KubeDnsConfigMapDocument {
  checkArgument('readKubeDnsConfigMap', 'text', text, 'string');
  checkArgument('readKubeDnsConfigMap', 'options', options, 'object?');
  const document = readKubeDnsConfigMapAlone(text, options);
  // A Deployment or Service beside the ConfigMap (a `kubectl get deploy/kube-dns svc/kube-dns cm/kube-dns`
  // List) is named, not dropped silently: readKubeDnsInstall reads them.
  if (!MAY_HOLD_OTHER_OBJECTS.test(text)) return document;
  const notRead = objectsNotRead(text, options.filename ?? '<input>', document, 'readKubeDnsConfigMap', ' (readKubeDnsInstall reads the whole install: its Deployment and Service too)');
  return notRead.length === 0 ? document : { ...document, diagnostics: [...document.diagnostics, ...notRead] };
}

/** Text with a second `kind` (a List, several documents): only then can it hold objects besides the ConfigMap. */
const MAY_HOLD_OTHER_OBJECTS = /\bkind\b[\s\S]*\bkind\b/;

/**
 * {@link readKubeDnsConfigMap} without the notes about the other objects of `text`: for readers
 * that read those objects themselves (readKubeDnsInstall) or name them their own way (the CLI's
 * `--kubeadm` and `--node-local-dns`).
 */
export function readKubeDnsConfigMapAlone(text: string, options: ReadConfigMapOptions = {}): KubeDnsConfigMapDocument {
  const document = readConfigMap(text, { preferredNames: [KUBE_DNS_CONFIGMAP_NAME], ...options });
  const filename = options.filename ?? '<input>';
  const sign = coreDnsSign(document);
  if (sign !== undefined) {
    const which = document.name === undefined ? 'this is a CoreDNS ConfigMap' : `ConfigMap '${document.name}' is a CoreDNS ConfigMap`;
    throw new ConfigMapInputError(
      'coredns-configmap',
      `${which} (${sign}), not the kube-dns one: this reads the kube-dns ConfigMap (kubectl -n kube-system get configmap kube-dns -o yaml); to check a Corefile, use lint, or check with --corefile`,
      { filename },
    );
  }
  const diagnostics = binaryDataDiagnostics(document);
  const otherName = document.name !== undefined && document.name !== KUBE_DNS_CONFIGMAP_NAME && options.name === undefined;
  const otherNamespace = document.namespace !== undefined && document.namespace !== KUBE_DNS_CONFIGMAP_NAMESPACE;
  if (!otherName && !otherNamespace) return { ...document, diagnostics };
  const read =
    document.name === undefined ? `a ConfigMap in namespace '${document.namespace ?? ''}'` : `ConfigMap ${document.namespace === undefined ? '' : `${document.namespace}/`}${document.name}`;
  const message = `read ${read}, not ${KUBE_DNS_CONFIGMAP_NAMESPACE}/${KUBE_DNS_CONFIGMAP_NAME}: kube-dns reads only that one, so this may not be what it ran with`;
  return { ...document, diagnostics: [diagnostic('configmap-not-kube-dns', { message }), ...diagnostics] };
}

/**
 * One diagnostic per `binaryData` key. kube-dns mounts its ConfigMap as a volume
 * (`--config-dir`), where binaryData keys become files like data keys, so a kube-dns setting there
 * was in effect: translating without it would change the cluster, hence an error.
 */
function binaryDataDiagnostics(document: ConfigMapDocument): Diagnostic[] {
  return document.binaryDataKeys.map((key) =>
    (KUBE_DNS_KEYS as readonly string[]).includes(key)
      ? diagnostic('binary-data-key', {
          key,
          severity: 'error',
          message: `${key} is under binaryData: kube-dns read it as a file of its mounted ConfigMap, but its base64 content is not translated here`,
        })
      : diagnostic('binary-data-key', { key, message: `binaryData key ${key} is not read: kube-dns reads only stubDomains, upstreamNameservers and federations` }),
  );
}

/** Why `document` is a CoreDNS ConfigMap, or undefined when it may be a kube-dns one. */
function coreDnsSign(document: ConfigMapDocument): string | undefined {
  const keys = Object.keys(document.data);
  if (keys.some((key) => (KUBE_DNS_KEYS as readonly string[]).includes(key))) return undefined;
  if (keys.includes('Corefile')) return 'its data has a Corefile';
  const importFile = keys.find((key) => key.endsWith('.server') || key.endsWith('.override'));
  if (importFile !== undefined) return `its data key '${importFile}' is a file CoreDNS imports`;
  if (document.name === 'coredns') return 'named coredns';
  return undefined;
}

/**
 * One `unused-object` note per object of `text` that `reader` does not read: every workload,
 * Service and other object, and each ConfigMap but the one read; in source order. `pointer` ends
 * each message (where to read them instead).
 */
export function objectsNotRead(text: string, filename: string, document: KubeDnsConfigMapDocument, reader: string, pointer: string): Diagnostic[] {
  let objects: KubernetesObjects;
  try {
    objects = readKubernetesObjects(text, { filename });
  } catch (error) {
    // A malformed Deployment beside the ConfigMap: not read either way.
    const reason = error instanceof KubeDnsToCoreDnsError ? error.message : String(error);
    return [diagnostic('unused-object', { key: filename, message: `${reader} reads only the kube-dns ConfigMap; the other objects of this input are not read (${reason})${pointer}` })];
  }
  const named = (object: { readonly kind: string | undefined; readonly name: string | undefined; readonly notAnObject?: string }) =>
    object.notAnObject === undefined ? `${object.kind ?? 'an object'} ${object.name ?? '(unnamed)'}` : `${object.notAnObject}, not a Kubernetes object`;
  const at = (source: ObjectSource) => (source.position === undefined ? source.filename : `${source.filename}:${source.position.line}:${source.position.column}`);
  let chosen = false;
  const notRead: { readonly object: { readonly kind: string | undefined; readonly name: string | undefined; readonly notAnObject?: string }; readonly source: ObjectSource }[] = [];
  for (const configMap of objects.configMaps) {
    if (!chosen && configMap.name === document.name) chosen = true;
    else notRead.push({ object: configMap, source: configMap.source });
  }
  for (const object of [...objects.workloads, ...objects.services.map((service) => ({ ...service, kind: 'Service' })), ...objects.others]) notRead.push({ object, source: object.source });
  return notRead
    .sort((a, b) => (a.source.position?.line ?? 0) - (b.source.position?.line ?? 0))
    .map(({ object, source }) => diagnostic('unused-object', { key: at(source), message: `${named(object)}: ${reader} reads only the kube-dns ConfigMap; not read${pointer}` }));
}
