import { composeImports, importPath, mayImport } from '../corefile/compose-imports.js';
import type { ImportComposition, ImportResolution } from '../corefile/compose-imports.js';
import { CorefileSyntaxError } from '../corefile/errors.js';
import type { CorefileWarning } from '../corefile/errors.js';
import type { Corefile } from '../corefile/model.js';
import { parseCorefile } from '../corefile/parser.js';
import type { CoreDnsFeatures } from '../coredns/features.js';
import { diagnostic, hasErrors } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { SourcePosition } from '../util/source-position.js';
import { checkArgument } from '../errors/arguments.js';
import { coreDnsFeatures } from '../coredns/features.js';
import { coreDnsReleaseOf } from '../coredns/resolve-release.js';
import { NEWEST_COREDNS_VERSION } from '../coredns/versions.js';
import { lintCorefile, lintCorefileModel } from './lint.js';
import type { LintOptions, LintResult } from './lint.js';
import { holdsPlaceholder } from './placeholders.js';
import type { ImportReader } from './import-reader.js';
import { importPatternProblem, isImportGlob } from './import-patterns.js';

/**
 * Lint of a Corefile with the files it imports read through an {@link ImportReader} (the CLI's
 * `lint FILE` reads them next to FILE): the files are spliced in as CoreDNS splices their tokens
 * (src/corefile/compose-imports.ts), the whole is linted, and every finding is reported in the
 * file and at the line it was written (`key` is the imported file's name). What the release does
 * with an import that brings nothing is said: a glob matching no file imports nothing
 * (`import-matches-nothing`), a named file that is not there, a directory, a cycle or an imported
 * file that does not parse stop CoreDNS (`import-refused`). An import the reader cannot tell about
 * stays `import-not-checked`, with the reader's reason.
 *
 * Pure: no Node APIs (the reader is the caller's).
 */


/**
 * `lintCorefile` with `options.imports`: the Corefile and the files it imports, read through the
 * reader (see the module comment); a text without an `import` word is linted alone.
 */
export function lintCorefileWithImports(text: string, options: LintOptions): LintResult {
  const reader = options.imports;
  if (reader === undefined || !mayImport(text)) return lintCorefile(text, options);
  checkArgument('lintCorefile', 'options.imports', reader, 'function');
  const release = coreDnsReleaseOf(options.coredns ?? NEWEST_COREDNS_VERSION);
  const features = coreDnsFeatures(release.version);
  const model = (warnings: readonly CorefileWarning[]) => (options.plugins === undefined ? { coredns: release, warnings } : { coredns: release, plugins: options.plugins, warnings });
  const result = lintWithImports(text, options.filename ?? 'Corefile', reader, features, (corefile, warnings, lineNumber) => lintCorefileModel(corefile, model(warnings), lineNumber));
  return { ok: result.ok, coredns: features.version, diagnostics: result.diagnostics };
}

/** What {@link lintWithImports} needs of the whole lint (lint.ts). */
type LintComposed = (corefile: Corefile, warnings: readonly CorefileWarning[], lineNumber: (position: SourcePosition) => number) => { readonly diagnostics: readonly Diagnostic[] };

/**
 * `lint(composed text)` relocated: the findings of the Corefile `text` and its imports as `reader`
 * reads them. The base text is parsed first, so that its own syntax errors throw as without imports.
 */
function lintWithImports(text: string, filename: string, reader: ImportReader, features: CoreDnsFeatures, lint: LintComposed): { readonly ok: boolean; readonly diagnostics: readonly Diagnostic[] } {
  parseCorefile(text, { filename, tokenPositions: true });
  const reasons = new Map<string, string>();
  const findings: Diagnostic[] = [];
  const here = (key: string | undefined) => key ?? 'Corefile';
  const composition = composeImports(text, (site): ImportResolution => {
    if (site.snippet || holdsPlaceholder(site.pattern)) return { kind: 'keep' };
    const at = `${here(site.key)}|${site.position.line}:${site.position.column}`;
    if (site.inSnippet) {
      reasons.set(at, 'written in a snippet, it is read where the snippet is imported');
      return { kind: 'keep' };
    }
    const refused = importPatternProblem(site.pattern, features);
    if (refused !== undefined) return { kind: 'splice', files: [], problem: refused };
    const read = reader(importPath(site.pattern, site.key));
    if ('unresolved' in read) {
      reasons.set(at, read.unresolved);
      return { kind: 'keep' };
    }
    const directory = read.files.find((file) => 'directory' in file);
    if (directory !== undefined) return { kind: 'splice', files: [], problem: `CoreDNS ${features.version} stops with "Could not import ${directory.name}: is a directory"` };
    if (read.files.length === 0) {
      if (!isImportGlob(site.pattern, features)) return { kind: 'splice', files: [], problem: `no file '${importPath(site.pattern, site.key)}': CoreDNS ${features.version} stops with "File to import not found: ${site.pattern}"` };
      findings.push(
        diagnostic('import-matches-nothing', {
          key: here(site.key),
          path: `:${site.position.line}:${site.position.column} import`,
          position: site.position,
          message: `no file matches '${site.pattern}': CoreDNS ${features.version} imports nothing and logs "No files matching import glob pattern: ${site.pattern}"`,
        }),
      );
      return { kind: 'splice', files: [] };
    }
    return { kind: 'splice', files: read.files.map((file) => ({ key: file.name, text: 'text' in file ? file.text : '' })) };
  });
  for (const problem of composition.problems) {
    const refusal = problem.kind === 'resolver' || problem.kind === 'cycle';
    findings.push(
      diagnostic(refusal ? 'import-refused' : 'import-not-checked', {
        key: here(problem.key),
        path: `:${problem.position.line}:${problem.position.column} import`,
        position: problem.position,
        message: problem.kind === 'cycle' ? `${problem.message}: CoreDNS ${features.version} never finishes reading its imports and does not start` : refusal ? problem.message : `'${problem.pattern}': ${problem.message}; what lies beyond was not linted`,
      }),
    );
  }
  let parsed;
  try {
    parsed = parseCorefile(composition.text, { filename, tokenPositions: true });
  } catch (error) {
    if (!(error instanceof CorefileSyntaxError)) throw error;
    const origin = composition.locate(error.position);
    findings.push(
      diagnostic('import-refused', {
        key: here(origin.key),
        path: `:${origin.position.line}:${origin.position.column}`,
        position: origin.position,
        message: `the Corefile with its imports does not parse, so CoreDNS ${features.version} does not start: ${error.reason}`,
      }),
    );
    return { ok: false, diagnostics: findings };
  }
  const linted = lint(parsed.corefile, parsed.warnings, (position) => composition.locate(position).position.line);
  const relocated = linted.diagnostics.map((entry) => relocate(entry, composition, reasons));
  const diagnostics = [...findings, ...relocated];
  return { ok: !hasErrors(diagnostics), diagnostics };
}

/** A finding on the composed text, moved to the file and line it was written at. */
function relocate(entry: Diagnostic, composition: ImportComposition, reasons: ReadonlyMap<string, string>): Diagnostic {
  if (entry.position === undefined) return entry;
  const origin = composition.locate(entry.position);
  const key = origin.key ?? entry.key ?? 'Corefile';
  const path = entry.path?.replace(/^:\d+:\d+/, `:${origin.position.line}:${origin.position.column}`);
  const reason = entry.code === 'import-not-checked' ? reasons.get(`${origin.key ?? 'Corefile'}|${origin.position.line}:${origin.position.column}`) : undefined;
  const message = reason === undefined ? entry.message : `${entry.message}; not read: ${reason}`;
  return { ...entry, key, position: origin.position, message, ...(path === undefined ? {} : { path }) };
}
