import type { ConfigMapData } from '../configmap/config-map-data.js';
import { readKubeDnsInstall } from '../kubedns/kube-dns-install.js';
import type { KubeDnsDeployment } from '../kubedns/kube-dns-install.js';
import { readKubeDnsConfigMap } from '../kubedns/read-kube-dns-configmap.js';
import { kubeDnsRouting } from './kube-dns-routing.js';
import type { KubeDnsRouting, KubeDnsRoutingOptions } from './kube-dns-routing.js';

/**
 * The kube-dns model of what `check` and `explain` are given: a ConfigMap's data, or YAML or JSON
 * text holding the kube-dns ConfigMap and/or the kube-dns Deployment (read with
 * {@link readKubeDnsInstall}: the `kube-dns` ConfigMap among several; a CoreDNS ConfigMap throws
 * `ConfigMapInputError`), or `null`. A Deployment in `options` wins over one in the text. Warnings
 * about what the text held lead the model's notes.
 */
export function kubeDnsRoutingOfInput(kubeDns: ConfigMapData | string | null, options: KubeDnsRoutingOptions, build: typeof kubeDnsRouting = kubeDnsRouting): KubeDnsRouting {
  if (typeof kubeDns !== 'string') return build(kubeDns, options);
  const install = readKubeDnsInstall([{ text: kubeDns }]);
  // Neither a ConfigMap nor a Deployment: the ConfigMap reader says why (no ConfigMap found, …).
  if (install.configMap === undefined && install.deployment === undefined) readKubeDnsConfigMap(kubeDns);
  const deployment: KubeDnsDeployment | undefined = options.deployment ?? install.deployment;
  const locate = options.locate ?? install.configMap?.locate;
  const routing = build(install.configMap?.data ?? null, { ...options, ...(deployment === undefined ? {} : { deployment }), ...(locate === undefined ? {} : { locate }) });
  const notes = [...(install.configMap?.diagnostics ?? []), ...install.diagnostics].map((entry) => entry.message);
  if (notes.length === 0) return routing;
  return { ...routing, notes: [...notes, ...routing.notes] };
}
