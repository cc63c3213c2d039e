/**
 * The translator's second stage: the options, validated and resolved once into the plan input
 * every later stage reads (docs/architecture.md, "The translator"). Nothing after this stage looks
 * at {@link TranslateOptions} again.
 */
import { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';
import { isDns1123Subdomain, parseGoIP } from '../dns/go-net.js';
import { DEFAULT_CLUSTER_DOMAIN } from '../dns/zones.js';
import { coreDnsFeatures } from '../coredns/features.js';
import type { CoreDnsFeatures } from '../coredns/features.js';
import { coreDnsReleaseOf } from '../coredns/resolve-release.js';
import type { CoreDnsReleaseInput, ResolvedCoreDnsRelease } from '../coredns/resolve-release.js';
import { NEWEST_COREDNS_VERSION } from '../coredns/versions.js';
import { kubeDnsReleaseOfImage } from '../kubedns/kube-dns-pod.js';
import type { KubeDnsInstall } from '../kubedns/kube-dns-install.js';
import type { KubeDnsQuirk } from '../kubedns/kube-dns-quirks.js';
import { kubeDnsRules } from '../kubedns/kube-dns-versions.js';
import type { KubeDnsRules } from '../kubedns/kube-dns-versions.js';

/** The options of {@link translateKubeDns} and {@link translateKubeDnsInstall}. */
export interface TranslateOptions {
  /**
   * Target CoreDNS release (default: the newest the package knows), in the grammar `migrate` reads
   * (`1.8.7`, `v1.8.7-eksbuild.3`, an image reference, newer than known: see
   * {@link resolveCoreDnsRelease}), or a release it resolved. How the text was read is reported as
   * `release-resolved` and `release-assumed` diagnostics.
   */
  readonly coredns?: CoreDnsReleaseInput;
  /** The cluster domain (default `cluster.local`). */
  readonly clusterDomain?: string;
  /** The kube-dns version whose validation rules apply (default: the newest known). */
  readonly kubeDnsVersion?: string;
  /** Translate without the federations when the target has no federation plugin. */
  readonly dropFederations?: boolean;
  /** Translate a ConfigMap kube-dns itself rejected (its errors become warnings). */
  readonly force?: boolean;
  /** The cluster DNS Service IP; a nameserver equal to it is refused (CoreDNS would query itself). */
  readonly clusterDnsIp?: string;
  /**
   * kube-dns quirks to repair instead of keeping ({@link KubeDnsQuirk}; docs/kube-dns-deployment.md,
   * "Quirks the default keeps"). Each changes where some names go on purpose; `check` given the
   * same repairs reports those names as expected.
   */
  readonly repair?: readonly KubeDnsQuirk[];
}

/** Options that make no sense at all (as opposed to data problems, which are diagnostics). */
export class TranslateOptionsError extends KubeDnsToCoreDnsError {
  override readonly name = 'TranslateOptionsError';
  readonly category = 'input';
  declare readonly code: TranslateOptionsErrorCode;

  constructor(code: TranslateOptionsErrorCode, message: string) {
    super(code, message);
  }
}

/** Which option of {@link translateKubeDns} makes no sense. */
export type TranslateOptionsErrorCode = 'invalid-cluster-domain' | 'invalid-cluster-dns-ip';

/** The options resolved: what every stage of the translation reads. */
export interface TranslateInput {
  /** The target release as read (its `release-resolved` / `release-assumed` notices). */
  readonly release: ResolvedCoreDnsRelease;
  readonly features: CoreDnsFeatures;
  /** The cluster domain in normal form: the option's, else the default. */
  readonly clusterDomain: string;
  /** The cluster domain option as given; undefined when not given. */
  readonly clusterDomainOption: string | undefined;
  /** The option's, else (an install) the kube-dns Service's cluster IP. */
  readonly clusterDnsIp: string | undefined;
  /** The kube-dns rules that apply: the option's release, the kubedns image's tag, or the newest. */
  readonly kubeDnsRules: KubeDnsRules;
  /** The release text the rules were read from (the ConfigMap reader reads it the same way); undefined: the newest. */
  readonly kubeDnsVersion: string | undefined;
  /** Set when the release is the kubedns image's tag (no kubeDnsVersion option): the plan says so. */
  readonly kubeDnsVersionFromImage: string | undefined;
  /** What was assumed of the release when the kubedns image's tag names none the rules know (`kube-dns-release-assumed`). */
  readonly kubeDnsVersionAssumed?: string;
  readonly dropFederations: boolean;
  readonly force: boolean;
  readonly repairs: ReadonlySet<KubeDnsQuirk>;
}

/**
 * The options checked (a cluster domain that is no DNS-1123 subdomain, a cluster DNS IP that is no
 * IP, an unknown release) and resolved. A caller translating many inputs with the same options
 * (`--batch`) resolves them once, first.
 *
 * @throws {TranslateOptionsError} and the release readers' errors
 */
export function resolveTranslateOptions(options: TranslateOptions): TranslateInput {
  const release = coreDnsReleaseOf(options.coredns ?? NEWEST_COREDNS_VERSION);
  const clusterDomain = checkClusterDomain(options.clusterDomain ?? DEFAULT_CLUSTER_DOMAIN);
  if (options.clusterDnsIp !== undefined) checkClusterDnsIp(options.clusterDnsIp);
  return {
    release,
    features: coreDnsFeatures(release.version),
    clusterDomain,
    clusterDomainOption: options.clusterDomain,
    clusterDnsIp: options.clusterDnsIp,
    kubeDnsRules: kubeDnsRules(options.kubeDnsVersion),
    kubeDnsVersion: options.kubeDnsVersion,
    kubeDnsVersionFromImage: undefined,
    dropFederations: options.dropFederations === true,
    force: options.force === true,
    repairs: new Set(options.repair ?? []),
  };
}

/**
 * `input` with what the install says where the options did not: the kube-dns Service's cluster IP
 * and the release of the kubedns image's tag (`kubeDnsVersionGiven`: the option named one).
 */
export function withInstallFacts(input: TranslateInput, install: KubeDnsInstall, kubeDnsVersionGiven: boolean): TranslateInput {
  const serviceIp = input.clusterDnsIp === undefined ? install.service?.clusterIP : undefined;
  if (serviceIp !== undefined) checkClusterDnsIp(serviceIp);
  const image = kubeDnsVersionGiven ? { version: undefined } : kubeDnsReleaseOfImage(install.deployment?.kubedns?.image);
  const imageVersion = image.version;
  if (serviceIp === undefined && imageVersion === undefined && image.assumed === undefined) return input;
  return {
    ...input,
    ...(serviceIp === undefined ? {} : { clusterDnsIp: serviceIp }),
    ...(image.assumed === undefined ? {} : { kubeDnsVersionAssumed: image.assumed }),
    ...(imageVersion === undefined ? {} : { kubeDnsRules: kubeDnsRules(imageVersion), kubeDnsVersion: imageVersion, kubeDnsVersionFromImage: imageVersion }),
  };
}

function checkClusterDnsIp(ip: string): void {
  if (parseGoIP(ip) === undefined) throw new TranslateOptionsError('invalid-cluster-dns-ip', `cluster DNS IP '${ip}' is not an IP address`);
}

function checkClusterDomain(domain: string): string {
  const normalized = domain.endsWith('.') ? domain.slice(0, -1).toLowerCase() : domain.toLowerCase();
  if (!isDns1123Subdomain(normalized)) throw new TranslateOptionsError('invalid-cluster-domain', `cluster domain '${domain}' is not a DNS-1123 subdomain`);
  return normalized;
}
