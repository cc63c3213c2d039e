import { isDomainName } from '../corefile/server-key.js';
import { parseGoIP, plainIPv4Length, splitHostPort } from '../dns/go-net.js';
import { isLoopback, readForwardTarget } from './forward-targets.js';

/**
 * A `forward`/`proxy` destination ("TO") read the way CoreDNS reads it
 * (docs/reference/kube-dns-and-coredns.md §2.3, `parse.HostPortOrFile`), as opposed to
 * `coredns/forward-targets.ts`, which reads a kube-dns nameserver the way kube-dns meant it:
 *
 * - an optional scheme `dns://`, `tls://`, `grpc://` or `https://`;
 * - an IP address (Go's strict `net.ParseIP`: `010.0.0.1` is not one), bare or as `IP:PORT` /
 *   `[IPv6]:PORT`; the port is **not** range-checked by CoreDNS (it fails when dialling);
 * - otherwise a resolv.conf-style file; from 1.14.4 a text that is no file but passes
 *   `dns.IsDomainName` is a host name resolved at startup. We cannot look at the file system, so a
 *   text with a `/` counts as a file and anything else as a host name (if it is a domain name).
 *
 * Pure: no Node APIs.
 */

export type DestinationScheme = 'dns' | 'tls' | 'grpc' | 'https';

export type Destination =
  /** Holds `{$NAME}` or `{%NAME%}`: its value is not known. */
  | { readonly kind: 'placeholder'; readonly text: string }
  /** A resolv.conf-style file. */
  | { readonly kind: 'file'; readonly text: string; readonly scheme: DestinationScheme; readonly path: string }
  | {
      readonly kind: 'ip';
      readonly text: string;
      readonly scheme: DestinationScheme;
      /** The address as written (without brackets and port). */
      readonly host: string;
      /** The port as written, if any (not necessarily valid). */
      readonly port: string | undefined;
      /** 127.0.0.0/8 or ::1. */
      readonly loopback: boolean;
    }
  | {
      readonly kind: 'hostname';
      readonly text: string;
      readonly scheme: DestinationScheme;
      readonly name: string;
      readonly port: string | undefined;
      /** `localhost`: resolves to the loopback address. */
      readonly loopback: boolean;
    }
  | { readonly kind: 'invalid'; readonly text: string; readonly scheme: DestinationScheme; readonly problem: string };

const SCHEMES: readonly DestinationScheme[] = ['dns', 'tls', 'grpc', 'https'];

/** The port a destination without one is dialled on (https/grpc are refused or unusual; 443 as in the server keys). */
export function defaultDestinationPort(scheme: DestinationScheme): string {
  return scheme === 'tls' ? '853' : scheme === 'dns' ? '53' : '443';
}

/** Whether `text` holds an environment placeholder CoreDNS expands before plugins see it. */
export function hasPlaceholder(text: string): boolean {
  if (!text.includes('{')) return false;
  return /\{\$[^}]*\}|\{%[^}]*%\}/.test(text);
}

/** Reads one destination; never throws. */
export function readDestination(text: string): Destination {
  // Most destinations are `10.0.0.53` or `10.0.0.53:5353`, already canonical: read directly.
  const length = plainIPv4Length(text);
  if (length > 0) {
    const loopback = text.charCodeAt(0) === 0x31 && text.charCodeAt(1) === 0x32 && text.charCodeAt(2) === 0x37 && text.charCodeAt(3) === 0x2e;
    return length === text.length
      ? { kind: 'ip', text, scheme: 'dns', host: text, port: undefined, loopback }
      : { kind: 'ip', text, scheme: 'dns', host: text.slice(0, length), port: text.slice(length + 1), loopback };
  }
  return readDestinationInFull(text);
}

/** {@link readDestination} without its shortcut for plain IPv4 addresses (the shortcut's property test compares the two). */
export function readDestinationInFull(text: string): Destination {
  if (hasPlaceholder(text)) return { kind: 'placeholder', text };
  let scheme: DestinationScheme = 'dns';
  let rest = text;
  if (text.includes('://')) {
    for (const candidate of SCHEMES) {
      if (text.startsWith(`${candidate}://`)) {
        scheme = candidate;
        rest = text.slice(candidate.length + 3);
        break;
      }
    }
  }
  if (parseGoIP(rest, 'strict') !== undefined) return ipDestination(text, scheme, rest, undefined);
  const split = splitHostPort(rest);
  if (split !== undefined && parseGoIP(split.host, 'strict') !== undefined) return ipDestination(text, scheme, split.host, split.port);
  if (rest.startsWith('[') && rest.endsWith(']') && parseGoIP(rest.slice(1, -1), 'strict') !== undefined) {
    return { kind: 'invalid', text, scheme, problem: `'${text}' is an IPv6 address in brackets without a port, which CoreDNS reads as neither an address nor a file` };
  }
  if (rest.includes('/')) return { kind: 'file', text, scheme, path: rest };
  const host = split?.host ?? rest;
  if (parseGoIP(host, 'lenient') !== undefined) {
    return { kind: 'invalid', text, scheme, problem: `'${host}' is not an IP address for CoreDNS (an octet with a leading zero), nor a file` };
  }
  if (host !== '' && isDomainName(host)) {
    const loopback = /^localhost\.?$/i.test(host);
    return { kind: 'hostname', text, scheme, name: host, port: split?.port, loopback };
  }
  return { kind: 'invalid', text, scheme, problem: `'${text}' is neither an IP address, a file nor a host name` };
}

function ipDestination(text: string, scheme: DestinationScheme, host: string, port: string | undefined): Destination {
  const reading = readForwardTarget(host);
  const loopback = reading.ok && isLoopback(reading.target);
  return { kind: 'ip', text, scheme, host, port, loopback };
}

/** Whether a port text is a number from 1 to 65535 (what dialling needs). */
export function isUsablePort(port: string): boolean {
  return /^[0-9]{1,5}$/.test(port) && Number(port) >= 1 && Number(port) <= 65535;
}
