import { describe, expect, it } from 'vitest';
import { CorefileExpansionError } from '../../src/corefile/errors.js';
import { expandSnippets, expandSnippetsOrThrow, MAX_EXPANDED_DIRECTIVES, MAX_SNIPPET_EXPANSIONS } from '../../src/corefile/expand.js';
import { parseCorefile } from '../../src/corefile/parser.js';
import { fanOutCorefile, snippetChain } from '../support/hostile-inputs.js';
import { thrown } from '../support/thrown.js';

const expanded = (text: string) => expandSnippets(parseCorefile(text).corefile);

describe('the bounded snippet expansion', () => {
  it('stops a snippet fan-out of 60 million directives at the 10,000th import, having done no more work than that', () => {
    const text = fanOutCorefile(6, 10);
    expect(text.length).toBeLessThan(1024);
    const expansion = expanded(text);
    expect(expansion.limit?.bound).toBe('snippet-imports');
    expect(expansion.snippetImports).toBe(MAX_SNIPPET_EXPANSIONS);
    // Work done is what was expanded: a few thousand directives, not 6^10.
    const [block] = expansion.blocks;
    expect(block?.directives.length).toBeLessThanOrEqual(MAX_SNIPPET_EXPANSIONS);
    expect(expansion.limit?.reason).toContain("maximum snippet import depth (10000) exceeded");
    expect(expansion.limit?.snippet?.name).toBe('s1');
  });

  it('expands exactly 10,000 snippet imports, as CoreDNS 1.13.0 and later do, and stops at the 10,001st', () => {
    const imports = (count: number) => `(a) {\n    log\n}\n.:53 {\n${'    import a\n'.repeat(count)}}\n`;
    const atBound = expanded(imports(MAX_SNIPPET_EXPANSIONS));
    expect(atBound.limit).toBeUndefined();
    expect(atBound.blocks[0]?.directives).toHaveLength(MAX_SNIPPET_EXPANSIONS);
    const past = expanded(imports(MAX_SNIPPET_EXPANSIONS + 1));
    expect(past.limit?.bound).toBe('snippet-imports');
    expect(past.limit?.directive.position).toEqual({ line: 5 + MAX_SNIPPET_EXPANSIONS, column: 5 });
  });

  it('follows every level of a deep chain of snippets (no depth limit, no recursion)', () => {
    const depth = 9000;
    const expansion = expanded(snippetChain(depth, 'proxy . 10.0.0.1'));
    expect(expansion.limit).toBeUndefined();
    expect(expansion.snippetImports).toBe(depth + 1);
    expect(expansion.blocks[0]?.directives.map((entry) => `${entry.directive.name} in (${entry.snippet?.name})`)).toEqual(['proxy in (s0)']);
  });

  it('ends a cycle of snippets importing each other at the bound', () => {
    const expansion = expanded('(a) {\n    import b\n    log\n}\n(b) {\n    import a\n}\n. {\n    import b\n}\n');
    expect(expansion.limit?.bound).toBe('snippet-imports');
    expect(expansion.snippetImports).toBe(MAX_SNIPPET_EXPANSIONS);
  });

  it('bounds the directives imports bring in: 300 imports of a 1,000-directive snippet stop at 200,000', () => {
    const expansion = expanded(`(big) {\n${'    log\n'.repeat(1000)}}\n.:53 {\n${'    import big\n'.repeat(300)}}\n`);
    expect(expansion.limit?.bound).toBe('directives');
    expect(expansion.importedDirectives).toBe(MAX_EXPANDED_DIRECTIVES);
    expect(expansion.snippetImports).toBe(MAX_EXPANDED_DIRECTIVES / 1000);
  });

  it('counts nested directives towards the bound', () => {
    const expansion = expanded(`(big) {\n    hosts {\n${'        10.0.0.1 a.example\n'.repeat(999)}    }\n}\n.:53 {\n${'    import big\n'.repeat(201)}}\n`);
    expect(expansion.limit?.bound).toBe('directives');
    expect(expansion.snippetImports).toBe(200);
  });

  it('reads a name as a file pattern where CoreDNS does: no such snippet, or one defined after the block', () => {
    const expansion = expanded('(early) {\n    import later\n}\n.:53 {\n    import early\n    import missing/*.server\n}\n(later) {\n    log\n}\n');
    expect(expansion.blocks[0]?.unexpanded.map((entry) => `${entry.pattern} ${entry.reason} ${entry.snippet?.name ?? '-'}`)).toEqual([
      'later defined-later early',
      'missing/*.server file -',
    ]);
    expect([...expansion.usedSnippets].map((snippet) => snippet.name)).toEqual(['early']);
  });

  it('is computed once per parsed Corefile, for every consumer', () => {
    const { corefile } = parseCorefile(fanOutCorefile(6, 10));
    expect(expandSnippets(corefile)).toBe(expandSnippets(corefile));
  });

  it('throws an input error with a stable code at the import past the bound', () => {
    const { corefile } = parseCorefile(fanOutCorefile(6, 10));
    const error = thrown(() => expandSnippetsOrThrow(corefile, 'Corefile'));
    expect(error).toBeInstanceOf(CorefileExpansionError);
    expect(error).toMatchObject({ code: 'expansion-limit', category: 'input', position: { line: 10, column: 5 } });
    expect((error as Error).message).toMatch(/^Corefile:10:5: more than 10,000 snippet imports/);
    expect(() => expandSnippetsOrThrow(parseCorefile(fanOutCorefile(6, 4)).corefile)).not.toThrow();
  });
});
