import type { KubeDnsQuirk } from '../../kubedns/kube-dns-quirks.js';
import type { PlatformBase } from '../../platform/bases.js';
import type { ResolvedCoreDnsRelease } from '../../coredns/resolve-release.js';

/** The parsed command line of the translation, shared by the default translator and `--kubeadm`. */
export interface TranslateArguments {
  readonly file: string | undefined;
  readonly name: string | undefined;
  readonly batch: boolean;
  /** `--cluster-domain` or its alias `--dns-domain`, as written. */
  readonly clusterDomain: string | undefined;
  /** `--coredns`, resolved. */
  readonly coredns: ResolvedCoreDnsRelease | undefined;
  readonly output: 'corefile' | 'configmap' | 'json' | 'coredns-custom' | 'eks-addon' | 'helm-values' | 'install';
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
  /** `--repair QUIRK[,QUIRK]`, checked. */
  readonly repair: readonly KubeDnsQuirk[] | undefined;
  /** `--platform P` for `-o coredns-custom`: the base the overlay is written for. */
  readonly platform: PlatformBase | undefined;
  /** `--image REF` of `-o install`: the CoreDNS image to run. */
  readonly image?: string | undefined;
}
