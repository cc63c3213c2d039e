import { describe, expect, it } from 'vitest';
import { yamlV2ToJson } from '../../../src/kubeadm/yaml-v2/decode-manifest.js';
import { YAML_V2_2_4 } from '../../../src/kubeadm/yaml-v2/dialect.js';
import { goFormatFloat } from '../../../src/kubeadm/yaml-v2/go-values.js';

// Expected texts were checked against ghodss/yaml over gopkg.in/yaml.v2.

const json = (text: string) => yamlV2ToJson(text, YAML_V2_2_4);

describe('YAML → JSON (ghodss/yaml, encoding/json)', () => {
  it('turns int, float and bool keys into strings', () => {
    expect(json('1: a\n1.5: b\n1e3: c\n-0.0: d\ntrue: e\n.inf: f\n')).toEqual({
      ok: true,
      // Keys sorted by their UTF-8 bytes, as encoding/json writes them.
      json: '{"-0":"d",".inf":"f","1":"a","1.5":"b","1000":"c","true":"e"}',
    });
  });

  it('rejects keys JSON cannot name', () => {
    expect(json('~: 1\n')).toEqual({ ok: false, error: 'Unsupported map key of type: %!s(<nil>), key: <nil>, value: 1' });
    expect(json('18446744073709551615: x\n')).toEqual({
      ok: false,
      error: 'Unsupported map key of type: uint64, key: 0xffffffffffffffff, value: "x"',
    });
  });

  it('rejects NaN and infinities as values', () => {
    expect(json('a: .nan\n')).toEqual({ ok: false, error: 'json: unsupported value: NaN' });
    expect(json('a: -.inf\n')).toEqual({ ok: false, error: 'json: unsupported value: -Inf' });
  });

  it('escapes strings like encoding/json', () => {
    expect(json('a: "<&>\\u2028\\t\\x01é"\n')).toEqual({ ok: true, json: '{"a":"\\u003c\\u0026\\u003e\\u2028\\t\\u0001é"}' });
  });

  it('formats floats like Go', () => {
    expect(goFormatFloat(1e21, 64)).toBe('1e+21');
    expect(goFormatFloat(123456, 64)).toBe('123456');
    expect(goFormatFloat(1234567, 64)).toBe('1.234567e+06');
    expect(goFormatFloat(0.0001, 64)).toBe('0.0001');
    expect(goFormatFloat(0.00001, 64)).toBe('1e-05');
    expect(goFormatFloat(0.1, 32)).toBe('0.1');
  });
});
