import { describe, expect, it } from 'vitest';
import { comparableCorefile, corefilesEqual } from '../../src/corefile/compare.js';
import { CorefilePrintError } from '../../src/corefile/errors.js';
import { formatCorefile } from '../../src/corefile/format.js';
import type { Block, Corefile, Directive, ServerBlock } from '../../src/corefile/model.js';
import { parseCorefile } from '../../src/corefile/parser.js';
import { classifyToken, formatToken, printCorefile } from '../../src/corefile/printer.js';

function server(keys: string[], directives: Directive[], extra: Partial<ServerBlock> = {}): ServerBlock {
  return { kind: 'server-block', keys, directives, ...extra };
}

function printError(corefile: Corefile): CorefilePrintError {
  try {
    printCorefile(corefile);
  } catch (error) {
    if (error instanceof CorefilePrintError) return error;
    throw error;
  }
  throw new Error('printed');
}

function fmt(text: string): string {
  return formatCorefile(text).text;
}

describe('classifyToken / formatToken (corefile-syntax.md §4)', () => {
  it('prints bare what reads back unchanged', () => {
    for (const token of ['.', 'example.org:53', 'a"b', '{$UPSTREAM}', '{1}.onion', '(.*)\\.carrot', 'Ключ', 'a\\', 'import', '}x']) {
      expect(classifyToken(token)).toEqual({ form: 'bare', text: token });
    }
  });

  it('quotes empty tokens, separators, #, a leading quote — escaping only "', () => {
    expect(formatToken('')).toBe('""');
    expect(formatToken('say "hi"')).toBe(String.raw`"say \"hi\""`);
    expect(formatToken('C:\\dir x')).toBe('"C:\\dir x"');
    expect(formatToken('a#b')).toBe('"a#b"');
    expect(formatToken('"x')).toBe(String.raw`"\"x"`);
    expect(formatToken('{{ .Name }} 60 IN A 10.8.0.1')).toBe('"{{ .Name }} 60 IN A 10.8.0.1"');
    expect(formatToken('tab\there')).toBe('"tab\there"');
    expect(formatToken('line\nbreak')).toBe('"line\nbreak"');
    expect(formatToken('nbsp\u00a0x')).toBe('"nbsp\u00a0x"');
    expect(formatToken('cr\rx')).toBe('"cr\rx"');
    expect(formatToken('g\\\\ h')).toBe('"g\\\\ h"');
  });

  it('refuses what no form can produce, with a typed error', () => {
    for (const token of ['a b\\', 'x \\" y', '{', '}', 'lone \ud800']) {
      const form = classifyToken(token);
      expect(form.form, token).toBe('unrepresentable');
      expect(() => formatToken(token)).toThrow(CorefilePrintError);
    }
    expect(classifyToken('{')).toMatchObject({ code: 'brace-token' });
    expect(classifyToken('a b\\')).toMatchObject({ code: 'unrepresentable-token' });
  });
});

describe('printCorefile: canonical layout', () => {
  it('writes one directive per line, 4-space indents, { on the directive line, } alone, blank lines between blocks', () => {
    const text = 'a.org   b.org:53 {\n\tlog\n  forward . 10.0.0.1 {\nforce_tcp\n        }\n}\n(snip) {\n whoami\n}\nimport snip\n';
    expect(fmt(text)).toBe(
      [
        'a.org b.org:53 {',
        '    log',
        '    forward . 10.0.0.1 {',
        '        force_tcp',
        '    }',
        '}',
        '',
        '(snip) {',
        '    whoami',
        '}',
        '',
        'import snip',
        '',
      ].join('\n'),
    );
  });

  it('normalizes what plugins cannot observe: key lists, braces of server blocks, braceless blocks, CRLF, BOM', () => {
    expect(fmt('\ufeffa.org,\r\nb.org\r\n{ whoami\r\n}\r\n')).toBe('a.org b.org {\n    whoami\n}\n');
    expect(fmt('a.org\nwhoami\nlog\n')).toBe('a.org {\n    whoami\n    log\n}\n');
    expect(fmt('. {\n    forward . x {\n        force_tcp\n    }\n')).toBe('. {\n    forward . x {\n        force_tcp\n    }\n}\n');
  });

  it('keeps, as recorded, the layouts plugins do observe', () => {
    const odd = '. {\n    forward . 1.1.1.1\n    {\n        force_tcp\n    }\n    health { lameduck 5s }\n    hosts {\n        fallthrough\n    } extra\n}\n';
    expect(fmt(odd)).toBe(
      [
        '. {',
        '    forward . 1.1.1.1',
        '    {',
        '        force_tcp',
        '    }',
        '    health { lameduck 5s }',
        '    hosts {',
        '        fallthrough',
        '    } extra',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('keeps comments where they were attached, and single blank lines between directives', () => {
    const text = '# head\n\n# of file\n. { # server\n  # before\n  log   # after\n\n\n  errors\n  # at the end\n} # closing\n# trailing\n';
    expect(fmt(text)).toBe(
      '# head\n\n# of file\n. { # server\n    # before\n    log # after\n\n    errors\n    # at the end\n} # closing\n\n# trailing\n',
    );
  });

  it('quotes only where CoreDNS needs it and drops quotes it does not', () => {
    expect(fmt('. {\n    template IN A {\n        match ".*"\n        answer "{{ .Name }} 60 IN A 10.8.0.1"\n    }\n}\n')).toBe(
      '. {\n    template IN A {\n        match .*\n        answer "{{ .Name }} 60 IN A 10.8.0.1"\n    }\n}\n',
    );
  });

  it('prints an empty model as an empty text, and comments alone', () => {
    expect(printCorefile({ items: [] })).toBe('');
    expect(printCorefile({ items: [], endComments: [{ text: ' only' }] })).toBe('# only\n');
  });

  it('is deterministic and idempotent', () => {
    const text = '. {\n  log\n}\n';
    expect(fmt(fmt(text))).toBe(fmt(text));
    expect(formatCorefile(fmt(text)).unchanged).toBe(true);
    expect(formatCorefile(text).unchanged).toBe(false);
  });
});

describe('printCorefile: keys and positional rules', () => {
  it('writes keys that cannot stand alone with one more comma, except the last', () => {
    expect(printCorefile({ items: [server(['import', 'a.org'], [])] })).toBe('import, a.org {\n}\n');
    expect(printCorefile({ items: [server(['', '{', 'b,', 'c'], [])] })).toBe(', {, b,, c {\n}\n');
    expect(printError({ items: [server(['a.org', ''], [])] })).toMatchObject({ code: 'unrepresentable-key', path: 'server block 1 key 2' });
    expect(printError({ items: [server(['import'], [])] }).code).toBe('unrepresentable-key');
  });

  it('refuses a lone snippet-like key, and prints a keyless block as ""', () => {
    expect(printError({ items: [server(['(x)'], [])] }).reason).toMatch(/snippet definition/);
    expect(printCorefile({ items: [server([], [{ name: 'whoami', arguments: [] }])] })).toBe('"" {\n    whoami\n}\n');
  });

  it('quotes a first key that starts with U+FEFF at the start of the file', () => {
    const text = printCorefile({ items: [server(['\ufeffzone'], [])] });
    expect(text).toBe('"\ufeffzone" {\n}\n');
    expect(parseCorefile(text).corefile.items[0]).toMatchObject({ keys: ['\ufeffzone'] });
  });

  it('refuses invalid imports, duplicate snippets, self-imports and contradictory layout flags', () => {
    expect(printError({ items: [server(['.'], [{ name: 'import', arguments: [] }])] }).code).toBe('invalid-model');
    expect(printError({ items: [{ kind: 'import', pattern: '' }] }).code).toBe('invalid-model');
    const snippet = { kind: 'snippet', name: 's', directives: [] } as const;
    expect(printError({ items: [snippet, snippet] }).reason).toMatch(/defined twice/);
    expect(printError({ items: [{ ...snippet, directives: [{ name: 'import', arguments: ['s'] }] }] }).reason).toMatch(/imports itself/);
    const closed = { directives: [{ name: 'a', arguments: [] }], closedOnLastLine: true, closingComment: { text: 'x' } };
    expect(printError({ items: [server(['.'], [{ name: 'x', arguments: [], block: closed }])] }).code).toBe('invalid-model');
  });

  it('prints a token after { on that line, and refuses what then has no line of its own', () => {
    const inline = (block: Block, directive: Partial<Directive> = {}): Corefile => ({ items: [server(['.'], [{ name: 'x', arguments: [], block, ...directive }])] });
    const first = { name: 'a', arguments: ['1'] };
    expect(printCorefile(inline({ directives: [first], firstTokenOnOpeningLine: true }))).toBe('. {\n    x { a 1\n    }\n}\n');
    expect(printCorefile(inline({ directives: [first], firstTokenOnOpeningLine: true, closedOnLastLine: true }))).toBe('. {\n    x { a 1 }\n}\n');
    expect(printCorefile(inline({ directives: [], firstTokenOnOpeningLine: true, closingComment: { text: ' c' } }))).toBe('. {\n    x { } # c\n}\n');
    expect(printCorefile(inline({ directives: [first], firstTokenOnOpeningLine: true, openedOnNewLine: true }))).toBe('. {\n    x\n    { a 1\n    }\n}\n');
    const refusals: [Corefile, RegExp][] = [
      [inline({ directives: [first], firstTokenOnOpeningLine: true }, { trailingComment: { text: 'c' } }), /no end for an earlier comment/],
      [inline({ directives: [first], firstTokenOnOpeningLine: true, openedOnNewLine: true, openingComment: { text: 'c' } }), /no end for an earlier comment/],
      [inline({ directives: [{ ...first, leadingComments: [{ text: 'c' }] }], firstTokenOnOpeningLine: true }), /no line for leading comments/],
      [inline({ directives: [], firstTokenOnOpeningLine: true, endComments: [{ text: 'c' }] }), /no line for end comments/],
      [inline({ directives: [{ name: 'import', arguments: ['f'] }], firstTokenOnOpeningLine: true }), /not an import/],
    ];
    for (const [model, reason] of refusals) expect(printError(model)).toMatchObject({ code: 'invalid-model', reason: expect.stringMatching(reason) });
  });

  it('names the node and its position in errors', () => {
    const { corefile } = parseCorefile('. {\n    log {\n        class error\n    }\n}\n');
    const broken: Corefile = {
      items: [{ ...(corefile.items[0] as ServerBlock), directives: [{ name: 'log', arguments: ['a b\\'], position: { line: 2, column: 5 } }] }],
    };
    const error = printError(broken);
    expect(error.message).toBe(
      `cannot print server block 1 > directive 'log' argument 1 (line 2, column 5): the token "a b\\\\" needs quotes, but an odd run of backslashes before a '"' or at its end cannot be written inside quotes`,
    );
  });

  it('refuses comments that cannot be written', () => {
    expect(printError({ items: [], endComments: [{ text: 'two\nlines' }] }).code).toBe('unrepresentable-comment');
  });
});

describe('corefilesEqual', () => {
  it('ignores positions, trailing comment whitespace and blank lines that cannot be printed', () => {
    const parsed = parseCorefile('. {\n    log # note  \n}\n').corefile;
    const built: Corefile = {
      items: [server(['.'], [{ name: 'log', arguments: [], trailingComment: { text: ' note' }, blankLineBefore: true }], { leadingComments: [{ text: 'x', blankLineBefore: true }] })],
    };
    const withComment: Corefile = { items: [{ ...(parsed.items[0] as ServerBlock), leadingComments: [{ text: 'x' }] }] };
    expect(corefilesEqual(withComment, built)).toBe(true);
    expect(comparableCorefile(withComment)).toEqual(comparableCorefile(built));
  });

  it('tells apart different tokens, comments and layout flags', () => {
    const base = parseCorefile('. {\n    x {\n        a\n    }\n}\n').corefile;
    for (const other of ['. {\n    x {\n        b\n    }\n}\n', '. {\n    x { a }\n}\n', '. {\n    x { a\n    }\n}\n', '. {\n    x\n    {\n        a\n    }\n}\n', '. {\n    x { # c\n        a\n    }\n}\n']) {
      expect(corefilesEqual(base, parseCorefile(other).corefile), other).toBe(false);
    }
  });
});
