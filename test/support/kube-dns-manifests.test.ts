import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readConfigMap } from '../../src/configmap/read-configmap.js';
import { configMapYaml, coreDnsConfigMapYaml } from './kube-dns-manifests.js';
import { Outcomes } from './outcomes.js';

/** The fixture builders write what they are given: the reader reads back the same ConfigMap. */
describe('configMapYaml', () => {
  it('reads back as the data, name and namespace it was built from, in every style', () => {
    const outcomes = new Outcomes<'block' | 'quoted'>();
    const value = fc.oneof(fc.string(), fc.array(fc.constantFrom('["8.8.8.8"]', '{"acme.local": ["10.0.0.1"]}', '  indented', '', 'a: b', '# not a comment'), { maxLength: 4 }).map((lines) => lines.join('\n')));
    fc.assert(
      fc.property(
        fc.dictionary(fc.stringMatching(/^[A-Za-z][A-Za-z0-9_.-]{0,12}$/), value, { maxKeys: 4 }),
        fc.constantFrom('block', 'quoted'),
        fc.constantFrom('flow', 'block'),
        fc.option(fc.constantFrom('kube-system', 'dns'), { nil: null }),
        (data, values, metadata, namespace) => {
          const document = readConfigMap(configMapYaml(data, { values, metadata, namespace }));
          expect(document.data).toEqual(data);
          expect([document.name, document.namespace]).toEqual(['kube-dns', namespace ?? undefined]);
          outcomes.add(values);
        },
      ),
      { numRuns: 300 },
    );
    outcomes.expectAtLeast({ block: 100, quoted: 100 });
  });

  it('writes the CoreDNS ConfigMap as kubectl prints it, the Corefile a literal block', () => {
    const corefile = '.:53 {\n    forward . 8.8.8.8\n}\n';
    expect(coreDnsConfigMapYaml(corefile, { otherKeys: { NodeHosts: '10.0.0.1 node1\n' } })).toBe(
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: coredns\n  namespace: kube-system\ndata:\n  Corefile: |\n    .:53 {\n        forward . 8.8.8.8\n    }\n  NodeHosts: |\n    10.0.0.1 node1\n',
    );
    expect(readConfigMap(coreDnsConfigMapYaml(corefile)).data).toEqual({ Corefile: corefile });
  });
});
