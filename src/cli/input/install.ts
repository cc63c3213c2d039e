import { ConfigMapInputError } from '../../configmap/config-map-data.js';
import type { ConfigMapData } from '../../configmap/config-map-data.js';
import type { ValueLocator } from '../../util/source-position.js';
import { diagnostic } from '../../diagnostics/diagnostic.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { readKubeDnsInstall } from '../../kubedns/kube-dns-install.js';
import type { KubeDnsDeployment, KubeDnsInstall, KubeDnsInstallSource } from '../../kubedns/kube-dns-install.js';
import type { CliIo } from '../io.js';
import { INPUT_LIMITS, readSource } from '../read-source.js';
import { UsageError } from '../usage-error.js';

/**
 * Reading the whole kube-dns install from the command line (kept apart from translate-input.ts,
 * which `--kubeadm` loads: it reads the ConfigMap alone and should not load the argument readers).
 */
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
  const given = [
    { path: file, holds: undefined },
    { path: extraFiles.deployment, holds: 'workload' as const },
    { path: extraFiles.service, holds: 'service' as const },
  ];
  for (const { path, holds } of given) {
    if (path === undefined && sources.length > 0) continue;
    const source = await readSource(path, io, INPUT_LIMITS.configMap);
    sources.push({ text: source.text, filename: source.name, ...(holds === undefined || path === undefined ? {} : { holds }) });
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
): Promise<{
  readonly data: ConfigMapData | null;
  readonly deployment: KubeDnsDeployment | undefined;
  readonly diagnostics: readonly Diagnostic[];
  /** Where the ConfigMap's values are written, for notes that point into the file. */
  readonly locate: ValueLocator | undefined;
}> {
  const install = await readKubeDnsInstallInput(kubeDnsFile, { deployment: deploymentFile }, undefined, io);
  const noConfigMap =
    install.configMap === undefined
      ? [diagnostic('kube-dns-configmap-assumed', { message: "no kube-dns ConfigMap in the input: kube-dns is routed as if it had no data (no stub domains; upstreams from the node's resolv.conf)" })]
      : [];
  return {
    data: install.configMap?.data ?? null,
    deployment: install.deployment,
    diagnostics: [...(install.configMap?.diagnostics ?? []), ...install.diagnostics, ...noConfigMap],
    locate: install.configMap?.locate,
  };
}
