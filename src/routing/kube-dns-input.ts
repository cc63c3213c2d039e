import type { ConfigMapData } from '../configmap/config-map-data.js';
import { readKubeDnsConfigMap } from '../kubedns/read-kube-dns-configmap.js';
import { kubeDnsRouting } from './kube-dns-routing.js';
import type { KubeDnsRouting, KubeDnsRoutingOptions } from './kube-dns-routing.js';

/**
 * The kube-dns model of what `check` and `explain` are given: a ConfigMap's data, its YAML or JSON
 * text (read with {@link readKubeDnsConfigMap}: the `kube-dns` one among several; a CoreDNS
 * ConfigMap throws `ConfigMapInputError`), or `null`. Warnings about which ConfigMap the text held
 * lead the model's notes.
 */
export function kubeDnsRoutingOfInput(kubeDns: ConfigMapData | string | null, options: KubeDnsRoutingOptions): KubeDnsRouting {
  if (typeof kubeDns !== 'string') return kubeDnsRouting(kubeDns, options);
  const document = readKubeDnsConfigMap(kubeDns);
  const routing = kubeDnsRouting(document.data, options);
  if (document.diagnostics.length === 0) return routing;
  return { ...routing, notes: [...document.diagnostics.map((entry) => entry.message), ...routing.notes] };
}
