import { describe, expect, it } from 'vitest';
import { yamlV2ToJson } from '../../../src/kubeadm/yaml-v2/decode-manifest.js';
import { YAML_V2_2017, YAML_V2_2_4, YAML_V2_2_8 } from '../../../src/kubeadm/yaml-v2/dialect.js';
import type { YamlV2Dialect } from '../../../src/kubeadm/yaml-v2/dialect.js';
import { YamlSyntaxError } from '../../../src/kubeadm/yaml-v2/errors.js';
import { Scanner } from '../../../src/kubeadm/yaml-v2/scanner.js';
import { TokenKind } from '../../../src/kubeadm/yaml-v2/tokens.js';
import type { Token } from '../../../src/kubeadm/yaml-v2/tokens.js';

// Expected texts and values were checked against gopkg.in/yaml.v2 itself.

const KIND_NAMES = Object.fromEntries(Object.entries(TokenKind).map(([name, value]) => [value, name])) as Record<number, string>;

function tokens(text: string, dialect: YamlV2Dialect = YAML_V2_2_4): Token[] {
  const scanner = new Scanner(text, dialect);
  const out: Token[] = [];
  for (;;) {
    const token = scanner.peekToken();
    scanner.skipToken();
    out.push(token);
    if (token.kind === TokenKind.StreamEnd) return out;
  }
}

function kinds(text: string): string[] {
  return tokens(text).map((token) => KIND_NAMES[token.kind] ?? '?');
}

function scalars(text: string): string[] {
  return tokens(text)
    .filter((token) => token.kind === TokenKind.Scalar)
    .map((token) => token.value);
}

describe('yaml.v2 scanner: tokens', () => {
  it('inserts KEY and BLOCK-MAPPING-START before a simple key', () => {
    expect(kinds('a: b\nc:\n  d: e\n')).toEqual([
      'StreamStart',
      'BlockMappingStart',
      'Key',
      'Scalar',
      'Value',
      'Scalar',
      'Key',
      'Scalar',
      'Value',
      'BlockMappingStart',
      'Key',
      'Scalar',
      'Value',
      'Scalar',
      'BlockEnd',
      'BlockEnd',
      'StreamEnd',
    ]);
  });

  it('scans flow collections, anchors, aliases and tags', () => {
    expect(kinds('x: &a [b, {c: *a}, !t d]\n')).toEqual([
      'StreamStart',
      'BlockMappingStart',
      'Key',
      'Scalar',
      'Value',
      'Anchor',
      'FlowSequenceStart',
      'Scalar',
      'FlowEntry',
      'FlowMappingStart',
      'Key',
      'Scalar',
      'Value',
      'Alias',
      'FlowMappingEnd',
      'FlowEntry',
      'Tag',
      'Scalar',
      'FlowSequenceEnd',
      'BlockEnd',
      'StreamEnd',
    ]);
  });

  it('folds plain and quoted scalars over lines', () => {
    expect(scalars('k: a\n  b\n\n  c\n')).toEqual(['k', 'a b\nc']);
    expect(scalars('k: "a\n  b \\\n  c\\x41\\u00e9\\U0001F600"\n')).toEqual(['k', 'a b cAé😀']);
    expect(scalars("k: 'it''s\n\n  x'\n")).toEqual(['k', "it's\nx"]);
  });
});

describe('yaml.v2 scanner: literal blocks', () => {
  it('clips to one final line break and keeps more-indented lines', () => {
    expect(scalars('k: |\n  x\n   y\n\n  z\n\n')).toEqual(['k', 'x\n y\n\nz\n']);
  });

  it('strips (|-) and keeps (|+) the final breaks', () => {
    expect(scalars('k: |-\n  x\n\n')).toEqual(['k', 'x']);
    expect(scalars('k: |+\n  x\n\n')).toEqual(['k', 'x\n\n']);
  });

  it('treats whitespace-only lines as empty, or as content when they are longer than the indentation', () => {
    expect(scalars('k: |\n  a\n \n  b\n     \n  c\n')).toEqual(['k', 'a\n\nb\n   \nc\n']);
  });

  it('takes the indentation from the first non-empty line', () => {
    expect(scalars('k: |\n\n    a\n    b\n')).toEqual(['k', '\na\nb\n']);
  });

  it('ends at a line indented less than the block', () => {
    expect(scalars('a:\n  k: |\n    x\n  l: y\n')).toEqual(['a', 'k', 'x\n', 'l', 'y']);
  });

  it('turns CR, CRLF and NEL into LF but keeps LS and PS', () => {
    expect(scalars('k: |\n  x\r\n  y\r  z\n')).toEqual(['k', 'x\ny\nz\n']);
    expect(scalars('k: |\n  x\u0085  y\n')).toEqual(['k', 'x\ny\n']);
    expect(scalars('k: |\n  x\u2028  y\u2029  z\n')).toEqual(['k', 'x\u2028y\u2029z\n']);
  });

  it('ends the line at any break, so text after it at column 0 ends the block', () => {
    expect(yamlV2ToJson('k: |\n  x\u2029y\n', YAML_V2_2_4)).toEqual({ ok: false, error: "yaml: line 4: could not find expected ':'" });
    expect(yamlV2ToJson('k: |\n  x\u2029y\n', YAML_V2_2017)).toEqual({ ok: false, error: "yaml: line 3: could not find expected ':'" });
  });

  it('rejects a tab where indentation spaces are expected', () => {
    expect(yamlV2ToJson('k: |\n  x\n\ty\n', YAML_V2_2_4)).toEqual({
      ok: false,
      error: 'yaml: line 3: found a tab character where an indentation space is expected',
    });
    expect(yamlV2ToJson('k: |\n  x\n \ty\n', YAML_V2_2017)).toEqual({
      ok: false,
      error: 'yaml: line 2: found a tab character where an indentation space is expected',
    });
    // Past the indentation a tab is content.
    expect(scalars('k: |\n  x\n  \ty\n')).toEqual(['k', 'x\n\ty\n']);
  });

  it('rejects an indentation indicator of 0', () => {
    expect(yamlV2ToJson('a: |0\n  x\n', YAML_V2_2_4)).toEqual({ ok: false, error: 'yaml: found an indentation indicator equal to 0' });
  });
});

describe('yaml.v2 scanner: errors and their line numbers', () => {
  it('2017 prints the 0-based line of a scanner error, v2.2 adds one', () => {
    const text = 'a: b\nc d\ne: f\n';
    expect(yamlV2ToJson(text, YAML_V2_2017)).toEqual({ ok: false, error: "yaml: line 2: could not find expected ':'" });
    expect(yamlV2ToJson(text, YAML_V2_2_4)).toEqual({ ok: false, error: "yaml: line 3: could not find expected ':'" });
    expect(yamlV2ToJson(text, YAML_V2_2_8)).toEqual({ ok: false, error: "yaml: line 3: could not find expected ':'" });
  });

  it('omits the line when the problem is on line 0', () => {
    expect(yamlV2ToJson('a: @\n', YAML_V2_2_4)).toEqual({ ok: false, error: 'yaml: found character that cannot start any token' });
    expect(yamlV2ToJson('a: b: c\n', YAML_V2_2_4)).toEqual({ ok: false, error: 'yaml: mapping values are not allowed in this context' });
    expect(yamlV2ToJson('a: &\n', YAML_V2_2_4)).toEqual({ ok: false, error: 'yaml: did not find expected alphabetic or numeric character' });
    expect(yamlV2ToJson('%FOO\n---\na\n', YAML_V2_2_4)).toEqual({ ok: false, error: 'yaml: found unknown directive name' });
    expect(yamlV2ToJson('a: "\\q"\n', YAML_V2_2_4)).toEqual({ ok: false, error: 'yaml: found unknown escape character' });
    expect(yamlV2ToJson('a: "\\xZZ"\n', YAML_V2_2_4)).toEqual({ ok: false, error: 'yaml: did not find expected hexdecimal number' });
    expect(yamlV2ToJson('a: "\\uD800"\n', YAML_V2_2_4)).toEqual({ ok: false, error: 'yaml: found invalid Unicode character escape code' });
  });

  it('reports unterminated quoted scalars and document markers inside them', () => {
    expect(yamlV2ToJson('a: "b\n', YAML_V2_2017)).toEqual({ ok: false, error: 'yaml: line 1: found unexpected end of stream' });
    expect(yamlV2ToJson("a: 'b\n", YAML_V2_2_4)).toEqual({ ok: false, error: 'yaml: line 2: found unexpected end of stream' });
    expect(yamlV2ToJson('---\n"a\n--- b"\n', YAML_V2_2_4)).toEqual({ ok: false, error: 'yaml: line 3: found unexpected document indicator' });
  });

  it('2017 rejects a colon inside a plain scalar in a flow collection; v2.2 keeps it', () => {
    expect(yamlV2ToJson('a: {b: c:d}\n', YAML_V2_2017)).toEqual({ ok: false, error: "yaml: found unexpected ':'" });
    expect(yamlV2ToJson('a: {b: c:d}\n', YAML_V2_2_4)).toEqual({ ok: true, json: '{"a":{"b":"c:d"}}' });
  });

  it('words the tab-in-plain-scalar error per release', () => {
    expect(yamlV2ToJson('a: b\n c\n\td\n', YAML_V2_2017)).toEqual({ ok: false, error: 'yaml: line 2: found a tab character that violate indentation' });
    expect(yamlV2ToJson('a: b\n c\n\td\n', YAML_V2_2_4)).toEqual({ ok: false, error: 'yaml: line 3: found a tab character that violates indentation' });
  });

  it('keeps 2017 tag scanning: a lone %TAG handle panics, escapes do not count as tag characters', () => {
    expect(() => tokens('%TAG ! !x\n--- a\n', YAML_V2_2017)).toThrow('index out of range');
    expect(yamlV2ToJson('%TAG ! !x\n--- a\n', YAML_V2_2_4)).toEqual({ ok: true, json: '"a"' });
    expect(yamlV2ToJson('!<%41> a\n', YAML_V2_2017)).toEqual({ ok: false, error: 'yaml: did not find expected tag URI' });
    expect(yamlV2ToJson('!<%41> a\n', YAML_V2_2_4)).toEqual({ ok: true, json: '"a"' });
  });

  it('panics (a crash in kubeadm) where libyaml\'s "should not happen" check fires, until v2.2.8', () => {
    const text = 'a:\n  b: "x\ny"c\n';
    expect(yamlV2ToJson(text, YAML_V2_2017)).toEqual({ ok: false, error: 'yaml.v2 panic: should not happen' });
    expect(yamlV2ToJson(text, YAML_V2_2_4)).toEqual({ ok: false, error: 'yaml.v2 panic: should not happen' });
    expect(yamlV2ToJson(text, YAML_V2_2_8)).toEqual({ ok: false, error: 'yaml: line 2: did not find expected key' });
  });

  it('records the marks of a scanner error', () => {
    try {
      tokens('a: b\nc d\n');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(YamlSyntaxError);
      const syntax = error as YamlSyntaxError;
      expect(syntax.stage).toBe('scanner');
      expect(syntax.context).toBe('while scanning a simple key');
      expect(syntax.contextMark).toEqual({ index: 5, line: 1, column: 0 });
      expect(syntax.problemMark?.line).toBe(2);
    }
  });
});
