import type { CoreDnsVersion } from '../../coredns/versions.js';
import { readKubeDnsConfigMap } from '../../kubedns/read-kube-dns-configmap.js';
import type { KubeDnsConfigMapDocument } from '../../kubedns/read-kube-dns-configmap.js';
import type { CliIo } from '../io.js';
import { INPUT_LIMITS, readSource } from '../read-source.js';

/** The parsed command line of the translation, shared by both modes. */
export interface TranslateArguments {
  readonly file: string | undefined;
  readonly name: string | undefined;
  readonly batch: boolean;
  /** `--cluster-domain` or its alias `--dns-domain`. */
  readonly clusterDomain: string | undefined;
  /** `--coredns`, parsed. */
  readonly coredns: CoreDnsVersion | undefined;
  readonly output: string | undefined;
  readonly merge: string | undefined;
  readonly dropFederations: boolean;
  readonly force: boolean;
  /** `--kube-dns-version`, checked and normalised (`v1.14.13` → `1.14.13`). */
  readonly kubeDnsVersion: string | undefined;
  readonly clusterDnsIp: string | undefined;
  /** `--kube-dns-deployment FILE`: the kube-dns Deployment (or ReplicationController). */
  readonly deploymentFile: string | undefined;
  /** `--kube-dns-service FILE`: the kube-dns Service. */
  readonly serviceFile: string | undefined;
}

/**
 * The kube-dns ConfigMap from FILE (or standard input): its data, and warnings about which
 * ConfigMap it was (for stderr, or the JSON output). Unreadable text is a usage error; text that is
 * not a kube-dns ConfigMap throws the library's `ConfigMapInputError` (exit 2, like any input error).
 */
export async function readKubeDnsInput(file: string | undefined, name: string | undefined, io: CliIo): Promise<KubeDnsConfigMapDocument> {
  const source = await readSource(file, io, INPUT_LIMITS.configMap);
  return readKubeDnsConfigMap(source.text, { filename: source.name, ...(name === undefined ? {} : { name }) });
}
