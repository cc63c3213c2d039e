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
 * - `raced-default-servers`: a Pod whose dnsmasq sends every name to kubedns through its default
 *   server (`--no-resolv --server=127.0.0.1#10053`) while dnsmasq-nanny adds the ConfigMap's
 *   upstreamNameservers as more default `--server`s: dnsmasq (2.90 `forward.c`) asks all of them
 *   on the first query, every 50 queries and every 20 s, and in between only the one that answered
 *   first, so every name no more specific domain holds (the cluster's too) went to kubedns or
 *   straight to the upstreams, whichever had been faster. No Corefile races like that: kept, the
 *   translation is refused; repaired, every such name goes to kubedns as the manifest meant. Not a
 *   quirk with `--strict-order`: dnsmasq then asks the default servers in order, kubedns first.
 *   Names without a dot of a `--server=//IP` are no quirk either (written for them), but no Corefile
 *   can route them apart: `check` lists them as expected.
 *
 * Pure: no Node APIs.
 */
export const KUBE_DNS_QUIRKS = ['unserved-cluster-zones', 'kubedns-upstreams', 'trailing-dot-domains', 'raced-default-servers'] as const;

/** One of {@link KUBE_DNS_QUIRKS}. */
export type KubeDnsQuirk = (typeof KUBE_DNS_QUIRKS)[number];

/** Whether `text` names a quirk. */
export function isKubeDnsQuirk(text: string): text is KubeDnsQuirk {
  return (KUBE_DNS_QUIRKS as readonly string[]).includes(text);
}
