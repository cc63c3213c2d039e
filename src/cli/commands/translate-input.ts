import { ConfigMapInputError, readConfigMap } from '../../configmap/read-configmap.js';
import type { ConfigMapData } from '../../configmap/config-map-data.js';
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

const KUBE_DNS_CONFIGMAP = 'kube-dns';

/** The kube-dns ConfigMap's data from FILE (or standard input); problems are usage errors. */
export async function readKubeDnsData(file: string | undefined, name: string | undefined, io: CliIo): Promise<ConfigMapData> {
  const source = await readSource(file, io, INPUT_LIMITS.configMap);
  try {
    return readConfigMap(source.text, { filename: source.name, preferredNames: [KUBE_DNS_CONFIGMAP], ...(name === undefined ? {} : { name }) }).data;
  } catch (error) {
    if (error instanceof ConfigMapInputError) throw new UsageError(error.message);
    throw error;
  }
}
