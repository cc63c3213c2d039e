import { ConfigMapInputError } from '../../configmap/read-configmap.js';
import { readKubeDnsConfigMap } from '../../kubedns/read-kube-dns-configmap.js';
import type { KubeDnsConfigMapDocument } from '../../kubedns/read-kube-dns-configmap.js';
import type { CliIo } from '../io.js';
import { INPUT_LIMITS, readSource } from '../read-source.js';
import { UsageError } from '../usage-error.js';


/** The parsed command line of the translation, shared by both modes. */
export interface TranslateArguments {
  readonly file: string | undefined;
  readonly name: string | undefined;
  readonly batch: boolean;
  /** `--cluster-domain` or its alias `--dns-domain`. */
  readonly clusterDomain: string | undefined;
  readonly coredns: string | undefined;
  readonly output: string | undefined;
  readonly merge: string | undefined;
  readonly dropFederations: boolean;
  readonly force: boolean;
  readonly kubeDnsVersion: string | undefined;
  readonly clusterDnsIp: string | undefined;
}

/**
 * The kube-dns ConfigMap from FILE (or standard input): its data, and warnings about which
 * ConfigMap it was (for stderr, or the JSON output); problems are usage errors.
 */
export async function readKubeDnsInput(file: string | undefined, name: string | undefined, io: CliIo): Promise<KubeDnsConfigMapDocument> {
  const source = await readSource(file, io, INPUT_LIMITS.configMap);
  try {
    return readKubeDnsConfigMap(source.text, { filename: source.name, ...(name === undefined ? {} : { name }) });
  } catch (error) {
    if (error instanceof ConfigMapInputError) throw new UsageError(error.message);
    throw error;
  }
}
