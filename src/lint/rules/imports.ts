import { expandSnippets } from '../../corefile/expand.js';
import type { ExpansionLimit } from '../../corefile/expand.js';
import { firstReleaseWith } from '../../coredns/features.js';
import type { Corefile, ImportStatement, ServerBlock, SnippetDefinition } from '../../corefile/model.js';
import type { BlockInfo, LintContext, PlacedDirective } from '../context.js';
import { blockLabel, holdsPlaceholder, NameSet, ORIGIN, placedLabels, quote, where } from '../context.js';
import { importPatternProblem, unreadImportConsequence } from '../import-patterns.js';
import type { SourcePosition } from '../../util/source-position.js';

/**
 * Server blocks with their snippet imports expanded, as CoreDNS reads them, through the package's
 * one bounded expansion (`expandSnippets`, src/corefile/expand.ts): `import NAME` of a snippet
 * defined before the block brings in its directives, at any depth. File imports, and snippets
 * defined later (CoreDNS reads those names as file patterns), are reported as not linted
 * (`import-not-checked`); past the expansion bounds, `snippet-expansion-limit` (an error: the
 * releases that bound snippet imports refuse the same Corefile, earlier ones expand it without a
 * bound).
 */

/** What the release makes of a Corefile past the bound, and what the linter did not check. */
function limitConsequence(context: LintContext, limit: ExpansionLimit): string {
  const notLinted = 'what lies beyond was not linted';
  if (limit.bound !== 'snippet-imports') return notLinted;
  if (context.features.snippetImportsBounded) return `CoreDNS ${context.version} refuses to start`;
  return `CoreDNS ${context.version} expands them without a bound (${firstReleaseWith((features) => features.snippetImportsBounded) ?? 'newer releases'} and later refuse to start); ${notLinted}`;
}

export interface ExpandedCorefile {
  readonly blocks: readonly BlockInfo[];
  /** Snippets some block imports: their directives are linted where they are written. */
  readonly usedSnippets: ReadonlySet<SnippetDefinition>;
}

export function expandImports(context: LintContext, corefile: Corefile): ExpandedCorefile {
  if (!corefile.items.some((item) => item.kind === 'snippet')) return withoutSnippets(context, corefile);
  const expansion = expandSnippets(corefile);

  const blocks: BlockInfo[] = [];
  let expanded = 0;
  for (const item of corefile.items) {
    if (item.kind === 'import') {
      reportTopLevelImport(context, item);
      continue;
    }
    if (item.kind !== 'server-block') continue;
    const entry = expansion.blocks[expanded];
    expanded += 1;
    if (entry === undefined) continue;
    const label = blockLabel(item.keys);
    const placed = entry.directives.map(({ directive, snippet }) => ({ directive, label: snippet === undefined ? label : `(${snippet.name})` }));
    for (const skipped of entry.unexpanded) {
      const position = skipped.directive.position ?? ORIGIN;
      const at = skipped.snippet === undefined ? label : `(${skipped.snippet.name})`;
      reportFileImport(context, skipped.pattern, position, where(position, at, 'import'), skipped.reason === 'defined-later' ? `snippet ${quote(skipped.pattern)} is defined after this block, so CoreDNS reads ${quote(skipped.pattern)} as a file pattern: ` : '');
    }
    blocks.push(blockInfo(context, item, label, placed));
  }
  const { limit } = expansion;
  if (limit !== undefined) {
    const position = limit.directive.position ?? ORIGIN;
    const label = blockLabel(limit.block.keys);
    const labels = limit.snippet === undefined ? label : placedLabels({ label }, `(${limit.snippet.name})`);
    context.report('snippet-expansion-limit', position, where(position, labels, 'import'), `${limit.reason}; ${limitConsequence(context, limit)}`);
  }
  return { blocks, usedSnippets: expansion.usedSnippets };
}

function reportTopLevelImport(context: LintContext, item: ImportStatement): void {
  const position = item.position ?? ORIGIN;
  reportFileImport(context, item.pattern, position, where(position, undefined, 'import'), 'imported at the top level: ');
}

/**
 * A file import lint does not read: `import-refused` when the release refuses the pattern itself,
 * else `import-not-checked` saying what the release does with it (once per place).
 */
function reportFileImport(context: LintContext, pattern: string, position: SourcePosition, path: string, lead: string): void {
  const once = `import ${position.line}:${position.column}`;
  const refused = holdsPlaceholder(pattern) ? undefined : importPatternProblem(pattern, context.features);
  if (refused !== undefined) {
    context.reportOnce(once, 'import-refused', position, path, refused);
    return;
  }
  context.reportOnce(once, 'import-not-checked', position, path, `${lead}${quote(pattern)} ${unreadImportConsequence(pattern, context.features)}`);
}

function blockInfo(context: LintContext, block: ServerBlock, label: string, placed: readonly PlacedDirective[]): BlockInfo {
  const written = new NameSet();
  const plugins = new NameSet();
  for (const { directive } of placed) {
    const { name } = directive;
    written.add(name);
    if (!holdsPlaceholder(name) && context.build.loadable.has(name)) plugins.add(name);
  }
  return { block, label, position: block.position ?? ORIGIN, keyCount: block.keys.length, directives: placed, plugins, written, keys: [] };
}

/**
 * {@link expandImports} of a Corefile without snippets (most of them): every `import` in a block
 * names files, so the blocks are read as written, without the general expansion's lists.
 */
function withoutSnippets(context: LintContext, corefile: Corefile): ExpandedCorefile {
  const blocks: BlockInfo[] = [];
  for (const item of corefile.items) {
    if (item.kind === 'import') {
      reportTopLevelImport(context, item);
      continue;
    }
    if (item.kind !== 'server-block') continue;
    blocks.push(plainBlockInfo(context, item));
  }
  return { blocks, usedSnippets: NO_SNIPPETS };
}

/** A server block of a Corefile without snippets as the block rules see it: each `import` in it names files. */
export function plainBlockInfo(context: LintContext, item: ServerBlock): BlockInfo {
  const label = blockLabel(item.keys);
  const placed: PlacedDirective[] = [];
  for (const directive of item.directives) {
    if (directive.name !== 'import') {
      placed.push({ directive, label });
      continue;
    }
    const position = directive.position ?? ORIGIN;
    reportFileImport(context, directive.arguments[0] ?? '', position, where(position, label, 'import'), '');
  }
  return blockInfo(context, item, label, placed);
}

const NO_SNIPPETS: ReadonlySet<SnippetDefinition> = new Set();
