import { describe, expect, it } from 'vitest';
import { comparableCorefile, corefilesEqual } from '../../src/corefile/compare.js';
import { CorefilePrintError, CorefileSyntaxError } from '../../src/corefile/errors.js';
import { formatCorefile } from '../../src/corefile/format.js';
import type { Block, Corefile, Directive } from '../../src/corefile/model.js';
import { serverBlocks } from '../../src/corefile/model.js';
import { parseCorefile } from '../../src/corefile/parser.js';
import { printCorefile } from '../../src/corefile/printer.js';

/**
 * Nesting depth is bounded only by the input: parsing, printing and comparing walk the model
 * without recursion, so a deep Corefile is read, written and compared like any other (or, when its
 * canonical text is longer than the printer writes, refused with a typed error) — never a RangeError from a
 * full call stack.
 */

/** `a {` on its own line per level, as people write nested blocks (canonical apart from indentation). */
function nestedOnLines(depth: number): string {
  return `.:53 {\n    errors\n${'a {\n'.repeat(depth)}x\n${'}\n'.repeat(depth)}}\n`;
}

/** The canonical form of {@link nestedOnLines}: four more spaces per level. */
function canonicalOnLines(depth: number): string {
  const lines = ['.:53 {', '    errors'];
  for (let level = 0; level < depth; level += 1) lines.push(`${'    '.repeat(level + 1)}a {`);
  lines.push(`${'    '.repeat(depth + 1)}x`);
  for (let level = depth - 1; level >= 0; level -= 1) lines.push(`${'    '.repeat(level + 1)}}`);
  return `${lines.join('\n')}\n}\n`;
}

/** Every level on one line: `a { a { … a } … }` (already canonical: the line structure is kept). */
function nestedOnOneLine(depth: number): string {
  return `.:53 {\n    errors\n    a${' { a'.repeat(depth)}${' }'.repeat(depth)}\n}\n`;
}

/** Parses once per text (the 100,000-level models serve several tests). */
const models = new Map<string, Corefile>();
function parsed(text: string): Corefile {
  let model = models.get(text);
  if (model === undefined) {
    model = parseCorefile(text).corefile;
    models.set(text, model);
  }
  return model;
}

/** Depth of the deepest block chain under the first directive named `a` (walked without recursion). */
function depthOf(corefile: Corefile): number {
  const [server] = serverBlocks(corefile);
  let directive: Directive | undefined = server?.directives.find((entry) => entry.name === 'a');
  let depth = 0;
  while (directive?.block !== undefined) {
    depth += 1;
    directive = directive.block.directives[0];
  }
  return depth;
}

/** The innermost block under the first directive named `a`. */
function innermost(corefile: Corefile): Block {
  const [server] = serverBlocks(corefile);
  let block = server?.directives.find((entry) => entry.name === 'a')?.block as Block;
  while (block.directives[0]?.block !== undefined) block = block.directives[0].block;
  return block;
}

describe('deeply nested Corefiles', () => {
  it('parses 1,500 and 100,000 levels, on separate lines and on one line', () => {
    for (const depth of [1500, 100_000]) {
      const corefile = parsed(nestedOnLines(depth));
      expect(depthOf(corefile)).toBe(depth);
      expect(innermost(corefile).directives.map((directive) => directive.name)).toEqual(['x']);
      expect(depthOf(parsed(nestedOnOneLine(depth)))).toBe(depth);
    }
  });

  it('prints them: four spaces per level, or the one line as written', () => {
    expect(printCorefile(parsed(nestedOnLines(1500)))).toBe(canonicalOnLines(1500));
    expect(formatCorefile(nestedOnOneLine(1500))).toMatchObject({ text: nestedOnOneLine(1500), unchanged: true });
    expect(printCorefile(parsed(nestedOnOneLine(100_000)))).toBe(nestedOnOneLine(100_000));
    // In a snippet body too (read in the snippet context, printed while held for the self-import check).
    const snippet = `(deep) {\n    a${' { a'.repeat(100_000)}${' }'.repeat(100_000)}\n    import x\n}\n`;
    expect(formatCorefile(snippet, { tokenPositions: true })).toMatchObject({ text: snippet, unchanged: true });
  });

  it('refuses, typed and located, a canonical text longer than the printer writes', () => {
    // 100,000 levels, each on its own line, indent to about 20 billion characters.
    let caught: unknown;
    try {
      printCorefile(parsed(nestedOnLines(100_000)));
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CorefilePrintError);
    expect(caught).toMatchObject({ code: 'output-too-large' });
    expect((caught as CorefilePrintError).position?.line).toBeGreaterThan(2);
    expect((caught as CorefilePrintError).message.length).toBeLessThan(600);
  });

  it('measures a deep text before keeping it: prints it when it fits, refuses it past 2^27 characters', () => {
    // 2,100 levels: 17.6 million characters, most of them indentation, past the point (2^24 spaces)
    // where the printer measures the whole text first.
    expect(printCorefile(parsed(nestedOnLines(2100)))).toBe(canonicalOnLines(2100));
    // 5,800 levels need 134.6 million: within what a string holds (2^29 - 24), which printing used
    // to fill before refusing (1 GB for 11,000 levels, 484 million characters).
    let caught: unknown;
    try {
      printCorefile(parsed(nestedOnLines(5800)));
    } catch (error) {
      caught = error;
    }
    expect(caught).toMatchObject({ code: 'output-too-large' });
    expect((caught as CorefilePrintError).message).toContain('would be longer than 134,217,728 characters, the most the printer writes');
    // Where the measuring print passed the limit: among the closing lines of the innermost levels.
    const { line } = (caught as CorefilePrintError).position ?? { line: 0 };
    expect(line).toBeGreaterThan(5800);
    expect(line).toBeLessThan(11_600);
  });

  it('names a deep node by the ends of its path', () => {
    let directive: Directive = { name: 'x', arguments: ['{'] };
    for (let level = 0; level < 1500; level += 1) directive = { name: 'a', arguments: [], block: { directives: [directive] } };
    let caught: unknown;
    try {
      printCorefile({ items: [{ kind: 'server-block', keys: ['.'], directives: [directive] }] });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(CorefilePrintError);
    expect((caught as CorefilePrintError).path).toBe(
      "server block 1 > directive 'a' > block > directive 'a' > block > directive 'a' > block > directive 'a' > " +
        "… 2,986 more … > block > directive 'a' > block > directive 'a' > block > directive 'a' > block > directive 'x' argument 1",
    );
  });

  it('reports an unclosed block at the innermost level, as a syntax error', () => {
    const text = `.:53 {\n${'a {\n'.repeat(100_000)}`;
    expect(() => parseCorefile(text)).toThrow(CorefileSyntaxError);
    expect(() => parseCorefile(text)).toThrow("Corefile:100001:3: Unexpected EOF (the '{' at line 100001, column 3 is never closed)");
  });

  it('compares them', () => {
    const a = parsed(nestedOnOneLine(100_000));
    const b = parsed(nestedOnLines(100_000));
    const c = parseCorefile(nestedOnOneLine(100_000).replace(' a }', ' b }')).corefile;
    expect(corefilesEqual(a, parseCorefile(nestedOnOneLine(100_000)).corefile)).toBe(true);
    // The innermost blocks differ (`x` against `a`), and so do their line structures.
    expect(corefilesEqual(a, b)).toBe(false);
    expect(corefilesEqual(a, c)).toBe(false);
    expect(comparableCorefile(a)).toBeDefined();
  });
});
