import { describe, expect, it } from 'vitest';
import { diagnostic } from '../../src/diagnostics/diagnostic.js';
import { lintCorefile } from '../../src/lint/lint.js';
import { helmValueLocator, locateHelmDiagnostics } from '../../src/platform/helm-locate.js';
import { helmValuesPath, helmValuesSteps, readHelmValues, renderHelmValues } from '../../src/platform/helm-values.js';

/** Values with a finding in each kind of place: a plugin name, quoted parameters with an escape, a number, a config block's second line, extraConfig. */
const VALUES = [
  'extraConfig:',
  '  import:',
  '    parameters: /opt/coredns/*.conf',
  'servers:',
  '- zones:',
  '  - zone: acme.local',
  '  port: 5353',
  '  plugins:',
  '  - name: forwrd',
  '    parameters: . 10.0.0.1',
  '  - name: forward',
  '    parameters: ". \\"10.0.0.1\\" 10.0.0.300"',
  '  - name: kubernetes',
  '    parameters: cluster.local',
  '    configBlock: |-',
  '      pods insecure',
  '      ttl 7200',
  '  - name: prometheus',
  '    parameters: 9153',
  '',
].join('\n');

function rendered(text: string) {
  const values = readHelmValues(text);
  if (values === undefined) throw new Error('not values');
  return { values, render: renderHelmValues(values) };
}

/** The `FILE:LINE:COL key path` of each lint finding, placed in the values file. */
function placed(text: string, coredns = '1.14.7'): string[] {
  const { values, render } = rendered(text);
  const linted = lintCorefile(render.corefile ?? '', { coredns }).diagnostics;
  return locateHelmDiagnostics(linted, render, values, helmValueLocator(text, 'values.yaml')).map(
    (entry) => `${entry.code} ${entry.location === undefined ? '-' : `${entry.location.filename}:${entry.location.line}:${entry.location.column}`} ${entry.key}${entry.path ?? ''}${entry.position === undefined ? '' : ` @${entry.position.line}:${entry.position.column}`}`,
  );
}

describe('Helm values findings at the value that wrote them (#21 polish)', () => {
  it('places lint findings at the values path and its line and column in the values file', () => {
    expect(placed(VALUES)).toEqual([
      // About the extraConfig line as a whole: at its key.
      'import-not-checked values.yaml:2:3 extraConfig.import import',
      'unknown-directive values.yaml:9:11 servers[0].plugins[0].name [acme.local:5353] forwrd @1:1',
      // Inside a double-quoted value, past an escape (\" is two characters in the file, one in the value).
      'destination-hostname values.yaml:12:33 servers[0].plugins[1].parameters [acme.local:5353] forward > 10.0.0.300 @1:14',
      // The second line of a configBlock.
      'argument-invalid values.yaml:17:11 servers[0].plugins[2].configBlock [acme.local:5353] kubernetes > ttl @2:5',
      // A number: at its start (the template prints Go's float64, not the text of the file).
      'argument-invalid values.yaml:19:17 servers[0].plugins[3].parameters [acme.local:5353] prometheus @1:1',
    ]);
  });

  it('places them inside an RKE2 HelmChartConfig, through its valuesContent block', () => {
    const config = ['apiVersion: helm.cattle.io/v1', 'kind: HelmChartConfig', 'metadata:', '  name: rke2-coredns', 'spec:', '  valuesContent: |-', ...VALUES.trimEnd().split('\n').map((line) => `    ${line}`), ''].join('\n');
    // Six lines above the values, every line indented by 4 more.
    expect(placed(config)).toEqual([
      'import-not-checked values.yaml:8:7 extraConfig.import import',
      'unknown-directive values.yaml:15:15 servers[0].plugins[0].name [acme.local:5353] forwrd @1:1',
      'destination-hostname values.yaml:18:37 servers[0].plugins[1].parameters [acme.local:5353] forward > 10.0.0.300 @1:14',
      'argument-invalid values.yaml:23:15 servers[0].plugins[2].configBlock [acme.local:5353] kubernetes > ttl @2:5',
      'argument-invalid values.yaml:25:21 servers[0].plugins[3].parameters [acme.local:5353] prometheus @1:1',
    ]);
  });

  it("places the chart's traps at their key, and keeps every other field of a finding", () => {
    const text = 'servers:\n- zones:\n  - zone: .\n  plugins:\n  - name: forward\n    parameters: ". 10.0.0.53 { force_tcp }"\n';
    const { values, render } = rendered(text);
    const kept = { ...diagnostic('syntax-warning', { key: 'Corefile', path: ':9:9', position: { line: 9, column: 9 }, message: 'outside the Corefile' }), action: 'kept' as const };
    const located = locateHelmDiagnostics([...render.diagnostics, kept].map((entry) => ({ ...entry, action: 'kept' as const })), render, values, helmValueLocator(text, 'v.yaml'));
    expect(located.map((entry) => [entry.code, entry.key, entry.location?.line, entry.location?.column, entry.action])).toEqual([
      ['helm-port-missing', 'servers[0]', 2, 3, 'kept'],
      ['helm-value-breaks-corefile', 'servers[0].plugins[0].parameters', 6, 5, 'kept'],
      // A position the Corefile does not have: left as it was.
      ['syntax-warning', 'Corefile', undefined, undefined, 'kept'],
    ]);
    expect(Object.keys(located[0] ?? {})).toEqual(['code', 'severity', 'key', 'location', 'message', 'hint', 'action']);
  });

  it('maps positions of the rendered Corefile to values, and none where YAML read another text than the one rendered', () => {
    const render = (parameters: string) => renderHelmValues({ servers: [{ zones: [{ zone: '.' }], port: 53, plugins: [{ name: 'hosts', parameters }] }] });
    // A line break in a value, then 4 spaces: still inside the ConfigMap's block, read as a line of the Corefile.
    const broken = render('/etc/hosts\n    acme.local');
    expect(broken.corefile).toBe('.:53 {\n    hosts /etc/hosts\nacme.local\n}');
    expect(broken.origin({ line: 3, column: 1 })).toEqual({ path: ['servers', 0, 'plugins', 0, 'parameters'], offset: 15 });
    // A CR LF: YAML reads a line feed, so the Corefile is not the text rendered: no origin for any position.
    const crlf = render('a\r\n    b');
    expect(crlf.corefile).toBe('.:53 {\n    hosts a\nb\n}');
    expect([1, 2, 3].map((line) => crlf.origin({ line, column: 1 }))).toEqual([undefined, undefined, undefined]);
    const clean = rendered(VALUES).render;
    expect(clean.origin({ line: 1, column: 1 })).toEqual({ path: ['extraConfig', 'import'] });
    expect(clean.origin({ line: 1, column: 8 })).toEqual({ path: ['extraConfig', 'import', 'parameters'], offset: 0 });
    expect(clean.origin({ line: 2, column: 10 })).toEqual({ path: ['servers', 0, 'zones', 0, 'zone'], offset: 9 });
    expect(clean.origin({ line: 2, column: 11 })).toEqual({ path: ['servers', 0] });
    expect(clean.origin({ line: 2, column: 12 })).toEqual({ path: ['servers', 0, 'port'], offset: 0 });
    expect(clean.origin({ line: 99, column: 1 })).toBeUndefined();
  });

  it('writes and reads values paths', () => {
    for (const path of [['servers', 0, 'plugins', 3, 'parameters'], ['extraConfig', 'import'], ['servers']]) {
      expect(helmValuesSteps(helmValuesPath(path))).toEqual(path);
    }
    expect(helmValuesPath(['servers', 0, 'zones', 1, 'zone'])).toBe('servers[0].zones[1].zone');
  });
});
