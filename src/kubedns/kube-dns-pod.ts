import type { KubeDnsDeployment } from './kube-dns-install.js';
import { kubeDnsRules, NEWEST_KUBE_DNS_VERSION, OLDEST_KUBE_DNS_VERSION } from './kube-dns-versions.js';

/**
 * Which program of a kube-dns Pod applied what (docs/kube-dns-deployment.md, "Who applied the
 * ConfigMap"): the one reading of the Deployment that the translator and the kube-dns routing model
 * both follow.
 *
 * - dnsmasq-nanny turns the ConfigMap's stubDomains and upstreamNameservers into dnsmasq flags;
 *   kubedns never applies stubDomains itself (kubernetes/dns `pkg/dns/config`: it only validates
 *   them). A dnsmasq run without the nanny (Kubernetes ≤1.5 manifests), or a Pod without dnsmasq,
 *   applied neither.
 * - kubedns forwards the names it does not serve (reverse lookups of outside addresses, zones
 *   dnsmasq sent it that it has no records for) with its embedded SkyDNS. From kube-dns 1.14.10
 *   (kubernetes/dns commit ac1eec9d, issue #198) SkyDNS takes the ConfigMap's upstreamNameservers
 *   when kubedns reads a ConfigMap (`--config-dir` or `--config-map`), else the Pod's resolv.conf;
 *   before, its `--nameservers` flag, else resolv.conf. It never uses dnsmasq's own `--server`s.
 *
 * Pure: no Node APIs.
 */
export interface KubeDnsPod {
  /** The kube-dns release whose behaviour applies. */
  readonly kubeDnsVersion: string;
  /** Clients reach dnsmasq; false when the Pod has no dnsmasq container (kubedns answers them). */
  readonly throughDnsmasq: boolean;
  /** dnsmasq-nanny applied the ConfigMap's stubDomains and upstreamNameservers. */
  readonly nannyAppliesConfigMap: boolean;
  /** Every name goes to kubedns: no dnsmasq, or dnsmasq with `--no-resolv` and kubedns as its only unqualified server. */
  readonly everyNameToKubeDns: boolean;
  /** Zones (lower case, no trailing dot) dnsmasq sends to kubedns. */
  readonly zonesToKubeDns: ReadonlySet<string>;
  /** Where kubedns forwards the names it does not serve. */
  readonly kubednsUpstreams: KubednsUpstreams;
  /** kubedns's address inside the Pod, as dnsmasq writes it (`127.0.0.1#10053`). */
  readonly kubednsAddress: string;
  /**
   * The Pod's dnsmasq (that of the kube-dns release) also applies a `--server`/`--local`/`--address`
   * to names without a dot when a domain before its last ends in a dot (dnsmasq 2.86+).
   */
  readonly dnsmasqTrailingDotUnqualified: boolean;
  /**
   * The Pod's dnsmasq (2.86+) answers only the query type of an `--address`'s address and looks the
   * zone's other types up further (see `KubeDnsRules.dnsmasqAddressTypesOnly`); before, NODATA.
   */
  readonly dnsmasqAddressTypesOnly: boolean;
}

export type KubednsUpstreams =
  /** The ConfigMap's upstreamNameservers, or the Pod's resolv.conf when there are none. */
  | { readonly kind: 'configmap' }
  /** kubedns's `--nameservers` (`ip[:port]`, as written). */
  | { readonly kind: 'nameservers'; readonly servers: readonly string[] }
  | { readonly kind: 'resolv.conf' };

/** The reverse zones of the stock manifest. */
const REVERSE_ZONES = ['in-addr.arpa', 'ip6.arpa'];

/**
 * The Pod of `deployment` (undefined: the stock manifest of `kubeDnsVersion`, which runs the nanny
 * and sends the cluster domain and the reverse zones to kubedns).
 */
export function kubeDnsPod(deployment: KubeDnsDeployment | undefined, kubeDnsVersion: string, clusterDomain: string): KubeDnsPod {
  const version = kubeDnsRules(kubeDnsVersion).version;
  const configMapUpstreams = kubeDnsRules(version).upstreamsFromConfigMap;
  const { dnsmasqTrailingDotUnqualified, dnsmasqAddressTypesOnly } = kubeDnsRules(version);
  if (deployment === undefined) {
    return {
      kubeDnsVersion: version,
      throughDnsmasq: true,
      nannyAppliesConfigMap: true,
      everyNameToKubeDns: false,
      zonesToKubeDns: new Set([clusterDomain, ...REVERSE_ZONES]),
      kubednsUpstreams: configMapUpstreams ? { kind: 'configmap' } : { kind: 'resolv.conf' },
      kubednsAddress: '127.0.0.1#10053',
      dnsmasqTrailingDotUnqualified,
      dnsmasqAddressTypesOnly,
    };
  }
  const values = deployment.kubedns?.args.values;
  const readsConfigMap = values === undefined || values.configDir !== undefined || values.configMap !== undefined;
  const nameservers = values?.nameservers
    ?.split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const kubednsUpstreams: KubednsUpstreams =
    configMapUpstreams && readsConfigMap
      ? { kind: 'configmap' }
      : nameservers !== undefined && nameservers.length > 0
        ? { kind: 'nameservers', servers: nameservers }
        : { kind: 'resolv.conf' };
  const reading = deployment.dnsmasq;
  if (reading === undefined) {
    return { kubeDnsVersion: version, throughDnsmasq: false, nannyAppliesConfigMap: false, everyNameToKubeDns: true, zonesToKubeDns: new Set(), kubednsUpstreams, kubednsAddress: kubeDnsAddress(deployment), dnsmasqTrailingDotUnqualified, dnsmasqAddressTypesOnly };
  }
  const kubedns = kubeDnsAddress(deployment);
  const zonesToKubeDns = new Set<string>();
  let unqualifiedToKubeDns = false;
  let otherUnqualified = false;
  for (const server of reading.dnsmasq.servers) {
    if (server.target.kind !== 'upstream') continue;
    const toKubeDns = `${server.target.address}#${server.target.port}` === kubedns;
    if (server.domains === undefined) {
      if (toKubeDns) unqualifiedToKubeDns = true;
      else otherUnqualified = true;
      continue;
    }
    if (toKubeDns) for (const domain of server.domains) zonesToKubeDns.add(domain.toLowerCase().replace(/\.$/, ''));
  }
  return {
    kubeDnsVersion: version,
    throughDnsmasq: true,
    nannyAppliesConfigMap: reading.nanny !== undefined,
    everyNameToKubeDns: unqualifiedToKubeDns && reading.dnsmasq.noResolv && !otherUnqualified,
    zonesToKubeDns,
    kubednsUpstreams,
    kubednsAddress: kubedns,
    dnsmasqTrailingDotUnqualified,
    dnsmasqAddressTypesOnly,
  };
}

/** The kubedns address dnsmasq forwards the cluster's zones to (127.0.0.1 and kubedns's `--dns-port`), as dnsmasq writes it. */
function kubeDnsAddress(deployment: KubeDnsDeployment): string {
  return `127.0.0.1#${deployment.kubedns?.args.values.dnsPort ?? 10053}`;
}

/**
 * The kube-dns release the kubedns image's tag names (`…/k8s-dns-kube-dns-amd64:1.14.13`, also
 * digest-pinned `…:1.14.4@sha256:…` and the two-part tags of the images before 1.14,
 * `…/kubedns-amd64:1.9`), as the rules read it: `version` is the release whose rules apply
 * (undefined: none read, the newest applies); `assumed` says what was assumed, when the tag names
 * no release the rules know (docs/kube-dns-deployment.md, "The kube-dns release").
 */
export function kubeDnsReleaseOfImage(image: string | undefined): { readonly version: string | undefined; readonly assumed?: string } {
  if (image === undefined) return { version: undefined };
  const named = image.replace(/@[^@]*$/, '');
  const slash = named.lastIndexOf('/');
  const colon = named.lastIndexOf(':');
  const tag = colon > slash ? named.slice(colon + 1) : undefined;
  const parts = tag === undefined ? undefined : /^v?(\d+)\.(\d+)(?:\.(\d+))?$/.exec(tag);
  const newest = `kube-dns ${NEWEST_KUBE_DNS_VERSION}'s rules assumed (give --kube-dns-version)`;
  if (parts === undefined || parts === null) {
    return { version: undefined, assumed: `the kubedns image '${image}' has ${tag === undefined ? 'no tag' : `tag '${tag}', which names no kube-dns release`}: ${newest}` };
  }
  const version = `${Number(parts[1])}.${Number(parts[2])}.${Number(parts[3] ?? 0)}`;
  try {
    return { version: kubeDnsRules(version).version };
  } catch {
    if (compareVersions(version, OLDEST_KUBE_DNS_VERSION) < 0) {
      return {
        version: OLDEST_KUBE_DNS_VERSION,
        assumed: `the kubedns image's tag '${tag}' names a release before ${OLDEST_KUBE_DNS_VERSION}, the oldest whose rules are known: read with ${OLDEST_KUBE_DNS_VERSION}'s (kubedns before 1.14 had no stubDomains or upstreamNameservers, and its manifests ran dnsmasq without dnsmasq-nanny, so neither reached dnsmasq)`,
      };
    }
    return { version: undefined, assumed: `the kubedns image's tag '${tag}' names a release after ${NEWEST_KUBE_DNS_VERSION}, the newest whose rules are known: ${newest}` };
  }
}

/** The kube-dns release the kubedns image names, when the rules know it or assume one ({@link kubeDnsReleaseOfImage}). */
export function kubeDnsVersionOfImage(image: string | undefined): string | undefined {
  return kubeDnsReleaseOfImage(image).version;
}

function compareVersions(a: string, b: string): number {
  const [left, right] = [a, b].map((text) => text.split('.').map(Number)) as [number[], number[]];
  for (let index = 0; index < 3; index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
