import { checkArgument } from '../errors/arguments.js';
import { assertConfigMapData } from '../configmap/config-map-data.js';
import type { ConfigMapData } from '../configmap/config-map-data.js';
import { decodeFederations, decodeStubDomains, decodeUpstreamNameservers } from '../kubedns/kube-dns-values.js';
import { caddyfileFromJson, IndentedCaddyWriter } from './caddyfile-json.js';
import { isDns1123Subdomain, isGoIP, isValidPort, splitHostPort } from '../dns/go-net.js';
import type { PortParser } from '../dns/go-net.js';
import { prepCorefileFormat } from './prep-corefile-format.js';
import { kubeadmProfileFor } from './kubernetes-version.js';
import type { KubeadmProfile } from './profiles.js';

/**
 * kubeadm's three translate functions, one per kube-dns data key. Each returned a text fragment
 * that kubeadm pasted into its manifest template unchanged.
 */
export interface KubeadmPieces {
  /** `{{ .StubDomain }}`: the stub server blocks, already indented for the manifest. */
  readonly stubDomains: string;
  /** `{{ .UpstreamNameserver }}`: the upstream list joined by spaces, or `/etc/resolv.conf`. */
  readonly upstreamNameservers: string;
  /** `{{ .Federation }}`: the federation block; `undefined` for profiles that ignore the key. */
  readonly federations: string | undefined;
}

/** One stub server block kubeadm was asked for: the domain and the nameservers it kept. */
export interface KubeadmStubRequest {
  readonly domain: string;
  readonly nameservers: readonly string[];
}

/**
 * What the input asked kubeadm to write, value by value, before anything was pasted into text:
 * the measure against which the stored Corefile is checked for content nobody asked for
 * (`unrequested-content.ts`).
 */
export interface KubeadmRequest {
  /** The stub blocks written, in order. */
  readonly stubDomains: readonly KubeadmStubRequest[];
  /** The main block's upstreams; `undefined` when the key is absent (`/etc/resolv.conf`). */
  readonly upstreamNameservers: readonly string[] | undefined;
  /** The federation block's `name domain` lines; `undefined` when none is written. */
  readonly federations: readonly (readonly [string, string])[] | undefined;
}

export type KubeadmPiecesResult =
  | { readonly ok: true; readonly pieces: KubeadmPieces; readonly request: KubeadmRequest; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly stage: 'translate'; readonly error: string; readonly warnings: readonly string[] };

/** A translate function's failure: kubeadm's message, word for word. */
class PieceError extends Error {}

/** kubeadm's default `networking.dnsDomain`. */
export const KUBEADM_DEFAULT_DNS_DOMAIN = 'cluster.local';

const STUB_DOMAINS_KEY = 'stubDomains';
const UPSTREAM_NAMESERVERS_KEY = 'upstreamNameservers';
const FEDERATIONS_KEY = 'federations';

/** Note the stray apostrophe: kubeadm's wording for stubDomains and upstreamNameservers. */
const JSON_ERROR_PREFIX = "failed to parse JSON from 'kube-dns ConfigMap";
const FEDERATION_JSON_ERROR_PREFIX = 'failed to parse JSON from kube-dns ConfigMap';
const VALUE_ERROR_PREFIX = 'invalid format to parse for proxy';

/**
 * Runs kubeadm's translate functions of a release (a Kubernetes version or a profile) in kubeadm's order (stubDomains,
 * upstreamNameservers, federations), stopping at the first error. `data` is the kube-dns
 * ConfigMap's data; `null` (no ConfigMap) behaves like `{}`, as it did against a real API server.
 * Warnings are kubeadm's log lines about omitted hostnames, in logging order; they are kept when a
 * later step fails. `data` that is not an object of strings (possible only from untyped callers)
 * throws `ConfigMapInputError`.
 */
export function translateKubeadmPieces(
  release: KubeadmProfile | string,
  data: ConfigMapData | null,
  dnsDomain: string = KUBEADM_DEFAULT_DNS_DOMAIN,
): KubeadmPiecesResult {
  checkArgument('translateKubeadmPieces', 'release', release, 'string|object');
  checkArgument('translateKubeadmPieces', 'dnsDomain', dnsDomain, 'string');
  const profile = typeof release === 'string' ? kubeadmProfileFor(release) : release;
  assertConfigMapData(data);
  const warnings: string[] = [];
  const values = data ?? {};
  const stubRequests: KubeadmStubRequest[] = [];
  const request: { upstreamNameservers?: readonly string[]; federations?: readonly (readonly [string, string])[] } = {};
  try {
    const stubDomains = translateStubDomains(profile, values[STUB_DOMAINS_KEY], warnings, stubRequests);
    const upstreamNameservers = translateUpstreamNameservers(profile, values[UPSTREAM_NAMESERVERS_KEY], warnings, request);
    const federations = profile.translatesFederations ? translateFederations(values[FEDERATIONS_KEY], dnsDomain, request) : undefined;
    return {
      ok: true,
      pieces: { stubDomains, upstreamNameservers, federations },
      request: { stubDomains: stubRequests, upstreamNameservers: request.upstreamNameservers, federations: request.federations },
      warnings,
    };
  } catch (error) {
    if (error instanceof PieceError) return { ok: false, stage: 'translate', error: error.message, warnings };
    throw error;
  }
}

function has(value: string | undefined): value is string {
  return value !== undefined;
}

function translateStubDomains(profile: KubeadmProfile, text: string | undefined, warnings: string[], requested: KubeadmStubRequest[]): string {
  if (!has(text)) return '';
  const decoded = decodeStubDomains(text);
  if (!decoded.ok) throw new PieceError(`${JSON_ERROR_PREFIX}: ${decoded.error.message}`);
  const fixedLines = [['errors'], ['cache', '30'], ...(profile.stubLoop ? [['loop']] : [])];
  const writer = new IndentedCaddyWriter(4);
  decoded.value?.forEach((nameservers, domain) => {
    const kept = profile.nameserverCheck === undefined ? (nameservers ?? []) : omitHostnames(nameservers ?? [], profile.nameserverCheck, warnings);
    if (profile.nameserverCheck !== undefined && kept.length === 0) return;
    // kubeadm appended the port blindly: `foo.com:5353` became `foo.com:5353:53`.
    requested.push({ domain, nameservers: kept });
    writer.open(`${domain}:53`);
    for (const line of fixedLines) writer.line(line);
    writer.line([profile.forwarder, '.', ...kept]);
    writer.close();
  });
  return writer.text(profile.emptyStubsStayEmpty);
}

function translateUpstreamNameservers(
  profile: KubeadmProfile,
  text: string | undefined,
  warnings: string[],
  request: { upstreamNameservers?: readonly string[] },
): string {
  if (!has(text)) return '/etc/resolv.conf';
  const decoded = decodeUpstreamNameservers(text);
  if (!decoded.ok) throw new PieceError(`${JSON_ERROR_PREFIX}: ${decoded.error.message}`);
  const nameservers = decoded.value ?? [];
  const kept = profile.nameserverCheck === undefined ? nameservers : omitHostnames(nameservers, profile.nameserverCheck, warnings);
  request.upstreamNameservers = kept;
  // Joined raw: no quoting, no indentation (docs/reference/kubeadm-translation.md §3.1).
  return kept.join(' ');
}

function translateFederations(text: string | undefined, dnsDomain: string, request: { federations?: readonly (readonly [string, string])[] }): string {
  if (!has(text)) return '';
  const decoded = decodeFederations(text);
  if (!decoded.ok) throw new PieceError(`${FEDERATION_JSON_ERROR_PREFIX}: ${decoded.error.message}`);
  const body: [string, string][] = [...(decoded.value ?? [])];
  request.federations = body;
  return prepCorefileFormat(caddyfileFromJson([{ keys: [`federation ${dnsDomain}`], body }]), 8, false);
}

/**
 * kubeadm v1.15+'s `omitHostnameInTranslation`: every value must be an IP or a DNS-1123
 * subdomain, optionally with a valid port; IPs are kept verbatim, names dropped with a warning.
 */
function omitHostnames(values: readonly string[], portParser: PortParser, warnings: string[]): string[] {
  const kept: string[] = [];
  for (const value of values) {
    if (isPlainIPv4WithPort(value)) {
      kept.push(value);
      continue;
    }
    const { host, isIp } = checkedHost(value, portParser);
    if (isIp) {
      kept.push(value);
    } else {
      warnings.push(`your kube-dns configuration contains a hostname ${host}. It will be omitted in the translation to CoreDNS as hostnames are unsupported`);
    }
  }
  return kept;
}

const PLAIN_IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?::([1-9]\d{0,4}))?$/;

/**
 * The common case, decided with one native regular expression: dotted decimal IPv4 with octets up
 * to 255 and an optional port 1–65535 without sign or leading zero. {@link checkedHost} accepts
 * every such value as an IP for both port parsers (a law in the tests); anything else takes that
 * slower path.
 */
export function isPlainIPv4WithPort(value: string): boolean {
  const match = PLAIN_IPV4.exec(value);
  if (match === null) return false;
  for (let group = 1; group <= 4; group += 1) if (Number(match[group]) > 255) return false;
  return match[5] === undefined || Number(match[5]) <= 65535;
}

/** kubeadm's `ParseHostPort`: returns the host part, or throws kubeadm's error. */
export function checkedHost(hostport: string, portParser: PortParser): { host: string; isIp: boolean } {
  const split = splitHostPort(hostport);
  const host = split?.host ?? hostport;
  const port = split?.port ?? '';
  if (port !== '' && !isValidPort(port, portParser)) {
    throw new PieceError(`${VALUE_ERROR_PREFIX}: hostport ${hostport}: port ${port} must be a valid number between 1 and 65535, inclusive`);
  }
  if (isGoIP(host)) return { host, isIp: true };
  if (isDns1123Subdomain(host)) return { host, isIp: false };
  throw new PieceError(`${VALUE_ERROR_PREFIX}: hostport ${hostport}: host '${host}' must be a valid IP address or a valid RFC-1123 DNS subdomain`);
}
