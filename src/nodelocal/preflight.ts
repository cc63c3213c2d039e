/**
 * The pre-flight for a kube-dns ConfigMap edit: will node-cache of a release take it, and will the
 * Corefile it writes load in the CoreDNS it embeds? Agrees with {@link translateLikeNodeCache} by
 * construction: it is that call, with the bundled template unless a base is given.
 *
 * Pure: no Node APIs.
 */

import { checkArgument } from '../errors/arguments.js';
import type { ConfigMapData } from '../configmap/config-map-data.js';
import { CorefileSyntaxError } from '../corefile/errors.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { lintCorefile } from '../lint/lint.js';
import { nodeLocalDnsTemplate } from './node-local-dns-template.js';
import { translateLikeNodeCache } from './translate-like-node-cache.js';
import type { NodeCacheResult } from './translate-like-node-cache.js';

/** The node-cache settings the pre-flight assumes; each has a default. */
export interface NodeLocalDnsPreflightOptions {
  /** The node-local-dns base Corefile. Default: the bundled template of the release, filled in for `localIps` and `clusterDomain`. */
  readonly baseCorefile?: string;
  /** The `-localip` flag. Default {@link PREFLIGHT_LOCAL_IPS} (iptables mode: the link-local address and the kube-dns ClusterIP). */
  readonly localIps?: string;
  /** The kube-dns-upstream ClusterIP. Default {@link PREFLIGHT_UPSTREAM_IP}. */
  readonly clusterDnsIp?: string;
  readonly port?: string;
  /** Default `cluster.local`. */
  readonly clusterDomain?: string;
}

/** The `-localip` of the Kubernetes documentation's example, assumed when none is given. */
export const PREFLIGHT_LOCAL_IPS = '169.254.20.10,10.96.0.10';
/** A kube-dns-upstream ClusterIP assumed when none is given (it changes no verdict). */
export const PREFLIGHT_UPSTREAM_IP = '10.96.0.20';

export interface NodeLocalDnsPreflight {
  /** The node-cache release, normalized. */
  readonly release: string;
  /** The CoreDNS release it embeds. */
  readonly coreDns: string;
  /** node-cache takes the update (exactly `result.ok`). */
  readonly accepted: boolean;
  /** Accepted, and the Corefile it writes has no error: neither the profile's nor lint's for the embedded CoreDNS. */
  readonly loads: boolean;
  /** One line: why not, when `loads` is false. */
  readonly reason?: string;
  /** The profile's diagnostics, then lint's errors and warnings on the written Corefile. */
  readonly diagnostics: readonly Diagnostic[];
  /** The profile's result, Corefile and all. */
  readonly result: NodeCacheResult;
}

/**
 * Whether node-cache `release` takes `data` (a proposed kube-dns ConfigMap) and whether what it then
 * writes loads. Throws like {@link translateLikeNodeCache} for an unknown release or unusable settings.
 */
export function preflightNodeLocalDns(release: string, data: ConfigMapData | null, options: NodeLocalDnsPreflightOptions = {}): NodeLocalDnsPreflight {
  checkArgument('preflightNodeLocalDns', 'release', release, 'string');
  checkArgument('preflightNodeLocalDns', 'options', options, 'object?');
  const localIps = options.localIps ?? PREFLIGHT_LOCAL_IPS;
  const baseCorefile = options.baseCorefile ?? nodeLocalDnsTemplate(release, { localIps, ...(options.clusterDomain === undefined ? {} : { clusterDomain: options.clusterDomain }) });
  const result = translateLikeNodeCache(release, {
    data,
    baseCorefile,
    localIps,
    clusterDnsIp: options.clusterDnsIp ?? PREFLIGHT_UPSTREAM_IP,
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.clusterDomain === undefined ? {} : { clusterDomain: options.clusterDomain }),
  });
  const { profile } = result;
  const base = { release: profile.release, coreDns: profile.coreDns, result };
  if (!result.ok) return { ...base, accepted: false, loads: false, reason: result.reason, diagnostics: result.diagnostics };
  let linted: readonly Diagnostic[];
  try {
    linted = lintCorefile(result.corefile, { coredns: profile.coreDns, plugins: profile.plugins, filename: 'node-cache Corefile' }).diagnostics.filter((entry) => entry.severity !== 'info');
  } catch (error) {
    if (!(error instanceof CorefileSyntaxError)) throw error;
    return { ...base, accepted: true, loads: false, reason: `the Corefile node-cache ${profile.release} writes does not parse: ${error.message}`, diagnostics: result.diagnostics };
  }
  const diagnostics = [...result.diagnostics, ...linted];
  const errors = diagnostics.filter((entry) => entry.severity === 'error');
  if (errors.length === 0) return { ...base, accepted: true, loads: true, diagnostics };
  const codes = [...new Set(errors.map((entry) => entry.code))].join(', ');
  return {
    ...base,
    accepted: true,
    loads: false,
    reason: `node-cache ${profile.release} writes a Corefile that its CoreDNS ${profile.coreDns} does not load (${codes}): the node-local-dns pods fail to reload, or to start`,
    diagnostics,
  };
}
