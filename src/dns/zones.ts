/**
 * DNS names as the translator compares them: lower-case, no trailing dot, punycode for non-ASCII
 * labels, `''` for the root. kube-dns only accepted names already in that form; with `--force`
 * other spellings are normalized (and the translator says so).
 */

/** The cluster domain of kube-dns (`--domain`), kubeadm and the translator when none is given. */
export const DEFAULT_CLUSTER_DOMAIN = 'cluster.local';

export interface NormalizedZone {
  readonly zone: string;
  /** What was changed, for the diagnostic: e.g. `lower-cased`, `trailing dot removed`, `punycode`. */
  readonly changes: readonly string[];
}

const MAX_LABEL_LENGTH = 63;
const MAX_NAME_LENGTH = 253;
const HOSTNAME_LABEL = /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?$/;

/** Lower-case hostname labels joined by dots: a name {@link normalizeZone} leaves as it is, label lengths aside. */
const CANONICAL_NAME = /^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*$/;

/** `name` in canonical form, or a reason it cannot be a zone CoreDNS serves as kube-dns meant. */
export function normalizeZone(name: string): NormalizedZone | { readonly problem: string } {
  if (name.length <= MAX_NAME_LENGTH && CANONICAL_NAME.test(name) && labelsFit(name)) return { zone: name, changes: [] };
  return normalizeZoneInFull(name);
}

/** Every dot-separated label of `name` is at most {@link MAX_LABEL_LENGTH} long. */
function labelsFit(name: string): boolean {
  let labelStart = 0;
  for (let dot = name.indexOf('.'); dot !== -1; dot = name.indexOf('.', dot + 1)) {
    if (dot - labelStart > MAX_LABEL_LENGTH) return false;
    labelStart = dot + 1;
  }
  return name.length - labelStart <= MAX_LABEL_LENGTH;
}

/** {@link normalizeZone} without its shortcut for names already in canonical form. */
export function normalizeZoneInFull(name: string): NormalizedZone | { readonly problem: string } {
  const changes: string[] = [];
  let zone = name;
  if (zone.endsWith('.') && zone !== '.') {
    zone = zone.slice(0, -1);
    changes.push('trailing dot removed');
  }
  if (zone !== zone.toLowerCase()) {
    zone = zone.toLowerCase();
    changes.push('lower-cased');
  }
  // eslint-disable-next-line no-control-regex
  if (/[^\x00-\x7f]/.test(zone)) {
    const ascii = toPunycode(zone);
    if (ascii === undefined) return { problem: `'${name}' cannot be converted to an ASCII (punycode) name` };
    zone = ascii;
    changes.push('converted to punycode');
  }
  if (zone === '' || zone === '.') return { problem: 'the root zone cannot be a stub domain' };
  if (zone.length > MAX_NAME_LENGTH) return { problem: `'${zone}' is longer than ${MAX_NAME_LENGTH} characters` };
  for (const label of zone.split('.')) {
    if (label === '') return { problem: `'${zone}' has an empty label` };
    if (label.length > MAX_LABEL_LENGTH) return { problem: `'${zone}' has a label longer than ${MAX_LABEL_LENGTH} characters` };
    if (!HOSTNAME_LABEL.test(label)) return { problem: `'${zone}' has a label with characters other than letters, digits, '-' and '_'` };
  }
  return { zone, changes };
}

/** IDNA via the URL parser every JavaScript runtime has: `bücher.example` → `xn--bcher-kva.example`. */
function toPunycode(name: string): string | undefined {
  try {
    const host = new URL(`http://${name}/`).hostname;
    return host === '' ? undefined : host;
  } catch {
    return undefined;
  }
}

/** `child` equals `parent` or lies below it (label-wise; both canonical). */
export function isWithin(child: string, parent: string): boolean {
  if (parent === '') return true;
  // `child.endsWith('.' + parent)` without building that string: this runs for every stub zone.
  const dot = child.length - parent.length - 1;
  return child === parent || (dot >= 0 && child.charCodeAt(dot) === 0x2e && child.endsWith(parent));
}

/** `ancestor` lies strictly above `name`. */
export function isStrictAncestor(ancestor: string, name: string): boolean {
  return ancestor !== name && isWithin(name, ancestor);
}
