/**
 * The main server block of the default Kubernetes Corefile for each CoreDNS release, as plain
 * data (no Corefile library involved), with placeholders for the cluster domain, the reverse
 * zones and the upstream list.
 *
 * Sources: kubeadm's `CoreDNSConfigMap` templates per Kubernetes release
 * (docs/reference/kubeadm-translation.md §7, "KT §7" below) and the `defaultConf` that
 * corefile-migration's `migration/versions.go` ("CM") records per CoreDNS release with the
 * Kubernetes releases that shipped it (docs/reference/kube-dns-and-coredns.md §2.1). Facts only;
 * the structure is this package's own.
 *
 * "§N" below: section N of docs/reference/kube-dns-and-coredns.md.
 *
 * Pure data and functions: no Node APIs.
 */
import { InternalError } from '../errors/internal-error.js';
import { coreDnsPluginAvailability, isUsable } from './availability.js';
import { isCoreDnsVersionAtLeast, parseCoreDnsVersion } from './versions.js';
import type { CoreDnsVersion } from './versions.js';
import { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';

/** One Corefile directive: `name args… { block… }`. `block` is absent when there is no `{ }`. */
export interface DefaultDirective {
  readonly name: string;
  readonly args: readonly string[];
  readonly block?: readonly DefaultDirective[];
}

/** The values a Kubernetes installer substitutes into its default Corefile. */
export interface KubernetesDefaultParameters {
  /** The cluster domain (kubeadm `networking.dnsDomain`, e.g. `cluster.local`). */
  readonly clusterDomain: string;
  /**
   * The zones the kubernetes plugin serves after the cluster domain. Default `in-addr.arpa ip6.arpa`
   * (kubeadm); coredns/deployment's deploy.sh calls these REVERSE_CIDRS.
   */
  readonly reverseZones?: readonly string[];
  /**
   * The TOs of the root `forward`/`proxy` line: IPs (with optional `:port`) or `/etc/resolv.conf`.
   * 1 to 15 entries: an empty `forward .` stops CoreDNS (§6 rule 4) and more than 15 exceed the
   * TO cap. Checking each entry against the target release (hostnames, `https://`) is the caller's job.
   */
  readonly upstreams: readonly string[];
  /**
   * Override the forwarding plugin of the default. Kubernetes kept `proxy` in its defaults up to
   * CoreDNS 1.3.0 although `forward` is in-tree from 1.0.6; a translator following §6 rule 10
   * passes `coreDnsFeatures(version).preferredForwarder`. Omitted: the default's own plugin.
   */
  readonly forwarder?: 'proxy' | 'forward';
}

/** Names of the distinct default main blocks, after the Kubernetes release whose default each is. */
export const KUBERNETES_DEFAULT_COREFILE_IDS = [
  'k8s-1.10-adapted-no-fallthrough',
  'k8s-1.10-adapted',
  'k8s-1.10',
  'k8s-1.11',
  'k8s-1.11-with-loop',
  'k8s-1.12',
  'k8s-1.15',
  'k8s-1.16',
  'k8s-1.17',
  'k8s-1.19',
] as const;
export type KubernetesDefaultCorefileId = (typeof KUBERNETES_DEFAULT_COREFILE_IDS)[number];

/**
 * How a default relates to what Kubernetes shipped:
 * - `kubernetes`: exactly a Kubernetes default for every CoreDNS release in its range, or the
 *   default of the newest Kubernetes-shipped CoreDNS release before it (an image upgrade keeps
 *   the Corefile);
 * - `migrated`: that default plus the new defaults corefile-migration adds when upgrading to a
 *   release in the range (CM: `loop` at 1.2.1; `ready` at 1.5.0, where it also drops the
 *   ignored `upstream`);
 * - `adapted`: no Kubernetes release shipped a CoreDNS this old; the closest documented default
 *   (Kubernetes 1.10, CoreDNS 1.0.6) with what the release cannot parse changed.
 */
export type KubernetesDefaultBasis = 'kubernetes' | 'migrated' | 'adapted';

/** One distinct default main block and the CoreDNS releases it is the default for. */
export interface KubernetesDefaultCorefile {
  readonly id: KubernetesDefaultCorefileId;
  /** First and last CoreDNS release (inclusive) this block is the default for. */
  readonly from: CoreDnsVersion;
  readonly to: CoreDnsVersion;
  /** Kubernetes minor releases whose kubeadm shipped exactly this block (empty when none did). */
  readonly kubernetesReleases: readonly string[];
  readonly basis: KubernetesDefaultBasis;
  /** What the block is and why it covers its range. */
  readonly description: string;
  readonly evidence: string;
}

/** The CoreDNS release each Kubernetes release deployed by default (kubeadm and kube-up). */
export interface KubernetesCoreDnsRelease {
  /** Kubernetes minor release, e.g. `1.17`. */
  readonly kubernetes: string;
  readonly coredns: CoreDnsVersion;
  readonly evidence: string;
}

const CM_K8S = 'CM `k8sReleases`; §2.1';

/**
 * Kubernetes releases and the CoreDNS they deployed, as far as the evidence goes (Kubernetes 1.10
 * to 1.21). Kubernetes 1.9 offered CoreDNS only behind an alpha feature gate and is left out;
 * releases after 1.21 are not covered by the sources read (see docs/coredns-versions.md).
 */
export const KUBERNETES_COREDNS_RELEASES: readonly KubernetesCoreDnsRelease[] = Object.freeze([
  { kubernetes: '1.10', coredns: '1.0.6', evidence: 'kubeadm `coreDNSVersion = "1.0.6"` replaced by kubernetes/kubernetes#64258 for 1.11' },
  { kubernetes: '1.11', coredns: '1.1.3', evidence: `${CM_K8S}; kubernetes/kubernetes#64258` },
  { kubernetes: '1.12', coredns: '1.2.2', evidence: CM_K8S },
  { kubernetes: '1.13', coredns: '1.2.6', evidence: CM_K8S },
  { kubernetes: '1.14', coredns: '1.3.1', evidence: `${CM_K8S}; kubernetes/kubernetes#73610` },
  { kubernetes: '1.15', coredns: '1.3.1', evidence: `${CM_K8S}; KT §7 (1.5.0 bump #78030 reverted by #78545)` },
  { kubernetes: '1.16', coredns: '1.6.2', evidence: `${CM_K8S}; kubernetes/kubernetes#82127` },
  { kubernetes: '1.17', coredns: '1.6.5', evidence: `${CM_K8S}; kubernetes/kubernetes#85108` },
  { kubernetes: '1.18', coredns: '1.6.7', evidence: CM_K8S },
  { kubernetes: '1.19', coredns: '1.7.0', evidence: `${CM_K8S}; kubernetes/kubernetes#92651` },
  { kubernetes: '1.20', coredns: '1.7.0', evidence: CM_K8S },
  { kubernetes: '1.21', coredns: '1.8.0', evidence: CM_K8S },
] as const satisfies readonly KubernetesCoreDnsRelease[]);

const ADAPTED_FROM =
  'No Kubernetes release shipped this CoreDNS; this is the closest documented default, Kubernetes 1.10 with CoreDNS 1.0.6 (KT §7 profile v1.10),';

/** The distinct default main blocks, oldest first; their ranges cover every known release once. */
export const KUBERNETES_DEFAULT_COREFILES: readonly KubernetesDefaultCorefile[] = Object.freeze([
  {
    id: 'k8s-1.10-adapted-no-fallthrough',
    from: '1.0.0',
    to: '1.0.2',
    kubernetesReleases: [],
    basis: 'adapted',
    description: `${ADAPTED_FROM} with \`upstream\` given the upstream list (a bare \`upstream\` needs 1.0.6) and without \`fallthrough\` (zone arguments need 1.0.3), so reverse lookups outside the cluster get NXDOMAIN`,
    evidence: 'KT §7 profile v1.10; §2.1 (upstream ADDR… required before 1.0.6); notes 1.0.3 (fallthrough zones); coredns/deployment 1.0.x template used `upstream /etc/resolv.conf`',
  },
  {
    id: 'k8s-1.10-adapted',
    from: '1.0.3',
    to: '1.0.5',
    kubernetesReleases: [],
    basis: 'adapted',
    description: `${ADAPTED_FROM} with \`upstream\` given the upstream list (a bare \`upstream\` needs 1.0.6)`,
    evidence: 'KT §7 profile v1.10; §2.1 (upstream ADDR… required before 1.0.6); coredns/deployment 1.0.x template used `upstream /etc/resolv.conf`',
  },
  {
    id: 'k8s-1.10',
    from: '1.0.6',
    to: '1.1.2',
    kubernetesReleases: ['1.10'],
    basis: 'kubernetes',
    description: 'Kubernetes 1.10 (CoreDNS 1.0.6): errors, health, kubernetes { pods insecure, upstream, fallthrough }, prometheus, proxy, cache 30',
    evidence: 'KT §7 profile v1.10',
  },
  {
    id: 'k8s-1.11',
    from: '1.1.3',
    to: '1.2.0',
    kubernetesReleases: ['1.11'],
    basis: 'kubernetes',
    description: 'Kubernetes 1.11 (CoreDNS 1.1.3): the 1.10 block plus reload',
    evidence: 'KT §7 profile v1.11; CM defaultConf 1.1.3',
  },
  {
    id: 'k8s-1.11-with-loop',
    from: '1.2.1',
    to: '1.2.1',
    kubernetesReleases: [],
    basis: 'migrated',
    description: 'the Kubernetes 1.11 block plus loop, the new default corefile-migration adds at 1.2.1',
    evidence: 'KT §7 profile v1.11; CM 1.2.1 (`loop` new default for blocks with forward/proxy)',
  },
  {
    id: 'k8s-1.12',
    from: '1.2.2',
    to: '1.3.0',
    kubernetesReleases: ['1.12', '1.13'],
    basis: 'kubernetes',
    description: 'Kubernetes 1.12 (CoreDNS 1.2.2) and 1.13 (CoreDNS 1.2.6): the 1.11 block plus loop and loadbalance',
    evidence: 'KT §7 profile v1.12; CM defaultConf 1.2.2 and 1.2.6',
  },
  {
    id: 'k8s-1.15',
    from: '1.3.1',
    to: '1.4.0',
    kubernetesReleases: ['1.15'],
    basis: 'kubernetes',
    description:
      'Kubernetes 1.15 (CoreDNS 1.3.1): forward instead of proxy, kubernetes ttl 30 (Kubernetes 1.14 shipped the same CoreDNS with this block minus `ttl 30`; corefile-migration records the 1.15 form); the deprecated `upstream` is kept on 1.4.0 as kubeadm did',
    evidence: 'KT §7 profiles v1.14, v1.15; CM defaultConf 1.3.1 (corefile-migration#19 adds ttl)',
  },
  {
    id: 'k8s-1.16',
    from: '1.5.0',
    to: '1.6.4',
    kubernetesReleases: ['1.16'],
    basis: 'migrated',
    description:
      'Kubernetes 1.16 (CoreDNS 1.6.2): ready added, upstream dropped. From 1.5.0 to 1.6.1 this equals the 1.15 block as corefile-migration upgrades it (ready is a new default at 1.5.0, the ignored upstream is removed)',
    evidence: 'KT §7 profile v1.16; CM defaultConf 1.6.2, CM 1.5.0 (ready new default; upstream ignored)',
  },
  {
    id: 'k8s-1.17',
    from: '1.6.5',
    to: '1.6.9',
    kubernetesReleases: ['1.17', '1.18'],
    basis: 'kubernetes',
    description: 'Kubernetes 1.17 (CoreDNS 1.6.5) and 1.18 (CoreDNS 1.6.7): health { lameduck 5s }',
    evidence: 'KT §7 profile v1.17; CM defaultConf 1.6.5 and 1.6.7; kubernetes/kubernetes#85108',
  },
  {
    id: 'k8s-1.19',
    from: '1.7.0',
    to: '1.14.7',
    kubernetesReleases: ['1.19', '1.20', '1.21'],
    basis: 'kubernetes',
    description:
      'Kubernetes 1.19 and 1.20 (CoreDNS 1.7.0) and 1.21 (CoreDNS 1.8.0): forward { max_concurrent 1000 }; no later change to the kubeadm template is known',
    evidence: 'KT §7 profile v1.19; CM defaultConf 1.7.0; CM k8sReleases 1.21 → 1.8.0',
  },
] as const satisfies readonly KubernetesDefaultCorefile[]);

/**
 * The distinct default whose range holds `version`.
 *
 * @throws {UnknownCoreDnsVersionError} when `version` is not a known release.
 */
export function kubernetesDefaultCorefileFor(version: string): KubernetesDefaultCorefile {
  const parsed = parseCoreDnsVersion(version);
  const found = KUBERNETES_DEFAULT_COREFILES.find(
    (entry) => isCoreDnsVersionAtLeast(parsed, entry.from) && isCoreDnsVersionAtLeast(entry.to, parsed),
  );
  if (found === undefined) throw new InternalError(`internal: no Kubernetes default covers CoreDNS ${parsed}`);
  return found;
}

/** The main block for one release, with the parameters substituted. */
export interface KubernetesDefaultMainBlock {
  readonly version: CoreDnsVersion;
  readonly source: KubernetesDefaultCorefile;
  /** Server-block keys; every Kubernetes default uses `.:53`. */
  readonly keys: readonly string[];
  readonly directives: readonly DefaultDirective[];
}

/** The zones kubeadm's `kubernetes` line serves after the cluster domain, and its `fallthrough` zones. */
export const KUBERNETES_DEFAULT_REVERSE_ZONES: readonly string[] = Object.freeze(['in-addr.arpa', 'ip6.arpa']);

const MAX_UPSTREAMS = 15;

/** Why {@link kubernetesDefaultMainBlock} refuses its parameters. */
export type KubernetesDefaultParametersErrorCode =
  /** A cluster domain, reverse zone or upstream that cannot be one Corefile word. */
  | 'invalid-word'
  /** No upstreams: an empty `forward`/`proxy` stops CoreDNS. */
  | 'no-upstreams'
  /** More than the 15 upstreams one `forward`/`proxy` line takes. */
  | 'too-many-upstreams'
  /** A forwarder plugin the release does not have. */
  | 'forwarder-unavailable';

/** Parameters {@link kubernetesDefaultMainBlock} cannot build a main block from. */
export class KubernetesDefaultParametersError extends KubeDnsToCoreDnsError {
  override readonly name = 'KubernetesDefaultParametersError';
  readonly category = 'input';
  declare readonly code: KubernetesDefaultParametersErrorCode;

  constructor(code: KubernetesDefaultParametersErrorCode, reason: string) {
    super(code, reason);
  }
}

function checkToken(value: string, what: string): void {
  if (value.length === 0 || /[\s{}"#;]/.test(value)) {
    throw new KubernetesDefaultParametersError('invalid-word', `${what} must be a non-empty Corefile word without whitespace, braces, quotes, '#' or ';': ${JSON.stringify(value)}`);
  }
}

/** What the block of each distinct default is made of. */
interface Shape {
  readonly upstream: 'none' | 'bare' | 'addresses';
  readonly fallthrough: boolean;
  readonly ttl: boolean;
  readonly reload: boolean;
  readonly loop: boolean;
  readonly loadbalance: boolean;
  readonly ready: boolean;
  readonly lameduck: boolean;
  readonly forwarder: 'proxy' | 'forward';
  readonly maxConcurrent: boolean;
}

const K110: Shape = {
  upstream: 'bare',
  fallthrough: true,
  ttl: false,
  reload: false,
  loop: false,
  loadbalance: false,
  ready: false,
  lameduck: false,
  forwarder: 'proxy',
  maxConcurrent: false,
};
const K111: Shape = { ...K110, reload: true };
const K112: Shape = { ...K111, loop: true, loadbalance: true };
const K115: Shape = { ...K112, forwarder: 'forward', ttl: true };
const K116: Shape = { ...K115, upstream: 'none', ready: true };
const K117: Shape = { ...K116, lameduck: true };

const SHAPES: Readonly<Record<KubernetesDefaultCorefileId, Shape>> = {
  'k8s-1.10-adapted-no-fallthrough': { ...K110, upstream: 'addresses', fallthrough: false },
  'k8s-1.10-adapted': { ...K110, upstream: 'addresses' },
  'k8s-1.10': K110,
  'k8s-1.11': K111,
  'k8s-1.11-with-loop': { ...K111, loop: true },
  'k8s-1.12': K112,
  'k8s-1.15': K115,
  'k8s-1.16': K116,
  'k8s-1.17': K117,
  'k8s-1.19': { ...K117, maxConcurrent: true },
};

function directive(name: string, args: readonly string[] = [], block?: readonly DefaultDirective[]): DefaultDirective {
  const copied = [...args];
  return block === undefined ? { name, args: copied } : { name, args: copied, block };
}

/**
 * The default Kubernetes main block for CoreDNS `version`, in kubeadm's directive order:
 * errors, health, ready, kubernetes, prometheus, forward/proxy, cache, loop, reload, loadbalance
 * (order inside a block does not change behaviour: plugins run in plugin.cfg order, §2.9).
 *
 * @throws {UnknownCoreDnsVersionError} when `version` is not a known release.
 * @throws {KubernetesDefaultParametersError} for an empty cluster domain, 0 or more than 15
 *   upstreams, a value that cannot be a single Corefile word, or a `forwarder` the release does not have.
 */
export function kubernetesDefaultMainBlock(version: string, parameters: KubernetesDefaultParameters): KubernetesDefaultMainBlock {
  const parsed = parseCoreDnsVersion(version);
  const { clusterDomain, upstreams } = parameters;
  const reverseZones = parameters.reverseZones ?? KUBERNETES_DEFAULT_REVERSE_ZONES;
  checkToken(clusterDomain, 'clusterDomain');
  reverseZones.forEach((zone) => checkToken(zone, 'reverseZones entry'));
  if (upstreams.length === 0) throw new KubernetesDefaultParametersError('no-upstreams', 'upstreams must not be empty: an empty forward/proxy stops CoreDNS; use /etc/resolv.conf');
  if (upstreams.length > MAX_UPSTREAMS) throw new KubernetesDefaultParametersError('too-many-upstreams', `at most ${MAX_UPSTREAMS} upstreams are allowed, got ${upstreams.length}`);
  upstreams.forEach((upstream) => checkToken(upstream, 'upstreams entry'));

  const source = kubernetesDefaultCorefileFor(parsed);
  const shape = SHAPES[source.id];
  const forwarder = parameters.forwarder ?? shape.forwarder;
  const forwarderAvailability = coreDnsPluginAvailability(forwarder, parsed);
  if (!isUsable(forwarderAvailability)) {
    throw new KubernetesDefaultParametersError('forwarder-unavailable', `CoreDNS ${parsed} has no ${forwarder} plugin (${forwarderAvailability.status})`);
  }

  const kubernetesBlock: DefaultDirective[] = [directive('pods', ['insecure'])];
  if (shape.upstream === 'bare') kubernetesBlock.push(directive('upstream'));
  if (shape.upstream === 'addresses') kubernetesBlock.push(directive('upstream', upstreams));
  if (shape.fallthrough) kubernetesBlock.push(directive('fallthrough', KUBERNETES_DEFAULT_REVERSE_ZONES));
  if (shape.ttl) kubernetesBlock.push(directive('ttl', ['30']));

  const directives: DefaultDirective[] = [directive('errors')];
  directives.push(shape.lameduck ? directive('health', [], [directive('lameduck', ['5s'])]) : directive('health'));
  if (shape.ready) directives.push(directive('ready'));
  directives.push(directive('kubernetes', [clusterDomain, ...reverseZones], kubernetesBlock));
  directives.push(directive('prometheus', [':9153']));
  const forwarderArgs = ['.', ...upstreams];
  directives.push(
    shape.maxConcurrent
      ? directive(forwarder, forwarderArgs, [directive('max_concurrent', ['1000'])])
      : directive(forwarder, forwarderArgs),
  );
  directives.push(directive('cache', ['30']));
  if (shape.loop) directives.push(directive('loop'));
  if (shape.reload) directives.push(directive('reload'));
  if (shape.loadbalance) directives.push(directive('loadbalance'));

  return { version: parsed, source, keys: ['.:53'], directives };
}
