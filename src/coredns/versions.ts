/**
 * What each CoreDNS release supports, as far as a kube-dns → CoreDNS translator and a Corefile
 * linter need to know: the releases this package knows, a parser for version text, ordering, a
 * feature table per release and per-plugin / per-option availability.
 *
 * Evidence keys used in the TSDoc below:
 * - "§N" — docs/reference/kube-dns-and-coredns.md, section N (CoreDNS source read at tags);
 * - "syntax §N" — docs/reference/corefile-syntax.md;
 * - "kubeadm-translation §N" — docs/reference/kubeadm-translation.md;
 * - "notes X" — the CoreDNS release notes of release X (coredns.io blog / `notes/coredns-X.md`);
 * - "CM" — coredns/corefile-migration `migration/versions.go` (plugin lists, new defaults, gaps);
 * - "middleware/X" — the plugin's directory in the CoreDNS tree before plugins were renamed from
 *   "middleware" (autumn 2017, before 1.0.0), i.e. the plugin predates 1.0.0.
 *
 * Pure data and functions: no Node APIs.
 */

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
}

const N = 'release-notes';
const M = 'corefile-migration';
const K = 'kubernetes-default';

function release(version: CoreDnsVersion, evidence: readonly ReleaseEvidence[], caveat?: string): CoreDnsRelease {
  return Object.freeze(caveat === undefined ? { version, evidence } : { version, evidence, caveat });
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
  ),
  release('1.6.9', [N, M]),
  release('1.7.0', [N, M, K]),
  release('1.7.1', [N, M]),
  release('1.8.0', [N, M, K]),
  release('1.8.1', [N, M], 'its container images were never published (CM); later corefile-migration versions skip it'),
  release(
    '1.8.2',
    [N],
    'its container images were not uploaded and tagged properly, so 1.8.3 followed the next day with the same changes (notes 1.8.3); corefile-migration calls it "not a valid version"',
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

const KNOWN_RANGE = `known releases: ${OLDEST_COREDNS_VERSION} to ${NEWEST_COREDNS_VERSION}`;

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
  if (record === undefined || record.version !== parsed) throw new Error(`internal: release table out of order at ${parsed}`);
  return record;
}

/** Index in {@link COREDNS_VERSIONS}; the list is sorted, so indexes order releases. */
function rank(version: CoreDnsVersion): number {
  const index = INDEX.get(version);
  if (index === undefined) throw new Error(`internal: ${version} is not a known release`);
  return index;
}

function atLeast(version: CoreDnsVersion, minimum: CoreDnsVersion): boolean {
  return rank(version) >= rank(minimum);
}

// ---------------------------------------------------------------------------------------------
// Plugin and option timelines
// ---------------------------------------------------------------------------------------------

/**
 * How a plugin or option stands in one release.
 * - `available` / `deprecated`: usable (a deprecated one still works, but is announced to go);
 * - `not-yet-added`: it appears in a later release (`since`);
 * - `removed`: a Corefile using it fails to load from `removedIn` on;
 * - `unknown`: no facts are recorded for this name, or not for releases this old.
 */
export type AvailabilityStatus = 'available' | 'deprecated' | 'not-yet-added' | 'removed' | 'unknown';

export interface Availability {
  readonly status: AvailabilityStatus;
  /** First release with it (omitted when unknown). For `unknown` on an old release: where it is confirmed from. */
  readonly since?: CoreDnsVersion;
  readonly deprecatedIn?: CoreDnsVersion;
  readonly removedIn?: CoreDnsVersion;
  /** What to use instead once deprecated or removed. */
  readonly replacement?: string;
  /** Set when, in this release, the default build compiles the plugin in from this external module. */
  readonly externalModule?: string;
  /** A limitation of this release worth telling a user (arguments ignored, not verified, …). */
  readonly caveat?: string;
  /** Where the facts come from (see the module comment for the keys). */
  readonly evidence: string;
}

/** Whether the plugin/option loads in that release (`available` or `deprecated`). */
export function isUsable(availability: Availability): boolean {
  return availability.status === 'available' || availability.status === 'deprecated';
}

interface ExternalRange {
  readonly from: CoreDnsVersion;
  readonly to: CoreDnsVersion;
  readonly module: string;
  readonly caveat?: string;
}

interface CaveatRange {
  readonly from: CoreDnsVersion;
  readonly to: CoreDnsVersion;
  readonly caveat: string;
}

interface Timeline {
  /** First release with it in the default build. */
  readonly since: CoreDnsVersion;
  /** `since` is only where it is confirmed from: older releases answer `unknown`, not `not-yet-added`. */
  readonly confirmedFrom?: true;
  readonly deprecatedIn?: CoreDnsVersion;
  readonly removedIn?: CoreDnsVersion;
  readonly replacement?: string;
  readonly external?: ExternalRange;
  readonly caveats?: readonly CaveatRange[];
  readonly evidence: string;
}

const PRE_1_0 = 'predates 1.0.0 (middleware/';

/**
 * Plugins with version facts. Only names listed here get an answer other than `unknown`; the
 * list covers what Kubernetes Corefiles use plus a few plugins with crisp release-note facts.
 */
const PLUGINS: Readonly<Record<string, Timeline>> = {
  errors: {
    since: '1.0.0',
    evidence: 'in the pre-1.0 coredns/deployment Kubernetes template (realworld/corefiles/02, `log stdout` era) and every kubeadm default (kubeadm-translation §7)',
  },
  health: { since: '1.0.0', evidence: 'notes 1.0.0; pre-1.0 coredns/deployment template (realworld/corefiles/02)' },
  log: { since: '1.0.0', evidence: 'notes 1.0.0 (log stops accepting `stdout`); realworld/corefiles/02' },
  kubernetes: { since: '1.0.0', evidence: 'notes 1.0.0; realworld/corefiles/02' },
  prometheus: { since: '1.0.0', evidence: 'notes 1.0.0 (metrics); `prometheus :9153` in the kubeadm default of CoreDNS 1.0.6' },
  cache: { since: '1.0.0', evidence: `${PRE_1_0}cache); realworld/corefiles/02` },
  proxy: {
    since: '1.0.0',
    deprecatedIn: '1.4.0',
    removedIn: '1.5.0',
    replacement: 'forward',
    evidence: '§2.1, §2.2; notes 1.4.0 (to move to an external repository), 1.5.0 (fully deprecated: "Unknown directive")',
  },
  forward: {
    since: '1.0.5',
    external: {
      from: '1.0.5',
      to: '1.0.5',
      module: 'github.com/coredns/forward',
      caveat: 'plugin.cfg lists it as an external module; whether the released 1.0.5 binary contained it was not checked (§2.1)',
    },
    evidence: '§2.1, §2.3; notes 1.0.5 ("An external plugin forward was added"), 1.0.6 ("has been included in CoreDNS")',
  },
  federation: {
    since: '1.0.0',
    removedIn: '1.7.0',
    external: {
      from: '1.6.3',
      to: '1.6.9',
      module: 'github.com/coredns/federation',
      caveat: 'built from the external repository but still in the default build; its removal in 1.7.0 was announced (notes 1.6.8)',
    },
    evidence: `§2.1, §2.5; ${PRE_1_0}federation); notes 1.7.0 ("The federation plugin … has been removed"); kubernetes/kubernetes#95161`,
  },
  ready: { since: '1.5.0', evidence: '§2.1; CM adds it as a new default at 1.5.0' },
  loop: { since: '1.2.1', evidence: '§2.1, §2.6; CM adds it as a new default at 1.2.1' },
  reload: { since: '1.1.0', evidence: 'notes 1.1.0 ("A new plugin was added: reload")' },
  loadbalance: { since: '1.0.0', evidence: `${PRE_1_0}loadbalance); kubeadm default since Kubernetes 1.12` },
  hosts: { since: '1.0.0', evidence: `${PRE_1_0}hosts); CM plugin lists from 1.1.4` },
  rewrite: { since: '1.0.0', evidence: `${PRE_1_0}rewrite); notes 1.0.2` },
  autopath: { since: '1.0.0', evidence: `notes 1.0.0; ${PRE_1_0}autopath)` },
  template: { since: '1.0.3', evidence: 'notes 1.0.3 ("A new plugin *template* was added")' },
  bind: {
    since: '1.0.5',
    confirmedFrom: true,
    evidence: 'notes 1.0.6 extends the existing *bind* (multiple addresses) and 1.1.0; older releases not checked',
  },
  nsid: { since: '1.0.1', evidence: 'notes 1.0.1 ("One new plugin was added: nsid")' },
  route53: { since: '1.0.5', evidence: 'notes 1.0.5 ("A new plugin *route53* was added")' },
  startup: {
    since: '1.0.6',
    confirmedFrom: true,
    deprecatedIn: '1.0.6',
    removedIn: '1.1.0',
    replacement: 'on',
    evidence: 'notes 1.0.6 (deprecated, "but working and included"), 1.1.0 (removed)',
  },
  shutdown: {
    since: '1.0.6',
    confirmedFrom: true,
    deprecatedIn: '1.0.6',
    removedIn: '1.1.0',
    replacement: 'on',
    evidence: 'notes 1.0.6 (deprecated, "but working and included"), 1.1.0 (removed)',
  },
  k8s_external: {
    since: '1.3.0',
    evidence: 'added as a new plugin by coredns/coredns#2379 (Dec 2018); kubernetes/kubernetes#73610 (CoreDNS 1.3.1 notes); CM lists it from 1.3.0',
  },
  transfer: {
    since: '1.8.0',
    confirmedFrom: true,
    evidence: 'notes 1.8.0 (transfer "made a first class citizen", the kubernetes `transfer` option moves to it); CM lists it from 1.8.0; older releases not checked',
  },
  file: { since: '1.0.0', evidence: `${PRE_1_0}file); notes 1.0.1` },
  auto: { since: '1.0.0', evidence: `${PRE_1_0}auto)` },
  etcd: { since: '1.0.0', evidence: `${PRE_1_0}etcd)` },
  dnssec: { since: '1.0.0', evidence: `${PRE_1_0}dnssec)` },
  chaos: { since: '1.0.0', evidence: `${PRE_1_0}chaos)` },
  erratic: { since: '1.0.0', evidence: `${PRE_1_0}erratic)` },
  dnstap: { since: '1.0.0', evidence: 'notes 1.0.0 (dnstap fix), 1.0.1' },
  pprof: { since: '1.0.0', evidence: `${PRE_1_0}pprof); plugin/pprof/setup.go read at v1.0.0, v1.2.6, v1.6.5, v1.6.6` },
};

/** Options (sub-directives) with version facts, keyed `plugin option`. */
const OPTIONS: Readonly<Record<string, Timeline>> = {
  'health lameduck': { since: '1.0.5', evidence: 'notes 1.0.5 ("health has gotten a lameduck option")' },
  'kubernetes pods': { since: '1.0.0', evidence: 'notes 1.0.0 (`pods verified` mode); every kubeadm default (`pods insecure`)' },
  'kubernetes ttl': { since: '1.0.0', evidence: 'coredns/coredns#995 (Aug 2017, before 1.0.0); CM default for 1.3.1 (corefile-migration#19)' },
  'kubernetes fallthrough': {
    since: '1.0.0',
    caveats: [{ from: '1.0.0', to: '1.0.2', caveat: 'takes no zones before 1.0.3: a bare `fallthrough` falls through for every zone of the plugin' }],
    evidence: 'notes 1.0.3 ("The fallthrough directive was overhauled and now allows a list of zones")',
  },
  'kubernetes transfer': {
    since: '1.0.6',
    confirmedFrom: true,
    removedIn: '1.8.0',
    replacement: 'the transfer plugin',
    evidence: 'notes 1.0.6 (zone transfers in the kubernetes plugin), 1.8.0 (moved to the transfer plugin); CM removes the option at 1.8.0',
  },
  'forward max_concurrent': {
    since: '1.6.8',
    evidence: 'notes 1.6.8 and 1.6.9 ("plugin/forward: Add max_concurrent option", coredns/coredns#3640; 1.6.9 is identical to 1.6.8); §2.3',
  },
  'forward resolver': { since: '1.14.4', evidence: '§2.3 (hostname TOs and the `resolver` option, `ce0e5a6f3`)' },
};

function availabilityFrom(timeline: Timeline, version: CoreDnsVersion): Availability {
  const evidence = timeline.evidence;
  if (!atLeast(version, timeline.since)) {
    if (timeline.confirmedFrom === true) {
      return { status: 'unknown', since: timeline.since, caveat: `confirmed from ${timeline.since} on; older releases were not checked`, evidence };
    }
    return { status: 'not-yet-added', since: timeline.since, evidence };
  }
  if (timeline.removedIn !== undefined && atLeast(version, timeline.removedIn)) {
    const removed: Availability = { status: 'removed', since: timeline.since, removedIn: timeline.removedIn, evidence };
    return timeline.replacement === undefined ? removed : { ...removed, replacement: timeline.replacement };
  }
  let result: Availability = { status: 'available', since: timeline.since, evidence };
  if (timeline.deprecatedIn !== undefined && atLeast(version, timeline.deprecatedIn)) {
    result = { ...result, status: 'deprecated', deprecatedIn: timeline.deprecatedIn };
    if (timeline.replacement !== undefined) result = { ...result, replacement: timeline.replacement };
  }
  if (timeline.removedIn !== undefined) result = { ...result, removedIn: timeline.removedIn };
  const external = timeline.external;
  if (external !== undefined && atLeast(version, external.from) && atLeast(external.to, version)) {
    result = { ...result, externalModule: external.module };
    if (external.caveat !== undefined) result = { ...result, caveat: external.caveat };
  }
  for (const range of timeline.caveats ?? []) {
    if (atLeast(version, range.from) && atLeast(range.to, version)) result = { ...result, caveat: range.caveat };
  }
  return result;
}

const NO_FACTS = 'no version facts are recorded for this name';

/**
 * Whether `plugin` (a Corefile directive name, case-sensitive) is in the default build of
 * `version`. Names without recorded facts (third-party plugins, typos, and CoreDNS plugins this
 * package does not track) answer `unknown` rather than a guess.
 *
 * @throws {UnknownCoreDnsVersionError} when `version` is not a known release.
 */
export function coreDnsPluginAvailability(plugin: string, version: string): Availability {
  const parsed = parseCoreDnsVersion(version);
  const timeline = Object.hasOwn(PLUGINS, plugin) ? PLUGINS[plugin] : undefined;
  if (timeline === undefined) return { status: 'unknown', evidence: NO_FACTS };
  return availabilityFrom(timeline, parsed);
}

/** Plugin names {@link coreDnsPluginAvailability} has facts for. */
export const COREDNS_PLUGINS_WITH_FACTS: readonly string[] = Object.freeze(Object.keys(PLUGINS).sort());

/**
 * Whether `option` is accepted inside a `plugin { … }` block of `version`. Covers the options of
 * the Kubernetes defaults and the ones with version facts (`kubernetes upstream` follows
 * {@link CoreDnsFeatures.kubernetesUpstream}); others answer `unknown`.
 *
 * @throws {UnknownCoreDnsVersionError} when `version` is not a known release.
 */
export function coreDnsOptionAvailability(plugin: string, option: string, version: string): Availability {
  const parsed = parseCoreDnsVersion(version);
  if (plugin === 'kubernetes' && option === 'upstream') return kubernetesUpstreamAvailability(parsed);
  const key = `${plugin} ${option}`;
  const timeline = Object.hasOwn(OPTIONS, key) ? OPTIONS[key] : undefined;
  if (timeline === undefined) return { status: 'unknown', evidence: NO_FACTS };
  return availabilityFrom(timeline, parsed);
}

/** `plugin option` pairs {@link coreDnsOptionAvailability} has facts for. */
export const COREDNS_OPTIONS_WITH_FACTS: readonly string[] = Object.freeze([...Object.keys(OPTIONS), 'kubernetes upstream'].sort());

// ---------------------------------------------------------------------------------------------
// Feature table
// ---------------------------------------------------------------------------------------------

/**
 * The kubernetes plugin's `upstream` option (resolving ExternalName CNAME targets):
 * - `addresses-required` (1.0.0–1.0.5): `upstream ADDRESS…`; a bare `upstream` is an argument error;
 * - `addresses-optional` (1.0.6–1.3.1): addresses optional, bare = resolve through CoreDNS itself;
 * - `arguments-ignored` (1.4.0–1.5.1): deprecated; arguments ignored, presence enables self-resolution;
 * - `no-op` (1.5.2–1.6.9): accepted and ignored, self-resolution is always on;
 * - `removed` (1.7.0+): `unknown property 'upstream'`, CoreDNS does not start.
 */
export type KubernetesUpstreamSupport = 'addresses-required' | 'addresses-optional' | 'arguments-ignored' | 'no-op' | 'removed';

/** The `forward` plugin: not in the build, compiled in from an external module (1.0.5), or in-tree. */
export type ForwardPluginSupport = 'absent' | 'external' | 'in-tree';

/** The `proxy` plugin: usable, usable but deprecated (1.4.0), or gone (1.5.0+). */
export type ProxyPluginSupport = 'available' | 'deprecated' | 'removed';

/** The `federation` plugin: in-tree (≤1.6.2), built from the external repository (1.6.3–1.6.9), gone (1.7.0+). */
export type FederationPluginSupport = 'in-tree' | 'external' | 'removed';

/**
 * How CoreDNS treats letter case in server-block zones:
 * - `case-sensitive` (<1.6.4): keys and query names compared as written, so a mixed-case query
 *   misses a lower-case block;
 * - `upper-case-unreachable` (1.6.4–1.14.6): query names are lower-cased but keys are not, so a
 *   block whose key has an upper-case letter never matches (REFUSED or the `.` block answers);
 * - `case-insensitive` (1.14.7+): keys are lower-cased too.
 */
export type ZoneKeyCaseHandling = 'case-sensitive' | 'upper-case-unreachable' | 'case-insensitive';

/**
 * How often CoreDNS runs a plugin's setup for a server block with several keys:
 * - `per-key` (≤1.8.4): once per key, each run registering its own start-up work (Caddy's
 *   `executeDirectives` loops over the keys of a block; coredns/caddy v1.1.0 still did);
 * - `per-block` (1.8.5+): once, for the first key; the other keys share that plugin chain
 *   (coredns/coredns#4593 "Share plugins among zones in the same server block", with
 *   coredns/caddy v1.1.1 "init plugins only for first zone in block").
 */
export type PluginSetupCount = 'per-key' | 'per-block';

/**
 * What the `health` plugin does when it is set up more than once for one listen address (a block
 * with several keys while setup runs {@link PluginSetupCount | per key}, or several blocks naming
 * the same address):
 * - `first-only` (1.0.0–1.0.6): one listener per process (`plugin/health/health.go` guards it with
 *   a package-level `sync.Once`); later setups add nothing, whatever address they name;
 * - `exclusive` (1.1.0–1.6.5): every setup binds its address with a plain listen (the `once` went
 *   with coredns/coredns#1585 in 1.1.0), so the second bind fails with "listen tcp ADDR: bind:
 *   address already in use" and CoreDNS does not start;
 * - `shared` (1.6.6+): the listener sets SO_REUSEPORT (`plugin/pkg/reuseport`,
 *   coredns/coredns#3455, #3473), so every bind on the same address succeeds.
 *
 * `prometheus` and `ready` keep one listener per address in every release (their setup goes
 * through `plugin/pkg/uniq`), and `pprof` one per process until 1.6.5 (a package-level
 * `sync.Once`) and SO_REUSEPORT from 1.6.6: none of them refuses a block with several keys.
 */
export type HealthListenerSharing = 'first-only' | 'exclusive' | 'shared';

/** The cap on `TO` addresses of one `forward`/`proxy` line. */
export interface UpstreamLimit {
  /** `more than 15 TOs configured: N` above this. */
  readonly max: 15;
  /**
   * `none`: 1.0.0 had no cap; `unverified`: 1.0.1–1.0.6 (present at 1.1.0, absent at 1.0.0, the
   * release in between not checked — treat 15 as the limit); `enforced`: 1.1.0+.
   */
  readonly enforcement: 'none' | 'unverified' | 'enforced';
  /**
   * `after-file-expansion` (≤1.14.3): a resolv.conf-style file counts as its nameservers;
   * `per-entry` (1.14.4+): each configured TO counts once (a hostname may resolve to several IPs).
   */
  readonly counting: 'after-file-expansion' | 'per-entry';
}

/** What one CoreDNS release supports. All fields are facts about the default build. */
export interface CoreDnsFeatures {
  readonly version: CoreDnsVersion;
  /** `proxy`: deprecated in 1.4.0, removed in 1.5.0 ("Unknown directive 'proxy'"). §2.1, §2.2; notes 1.4.0, 1.5.0. */
  readonly proxy: ProxyPluginSupport;
  /** `forward`: external module in 1.0.5 (binary not checked), in-tree from 1.0.6. §2.1; notes 1.0.5, 1.0.6. */
  readonly forward: ForwardPluginSupport;
  /**
   * The forwarding plugin a translator should emit: `forward` where it is in-tree (1.0.6+), else
   * `proxy` (1.0.0–1.0.5, where `forward` was absent or external and unverified). §6 rule 10.
   */
  readonly preferredForwarder: 'proxy' | 'forward';
  /** `federation`: in-tree ≤1.6.2, external build 1.6.3–1.6.9, removed 1.7.0. §2.1, §2.5; notes 1.7.0. */
  readonly federation: FederationPluginSupport;
  /** The kubernetes `upstream` option. §2.1, §2.4; notes 1.7.0; CM (1.4.0 deprecated, 1.5.x–1.6.x ignored, 1.7.0 removed). */
  readonly kubernetesUpstream: KubernetesUpstreamSupport;
  /** kubernetes `fallthrough` takes zones (`fallthrough in-addr.arpa ip6.arpa`) from 1.0.3 on. Notes 1.0.3. */
  readonly kubernetesFallthroughZones: boolean;
  /** `ready` plugin (1.5.0+). §2.1; CM new default at 1.5.0. */
  readonly ready: boolean;
  /** `loop` plugin (1.2.1+). §2.1, §2.6; CM new default at 1.2.1. */
  readonly loop: boolean;
  /** `reload` plugin (1.1.0+). Notes 1.1.0. */
  readonly reload: boolean;
  /**
   * `health { lameduck DURATION }` (1.0.5+). Notes 1.0.5. Kubernetes defaults carry
   * `lameduck 5s` only from CoreDNS 1.6.5 (Kubernetes 1.17, kubernetes/kubernetes#85108).
   */
  readonly healthLameduck: boolean;
  /**
   * `forward { max_concurrent N }` (1.6.8+; 1.6.8 was tagged from the same source as 1.6.9 but
   * never published, so in practice 1.6.9+). Notes 1.6.8, 1.6.9; §2.3.
   */
  readonly forwardMaxConcurrent: boolean;
  /**
   * `forward` TOs may be hostnames, resolved at startup (and reload); a failed lookup stops
   * CoreDNS (1.14.4+). Before: `not an IP address or file`. `proxy` never accepted hostnames.
   * §2.3 (`ce0e5a6f3`); coredns/coredns#5646.
   */
  readonly forwardHostnameTargets: boolean;
  /** `forward` TOs may be `https://` (DNS over HTTPS) (1.14.5+). §2.1, §2.3 (`f2f5b5a1c`). */
  readonly forwardHttpsTargets: boolean;
  /**
   * Several `forward` lines in one server block, chained by FROM (1.9.4+). Before, a second one
   * fails with `this plugin can only be used once per Server Block` (enforced from 1.1.0, notes
   * 1.1.0; in 1.0.5–1.0.6 the outcome was not checked — do not rely on it). Several `proxy`
   * lines per block were always allowed (§2.2). §2.1, §2.3 (`513f27b9a`).
   */
  readonly multipleForwardPerBlock: boolean;
  /** The 15-TO cap of `forward`/`proxy`. §2.1, §2.2, §2.3; coredns/coredns#1339. */
  readonly upstreamLimit: UpstreamLimit;
  /** Query names are lower-cased before picking a server block (1.6.4+, `27e22b069`). §2.8. */
  readonly queryNamesLowercased: boolean;
  /** Server-block zone keys are lower-cased (1.14.7+, `55949d626`, PR #8320, fixes #6624). §2.8. */
  readonly serverBlockZonesLowercased: boolean;
  /** Consequence of the two above for a zone key with upper-case letters. §2.8. */
  readonly zoneKeyCase: ZoneKeyCaseHandling;
  /**
   * Plugin setup runs once per key of a block (≤1.8.4) or once per block (1.8.5+). Caddy
   * `caddy.go` `executeDirectives` (mholt/caddy, coredns/caddy v1.1.0) and coredns/caddy v1.1.1;
   * `core/dnsserver/register.go` at v1.8.5 (coredns/coredns#4593).
   */
  readonly pluginSetup: PluginSetupCount;
  /**
   * A second `health` listener on the same address: ignored (≤1.0.6), refused (1.1.0–1.6.5) or
   * shared through SO_REUSEPORT (1.6.6+). `plugin/health/health.go` and `setup.go` at v1.0.6,
   * v1.1.0, v1.6.5, v1.6.6; checked with the real 1.2.6 (refused) and 1.6.9 (starts).
   */
  readonly healthListener: HealthListenerSharing;
}

function kubernetesUpstreamSupport(version: CoreDnsVersion): KubernetesUpstreamSupport {
  if (atLeast(version, '1.7.0')) return 'removed';
  if (atLeast(version, '1.5.2')) return 'no-op';
  if (atLeast(version, '1.4.0')) return 'arguments-ignored';
  if (atLeast(version, '1.0.6')) return 'addresses-optional';
  return 'addresses-required';
}

const UPSTREAM_EVIDENCE = '§2.1, §2.4 (plugin/kubernetes/setup.go at v1.2.6/v1.3.1/v1.4.0/v1.5.2/v1.6.0/v1.7.0); notes 1.7.0; CM';

function kubernetesUpstreamAvailability(version: CoreDnsVersion): Availability {
  const support = kubernetesUpstreamSupport(version);
  const base = { since: OLDEST_COREDNS_VERSION, removedIn: '1.7.0', evidence: UPSTREAM_EVIDENCE } as const;
  switch (support) {
    case 'addresses-required':
      return { ...base, status: 'available', caveat: 'needs at least one address before 1.0.6; a bare `upstream` is an argument error' };
    case 'addresses-optional':
      return { ...base, status: 'available' };
    case 'arguments-ignored':
      return { ...base, status: 'deprecated', deprecatedIn: '1.4.0', caveat: 'arguments are ignored; its presence still enables resolving ExternalName targets through CoreDNS itself' };
    case 'no-op':
      return { ...base, status: 'deprecated', deprecatedIn: '1.4.0', caveat: 'accepted but has no effect: CoreDNS always resolves ExternalName targets itself' };
    case 'removed':
      return { status: 'removed', since: OLDEST_COREDNS_VERSION, removedIn: '1.7.0', evidence: UPSTREAM_EVIDENCE };
  }
}

function upstreamLimit(version: CoreDnsVersion): UpstreamLimit {
  const enforcement = atLeast(version, '1.1.0') ? 'enforced' : atLeast(version, '1.0.1') ? 'unverified' : 'none';
  const counting = atLeast(version, '1.14.4') ? 'per-entry' : 'after-file-expansion';
  return Object.freeze({ max: 15, enforcement, counting });
}

function buildFeatures(version: CoreDnsVersion): CoreDnsFeatures {
  const proxy = coreDnsPluginAvailability('proxy', version);
  const forward = coreDnsPluginAvailability('forward', version);
  const federation = coreDnsPluginAvailability('federation', version);
  const forwardSupport: ForwardPluginSupport = !isUsable(forward) ? 'absent' : forward.externalModule === undefined ? 'in-tree' : 'external';
  const queryNamesLowercased = atLeast(version, '1.6.4');
  const serverBlockZonesLowercased = atLeast(version, '1.14.7');
  return Object.freeze({
    version,
    proxy: proxy.status === 'removed' ? 'removed' : proxy.status === 'deprecated' ? 'deprecated' : 'available',
    forward: forwardSupport,
    preferredForwarder: forwardSupport === 'in-tree' ? 'forward' : 'proxy',
    federation: federation.status === 'removed' ? 'removed' : federation.externalModule === undefined ? 'in-tree' : 'external',
    kubernetesUpstream: kubernetesUpstreamSupport(version),
    kubernetesFallthroughZones: atLeast(version, '1.0.3'),
    ready: isUsable(coreDnsPluginAvailability('ready', version)),
    loop: isUsable(coreDnsPluginAvailability('loop', version)),
    reload: isUsable(coreDnsPluginAvailability('reload', version)),
    healthLameduck: isUsable(coreDnsOptionAvailability('health', 'lameduck', version)),
    forwardMaxConcurrent: isUsable(coreDnsOptionAvailability('forward', 'max_concurrent', version)),
    forwardHostnameTargets: atLeast(version, '1.14.4'),
    forwardHttpsTargets: atLeast(version, '1.14.5'),
    multipleForwardPerBlock: atLeast(version, '1.9.4'),
    upstreamLimit: upstreamLimit(version),
    queryNamesLowercased,
    serverBlockZonesLowercased,
    zoneKeyCase: serverBlockZonesLowercased ? 'case-insensitive' : queryNamesLowercased ? 'upper-case-unreachable' : 'case-sensitive',
    pluginSetup: atLeast(version, '1.8.5') ? 'per-block' : 'per-key',
    healthListener: atLeast(version, '1.6.6') ? 'shared' : atLeast(version, '1.1.0') ? 'exclusive' : 'first-only',
  });
}

const FEATURES = new Map<CoreDnsVersion, CoreDnsFeatures>();

/**
 * The feature table of one release (frozen; the same object for the same release).
 *
 * @throws {UnknownCoreDnsVersionError} when `version` is not a known release.
 */
export function coreDnsFeatures(version: string): CoreDnsFeatures {
  const parsed = parseCoreDnsVersion(version);
  let features = FEATURES.get(parsed);
  if (features === undefined) {
    features = buildFeatures(parsed);
    FEATURES.set(parsed, features);
  }
  return features;
}
