/**
 * Resolving the CoreDNS version text people actually have — `v1.8.7-eksbuild.3` from EKS, the
 * image of a Deployment (`registry.k8s.io/coredns/coredns:v1.10.1`) — to a release this package
 * knows, for migrating a running cluster. Unlike {@link parseCoreDnsVersion} (strict on purpose,
 * for `--coredns` of the translator and of lint) it reads image references and build suffixes and
 * maps a release newer than the table to the newest known one; every assumption it makes is a
 * notice with a stable code, and every refusal an {@link UnresolvedCoreDnsReleaseError}.
 * docs/coredns-versions.md ("Version text in the wild") describes the rules.
 *
 * Pure: no Node APIs.
 */

import { checkArgument } from '../errors/arguments.js';
import { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';
import {
  compareCoreDnsVersions,
  COREDNS_VERSIONS,
  isCoreDnsVersion,
  KNOWN_RANGE,
  NEWEST_COREDNS_VERSION,
  OLDEST_COREDNS_VERSION,
  parseCoreDnsVersion,
  UnknownCoreDnsVersionError,
} from './versions.js';
import type { CoreDnsVersion } from './versions.js';

/** Why a text names no release this package can migrate from: the `code` of an {@link UnresolvedCoreDnsReleaseError}. */
export type UnresolvedCoreDnsReleaseCode =
  /** Neither `[v]MAJOR.MINOR.PATCH[SUFFIX]` nor an image reference with such a tag. */
  | 'syntax'
  /** An image reference without a tag naming a release: no tag, only a digest, `latest`, or another word. */
  | 'no-release-tag'
  /** `1.8`, `v1`: the patch release must be named (`candidates` are the releases that fit; none for `1.15`). */
  | 'incomplete'
  /** Inside the known range, but CoreDNS never released it (`1.4.1`); `candidates` are its neighbours. */
  | 'unreleased'
  /** Older than 1.0.0, the oldest release modelled. */
  | 'too-old';

/** How much of the input a message quotes. */
const MAX_SHOWN = 80;
/** No version text or image reference is longer (a repository name has at most 255 characters, a tag 128). */
const MAX_TEXT = 1024;

/** Text from which no known CoreDNS release can be resolved. */
export class UnresolvedCoreDnsReleaseError extends KubeDnsToCoreDnsError {
  override readonly name = 'UnresolvedCoreDnsReleaseError';
  readonly category = 'input';
  declare readonly code: UnresolvedCoreDnsReleaseCode;
  /** The text as given. */
  readonly input: string;
  /** Known releases the text may have meant (the releases of `1.9`; the neighbours of `1.4.1`); else empty. */
  readonly candidates: readonly CoreDnsVersion[];

  constructor(input: string, code: UnresolvedCoreDnsReleaseCode, detail: string, candidates: readonly CoreDnsVersion[] = []) {
    const shown = input.length > MAX_SHOWN ? `${input.slice(0, MAX_SHOWN)}…` : input;
    super(code, `cannot resolve a CoreDNS release from '${shown}': ${detail} (${KNOWN_RANGE})`);
    this.input = input;
    this.candidates = candidates;
  }
}

/** What a notice says was assumed or not checked (stable codes, never renamed). */
export type CoreDnsReleaseNoticeCode =
  /** A distro or build suffix (`-eksbuild.3`, `+k3s1`) was dropped: the base release is assumed. */
  | 'build-suffix'
  /** Newer than the newest known release: the newest known one is assumed. */
  | 'newer-than-known'
  /** The image reference carries a digest as well as the tag: the tag was read, the digest not checked. */
  | 'digest-not-checked'
  /** The image's name does not contain `coredns`: the tag was read as a CoreDNS version all the same. */
  | 'image-not-coredns';

/** One assumption {@link resolveCoreDnsRelease} made, or one thing it did not check. */
export interface CoreDnsReleaseNotice {
  /** Which one: stable, never renamed. */
  readonly code: CoreDnsReleaseNoticeCode;
  /** `warning`: the result may not be what runs; `info`: an assumption that is usually right. */
  readonly severity: 'warning' | 'info';
  /** What was read and what was assumed, in a sentence. */
  readonly message: string;
}

/** The parts of an image reference (`REGISTRY/PATH/NAME:TAG@DIGEST`). */
export interface CoreDnsImageReference {
  /** Everything before the tag and digest: `registry.k8s.io/coredns/coredns`. */
  readonly name: string;
  /** `v1.10.1`; undefined when the reference has none. */
  readonly tag: string | undefined;
  /** `sha256:…` */
  readonly digest: string | undefined;
}

/** How a text was read: each step from the input to the release. */
export interface CoreDnsReleaseMapping {
  /** The text as given. */
  readonly input: string;
  /** Set when the text is an image reference. */
  readonly image: CoreDnsImageReference | undefined;
  /** The version text read: the trimmed input, or the image's tag (`v1.8.7-eksbuild.3`). */
  readonly versionText: string;
  /** The `MAJOR.MINOR.PATCH` in it, canonical (`1.8.7`); may lie beyond the known releases (`1.15.0`). */
  readonly base: string;
  /** What followed the base (`-eksbuild.3`, `+k3s1`), if anything. */
  readonly suffix: string | undefined;
  /** The release resolved. */
  readonly version: CoreDnsVersion;
  /** One line for a report: `image registry.k8s.io/coredns/coredns:v1.10.1 → CoreDNS 1.10.1`. */
  readonly summary: string;
}

/** The outcome of {@link resolveCoreDnsRelease}, discriminated by `ok`. */
export type CoreDnsReleaseResult =
  | {
      readonly ok: true;
      readonly version: CoreDnsVersion;
      readonly mapping: CoreDnsReleaseMapping;
      /** What was assumed on the way (empty when the text named a known release plainly). */
      readonly notices: readonly CoreDnsReleaseNotice[];
    }
  | { readonly ok: false; readonly error: UnresolvedCoreDnsReleaseError };

/** A release {@link resolveCoreDnsRelease} resolved: what the library's `coredns`, `from` and `to` options take besides text. */
export type ResolvedCoreDnsRelease = Extract<CoreDnsReleaseResult, { readonly ok: true }>;

/** `[v]MAJOR.MINOR.PATCH` then an optional suffix starting with `-` or `+`. */
const RELEASE_TEXT = /^v?(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})\.(0|[1-9]\d{0,5})((?:[-+][0-9A-Za-z_.+-]+)?)$/;
/** `[v]MAJOR[.MINOR]`, for the "incomplete" refusal. */
const INCOMPLETE_TEXT = /^v?(0|[1-9]\d{0,5})(?:\.(0|[1-9]\d{0,5}))?$/;

// Image references, after the grammar of the container image distribution reference: a name of
// path components (lower-case alphanumerics joined by `.`, `_`, `__` or dashes), optionally
// behind a registry host (with a port), a tag of up to 128 word characters, dots and dashes,
// and a digest `ALGORITHM:HEX`.
const PATH_COMPONENT = '[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*';
const HOST = '(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*(?::\\d+)?|\\[[0-9A-Fa-f:.]+\\](?::\\d+)?)';
const IMAGE_NAME = new RegExp(`^(?:${HOST}/)?${PATH_COMPONENT}(?:/${PATH_COMPONENT})*$`);
const IMAGE_TAG = /^\w[\w.-]{0,127}$/;
const IMAGE_DIGEST = /^[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[0-9a-fA-F]{32,}$/;

function looksLikeImage(text: string): boolean {
  return text.includes('/') || text.includes(':') || text.includes('@');
}

/** Splits `NAME[:TAG][@DIGEST]`; undefined when it is not an image reference. */
function parseImageReference(text: string): CoreDnsImageReference | undefined {
  const at = text.indexOf('@');
  const digest = at === -1 ? undefined : text.slice(at + 1);
  const beforeDigest = at === -1 ? text : text.slice(0, at);
  const colon = beforeDigest.lastIndexOf(':');
  const hasTag = colon > beforeDigest.lastIndexOf('/');
  const name = hasTag ? beforeDigest.slice(0, colon) : beforeDigest;
  const tag = hasTag ? beforeDigest.slice(colon + 1) : undefined;
  if (!IMAGE_NAME.test(name)) return undefined;
  if (tag !== undefined && !IMAGE_TAG.test(tag)) return undefined;
  if (digest !== undefined && !IMAGE_DIGEST.test(digest)) return undefined;
  return { name, tag, digest };
}

function imageText(image: CoreDnsImageReference): string {
  return `${image.name}${image.tag === undefined ? '' : `:${image.tag}`}${image.digest === undefined ? '' : `@${image.digest}`}`;
}

/** The known releases just below and just above `base` (an unreleased version inside the range). */
function neighbours(base: string): CoreDnsVersion[] {
  const above = COREDNS_VERSIONS.findIndex((version) => compareCoreDnsVersions(version, base) > 0);
  const lower = COREDNS_VERSIONS[above - 1];
  const upper = COREDNS_VERSIONS[above];
  return [lower, upper].filter((version): version is CoreDnsVersion => version !== undefined);
}

/**
 * Resolves version text as found in clusters to a known CoreDNS release, and reports how:
 * - `1.6.7`, `v1.6.7`, surrounding whitespace: that release;
 * - a distro or build suffix after `-` or `+` (`1.6.7-eksbuild.1`, `v1.6.2-100`, `1.8.4+k3s1`):
 *   the base release, with a `build-suffix` notice (a vendor build may differ from upstream);
 * - an image reference `[REGISTRY/]PATH/NAME:TAG[@DIGEST]`: the release of its tag, read as above;
 *   a reference without a tag (`…@sha256:…`, `coredns/coredns`) or with a tag that names no
 *   release (`latest`) is refused as `no-release-tag`;
 * - a release newer than the newest known: the newest known, with a `newer-than-known` warning;
 * - older than 1.0.0: refused as `too-old`; `1.8`: refused as `incomplete` with the releases of
 *   1.8; a version CoreDNS never released inside the range (`1.4.1`): refused as `unreleased`
 *   with the known releases either side (a typo is likelier than a release nobody published).
 *
 * Never throws for bad input: a refusal is `{ ok: false, error }`.
 */
export function resolveCoreDnsRelease(text: string): CoreDnsReleaseResult {
  checkArgument('resolveCoreDnsRelease', 'text', text, 'string');
  const refuse = (code: UnresolvedCoreDnsReleaseCode, detail: string, candidates: readonly CoreDnsVersion[] = []): CoreDnsReleaseResult => ({
    ok: false,
    error: new UnresolvedCoreDnsReleaseError(text, code, detail, candidates),
  });
  const trimmed = text.trim();
  if (trimmed === '') return refuse('syntax', 'the text is empty');
  if (trimmed.length > MAX_TEXT) return refuse('syntax', `${trimmed.length} characters long; no version or image reference is longer than ${MAX_TEXT}`);

  const notices: CoreDnsReleaseNotice[] = [];
  let image: CoreDnsImageReference | undefined;
  let versionText = trimmed;
  const versionMatch = RELEASE_TEXT.exec(trimmed);
  if (versionMatch === null && looksLikeImage(trimmed)) {
    image = parseImageReference(trimmed);
    if (image === undefined) {
      return refuse('syntax', 'not an image reference ([REGISTRY/]PATH/NAME:TAG[@sha256:…]) nor a version such as 1.8.0 or v1.8.7-eksbuild.3');
    }
    if (image.tag === undefined) {
      return refuse(
        'no-release-tag',
        image.digest === undefined
          ? 'the image has no tag, so it names no release (it means :latest)'
          : 'the image is named by its digest only, and a digest names no release; give the tag it was pulled by',
      );
    }
    versionText = image.tag;
    if (image.digest !== undefined) {
      notices.push({
        code: 'digest-not-checked',
        severity: 'info',
        message: `the release was read from the tag '${image.tag}'; the digest ${image.digest} was not checked against it`,
      });
    }
    if (!/coredns/i.test(image.name)) {
      notices.push({
        code: 'image-not-coredns',
        severity: 'warning',
        message: `the image '${image.name}' does not look like a CoreDNS image; its tag '${image.tag}' was read as a CoreDNS version all the same`,
      });
    }
  }

  const match = image === undefined ? versionMatch : RELEASE_TEXT.exec(versionText);
  if (match === null) {
    if (INCOMPLETE_TEXT.test(versionText)) {
      const prefix = `${versionText.replace(/^v/, '')}.`;
      const candidates = COREDNS_VERSIONS.filter((version) => version.startsWith(prefix));
      const detail =
        candidates.length === 0
          ? `'${versionText}' is not a complete version, and no known release starts with it`
          : `name the patch release, one of ${candidates.join(', ')}; the rules differ between patch releases`;
      return refuse('incomplete', detail, candidates);
    }
    if (image !== undefined) {
      const detail = versionText === 'latest' ? "'latest' names no release" : `the tag '${versionText}' is not a version such as v1.8.0 or 1.8.7-eksbuild.3`;
      return refuse('no-release-tag', `${detail}; give the tag of the release that runs`);
    }
    if (versionText === 'latest') return refuse('no-release-tag', "'latest' names no release; give the release that runs");
    return refuse('syntax', 'expected a version such as 1.8.0, v1.8.7-eksbuild.3 or an image reference such as registry.k8s.io/coredns/coredns:v1.10.1');
  }

  const [, major = '', minor = '', patch = '', suffixText = ''] = match;
  const base = `${major}.${minor}.${patch}`;
  const suffix = suffixText === '' ? undefined : suffixText;
  if (suffix !== undefined) {
    notices.push({
      code: 'build-suffix',
      severity: 'info',
      message: `'${versionText}' was read as CoreDNS ${base}: the build suffix '${suffix}' was dropped; a vendor build may differ from the upstream release`,
    });
  }

  let version: CoreDnsVersion;
  if (compareCoreDnsVersions(base, OLDEST_COREDNS_VERSION) < 0) {
    return refuse('too-old', `${base} is older than ${OLDEST_COREDNS_VERSION}, the oldest release modelled`);
  } else if (compareCoreDnsVersions(base, NEWEST_COREDNS_VERSION) > 0) {
    version = NEWEST_COREDNS_VERSION;
    notices.push({
      code: 'newer-than-known',
      severity: 'warning',
      message: `CoreDNS ${base} is newer than ${NEWEST_COREDNS_VERSION}, the newest release this package knows; it is treated as ${NEWEST_COREDNS_VERSION}, so anything ${base} added or changed is not taken into account`,
    });
  } else {
    try {
      version = parseCoreDnsVersion(base);
    } catch (error) {
      if (!(error instanceof UnknownCoreDnsVersionError)) throw error;
      const either = neighbours(base);
      return refuse('unreleased', `CoreDNS never released ${base}; the nearest releases are ${either.join(' and ')}`, either);
    }
  }

  const from = image === undefined ? `'${trimmed}'` : `image ${imageText(image)}`;
  const mapping: CoreDnsReleaseMapping = { input: text, image, versionText, base, suffix, version, summary: `${from} → CoreDNS ${version}` };
  return { ok: true, version, mapping, notices };
}

/** A CoreDNS release as the library's `coredns`, `from` and `to` options take it: text in the grammar of {@link resolveCoreDnsRelease}, or a release it resolved. */
export type CoreDnsReleaseInput = string | ResolvedCoreDnsRelease;

/**
 * The release `input` names: text is resolved by {@link resolveCoreDnsRelease}; a release it
 * resolved is taken as it is (a CLI option read once is not read again).
 *
 * @throws {UnresolvedCoreDnsReleaseError} when no known release fits the text.
 */
export function coreDnsReleaseOf(input: CoreDnsReleaseInput): ResolvedCoreDnsRelease {
  if (typeof input !== 'string') {
    if (typeof input === 'object' && input !== null && input.ok === true && isCoreDnsVersion(input.version)) return input;
    throw new UnresolvedCoreDnsReleaseError(String(input), 'syntax', 'expected version text or a release resolveCoreDnsRelease returned');
  }
  const known = RESOLVED.get(input);
  if (known !== undefined) return known;
  const resolved = resolveCoreDnsRelease(input);
  if (!resolved.ok) throw resolved.error;
  // Lint and migrate read the same few texts over and over (a batch: every line; a migration: its
  // target check's lint): each is resolved once, the answer shared, so frozen.
  if (RESOLVED.size < RESOLVED_TEXTS) RESOLVED.set(input, deepFrozen(resolved));
  return resolved;
}

/** Texts {@link coreDnsReleaseOf} keeps the answer of (a batch naming more resolves the rest each time). */
const RESOLVED_TEXTS = 256;
const RESOLVED = new Map<string, ResolvedCoreDnsRelease>();

function deepFrozen<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    for (const member of Object.values(value)) deepFrozen(member);
    Object.freeze(value);
  }
  return value;
}
