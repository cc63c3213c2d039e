import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigMapInputError, readConfigMap } from '../../src/configmap/read-configmap.js';
import { thrown } from '../support/thrown.js';
import { cpuMs } from '../support/growth.js';

const realworld = join(import.meta.dirname, '../../golden/realworld/kube-dns');

describe('readConfigMap', () => {
  it('reads a kubectl-style ConfigMap', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kube-dns\ndata:\n  upstreamNameservers: |\n    ["8.8.8.8"]\n';
    const data = { upstreamNameservers: '["8.8.8.8"]\n' };
    expect(readConfigMap(text)).toEqual({ name: 'kube-dns', data, binaryDataKeys: [], object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'kube-dns' }, data }, locate: expect.any(Function) });
  });

  it('reads JSON and a List of ConfigMaps, preferring a name', () => {
    const list = JSON.stringify({
      kind: 'List',
      items: [
        { kind: 'ConfigMap', metadata: { name: 'other' }, data: { a: 'b' } },
        { kind: 'ConfigMap', metadata: { name: 'kube-dns' }, data: { stubDomains: '{}' } },
      ],
    });
    expect(readConfigMap(list, { preferredNames: ['kube-dns'] }).data).toEqual({ stubDomains: '{}' });
    expect(readConfigMap(list, { name: 'other' }).data).toEqual({ a: 'b' });
    expect(() => readConfigMap(list)).toThrow(/2 ConfigMaps found \(other, kube-dns\); choose one with --name/);
  });

  it('reads a ConfigMapList from the API, whose items carry no kind', () => {
    const list = JSON.stringify({
      kind: 'ConfigMapList',
      apiVersion: 'v1',
      metadata: { resourceVersion: '1' },
      items: [
        { metadata: { name: 'coredns', namespace: 'kube-system' }, data: { Corefile: '.:53 {\n}\n' } },
        { metadata: { name: 'kube-dns', namespace: 'kube-system' }, data: { upstreamNameservers: '["8.8.8.8"]' } },
      ],
    });
    expect(readConfigMap(list, { preferredNames: ['kube-dns'] })).toEqual({
      name: 'kube-dns',
      namespace: 'kube-system',
      data: { upstreamNameservers: '["8.8.8.8"]' },
      binaryDataKeys: [],
      object: { metadata: { name: 'kube-dns', namespace: 'kube-system' }, data: { upstreamNameservers: '["8.8.8.8"]' } },
      locate: expect.any(Function),
    });
    expect(readConfigMap('kind: ConfigMapList\nitems:\n- kind: ConfigMap\n  data:\n    a: b\n').data).toEqual({ a: 'b' });
    // A plain List still needs kind on its items: anything else in it is not a ConfigMap.
    expect(() => readConfigMap('kind: List\nitems:\n- data:\n    a: b\n')).toThrow(/no ConfigMap found \(expected kind: ConfigMap, a List or ConfigMapList of them/);
  });

  it('returns the namespace', () => {
    expect(readConfigMap('kind: ConfigMap\nmetadata:\n  name: kube-dns\n  namespace: kube-system\n').namespace).toBe('kube-system');
    expect(readConfigMap('kind: ConfigMap\nmetadata:\n  name: kube-dns\n').namespace).toBeUndefined();
  });

  describe('fields at the top level that a ConfigMap does not have', () => {
    // The indentation of metadata: and data: was lost: both are null, their keys sit at the top level.
    const flattened = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      'name: kube-dns',
      'namespace: kube-system',
      'data:',
      'stubDomains: |',
      '  {"acme.local": ["1.2.3.4"]}',
      'upstreamNameservers: |',
      '  ["8.8.8.8"]',
      '',
    ].join('\n');

    it('refuses a ConfigMap whose keys lost their indentation, naming the file, the keys and where they belong', () => {
      let caught: unknown;
      try {
        readConfigMap(flattened, { filename: 'flat.yaml' });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(ConfigMapInputError);
      expect((caught as ConfigMapInputError).message).toBe(
        'flat.yaml:4:1: name, namespace, stubDomains, upstreamNameservers are at the top level of the ConfigMap, where only apiVersion, kind, metadata, data, binaryData, immutable belong ' +
          '(as written, metadata and data are empty); was the indentation lost? Indent name, namespace under metadata: and stubDomains, upstreamNameservers under data:. kubectl refuses such a file too',
      );
      expect(caught).toMatchObject({ code: 'misplaced-fields', filename: 'flat.yaml', position: { line: 4, column: 1 } });
      expect((caught as ConfigMapInputError).reason).toMatch(/^name, namespace, stubDomains, upstreamNameservers are at the top level/);
    });

    it('refuses data keys indented under metadata:, naming the key and where it belongs', () => {
      const deep = 'kind: ConfigMap\nmetadata:\n  name: kube-dns\n  namespace: kube-system\n  stubDomains: |\n    {"acme.local": ["10.0.0.10"]}\ndata:\n  upstreamNameservers: \'["8.8.8.8"]\'\n';
      expect(() => readConfigMap(deep, { filename: 'deep.yaml' })).toThrow(
        'deep.yaml:5:3: stubDomains is under metadata:, which has no such field; was the indentation off? Put stubDomains under data:. kubectl refuses such a file too',
      );
      const kubectlPrinted = 'kind: ConfigMap\nmetadata:\n  name: kube-dns\n  deletionTimestamp: "2020-01-01T00:00:00Z"\n  clusterName: ""\n  generation: 2\ndata: {}\n';
      expect(readConfigMap(kubectlPrinted).name).toBe('kube-dns');
    });

    it('reads a !!binary data value as kubectl does: the base64 decoded, the text kube-dns then read', () => {
      const tagged = 'kind: ConfigMap\nmetadata:\n  name: kube-dns\ndata:\n  upstreamNameservers: !!binary WyI4LjguOC44Il0=\n  federations: !!binary |\n    eyJteWZlZCI6\n    ICJleGFtcGxlLmNvbSJ9\n';
      expect(readConfigMap(tagged).data).toEqual({ upstreamNameservers: '["8.8.8.8"]', federations: '{"myfed": "example.com"}' });
      // Bytes that are not UTF-8 reach the API server as U+FFFD, as Go's JSON encoder writes them.
      expect(readConfigMap('data:\n  stubDomains: !!binary /w==\n').data).toEqual({ stubDomains: '\ufffd' });
      const invalid = thrown(() => readConfigMap('data:\n  stubDomains: !!binary e$yJh\n', { filename: 'b.yaml' }));
      expect(invalid).toBeInstanceOf(ConfigMapInputError);
      expect((invalid as Error).message).toBe('b.yaml:2:16: not valid YAML or JSON: this !!binary value is not base64 (the standard alphabet, = padding); kubectl refuses it too ("!!binary value contains invalid base64 data")');
    });

    it('refuses binaryData that is not base64, where it is written, as the API server does', () => {
      const tagged = thrown(() => readConfigMap('kind: ConfigMap\nmetadata:\n  name: kube-dns\nbinaryData:\n  logo.png: !!binary iVBORw0KGgo=\n', { filename: 'b.yaml' }));
      expect(tagged).toMatchObject({ code: 'binary-data-not-base64', category: 'input' });
      expect((tagged as Error).message).toMatch(/^b\.yaml:5:3: binaryData\.logo\.png is not base64 .*a !!binary tag is decoded by kubectl before it is sent, so write the base64 text untagged\); the API server refuses it \("illegal base64 data"\)$/);
      expect((thrown(() => readConfigMap('kind: ConfigMap\nmetadata:\n  name: kube-dns\nbinaryData:\n  a: [1]\n', { filename: 'b.yaml' })) as Error).message).toBe('b.yaml:5:3: binaryData.a must be a base64 string, got a sequence; the API server refuses it ("illegal base64 data")');
      expect((thrown(() => readConfigMap('kind: ConfigMap\nmetadata:\n  name: kube-dns\nbinaryData: x\n', { filename: 'b.yaml' })) as Error).message).toMatch(/^b\.yaml:4:\d+: binaryData must be a mapping of base64 strings, got a string$/);
      expect(readConfigMap('kind: ConfigMap\nmetadata:\n  name: kube-dns\nbinaryData:\n  a: null\n  b: "aGk=\\n"\n').binaryDataKeys).toEqual(['a', 'b']);
    });

    it('refuses YAML nested deeper than 64 levels, saying no Kubernetes object is', () => {
      const deep = thrown(() => readConfigMap(`kind: ConfigMap\nx: ${'['.repeat(70)}${']'.repeat(70)}\n`, { filename: 'd.yaml' }));
      expect((deep as Error).message).toMatch(/^d\.yaml:2:\d+: not valid YAML or JSON: nested deeper than 64 levels, more than this tool reads; no Kubernetes object kubectl prints is nested that deep/);
      expect(() => readConfigMap(`kind: ConfigMap\nmetadata: {name: kube-dns}\nx: ${'['.repeat(60)}${']'.repeat(60)}\n`)).toThrow(/top level/);
    });

    it('returns the keys of binaryData, which are not data', () => {
      const binary = 'kind: ConfigMap\nmetadata:\n  name: kube-dns\ndata:\n  upstreamNameservers: \'["8.8.8.8"]\'\nbinaryData:\n  logo.png: iVBORw0KGgo=\n';
      expect(readConfigMap(binary)).toMatchObject({ name: 'kube-dns', namespace: undefined, data: { upstreamNameservers: '["8.8.8.8"]' }, binaryDataKeys: ['logo.png'] });
    });

    it('refuses the same without kind and apiVersion, and a single stray key next to a full data map', () => {
      const noKind = flattened.split('\n').slice(2).join('\n');
      expect(() => readConfigMap(noKind, { filename: 'f.yaml' })).toThrow(/^f\.yaml:2:1: name, namespace, stubDomains, upstreamNameservers are at the top level/);
      const stray = 'kind: ConfigMap\nmetadata:\n  name: kube-dns\ndata:\n  stubDomains: "{}"\nupstreamNameservers: \'["8.8.8.8"]\'\n';
      expect(() => readConfigMap(stray, { filename: 's.yaml' })).toThrow(
        "s.yaml:6:1: upstreamNameservers is at the top level of the ConfigMap, where only apiVersion, kind, metadata, data, binaryData, immutable belong; was the indentation lost? Indent upstreamNameservers under data:. kubectl refuses such a file too",
      );
      // A field that is neither metadata nor text gets no indentation hint.
      expect(() => readConfigMap('kind: ConfigMap\ndata: {}\nspec:\n  a: 1\n')).toThrow(/^<input>:3:1: spec is at the top level of the ConfigMap, where only .* belong\. kubectl refuses/);
    });

    it('refuses only the ConfigMap that is read, not another one in the same input', () => {
      const list = `kind: List\nitems:\n- kind: ConfigMap\n  metadata: {name: other}\n  extra: x\n- kind: ConfigMap\n  metadata: {name: kube-dns}\n  data: {a: b}\n`;
      expect(readConfigMap(list, { preferredNames: ['kube-dns'] }).data).toEqual({ a: 'b' });
      expect(() => readConfigMap(list, { name: 'other', filename: 'l.yaml' })).toThrow(/^l\.yaml:5:3: extra is at the top level/);
    });
  });

  it('locates a place inside a data value in the file: a block, a quoted value, JSON, an alias, a List item', () => {
    const yaml = readConfigMap(
      "kind: ConfigMap\nmetadata:\n  name: kube-dns\n  annotations: {x: &u '[\"8.8.8.8\", 1]'}\ndata:\n  stubDomains: |\n    {\"a.local\":\n      [x]}\n  upstreamNameservers: *u\n  federations: \"a=b\\tc\"\n",
      { filename: 'kube-dns.yaml' },
    );
    // Line 2 column 5 of the value: the x, line 8 column 8 of the file.
    expect(yaml.locate('stubDomains', yaml.data['stubDomains']?.indexOf('x') ?? -1)).toEqual({ filename: 'kube-dns.yaml', line: 8, column: 8, exact: true });
    // An alias: where its anchor's scalar writes it.
    expect(yaml.locate('upstreamNameservers', 12)).toEqual({ filename: 'kube-dns.yaml', line: 4, column: 36, exact: true });
    // After an escape, one character of the value is two of the file: the c of a=b\tc.
    expect(yaml.locate('federations', 4)).toEqual({ filename: 'kube-dns.yaml', line: 10, column: 22, exact: true });
    expect(yaml.locate('nothing', 0)).toBeUndefined();
    const jsonText = JSON.stringify({ kind: 'List', items: [{ kind: 'ConfigMap', metadata: { name: 'kube-dns' }, data: { stubDomains: '{"a": [x]}' } }] });
    const json = readConfigMap(jsonText, { filename: 'cm.json' });
    // The x of the value, after the escaped quotes of kubectl -o json.
    expect(json.locate('stubDomains', 7)).toEqual({ filename: 'cm.json', line: 1, column: jsonText.indexOf('[x]') + 2, exact: true });
    // A key brought in by a merge key: only the data mapping's start is known.
    const merged = readConfigMap('kind: ConfigMap\ndata:\n  <<: {stubDomains: "{x}"}\n', { filename: 'm.yaml' });
    expect(merged.locate('stubDomains', 1)).toEqual({ filename: 'm.yaml', line: 3, column: 3, exact: false });
  });

  it('treats a ConfigMap without data as empty data', () => {
    expect(readConfigMap('kind: ConfigMap\nmetadata:\n  name: kube-dns\n').data).toEqual({});
  });

  it('points at a data value that is not a string', () => {
    const text = 'kind: ConfigMap\ndata:\n  stubDomains: {"a.com": ["1.1.1.1"]}\n';
    expect(() => readConfigMap(text, { filename: 'cm.yaml' })).toThrow(
      'cm.yaml:3:3: data.stubDomains must be a string (the JSON text kube-dns reads), got a mapping',
    );
  });

  it('reports YAML syntax errors with a position', () => {
    try {
      readConfigMap('data:\n  a: [\n', { filename: 'bad.yaml' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigMapInputError);
      expect((error as ConfigMapInputError).message).toMatch(/^bad\.yaml:\d+:\d+: not valid YAML or JSON: /);
    }
  });

  it('places an error at the end of the text after its last character, not on the line past the final line break', () => {
    for (const [text, at] of [
      ['kind: ConfigMap\ndata:\n  stubDomains: {"a": [1]\n', 'cm.yaml:3:25:'],
      ['kind: ConfigMap\ndata:\n  stubDomains: "abc\n\n', 'cm.yaml:3:20:'],
      ['kind: ConfigMap\r\ndata:\r\n  a: [\r\n', 'cm.yaml:3:7:'],
      ['kind: ConfigMap\ndata: [\n  a', 'cm.yaml:3:4:'],
    ] as const) {
      expect(() => readConfigMap(text, { filename: 'cm.yaml' }), JSON.stringify(text)).toThrowError(new RegExp(`^${at.replaceAll('.', '\\.')} not valid YAML or JSON`));
    }
  });

  it('refuses an alias bomb quickly', () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let level = 1; level < 13; level += 1) {
      bomb.push(`${String.fromCharCode(97 + level)}: &${String.fromCharCode(97 + level)} [${Array(9).fill('*' + String.fromCharCode(96 + level)).join(',')}]`);
    }
    // CPU time, not wall time, which a loaded machine inflates (the growth with the bomb's depth is
    // checked in test/configmap/yaml-documents.test.ts).
    const started = cpuMs();
    expect(() => readConfigMap(bomb.join('\n'))).toThrow(/excessive aliasing/);
    expect(cpuMs() - started).toBeLessThan(1000);
  });

  it.each(readdirSync(realworld).filter((file) => file.endsWith('.yaml')))('reads real-world %s', (file) => {
    const text = readFileSync(join(realworld, file), 'utf8');
    try {
      const { data } = readConfigMap(text, { filename: file });
      for (const value of Object.values(data)) expect(typeof value).toBe('string');
    } catch (error) {
      // Only the fragment whose stubDomains is a YAML flow mapping is not a ConfigMap.
      expect(file).toBe('19-issue-dns-83-flow-mapping-not-string-with-port.yaml');
      expect((error as Error).message).toMatch(/^19-.*:\d+:\d+: data\.stubDomains must be a string/);
    }
  });
});
