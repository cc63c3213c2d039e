import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comparableCorefile } from '../../src/corefile/compare.js';
import { CorefilePrintError, CorefileSyntaxError } from '../../src/corefile/errors.js';
import { lexCorefile } from '../../src/corefile/lexer.js';
import { parseCorefile } from '../../src/corefile/parser.js';
import { classifyToken, printCorefile } from '../../src/corefile/printer.js';
import { hostileCorefile, hostileText, representableBySpec, representableCorefile, tokenSoup } from './support/arbitraries.js';
import { referenceParse } from './support/caddy-reference.js';

const RUNS = { numRuns: 1500 };

function reparse(text: string) {
  return parseCorefile(text).corefile;
}

describe('laws of the Corefile model', () => {
  it('a token prints in a form the lexer reads back as exactly that token, or is refused as the spec says', () => {
    fc.assert(
      fc.property(hostileText, (text) => {
        const form = classifyToken(text);
        expect(form.form !== 'unrepresentable').toBe(representableBySpec(text));
        if (form.form === 'unrepresentable') return;
        // After another word: at the very start of a file a leading U+FEFF is a byte order mark
        // (the printer quotes such a first key; the model laws cover that position).
        const words = lexCorefile(`x ${form.text}\n`).lexemes;
        expect(words).toHaveLength(2);
        expect(words[1]).toMatchObject({ kind: 'word', text });
      }),
      { numRuns: 5000 },
    );
  });

  it('parse(print(m)) equals m, and print never throws, for representable models', () => {
    fc.assert(
      fc.property(representableCorefile, (model) => {
        const text = printCorefile(model);
        expect(comparableCorefile(reparse(text))).toEqual(comparableCorefile(model));
      }),
      RUNS,
    );
  });

  it('print(parse(print(m))) equals print(m)', () => {
    fc.assert(
      fc.property(representableCorefile, (model) => {
        const text = printCorefile(model);
        expect(printCorefile(reparse(text))).toBe(text);
      }),
      RUNS,
    );
  });

  it('print refuses a hostile model or prints text that parses back to it — never anything else', () => {
    let refused = 0;
    let printed = 0;
    fc.assert(
      fc.property(hostileCorefile, (model) => {
        let text: string;
        try {
          text = printCorefile(model);
        } catch (error) {
          expect(error).toBeInstanceOf(CorefilePrintError);
          refused += 1;
          return;
        }
        printed += 1;
        expect(comparableCorefile(reparse(text))).toEqual(comparableCorefile(model));
      }),
      RUNS,
    );
    // Both outcomes must actually occur, or the property says little.
    expect(refused).toBeGreaterThan(100);
    expect(printed).toBeGreaterThan(100);
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
          expect(error).toBeInstanceOf(CorefileSyntaxError);
          // Rejecting what the reference accepts is allowed only for the documented deviations, and
          // for `{` as a directive name (the reference has no plugin list; CoreDNS always has one).
          if (reference.ok) expect((error as CorefileSyntaxError).code).toMatch(/^(unsupported-construct|invalid-import|unknown-directive)$/);
          return;
        }
        expect(reference).toMatchObject({ ok: true });
        let formatted: string;
        try {
          formatted = printCorefile(model);
        } catch (error) {
          // Only keys CoreDNS itself would reject afterwards ('' from a lone comma, a lone '(x)' at EOF).
          expect((error as CorefilePrintError).code).toBe('unrepresentable-key');
          return;
        }
        accepted += 1;
        expect(referenceParse(formatted)).toEqual(reference);
        expect(printCorefile(reparse(formatted))).toBe(formatted);
      }),
      { numRuns: 4000 },
    );
    expect(accepted).toBeGreaterThan(500);
  });
});
