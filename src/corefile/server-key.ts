import { checkArgument, checkOptions } from '../errors/arguments.js';
import { ServerKeyError } from './errors.js';

/**
 * What a server block key means to CoreDNS (as of v1.14.7): transport, zone(s) and port.
 *
 * Steps, in CoreDNS's order:
 * 1. a case-sensitive scheme prefix (`dns://`, `tls://`, `grpc://`, `https://`, `https3://`,
 *    `quic://`, `unix://`) selects the transport; none means `dns`;
 * 2. the text after the **last** `:` is the port when Go's `strconv.Atoi` accepts it (re-printed:
 *    `053` → `53`, `+53` → `53`); a key ending in `:` is an error; otherwise the colon stays in
 *    the zone name;
 * 3. the host may not exceed 255 bytes and must pass miekg/dns `IsDomainName` (very lenient:
 *    only empty names, `..`, a leading dot, labels over 63 bytes, names over 255 wire bytes and a
 *    trailing lone `\` fail);
 * 4. a host that is a CIDR (`10.0.0.0/8`, `2001:db8::/32`) becomes its reverse zone; a mask that
 *    is not on a label boundary (8 bits for IPv4, 4 for IPv6) expands into one zone per subnet of
 *    the next boundary (CoreDNS ≥ 1.8.4); a plain address is *not* converted;
 * 5. the zone is made fully qualified and lower-cased (lower-casing since CoreDNS 1.14.7; older
 *    versions keep the case and then never match queries, so lower case is what works everywhere).
 *
 * Differences to older CoreDNS versions are listed in the docs (docs/corefile-model.md).
 */

export type ServerTransport = 'dns' | 'tls' | 'grpc' | 'https' | 'https3' | 'quic' | 'unix';

export interface ServerAddress {
  /** The key as written. */
  readonly key: string;
  readonly transport: ServerTransport;
  /** Zones served, lower-case and fully qualified; several only for a non-boundary CIDR key. */
  readonly zones: readonly string[];
  /** The port CoreDNS listens on for this key: as written, or the transport's default (none for `unix`). */
  readonly port: string | undefined;
  /** The key carried its own port. */
  readonly explicitPort: boolean;
  /** For a CIDR key, the network in canonical form (`10.0.0.0/27`). */
  readonly cidr?: string;
  /** Startup warnings CoreDNS prints for this key (e.g. names outside RFC 1035 syntax). */
  readonly warnings: readonly string[];
}

export interface ParseServerKeyOptions {
  /** The port of keys without one on the `dns` transport (CoreDNS `-dns.port`). Default `53`. */
  readonly dnsPort?: string;
}

const SCHEMES: readonly ServerTransport[] = ['tls', 'dns', 'quic', 'grpc', 'https3', 'https', 'unix'];

const DEFAULT_PORTS: Readonly<Record<ServerTransport, string | undefined>> = {
  dns: '53',
  tls: '853',
  quic: '853',
  grpc: '443',
  https: '443',
  https3: '443',
  unix: undefined,
};

/** Interprets one server key as CoreDNS does; throws {@link ServerKeyError} where CoreDNS refuses to start. */
export function parseServerKey(key: string, options: ParseServerKeyOptions = {}): ServerAddress {
  checkArgument('parseServerKey', 'key', key, 'string');
  checkArgument('parseServerKey', 'options', options, 'object?');
  const plain = plainDnsKey(key, options.dnsPort ?? '53');
  if (plain !== undefined) return plain;
  return parseAnyServerKey(key, options);
}

/** {@link parseServerKey} with the default options and without the argument checks: for callers that read every key of a large Corefile (lint). */
export function readServerAddress(key: string): ServerAddress {
  return plainDnsKey(key, '53') ?? parseAnyServerKey(key);
}

/** {@link parseServerKey} without its shortcut for plain keys (the shortcut's property test compares the two). */
export function parseAnyServerKey(key: string, options: ParseServerKeyOptions = {}): ServerAddress {
  let transport: ServerTransport = 'dns';
  let rest = key;
  // Most keys name no scheme; only those that could are tried against each.
  if (key.includes('://')) {
    for (const scheme of SCHEMES) {
      if (key.startsWith(`${scheme}://`)) {
        transport = scheme;
        rest = key.slice(scheme.length + 3);
        break;
      }
    }
  }
  const split = splitHostPort(rest, key);
  const cidr = reverseZones(split.host, key);
  const zones = cidr?.zones ?? [fullyQualified(split.host).toLowerCase()];
  // CoreDNS checks every resulting zone once more in fully qualified form.
  for (const zone of zones) splitHostPort(fullyQualified(zone), key);
  const explicitPort = split.port !== undefined;
  const port = split.port ?? (transport === 'dns' ? (options.dnsPort ?? '53') : DEFAULT_PORTS[transport]);
  const warnings: string[] = [];
  for (const zone of zones) if (!followsPreferredSyntax(zone)) warnings.push(`Domain "${zone}" does not follow RFC1035 preferred syntax`);
  const address: ServerAddress = { key, transport, zones, port, explicitPort, warnings };
  return cidr === undefined ? address : { ...address, cidr: cidr.network };
}

/** Longest host the shortcut reads: far below every length bound (255 bytes, 256 wire bytes). */
const PLAIN_HOST_LIMIT = 200;

/**
 * The shortcut for most keys (`zone.example.org:53`, `example.org.`): a host of lower-case ASCII
 * letters, digits, `-` and dots whose labels follow RFC 1035's preferred syntax (a letter first,
 * a letter or digit last, at most 63 characters), with an optional port of 1–5 digits. Such a key
 * has no scheme, is no CIDR, needs no lower-casing, passes every length and `IsDomainName` check
 * and draws no warning, so the general reading would return exactly this. Anything else
 * (`undefined`) takes the general reading.
 */
function plainDnsKey(key: string, dnsPort: string): ServerAddress | undefined {
  // One regular expression (compiled to machine code) rather than a loop over the characters:
  // this runs for every key, mostly before the loop would have been optimized.
  if (key.length > PLAIN_HOST_LIMIT + 6 || !PLAIN_KEY.test(key)) return undefined;
  const colon = key.lastIndexOf(':');
  const hostEnd = colon === -1 ? key.length : colon;
  if (hostEnd > PLAIN_HOST_LIMIT) return undefined;
  return plainAddress(key, hostEnd, colon === -1 ? undefined : String(Number(key.slice(colon + 1))), dnsPort);
}

/** A plain key: labels of RFC 1035's preferred syntax in lower case, an optional final dot, an optional port of 1–5 digits. */
const PLAIN_KEY = /^(?:[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?\.?(?::[0-9]{1,5})?$/;

function plainAddress(key: string, hostEnd: number, port: string | undefined, dnsPort: string): ServerAddress {
  const host = hostEnd === key.length ? key : key.slice(0, hostEnd);
  const zone = key.charCodeAt(hostEnd - 1) === DOT ? host : `${host}.`;
  return { key, transport: 'dns', zones: [zone], port: port ?? dnsPort, explicitPort: port !== undefined, warnings: [] };
}

/** CoreDNS's internal name for a served zone, used to detect duplicates: `dns://example.org.:53`. */
export function zoneAddressKeys(address: ServerAddress): string[] {
  checkOptions('zoneAddressKeys', 'address', address, { zones: 'array' }, true);
  return addressKeysOf(address);
}

/** {@link zoneAddressKeys} of an address `parseServerKey` returned (no argument check: the translator's self-check asks for every key). */
export function addressKeysOf(address: ServerAddress): string[] {
  return address.zones.map((zone) => `${address.transport}://${zone}:${address.port ?? ''}`);
}

function splitHostPort(text: string, key: string): { host: string; port: string | undefined } {
  const colon = text.lastIndexOf(':');
  if (colon === text.length - 1) {
    throw new ServerKeyError('missing-port', `expecting data after last colon: ${JSON.stringify(text)}`, key);
  }
  let host = text;
  let port: string | undefined;
  if (colon !== -1) {
    port = goAtoi(text.slice(colon + 1));
    if (port !== undefined) host = text.slice(0, colon);
  }
  const length = utf8Length(host);
  if (length > 255) throw new ServerKeyError('zone-too-long', `specified zone is too long: ${length} > 255`, key);
  if (!isDomainName(host)) throw new ServerKeyError('invalid-domain-name', `zone is not a valid domain name: ${host}`, key);
  return { host, port };
}

const INT64_MAX = 2n ** 63n - 1n;

/** Up to 15 digits, a number is exact as a JavaScript number: no BigInt needed. */
const SHORT_DIGITS = /^[0-9]{1,15}$/;

/** Go `strconv.Atoi` then `Itoa`: the canonical decimal, or undefined when Atoi fails. */
function goAtoi(text: string): string | undefined {
  if (SHORT_DIGITS.test(text)) return String(Number(text));
  if (!/^[+-]?[0-9]+$/.test(text)) return undefined;
  const value = BigInt(text);
  if (value > INT64_MAX || value < -INT64_MAX - 1n) return undefined;
  return value.toString();
}

/**
 * Scratch space for {@link encodeUtf8}: every key is encoded once or twice while a Corefile is
 * checked, and a fresh array per call was a good part of that cost for thousands of keys.
 */
let utf8Scratch = new Uint8Array(1024);

/**
 * Writes `text` as UTF-8 into `utf8Scratch` (overwritten by the next call) and returns the byte
 * count. A lone surrogate is encoded as its own three bytes (no U+FFFD replacement; only the
 * count and the ASCII bytes matter here).
 */
function encodeUtf8(text: string): number {
  // Room for one more byte: isDomainName appends the final dot there.
  if (utf8Scratch.length <= text.length * 3) utf8Scratch = new Uint8Array(text.length * 3 + 1);
  const bytes = utf8Scratch;
  let length = 0;
  for (let index = 0; index < text.length; index += 1) {
    let code = text.charCodeAt(index);
    if (code < 0x80) {
      bytes[length++] = code;
      continue;
    }
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        index += 1;
      }
    }
    if (code < 0x800) {
      bytes[length++] = 0xc0 | (code >> 6);
    } else if (code < 0x10000) {
      bytes[length++] = 0xe0 | (code >> 12);
      bytes[length++] = 0x80 | ((code >> 6) & 0x3f);
    } else {
      bytes[length++] = 0xf0 | (code >> 18);
      bytes[length++] = 0x80 | ((code >> 12) & 0x3f);
      bytes[length++] = 0x80 | ((code >> 6) & 0x3f);
    }
    bytes[length++] = 0x80 | (code & 0x3f);
  }
  return length;
}

function utf8Length(text: string): number {
  return encodeUtf8(text);
}

const DOT = 0x2e;
const BACKSLASH = 0x5c;

function isDigitByte(byte: number | undefined): boolean {
  return byte !== undefined && byte >= 0x30 && byte <= 0x39;
}

/** miekg/dns `IsFqdn`: ends in a dot that is not escaped by an odd run of backslashes. */
function isFullyQualified(name: string): boolean {
  if (!name.endsWith('.')) return false;
  let backslashes = 0;
  for (let index = name.length - 2; index >= 0 && name.charCodeAt(index) === BACKSLASH; index -= 1) backslashes += 1;
  return backslashes % 2 === 0;
}

function fullyQualified(name: string): string {
  return isFullyQualified(name) ? name : `${name}.`;
}

/** miekg/dns `IsDomainName` (v1.1.59+, as in CoreDNS 1.12–1.14), on UTF-8 bytes. */
export function isDomainName(name: string): boolean {
  if (name === '') return false;
  const ascii = asciiDomainName(name);
  if (ascii !== undefined) return ascii;
  // The bytes of `fullyQualified(name)`, without making that string.
  let length = encodeUtf8(name);
  const bytes = utf8Scratch;
  if (!isFullyQualified(name)) bytes[length++] = DOT;
  const maxWire = 256;
  let offset = 0;
  let labelStart = 0;
  let previousWasDot = false;
  let escaping = false;
  for (let index = 0; index < length; index += 1) {
    const byte = bytes[index];
    if (byte === BACKSLASH) {
      escaping = !escaping;
      if (offset + 1 > maxWire) return false;
      if (index + 3 < length && isDigitByte(bytes[index + 1]) && isDigitByte(bytes[index + 2]) && isDigitByte(bytes[index + 3])) {
        index += 3;
        labelStart += 3;
      } else {
        index += 1;
        labelStart += 1;
      }
      previousWasDot = false;
    } else if (byte === DOT) {
      escaping = false;
      if (index === 0 && length > 1) return false;
      if (previousWasDot) return false;
      previousWasDot = true;
      const labelLength = index - labelStart;
      if (labelLength >= 64) return false;
      offset += 1 + labelLength;
      if (offset > maxWire) return false;
      labelStart = index + 1;
    } else {
      escaping = false;
      previousWasDot = false;
    }
  }
  return !escaping;
}

/**
 * {@link isDomainName} read from the string itself while it holds only ASCII characters other
 * than `\\` (their UTF-8 bytes are their codes): most names, without encoding them. `undefined`
 * when another character comes first (the byte reading then decides); a verdict reached before
 * it is the byte reading's too, since the bytes read so far are the same.
 */
function asciiDomainName(name: string): boolean | undefined {
  const length = name.length;
  // The bytes of `fullyQualified(name)`: without backslashes, a final dot is never escaped.
  const total = name.charCodeAt(length - 1) === DOT ? length : length + 1;
  let offset = 0;
  let labelStart = 0;
  let previousWasDot = false;
  for (let index = 0; index < total; index += 1) {
    const byte = index < length ? name.charCodeAt(index) : DOT;
    if (byte >= 0x80 || byte === BACKSLASH) return undefined;
    if (byte !== DOT) {
      previousWasDot = false;
      continue;
    }
    if (index === 0 && total > 1) return false;
    if (previousWasDot) return false;
    previousWasDot = true;
    const labelLength = index - labelStart;
    if (labelLength >= 64) return false;
    offset += 1 + labelLength;
    if (offset > 256) return false;
    labelStart = index + 1;
  }
  return true;
}

// ── reverse zones ──────────────────────────────────────────────────────────────────────────────

interface ParsedNetwork {
  readonly family: 4 | 6;
  /** The network address (host bits cleared) as an unsigned integer. */
  readonly address: bigint;
  readonly prefix: number;
}

/** The reverse zones of a CIDR host, or undefined when `host` is not a CIDR (Go `net.ParseCIDR`). */
function reverseZones(host: string, key: string): { network: string; zones: string[] } | undefined {
  const network = parseCidr(host);
  if (network === undefined) return undefined;
  if (host.startsWith(':') || (host.startsWith('0') && host.includes(':'))) {
    throw new ServerKeyError('invalid-cidr', `invalid CIDR ${host}`, key);
  }
  const bits = network.family === 4 ? 32 : 128;
  const labelBits = network.family === 4 ? 8 : 4;
  const boundary = Math.ceil(network.prefix / labelBits) * labelBits;
  const count = 1 << (boundary - network.prefix);
  const step = 1n << BigInt(bits - boundary);
  const zones: string[] = [];
  for (let index = 0; index < count; index += 1) {
    zones.push(reverseName(network.family, network.address + BigInt(index) * step, boundary / labelBits));
  }
  return { network: formatNetwork(network), zones };
}

/** The first `labels` octets (IPv4) or nibbles (IPv6) of `address`, reversed, under the arpa zone. */
function reverseName(family: 4 | 6, address: bigint, labels: number): string {
  const parts: string[] = [];
  if (family === 4) {
    for (let index = 0; index < labels; index += 1) parts.push(((address >> BigInt(24 - 8 * index)) & 0xffn).toString());
    return [...parts.reverse(), 'in-addr', 'arpa', ''].join('.');
  }
  for (let index = 0; index < labels; index += 1) parts.push(((address >> BigInt(124 - 4 * index)) & 0xfn).toString(16));
  return [...parts.reverse(), 'ip6', 'arpa', ''].join('.');
}

function parseCidr(text: string): ParsedNetwork | undefined {
  const slash = text.indexOf('/');
  if (slash === -1) return undefined;
  const addressText = text.slice(0, slash);
  const maskText = text.slice(slash + 1);
  if (!/^[0-9]+$/.test(maskText) || maskText.length > 8) return undefined;
  let prefix = Number(maskText);
  let family: 4 | 6;
  let address: bigint | undefined = parseIpv4(addressText);
  if (address !== undefined) {
    family = 4;
    if (prefix > 32) return undefined;
  } else {
    address = parseIpv6(addressText);
    if (address === undefined || prefix > 128) return undefined;
    family = 6;
    // Go prints an IPv4-mapped network in IPv4 form, which CoreDNS then reverses as IPv4.
    if (address >> 32n === 0xffffn && prefix >= 96) {
      family = 4;
      address &= 0xffffffffn;
      prefix -= 96;
    }
  }
  const bits = family === 4 ? 32 : 128;
  const hostMask = (1n << BigInt(bits - prefix)) - 1n;
  return { family, address: address & ~hostMask, prefix };
}

/** Go `netip.ParseAddr` for IPv4: four decimal octets, no leading zeros. */
function parseIpv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

/** Go `netip.ParseAddr` for IPv6 without zone: hex groups, one `::`, optional trailing IPv4. */
function parseIpv6(text: string): bigint | undefined {
  if (!text.includes(':') || text.includes('%')) return undefined;
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (half: string): number[] | undefined => {
    if (half === '') return [];
    const result: number[] = [];
    const pieces = half.split(':');
    for (const [index, piece] of pieces.entries()) {
      if (index === pieces.length - 1 && piece.includes('.')) {
        const v4 = parseIpv4(piece);
        if (v4 === undefined) return undefined;
        result.push(Number(v4 >> 16n), Number(v4 & 0xffffn));
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(piece)) return undefined;
        result.push(parseInt(piece, 16));
      }
    }
    return result;
  };
  const head = groups(halves[0] as string);
  const tail = halves.length === 2 ? groups(halves[1] as string) : [];
  if (head === undefined || tail === undefined) return undefined;
  // An embedded IPv4 is only allowed at the very end.
  if (halves.length === 2 && (halves[0] as string).includes('.')) return undefined;
  const total = head.length + tail.length;
  if (halves.length === 1 ? total !== 8 : total > 7) return undefined;
  const all = [...head, ...new Array<number>(8 - total).fill(0), ...tail];
  return all.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

function formatNetwork(network: ParsedNetwork): string {
  if (network.family === 4) {
    const octets = [24, 16, 8, 0].map((shift) => ((network.address >> BigInt(shift)) & 0xffn).toString());
    return `${octets.join('.')}/${network.prefix}`;
  }
  const groups = Array.from({ length: 8 }, (_, index) => Number((network.address >> BigInt(112 - 16 * index)) & 0xffffn));
  return `${compressIpv6(groups)}/${network.prefix}`;
}

/** RFC 5952 text form (as Go prints it). */
function compressIpv6(groups: readonly number[]): string {
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < 8; ) {
    if (groups[start] !== 0) {
      start += 1;
      continue;
    }
    let end = start;
    while (end < 8 && groups[end] === 0) end += 1;
    if (end - start > bestLength) {
      bestStart = start;
      bestLength = end - start;
    }
    start = end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart === -1) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

const PREFERRED_SYNTAX = /^(([A-Za-z]([A-Za-z0-9-]*[A-Za-z0-9])?)\.)+$/;

/** CoreDNS ≥ 1.9.4 warns (never fails) about zones outside RFC 1035 preferred syntax. */
function followsPreferredSyntax(zone: string): boolean {
  return zone === '.' || zone.endsWith('.in-addr.arpa.') || zone.endsWith('.ip6.arpa.') || zone === 'in-addr.arpa.' || zone === 'ip6.arpa.' || PREFERRED_SYNTAX.test(zone);
}
