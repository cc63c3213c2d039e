import fc from 'fast-check';
import { load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { corefilesEqual } from '../../src/corefile/compare.js';
import type { Corefile } from '../../src/corefile/model.js';
import { parseCorefile } from '../../src/corefile/parser.js';
import { goPrint, helmValuesFromCorefile, readHelmValues, renderHelmValues } from '../../src/platform/helm-values.js';
import { translateKubeDns } from '../../src/translate/translate.js';
import { kubeDnsData, validKubeDnsInput } from '../support/kube-dns-arbitraries.js';
import { Outcomes } from '../support/outcomes.js';

/** The chart's default values (charts/coredns/values.yaml of chart 1.46.2), its servers part. */
const DEFAULT_VALUES = `servers:
- zones:
  - zone: .
    use_tcp: true
  port: 53
  plugins:
  - name: errors
  - name: health
    configBlock: |-
      lameduck 10s
  - name: ready
  - name: kubernetes
    parameters: cluster.local in-addr.arpa ip6.arpa
    configBlock: |-
      pods insecure
      fallthrough in-addr.arpa ip6.arpa
      ttl 30
  - name: prometheus
    parameters: 0.0.0.0:9153
  - name: forward
    parameters: . /etc/resolv.conf
  - name: cache
    parameters: 30
  - name: loop
  - name: reload
  - name: loadbalance
`;

function render(values: string) {
  const read = readHelmValues(values);
  if (read === undefined) throw new Error('not values');
  return renderHelmValues(read);
}

describe('renderHelmValues (chart 1.46.2 templates/configmap.yaml)', () => {
  it('renders the chart default as the chart does: a |- block, 12-space config blocks, no final line feed', () => {
    const result = render(DEFAULT_VALUES);
    expect(result.diagnostics).toEqual([]);
    expect(result.corefile).toBe(
      '.:53 {\n    errors\n    health {\n        lameduck 10s\n    }\n    ready\n    kubernetes cluster.local in-addr.arpa ip6.arpa {\n        pods insecure\n        fallthrough in-addr.arpa ip6.arpa\n        ttl 30\n    }\n    prometheus 0.0.0.0:9153\n    forward . /etc/resolv.conf\n    cache 30\n    loop\n    reload\n    loadbalance\n}',
    );
  });

  it("matches the chart's own unit test (tests/configmap_test.yaml): a scheme '.' and a port", () => {
    const result = render('servers:\n- zones:\n  - zone: "example.com"\n    scheme: "."\n  port: 5353\n  plugins:\n  - name: forward\n    parameters: ". 8.8.8.8"\n');
    expect(result.corefile).toMatch(/example\.com:5353 \{/);
    expect(result.corefile).toMatch(/forward \. 8\.8\.8\.8/);
    expect(result.corefile).toBe('.example.com:5353 {\n    forward . 8.8.8.8\n}');
  });

  it('renders extraConfig sorted, missing zones as ., and each trap as a finding', () => {
    const result = render(
      'extraConfig:\n  z: {parameters: x}\n  import: {parameters: /opt/coredns/*.conf}\nservers:\n- plugins:\n  - name: whoami\n- zones: [{zone: a.local}, {zone: b.local}]\n  port: 5353\n  plugins:\n  - name: cache\n    parameters: 1000000\n  - name: template\n    parameters: "IN A a.local"\n    configBlock: |-\n      answer "{{ .Name }} 60 IN A 10.0.0.1"\n  - name: forward\n    parameters: ". 10.0.0.1 { force_tcp }"\n',
    );
    expect(result.corefile?.split('\n').slice(0, 4)).toEqual(['import /opt/coredns/*.conf', 'z x', '.{', '    whoami']);
    expect(result.corefile).toContain('a.local b.local:5353 {\n    cache 1e+06\n');
    expect(result.diagnostics.map((entry) => [entry.code, entry.key])).toEqual([
      ['helm-port-missing', 'servers[0]'],
      ['helm-port-last-zone-only', 'servers[1]'],
      ['helm-value-printed-otherwise', 'servers[1].plugins[0].parameters'],
      ['helm-template-braces', 'servers[1].plugins[1].configBlock'],
      ['helm-value-breaks-corefile', 'servers[1].plugins[2].parameters'],
    ]);
  });

  it('prints numbers as Go prints a float64', () => {
    expect([30, 3600, 100000, 1000000, 1234567, 0.5, 0.00001, true].map(goPrint)).toEqual(['30', '3600', '100000', '1e+06', '1.234567e+06', '0.5', '1e-05', 'true']);
  });

  it('reads the values of an RKE2 HelmChartConfig', () => {
    const config = `apiVersion: helm.cattle.io/v1\nkind: HelmChartConfig\nmetadata:\n  name: rke2-coredns\n  namespace: kube-system\nspec:\n  valuesContent: |-\n${DEFAULT_VALUES.split('\n').map((line) => `    ${line}`).join('\n')}\n`;
    expect(render(config).corefile).toBe(render(DEFAULT_VALUES).corefile);
  });
});

/**
 * The Corefile model with every server key's port written out: the chart writes the port after
 * the last zone only (`. cluster.local:53 {`), and a key without port is on 53, the same
 * configuration as `.:53 cluster.local:53 {`.
 */
/** The value at `path` of parsed values. */
function valueAt(values: unknown, path: readonly (string | number)[]): unknown {
  return path.reduce<unknown>((value, step) => (typeof value === 'object' && value !== null ? (value as Record<string | number, unknown>)[step] : undefined), values);
}

function withPorts(text: string): Corefile {
  const { corefile } = parseCorefile(text);
  return { ...corefile, items: corefile.items.map((item) => (item.kind === 'server-block' ? { ...item, keys: item.keys.map((key) => (/:\d+$/.test(key) ? key : `${key}:53`)) } : item)) };
}

describe('helmValuesFromCorefile (-o helm-values)', () => {
  it('law: the values rendered by the chart give the translator\'s Corefile back (the same configuration)', () => {
    const outcomes = new Outcomes<'same' | 'refused' | 'stubs'>();
    fc.assert(
      fc.property(validKubeDnsInput(), (input) => {
        const translation = translateKubeDns(kubeDnsData(input), { coredns: '1.13.1', dropFederations: true });
        if (translation.corefile === undefined) {
          outcomes.add('refused');
          return;
        }
        const written = helmValuesFromCorefile(translation.corefile);
        expect(written.diagnostics).toEqual([]);
        const values = load(written.values ?? '') as Record<string, unknown>;
        const rendered = renderHelmValues(values);
        expect(rendered.diagnostics).toEqual([]);
        expect(corefilesEqual(withPorts(rendered.corefile ?? ''), withPorts(translation.corefile)), `${written.values}\n---\n${rendered.corefile}\n---\n${translation.corefile}`).toBe(true);
        // Every character the chart wrote comes from a value, and one printed from a value is that value's character there.
        const misplaced: string[] = [];
        (rendered.corefile ?? '').split('\n').forEach((line, index) => {
          [...line].forEach((character, column) => {
            if (character === ' ') return;
            const origin = rendered.origin({ line: index + 1, column: column + 1 });
            const printed = origin?.offset === undefined ? undefined : goPrint(valueAt(values, origin.path)).slice(origin.offset, origin.offset + character.length);
            if (origin === undefined || (printed !== undefined && printed !== character)) misplaced.push(`${index + 1}:${column + 1} ${character} ${JSON.stringify(origin)}`);
          });
        });
        expect(misplaced, rendered.corefile).toEqual([]);
        outcomes.add('same');
        if ((values['servers'] as unknown[]).length > 1) outcomes.add('stubs');
      }),
      { numRuns: 100 },
    );
    outcomes.expectAtLeast({ same: 60, stubs: 30 });
  });
});
