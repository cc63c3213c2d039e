import { ConfigMapInputError } from '../../configmap/config-map-data.js';
import type { CoreDnsVersion } from '../../coredns/versions.js';
import { readKubeDnsInstall } from '../../kubedns/kube-dns-install.js';
import type { KubeDnsDeployment, KubeDnsInstall, KubeDnsInstallSource } from '../../kubedns/kube-dns-install.js';
import type { ConfigMapData } from '../../configmap/config-map-data.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
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

/**
 * The kube-dns install: FILE (or standard input) may hold the ConfigMap, the Deployment and the
 * Service together (what `kubectl get deploy/kube-dns svc/kube-dns cm/kube-dns -o yaml` prints);
 * `--kube-dns-deployment` and `--kube-dns-service` add files of their own. Input without any of
 * the three is refused like a text without a ConfigMap.
 */
export async function readKubeDnsInstallInput(
  file: string | undefined,
  extraFiles: { readonly deployment?: string | undefined; readonly service?: string | undefined },
  name: string | undefined,
  io: CliIo,
): Promise<KubeDnsInstall> {
  const readers = [file ?? '-', extraFiles.deployment, extraFiles.service].filter((path) => path === '-');
  if (readers.length > 1) throw new UsageError('only one of FILE, --kube-dns-deployment and --kube-dns-service can read standard input');
  const sources: KubeDnsInstallSource[] = [];
  for (const path of [file, extraFiles.deployment, extraFiles.service]) {
    if (path === undefined && sources.length > 0) continue;
    const source = await readSource(path, io, INPUT_LIMITS.configMap);
    sources.push({ text: source.text, filename: source.name });
  }
  const install = readKubeDnsInstall(sources, name === undefined ? {} : { configMapName: name });
  if (install.configMap === undefined && install.deployment === undefined && install.service === undefined) {
    if (name !== undefined) throw new ConfigMapInputError('configmap-not-found', `no ConfigMap named '${name}'`, { filename: sources[0]?.filename });
    throw new ConfigMapInputError('no-configmap', 'no ConfigMap found (expected kind: ConfigMap, a List or ConfigMapList of them, or a data map)', { filename: sources[0]?.filename });
  }
  if (name !== undefined && install.configMap === undefined) throw new ConfigMapInputError('configmap-not-found', `no ConfigMap named '${name}'`, { filename: sources[0]?.filename });
  return install;
}

/**
 * What `check` and `explain` read for the kube-dns side: `--kube-dns FILE` (the ConfigMap, the
 * Deployment, or both, as kubectl prints them) and `--kube-dns-deployment FILE`.
 */
export async function readKubeDnsRoutingInput(
  kubeDnsFile: string,
  deploymentFile: string | undefined,
  io: CliIo,
): Promise<{ readonly data: ConfigMapData | null; readonly deployment: KubeDnsDeployment | undefined; readonly diagnostics: readonly Diagnostic[] }> {
  const install = await readKubeDnsInstallInput(kubeDnsFile, { deployment: deploymentFile }, undefined, io);
  return { data: install.configMap?.data ?? null, deployment: install.deployment, diagnostics: [...(install.configMap?.diagnostics ?? []), ...install.diagnostics] };
}
