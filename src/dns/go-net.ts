/**
 * The Go standard-library and Kubernetes helpers that kube-dns and kubeadm's value checks were
 * built on: `net.SplitHostPort`, `net.ParseIP` (the lenient Go ≤ 1.16 reading that accepts leading
 * zeros in IPv4 octets, or the strict one of later Go), `net.IP.String`, `strconv.Atoi` /
 * `strconv.ParseUint(…, 10, 16)` port parsing and apimachinery's `IsDNS1123Subdomain` and
 * `IsDNS1123Label`.
 *
 * Go works on bytes; these functions work on UTF-16 strings. That is equivalent here because every
 * character the grammars accept is ASCII, and splitting only ever happens at ASCII characters.
 */

/** Result of Go's `net.SplitHostPort`; `undefined` where Go returns an error. */
export interface HostPort {
  readonly host: string;
  readonly port: string;
}

/**
 * Go's `net.SplitHostPort`: the port follows the last colon; a host containing colons must be
 * bracketed. Returns `undefined` for every input Go rejects (missing port, too many colons,
 * misplaced brackets).
 */
export function splitHostPort(hostport: string): HostPort | undefined {
  const lastColon = hostport.lastIndexOf(':');
  if (lastColon < 0) return undefined;
  let host: string;
  // Positions before which a '[' respectively ']' may legitimately appear.
  let openAllowedBefore = 0;
  let closeAllowedBefore = 0;
  if (hostport.startsWith('[')) {
    const close = hostport.indexOf(']');
    if (close < 0) return undefined;
    // The ']' must sit right before the last colon.
    if (close + 1 !== lastColon) return undefined;
    host = hostport.slice(1, close);
    openAllowedBefore = 1;
    closeAllowedBefore = close + 1;
  } else {
    host = hostport.slice(0, lastColon);
    if (host.includes(':')) return undefined;
  }
  if (hostport.indexOf('[', openAllowedBefore) >= 0) return undefined;
  if (hostport.indexOf(']', closeAllowedBefore) >= 0) return undefined;
  return { host, port: hostport.slice(lastColon + 1) };
}

const IPV4_OCTETS = 4;
const IPV6_BYTES = 16;
/** Go's `dtoi`/`xtoi` give up once a number reaches this value. */
const NUMBER_LIMIT = 0xffffff;

function isDecimalDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function hexDigitValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x61 && code <= 0x66) return code - 0x61 + 10;
  if (code >= 0x41 && code <= 0x46) return code - 0x41 + 10;
  return -1;
}

/** Where the last successful {@link readNumber} stopped (saves a tuple per call on hot paths). */
let numberEnd = 0;

/** Reads digits at `start`: the value (end in `numberEnd`), or -1 when there are none or too many. */
function readNumber(text: string, start: number, base: 10 | 16): number {
  let value = 0;
  let index = start;
  for (; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    const digit = base === 10 ? (isDecimalDigit(code) ? code - 0x30 : -1) : hexDigitValue(code);
    if (digit < 0) break;
    value = value * base + digit;
    if (value >= NUMBER_LIMIT) return -1;
  }
  numberEnd = index;
  return index === start ? -1 : value;
}

/** How an IPv4 octet with a leading zero (`010`) is read: accepted up to Go 1.16, refused since. */
export type OctetReading = 'lenient' | 'strict';

/** Dotted-quad IPv4: four decimal octets ≤ 255 (leading zeros only in the lenient reading). */
function parseIPv4Octets(text: string, octetReading: OctetReading): number[] | undefined {
  // Exactly four slots: a pushed-to empty array reserves seventeen, kept as long as the address.
  const octets = [0, 0, 0, 0];
  let index = 0;
  for (let position = 0; position < IPV4_OCTETS; position += 1) {
    if (index >= text.length) return undefined;
    if (position > 0) {
      if (text[index] !== '.') return undefined;
      index += 1;
    }
    const octet = readNumber(text, index, 10);
    if (octet < 0 || octet > 0xff) return undefined;
    if (octetReading === 'strict' && numberEnd - index > 1 && text[index] === '0') return undefined;
    octets[position] = octet;
    index = numberEnd;
  }
  return index === text.length ? octets : undefined;
}

/** IPv6 text as Go reads it (no zone): hex groups, one `::`, optional trailing IPv4. */
function parseIPv6Bytes(text: string, octetReading: OctetReading): number[] | undefined {
  const bytes: number[] = [];
  let rest = text;
  let ellipsis = -1;
  if (rest.startsWith('::')) {
    ellipsis = 0;
    rest = rest.slice(2);
    if (rest === '') return new Array<number>(IPV6_BYTES).fill(0);
  }
  while (bytes.length < IPV6_BYTES) {
    const group = readNumber(rest, 0, 16);
    if (group < 0 || group > 0xffff) return undefined;
    const end = numberEnd;
    if (end < rest.length && rest[end] === '.') {
      // An embedded IPv4 address must fill the last four bytes (or follow the ellipsis).
      if (ellipsis < 0 && bytes.length !== IPV6_BYTES - IPV4_OCTETS) return undefined;
      if (bytes.length + IPV4_OCTETS > IPV6_BYTES) return undefined;
      const octets = parseIPv4Octets(rest, octetReading);
      if (octets === undefined) return undefined;
      bytes.push(...octets);
      rest = '';
      break;
    }
    bytes.push(group >> 8, group & 0xff);
    rest = rest.slice(end);
    if (rest === '') break;
    if (rest[0] !== ':' || rest.length === 1) return undefined;
    rest = rest.slice(1);
    if (rest[0] === ':') {
      if (ellipsis >= 0) return undefined;
      ellipsis = bytes.length;
      rest = rest.slice(1);
      if (rest === '') break;
    }
  }
  if (rest !== '') return undefined;
  if (bytes.length === IPV6_BYTES) {
    // A "::" must stand for at least one group of zeros.
    return ellipsis < 0 ? bytes : undefined;
  }
  if (ellipsis < 0) return undefined;
  const zeros = new Array<number>(IPV6_BYTES - bytes.length).fill(0);
  return [...bytes.slice(0, ellipsis), ...zeros, ...bytes.slice(ellipsis)];
}

/**
 * Go's `net.ParseIP`: the address bytes (4 for dotted IPv4, 16 for IPv6 text), or `undefined`
 * where Go returns nil. The first `.` or `:` decides the family, as in Go, so `1.2.3.4:53` is not
 * an IP. `octetReading` defaults to the lenient reading of the Go ≤ 1.15 toolchains kubeadm used.
 */
export function parseGoIP(text: string, octetReading: OctetReading = 'lenient'): readonly number[] | undefined {
  for (let index = 0; index < text.length; index += 1) {
    const character = text[index];
    if (character === '.') return parseIPv4Octets(text, octetReading);
    if (character === ':') return parseIPv6Bytes(text, octetReading);
  }
  return undefined;
}

/** Whether Go's `net.ParseIP` accepts `text` (lenient reading unless told otherwise). */
export function isGoIP(text: string, octetReading: OctetReading = 'lenient'): boolean {
  return parseGoIP(text, octetReading) !== undefined;
}

function isIPv4Mapped(bytes: readonly number[]): boolean {
  return bytes.length === IPV6_BYTES && bytes.slice(0, 10).every((byte) => byte === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
}

/**
 * Go's `net.IP.String()`: dotted decimal for IPv4 (also IPv4-mapped IPv6), otherwise lower-case
 * hex groups with the first longest run (≥ 2) of zero groups written as `::`.
 */
export function formatGoIP(bytes: readonly number[]): string {
  if (bytes.length === IPV4_OCTETS) return bytes.join('.');
  if (isIPv4Mapped(bytes)) return bytes.slice(12).join('.');
  const groups = Array.from({ length: 8 }, (_, index) => ((bytes[index * 2] ?? 0) << 8) | (bytes[index * 2 + 1] ?? 0));
  let bestStart = -1;
  let bestLength = 1;
  for (let start = 0; start < groups.length; ) {
    let end = start;
    while (end < groups.length && groups[end] === 0) end += 1;
    if (end - start > bestLength) {
      bestStart = start;
      bestLength = end - start;
    }
    start = end === start ? start + 1 : end;
  }
  const hex = groups.map((group) => group.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

/**
 * The shape nearly every nameserver in a real ConfigMap has: `10.0.0.53` or `10.0.0.53:5353`,
 * the address already canonical (octets 0–255 without leading zeros), the port 1–5 digits.
 * Returns the length of the address part (where the `:` is, or the text's length), or -1 for
 * any other text; callers use it to skip the general readings, which agree on these. A scan
 * rather than a regular expression: it runs for every nameserver, twice.
 */
export function plainIPv4Length(text: string): number {
  let index = 0;
  for (let octet = 0; octet < IPV4_OCTETS; octet += 1) {
    if (octet > 0) {
      if (text.charCodeAt(index) !== 0x2e) return -1;
      index += 1;
    }
    const start = index;
    let value = 0;
    for (; index < text.length && index - start < 4; index += 1) {
      const code = text.charCodeAt(index);
      if (!isDecimalDigit(code)) break;
      value = value * 10 + code - 0x30;
    }
    const digits = index - start;
    if (digits === 0 || digits > 3 || value > 0xff || (digits > 1 && text.charCodeAt(start) === 0x30)) return -1;
  }
  if (index === text.length) return index;
  const portDigits = text.length - index - 1;
  if (text.charCodeAt(index) !== 0x3a || portDigits < 1 || portDigits > 5) return -1;
  for (let digit = index + 1; digit < text.length; digit += 1) if (!isDecimalDigit(text.charCodeAt(digit))) return -1;
  return index;
}

/** Maximum length of a DNS-1123 subdomain (apimachinery `DNS1123SubdomainMaxLength`). */
const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
const DNS1123_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

/** apimachinery's `IsDNS1123Subdomain`: lower-case labels, dots, ≤ 253 characters. */
export function isDns1123Subdomain(text: string): boolean {
  return text.length <= DNS1123_SUBDOMAIN_MAX_LENGTH && DNS1123_SUBDOMAIN.test(text);
}

const DNS1123_LABEL_MAX_LENGTH = 63;
const DNS1123_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** apimachinery's `IsDNS1123Label`: one lower-case label of ≤ 63 characters. */
export function isDns1123Label(text: string): boolean {
  return text.length <= DNS1123_LABEL_MAX_LENGTH && DNS1123_LABEL.test(text);
}

/** apimachinery's `IsDNS1035Label`: a DNS-1123 label that starts with a letter (a Service's name). */
export function isDns1035Label(text: string): boolean {
  return isDns1123Label(text) && /^[a-z]/.test(text);
}

/** How a kubeadm release turned a port string into a number. */
export type PortParser = 'atoi' | 'uint16';

/**
 * kubeadm's `ParsePort`: a port in 1…65535. v1.15–v1.18 used `strconv.Atoi` (an optional sign is
 * accepted, so `+53` passes); v1.19+ used `strconv.ParseUint(port, 10, 16)` (digits only).
 */
export function isValidPort(port: string, parser: PortParser): boolean {
  const signed = parser === 'atoi' && (port.startsWith('+') || port.startsWith('-'));
  const digits = signed ? port.slice(1) : port;
  if (!/^[0-9]+$/.test(digits) || port.startsWith('-')) return false;
  // Leading zeros are fine for both parsers; compare the significant digits only.
  const significant = digits.replace(/^0+/, '');
  return significant.length > 0 && significant.length <= 5 && Number(significant) <= 65535;
}
