import { ServerKeyError } from '../corefile/errors.js';
import { parseServerKey, readServerAddress } from '../corefile/server-key.js';
import type { ServerAddress } from '../corefile/server-key.js';
import type { CoreDnsFeatures } from '../coredns/features.js';
import { holdsPlaceholder } from './placeholders.js';

/**
 * A server block key as a given CoreDNS release reads it. `parseServerKey` explains keys the way
 * CoreDNS 1.14.7 does; this adds the differences of older releases that change whether a key is
 * accepted or which keys collide (docs/reference/corefile-syntax.md §5.1, §5.2):
 * `:53` is the root zone before 1.3.1, a leading dot is accepted before 1.10.0, and zones keep
 * their case before 1.14.7 (so `EXAMPLE.org` and `example.org` do not collide there).
 */
export type KeyReading =
  | { readonly kind: 'placeholder' }
  | { readonly kind: 'invalid'; readonly error: ServerKeyError }
  | {
      readonly kind: 'ok';
      readonly address: ServerAddress;
      /** Zones as CoreDNS matches them against (lower-cased) query names. */
      readonly zones: readonly string[];
      /** Zones as the release stores them, for duplicate detection (case kept before 1.14.7). */
      readonly storedZones: readonly string[];
      /** The zone text as written has upper-case letters (never for CIDR keys). */
      readonly upperCase: boolean;
    };

/**
 * How `features`' release reads `key`. `read`: `readServerAddress(key)`, when the caller has it
 * already (the translator's self-check reads every key for its own rules): taken instead of
 * reading the key again, which gives the same reading.
 */
export function readServerKey(key: string, features: CoreDnsFeatures, read?: ServerAddress): KeyReading {
  if (holdsPlaceholder(key)) return { kind: 'placeholder' };
  let address: ServerAddress;
  let leadingDot = false;
  try {
    address = read ?? readServerAddress(key);
  } catch (error) {
    if (!(error instanceof ServerKeyError)) throw error;
    const retry = olderReading(key, error, features);
    if (retry === undefined) return { kind: 'invalid', error };
    address = retry.address;
    leadingDot = retry.leadingDot;
  }
  const host = hostAsWritten(address);
  const prefix = leadingDot ? '.' : '';
  const zones = leadingDot ? address.zones.map((zone) => (zone === '.' ? zone : prefix + zone)) : address.zones;
  const upperCase = address.cidr === undefined && hasUpperCase(host);
  const storedZones =
    address.cidr === undefined && !features.serverBlockZonesLowercased ? [fullyQualified(`${prefix}${host}`)] : zones;
  return { kind: 'ok', address, zones, storedZones, upperCase };
}

/** Keys older releases accept although 1.14.7 refuses them. */
function olderReading(key: string, error: ServerKeyError, features: CoreDnsFeatures): { address: ServerAddress; leadingDot: boolean } | undefined {
  if (error.code !== 'invalid-domain-name') return undefined;
  const scheme = /^[a-z0-9]+:\/\//.exec(key)?.[0] ?? '';
  const rest = key.slice(scheme.length);
  if (!features.emptyHostKeyRefused && (rest === '' || rest.startsWith(':'))) {
    return { address: { ...parseServerKey(`${scheme}.${rest}`), key }, leadingDot: false };
  }
  if (!features.leadingDotKeyRefused && rest.startsWith('.') && !rest.startsWith('..')) {
    try {
      return { address: { ...parseServerKey(`${scheme}${rest.slice(1)}`), key }, leadingDot: true };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The zone part of the key as written (no scheme, no port, no leading dot). */
function hostAsWritten(address: ServerAddress): string {
  const key = address.key;
  const { transport } = address;
  let rest = key.startsWith(transport) && key.startsWith('://', transport.length) ? key.slice(transport.length + 3) : key;
  if (address.explicitPort) rest = rest.slice(0, rest.lastIndexOf(':'));
  if (rest.startsWith('.') && rest !== '.') rest = rest.slice(1);
  return rest === '' ? '.' : rest;
}

/** `/[A-Z]/.test(text)`, without the regular expression (every key is asked). */
function hasUpperCase(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 0x41 && code <= 0x5a) return true;
  }
  return false;
}

function fullyQualified(name: string): string {
  return name.endsWith('.') ? name : `${name}.`;
}

/** `dns://example.org.:53`: what CoreDNS compares to find a zone defined twice. */
export function storedAddressKey(address: ServerAddress, zone: string): string {
  return `${address.transport}://${zone}:${address.port ?? ''}`;
}
