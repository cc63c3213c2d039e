import { objectsNotRead, readKubeDnsConfigMapAlone } from '../../kubedns/read-kube-dns-configmap.js';
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
  const document = readKubeDnsConfigMapAlone(source.text, { filename: source.name, ...(name === undefined ? {} : { name }) });
  const notRead = objectsNotRead(source.text, source.name, document, reader, '');
  return notRead.length === 0 ? document : { ...document, diagnostics: [...document.diagnostics, ...notRead] };
}
