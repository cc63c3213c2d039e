import { formatGoIP, parseGoIP, plainIPv4Length, splitHostPort } from '../dns/go-net.js';

/**
 * A nameserver from the kube-dns ConfigMap, read as a CoreDNS `forward` target: an IP address
 * (canonical text, so CoreDNS's Go parser reads the same address kube-dns did) or a hostname,
 * with an optional port.
 */
export type ForwardTarget =
  | { readonly kind: 'ip'; readonly address: readonly number[]; readonly family: 4 | 6; readonly port: number | undefined; readonly text: string }
  | { readonly kind: 'hostname'; readonly name: string; readonly port: number | undefined; readonly text: string };

export type TargetReading =
  | { readonly ok: true; readonly target: ForwardTarget; /** The IP was written differently (e.g. `010.0.0.1`). */ readonly rewritten: boolean }
  | { readonly ok: false; readonly problem: string; readonly code: 'invalid-nameserver' | 'port-out-of-range' };

const HOSTNAME = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/;

function joinTarget(host: string, family: 4 | 6 | undefined, port: number | undefined): string {
  if (port === undefined) return host;
  return family === 6 ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * Reads `text` the way kube-dns meant it: `IP`, `IP:port`, `[IPv6]:port`, bare IPv6, or a
 * hostname (kube-dns allowed hostnames without a port only). Ports must be 1–65535.
 */
export function readForwardTarget(text: string): TargetReading {
  // The common `10.0.0.53` / `10.0.0.53:5353`: already canonical, so nothing to split or reprint.
  const addressLength = plainIPv4Length(text);
  if (addressLength === text.length) return { ok: true, target: { kind: 'ip', address: parseGoIP(text) ?? [], family: 4, port: undefined, text }, rewritten: false };
  if (addressLength > 0) {
    const port = Number(text.slice(addressLength + 1));
    if (port >= 1 && port <= 65535) {
      const host = text.slice(0, addressLength);
      // Without leading zeros the port is written as it reads: the text is already the target's.
      const written = text.charCodeAt(addressLength + 1) === 0x30 ? joinTarget(host, 4, port) : text;
      return { ok: true, target: { kind: 'ip', address: parseGoIP(host) ?? [], family: 4, port, text: written }, rewritten: false };
    }
  }
  return readForwardTargetInFull(text);
}

/** {@link readForwardTarget} without its shortcut for plain IPv4 addresses. */
export function readForwardTargetInFull(text: string): TargetReading {
  const split = splitHostPort(text);
  // A bare IPv6 address does not split; `host:port` does.
  const host = split !== undefined && parseGoIP(text) === undefined ? split.host : text;
  const portText = split !== undefined && host !== text ? split.port : undefined;
  let port: number | undefined;
  if (portText !== undefined) {
    if (!/^[0-9]{1,5}$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535) {
      return { ok: false, code: 'port-out-of-range', problem: `port '${portText}' is not a number from 1 to 65535` };
    }
    port = Number(portText);
  }
  const address = parseGoIP(host, 'lenient');
  if (address !== undefined) {
    const canonical = formatGoIP(address);
    const family = canonical.includes(':') ? 6 : 4;
    const emitted = joinTarget(canonical, family, port);
    const mapped = address.length === 16 && family === 4;
    return {
      ok: true,
      target: { kind: 'ip', address: mapped ? address.slice(12) : address, family, port, text: emitted },
      rewritten: canonical !== host,
    };
  }
  const lower = host.toLowerCase();
  const name = lower.endsWith('.') ? lower.slice(0, -1) : lower;
  if (/(^|\.)[0-9]+$/.test(name)) {
    // No top-level domain is all digits (RFC 3696 §2): `10.x.x.59` is a mangled address, not a name.
    return { ok: false, code: 'invalid-nameserver', problem: `'${text}' looks like an IP address but is not one` };
  }
  if (HOSTNAME.test(name)) {
    return { ok: true, target: { kind: 'hostname', name, port, text: joinTarget(name, undefined, port) }, rewritten: name !== host };
  }
  return { ok: false, code: 'invalid-nameserver', problem: `'${text}' is neither an IP address (with an optional port) nor a hostname` };
}

/** 127.0.0.0/8 and ::1: inside the CoreDNS pod these are CoreDNS itself (or nothing). */
export function isLoopback(target: ForwardTarget): boolean {
  if (target.kind !== 'ip') return target.name === 'localhost';
  if (target.family === 4) return target.address[0] === 127;
  return target.address.every((byte, index) => byte === (index === 15 ? 1 : 0));
}

/** The same address (ports ignored: any port of the DNS Service IP is CoreDNS). */
export function isSameAddress(target: ForwardTarget, ip: string): boolean {
  const other = parseGoIP(ip, 'lenient');
  if (target.kind !== 'ip' || other === undefined) return false;
  return formatGoIP(target.address) === formatGoIP(other);
}
