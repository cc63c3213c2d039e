import { describe, expect, it } from 'vitest';
import { yamlV2ToJson } from '../../../src/kubeadm/yaml-v2/decode-manifest.js';
import { YAML_V2_2017, YAML_V2_2_4, YAML_V2_2_8 } from '../../../src/kubeadm/yaml-v2/dialect.js';

// Expected texts were checked against gopkg.in/yaml.v2 (and ghodss/yaml for the JSON) themselves.

const json = (text: string, dialect = YAML_V2_2_4) => yamlV2ToJson(text, dialect);

describe('yaml.v2 node builder and decoder', () => {
  it('resolves YAML 1.1 scalars', () => {
    expect(json('a: yes\nb: Off\nc: ~\nd: 012\ne: 0x1F\nf: 1e3\ng: .5\nh: 0b101\ni: 2001-12-14\nj: "yes"\nk: 08\n')).toEqual({
      ok: true,
      json: '{"a":true,"b":false,"c":null,"d":10,"e":31,"f":1000,"g":0.5,"h":5,"i":"2001-12-14","j":"yes","k":8}',
    });
  });

  it('lets a later duplicate key win', () => {
    expect(json('a: 1\nb: 2\na: 3\n')).toEqual({ ok: true, json: '{"a":3,"b":2}' });
  });

  it('expands aliases and merge keys', () => {
    expect(json('a: &x {b: 1}\nc:\n  <<: [*x, {d: 2}]\n  e: 3\n')).toEqual({ ok: true, json: '{"a":{"b":1},"c":{"b":1,"d":2,"e":3}}' });
    expect(json('a: &x 1\nb: *x\n')).toEqual({ ok: true, json: '{"a":1,"b":1}' });
  });

  it.each([
    ['a: *x\n', "yaml: unknown anchor 'x' referenced"],
    ['a: &x [*x]\n', "yaml: anchor 'x' value contains itself"],
    ['a:\n  <<: 1\n', 'yaml: map merge requires map or sequence of maps as the value'],
    ['? [a]\n: 1\n', 'yaml: invalid map key: []interface {}{"a"}'],
    ['a: !!int b\n', 'yaml: cannot decode !!str `b` as a !!int'],
    ['a: !!binary aGVsbG8\n', 'yaml: !!binary value contains invalid base64 data'],
  ])('%j → %s', (text, error) => {
    expect(json(text)).toEqual({ ok: false, error });
  });

  it('decodes tags: !!binary, !!float of an int, unknown tags as strings', () => {
    expect(json('a: !!binary aGVsbG8=\nb: !!float 1\nc: !foo 1\n')).toEqual({ ok: true, json: '{"a":"hello","b":1,"c":"1"}' });
  });

  it('knows !!timestamp from v2.2 on', () => {
    expect(json('a: !!timestamp b\n', YAML_V2_2_4)).toEqual({ ok: false, error: 'yaml: cannot decode !!str `b` as a !!timestamp' });
    expect(json('a: !!timestamp b\n', YAML_V2_2017)).toEqual({ ok: true, json: '{"a":"b"}' });
  });

  it('reads 0o and 0b prefixes like the Go release of kubeadm v1.18+', () => {
    expect(json('a: 0o17\n', YAML_V2_2_8)).toEqual({ ok: true, json: '{"a":15}' });
    expect(json('a: 0o17\n', YAML_V2_2_4)).toEqual({ ok: true, json: '{"a":"0o17"}' });
  });
});
