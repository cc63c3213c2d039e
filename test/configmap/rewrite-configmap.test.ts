import fc from 'fast-check';
import { CORE_SCHEMA, dump, load, YAML11_SCHEMA } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { readConfigMap } from '../../src/configmap/read-configmap.js';
import { rewriteConfigMap, SERVER_SET_METADATA } from '../../src/configmap/rewrite-configmap.js';
import { Outcomes } from '../support/outcomes.js';

/** What `kubectl -n kube-system get configmap coredns -o yaml` prints on a k3s server, abridged. */
const K3S_CONFIGMAP = `apiVersion: v1
data:
  Corefile: |
    .:53 {
        errors
        hosts /etc/coredns/NodeHosts {
          ttl 60
          reload 15s
          fallthrough
        }
        forward . /etc/resolv.conf
    }
  NodeHosts: |
    172.18.0.2 k3d-server-0
kind: ConfigMap
metadata:
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {"apiVersion":"v1","kind":"ConfigMap"}
    objectset.rio.cattle.io/applied: H4sIAAAAAAAA
    objectset.rio.cattle.io/owner-gvk: k3s.cattle.io/v1, Kind=Addon
  creationTimestamp: "2026-11-30T09:12:44Z"
  labels:
    objectset.rio.cattle.io/hash: bce283298811743a0386ab510f2f67ef74240c57
  managedFields:
  - apiVersion: v1
    fieldsType: FieldsV1
    manager: deploy@k3d-server-0
    operation: Update
  name: coredns
  namespace: kube-system
  resourceVersion: "2847"
  uid: 5e0e6a8c-3a53-4a4e-9b0e-2d6f1f3c1a9e
`;

describe('rewriteConfigMap', () => {
  it('replaces the Corefile and keeps the other keys, the labels and the annotations; the server-set fields go', () => {
    const rewrite = rewriteConfigMap(K3S_CONFIGMAP, { Corefile: '.:53 {\n    errors\n}\n' });
    const object = load(rewrite.text, { schema: CORE_SCHEMA }) as Record<string, Record<string, unknown>>;
    expect(object['data']).toEqual({ Corefile: '.:53 {\n    errors\n}\n', NodeHosts: '172.18.0.2 k3d-server-0\n' });
    expect(object['metadata']).toEqual({
      annotations: { 'objectset.rio.cattle.io/applied': 'H4sIAAAAAAAA', 'objectset.rio.cattle.io/owner-gvk': 'k3s.cattle.io/v1, Kind=Addon' },
      labels: { 'objectset.rio.cattle.io/hash': 'bce283298811743a0386ab510f2f67ef74240c57' },
      name: 'coredns',
      namespace: 'kube-system',
    });
    expect(rewrite.dropped).toEqual([
      'metadata.uid',
      'metadata.resourceVersion',
      'metadata.creationTimestamp',
      'metadata.managedFields',
      'metadata.annotations.kubectl.kubernetes.io/last-applied-configuration',
    ]);
    expect(rewrite.changed).toEqual(['Corefile']);
    expect(rewrite).toMatchObject({ name: 'coredns', namespace: 'kube-system', immutableConflict: false });
    // The Corefile stays a readable literal block, the keys in the order they came.
    expect(rewrite.text).toContain('data:\n  Corefile: |\n    .:53 {\n        errors\n    }\n  NodeHosts: |\n');
    expect(rewrite.text.startsWith('apiVersion: v1\ndata:\n')).toBe(true);
  });

  it('writes JSON back as JSON, as kubectl -o json prints it', () => {
    const json = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'coredns', uid: 'x' }, data: { Corefile: 'a {\n}\n' } });
    const rewrite = rewriteConfigMap(json, { Corefile: 'b {\n}\n' });
    expect(rewrite.text).toBe('{\n    "apiVersion": "v1",\n    "kind": "ConfigMap",\n    "metadata": {\n        "name": "coredns"\n    },\n    "data": {\n        "Corefile": "b {\\n}\\n"\n    }\n}\n');
  });

  it('picks the ConfigMap among several, adds the kind a ConfigMapList item lacks, and names an immutable one', () => {
    const list = JSON.stringify({
      kind: 'ConfigMapList',
      items: [
        { metadata: { name: 'other' }, data: { a: 'b' } },
        { metadata: { name: 'coredns', namespace: 'kube-system' }, immutable: true, data: { Corefile: 'a {\n}\n' } },
      ],
    });
    const rewrite = rewriteConfigMap(list, { Corefile: 'b {\n}\n' }, { preferredNames: ['coredns'] });
    expect(JSON.parse(rewrite.text)).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'coredns', namespace: 'kube-system' }, immutable: true, data: { Corefile: 'b {\n}\n' } });
    expect(rewrite.immutableConflict).toBe(true);
    expect(rewriteConfigMap(list, { Corefile: 'a {\n}\n' }, { preferredNames: ['coredns'] })).toMatchObject({ changed: [], immutableConflict: false });
  });

  it('makes a bare data map a whole ConfigMap', () => {
    const rewrite = rewriteConfigMap('Corefile: |\n  a {\n  }\nextra: x\n', { Corefile: 'b {\n}\n' });
    expect(load(rewrite.text)).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'coredns', namespace: 'kube-system' }, data: { Corefile: 'b {\n}\n', extra: 'x' } });
  });

  it('quotes what YAML 1.1 (kubectl) would read as another type', () => {
    const text = 'kind: ConfigMap\nmetadata:\n  name: coredns\n  labels:\n    enabled: "yes"\n    port: "0x35"\ndata:\n  Corefile: "a {\\n}\\n"\n  flag: "on"\n';
    const rewrite = rewriteConfigMap(text, { Corefile: 'b {\n}\n' });
    const asKubectl = load(rewrite.text, { schema: YAML11_SCHEMA }) as { metadata: { labels: Record<string, unknown> }; data: Record<string, unknown> };
    expect(asKubectl.metadata.labels).toEqual({ enabled: 'yes', port: '0x35' });
    expect(asKubectl.data['flag']).toBe('on');
    // Booleans and numbers stay what they are.
    const typed = rewriteConfigMap('kind: ConfigMap\nmetadata:\n  name: coredns\n  generation: 3\nimmutable: true\ndata:\n  Corefile: "a {\\n}\\n"\n', { Corefile: 'b {\n}\n' });
    expect(typed.text).toBe('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: coredns\nimmutable: true\ndata:\n  Corefile: |\n    b {\n    }\n');
  });

  it('law: every data key, label and annotation given comes back, with the replaced key changed and nothing else', () => {
    // Keys start with a letter: the input is written with quoted values only, and its keys must read as written.
    const key = fc.oneof(fc.stringMatching(/^[A-Za-z][A-Za-z0-9._-]{0,20}$/), fc.constantFrom("y", "no", "on", "true", "null"));
    const value = fc.oneof(fc.string(), fc.constantFrom('yes', 'no', 'on', '0x1F', '1e3', '~', 'null', '2001-12-14', '  lead\n', 'a\n\n', '#x', '- x', 'a: b'));
    const strings = fc.dictionary(key, value, { maxKeys: 6 });
    const corefileText = fc.oneof(fc.string(), fc.array(fc.stringMatching(/^[ -~]{0,20}$/), { minLength: 2, maxLength: 6 }).map((lines) => `${lines.join('\n')}\n`));
    const outcomes = new Outcomes<'key added' | 'key replaced' | 'json' | 'yaml' | 'literal block'>();
    fc.assert(
      fc.property(strings, fc.option(fc.string()), strings, strings, corefileText, fc.boolean(), fc.subarray([...SERVER_SET_METADATA]), (others, old, labels, annotations, corefile, asJson, serverSet) => {
        const data = old === null ? others : { ...others, Corefile: old };
        const metadata: Record<string, unknown> = { name: 'coredns', namespace: 'kube-system', labels, annotations };
        for (const field of serverSet) metadata[field] = field === 'managedFields' ? [{ manager: 'kubectl' }] : 'set-by-server';
        const object = { apiVersion: 'v1', kind: 'ConfigMap', metadata, data };
        const text = asJson ? JSON.stringify(object) : dump(object, { schema: YAML11_SCHEMA, forceQuotes: true });
        const rewrite = rewriteConfigMap(text, { Corefile: corefile });
        const back = readConfigMap(rewrite.text);
        expect(back.data).toEqual({ ...data, Corefile: corefile });
        const written = load(rewrite.text, { schema: YAML11_SCHEMA }) as { metadata: Record<string, unknown> };
        expect(written.metadata['labels']).toEqual(labels);
        expect(written.metadata['annotations']).toEqual(Object.keys(annotations).length === 0 ? undefined : annotations);
        for (const field of SERVER_SET_METADATA) expect(written.metadata[field]).toBeUndefined();
        expect(rewrite.dropped).toEqual(serverSet.map((field) => `metadata.${field}`));
        outcomes.add(data['Corefile'] === undefined ? 'key added' : 'key replaced');
        outcomes.add(asJson ? 'json' : 'yaml');
        if (rewrite.text.includes('Corefile: |')) outcomes.add('literal block');
        expect(rewrite.text.startsWith('{')).toBe(asJson);
      }),
      { numRuns: 300 },
    );
    outcomes.expectAtLeast({ 'key added': 20, 'key replaced': 100, json: 50, yaml: 50, 'literal block': 10 });
  });
});
