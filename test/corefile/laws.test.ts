import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comparableCorefile } from '../../src/corefile/compare.js';
import { CorefilePrintError, CorefileSyntaxError } from '../../src/corefile/errors.js';
import { formatCorefile } from '../../src/corefile/format.js';
import { lexCorefile } from '../../src/corefile/lexer.js';
import type { WordLexeme } from '../../src/corefile/lexer.js';
import { parseCorefile } from '../../src/corefile/parser.js';
import { classifyToken, printCorefile } from '../../src/corefile/printer.js';
import { hostileCorefile, hostileText, nestedLayoutText, representableBySpec, representableCorefile, tokenSoup } from './support/arbitraries.js';
import { referenceParse } from './support/caddy-reference.js';
import { expectEqual, expectSame } from '../support/hot-expect.js';

const RUNS = { numRuns: 1500 };

function reparse(text: string) {
  return parseCorefile(text).corefile;
}

interface BodyWord {
  readonly text: string;
  /** The word starts a line: the word before it (its last line, for a quoted line break) ended on an earlier one. */
  readonly newLine: boolean | null;
}

/**
 * The words of each server block body (between the `{` after its keys and the matching `}`),
 * each with whether it starts a line — what CoreDNS's `NextArg` and `NextLine` compare. The first
 * word's flag is null: it compares with the server block's `{`, which no plugin reads. Found by
 * counting braces, like CoreDNS, without the model.
 */
function bodies(text: string): BodyWord[][] {
  const words = lexCorefile(text).lexemes.filter((lexeme): lexeme is WordLexeme => lexeme.kind === 'word');
  const result: BodyWord[][] = [];
  let body: BodyWord[] = [];
  let depth = 0;
  words.forEach((word, index) => {
    if (depth === 0) {
      if (word.text === '{') {
        depth = 1;
        body = [];
        result.push(body);
      }
      return;
    }
    if (word.text === '{') depth += 1;
    if (word.text === '}') depth -= 1;
    if (depth === 0) return;
    const previous = words[index - 1] as WordLexeme;
    body.push({ text: word.text, newLine: body.length === 0 ? null : previous.endLine < word.line });
  });
  return result;
}

describe('laws of the Corefile model', () => {
  it('a token prints in a form the lexer reads back as exactly that token, or is refused as the spec says', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const form = classifyToken(text);
        expectSame(form.form !== 'unrepresentable', representableBySpec(text));
        if (form.form === 'unrepresentable') return;
        // After another word: at the very start of a file a leading U+FEFF is a byte order mark
        // (the printer quotes such a first key; the model laws cover that position).
        const words = lexCorefile(`x ${form.text}\n`).lexemes;
        expectSame(words.length, 2);
        const word = words[1];
        if (word?.kind !== 'word' || word.text !== text) expect(word).toMatchObject({ kind: 'word', text });
      }),
      { numRuns: 5000 },
    );
  });

  // Two laws on the same models (one generation for both).
  it('parse(print(m)) equals m, and print never throws, for representable models; print(parse(print(m))) equals print(m)', () => {
    fc.assert(
      fc.property(representableCorefile, (model) => {
        const text = printCorefile(model);
        const reparsed = reparse(text);
        expectEqual(comparableCorefile(reparsed), comparableCorefile(model));
        expectSame(printCorefile(reparsed), text);
      }),
      RUNS,
    );
    // Twice the work of one law: twice the default timeout, for a busy machine.
  }, 120_000);

  it('print refuses a hostile model or prints text that parses back to it — never anything else', () => {
    let refused = 0;
    let printed = 0;
    fc.assert(
      fc.property(hostileCorefile, (model) => {
        let text: string;
        try {
          text = printCorefile(model);
        } catch (error) {
          if (!(error instanceof CorefilePrintError)) expect(error).toBeInstanceOf(CorefilePrintError);
          refused += 1;
          return;
        }
        printed += 1;
        expectEqual(comparableCorefile(reparse(text)), comparableCorefile(model));
      }),
      RUNS,
    );
    // Both outcomes must actually occur, or the property says little.
    expect(refused).toBeGreaterThan(100);
    expect(printed).toBeGreaterThan(100);
  });

  it('fmt keeps every server block body word for word, each word starting a line exactly when it did', () => {
    const layouts = { tokenAfterOpening: 0, emptyOnOneLine: 0, closedAfterTokens: 0, openingOnOwnLine: 0, wordsAfterClosing: 0, lineBreakInWord: 0 };
    let accepted = 0;
    fc.assert(
      fc.property(nestedLayoutText, (text) => {
        let formatted: string;
        try {
          formatted = formatCorefile(text).text;
        } catch (error) {
          if (!(error instanceof CorefileSyntaxError)) expect(error).toBeInstanceOf(CorefileSyntaxError);
          return;
        }
        accepted += 1;
        const before = bodies(text);
        expectEqual(bodies(formatted), before);
        // Which layouts this case exercised (counted on the input).
        for (const body of before) {
          body.forEach((word, index) => {
            const previous = body[index - 1]?.text;
            if (previous === '{' && word.newLine === false) layouts[word.text === '}' ? 'emptyOnOneLine' : 'tokenAfterOpening'] += 1;
            if (word.text === '}' && word.newLine === false && previous !== '{') layouts.closedAfterTokens += 1;
            if (word.text === '{' && word.newLine === true) layouts.openingOnOwnLine += 1;
            if (previous === '}' && word.newLine === false && word.text !== '{' && word.text !== '}') layouts.wordsAfterClosing += 1;
            if (word.text.includes('\n')) layouts.lineBreakInWord += 1;
          });
        }
      }),
      { numRuns: 1500 },
    );
    expect(accepted).toBeGreaterThan(1400);
    for (const count of Object.values(layouts)) expect(count).toBeGreaterThan(200);
  });

  it('formatting any accepted text keeps what CoreDNS reads (checked against a reference parser)', () => {
    let accepted = 0;
    fc.assert(
      fc.property(tokenSoup, (text) => {
        const reference = referenceParse(text);
        let model;
        try {
          model = parseCorefile(text).corefile;
        } catch (error) {
          if (!(error instanceof CorefileSyntaxError)) expect(error).toBeInstanceOf(CorefileSyntaxError);
          // Rejecting what the reference accepts is allowed only for the documented deviations, and
          // for `{` as a directive name (the reference has no plugin list; CoreDNS always has one).
          if (reference.ok) expect((error as CorefileSyntaxError).code).toMatch(/^(unsupported-construct|invalid-import|unknown-directive)$/);
          return;
        }
        if (!reference.ok) expect(reference).toMatchObject({ ok: true });
        let formatted: string;
        try {
          formatted = printCorefile(model);
        } catch (error) {
          // Only keys CoreDNS itself would reject afterwards ('' from a lone comma, a lone '(x)' at EOF).
          expectSame((error as CorefilePrintError).code, 'unrepresentable-key');
          return;
        }
        accepted += 1;
        expectEqual(referenceParse(formatted), reference);
        expectSame(printCorefile(reparse(formatted)), formatted);
      }),
      { numRuns: 4000 },
    );
    expect(accepted).toBeGreaterThan(500);
  });
});
