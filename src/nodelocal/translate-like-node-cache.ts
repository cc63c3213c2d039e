/**
 * The Corefile node-cache (NodeLocal DNSCache) writes from the kube-dns ConfigMap and its base
 * Corefile template, reproduced text for text for one release (docs/node-local-dns.md), or the
 * verdict that node-cache refuses the update and keeps the Corefile it had.
 */

import { checkArgument, checkOptions } from '../errors/arguments.js';
import type { ConfigMapData } from '../configmap/config-map-data.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { formatGoIP, parseGoIP, splitHostPort } from '../dns/go-net.js';
import { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';
import { readKubeDnsConfig } from '../kubedns/read-kube-dns-config.js';
import type { StubDomainEntry, ValueEntry } from '../kubedns/read-kube-dns-config.js';
import { NEWEST_KUBE_DNS_VERSION } from '../kubedns/kube-dns-versions.js';
import { compareNodeCacheReleases, nodeCacheProfile } from './node-cache-releases.js';
import type { NodeCacheProfile } from './node-cache-releases.js';

/** A node-cache setting given to {@link translateLikeNodeCache} that node-cache could not have run with. */
export class NodeCacheInputError extends KubeDnsToCoreDnsError {
  override readonly name = 'NodeCacheInputError';
  readonly category = 'input';
  declare readonly code: NodeCacheInputErrorCode;

  constructor(code: NodeCacheInputErrorCode, message: string) {
    super(code, message);
  }
}

/**
 * Why a node-cache setting is unusable: the cluster DNS IP is not an IP address, a part of
 * `localIps` is not one (node-cache does not start), the port is not an integer (likewise).
 */
export type NodeCacheInputErrorCode = 'cluster-dns-ip' | 'local-ip' | 'port';

/** What node-cache works from: the kube-dns ConfigMap, its base Corefile and its flags. */
export interface NodeCacheInput {
  /** The kube-dns ConfigMap's data (`null`: no ConfigMap, read like an empty one). */
  readonly data: ConfigMapData | null;
  /** The base Corefile node-cache reads (the node-local-dns ConfigMap's `Corefile`), `__PILLAR__…__` variables and all. */
  readonly baseCorefile: string;
  /** The `-localip` flag as given: one IP or several separated by commas (`169.254.20.10,10.96.0.10`). */
  readonly localIps: string;
  /** The ClusterIP of the kube-dns-upstream Service (`__PILLAR__CLUSTER__DNS__`). */
  readonly clusterDnsIp: string;
  /** The port node-cache serves on, in the stub blocks' keys. Default `53`. */
  readonly port?: string;
  /** The cluster domain, to warn about a stub domain that collides with it. Default `cluster.local`. */
  readonly clusterDomain?: string;
}

/** Something about the result that is no fault of the input, said once. */
export interface NodeCacheNote {
  /** `stub-order-sorted`: our stub order differs from node-cache's random one; `federations-ignored`: node-cache does not use them. */
  readonly kind: 'stub-order-sorted' | 'federations-ignored';
  /** One line for people. */
  readonly message: string;
}

/** Why node-cache writes nothing and every node keeps its previous Corefile. */
export type NodeCacheRejection =
  /** kube-dns's own ConfigMap validation (shared by node-cache in every release) failed: the update is ignored. */
  | 'kube-dns-validation'
  /** 1.22.10+: a nameserver the forward plugin would not parse: node-cache logs an error and writes nothing. */
  | 'node-cache-validation'
  /** A nameserver list too long for this reproduction to read in full (the diagnostics say which). */
  | 'not-reproduced';

/** The Corefile node-cache writes, or its refusal; both with the diagnostics and notes. */
export type NodeCacheResult =
  | {
      readonly ok: true;
      readonly profile: NodeCacheProfile;
      /** The Corefile node-cache writes, byte for byte, except that stub blocks are sorted by domain. */
      readonly corefile: string;
      /** Problems of the input and what will break when CoreDNS loads this Corefile. */
      readonly diagnostics: readonly Diagnostic[];
      readonly notes: readonly NodeCacheNote[];
    }
  | {
      readonly ok: false;
      readonly profile: NodeCacheProfile;
      readonly rejected: NodeCacheRejection;
      /** One line: why, and that every node keeps its previous Corefile. */
      readonly reason: string;
      readonly diagnostics: readonly Diagnostic[];
      readonly notes: readonly NodeCacheNote[];
    };

const UPSTREAM_VARIABLE = '__PILLAR__UPSTREAM__SERVERS__';
const CLUSTER_DNS_VARIABLE = '__PILLAR__CLUSTER__DNS__';
const LISTEN_IPS_VARIABLE = '__PILLAR__LOCAL__DNS__';
const DNS_SERVER_VARIABLE = '__PILLAR__DNS__SERVER__';
/** The upstream block node-cache looks for, to turn it into a UDP `forward` line (indentation exact). */
const TCP_UPSTREAM_BLOCK = `\n    forward . ${UPSTREAM_VARIABLE} {\n            force_tcp\n    }\n`;
const UDP_UPSTREAM_BLOCK = `\n    forward . ${UPSTREAM_VARIABLE}\n`;
const RESOLV_CONF = '/etc/resolv.conf';
/** node-cache's fixed cache TTL for stub blocks. */
const STUB_CACHE_SECONDS = 30;
const REVERSE_ZONES = ['in-addr.arpa', 'ip6.arpa'];
const KEPT = 'node-cache ignores the update and every node keeps its previous Corefile (at start-up none is written)';

function replaceAll(text: string, variable: string, value: string): string {
  return text.split(variable).join(value);
}

function stubBlock(profile: NodeCacheProfile, domain: string, port: string, bindIps: string, servers: string): string {
  const forward = profile.stubForwardOverUdp ? `    forward . ${servers}\n` : `    forward . ${servers} {\n      force_tcp\n    }\n`;
  return `\n${domain}:${port} {\n    errors\n    cache ${STUB_CACHE_SECONDS}\n    bind ${bindIps}\n${forward}}\n`;
}

/** The host of a nameserver as CoreDNS's forward plugin would parse it, when it is an IP address. */
function nameserverIp(nameserver: string): readonly number[] | undefined {
  return parseGoIP(nameserver) ?? parseGoIP(splitHostPort(nameserver)?.host ?? '');
}

function isLoopback(ip: readonly number[]): boolean {
  if (ip.length === 4) return ip[0] === 127;
  const mapped = ip.slice(0, 10).every((byte) => byte === 0) && ip[10] === 0xff && ip[11] === 0xff;
  if (mapped) return ip[12] === 127;
  return ip.slice(0, 15).every((byte) => byte === 0) && ip[15] === 1;
}

function checkNameservers(key: string, entries: readonly ValueEntry[], profile: NodeCacheProfile, diagnostics: Diagnostic[]): ValueEntry[] {
  const hostnames: ValueEntry[] = [];
  for (const entry of entries) {
    const ip = nameserverIp(entry.value);
    if (ip === undefined) {
      hostnames.push(entry);
      if (!profile.validationGate) {
        diagnostics.push(
          diagnostic('hostname-nameserver', {
            key,
            path: entry.path,
            severity: 'error',
            message: `'${entry.value}' is not an IP address: node-cache ${profile.release} writes it into a forward line, which CoreDNS refuses to load (node-cache 1.22.10+ refuses the update instead)`,
            hint: 'Use the IP address of the nameserver.',
          }),
        );
      }
    } else if (isLoopback(ip)) {
      diagnostics.push(
        diagnostic('loop-nameserver', {
          key,
          path: entry.path,
          severity: 'warning',
          message: `'${entry.value}' is a loopback address: node-cache runs in the node's network, so this is whatever listens on the node itself, not kube-dns`,
          hint: "Point at the real server's address, unless a resolver on every node is meant.",
        }),
      );
    }
  }
  return hostnames;
}

function checkStubZone(stub: StubDomainEntry, clusterDomain: string, port: string, diagnostics: Diagnostic[]): void {
  if (stub.domain === clusterDomain) {
    diagnostics.push(
      diagnostic('stub-equals-cluster-domain', {
        key: 'stubDomains',
        path: stub.path,
        message: `stub domain '${stub.domain}' is the cluster domain: its block ${stub.domain}:${port} repeats the template's cluster block on the same addresses, and CoreDNS refuses to load the Corefile`,
        hint: 'Remove the stub domain or use a subdomain of it.',
      }),
    );
  } else if (REVERSE_ZONES.includes(stub.domain)) {
    diagnostics.push(
      diagnostic('stub-equals-reverse-zone', {
        key: 'stubDomains',
        path: stub.path,
        message: `stub domain '${stub.domain}' repeats the reverse zone the node-local-dns template already serves on the same addresses, and CoreDNS refuses to load the Corefile`,
      }),
    );
  }
}

const VARIABLE = /__PILLAR__[A-Z0-9_]*__/g;

/** A `__PILLAR__…__` variable node-cache left in what it writes: once per variable, at its first line. */
function checkVariablesLeft(corefile: string, profile: NodeCacheProfile, diagnostics: Diagnostic[]): void {
  const seen = new Set<string>();
  corefile.split('\n').forEach((line, index) => {
    for (const match of line.matchAll(VARIABLE)) {
      const variable = match[0];
      if (seen.has(variable)) continue;
      seen.add(variable);
      diagnostics.push(
        diagnostic('node-cache-variable-left', {
          key: 'Corefile',
          position: { line: index + 1, column: (match.index ?? 0) + 1 },
          message: `${variable} (line ${index + 1}) is not filled in by node-cache ${profile.release}: CoreDNS ${profile.coreDns} reads '${line.trim()}' as written and does not load the Corefile`,
        }),
      );
    }
  });
}

/** `bind` lines holding the comma-separated flag: once, at the first. */
function checkBindCommas(corefile: string, profile: NodeCacheProfile, diagnostics: Diagnostic[]): void {
  const lines = corefile.split('\n');
  const index = lines.findIndex((line) => /^\s*bind\s.*,/.test(line));
  if (index < 0) return;
  const count = lines.filter((line) => /^\s*bind\s.*,/.test(line)).length;
  diagnostics.push(
    diagnostic('node-cache-bind-commas', {
      key: 'Corefile',
      position: { line: index + 1, column: 1 },
      message: `node-cache ${profile.release} writes '${(lines[index] as string).trim()}' (line ${index + 1}${count > 1 ? `, and ${count - 1} more bind line${count > 2 ? 's' : ''}` : ''}): CoreDNS ${profile.coreDns} reads the comma-separated IPs as one address that is not an IP, and does not load the Corefile`,
    }),
  );
}

/**
 * The Corefile node-cache `release` writes for `input`, or why it refuses the update. Stub blocks
 * come sorted by domain (node-cache writes them in Go's random map order; a note says so).
 * Throws `UnsupportedNodeCacheReleaseError` for an unknown release and `NodeCacheInputError` for
 * settings node-cache would not start with (local IPs, port) or a cluster DNS IP that is not an IP.
 */
export function translateLikeNodeCache(release: string, input: NodeCacheInput): NodeCacheResult {
  checkArgument('translateLikeNodeCache', 'release', release, 'string');
  checkOptions('translateLikeNodeCache', 'input', input, { baseCorefile: 'string', localIps: 'string', clusterDnsIp: 'string', port: 'string?', clusterDomain: 'string?' }, true);
  const profile = nodeCacheProfile(release);
  const clusterDnsBytes = parseGoIP(input.clusterDnsIp);
  if (clusterDnsBytes === undefined) {
    throw new NodeCacheInputError('cluster-dns-ip', `cluster DNS IP '${input.clusterDnsIp}' is not an IP address`);
  }
  for (const part of input.localIps.split(',')) {
    if (parseGoIP(part) === undefined) throw new NodeCacheInputError('local-ip', `local IP '${part}' (of '${input.localIps}') is not an IP address; node-cache would not start`);
  }
  const port = input.port ?? '53';
  // Go's strconv.Atoi, as node-cache checks its port flag: an optional sign and decimal digits.
  if (!/^[+-]?[0-9]{1,18}$/.test(port)) throw new NodeCacheInputError('port', `port '${port}' is not an integer; node-cache would not start`);
  const clusterDomain = input.clusterDomain ?? 'cluster.local';
  // node-cache shares kube-dns's reading and validation of the ConfigMap (pkg/dns/config), at the same tag.
  // kube-dns's rules are recorded up to NEWEST_KUBE_DNS_VERSION; pkg/dns/config did not change in
  // the node-cache releases after it (1.26.8), so those read with the newest rules.
  const kubeDnsVersion = compareNodeCacheReleases(profile.release, NEWEST_KUBE_DNS_VERSION) > 0 ? NEWEST_KUBE_DNS_VERSION : profile.release;
  const reading = readKubeDnsConfig(input.data, { kubeDnsVersion });
  const diagnostics: Diagnostic[] = [...reading.diagnostics];
  const notes: NodeCacheNote[] = [];
  const { config } = reading;
  if (config.federations !== undefined && config.federations.length > 0) {
    notes.push({ kind: 'federations-ignored', message: 'node-cache does not use federations; kube-dns validates them, so an invalid one still makes node-cache ignore the update' });
  }
  if (!reading.acceptedByKubeDns) {
    return { ok: false, profile, rejected: 'kube-dns-validation', reason: `the ConfigMap fails kube-dns's validation: ${KEPT}`, diagnostics, notes };
  }
  if (config.stubDomains.some((stub) => stub.listedNameservers !== undefined)) {
    return { ok: false, profile, rejected: 'not-reproduced', reason: 'a stub domain lists more nameservers than are read here', diagnostics, notes };
  }
  const stubs = [...config.stubDomains].sort((a, b) => (a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0));
  const refusedByGate: string[] = [];
  for (const stub of stubs) {
    checkStubZone(stub, clusterDomain, port, diagnostics);
    const hostnames = checkNameservers('stubDomains', stub.nameservers, profile, diagnostics);
    if (hostnames.length > 0) refusedByGate.push(`${stub.domain} (${hostnames.map((entry) => entry.value).join(', ')})`);
    if (profile.validationGate) {
      for (const entry of hostnames) {
        diagnostics.push(
          diagnostic('node-cache-rejects-update', {
            key: 'stubDomains',
            path: entry.path,
            message: `'${entry.value}' is not an IP address: node-cache ${profile.release} refuses the update, and every node keeps its previous Corefile`,
          }),
        );
      }
    }
    if (stub.nameservers.length === 0) {
      diagnostics.push(
        diagnostic('stub-without-nameservers', {
          key: 'stubDomains',
          path: stub.path,
          message: `stub domain '${stub.domain}' has no nameservers: node-cache writes 'forward .' without a destination, and CoreDNS refuses to load the Corefile`,
          hint: 'Give the stub domain a nameserver, or remove it.',
        }),
      );
    }
  }
  const upstreams = config.upstreamNameservers ?? [];
  checkNameservers('upstreamNameservers', upstreams, profile, diagnostics);
  if (profile.validationGate && refusedByGate.length > 0) {
    return {
      ok: false,
      profile,
      rejected: 'node-cache-validation',
      reason: `node-cache ${profile.release} refuses nameservers that are not IP addresses, for stub domains ${refusedByGate.join('; ')}: ${KEPT}`,
      diagnostics,
      notes,
    };
  }
  if (stubs.length > 1) {
    notes.push({ kind: 'stub-order-sorted', message: `node-cache writes the ${stubs.length} stub blocks in Go's random map order, which changes from one write to the next; they are sorted by domain here` });
  }

  const spaced = input.localIps.split(',').join(' ');
  let corefile = input.baseCorefile;
  const upstreamServers = upstreams.map((entry) => entry.value).join(' ');
  if (upstreamServers === '') {
    corefile = replaceAll(corefile, UPSTREAM_VARIABLE, RESOLV_CONF);
  } else if (profile.upstreamTcpToUdpSwap) {
    corefile = replaceAll(corefile, TCP_UPSTREAM_BLOCK, replaceAll(UDP_UPSTREAM_BLOCK, UPSTREAM_VARIABLE, upstreamServers));
    corefile = replaceAll(corefile, UPSTREAM_VARIABLE, upstreamServers);
  } else {
    corefile = replaceAll(corefile, UPSTREAM_VARIABLE, upstreamServers);
  }
  corefile = replaceAll(corefile, CLUSTER_DNS_VARIABLE, formatGoIP(clusterDnsBytes));
  corefile = replaceAll(corefile, LISTEN_IPS_VARIABLE, profile.templateListenIpsSpaceSeparated ? spaced : input.localIps);
  if (profile.dnsServerVariableBlanked) corefile = replaceAll(corefile, DNS_SERVER_VARIABLE, '');
  const bindIps = profile.stubBindSpaceSeparated ? spaced : input.localIps;
  for (const stub of stubs) {
    corefile += stubBlock(profile, stub.domain, port, bindIps, stub.nameservers.map((entry) => entry.value).join(' '));
  }
  checkVariablesLeft(corefile, profile, diagnostics);
  checkBindCommas(corefile, profile, diagnostics);
  return { ok: true, profile, corefile, diagnostics, notes };
}
