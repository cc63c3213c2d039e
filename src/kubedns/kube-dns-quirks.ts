/**
 * kube-dns behaviours a cluster may have lived with without knowing (docs/kube-dns-deployment.md,
 * "Quirks the default keeps"). The default translation keeps each one, so that every name goes
 * where it went; asking to repair one (`--repair QUIRK`, `TranslateOptions.repair`) changes the
 * Corefile on purpose, and `check` told the same repairs reports those differences as expected.
 *
 * - `unserved-cluster-zones`: a zone of the cluster (the cluster domain, `in-addr.arpa`,
 *   `ip6.arpa`) that the Deployment's dnsmasq did not send to kubedns, so its names went upstream
 *   (kops's manifests sent the typo `in6.arpa` to kubedns instead of `ip6.arpa`). Repaired, the
 *   kubernetes plugin serves it.
 * - `kubedns-upstreams`: the names kubedns forwarded itself (reverse lookups of addresses outside
 *   the cluster, zones dnsmasq sent it that it has no records for) went to kubedns's own resolver —
 *   before kube-dns 1.14.10 the Pod's resolv.conf or `--nameservers`, never upstreamNameservers
 *   (kubernetes/dns#198), and never dnsmasq's own `--server`s. Repaired, they go to the upstreams
 *   of the main block like every other name.
 * - `trailing-dot-domains`: a dnsmasq `--server`, `--local` or `--address` listing several domains
 *   of which one before the last ends in a dot (kubespray's `--local=/internal./local./lc./`): the
 *   dnsmasq of kube-dns 1.22.1 and later (2.86+) applied it to names without a dot as well, which no
 *   zone of their own holds. Kept, the main block answers them the same way (a template matching
 *   names of one label); repaired, they go where every other name goes.
 *
 * Pure: no Node APIs.
 */
export const KUBE_DNS_QUIRKS = ['unserved-cluster-zones', 'kubedns-upstreams', 'trailing-dot-domains'] as const;

/** One of {@link KUBE_DNS_QUIRKS}. */
export type KubeDnsQuirk = (typeof KUBE_DNS_QUIRKS)[number];

/** Whether `text` names a quirk. */
export function isKubeDnsQuirk(text: string): text is KubeDnsQuirk {
  return (KUBE_DNS_QUIRKS as readonly string[]).includes(text);
}
