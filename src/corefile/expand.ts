import { CorefileExpansionError } from './errors.js';
import type { Corefile, Directive, ServerBlock, SnippetDefinition } from './model.js';
import { checkCorefileModel } from '../errors/arguments.js';

/**
 * The one snippet expansion of the package: what each server block holds once `import NAME` of a
 * snippet is replaced by the snippet's directives, as CoreDNS reads it, within a bound. `lint`,
 * `check`, `explain`, the node-local-dns check and `--node-local-dns-base` all read blocks through
 * {@link expandSnippets}, so they follow the same imports and stop at the same place.
 *
 * As CoreDNS (coredns/caddy `caddyfile/parse.go`): an `import NAME` on a directive line of a server
 * block names a snippet when a snippet of that name is defined before the block (snippets defined
 * later, and every other name, are file or glob patterns); a snippet's own imports are read the
 * same way, at any depth, where they land. Imports at the top level and inside nested blocks are
 * not expanded here (the model keeps them as written).
 *
 * **Bounds.** A few hundred bytes of snippets importing each other can stand for more directives
 * than memory holds (a snippet importing the previous one 6 times over 10 levels: 60 million).
 * The expansion stops, and says where, past either bound:
 * - {@link MAX_SNIPPET_EXPANSIONS} snippet imports in the whole Corefile: the newer CoreDNS
 *   releases count the same and refuse to start past it (`maximum snippet import depth (10000)
 *   exceeded`; `snippetImportsBounded` in src/coredns/features.ts says from which release),
 *   earlier ones expand without end, or until they run out of memory;
 * - {@link MAX_EXPANDED_DIRECTIVES} directives brought into server blocks by imports, nested
 *   directives included (the package's own bound: 10,000 imports of a large snippet would still be
 *   too many to check).
 * Work is linear in the directives written plus those brought in, so never more than the bounds.
 * The walk uses an explicit stack: any depth within the bounds.
 *
 * Pure: no Node APIs.
 */

/** Snippet imports CoreDNS expands in one Corefile before it refuses, where it bounds them (coredns/caddy `maxSnippetExpansions`). */
export const MAX_SNIPPET_EXPANSIONS = 10_000;

/** Directives (nested ones counted) that imports may bring into the server blocks of one Corefile. */
export const MAX_EXPANDED_DIRECTIVES = 200_000;

/** A directive of a server block after expansion, with the snippet it is written in. */
export interface ExpandedDirective {
  readonly directive: Directive;
  /** The snippet whose body holds it; undefined when it is written in the block itself. */
  readonly snippet?: SnippetDefinition;
}

/** An `import` directive left as it is written: a file or glob pattern to CoreDNS. */
export interface UnexpandedImport {
  readonly directive: Directive;
  /** The pattern (the import's argument). */
  readonly pattern: string;
  /** `file`: no snippet has that name; `defined-later`: a snippet of that name is defined after the block. */
  readonly reason: 'file' | 'defined-later';
  /** The snippet whose body holds the import; undefined when written in the block itself. */
  readonly snippet?: SnippetDefinition;
}

export interface ExpandedServerBlock {
  readonly block: ServerBlock;
  /** Its index among `corefile.items`. */
  readonly index: number;
  /** Its directives in order, imports of snippets replaced (other imports kept as written). */
  readonly directives: readonly ExpandedDirective[];
  /** The imports of this block (and of what it imports) that are not snippets. */
  readonly unexpanded: readonly UnexpandedImport[];
}

/** Where the expansion stopped, past one of the bounds. */
export interface ExpansionLimit {
  /** Which bound: `snippet-imports` ({@link MAX_SNIPPET_EXPANSIONS}) or `directives` ({@link MAX_EXPANDED_DIRECTIVES}). */
  readonly bound: 'snippet-imports' | 'directives';
  /** The bound's value. */
  readonly limit: number;
  /** The import that would have gone past it. */
  readonly directive: Directive;
  readonly block: ServerBlock;
  /** The snippet whose body holds that import; undefined when written in the block itself. */
  readonly snippet?: SnippetDefinition;
  /** The sentence for messages (no location). */
  readonly reason: string;
}

export interface SnippetExpansion {
  /** Every server block, in order. Past a bound, the blocks from the one that reached it hold what was expanded before it. */
  readonly blocks: readonly ExpandedServerBlock[];
  /** Snippets some server block imports. */
  readonly usedSnippets: ReadonlySet<SnippetDefinition>;
  /** Snippet imports expanded. */
  readonly snippetImports: number;
  /** Directives brought in by them (nested ones counted). */
  readonly importedDirectives: number;
  /** Set when a bound was reached: what the blocks hold is then incomplete. */
  readonly limit?: ExpansionLimit;
}

const expansions = new WeakMap<Corefile, SnippetExpansion>();

/**
 * The expansion of `corefile` (computed once per model object: every consumer of one parsed
 * Corefile shares it). Never throws; see {@link SnippetExpansion.limit}, or use
 * {@link expandSnippetsOrThrow} where an incomplete expansion cannot be used.
 */
export function expandSnippets(corefile: Corefile): SnippetExpansion {
  checkCorefileModel('expandSnippets', 'corefile', corefile);
  let expansion = expansions.get(corefile);
  if (expansion === undefined) {
    expansion = expand(corefile);
    expansions.set(corefile, expansion);
  }
  return expansion;
}

/**
 * {@link expandSnippets}, throwing {@link CorefileExpansionError} (code `expansion-limit`, at the
 * import that went past the bound) when a bound was reached.
 */
export function expandSnippetsOrThrow(corefile: Corefile, filename?: string): SnippetExpansion {
  const expansion = expandSnippets(corefile);
  const { limit } = expansion;
  if (limit !== undefined) throw new CorefileExpansionError(limit.reason, limit.directive.position, filename);
  return expansion;
}

function expand(corefile: Corefile): SnippetExpansion {
  const defined = new Map<string, { readonly snippet: SnippetDefinition; readonly index: number; weight?: number }>();
  corefile.items.forEach((item, index) => {
    if (item.kind === 'snippet' && !defined.has(item.name)) defined.set(item.name, { snippet: item, index });
  });
  const usedSnippets = new Set<SnippetDefinition>();
  const blocks: ExpandedServerBlock[] = [];
  let snippetImports = 0;
  let importedDirectives = 0;
  let limit: ExpansionLimit | undefined;

  corefile.items.forEach((item, index) => {
    if (item.kind !== 'server-block') return;
    const directives: ExpandedDirective[] = [];
    const unexpanded: UnexpandedImport[] = [];
    // Frames of the walk: a list, the next position in it, and the snippet it is the body of.
    const stack: { list: readonly Directive[]; next: number; snippet: SnippetDefinition | undefined }[] = [
      { list: item.directives, next: 0, snippet: undefined },
    ];
    while (stack.length > 0 && limit === undefined) {
      const frame = stack[stack.length - 1] as (typeof stack)[number];
      if (frame.next >= frame.list.length) {
        stack.pop();
        continue;
      }
      const directive = frame.list[frame.next] as Directive;
      frame.next += 1;
      if (directive.name !== 'import') {
        // Built without spreading `place`: this runs once per directive of every block.
        directives.push(frame.snippet === undefined ? { directive } : { directive, snippet: frame.snippet });
        if (frame.snippet !== undefined) importedDirectives += weight(directive);
        continue;
      }
      const place = frame.snippet === undefined ? {} : { snippet: frame.snippet };
      const pattern = directive.arguments[0] ?? '';
      const found = defined.get(pattern);
      if (found === undefined || found.index > index) {
        unexpanded.push({ directive, pattern, reason: found === undefined ? 'file' : 'defined-later', ...place });
        continue;
      }
      found.weight ??= listWeight(found.snippet.directives);
      if (snippetImports >= MAX_SNIPPET_EXPANSIONS) {
        limit = {
          bound: 'snippet-imports',
          limit: MAX_SNIPPET_EXPANSIONS,
          directive,
          block: item,
          ...place,
          reason: `more than ${MAX_SNIPPET_EXPANSIONS.toLocaleString('en')} snippet imports in one Corefile, the most this tool follows (and the most CoreDNS expands where it bounds them: 'maximum snippet import depth (${MAX_SNIPPET_EXPANSIONS}) exceeded')`,
        };
        break;
      }
      if (importedDirectives + found.weight > MAX_EXPANDED_DIRECTIVES) {
        limit = {
          bound: 'directives',
          limit: MAX_EXPANDED_DIRECTIVES,
          directive,
          block: item,
          ...place,
          reason: `snippet imports would bring more than ${MAX_EXPANDED_DIRECTIVES.toLocaleString('en')} directives into the server blocks, the most this tool follows`,
        };
        break;
      }
      snippetImports += 1;
      usedSnippets.add(found.snippet);
      stack.push({ list: found.snippet.directives, next: 0, snippet: found.snippet });
    }
    blocks.push({ block: item, index, directives, unexpanded });
  });
  return limit === undefined
    ? { blocks, usedSnippets, snippetImports, importedDirectives }
    : { blocks, usedSnippets, snippetImports, importedDirectives, limit };
}

/** The directive and its nested directives, counted without recursion. */
function weight(directive: Directive): number {
  return 1 + (directive.block === undefined ? 0 : listWeight(directive.block.directives));
}

/** Directives of `list` that are not imports, nested ones counted (an upper bound of what one import of it adds). */
function listWeight(list: readonly Directive[]): number {
  let count = 0;
  const pending: (readonly Directive[])[] = [list];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    for (const directive of current) {
      if (directive.name !== 'import') count += 1;
      if (directive.block !== undefined) pending.push(directive.block.directives);
    }
  }
  return count;
}
