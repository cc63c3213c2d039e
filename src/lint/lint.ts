import { checkArgument, checkCorefileModel } from '../errors/arguments.js';
import type { CorefileWarning } from '../corefile/errors.js';
import type { Corefile, Directive } from '../corefile/model.js';
import { parseCorefile } from '../corefile/parser.js';
import { hasErrors } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { coreDnsFeatures } from '../coredns/features.js';
import { coreDnsReleaseOf } from '../coredns/resolve-release.js';
import type { CoreDnsReleaseInput } from '../coredns/resolve-release.js';
import { NEWEST_COREDNS_VERSION } from '../coredns/versions.js';
import { releaseDiagnostics } from '../diagnostics/release-notices.js';
import type { CoreDnsVersion } from '../coredns/versions.js';
import type { SourcePosition } from '../util/source-position.js';
import { pluginBuild } from './build.js';
import type { ImportReader } from './import-reader.js';
import { blockLabel, FORWARDERS, holdsOnlyNodeCacheVariables, holdsPlaceholder, LintContext, nodeCacheVariables, ORIGIN, quote, reportNodeCacheVariables, where } from './context.js';
import { checkDestinations } from './rules/destinations.js';
import { checkFederation } from './rules/federation.js';
import { checkForwarders } from './rules/forwarders.js';
import { expandImports } from './rules/imports.js';
import { checkKeys } from './rules/keys.js';
import { checkHealthListeners } from './rules/listeners.js';
import { checkPlugin } from './rules/plugins.js';
import { checkBlockSyntax, checkPluginSyntax } from './rules/syntax.js';

/**
 * The Corefile linter: what a given CoreDNS release (its default build, or a custom build whose
 * plugins the caller names) makes of a Corefile, as diagnostics of the shared registry
 * (`src/diagnostics/codes.ts`, area `lint`). Errors mean CoreDNS refuses to start or names become
 * unreachable; warnings mean it behaves differently than the text reads; infos are worth knowing
 * (docs/lint.md lists every check with the fact behind it).
 *
 * This module runs the rule groups of `rules/` over a {@link LintContext} (context.ts says how
 * findings are placed). "§N" in the rules is section N of docs/reference/kube-dns-and-coredns.md.
 *
 * Pure: no Node APIs.
 */

export interface LintOptions {
  /**
   * The CoreDNS release to lint against (default: the newest the package knows), in the grammar
   * `migrate` reads (`1.8.7`, `v1.8.7-eksbuild.3`, an image reference, newer than known), or a
   * release {@link resolveCoreDnsRelease} resolved; how it was read is reported as
   * `release-resolved` and `release-assumed` findings.
   */
  readonly coredns?: CoreDnsReleaseInput;
  /**
   * The directive names compiled into the CoreDNS build to lint against, for a custom build (its
   * plugin.cfg, see `parsePluginCfg`). Default: the default build of the release (its plugin.cfg).
   */
  readonly plugins?: readonly string[];
  /** Name used in syntax error messages (default `Corefile`). */
  readonly filename?: string;
  /**
   * Reads the files the Corefile imports (and they import), relative to the Corefile's directory
   * (see {@link ImportReader}): they are linted where they are written, and what the release does
   * with an import that brings nothing is said. Without it, file imports are `import-not-checked`
   * (or `import-refused` for a pattern the release refuses). The CLI's `lint FILE` reads them next
   * to FILE; the linter itself reads nothing. (The API's `lintCorefile` reads it; this module's,
   * for callers that lint a text alone, does not: see `lintCorefileWithImports`.)
   */
  readonly imports?: ImportReader;
}

export interface LintModelOptions {
  /** The CoreDNS release to lint against (see {@link LintOptions.coredns}). */
  readonly coredns?: CoreDnsReleaseInput;
  /** The directive names of a custom build (see {@link LintOptions.plugins}). */
  readonly plugins?: readonly string[];
  /** The parser's warnings for the model, reported as `syntax-warning`. */
  readonly warnings?: readonly CorefileWarning[];
}

export interface LintResult {
  /** True when no diagnostic is an error. */
  readonly ok: boolean;
  /** The release linted against. */
  readonly coredns: CoreDnsVersion;
  /** Ordered by position. */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Lints Corefile text against a CoreDNS release.
 *
 * @throws {CorefileSyntaxError} when CoreDNS could not even parse the text.
 * @throws {UnresolvedCoreDnsReleaseError} when `options.coredns` names no known release.
 *
 * The API's `lintCorefile` (lint-corefile.ts) also refuses a ConfigMap's YAML; this one, for callers
 * that already told the two apart (the CLI, the translator's own checks), does not load the YAML reader.
 */
export function lintCorefile(text: string, options: LintOptions = {}): LintResult {
  checkArgument('lintCorefile', 'text', text, 'string');
  checkArgument('lintCorefile', 'options', options, 'object?');
  const release = coreDnsReleaseOf(options.coredns ?? NEWEST_COREDNS_VERSION);
  const { corefile, warnings } = parseCorefile(text, { filename: options.filename ?? 'Corefile', tokenPositions: true });
  return lintParsedCorefile(corefile, options.plugins === undefined ? { coredns: release, warnings } : { coredns: release, plugins: options.plugins, warnings });
}

/**
 * Lints a Corefile model. Positions come from the model (parse it with `tokenPositions: true` for
 * argument and key positions); nodes without one are reported at line 1, column 1.
 */
export function lintParsedCorefile(corefile: Corefile, options: LintModelOptions = {}): LintResult {
  checkArgument('lintParsedCorefile', 'corefile', corefile, 'object');
  checkCorefileModel('lintParsedCorefile', 'corefile', corefile);
  checkArgument('lintParsedCorefile', 'options', options, 'object?');
  return lintCorefileModel(corefile, options);
}

/**
 * {@link lintParsedCorefile} without the argument checks, and with `lineNumber`: the line a
 * message prints for another node's position (`(line 12)`), for a model whose nodes come from
 * several texts (the migration's target check, src/migrate/target-model.ts). With `errorsOnly`,
 * the diagnostics are only the errors (and any `findings-not-listed`), as the full lint lists
 * them: for the target checks, which read nothing else. Not part of the API.
 */
export function lintCorefileModel(corefile: Corefile, options: LintModelOptions, lineNumber?: (position: SourcePosition) => number, errorsOnly = false): LintResult {
  const release = coreDnsReleaseOf(options.coredns ?? NEWEST_COREDNS_VERSION);
  const features = coreDnsFeatures(release.version);
  const context = new LintContext(features, pluginBuild(features.version, options.plugins), lineNumber, errorsOnly);
  reportWarnings(context, options.warnings ?? []);
  const { blocks, usedSnippets } = expandImports(context, corefile);
  checkKeys(context, blocks);
  // Directive checks, once per written directive: server blocks and the snippets they import.
  for (const item of corefile.items) {
    if (item.kind === 'server-block') checkDirectives(context, item.directives, blockLabel(item.keys));
    else if (item.kind === 'snippet' && usedSnippets.has(item)) checkDirectives(context, item.directives, `(${item.name})`);
  }
  for (const block of blocks) {
    checkForwarders(context, block);
    checkFederation(context, block);
    checkBlockSyntax(context, block);
  }
  checkHealthListeners(context, blocks);
  if (!errorsOnly) reportNodeCacheVariables(context, nodeCacheVariables(corefile));
  // How the release text was read comes first: it says what the findings are measured against.
  const diagnostics = errorsOnly ? context.sorted() : [...releaseDiagnostics('coredns', release), ...context.sorted()];
  return { ok: !hasErrors(diagnostics), coredns: features.version, diagnostics };
}

/** The parser's warnings, as `syntax-warning` findings. */
export function reportWarnings(context: LintContext, warnings: readonly CorefileWarning[]): void {
  for (const warning of warnings) context.report('syntax-warning', warning.position, where(warning.position), warning.reason);
}

/** The directive rules over `list`, directives of the block or snippet labelled `label`. */
export function checkDirectives(context: LintContext, list: readonly Directive[], label: string): void {
  for (const directive of list) {
    if (directive.name === 'import') continue;
    const { name } = directive;
    const position = directive.position ?? ORIGIN;
    const path = () => where(position, label, name);
    if (holdsPlaceholder(name)) {
      if (holdsOnlyNodeCacheVariables(name)) continue;
      context.report('placeholder-not-checked', position, path, `directive ${quote(name)} holds an environment placeholder; which plugin it names is not known`);
      continue;
    }
    if (!checkPlugin(context, name, position, path)) continue;
    checkPluginSyntax(context, directive, label);
    if (FORWARDERS.has(name)) checkDestinations(context, directive, label);
  }
}
