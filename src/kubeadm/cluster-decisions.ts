import { checkArgument } from '../errors/arguments.js';
import { formatGoIP, parseGoIP } from '../dns/go-net.js';
import { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';
import { kubeadmProfileFor } from './kubernetes-version.js';
import { KUBEADM_PROFILES } from './profiles.js';
import type { KubeadmProfile } from './profiles.js';

/**
 * What kubeadm decided around the translation (docs/reference/kubeadm-translation.md §3),
 * as pure functions over data migration tooling already has: which DNS add-on runs, which IP the
 * cluster DNS Service gets, and what happens to an existing CoreDNS ConfigMap.
 */

/** A problem with the cluster data handed to these functions. */
export class ClusterDataError extends KubeDnsToCoreDnsError {
  override readonly name = 'ClusterDataError';
  readonly category = 'input';
  declare readonly code: ClusterDataErrorCode;

  /** `message` is kubeadm's wording. */
  constructor(code: ClusterDataErrorCode, message: string) {
    super(code, message);
  }
}

export type ClusterDataErrorCode =
  /** More than one Deployment carries the DNS add-on label. */
  | 'multiple-dns-addons'
  /** The DNS add-on Deployment has no container image. */
  | 'no-container-image'
  /** The service subnet is not a CIDR. */
  | 'invalid-service-subnet'
  /** The service subnet has no tenth address. */
  | 'service-subnet-too-small';

/** The label kubeadm listed DNS Deployments by, for both add-ons. */
const DNS_ADDON_LABEL = { key: 'k8s-app', value: 'kube-dns' } as const;
const KUBE_DNS_DEPLOYMENT_NAME = 'kube-dns';

export type DnsAddon =
  | { readonly kind: 'none' }
  | {
      readonly kind: 'kube-dns' | 'coredns';
      readonly deployment: string;
      /** Text after the last `:` of the first container's image, as kubeadm took it. */
      readonly version: string;
    };

/** The parts of an apps/v1 Deployment (as `kubectl get -o json` prints it) that matter here. */
export interface DeploymentLike {
  readonly metadata?: { readonly name?: string; readonly labels?: Readonly<Record<string, string>> };
  readonly spec?: { readonly template?: { readonly spec?: { readonly containers?: readonly { readonly image?: string }[] } } };
}

/**
 * kubeadm's `DeployedDNSAddon`: among the Deployments labelled `k8s-app=kube-dns` (others are
 * ignored), none → no add-on; one → kube-dns when it is named `kube-dns`, otherwise CoreDNS, with
 * the version cut from its first container image after the LAST colon (so an image without a tag
 * on a registry with a port yields e.g. `5000/coredns`, as it did in kubeadm); several → error.
 */
export function detectDnsAddon(deployments: readonly DeploymentLike[]): DnsAddon {
  checkArgument('detectDnsAddon', 'deployments', deployments, 'array');
  const labelled = deployments.filter((deployment) => deployment.metadata?.labels?.[DNS_ADDON_LABEL.key] === DNS_ADDON_LABEL.value);
  const [only] = labelled;
  if (only === undefined) return { kind: 'none' };
  if (labelled.length > 1) {
    const names = labelled.map((deployment) => deployment.metadata?.name ?? '(unnamed)').join(', ');
    throw new ClusterDataError('multiple-dns-addons', `multiple DNS addon deployments found: ${names}`);
  }
  const name = only.metadata?.name ?? '';
  const image = only.spec?.template?.spec?.containers?.[0]?.image;
  if (image === undefined) throw new ClusterDataError('no-container-image', `DNS addon deployment '${name}' has no container image`);
  const parts = image.split(':');
  return { kind: name === KUBE_DNS_DEPLOYMENT_NAME ? 'kube-dns' : 'coredns', deployment: name, version: parts[parts.length - 1] ?? '' };
}

/** kubeadm gave the cluster DNS Service this address of the service subnet (counting from 0). */
const DNS_SERVICE_IP_INDEX = 10n;

/**
 * kubeadm's `GetDNSIP`: the 10th address after the network address of the first service subnet
 * (`10.96.0.0/12` → `10.96.0.10`, `fd00::/108` → `fd00::a`). Throws {@link ClusterDataError} for
 * a subnet that does not parse or is too small.
 */
export function kubeadmDnsServiceIp(serviceSubnets: string): string {
  checkArgument('kubeadmDnsServiceIp', 'serviceSubnets', serviceSubnets, 'string');
  const first = serviceSubnets.split(',')[0]?.trim() ?? '';
  const slash = first.indexOf('/');
  const bytes = slash < 0 ? undefined : parseGoIP(first.slice(0, slash));
  const prefixText = first.slice(slash + 1);
  const prefix = /^[0-9]{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
  // A dotted-quad address is IPv4 even though Go stores it in 16 bytes.
  const bits = bytes?.length === 4 ? 32 : 128;
  if (bytes === undefined || !(prefix >= 0 && prefix <= bits)) {
    throw new ClusterDataError('invalid-service-subnet', `couldn't parse service subnet CIDR "${first}"`);
  }
  const address = bytes.reduce((value, byte) => (value << 8n) | BigInt(byte), 0n);
  const hostBits = BigInt(bits - prefix);
  const network = (address >> hostBits) << hostBits;
  if (DNS_SERVICE_IP_INDEX >= 1n << hostBits) {
    throw new ClusterDataError('service-subnet-too-small', `unable to get tenth IP address from service subnet CIDR ${first}: the subnet is too small`);
  }
  const ip = network + DNS_SERVICE_IP_INDEX;
  const byteCount = bits / 8;
  return formatGoIP(Array.from({ length: byteCount }, (_, index) => Number((ip >> BigInt((byteCount - 1 - index) * 8)) & 0xffn)));
}

export type CoreDnsConfigMapAction =
  /** No CoreDNS ConfigMap yet: kubeadm creates it from the translation. */
  | 'create'
  /** kubeadm overwrites the existing ConfigMap with the translation. */
  | 'update'
  /** The existing ConfigMap wins; the translation is discarded. */
  | 'retain'
  /** kubeadm keeps the existing Corefile and runs corefile-migration on it; the translation is discarded. */
  | 'migrate';

export interface ConfigMapDecision {
  readonly action: CoreDnsConfigMapAction;
  readonly reason: string;
}

/**
 * What kubeadm of `kubernetesVersion` did when it found `existingCorefile` in the
 * `kube-system/coredns` ConfigMap (`undefined`: no such ConfigMap): v1.10 created or updated;
 * v1.11–v1.15 created or retained; v1.16+ updated an empty Corefile or a known default and handed
 * any other to corefile-migration.
 *
 * "Known default" is approximated by the Corefiles kubeadm itself shipped (every profile's template
 * with any cluster domain and any upstream list, no stub domains); corefile-migration's own list
 * also holds defaults of CoreDNS releases kubeadm never installed.
 */
export function kubeadmConfigMapDecision(kubernetesVersion: string | KubeadmProfile, existingCorefile: string | undefined): ConfigMapDecision {
  checkArgument('kubeadmConfigMapDecision', 'kubernetesVersion', kubernetesVersion, 'string|object');
  checkArgument('kubeadmConfigMapDecision', 'existingCorefile', existingCorefile, 'string?');
  const profile = typeof kubernetesVersion === 'string' ? kubeadmProfileFor(kubernetesVersion) : kubernetesVersion;
  if (existingCorefile === undefined) return { action: 'create', reason: 'there is no CoreDNS ConfigMap yet' };
  if (profile.id === 'v1.10') return { action: 'update', reason: 'kubeadm v1.10 created or updated the ConfigMap' };
  if (['v1.11', 'v1.12', 'v1.14', 'v1.15'].includes(profile.id)) {
    return { action: 'retain', reason: `kubeadm ${profile.id} kept an existing CoreDNS ConfigMap (create or retain)` };
  }
  if (existingCorefile.trim() === '') return { action: 'update', reason: 'the existing Corefile is empty' };
  if (isKubeadmDefaultCorefile(existingCorefile)) return { action: 'update', reason: 'the existing Corefile is a default kubeadm shipped' };
  return { action: 'migrate', reason: 'the existing Corefile is customised, so kubeadm migrated it with corefile-migration' };
}

/** Lines of tokens, ignoring indentation, blank lines and comments. */
function tokenLines(corefile: string): string[][] {
  return corefile
    .split(/\r?\n/)
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line !== '')
    .map((line) => line.split(/[ \t]+/));
}

/** `*` in a pattern stands for one token, `***` for the rest of the line. */
function matchesPattern(pattern: readonly string[][], lines: readonly string[][]): boolean {
  if (pattern.length !== lines.length) return false;
  return pattern.every((tokens, index) => {
    const line = lines[index] ?? [];
    const rest = tokens.indexOf('***');
    const fixed = rest < 0 ? tokens : tokens.slice(0, rest);
    if (rest < 0 ? line.length !== fixed.length : line.length < fixed.length) return false;
    return fixed.every((token, position) => token === '*' || token === line[position]);
  });
}

const profilePatterns = new Map<KubeadmProfile, string[][]>();

/** The token lines of `profile`'s default Corefile, placeholders as wildcards. */
function kubeadmDefaultPattern(profile: KubeadmProfile): string[][] {
  let pattern = profilePatterns.get(profile);
  if (pattern === undefined) {
    const block = profile.manifestTemplate
      .slice(profile.manifestTemplate.indexOf('    .:53 {'))
      .replace('{{ .DNSDomain }} in-addr.arpa ip6.arpa', '* ***')
      .replace('{{ .UpstreamNameserver }} {', '*** {')
      .replace('{{ .UpstreamNameserver }}', '***')
      .replace(/\{\{ \.\w+ \}\}/g, '');
    pattern = tokenLines(block);
    profilePatterns.set(profile, pattern);
  }
  return pattern;
}

/** Whether `corefile` is, token for token, a Corefile kubeadm installed by default. */
export function isKubeadmDefaultCorefile(corefile: string): boolean {
  const lines = tokenLines(corefile);
  return Object.values(KUBEADM_PROFILES).some((profile) => matchesPattern(kubeadmDefaultPattern(profile), lines));
}

/**
 * Whether `corefile` is, token for token, the default Corefile kubeadm of `kubernetesVersion`
 * (`1.18`, `v1.18.6`, a profile name) installed (any cluster domain, any upstream list).
 *
 * @throws {UnsupportedKubernetesVersionError} outside Kubernetes 1.10–1.20.
 */
export function isKubeadmDefaultCorefileFor(corefile: string, kubernetesVersion: string): boolean {
  checkArgument('isKubeadmDefaultCorefileFor', 'corefile', corefile, 'string');
  checkArgument('isKubeadmDefaultCorefileFor', 'kubernetesVersion', kubernetesVersion, 'string');
  return matchesPattern(kubeadmDefaultPattern(kubeadmProfileFor(kubernetesVersion)), tokenLines(corefile));
}
