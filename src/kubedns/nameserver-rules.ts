import { formatGoIP, isDns1123Subdomain, parseGoIP, plainIPv4Length, splitHostPort } from '../dns/go-net.js';
import type { KubeDnsRules } from './kube-dns-versions.js';

/**
 * kube-dns's acceptance rules for nameserver text, per version (pkg/dns/config `Validate`;
 * docs/reference/kube-dns-and-coredns.md §1.2). Each function returns why kube-dns refused
 * the value, or `undefined` when it accepted it.
 */

function isIpText(text: string, rules: KubeDnsRules): boolean {
  if (rules.ipText === 'lenient') return parseGoIP(text, 'lenient') !== undefined;
  const bytes = parseGoIP(text, 'strict');
  return bytes !== undefined && formatGoIP(bytes) === text;
}

/** `strconv.ParseUint(port, 10, 16)`: digits only, 0…65535. */
function isUint16(port: string): boolean {
  return /^[0-9]+$/.test(port) && port.replace(/^0+(?=.)/, '').length <= 5 && Number(port) <= 65535;
}

/** `strconv.Atoi` within 1…65535. */
function isPortNumber(port: string): boolean {
  return /^[+]?[0-9]+$/.test(port) && port.replace(/^\+?0*/, '').length <= 5 && Number(port) >= 1 && Number(port) <= 65535;
}

/** Why kube-dns `rules.version` refused `nameserver` of a stub domain, if it did. */
export function stubNameserverProblem(nameserver: string, rules: KubeDnsRules): string | undefined {
  // Every version accepted a canonical dotted quad, and one with a port once ports were split off.
  const addressLength = plainIPv4Length(nameserver);
  if (addressLength === nameserver.length) return undefined;
  if (addressLength > 0 && rules.stubPortSplit !== 'none' && Number(nameserver.slice(addressLength + 1)) <= 65535) return undefined;
  return stubNameserverProblemInFull(nameserver, rules);
}

/** {@link stubNameserverProblem} without its shortcut for plain IPv4 addresses. */
export function stubNameserverProblemInFull(nameserver: string, rules: KubeDnsRules): string | undefined {
  let host = nameserver;
  let port = '';
  if (rules.stubPortSplit === 'host-port') {
    const split = splitHostPort(nameserver);
    if (split) ({ host, port } = split);
  } else if (rules.stubPortSplit === 'first-colon') {
    const colon = nameserver.indexOf(':');
    if (colon >= 0) {
      host = nameserver.slice(0, colon);
      port = nameserver.slice(colon + 1);
    }
  }
  if (port !== '' && !isUint16(port)) {
    if (rules.stubPortSplit === 'first-colon' && nameserver.split(':').length > 2) {
      return `kube-dns ${rules.version} splits a nameserver at its first colon, so IPv6 addresses are refused (accepted from 1.17.0)`;
    }
    return `port '${port}' is not a number from 0 to 65535`;
  }
  if (!isIpText(host, rules) && !isDns1123Subdomain(nameserver)) {
    if (rules.ipText === 'canonical' && parseGoIP(host, 'lenient') !== undefined) {
      return `kube-dns ${rules.version} accepts only canonical IP text ('${host}' is written differently from '${formatGoIP(parseGoIP(host, 'lenient') ?? [])}')`;
    }
    if (rules.stubPortSplit === 'none' && nameserver.includes(':')) {
      return `kube-dns ${rules.version} accepts no port on stub nameservers (accepted from 1.14.2)`;
    }
    return 'neither an IP address (with an optional port) nor a hostname without a port';
  }
  return undefined;
}

/** Why kube-dns `rules.version` refused `nameserver` in `upstreamNameservers`, if it did. */
export function upstreamNameserverProblem(nameserver: string, rules: KubeDnsRules): string | undefined {
  if (isIpText(nameserver, rules)) return undefined;
  if (!rules.upstreamPorts) return `kube-dns ${rules.version} accepts only bare IP addresses here (ports from 1.14.9)`;
  const split = splitHostPort(nameserver);
  if (split === undefined) return 'not an IP address or IP:port (kube-dns accepts no hostnames here)';
  if (!isIpText(split.host, rules)) return `'${split.host}' is not an IP address (kube-dns accepts no hostnames here)`;
  if (!isPortNumber(split.port)) return `port '${split.port}' is not a number from 1 to 65535`;
  return undefined;
}
