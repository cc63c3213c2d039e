import { describe, expect, it } from 'vitest';
import { judgeViewExpression } from '../../src/coredns/view-expression.js';
import { goRegexpSyntaxAt } from '../../src/coredns/plugin-syntax.js';
import { lintCorefile } from '../../src/lint/index.js';

const regexp = goRegexpSyntaxAt('1.14.7');
const judge = (text: string) => judgeViewExpression(text, regexp);

/**
 * Verdicts of the real CoreDNS 1.14.7 on `view v { expr TEXT }` (true: starts), and its reason.
 * Expressions lint leaves unjudged (outside the subset it reads) are listed apart.
 */
const REAL: readonly (readonly [string, boolean, string?])[] = [
  ["name() == 'example.com.'", true],
  ["incidr(client_ip(), '10.0.0.0/24')", true],
  ['invalid expression', false, 'unexpected token Identifier("expression")'],
  ['name() == x', false, 'unknown name x'],
  ["name == 'x'", false, 'invalid operation: == (mismatched types func() string and string)'],
  ['name() == 1', false, 'invalid operation: == (mismatched types string and int)'],
  ["foo() == 'a'", false, 'unknown name foo'],
  ['incidr(client_ip())', false, 'not enough arguments to call incidr'],
  ["name() matches '('", false, 'error parsing regexp: missing closing ): `(`'],
  ['incidr(client_ip(), 1)', false, 'cannot use int as argument (type string) to call incidr'],
  ["name() matches 'a+'", true],
  ["type() == 'A'", true],
  ['size() > 100', true],
  ['name()', true],
  ["size() > 'a'", false, 'invalid operation: > (mismatched types int and string)'],
  ['name() + 1', false, 'invalid operation: + (mismatched types string and int)'],
  ["name() startsWith 'a'", true],
  ["metadata('kubernetes/client-namespace') == 'ns1'", true],
  ['1 +', false, 'unexpected token EOF'],
  ['len(name()) > 3', true],
  ["upper(name()) == 'A'", true],
  ["name() in ['a', 'b']", true],
  ['do() && true', true],
  ['do() + 1', false, 'invalid operation: + (mismatched types bool and int)'],
  ['client_ip() == nil', true],
  ['not do()', true],
  ["name() endsWith 'x' || 1", false, 'invalid operation: || (mismatched types bool and int)'],
  ["name() matches '^a(b'", false, 'error parsing regexp: missing closing ): `^a(b`'],
  ["incidr(client_ip(), '10.0.0.0/8') ? true : false", true],
  ['name() ? true : false', false, 'non-bool expression (type string) used as condition'],
  ['size() % 2.5 == 1', false, 'invalid operation: % (mismatched types int and float64)'],
  ['name() @ 1', false, "unrecognized character: U+0040 '@'"],
  ['foo', false, 'unknown name foo'],
  ["(name() == 'a'", false, 'unexpected token EOF'],
  ['-name()', false, 'invalid operation: - (mismatched type string)'],
  ['not name()', false, 'invalid operation: not (mismatched type string)'],
  ['name() contains 1', false, 'invalid operation: contains (mismatched types string and int)'],
  ["'a' in 'abc'", false, 'invalid operation: in (mismatched types string and string)'],
  ['name() == nil', true],
  ['id() + 1.5 > 2', true],
  ["incidr(client_ip(), '10.0.0.0/8', 'x')", false, 'too many arguments to call incidr'],
  ["type == 'A'", false, 'invalid operation: == (mismatched types func() string and string)'],
];

/** Refused by the real 1.14.7, not judged by lint (builtins' argument kinds). */
const UNJUDGED_REFUSALS: readonly string[] = ["upper(1) == 'A'"];

describe('view expressions as CoreDNS 1.14.7 compiles them', () => {
  it('refuses exactly what the real release refuses, for the same reason', () => {
    for (const [text, starts, reason] of REAL) {
      const verdict = judge(text);
      expect(verdict.kind === 'refused', text).toBe(!starts);
      if (!starts && verdict.kind === 'refused') expect(verdict.reason, text).toBe(reason);
    }
    for (const text of UNJUDGED_REFUSALS) expect(judge(text).kind, text).not.toBe('refused');
  });

  it('never refuses what it does not read', () => {
    for (const text of ['filter([1, 2], # > 1) == []', "name() | upper() == 'A'", 'let x = 1; x > 0', '$env.name', '`raw` == name()', "name()[1:] == 'x'", '1_000 > size()']) expect(judge(text).kind, text).not.toBe('refused');
  });

  it('lint reports a refused expression, the view line, repeats and unknown options by release', () => {
    const block = (...lines: string[]) => `.:53 {\n${lines.map((line) => `    ${line}\n`).join('')}    whoami\n}\n`;
    const codes = (text: string, coredns = '1.14.7') => lintCorefile(text, { coredns }).diagnostics.map((entry) => `${entry.code}@${entry.position?.line}:${entry.position?.column}`);
    expect(codes(block('view v {', "    expr name() == 'a.'", '}'))).toEqual([]);
    expect(codes(block('view v {', '    expr name() == 1', '}'))).toEqual(['argument-invalid@3:14']);
    expect(lintCorefile(block('view v {', '    expr name() == 1', '}')).diagnostics[0]?.message).toBe(
      "plugin 'view': expression 'name() == 1' does not compile: invalid operation: == (mismatched types string and int) (column 8): CoreDNS 1.14.7 does not start",
    );
    expect(codes(block('view v {', '    expr', '}'))).toEqual(['argument-count@3:9']);
    expect(codes(block('view a b {', '    expr true', '}'))).toEqual(['argument-count@2:5']);
    expect(codes(block('view v {', '    bogus 1', '}'))[0]).toMatch(/^option-unknown@3:9/);
    expect(codes(block('view v {', '    expr true', '}', 'view w {', '    expr true', '}'))).toEqual(['plugin-repeated@5:5']);
    expect(codes(block('view v'))).toEqual([]);
    // Before 1.11.3 (antonmedv/expr, `type` not yet disabled) the expressions are not judged.
    expect(codes(block('view v {', '    expr name() == 1', '}'), '1.11.1')).toEqual([]);
    expect(codes(block('view v {', '    expr true', '}'), '1.9.4')[0]).toMatch(/^plugin-not-yet-added/);
  });
});
