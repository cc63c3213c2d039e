/**
 * The base Corefiles platforms ship around a `coredns-custom` ConfigMap, as bundled facts: the text
 * each platform's CoreDNS reads before the overlay is imported, where that Corefile lives, and
 * where the ConfigMap is mounted. Sources and dates: docs/platforms.md#the-bundled-bases.
 *
 * Pure: no Node APIs.
 */
import { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';

export type PlatformName = 'aks' | 'k3s' | 'k3s-legacy';

export interface PlatformBase {
  readonly platform: PlatformName;
  /** What the platform is called in messages. */
  readonly title: string;
  /** The base Corefile for `clusterDomain`. */
  corefile(clusterDomain?: string): string;
  /** Directory of the base Corefile (`-conf /etc/coredns/Corefile`). */
  readonly corefileDirectory: string;
  /** Where the `coredns-custom` ConfigMap is mounted. */
  readonly customDirectory: string;
  /** What the platform does with a data key that ends in neither `.server` nor `.override`. */
  readonly otherKeys: string;
  /** Where the facts come from (repository, file, release or date). */
  readonly source: string;
}

/** The AKS default since the 2024-10-25 release (templates for reddog.microsoft.com and internal.cloudapp.net). */
function aksCorefile(clusterDomain = 'cluster.local'): string {
  return `.:53 {
    errors
    ready
    health {
      lameduck 5s
    }
    kubernetes ${clusterDomain} in-addr.arpa ip6.arpa {
      pods insecure
      fallthrough in-addr.arpa ip6.arpa
      ttl 30
    }
    prometheus :9153
    forward . /etc/resolv.conf
    cache 30
    loop
    reload
    loadbalance
    import custom/*.override
    template ANY ANY internal.cloudapp.net {
      match "^(?:[^.]+\\.){4,}internal\\.cloudapp\\.net\\.$"
      rcode NXDOMAIN
      fallthrough
    }
    template ANY ANY reddog.microsoft.com {
      rcode NXDOMAIN
    }
}
import custom/*.server
`;
}

/** k3s's manifests/coredns.yaml; `overrideFirst`: the import of *.override above `forward .` (k3s-io/k3s#12980). */
function k3sCorefile(clusterDomain: string, overrideFirst: boolean): string {
  const forward = '    forward . /etc/resolv.conf\n';
  const override = '    import /etc/coredns/custom/*.override\n';
  return `.:53 {
    errors
    health
    ready
    kubernetes ${clusterDomain} in-addr.arpa ip6.arpa {
      pods insecure
      fallthrough in-addr.arpa ip6.arpa
    }
    hosts /etc/coredns/NodeHosts {
      ttl 60
      reload 15s
      fallthrough
    }
    prometheus :9153
${overrideFirst ? '' : forward}    cache 30
    loop
    reload
    loadbalance
${overrideFirst ? `${override}${forward}` : override}}
import /etc/coredns/custom/*.server
`;
}

export const PLATFORM_BASES: Readonly<Record<PlatformName, PlatformBase>> = {
  aks: {
    platform: 'aks',
    title: 'AKS',
    corefile: aksCorefile,
    corefileDirectory: '/etc/coredns',
    customDirectory: '/etc/coredns/custom',
    otherKeys: 'AKS imports only keys ending in .server or .override; any other key is not read',
    source: 'the AKS default coredns ConfigMap since the AKS release of 2024-10-25 (Azure/AKS CHANGELOG; as printed by kubectl in coredns/coredns#7090)',
  },
  k3s: {
    platform: 'k3s',
    title: 'k3s',
    corefile: (clusterDomain = 'cluster.local') => k3sCorefile(clusterDomain, true),
    corefileDirectory: '/etc/coredns',
    customDirectory: '/etc/coredns/custom',
    otherKeys: 'k3s mounts every key as a file under /etc/coredns/custom, for plugins such as file to read; only *.server and *.override are imported',
    source: 'k3s-io/k3s manifests/coredns.yaml after k3s-io/k3s#12980 (2025-09-29: *.override imported above forward .)',
  },
  'k3s-legacy': {
    platform: 'k3s-legacy',
    title: 'k3s (before k3s-io/k3s#12980)',
    corefile: (clusterDomain = 'cluster.local') => k3sCorefile(clusterDomain, false),
    corefileDirectory: '/etc/coredns',
    customDirectory: '/etc/coredns/custom',
    otherKeys: 'k3s mounts every key as a file under /etc/coredns/custom, for plugins such as file to read; only *.server and *.override are imported',
    source: 'k3s-io/k3s@66c487bd manifests/coredns.yaml (k3s v1.33.4 and earlier: *.override imported after forward .)',
  },
};

export const PLATFORM_NAMES: readonly PlatformName[] = Object.keys(PLATFORM_BASES) as PlatformName[];

/** An unknown `--platform` name. */
class UnknownPlatformError extends KubeDnsToCoreDnsError {
  override readonly name = 'UnknownPlatformError';
  readonly category = 'input';
  declare readonly code: 'unknown-platform';

  constructor(platform: string) {
    super('unknown-platform', `unknown platform '${platform}' (known: ${PLATFORM_NAMES.join(', ')})`);
  }
}

export function platformBase(platform: string): PlatformBase {
  const base = (PLATFORM_BASES as Readonly<Record<string, PlatformBase>>)[platform];
  if (base === undefined || !Object.hasOwn(PLATFORM_BASES, platform)) throw new UnknownPlatformError(platform);
  return base;
}
