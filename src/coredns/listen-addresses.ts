import { formatGoIP, parseGoIP, splitHostPort } from '../dns/go-net.js';
import type { CoreDnsFeatures } from './features.js';

/**
 * The HTTP listeners some plugins open besides the DNS servers (health, ready, prometheus,
 * pprof), as far as the question "do two of them collide?" needs them. See
 * {@link CoreDnsFeatures.healthListener} for which releases refuse a second `health` listener.
 *
 * Pure: no Node APIs.
 */

/** Where `health` listens when its line names no address: port 8080 on every interface. */
export const HEALTH_DEFAULT_ADDRESS = ':8080';

/**
 * How many `health` listeners one server block asks for in `features`' release: one per key
 * while plugin setup runs per key (≤1.8.4), else one.
 */
export function healthListenersOfBlock(features: CoreDnsFeatures, keyCount: number): number {
  return features.pluginSetup === 'per-key' ? Math.max(keyCount, 1) : 1;
}

/** A listen address read as Go's `net.Listen("tcp", …)` gets it; `undefined` if it is no `host:port`. */
interface ListenAddress {
  /** `''` for every interface; an IP in canonical form; else a host name in lower case. */
  readonly host: string;
  readonly port: string;
}

function readListenAddress(text: string): ListenAddress | undefined {
  const split = splitHostPort(text);
  if (split === undefined || split.port === '') return undefined;
  const port = /^[0-9]+$/.test(split.port) ? String(Number(split.port)) : split.port;
  const bytes = parseGoIP(split.host, 'strict');
  if (bytes === undefined) return { host: split.host.toLowerCase(), port };
  const canonical = formatGoIP(bytes);
  return { host: canonical === '0.0.0.0' || canonical === '::' ? '' : canonical, port };
}

/**
 * Whether two listen addresses (`host:port`, `:port`) cannot both be bound by plain listeners:
 * the same port, and the same host or one of them every interface (`:8080`, `0.0.0.0:8080`,
 * `[::]:8080`). Text that is no `host:port` collides with nothing (the plugin refuses it anyway).
 */
export function listenAddressesCollide(first: string, second: string): boolean {
  const a = readListenAddress(first);
  const b = readListenAddress(second);
  if (a === undefined || b === undefined || a.port !== b.port) return false;
  return a.host === '' || b.host === '' || a.host === b.host;
}
