import { describe, expect, it } from 'vitest';
import { CorefileSyntaxError } from '../../src/corefile/errors.js';
import { isCorefileSeparator, lexCorefile } from '../../src/corefile/lexer.js';
import type { Lexeme } from '../../src/corefile/lexer.js';
import { positionAt } from '../../src/util/source-position.js';
import { expectLinearGrowth } from '../support/growth.js';

function words(text: string): string[] {
  return lexCorefile(text)
    .lexemes.filter((lexeme) => lexeme.kind === 'word')
    .map((lexeme) => lexeme.text);
}

function comments(text: string): string[] {
  return lexCorefile(text)
    .lexemes.filter((lexeme) => lexeme.kind === 'comment')
    .map((lexeme) => lexeme.text);
}

function warningCodes(text: string): string[] {
  return lexCorefile(text).warnings.map((warning) => warning.code);
}

describe('lexCorefile (corefile-syntax.md §1)', () => {
  describe('separators and line breaks (§1.2)', () => {
    it('separates on exactly Go’s unicode.IsSpace set', () => {
      const separators = [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x85, 0xa0, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000];
      for (const code of separators) expect(isCorefileSeparator(code), code.toString(16)).toBe(true);
      for (const code of [0x200b, 0x180e, 0xfeff, 0x21, 0x7f, 0x2030]) expect(isCorefileSeparator(code), code.toString(16)).toBe(false);
      expect(words('a\u00a0b\u0085c\u2028d\u3000e\u000bf\u000cg')).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g']);
      expect(words('a\u200bb\ufeffc')).toEqual(['a\u200bb\ufeffc']);
    });

    it('deletes a carriage return outside quotes instead of splitting on it', () => {
      expect(words('ab\rcd')).toEqual(['abcd']);
      expect(words('. {\r\n    whoami\r\n}\r\n')).toEqual(['.', '{', 'whoami', '}']);
      expect(words('. {\r whoami\r}\r')).toEqual(['.', '{', 'whoami}']);
      expect(warningCodes('ab\rcd')).toEqual(['carriage-return']);
      expect(warningCodes('a\r\nb')).toEqual([]);
    });

    it('counts lines only at \\n and has no line continuation', () => {
      const lexemes = lexCorefile('a\\\nb\u2028c\r\nd').lexemes;
      expect(lexemes.map((lexeme) => [lexeme.kind === 'word' ? lexeme.text : '#', lexeme.line])).toEqual([
        ['a\\', 1],
        ['b', 2],
        ['c', 2],
        ['d', 3],
      ]);
    });

    it('drops a byte order mark only at the very start', () => {
      expect(words('\ufeffa \ufeffb')).toEqual(['a', '\ufeffb']);
      expect(lexCorefile('\ufeffab').lexemes[0]).toMatchObject({ line: 1, column: 1, offset: 1 });
    });
  });

  describe('quotes (§1.3)', () => {
    it('starts a quoted word only at a word’s first character', () => {
      expect(words('a"b"c')).toEqual(['a"b"c']);
      expect(words('"a b" c')).toEqual(['a b', 'c']);
    });

    it('knows only the \\" escape: every other backslash stays with its character', () => {
      expect(words(String.raw`"say \"hi\""`)).toEqual(['say "hi"']);
      expect(words(String.raw`"g\\"`)).toEqual([String.raw`g\\`]);
      expect(words(String.raw`"a\nb\tc"`)).toEqual([String.raw`a\nb\tc`]);
      expect(words('"a\\\nb"')).toEqual(['a\\\nb']);
      expect(words(String.raw`c\"d`)).toEqual([String.raw`c\"d`]);
    });

    it('ends a quoted word at the closing quote, even without a space', () => {
      expect(words('"x"y')).toEqual(['x', 'y']);
      expect(lexCorefile('"abc"#c').lexemes.map((lexeme) => lexeme.kind)).toEqual(['word', 'comment']);
    });

    it('keeps newlines and CRs inside quotes, and the start line and the end line', () => {
      const [word, next] = lexCorefile('"a\r\nb\nc" d').lexemes as [Lexeme, Lexeme];
      expect(word).toMatchObject({ text: 'a\r\nb\nc', line: 1, endLine: 3, quoted: true });
      expect(next).toMatchObject({ text: 'd', line: 3, column: 4 });
    });

    it('makes "" an empty word', () => {
      expect(words('a "" b')).toEqual(['a', '', 'b']);
    });

    it('runs an unterminated quote to the end of input, and a lone final quote to nothing', () => {
      expect(words('log "abc\n}\n')).toEqual(['log', 'abc\n}\n']);
      expect(warningCodes('log "abc')).toEqual(['unterminated-quote']);
      expect(words('log "')).toEqual(['log']);
      expect(words('"abc\\')).toEqual(['abc']);
    });

    it('has no backtick or single-quote quoting', () => {
      expect(words('`a b` \'c d\'')).toEqual(['`a', 'b`', "'c", "d'"]);
    });
  });

  describe('comments (§1.4)', () => {
    it('runs a comment that starts a word to the end of the line', () => {
      expect(words('foo #bar baz\nqux')).toEqual(['foo', 'qux']);
      expect(comments('foo #bar baz\nqux')).toEqual(['bar baz']);
    });

    it('lets # in the middle of a word cut it, up to the next separator only', () => {
      expect(words('foo#bar baz')).toEqual(['foo', 'baz']);
      expect(comments('foo#bar baz')).toEqual(['bar']);
      expect(warningCodes('foo#bar baz')).toEqual(['comment-inside-word']);
    });

    it('keeps # inside quotes', () => {
      expect(words('"a#b"')).toEqual(['a#b']);
    });

    it('drops CRs and trailing whitespace from comment text', () => {
      expect(comments('# text  \t\r\n#\r\n')).toEqual([' text', '']);
    });
  });

  describe('braces (§1.5)', () => {
    it('has no brace delimiters: braces are ordinary word characters', () => {
      expect(words('a{b {whoami .{ }} {} {1} }STUBDOMAINS { }')).toEqual(['a{b', '{whoami', '.{', '}}', '{}', '{1}', '}STUBDOMAINS', '{', '}']);
    });

    it('warns that a quoted brace is still a brace', () => {
      expect(words('log "{"')).toEqual(['log', '{']);
      expect(warningCodes('log "{"')).toEqual(['quoted-brace']);
    });
  });

  describe('positions', () => {
    it('gives 1-based lines and code-point columns, as positionAt does', () => {
      const text = 'é😀 x\n\t"q😀" y #c\n  z';
      for (const lexeme of lexCorefile(text).lexemes) {
        expect({ line: lexeme.line, column: lexeme.column }).toEqual(positionAt(text, lexeme.offset));
      }
    });

    it('refuses a lone surrogate with its position', () => {
      expect(() => lexCorefile('a\nb \ud800', { filename: 'x.cf' })).toThrow(CorefileSyntaxError);
      expect(() => lexCorefile('a\nb \ud800', { filename: 'x.cf' })).toThrow('x.cf:2:3: the text contains a lone UTF-16 surrogate');
    });
  });

  it('is linear in the input size', () => {
    const block = 'example.org:53 {\n    forward . 10.0.0.1 "a b" # note\n}\n';
    expect(lexCorefile(block.repeat(13_000)).lexemes.length).toBe(13_000 * 8);
    expectLinearGrowth((count) => block.repeat(count), (text) => lexCorefile(text), { small: 1_600, large: 25_600 });
  });
});
