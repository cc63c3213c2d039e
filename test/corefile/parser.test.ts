import { describe, expect, it } from 'vitest';
import { comparableCorefile } from '../../src/corefile/compare.js';
import { CorefileSyntaxError } from '../../src/corefile/errors.js';
import type { Corefile, Directive, ServerBlock } from '../../src/corefile/model.js';
import { parseCorefile } from '../../src/corefile/parser.js';
import { printCorefile } from '../../src/corefile/printer.js';
import { expectLinearGrowth } from '../support/growth.js';
import { referenceParse } from './support/caddy-reference.js';

function parse(text: string): Corefile {
  return parseCorefile(text).corefile;
}

function warnings(text: string): string[] {
  return parseCorefile(text).warnings.map((warning) => warning.code);
}

function onlyBlock(text: string): ServerBlock {
  const [item] = parse(text).items;
  if (item?.kind !== 'server-block') throw new Error(`not a server block: ${JSON.stringify(item)}`);
  return item;
}

function names(directives: readonly Directive[]): string[] {
  return directives.map((directive) => [directive.name, ...directive.arguments].join(' '));
}

function syntaxError(text: string): CorefileSyntaxError {
  try {
    parseCorefile(text, { filename: 'Corefile' });
  } catch (error) {
    if (error instanceof CorefileSyntaxError) return error;
    throw error;
  }
  throw new Error(`parsed: ${JSON.stringify(text)}`);
}

describe('parseCorefile (corefile-syntax.md §2–§3)', () => {
  describe('server block keys (§2.1)', () => {
    it('takes the words of the first line as keys, separated by spaces or a trailing comma', () => {
      expect(onlyBlock('a.org b.org:53 {\n}\n').keys).toEqual(['a.org', 'b.org:53']);
      expect(onlyBlock('a.org, b.org {\n}\n').keys).toEqual(['a.org', 'b.org']);
      expect(onlyBlock('a.org,\n\n# between\nb.org {\n}\n').keys).toEqual(['a.org', 'b.org']);
    });

    it('treats only a final comma as a separator', () => {
      expect(onlyBlock('a.org,b.org {\n}\n').keys).toEqual(['a.org,b.org']);
      expect(warnings('a.org,b.org {\n}\n')).toEqual(['comma-inside-key']);
      expect(onlyBlock('a.org , b.org {\n}\n').keys).toEqual(['a.org', '', 'b.org']);
    });

    it('drops empty keys, and keeps a block whose keys were all empty as a keyless block', () => {
      expect(onlyBlock('"" a.org {\n}\n').keys).toEqual(['a.org']);
      expect(onlyBlock('"" {\n    whoami\n}\n')).toMatchObject({ keys: [], directives: [{ name: 'whoami' }] });
      expect(warnings('"" {\n}\n')).toEqual(['empty-key', 'block-without-keys']);
      expect(onlyBlock('{\n    whoami\n}\n').keys).toEqual([]);
    });

    it('accepts the { on a later line', () => {
      expect(onlyBlock('a.org\n# comment\n\n{\n    whoami\n}\n')).toMatchObject({ keys: ['a.org'], directives: [{ name: 'whoami' }] });
    });

    it('reports a comma before { and a comma at the end', () => {
      expect(syntaxError('a.org,\n{\n}\n').message).toBe("Corefile:2:1: Expected another address but had '{' - check for extra comma");
      expect(syntaxError('a.org,').reason).toMatch(/^Unexpected EOF/);
    });

    it('turns a stray top-level } into a key', () => {
      const corefile = parse('. {\n}\n}\n');
      expect(corefile.items.map((item) => (item.kind === 'server-block' ? item.keys : item.kind))).toEqual([['.'], ['}']]);
      expect(warnings('. {\n}\n}\n')).toEqual(['closing-brace-as-key']);
    });
  });

  describe('block bodies (§2.2)', () => {
    it('reads one directive per line, also on the { line, and empty blocks', () => {
      expect(names(onlyBlock('. { whoami\n  log a b\n}\n').directives)).toEqual(['whoami', 'log a b']);
      expect(onlyBlock('. { }\n').directives).toEqual([]);
      expect(onlyBlock('. {\n}\n').directives).toEqual([]);
    });

    it('starts the next block right after }, even on the same line', () => {
      const corefile = parse('. { \n} b.org { \n}\n');
      expect(corefile.items).toHaveLength(2);
    });

    it('reads a block without braces to the end of the file or a line starting with }', () => {
      expect(names(onlyBlock('a.org\nwhoami\nlog\n').directives)).toEqual(['whoami', 'log']);
      expect(warnings('a.org\nwhoami\n')).toEqual(['block-without-braces']);
      const corefile = parse('a.org\nwhoami\n}\nb.org {\n    log\n}\n');
      expect(corefile.items.map((item) => (item.kind === 'server-block' ? names(item.directives) : []))).toEqual([['whoami'], ['log']]);
      // `b.org {` is then a directive with a block, as in CoreDNS.
      expect(names(onlyBlock('a.org\nwhoami\nb.org {\n}\n').directives)).toEqual(['whoami', 'b.org']);
    });

    it('accepts a file with only keys', () => {
      expect(onlyBlock('a.org b.org')).toMatchObject({ keys: ['a.org', 'b.org'], directives: [] });
    });

    it('accepts empty input and comment-only input', () => {
      expect(parse('')).toEqual({ items: [] });
      expect(parse('# only\n# comments\n')).toMatchObject({ items: [], endComments: [{ text: ' only' }, { text: ' comments' }] });
    });
  });

  describe('directives and nesting (§2.3)', () => {
    it('nests blocks to any depth', () => {
      const block = onlyBlock('. {\n  a {\n    b {\n      c {\n        d x\n      }\n    }\n  }\n}\n');
      expect(block.directives[0]?.block?.directives[0]?.block?.directives[0]?.block?.directives[0]).toMatchObject({ name: 'd', arguments: ['x'] });
    });

    it('opens a nested block with a { on the next line, and keeps that layout', () => {
      const [forward] = onlyBlock('. {\n    forward . 1.1.1.1\n    {\n        force_tcp\n    }\n}\n').directives;
      expect(forward).toMatchObject({ name: 'forward', arguments: ['.', '1.1.1.1'], block: { openedOnNewLine: true, directives: [{ name: 'force_tcp' }] } });
      expect(warnings('. {\n    forward . 1.1.1.1\n    {\n    }\n}\n')).toEqual(['brace-on-own-line']);
    });

    it('accepts a nested block on one line, and records that its } shares the line', () => {
      const [forward] = onlyBlock('. {\n    forward . 1.1.1.1 { force_tcp }\n}\n').directives;
      expect(forward?.block).toMatchObject({ closedOnLastLine: true, directives: [{ name: 'force_tcp', arguments: [] }] });
      expect(onlyBlock('. {\n    x { }\n}\n').directives[0]?.block?.closedOnLastLine).toBeUndefined();
    });

    it('records that the token after a nested { shares its line (the first directive, or the } of an empty block)', () => {
      const [health, forward, log] = onlyBlock('. {\n    health { lameduck 5s\n    }\n    forward . 1.1.1.1 { } x\n    log {\n    }\n}\n').directives;
      expect(health?.block).toMatchObject({ firstTokenOnOpeningLine: true, directives: [{ name: 'lameduck', arguments: ['5s'] }] });
      expect(health?.block?.closedOnLastLine).toBeUndefined();
      expect(forward).toMatchObject({ block: { firstTokenOnOpeningLine: true, directives: [] }, afterBlock: { arguments: ['x'] } });
      expect(log?.block?.firstTokenOnOpeningLine).toBeUndefined();
      // A comment ends the `{` line: the first directive is on the next one.
      expect(onlyBlock('. {\n    x { # c\n        a\n    }\n}\n').directives[0]?.block?.firstTokenOnOpeningLine).toBeUndefined();
      expect(onlyBlock('. {\n    x\n    { a }\n}\n').directives[0]?.block).toMatchObject({ openedOnNewLine: true, firstTokenOnOpeningLine: true, closedOnLastLine: true });
      // No warning: plugins read the first token with Next, which ignores lines.
      expect(warnings('. {\n    health { lameduck 5s\n    }\n}\n')).toEqual([]);
    });

    it('keeps words after a nested } in the same directive', () => {
      const [hosts] = onlyBlock('. {\n    hosts {\n        fallthrough\n    } extra { a }\n}\n').directives;
      expect(hosts).toMatchObject({ name: 'hosts', afterBlock: { arguments: ['extra'], block: { directives: [{ name: 'a' }] } } });
      expect(warnings('. {\n    hosts {\n    } extra\n}\n')).toEqual(['tokens-after-closing-brace']);
    });

    it('refuses a } on a directive’s line at the top of a server block', () => {
      const error = syntaxError('. {\n    whoami }\n');
      expect(error.code).toBe('unexpected-closing-brace');
      expect(error.message).toBe("Corefile:2:12: Unexpected '}' because no matching opening brace");
      expect(syntaxError('. { whoami }').reason).toBe("Unexpected '}' because no matching opening brace");
    });

    it('refuses { as a directive name', () => {
      expect(syntaxError('. { {\n}\n}\n').message).toBe("Corefile:1:5: Unknown directive '{'");
    });

    it('refuses the end of input inside a nested block', () => {
      expect(syntaxError('. {\n    forward . x {\n        force_tcp\n').reason).toBe("Unexpected EOF (the '{' at line 2, column 17 is never closed)");
    });

    it('accepts a missing final } when the last token closes a nested block, and refuses it otherwise', () => {
      expect(names(onlyBlock('. {\n    forward . 1.1.1.1 {\n        force_tcp\n    }\n').directives)).toEqual(['forward . 1.1.1.1']);
      expect(warnings('. {\n    forward . 1.1.1.1 {\n    }\n')).toEqual(['missing-closing-brace']);
      expect(syntaxError('. {\n    whoami\n').message).toBe("Corefile:2:5: Syntax error: Unexpected token 'whoami', expecting '}'");
      expect(syntaxError('. {').reason).toBe("Syntax error: Unexpected token '{', expecting '}'");
    });

    it('keeps directive order, repeated directives and quoted braces as braces', () => {
      expect(names(onlyBlock('. {\n    log\n    errors\n    log a\n}\n').directives)).toEqual(['log', 'errors', 'log a']);
      expect(onlyBlock('. {\n    log "{"\n        class error\n    "}"\n}\n').directives[0]?.block?.directives[0]?.name).toBe('class');
    });

    it('checks directive names against knownDirectives when given (server level only)', () => {
      const options = { knownDirectives: ['forward', 'log'] };
      expect(() => parseCorefile('. {\n    log\n    forward . x {\n        anything\n    }\n}\n', options)).not.toThrow();
      expect(() => parseCorefile('. {\n    proxy . x\n}\n', { ...options, filename: 'cf' })).toThrow("cf:2:5: Unknown directive 'proxy'");
      expect(() => parseCorefile('. {\n    {$PLUGIN}\n    import x\n}\n', options)).not.toThrow();
    });
  });

  describe('import and snippets (§3.2, §3.3)', () => {
    it('keeps imports as written: top-level items, and directives named import', () => {
      const corefile = parse('import custom/*.server\n. {\n    import custom/*.override\n}\n');
      expect(corefile.items[0]).toMatchObject({ kind: 'import', pattern: 'custom/*.server', position: { line: 1, column: 1 } });
      expect(corefile.items[1]).toMatchObject({ directives: [{ name: 'import', arguments: ['custom/*.override'] }] });
    });

    it('treats import as a key when it is not first on its line', () => {
      expect(onlyBlock('a.org import {\n}\n').keys).toEqual(['a.org', 'import']);
    });

    it('checks import arguments the way CoreDNS does', () => {
      expect(syntaxError('import\n').reason).toBe("Wrong argument count or unexpected line ending after 'import'");
      expect(syntaxError('. {\n    import ""\n}\n').reason).toBe('Import requires a non-empty filepath');
      expect(syntaxError('. {\n    import a b\n}\n').message).toBe('Corefile:2:14: Import takes only one argument (glob pattern or file)');
      expect(syntaxError('. {\n    log {\n        import a {\n        }\n    }\n}\n').reason).toBe('Import takes only one argument (glob pattern or file)');
    });

    it('recognises import at the start of a line inside nested blocks', () => {
      const [log] = onlyBlock('. {\n    log {\n        import common\n    }\n}\n').directives;
      expect(log?.block?.directives[0]).toMatchObject({ name: 'import', arguments: ['common'] });
    });

    it('parses snippets with any name, nested blocks and whole server blocks inside', () => {
      const corefile = parse('(corp:example:com) {\n    hosts f {\n        fallthrough\n    }\n}\n(zones) {\n    a.org {\n        whoami\n    }\n}\nimport zones\n');
      expect(corefile.items.map((item) => item.kind)).toEqual(['snippet', 'snippet', 'import']);
      expect(corefile.items[0]).toMatchObject({ name: 'corp:example:com', directives: [{ name: 'hosts', block: { directives: [{ name: 'fallthrough' }] } }] });
    });

    it('tells snippets from blocks the way CoreDNS does', () => {
      expect(parse('(a) (b) {\n}\n').items[0]).toMatchObject({ kind: 'server-block', keys: ['(a)', '(b)'] });
      expect(parse('( s ) {\n}\n').items[0]).toMatchObject({ kind: 'server-block', keys: ['(', 's', ')'] });
      expect(parse('() {\n}\n').items[0]).toMatchObject({ kind: 'snippet', name: '' });
    });

    it('refuses snippets without braces, redeclared, unterminated or importing themselves', () => {
      expect(syntaxError('(s)\nlog\n').message).toBe("Corefile:2:1: Syntax error: Unexpected token 'log', expecting '{'");
      expect(syntaxError('(s) {\n}\n(s) {\n}\n').reason).toBe('redeclaration of previously declared snippet s');
      expect(syntaxError('(s) {\n    log {\n').reason).toBe("Syntax error: Unexpected token '{', expecting '}'");
      expect(syntaxError('(s) {\n    import s\n}\n').code).toBe('snippet-self-import');
    });

    it('does not validate snippet bodies (CoreDNS validates them where imported)', () => {
      expect(() => parse('(s) {\n    import\n    x }\n}\n')).not.toThrow();
    });

    it('refuses, as documented deviations, constructs whose meaning depends on expanding an import', () => {
      expect(syntaxError('a.org,\nimport keys\n{\n}\n').code).toBe('unsupported-construct');
      expect(syntaxError('import keys\n{\n}\n').code).toBe('unsupported-construct');
      expect(syntaxError('. {\n    log { import x\n    }\n}\n').code).toBe('unsupported-construct');
      expect(syntaxError('. {\n    log {\n        {\n        }\n    }\n}\n').code).toBe('unsupported-construct');
    });

    it('keeps environment placeholders as written', () => {
      const block = onlyBlock('{$ZONES} a.org {\n    forward . {$UPSTREAM} "{%WIN%}"\n}\n');
      expect(block.keys).toEqual(['{$ZONES}', 'a.org']);
      expect(block.directives[0]?.arguments).toEqual(['.', '{$UPSTREAM}', '{%WIN%}']);
    });
  });

  describe('comments, blank lines and positions', () => {
    const text = [
      '# leading 1',
      '',
      '# leading 2',
      '. { # head',
      '    # before log',
      '    log # after log',
      '',
      '    forward . x { # forward line',
      '        force_tcp',
      '        # end of forward block',
      '    } # forward closing',
      '    # end of server block',
      '} # closing',
      '# final',
      '',
    ].join('\n');

    it('attaches each comment to the node it precedes or ends', () => {
      const corefile = parse(text);
      const block = corefile.items[0] as ServerBlock;
      expect(block.leadingComments?.map((comment) => [comment.text, comment.blankLineBefore ?? false])).toEqual([
        [' leading 1', false],
        [' leading 2', true],
      ]);
      expect(block.trailingComment?.text).toBe(' head');
      const [log, forward] = block.directives as [Directive, Directive];
      expect(log).toMatchObject({ leadingComments: [{ text: ' before log' }], trailingComment: { text: ' after log' } });
      expect(forward).toMatchObject({
        blankLineBefore: true,
        trailingComment: { text: ' forward line' },
        block: { endComments: [{ text: ' end of forward block' }], closingComment: { text: ' forward closing' } },
      });
      expect(block.endComments?.map((comment) => comment.text)).toEqual([' end of server block']);
      expect(block.closingComment?.text).toBe(' closing');
      expect(corefile.endComments?.map((comment) => comment.text)).toEqual([' final']);
    });

    it('puts positions on every node, and on every token with tokenPositions', () => {
      const plain = parse(text).items[0] as ServerBlock;
      expect(plain.position).toEqual({ line: 4, column: 1 });
      expect(plain.directives[1]?.position).toEqual({ line: 8, column: 5 });
      expect(plain.directives[1]?.argumentPositions).toBeUndefined();
      const block = parseCorefile(text, { tokenPositions: true }).corefile.items[0] as ServerBlock;
      expect(block.keyPositions).toEqual([{ line: 4, column: 1 }]);
      expect(block.position).toEqual({ line: 4, column: 1 });
      expect(block.closePosition).toEqual({ line: 13, column: 1 });
      expect(block.leadingComments?.[1]?.position).toEqual({ line: 3, column: 1 });
      const forward = block.directives[1] as Directive;
      expect(forward.position).toEqual({ line: 8, column: 5 });
      expect(forward.argumentPositions).toEqual([
        { line: 8, column: 13 },
        { line: 8, column: 15 },
      ]);
      expect(forward.block?.position).toEqual({ line: 8, column: 17 });
      expect(forward.block?.directives[0]?.position).toEqual({ line: 9, column: 9 });
    });

    it('joins several comments on one line into one trailing comment', () => {
      expect(onlyBlock('. {\n    log a#x b #y z\n}\n').directives[0]).toMatchObject({ arguments: ['a', 'b'], trailingComment: { text: 'x #y z' } });
    });

    it('parses CRLF and a BOM like LF', () => {
      const lf = parse(text);
      const crlf = parse(`\ufeff${text.replaceAll('\n', '\r\n')}`);
      expect(comparableCorefile(crlf)).toEqual(comparableCorefile(lf));
    });
  });

  it('is linear in the input size', () => {
    const block = '# zone\nexample-0.org:53 {\n    errors\n    forward . 10.0.0.1 {\n        max_concurrent 1000\n    }\n}\n';
    expectLinearGrowth((count) => block.repeat(count), (text) => parseCorefile(text), { small: 1_000, large: 16_000 });
  });
});

describe("comments written before a '{' whose line goes on (fast-check counterexample of the formatting law, #18 22c)", () => {
  // Seed -1357158159, path 3858:2:11 of "formatting any accepted text keeps what CoreDNS reads":
  // the comment between `a` and a `{` on a later line was kept as the end comment of an empty
  // block closed on the `{` line, which the printer has no line for (`invalid-model`).
  it.each([
    ['"{"a\n#c\n"{"}', '"" {\n    a #c\n    { }\n}\n'],
    ['. {\n    hosts\n    # one\n\n    # two\n    { }\n}\n', '. {\n    hosts # one # two\n    { }\n}\n'],
    ['"{"a#ba#ba#ba { }', '"" {\n    a { } #ba#ba#ba\n}\n'],
    ['. {\n    health#x { lameduck 5s\n    }\n}\n', '. {\n    health { lameduck 5s #x\n    }\n}\n'],
    ['. {\nlog { a # c\n{  } {  }\n} {\n } a\n}\n', '. {\n    log { a # c\n        { } { }\n    } {\n    } a\n}\n'],
    // Seed -713930102, path 1502:3:1:10 (re-measured seed by seed): a comment after a `{` that starts
    // a line and before a token of that line (`{#c }`) was kept as the block's opening comment, which
    // the printer has no line end for when the token shares the line; it moves past the line's tokens.
    ['a\r\na\r\n{#c }', 'a {\n    a\n    { } #c\n}\n'],
    ['. {\n    hosts\n    {#x 10.0.0.1 a }\n}\n', '. {\n    hosts\n    { 10.0.0.1 a } #x\n}\n'],
    ['. {\n    hosts #one\n    #two\n    {#x }\n}\n', '. {\n    hosts #one #two\n    { } #x\n}\n'],
  ])('%j formats, keeping its tokens, its lines and its comments', (text, formatted) => {
    const printed = printCorefile(parseCorefile(text).corefile);
    expect(printed).toBe(formatted);
    expect(referenceParse(printed)).toEqual(referenceParse(text));
    expect(printCorefile(parseCorefile(printed).corefile)).toBe(printed);
  });
});
