import type { YamlV2Release } from '../profiles.js';

/**
 * The observable differences between the copies of gopkg.in/yaml.v2 that kubeadm vendored.
 *
 * * `yaml.v2-2017` — commit 670d4cfe, vendored by kubeadm v1.10–v1.12 (and v1.13).
 * * `yaml.v2.2` — v2.2.4, vendored by v1.14–v1.17 (the reference corpus uses it up to its v1.17 profile).
 * * `yaml.v2.2.8` — v2.2.8, vendored by v1.18–v1.20 (the corpus's v1.19 profile). The profiles
 *   name both v2.2 copies `yaml.v2.2`; they decode the reference corpus identically, but not every
 *   hostile manifest (see {@link YamlV2Release}).
 *
 * Everything not listed here (reader buffering, the rest of the scanner and parser, the node
 * builder) is identical in the three copies as far as kubeadm's manifests can tell.
 */
export interface YamlV2Dialect {
  readonly name: 'yaml.v2-2017' | 'yaml.v2.2.4' | 'yaml.v2.2.8';
  /**
   * `parser.fail()` prints `problem_mark.line` (0-based) as is in 2017; from v2.2 a scanner
   * error adds 1 ("Scanner errors don't iterate line before returning error"). Parser errors and
   * the context-mark fallback never add 1.
   */
  readonly scannerErrorLineOffset: 0 | 1;
  /**
   * 2017 still had libyaml's old rule that a `:` followed by a non-blank inside a flow collection
   * is an error (`found unexpected ':'`); go-yaml PR #305 (January 2018) dropped it, so from v2.2
   * such a `:` is part of the plain scalar.
   */
  readonly flowColonIsError: boolean;
  /** go-yaml PR #208 (March 2018) corrected "violate" to "violates". */
  readonly tabInPlainScalarMessage: string;
  /**
   * When a potential simple key that is *required* (a block mapping key at the current
   * indentation) is found stale. `eager` (libyaml's algorithm, 2017 and v2.2.4): every time a
   * token is fetched, and whenever the token queue is inspected. `lazy` (go-yaml PR #555, v2.2.8):
   * only when the key's own token reaches the head of the queue, when a `:` is found, or when the
   * key is replaced.
   */
  readonly simpleKeyStaleness: 'eager' | 'lazy';
  /**
   * libyaml's `yaml_parser_save_simple_key` kept a sanity check that panics ("should not happen")
   * when a required key position is not allowed; yaml.v2 removed it together with the eager
   * algorithm. A Go panic is not an error kubeadm returns: it crashes.
   */
  readonly panicsOnDisallowedRequiredKey: boolean;
  /** v2.2.4 (CVE-2019-11253) rejects documents whose decoding is mostly alias expansion. */
  readonly limitsAliasExpansion: boolean;
  /**
   * 2017 still had libyaml's tag scanning before go-yaml PR #272: a `%TAG` handle that is a lone
   * `!` indexes past the end of the handle (a Go panic), and `%XX` escapes do not count as tag
   * characters (`!<%41>` is `did not find expected tag URI`). From v2.2 the lone `!` is accepted
   * and escapes count.
   */
  readonly legacyTagScanning: boolean;
  /** v2.2 resolves `2001-12-14`-like plain scalars (and checks `!!timestamp`); 2017 did not. */
  readonly resolvesTimestamps: boolean;
  /**
   * Not yaml.v2 itself but the Go release it was compiled with: from Go 1.13 `strconv.ParseInt`
   * with base 0 also reads `0o17` and `0B101`, so such a plain scalar becomes an int. kubeadm
   * v1.10–v1.16 were built with older Go, v1.17 (v2.2.4) with Go 1.13, v1.18+ (v2.2.8) with newer.
   */
  readonly goNumberPrefixes: boolean;
  /**
   * Later v2.2 releases stop at 10000 nested flow collections or block indentation levels
   * (`exceeded max depth of 10000`); present in the copy before go-yaml PR #555, so in v2.2.8, and
   * assumed absent from v2.2.4.
   */
  readonly limitsNestingDepth: boolean;
}

export const YAML_V2_2017: YamlV2Dialect = {
  name: 'yaml.v2-2017',
  scannerErrorLineOffset: 0,
  flowColonIsError: true,
  tabInPlainScalarMessage: 'found a tab character that violate indentation',
  simpleKeyStaleness: 'eager',
  panicsOnDisallowedRequiredKey: true,
  limitsAliasExpansion: false,
  legacyTagScanning: true,
  resolvesTimestamps: false,
  goNumberPrefixes: false,
  limitsNestingDepth: false,
};

export const YAML_V2_2_4: YamlV2Dialect = {
  name: 'yaml.v2.2.4',
  scannerErrorLineOffset: 1,
  flowColonIsError: false,
  tabInPlainScalarMessage: 'found a tab character that violates indentation',
  simpleKeyStaleness: 'eager',
  panicsOnDisallowedRequiredKey: true,
  limitsAliasExpansion: true,
  legacyTagScanning: false,
  resolvesTimestamps: true,
  goNumberPrefixes: false,
  limitsNestingDepth: false,
};

export const YAML_V2_2_8: YamlV2Dialect = {
  ...YAML_V2_2_4,
  name: 'yaml.v2.2.8',
  simpleKeyStaleness: 'lazy',
  panicsOnDisallowedRequiredKey: false,
  goNumberPrefixes: true,
  limitsNestingDepth: true,
};

/**
 * The dialect a release stands for. On hostile manifests v2.2.8 reports some `could not find
 * expected ':'` errors on a later line than v2.2.4 (its simple-key check is lazy); `yaml.v2.2`
 * means v2.2.4.
 */
export function dialectForRelease(release: YamlV2Release): YamlV2Dialect {
  switch (release) {
    case 'yaml.v2-2017':
      return YAML_V2_2017;
    case 'yaml.v2.2.8':
      return YAML_V2_2_8;
    default:
      return YAML_V2_2_4;
  }
}
