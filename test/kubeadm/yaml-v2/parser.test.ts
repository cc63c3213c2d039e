import { describe, expect, it } from 'vitest';
import { yamlV2ToJson } from '../../../src/kubeadm/yaml-v2/decode-manifest.js';
import { YAML_V2_2017, YAML_V2_2_4 } from '../../../src/kubeadm/yaml-v2/dialect.js';
import { EventKind, Parser } from '../../../src/kubeadm/yaml-v2/parser.js';
import type { YamlEvent } from '../../../src/kubeadm/yaml-v2/parser.js';

// Expected texts were checked against gopkg.in/yaml.v2 itself.

function events(text: string): YamlEvent[] {
  const parser = new Parser(text, YAML_V2_2_4);
  const out: YamlEvent[] = [];
  for (;;) {
    const event = parser.next();
    out.push(event);
    if (event.kind === EventKind.StreamEnd) return out;
  }
}

describe('yaml.v2 parser: events', () => {
  it('produces the event stream of a block mapping with an indentless sequence', () => {
    const kinds = events('a:\n- b\n- c\nd: e\n').map((event) => event.kind);
    expect(kinds).toEqual([
      EventKind.StreamStart,
      EventKind.DocumentStart,
      EventKind.MappingStart,
      EventKind.Scalar,
      EventKind.SequenceStart,
      EventKind.Scalar,
      EventKind.Scalar,
      EventKind.SequenceEnd,
      EventKind.Scalar,
      EventKind.Scalar,
      EventKind.MappingEnd,
      EventKind.DocumentEnd,
      EventKind.StreamEnd,
    ]);
  });

  it('marks plain untagged scalars as implicit and resolves tag handles', () => {
    const scalars = events("- a\n- 'b'\n- !!int 1\n- ! c\n").filter((event) => event.kind === EventKind.Scalar);
    expect(scalars.map((event) => [event.value, event.tag, event.implicit])).toEqual([
      ['a', '', true],
      ['b', '', false],
      ['1', 'tag:yaml.org,2002:int', false],
      ['c', '!', true],
    ]);
  });

  it('accepts complex keys', () => {
    expect(yamlV2ToJson('? a\n: b\n', YAML_V2_2_4)).toEqual({ ok: true, json: '{"a":"b"}' });
  });
});

describe('yaml.v2 parser: errors', () => {
  it('reports a parser error at the offending token, without adding one in any release', () => {
    // A line less indented than `b:` closes that mapping, and the outer one gets no key.
    for (const dialect of [YAML_V2_2017, YAML_V2_2_4]) {
      expect(yamlV2ToJson('a:\n  b: 1\n c: 2\n', dialect)).toEqual({ ok: false, error: 'yaml: line 2: did not find expected key' });
      expect(yamlV2ToJson('a: b\n- c\n', dialect)).toEqual({ ok: false, error: 'yaml: line 1: did not find expected key' });
    }
  });

  it.each([
    ['- a\nb: c\n', "yaml: line 1: did not find expected '-' indicator"],
    ['[a, b\n', "yaml: line 1: did not find expected ',' or ']'"],
    ['{a: b\n', "yaml: line 1: did not find expected ',' or '}'"],
    ['!x!y a\n', 'yaml: found undefined tag handle'],
    ['%YAML 1.2\n---\na\n', 'yaml: found incompatible YAML document'],
    ['%YAML 1.1\n%YAML 1.1\n---\na\n', 'yaml: line 1: found duplicate %YAML directive'],
    ['%YAML 1.1\na: 1', 'yaml: line 1: did not find expected <document start>'],
  ])('%j → %s', (text, error) => {
    expect(yamlV2ToJson(text, YAML_V2_2_4)).toEqual({ ok: false, error });
  });

  it('stops at the first document', () => {
    expect(yamlV2ToJson('a: 1\n---\n[', YAML_V2_2_4)).toEqual({ ok: true, json: '{"a":1}' });
    expect(yamlV2ToJson('a: 1\n...\n%x', YAML_V2_2_4)).toEqual({ ok: true, json: '{"a":1}' });
    // The next document's first character is still decoded (and checked) by the reader.
    expect(yamlV2ToJson('a: 1\n---\n\u0001', YAML_V2_2_4)).toEqual({ ok: false, error: 'yaml: control characters are not allowed' });
  });
});
