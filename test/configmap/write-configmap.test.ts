import fc from 'fast-check';
import { dump, load, YAML11_SCHEMA } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { ConfigMapInputError } from '../../src/configmap/config-map-data.js';
import { readConfigMap } from '../../src/configmap/read-configmap.js';
import { configMapWithCorefile, renderConfigMapWithCorefile, serverSetFields } from '../../src/configmap/write-configmap.js';
import { Outcomes } from '../support/outcomes.js';

const COREFILE = '.:53 {\n    errors\n    hosts /etc/coredns/NodeHosts {\n        fallthrough\n    }\n    forward . 10.0.0.2\n}\n';

/** What `kubectl -n kube-system get configmap coredns -o yaml` prints on a k3s cluster managed with kubectl apply. */
const K3S = `apiVersion: v1
data:
  Corefile: |
    .:53 {
        errors
        forward . /etc/resolv.conf
    }
  NodeHosts: |
    10.0.0.5 server-0
    10.0.0.6 agent-0
kind: ConfigMap
metadata:
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {"apiVersion":"v1","kind":"ConfigMap"}
    objectset.rio.cattle.io/applied: H4sIAAAAAAAA
  creationTimestamp: "2024-03-01T10:00:00Z"
  labels:
    eks.amazonaws.com/component: coredns
    k8s-app: kube-dns
  managedFields:
  - apiVersion: v1
    manager: k3s
  name: coredns
  namespace: kube-system
  ownerReferences:
  - apiVersion: v1
    kind: Node
    name: server-0
    uid: 1234
  resourceVersion: "123456"
  selfLink: /api/v1/namespaces/kube-system/configmaps/coredns
  uid: 0a8f2c1e-7d7a-4c38-9d0a-6f1c2a3b4c5d
`;

describe('configMapWithCorefile', () => {
  it('keeps the other data keys, labels, annotations and owner references, and drops only what the API server set', () => {
    const object = readConfigMap(K3S).object;
    if (object === undefined) throw new Error('expected a ConfigMap object');
    expect(configMapWithCorefile(object, COREFILE)).toEqual({
      apiVersion: 'v1',
      data: { Corefile: COREFILE, NodeHosts: '10.0.0.5 server-0\n10.0.0.6 agent-0\n' },
      kind: 'ConfigMap',
      metadata: {
        annotations: { 'objectset.rio.cattle.io/applied': 'H4sIAAAAAAAA' },
        labels: { 'eks.amazonaws.com/component': 'coredns', 'k8s-app': 'kube-dns' },
        name: 'coredns',
        namespace: 'kube-system',
        ownerReferences: [{ apiVersion: 'v1', kind: 'Node', name: 'server-0', uid: 1234 }],
      },
    });
    // The argument is not changed.
    expect(object['metadata']).toHaveProperty('resourceVersion', '123456');
  });

  it('keeps the order of the fields, adds a missing kind and apiVersion, and drops annotations left empty', () => {
    const fromList = { metadata: { name: 'coredns', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' } }, data: { 'a.server': 'x', Corefile: 'old' }, immutable: false };
    const written = configMapWithCorefile(fromList, COREFILE);
    expect(Object.keys(written)).toEqual(['apiVersion', 'kind', 'metadata', 'data', 'immutable']);
    expect(written['metadata']).toEqual({ name: 'coredns' });
    expect(Object.keys(written['data'] as object)).toEqual(['a.server', 'Corefile']);
    expect(configMapWithCorefile({ kind: 'ConfigMap', metadata: { name: 'c' } }, COREFILE)).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { Corefile: COREFILE } });
    expect(configMapWithCorefile({ kind: 'ConfigMap', data: null }, 'x', 'Corefile.override')['data']).toEqual({ 'Corefile.override': 'x' });
  });

  it('refuses what is not a ConfigMap object, with an error of the family', () => {
    for (const bad of [null, [], 'text', { data: [] }, { data: 'x' }, { metadata: 3 }]) {
      expect(() => configMapWithCorefile(bad as never, COREFILE)).toThrow(ConfigMapInputError);
    }
    expect(() => configMapWithCorefile({}, 3 as never)).toThrow(ConfigMapInputError);
  });
});

describe('renderConfigMapWithCorefile', () => {
  it('writes YAML that loads back to the object, the Corefile as a literal block', () => {
    const object = readConfigMap(K3S).object;
    if (object === undefined) throw new Error('expected a ConfigMap object');
    const yaml = renderConfigMapWithCorefile(object, COREFILE);
    expect(load(yaml)).toEqual(configMapWithCorefile(object, COREFILE));
    expect(yaml).toContain('  Corefile: |\n    .:53 {\n        errors\n');
    expect(yaml).not.toMatch(/resourceVersion|managedFields|uid: 0a8f|creationTimestamp|last-applied|selfLink/);
    // Read back as the CLI reads a ConfigMap: the same data.
    expect(readConfigMap(yaml).data).toEqual({ Corefile: COREFILE, NodeHosts: '10.0.0.5 server-0\n10.0.0.6 agent-0\n' });
  });

  it('keeps strings that YAML would read as other types as strings', () => {
    const yaml = renderConfigMapWithCorefile({ metadata: { name: 'coredns', labels: { enabled: 'true', version: '1.10' } }, data: { port: '53' } }, '  leading spaces\n');
    expect(load(yaml)).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'coredns', labels: { enabled: 'true', version: '1.10' } }, data: { port: '53', Corefile: '  leading spaces\n' } });
  });

  it('writes a value the input shared through aliases once, with an anchor: 24,000 aliased nodes stay a 4 KB file', () => {
    // 1% of the document's nodes written out, or kubectl's reader (and this package's) refuses it.
    const levels = [`    pad: [${Array.from({ length: 400 }, (_, index) => `p${index}`).join(',')}]`, `    a0: &a0 [${Array(10).fill('x').join(',')}]`, ...[1, 2, 3].map((level) => `    a${level}: &a${level} [${Array(10).fill(`*a${level - 1}`).join(',')}]`), '    u: [*a3, *a3]'];
    const text = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: coredns\n  annotations:\n${levels.join('\n')}\ndata:\n  Corefile: |\n    .:53 {}\n`;
    const { object } = readConfigMap(text);
    const written = renderConfigMapWithCorefile(object!, COREFILE);
    expect(written.length).toBeLessThan(8_000);
    expect(written).toMatch(/a0: &ref_\d+\n/);
    expect(JSON.stringify(load(written, { schema: YAML11_SCHEMA }))).toBe(JSON.stringify(configMapWithCorefile(object!, COREFILE)));
  });

  it('refuses a value YAML cannot write, with an error of the family', () => {
    expect(() => renderConfigMapWithCorefile({ metadata: { name: 'c', labels: { f: () => 1 } } }, COREFILE)).toThrow(ConfigMapInputError);
  });
  it('quotes what YAML 1.1 (kubectl) would read as another type, keeps booleans and numbers, and writes JSON on request', () => {
    const object = { metadata: { name: 'coredns', generation: 3, labels: { enabled: 'yes', port: '0x35', n: 'n' } }, immutable: true, data: { flag: 'on', exp: '1e3' } };
    const yaml = renderConfigMapWithCorefile(object, 'b {\n}\n');
    expect(load(yaml, { schema: YAML11_SCHEMA })).toEqual({ ...configMapWithCorefile(object, 'b {\n}\n') });
    expect(yaml).toContain('immutable: true\n');
    expect(yaml).toContain('    "n": "n"\n');
    expect(renderConfigMapWithCorefile(object, 'b {\n}\n', 'Corefile', { json: true })).toBe(`${JSON.stringify(configMapWithCorefile(object, 'b {\n}\n'), null, 4)}\n`);
  });

  it('law: every data key, label and annotation given comes back, read as kubectl and as this package read YAML, the Corefile replaced', () => {
    // Keys start with a letter: the input is written with quoted values only, and its keys must read as written.
    const key = fc.oneof(fc.stringMatching(/^[A-Za-z][A-Za-z0-9._-]{0,20}$/), fc.constantFrom('y', 'no', 'on', 'true', 'null'));
    const value = fc.oneof(fc.string(), fc.constantFrom('yes', 'no', 'on', '0x1F', '1e3', '~', 'null', '2001-12-14', '  lead\n', 'a\n\n', '#x', '- x', 'a: b'));
    const strings = fc.dictionary(key, value, { maxKeys: 6 });
    const corefileText = fc.oneof(fc.string(), fc.array(fc.stringMatching(/^[ -~]{0,20}$/), { minLength: 2, maxLength: 6 }).map((lines) => `${lines.join('\n')}\n`));
    const outcomes = new Outcomes<'key added' | 'key replaced' | 'literal block' | 'server fields'>();
    fc.assert(
      fc.property(strings, fc.option(fc.string()), strings, strings, corefileText, fc.subarray(['uid', 'resourceVersion', 'generation', 'creationTimestamp', 'selfLink', 'managedFields']), (others, old, labels, annotations, corefile, serverSet) => {
        const data = old === null ? others : { ...others, Corefile: old };
        const metadata: Record<string, unknown> = { name: 'coredns', namespace: 'kube-system', labels, annotations };
        for (const field of serverSet) metadata[field] = field === 'managedFields' ? [{ manager: 'kubectl' }] : 'set-by-server';
        const text = dump({ apiVersion: 'v1', kind: 'ConfigMap', metadata, data }, { schema: YAML11_SCHEMA, forceQuotes: true });
        const object = readConfigMap(text).object;
        if (object === undefined) throw new Error('expected a ConfigMap object');
        const yaml = renderConfigMapWithCorefile(object, corefile);
        expect({ ...readConfigMap(yaml).data }).toEqual({ ...data, Corefile: corefile });
        const asKubectl = load(yaml, { schema: YAML11_SCHEMA }) as { metadata: Record<string, unknown> };
        expect(asKubectl.metadata['labels']).toEqual(labels);
        expect(asKubectl.metadata['annotations']).toEqual(annotations);
        for (const field of serverSet) expect(asKubectl.metadata[field]).toBeUndefined();
        expect(serverSetFields(object)).toEqual(serverSet.map((field) => `metadata.${field}`));
        outcomes.add(old === null ? 'key added' : 'key replaced');
        if (serverSet.length > 0) outcomes.add('server fields');
        if (yaml.includes('Corefile: |')) outcomes.add('literal block');
      }),
      { numRuns: 300 },
    );
    outcomes.expectAtLeast({ 'key added': 20, 'key replaced': 100, 'literal block': 10, 'server fields': 100 });
  });
});
