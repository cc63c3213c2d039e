import { checkArgument } from '../errors/arguments.js';
import type { ConfigMapData } from '../configmap/config-map-data.js';
import { decodeKubeadmManifest, renderKubeadmManifest } from './manifest.js';
import { kubeadmProfileFor } from './kubernetes-version.js';
import type { KubeadmProfile } from './profiles.js';
import { KUBEADM_DEFAULT_DNS_DOMAIN, translateKubeadmPieces } from './translate-pieces.js';
import { findUnrequestedContent } from './unrequested-content.js';

export { KUBEADM_DEFAULT_DNS_DOMAIN };

/**
 * What kubeadm stored, or the error it stopped with: the exact shape of the reference corpus
 * (golden/kubeadm-oracle/expected), without the case id, plus `unrequested` (ours, not kubeadm's).
 */
export type KubeadmResult =
  | {
      readonly ok: true;
      readonly corefile: string;
      readonly warnings: readonly string[];
      /**
       * Not kubeadm's: one sentence per server block, plugin or line of the Corefile that the
       * input did not ask for — what kubeadm's unescaped pasting of a value holding a line break,
       * a brace or a quote added (`unrequested-content.ts`). Usually empty.
       */
      readonly unrequested: readonly string[];
    }
  | {
      readonly ok: false;
      /** `translate`: a translate function failed; `decode`: the rendered manifest was not valid YAML. */
      readonly stage: 'translate' | 'decode';
      readonly error: string;
      readonly warnings: readonly string[];
    };

/**
 * Reproduces kubeadm's kube-dns → CoreDNS translation of one release: the `Corefile` it stored in
 * the `kube-system/coredns` ConfigMap, byte for byte, or its error word for word.
 *
 * @param release a Kubernetes version 1.10–1.20 (`1.13`, `v1.18.6`) or a profile; an unsupported
 *   version throws {@link UnsupportedKubernetesVersionError}.
 * @param data the kube-dns ConfigMap's `data`; `null` when there is no kube-dns ConfigMap. A value
 *   that is not a string throws `ConfigMapInputError`.
 * @param dnsDomain kubeadm's `networking.dnsDomain` (not validated, as kubeadm did not here).
 */
export function translateLikeKubeadm(
  release: KubeadmProfile | string,
  data: ConfigMapData | null,
  dnsDomain: string = KUBEADM_DEFAULT_DNS_DOMAIN,
): KubeadmResult {
  checkArgument('translateLikeKubeadm', 'release', release, 'string|object');
  checkArgument('translateLikeKubeadm', 'dnsDomain', dnsDomain, 'string');
  const profile = typeof release === 'string' ? kubeadmProfileFor(release) : release;
  const translated = translateKubeadmPieces(profile, data, dnsDomain);
  if (!translated.ok) return translated;
  const manifest = renderKubeadmManifest(profile, translated.pieces, dnsDomain);
  const decoded = decodeKubeadmManifest(profile, manifest);
  if (!decoded.ok) return { ok: false, stage: 'decode', error: decoded.error, warnings: translated.warnings };
  const unrequested = findUnrequestedContent(profile, translated.request, dnsDomain, decoded.corefile);
  return { ok: true, corefile: decoded.corefile, warnings: translated.warnings, unrequested };
}
