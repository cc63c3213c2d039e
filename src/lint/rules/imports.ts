import type { Corefile, Directive, ServerBlock, SnippetDefinition } from '../../corefile/model.js';
import { hasPlaceholder } from '../../coredns/destinations.js';
import type { BlockInfo, LintContext, PlacedDirective } from '../context.js';
import { blockLabel, ORIGIN, quote, where } from '../context.js';

/**
 * Server blocks with their snippet imports expanded, as CoreDNS reads them: `import NAME` of a
 * snippet defined before the block brings in its directives (snippets may import snippets, up to
 * {@link MAX_SNIPPET_DEPTH} deep); file imports, and snippets defined later (CoreDNS reads those
 * names as file patterns), are reported as not linted. Code: `import-not-checked`.
 */

const MAX_SNIPPET_DEPTH = 10;

export interface ExpandedCorefile {
  readonly blocks: readonly BlockInfo[];
  /** Snippets some block imports: their directives are linted where they are written. */
  readonly usedSnippets: ReadonlySet<SnippetDefinition>;
}

export function expandImports(context: LintContext, corefile: Corefile): ExpandedCorefile {
  const snippets = new Map<string, { readonly snippet: SnippetDefinition; readonly index: number }>();
  const usedSnippets = new Set<SnippetDefinition>();
  corefile.items.forEach((item, index) => {
    if (item.kind === 'snippet') snippets.set(item.name, { snippet: item, index });
  });

  /** Expands `import SNIPPET` of snippets defined before the block; other imports are reported. */
  const expand = (list: readonly Directive[], label: string, blockIndex: number, into: PlacedDirective[], depth: number): void => {
    for (const directive of list) {
      if (directive.name !== 'import') {
        into.push({ directive, label });
        continue;
      }
      const name = directive.arguments[0] ?? '';
      const found = snippets.get(name);
      const position = directive.position ?? ORIGIN;
      if (found === undefined || found.index > blockIndex || depth >= MAX_SNIPPET_DEPTH) {
        const what =
          found === undefined
            ? `${quote(name)} is a file pattern`
            : found.index > blockIndex
              ? `snippet ${quote(name)} is defined after this block, so CoreDNS reads ${quote(name)} as a file pattern`
              : `snippet ${quote(name)} is imported more than ${MAX_SNIPPET_DEPTH} snippets deep`;
        context.reportOnce(`import ${position.line}:${position.column}`, 'import-not-checked', position, where(position, label, 'import'), `${what}; what it imports was not linted`);
        continue;
      }
      usedSnippets.add(found.snippet);
      expand(found.snippet.directives, `(${found.snippet.name})`, blockIndex, into, depth + 1);
    }
  };

  const blockInfo = (block: ServerBlock, index: number): BlockInfo => {
    const label = blockLabel(block.keys);
    const directives: PlacedDirective[] = [];
    expand(block.directives, label, index, directives, 0);
    const written = new Set<string>();
    const plugins = new Set<string>();
    for (const { directive } of directives) {
      const { name } = directive;
      written.add(name);
      if (!hasPlaceholder(name) && context.build.loadable.has(name)) plugins.add(name);
    }
    return { block, label, position: block.position ?? ORIGIN, directives, plugins, written, keys: [] };
  };

  const blocks: BlockInfo[] = [];
  corefile.items.forEach((item, index) => {
    if (item.kind === 'import') {
      const position = item.position ?? ORIGIN;
      context.report('import-not-checked', position, where(position, undefined, 'import'), `${quote(item.pattern)} is imported at the top level; its server blocks were not linted`);
    } else if (item.kind === 'server-block') {
      blocks.push(blockInfo(item, index));
    }
  });
  return { blocks, usedSnippets };
}
