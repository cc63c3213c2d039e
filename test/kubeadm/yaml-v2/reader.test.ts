import { describe, expect, it } from 'vitest';
import { yamlV2ToJson } from '../../../src/kubeadm/yaml-v2/decode-manifest.js';
import { YAML_V2_2017, YAML_V2_2_4 } from '../../../src/kubeadm/yaml-v2/dialect.js';
import { YamlSyntaxError } from '../../../src/kubeadm/yaml-v2/errors.js';
import { InputReader, RAW_CHUNK_BYTES, isAllowedYamlCharacter } from '../../../src/kubeadm/yaml-v2/reader.js';

// Expected texts were checked against gopkg.in/yaml.v2 itself (see decode-manifest.test.ts).

describe('yaml.v2 reader: which characters are allowed', () => {
  it.each([0x09, 0x0a, 0x0d, 0x20, 0x7e, 0x85, 0xa0, 0xd7ff, 0xe000, 0xfeff, 0xfffd, 0x10000, 0x1f600, 0x10ffff])('accepts code point %i', (cp) => {
    expect(isAllowedYamlCharacter(cp)).toBe(true);
  });

  it.each([0x00, 0x01, 0x08, 0x0b, 0x0c, 0x1b, 0x1f, 0x7f, 0x80, 0x84, 0x86, 0x9f, 0xfffe, 0xffff])('rejects code point %i', (cp) => {
    expect(isAllowedYamlCharacter(cp)).toBe(false);
  });

  it('reports a control character without a line number', () => {
    expect(yamlV2ToJson('a: b\u0001\n', YAML_V2_2_4)).toEqual({ ok: false, error: 'yaml: control characters are not allowed' });
    expect(yamlV2ToJson('a: b\u007f\n', YAML_V2_2017)).toEqual({ ok: false, error: 'yaml: control characters are not allowed' });
  });
});

describe('yaml.v2 reader: decoding in 512-byte chunks', () => {
  it('decodes the whole first chunk on the first request', () => {
    const reader = new InputReader('a'.repeat(1000));
    reader.fill(0, 0, 1);
    expect(reader.decodedChars).toBe(RAW_CHUNK_BYTES);
    expect(reader.atEnd).toBe(false);
  });

  it('keeps a character that straddles the chunk boundary for the next chunk', () => {
    // 'é' is two UTF-8 bytes: bytes 511 and 512.
    const reader = new InputReader(`${'a'.repeat(511)}é${'b'.repeat(100)}`);
    reader.fill(0, 0, 1);
    expect(reader.decodedChars).toBe(511);
    reader.fill(511, 511, 1);
    expect(reader.decodedChars).toBe(612);
    reader.fill(612, 612, 1);
    expect(reader.atEnd).toBe(true);
  });

  it('fails a refill when the next chunk holds a forbidden character, even if the request could be met before it', () => {
    const reader = new InputReader(`${'a'.repeat(600)}\u0001`);
    reader.fill(0, 0, 1);
    expect(() => reader.fill(511, 511, 2)).toThrow(YamlSyntaxError);
  });

  it('lets a structural error in an earlier chunk win over a control character further down', () => {
    const prefix = 'a: b\n- c\n';
    expect(yamlV2ToJson(`${prefix}#${'x'.repeat(600)}\u0001\n`, YAML_V2_2_4)).toEqual({ ok: false, error: 'yaml: line 1: did not find expected key' });
    // The same control character inside the first chunk is decoded before anything is scanned.
    expect(yamlV2ToJson(`${prefix}#\u0001\n`, YAML_V2_2_4)).toEqual({ ok: false, error: 'yaml: control characters are not allowed' });
  });

  it("reproduces yaml.v2's is_bom, which looks at the start of its buffer instead of the current character", () => {
    // The refill at the 512-byte boundary happens while the scanner stands on U+FEFF; at the start of
    // the next line yaml.v2 then believes it sees a byte order mark and skips the 'b'.
    const withBom = `a: ${'x'.repeat(506)}\ufeff\nb: 2\n`;
    expect(withBom.indexOf('\ufeff')).toBe(509);
    expect(yamlV2ToJson(withBom, YAML_V2_2_4)).toEqual({ ok: false, error: 'yaml: line 1: did not find expected key' });
    expect(yamlV2ToJson(withBom.replace('\ufeff', 'z'), YAML_V2_2_4)).toEqual({ ok: true, json: `{"a":"${'x'.repeat(506)}z","b":2}` });
  });

  it('consumes a leading byte order mark', () => {
    expect(yamlV2ToJson('\ufeffa: 1\n', YAML_V2_2_4)).toEqual({ ok: true, json: '{"a":1}' });
  });
});
