import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EKS_ADDON_PROPERTIES, eksProbeDiagnostics, readEksAddonConfiguration, renderEksAddonConfiguration } from '../../src/platform/eks-addon.js';
import { translateKubeDns } from '../../src/translate/translate.js';
import { kubeDnsData, validKubeDnsInput } from '../support/kube-dns-arbitraries.js';
import { Outcomes } from '../support/outcomes.js';

describe('the EKS add-on configurationValues', () => {
  it('law: -o eks-addon round-trips the translator\'s Corefile, holds only schema properties, and answers both probes', () => {
    const outcomes = new Outcomes<'translated' | 'refused'>();
    fc.assert(
      fc.property(validKubeDnsInput(), (input) => {
        const translation = translateKubeDns(kubeDnsData(input), { coredns: '1.11.3', dropFederations: true });
        if (translation.corefile === undefined) {
          outcomes.add('refused');
          return;
        }
        const text = renderEksAddonConfiguration(translation.corefile);
        const document = JSON.parse(text) as Record<string, unknown>;
        expect(Object.keys(document).every((key) => EKS_ADDON_PROPERTIES.includes(key))).toBe(true);
        expect(readEksAddonConfiguration(text)).toEqual({ corefile: translation.corefile, otherProperties: [], diagnostics: [] });
        expect(eksProbeDiagnostics(translation.corefile)).toEqual([]);
        outcomes.add('translated');
      }),
      { numRuns: 100 },
    );
    outcomes.expectAtLeast({ translated: 60 });
  });

  it('reads the YAML form, names properties the schema lacks, and is not fooled by a ConfigMap or a Corefile', () => {
    expect(readEksAddonConfiguration('replicaCount: 3\ncorefile: |\n  .:53 {\n      ready\n  }\n')).toEqual({ corefile: '.:53 {\n    ready\n}\n', otherProperties: ['replicaCount'], diagnostics: [] });
    expect(readEksAddonConfiguration('{"corefile": "x", "replicas": 2}')?.diagnostics.map((entry) => [entry.code, entry.key])).toEqual([['eks-addon-property-unknown', 'replicas']]);
    expect(readEksAddonConfiguration('{"kind": "ConfigMap", "data": {"Corefile": "x"}}')).toBeUndefined();
    expect(readEksAddonConfiguration('.:53 {\n    forward . 8.8.8.8\n}\n')).toBeUndefined();
    expect(eksProbeDiagnostics('.:53 {\n    health\n}\n').map((entry) => entry.message)).toEqual([expect.stringMatching(/^no server block has ready: /)]);
  });
});
