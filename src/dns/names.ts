/**
 * Query names and zones as both routing models compare them: lower case, no trailing dot, `''` for
 * the root (the convention of `src/dns/zones.ts`). Both dnsmasq and CoreDNS (≥ 1.6.4) match
 * names case-insensitively, so lower-casing loses nothing. Escaped dots (`a\.b`) are not
 * interpreted: query names and zones are treated as plain dot-separated labels.
 *
 * Pure: no Node APIs.
 */

/** `name` in the models' form: lower case, trailing dot removed, `''` for the root (`.`). */
export function canonicalName(name: string): string {
  const lower = name.trim().toLowerCase();
  if (lower === '.' || lower === '') return '';
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

/** How a name is shown to people: the root as `.`, everything else without a trailing dot. */
export function displayName(name: string): string {
  return name === '' ? '.' : name;
}

/** A zone written by CoreDNS (`acme.local.`, `.`) in the models' form. */
export function fromFullyQualified(zone: string): string {
  return canonicalName(zone);
}

/** The zones strictly above `name`, nearest first, ending with the root `''`. */
export function ancestors(name: string): string[] {
  const result: string[] = [];
  let rest = name;
  while (rest !== '') {
    const dot = rest.indexOf('.');
    rest = dot < 0 ? '' : rest.slice(dot + 1);
    result.push(rest);
  }
  return result;
}

/** `name` itself, then its ancestors: the suffixes a "most specific zone wins" lookup tries. */
function suffixes(name: string): string[] {
  return [name, ...ancestors(name)];
}

/** `name` equals `zone` or lies below it, label-wise. */
export function isInZone(name: string, zone: string): boolean {
  return zone === '' || name === zone || name.endsWith(`.${zone}`);
}

/** The labels of `name` above `zone` (`name` must be in `zone`): `a.b` for `a.b.acme.local` in `acme.local`. */
export function labelsAbove(name: string, zone: string): string[] {
  if (name === zone) return [];
  const prefix = zone === '' ? name : name.slice(0, name.length - zone.length - 1);
  return prefix.split('.');
}

/**
 * A set of zones, each with a value, answering "which zone is the most specific one containing
 * this name" in time proportional to the number of labels of the name (no scan over zones).
 */
export class ZoneTable<T> {
  readonly #entries = new Map<string, T>();

  get size(): number {
    return this.#entries.size;
  }

  has(zone: string): boolean {
    return this.#entries.has(zone);
  }

  get(zone: string): T | undefined {
    return this.#entries.get(zone);
  }

  set(zone: string, value: T): void {
    this.#entries.set(zone, value);
  }

  zones(): IterableIterator<string> {
    return this.#entries.keys();
  }

  /** The most specific zone containing `name` (the root `''` last), with its value. */
  longestMatch(name: string): { zone: string; value: T } | undefined {
    for (const zone of suffixes(name)) {
      const value = this.#entries.get(zone);
      if (value !== undefined) return { zone, value };
    }
    return undefined;
  }
}

/**
 * Canonical DNS order (RFC 4034 §6.1, on the lower-case text): compares label by label from the
 * root, so that a zone sorts right before its children and related names stay together.
 */
export function compareNames(a: string, b: string): number {
  const left = a === '' ? [] : a.split('.').reverse();
  const right = b === '' ? [] : b.split('.').reverse();
  const length = Math.min(left.length, right.length);
  for (let index = 0; index < length; index += 1) {
    const x = left[index] as string;
    const y = right[index] as string;
    if (x !== y) return x < y ? -1 : 1;
  }
  return left.length - right.length;
}
