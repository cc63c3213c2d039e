import { readKubernetesObjects } from '../../configmap/read-kubernetes-objects.js';
import type { KubernetesObjects, ObjectSource } from '../../configmap/read-kubernetes-objects.js';
import { diagnostic } from '../../diagnostics/diagnostic.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { KubeDnsToCoreDnsError } from '../../errors/kube-dns-to-coredns-error.js';
import { readKubeDnsConfigMap } from '../../kubedns/read-kube-dns-configmap.js';
import type { KubeDnsConfigMapDocument } from '../../kubedns/read-kube-dns-configmap.js';
import type { CliIo } from '../io.js';
import { INPUT_LIMITS, readSource } from '../read-source.js';

/**
 * The kube-dns ConfigMap from FILE (or standard input): its data, and warnings about which
 * ConfigMap it was (for stderr, or the JSON output). Unreadable text is a usage error; text that is
 * not a kube-dns ConfigMap throws the library's `ConfigMapInputError` (exit 2, like any input error).
 * `reader` (`node-cache`, `kubeadm`) reads the ConfigMap alone: every other object of the input
 * (the Deployment and Service of a `kubectl get … -o yaml` List, another ConfigMap) is named in an
 * `unused-object` note saying so.
 */
export async function readKubeDnsInput(file: string | undefined, name: string | undefined, io: CliIo, reader: string): Promise<KubeDnsConfigMapDocument> {
  const source = await readSource(file, io, INPUT_LIMITS.configMap);
  const document = readKubeDnsConfigMap(source.text, { filename: source.name, ...(name === undefined ? {} : { name }) });
  const notRead = objectsNotRead(source.text, source.name, document, reader);
  return notRead.length === 0 ? document : { ...document, diagnostics: [...document.diagnostics, ...notRead] };
}

function objectsNotRead(text: string, filename: string, document: KubeDnsConfigMapDocument, reader: string): Diagnostic[] {
  let objects: KubernetesObjects;
  try {
    objects = readKubernetesObjects(text, { filename });
  } catch (error) {
    // A malformed Deployment beside the ConfigMap: not read either way.
    const reason = error instanceof KubeDnsToCoreDnsError ? error.message : String(error);
    return [diagnostic('unused-object', { key: filename, message: `${reader} reads only the kube-dns ConfigMap; the other objects of this input are not read (${reason})` })];
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
    .map(({ object, source }) => diagnostic('unused-object', { key: at(source), message: `${named(object)}: ${reader} reads only the kube-dns ConfigMap; not read` }));
}
