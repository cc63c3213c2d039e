import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigMapInputError, readConfigMap } from '../../src/configmap/read-configmap.js';

const realworld = join(import.meta.dirname, '../../golden/realworld/kube-dns');

describe('readConfigMap', () => {
  it('reads a kubectl-style ConfigMap', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kube-dns\ndata:\n  upstreamNameservers: |\n    ["8.8.8.8"]\n';
    expect(readConfigMap(text)).toEqual({ name: 'kube-dns', data: { upstreamNameservers: '["8.8.8.8"]\n' } });
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

  it('refuses an alias bomb quickly', () => {
    const bomb = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
    for (let level = 1; level < 13; level += 1) {
      bomb.push(`${String.fromCharCode(97 + level)}: &${String.fromCharCode(97 + level)} [${Array(9).fill('*' + String.fromCharCode(96 + level)).join(',')}]`);
    }
    const started = performance.now();
    expect(() => readConfigMap(bomb.join('\n'))).toThrow(/alias/i);
    expect(performance.now() - started).toBeLessThan(1000);
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
