/**
 * The CoreDNS releases this package knows: the list, the evidence of each, a parser for version
 * text and their order. What each release supports is built on it: the plugins of each release's
 * default build (plugin-cfg.ts), plugin and option availability (availability.ts) and the feature
 * table (features.ts).
 *
 * Evidence keys used in the TSDoc of these modules:
 * - "§N" — docs/reference/kube-dns-and-coredns.md, section N (CoreDNS source read at tags);
 * - "syntax §N" — docs/reference/corefile-syntax.md;
 * - "kubeadm-translation §N" — docs/reference/kubeadm-translation.md;
 * - "notes X" — the CoreDNS release notes of release X (coredns.io blog / `notes/coredns-X.md`);
 * - "CM" — coredns/corefile-migration `migration/versions.go` (plugin lists, new defaults, gaps);
 * - "plugin.cfg" — the `plugin.cfg` of coredns/coredns at each release tag (plugin-cfg.ts);
 * - "middleware/X" — the plugin's directory in the CoreDNS tree before plugins were renamed from
 *   "middleware" (autumn 2017, before 1.0.0), i.e. the plugin predates 1.0.0.
 *
 * Pure data and functions: no Node APIs.
 */

import { InternalError } from '../errors/internal-error.js';
import { checkArgument } from '../errors/arguments.js';
import { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';

/**
 * Every CoreDNS release from 1.0.0 to 1.14.7 that this package has evidence for, oldest first
 * (see {@link COREDNS_RELEASES} for the evidence of each). CoreDNS never published pre-releases,
 * so the list is complete for the versions it names: 1.3.2, 1.4.1, 1.7.2, 1.10.2 … never existed.
 */
export const COREDNS_VERSIONS = [
  '1.0.0', '1.0.1', '1.0.2', '1.0.3', '1.0.4', '1.0.5', '1.0.6',
  '1.1.0', '1.1.1', '1.1.2', '1.1.3', '1.1.4',
  '1.2.0', '1.2.1', '1.2.2', '1.2.3', '1.2.4', '1.2.5', '1.2.6',
  '1.3.0', '1.3.1',
  '1.4.0',
  '1.5.0', '1.5.1', '1.5.2',
  '1.6.0', '1.6.1', '1.6.2', '1.6.3', '1.6.4', '1.6.5', '1.6.6', '1.6.7', '1.6.8', '1.6.9',
  '1.7.0', '1.7.1',
  '1.8.0', '1.8.1', '1.8.2', '1.8.3', '1.8.4', '1.8.5', '1.8.6', '1.8.7',
  '1.9.0', '1.9.1', '1.9.2', '1.9.3', '1.9.4',
  '1.10.0', '1.10.1',
  '1.11.0', '1.11.1', '1.11.2', '1.11.3', '1.11.4',
  '1.12.0', '1.12.1', '1.12.2', '1.12.3', '1.12.4',
  '1.13.0', '1.13.1', '1.13.2',
  '1.14.0', '1.14.1', '1.14.2', '1.14.3', '1.14.4', '1.14.5', '1.14.6', '1.14.7',
] as const;

/** A CoreDNS release this package knows, in canonical form (`1.8.0`, no `v`). */
export type CoreDnsVersion = (typeof COREDNS_VERSIONS)[number];

/** The oldest release modelled. */
export const OLDEST_COREDNS_VERSION: CoreDnsVersion = '1.0.0';

/** The newest release modelled; the default target of the translator. */
export const NEWEST_COREDNS_VERSION: CoreDnsVersion = '1.14.7';

/** Where the existence of a release is documented. */
export type ReleaseEvidence =
  /** Release notes on coredns.io (`content/blog/coredns-X.md`) or in the tree (`notes/coredns-X.md`). */
  | 'release-notes'
  /** An entry (with image digest) in corefile-migration's `migration/versions.go`. */
  | 'corefile-migration'
  /** The CoreDNS image of a Kubernetes release (kubeadm / kube-up), see kubernetes-default-corefile.ts. */
  | 'kubernetes-default'
  /** The CoreDNS tag the reference notes were read at (§0: `v1.14.7`). */
  | 'reference-tag';

export interface CoreDnsRelease {
  readonly version: CoreDnsVersion;
  readonly evidence: readonly ReleaseEvidence[];
  /** Set when the tag exists but the release is unusual (no published images, identical to another). */
  readonly caveat?: string;
  /** Set when no container images of it were published: nobody runs it (1.6.8, 1.8.1, 1.8.2). */
  readonly unpublished?: true;
}

const N = 'release-notes';
const M = 'corefile-migration';
const K = 'kubernetes-default';

function release(version: CoreDnsVersion, evidence: readonly ReleaseEvidence[], caveat?: string, unpublished?: 'unpublished'): CoreDnsRelease {
  const record: CoreDnsRelease = caveat === undefined ? { version, evidence } : { version, evidence, caveat };
  return Object.freeze(unpublished === undefined ? record : { ...record, unpublished: true });
}

/**
 * Each known release with its evidence. Gaps in corefile-migration (§3.3: no 1.6.8, 1.8.1, 1.8.2,
 * 1.11.2; nothing before 1.1.3) are filled from the release notes; the caveats say why
 * corefile-migration skips a release where that is known.
 */
export const COREDNS_RELEASES: readonly CoreDnsRelease[] = Object.freeze([
  ...(['1.0.0', '1.0.1', '1.0.2', '1.0.3', '1.0.4', '1.0.5'] as const).map((v) => release(v, [N])),
  release('1.0.6', [N, K]),
  ...(['1.1.0', '1.1.1', '1.1.2'] as const).map((v) => release(v, [N])),
  release('1.1.3', [N, M, K]),
  release('1.1.4', [N, M]),
  release('1.2.0', [N, M]),
  release('1.2.1', [N, M]),
  release('1.2.2', [M, K]),
  ...(['1.2.3', '1.2.4', '1.2.5'] as const).map((v) => release(v, [N, M])),
  release('1.2.6', [N, M, K]),
  release('1.3.0', [N, M]),
  release('1.3.1', [N, M, K]),
  release('1.4.0', [N, M]),
  release('1.5.0', [N, M]),
  release('1.5.1', [M]),
  release('1.5.2', [N, M]),
  release('1.6.0', [N, M]),
  release('1.6.1', [N, M]),
  release('1.6.2', [M, K]),
  release('1.6.3', [N, M]),
  release('1.6.4', [M]),
  release('1.6.5', [N, M, K]),
  release('1.6.6', [N, M]),
  release('1.6.7', [N, M, K]),
  release(
    '1.6.8',
    [N],
    'tagged, but the release automation broke after tagging, so 1.6.9 followed with identical content (notes 1.6.9); corefile-migration skips it',
    'unpublished',
  ),
  release('1.6.9', [N, M]),
  release('1.7.0', [N, M, K]),
  release('1.7.1', [N, M]),
  release('1.8.0', [N, M, K]),
  release('1.8.1', [N, M], 'its container images were never published (CM); later corefile-migration versions skip it', 'unpublished'),
  release(
    '1.8.2',
    [N],
    'its container images were not uploaded and tagged properly, so 1.8.3 followed the next day with the same changes (notes 1.8.3); corefile-migration calls it "not a valid version"',
    'unpublished',
  ),
  ...(['1.8.3', '1.8.4', '1.8.5', '1.8.6', '1.8.7'] as const).map((v) => release(v, [N, M])),
  ...(['1.9.0', '1.9.1', '1.9.2', '1.9.3', '1.9.4', '1.10.0', '1.10.1', '1.11.0', '1.11.1'] as const).map((v) => release(v, [N, M])),
  release('1.11.2', [N], 'corefile-migration skips it (1.11.1 → 1.11.3); no reason recorded there'),
  ...(['1.11.3', '1.11.4', '1.12.0', '1.12.1', '1.12.2', '1.12.3', '1.12.4', '1.13.0', '1.13.1', '1.13.2', '1.14.0', '1.14.1', '1.14.2'] as const).map((v) =>
    release(v, [N, M]),
  ),
  ...(['1.14.3', '1.14.4', '1.14.5', '1.14.6'] as const).map((v) => release(v, [N])),
  release('1.14.7', ['reference-tag']),
]);

// ---------------------------------------------------------------------------------------------
// Parsing and ordering
// ---------------------------------------------------------------------------------------------

/** Why a text is not a known CoreDNS release: the `code` of an {@link UnknownCoreDnsVersionError}. */
export type UnknownCoreDnsVersionReason =
  /** Not of the form `[v]MAJOR.MINOR.PATCH` (pre-release or build suffixes included). */
  | 'syntax'
  /** `1.8` or `1`: several releases fit; the patch release must be named. */
  | 'incomplete'
  /** Inside the known range, but CoreDNS never released it (`1.4.1`). */
  | 'unreleased'
  /** Older than 1.0.0 or newer than the newest known release. */
  | 'out-of-range';

/** The releases modelled, from the table's ends: `1.0.0 to 1.14.7`. */
export const COREDNS_RELEASE_SPAN = `${OLDEST_COREDNS_VERSION} to ${NEWEST_COREDNS_VERSION}`;

/** How errors about version text end: `known releases: 1.0.0 to 1.14.7`. */
export const KNOWN_RANGE = `known releases: ${COREDNS_RELEASE_SPAN}`;

/** Text that does not name a CoreDNS release this package knows. */
export class UnknownCoreDnsVersionError extends KubeDnsToCoreDnsError {
  override readonly name = 'UnknownCoreDnsVersionError';
  readonly category = 'input';
  declare readonly code: UnknownCoreDnsVersionReason;
  /** The text as given. */
  readonly input: string;
  /** Known releases that fit an incomplete or unreleased version (`1.9` → 1.9.0 … 1.9.4); else empty. */
  readonly candidates: readonly CoreDnsVersion[];

  constructor(input: string, code: UnknownCoreDnsVersionReason, detail: string, candidates: readonly CoreDnsVersion[] = []) {
    super(code, `unknown CoreDNS version '${input}': ${detail} (${KNOWN_RANGE})`);
    this.input = input;
    this.candidates = candidates;
  }
}

interface VersionTriple {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

/** `[v]MAJOR[.MINOR[.PATCH]]`, decimal without leading zeros. */
const VERSION_TEXT = /^v?(0|[1-9]\d{0,5})(?:\.(0|[1-9]\d{0,5}))?(?:\.(0|[1-9]\d{0,5}))?$/;

const KNOWN = new Set<string>(COREDNS_VERSIONS);
const INDEX = new Map<string, number>(COREDNS_VERSIONS.map((version, index) => [version, index]));

function describeList(versions: readonly CoreDnsVersion[]): string {
  if (versions.length <= 8) return versions.join(', ');
  return `${versions.slice(0, 3).join(', ')}, …, ${versions.slice(-2).join(', ')}`;
}

/** Splits `[v]MAJOR.MINOR.PATCH`; throws for anything else (incomplete text included). */
function parseTriple(text: string): VersionTriple {
  const trimmed = text.trim();
  const match = VERSION_TEXT.exec(trimmed);
  if (match === null) {
    throw new UnknownCoreDnsVersionError(text, 'syntax', 'expected MAJOR.MINOR.PATCH such as 1.8.0 or v1.8.0');
  }
  const [, major = '', minor, patch] = match;
  if (minor === undefined || patch === undefined) {
    const prefix = minor === undefined ? `${major}.` : `${major}.${minor}.`;
    const candidates = COREDNS_VERSIONS.filter((version) => version.startsWith(prefix));
    if (candidates.length === 0) {
      throw new UnknownCoreDnsVersionError(text, 'out-of-range', 'no known release starts with it');
    }
    throw new UnknownCoreDnsVersionError(
      text,
      'incomplete',
      `name the patch release, one of ${describeList(candidates)}; '${trimmed}' is not taken to mean any of them`,
      candidates,
    );
  }
  return { major: Number(major), minor: Number(minor), patch: Number(patch) };
}

function tripleKey(triple: VersionTriple): number {
  return (triple.major * 1_000_000 + triple.minor) * 1_000_000 + triple.patch;
}

const OLDEST_KEY = tripleKey(parseTriple(OLDEST_COREDNS_VERSION));
const NEWEST_KEY = tripleKey(parseTriple(NEWEST_COREDNS_VERSION));

/**
 * Parses version text into a known release. Accepts `1.8.0`, `v1.8.0` and surrounding
 * whitespace. Refuses incomplete text (`1.8`, `v1`): features change within a minor series
 * (1.9.4 allows several `forward`s per block, 1.9.0 does not; 1.14.4 resolves hostnames, 1.14.0
 * does not), so silently picking `.0` or the newest patch would give a different Corefile than the
 * user may expect. The error lists the candidates instead.
 *
 * @throws {UnknownCoreDnsVersionError} for malformed, incomplete, unreleased or out-of-range text.
 */
export function parseCoreDnsVersion(text: string): CoreDnsVersion {
  checkArgument('parseCoreDnsVersion', 'text', text, 'string');
  // A known release in canonical form parses to itself; the translator asks this many times per case.
  if (KNOWN.has(text)) return text as CoreDnsVersion;
  const triple = parseTriple(text);
  const canonical = `${triple.major}.${triple.minor}.${triple.patch}`;
  if (KNOWN.has(canonical)) return canonical as CoreDnsVersion;
  const key = tripleKey(triple);
  if (key < OLDEST_KEY) {
    throw new UnknownCoreDnsVersionError(text, 'out-of-range', `releases before ${OLDEST_COREDNS_VERSION} are not modelled`);
  }
  if (key > NEWEST_KEY) {
    throw new UnknownCoreDnsVersionError(
      text,
      'out-of-range',
      `newer than ${NEWEST_COREDNS_VERSION}, the newest release this package knows; pass a known release`,
    );
  }
  const series = COREDNS_VERSIONS.filter((version) => version.startsWith(`${triple.major}.${triple.minor}.`));
  const minor = `${triple.major}.${triple.minor}`;
  const detail =
    series.length === 0
      ? 'CoreDNS never released it'
      : series.length === 1
        ? `CoreDNS never released it; the only ${minor} release is ${series.join('')}`
        : `CoreDNS never released it; the ${minor} releases are ${describeList(series)}`;
  throw new UnknownCoreDnsVersionError(text, 'unreleased', detail, series);
}

/** Whether `text` is a known release in canonical form (no `v`, no whitespace). */
export function isCoreDnsVersion(text: string): text is CoreDnsVersion {
  return KNOWN.has(text);
}

/**
 * Orders two versions (`[v]MAJOR.MINOR.PATCH`, known or not): negative if `a` is older, 0 if equal,
 * positive if newer. Numeric per component, so 1.10.0 is newer than 1.9.4.
 *
 * @throws {UnknownCoreDnsVersionError} when either text is not a complete version.
 */
export function compareCoreDnsVersions(a: string, b: string): number {
  // Known releases are listed oldest first: their order is their index (the translator compares
  // a dozen per case when it picks the Kubernetes default).
  const indexOfA = INDEX.get(a);
  const indexOfB = INDEX.get(b);
  if (indexOfA !== undefined && indexOfB !== undefined) return Math.sign(indexOfA - indexOfB);
  return Math.sign(tripleKey(parseTriple(a)) - tripleKey(parseTriple(b)));
}

/** Whether `version` is `minimum` or newer (both `[v]MAJOR.MINOR.PATCH`). */
export function isCoreDnsVersionAtLeast(version: string, minimum: string): boolean {
  return compareCoreDnsVersions(version, minimum) >= 0;
}

/** The evidence record of a known release. */
export function coreDnsRelease(version: string): CoreDnsRelease {
  const parsed = parseCoreDnsVersion(version);
  const index = INDEX.get(parsed) ?? -1;
  const record = COREDNS_RELEASES[index];
  if (record === undefined || record.version !== parsed) throw new InternalError(`internal: release table out of order at ${parsed}`);
  return record;
}

