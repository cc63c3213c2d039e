/**
 * The base Corefile of NodeLocal DNSCache as Kubernetes ships it: the `Corefile` key of the
 * `node-local-dns` ConfigMap in kubernetes/kubernetes `cluster/addons/dns/nodelocaldns/nodelocaldns.yaml`,
 * `__PILLAR__…__` variables and all, per node-cache release (docs/node-local-dns.md, "The bundled
 * template", says which text goes with which release and why).
 */

import { checkArgument, checkOptions, InvalidArgumentError } from '../errors/arguments.js';
import { isDns1123Subdomain, parseGoIP } from '../dns/go-net.js';
import { compareNodeCacheReleases, nodeCacheProfile } from './node-cache-releases.js';

/** Which of the two texts of the manifest a release is paired with. */
export type NodeLocalDnsTemplateId = 'upstream-force-tcp' | 'upstream-udp';

/** One block of the template, as the manifest writes it (4-space indent, closing brace indented too). */
function block(key: string, cache: readonly string[], forward: readonly string[], health: boolean): string {
  return [
    `${key}:53 {`,
    '    errors',
    ...cache,
    '    reload',
    '    loop',
    '    bind __PILLAR__LOCAL__DNS__ __PILLAR__DNS__SERVER__',
    ...forward,
    '    prometheus :9253',
    ...(health ? ['    health __PILLAR__LOCAL__DNS__:8080'] : []),
    '    }',
  ].join('\n');
}

const CLUSTER_CACHE = ['    cache {', '            success 9984 30', '            denial 9984 5', '    }'];
const SMALL_CACHE = ['    cache 30'];
const TO_CLUSTER = ['    forward . __PILLAR__CLUSTER__DNS__ {', '            force_tcp', '    }'];

function template(upstream: readonly string[]): string {
  return `${[
    block('__PILLAR__DNS__DOMAIN__', CLUSTER_CACHE, TO_CLUSTER, true),
    block('in-addr.arpa', SMALL_CACHE, TO_CLUSTER, false),
    block('ip6.arpa', SMALL_CACHE, TO_CLUSTER, false),
    block('.', SMALL_CACHE, upstream, false),
  ].join('\n')}\n`;
}

/** The texts, by id: the root block forwards upstream over TCP (`force_tcp`), or plainly. */
export const NODE_LOCAL_DNS_TEMPLATES: Readonly<Record<NodeLocalDnsTemplateId, string>> = {
  'upstream-force-tcp': template(['    forward . __PILLAR__UPSTREAM__SERVERS__ {', '            force_tcp', '    }']),
  'upstream-udp': template(['    forward . __PILLAR__UPSTREAM__SERVERS__']),
};

/** The first node-cache release paired with the text whose root block forwards without `force_tcp`. */
const UDP_TEMPLATE_FROM = '1.15.14';

/** The id of the template text paired with node-cache `release` (throws `UnsupportedNodeCacheReleaseError` like {@link nodeCacheProfile}). */
export function nodeLocalDnsTemplateId(release: string): NodeLocalDnsTemplateId {
  checkArgument('nodeLocalDnsTemplateId', 'release', release, 'string');
  const profile = nodeCacheProfile(release);
  return compareNodeCacheReleases(profile.release, UDP_TEMPLATE_FROM) >= 0 ? 'upstream-udp' : 'upstream-force-tcp';
}

/** How the installer fills the template in before node-cache reads it (docs/node-local-dns.md). */
export interface NodeLocalDnsInstall {
  /** `__PILLAR__DNS__DOMAIN__`. Default `cluster.local`. */
  readonly clusterDomain?: string;
  /**
   * The `-localip` flag (`169.254.20.10,10.96.0.10`): its first IP replaces `__PILLAR__LOCAL__DNS__`
   * and its second, when there is one, `__PILLAR__DNS__SERVER__` (iptables mode). Without a
   * second IP `__PILLAR__DNS__SERVER__` is left for node-cache (IPVS mode). Absent: both are left.
   */
  readonly localIps?: string;
}

/**
 * The install values are pasted into the Corefile as they are: only a cluster domain and IP
 * addresses, so that no value can add a line, a block or a server block.
 */
function checkInstall(install: NodeLocalDnsInstall): void {
  const domain = install.clusterDomain;
  if (domain !== undefined && !isDns1123Subdomain((domain.endsWith('.') ? domain.slice(0, -1) : domain).toLowerCase())) {
    throw new InvalidArgumentError('invalid-value', 'nodeLocalDnsTemplate', 'install.clusterDomain', `'${domain}' is not a cluster domain (a DNS-1123 subdomain such as cluster.local)`);
  }
  for (const ip of install.localIps?.split(',') ?? []) {
    if (ip !== '' && parseGoIP(ip) === undefined) {
      throw new InvalidArgumentError('invalid-value', 'nodeLocalDnsTemplate', 'install.localIps', `'${ip}' in '${install.localIps ?? ''}' is not an IP address (the -localip flag: IPs separated by commas)`);
    }
  }
}

function fill(text: string, variable: string, value: string): string {
  return text.split(variable).join(value);
}

/**
 * The base Corefile node-cache `release` reads by default: the template text paired with the
 * release, with what the documented install replaces in the ConfigMap filled in (the cluster domain;
 * with `localIps`, the local and kube-dns addresses). `__PILLAR__CLUSTER__DNS__` and
 * `__PILLAR__UPSTREAM__SERVERS__` are left for node-cache.
 */
export function nodeLocalDnsTemplate(release: string, install: NodeLocalDnsInstall = {}): string {
  checkArgument('nodeLocalDnsTemplate', 'release', release, 'string');
  checkOptions('nodeLocalDnsTemplate', 'install', install, { clusterDomain: 'string?', localIps: 'string?' });
  checkInstall(install);
  let text = fill(NODE_LOCAL_DNS_TEMPLATES[nodeLocalDnsTemplateId(release)], '__PILLAR__DNS__DOMAIN__', install.clusterDomain ?? 'cluster.local');
  if (install.localIps !== undefined) {
    const [local, kubeDns] = install.localIps.split(',');
    if (local !== undefined && local !== '') {
      // The install instructions (Kubernetes documentation, "Using NodeLocal DNSCache", since
      // kubernetes/website#24957) put an IPv6 address in brackets where a port follows it (`health`).
      if (local.includes(':')) text = fill(text, '__PILLAR__LOCAL__DNS__:', `[${local}]:`);
      text = fill(text, '__PILLAR__LOCAL__DNS__', local);
    }
    if (kubeDns !== undefined && kubeDns !== '') text = fill(text, '__PILLAR__DNS__SERVER__', kubeDns);
  }
  return text;
}
