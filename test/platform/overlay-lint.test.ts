import { describe, expect, it } from 'vitest';
import { readConfigMap } from '../../src/configmap/read-configmap.js';
import { formatDiagnostic } from '../../src/diagnostics/diagnostic.js';
import { PLATFORM_BASES } from '../../src/platform/bases.js';
import type { PlatformName } from '../../src/platform/bases.js';
import { lintOverlay } from '../../src/platform/overlay-lint.js';
import { configMapYaml } from '../support/kube-dns-manifests.js';

function lint(platform: PlatformName, text: string, coredns?: string) {
  const base = PLATFORM_BASES[platform];
  const { data } = readConfigMap(text);
  const result = lintOverlay({ ...base, corefile: base.corefile() }, data, { text, ...(coredns === undefined ? {} : { coredns }) });
  // The base's own resolv.conf note is the same for every overlay.
  return { ok: result.ok, findings: result.diagnostics.filter((entry) => entry.code !== 'resolv-conf-loop-risk').map(formatDiagnostic) };
}

/** A coredns-custom ConfigMap whose data is written as given: the documented examples, as their pages print them. */
const configMap = (data: string) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: coredns-custom\n  namespace: kube-system\ndata:\n${data}`;
/** A coredns-custom ConfigMap holding `data`, each value a literal block. */
const overlay = (data: Readonly<Record<string, string>>) => configMapYaml(data, { name: 'coredns-custom', metadata: 'block', values: 'block' });

describe('lintOverlay', () => {
  const k3sDocs = overlay({ 'example-com.override': 'forward example.com 10.0.0.1\n' });

  it("k3s's documented forward override works on the current base, is shadowed on the old one, and stops CoreDNS before 1.9.4", () => {
    expect(lint('k3s', k3sDocs)).toEqual({ ok: true, findings: [] });
    expect(lint('k3s-legacy', k3sDocs).findings).toEqual([
      "warning overlay-forward-shadowed coredns-custom[example-com.override]:1:1 [.:53] forward: forward example.com never sees a query: the k3s (before k3s-io/k3s#12980) base's forward . (line 15) comes first in block .:53 and takes every name under example.com (from CoreDNS 1.9.4 several forwards are tried in the order written)",
    ]);
    const old = lint('k3s-legacy', k3sDocs, '1.8.0');
    expect(old.ok).toBe(false);
    expect(old.findings).toEqual([
      'error overlay-override-refused coredns-custom[example-com.override]:1:1 [.:53] forward: forward is already in block .:53 (k3s (before k3s-io/k3s#12980) base line 15): CoreDNS 1.8.0 allows it once per server block and stops with "this plugin can only be used once per Server Block" (a second forward is allowed from CoreDNS 1.9.4)',
    ]);
  });

  it("AKS's documented examples that work get no finding", () => {
    const working = configMap(
      [
        '  puglife.server: |',
        '    puglife.local:53 {',
        '        errors',
        '        cache 30',
        '        forward . 192.11.0.1',
        '    }',
        '  test.override: |',
        '        hosts {',
        '          10.0.0.1 example1.org',
        '          fallthrough',
        '        }',
        '  log.override: |',
        '        log',
        '',
      ].join('\n'),
    );
    expect(lint('aks', working)).toEqual({ ok: true, findings: [] });
  });

  it('finds each known trap, at the key and line where it is written', () => {
    expect(lint('aks', overlay({ 'cache.override': 'log\ncache 300\n' })).findings).toEqual([
      'error overlay-override-refused coredns-custom[cache.override]:2:1 [.:53] cache: cache is already in block .:53 (AKS base line 14): CoreDNS 1.14.7 allows it once per server block and stops with "this plugin can only be used once per Server Block"',
    ]);
    expect(lint('aks', overlay({ 'forward.override': 'forward . 10.1.2.3\n' })).findings).toEqual([
      "warning overlay-forward-shadowed coredns-custom[forward.override]:1:1 [.:53] forward: forward . never sees a query: the AKS base's forward . (line 13) comes first in block .:53 and takes every name under . (from CoreDNS 1.9.4 several forwards are tried in the order written)",
    ]);
    expect(lint('aks', overlay({ 'root.server': '.:53 {\n    forward . 8.8.8.8\n}\n' })).findings[0]).toMatch(/^error overlay-zone-redefined coredns-custom\[root\.server\]:1:1 .*: a \.server key defines a zone the AKS base already serves: /);
    expect(lint('aks', overlay({ 'test.server': 'example.com:53 {\n    forward foo.com 1.1.1.1\n}\n' })).findings[0]).toMatch(/^warning forward-from-outside-zones coredns-custom\[test\.server\]:2:5 \[example\.com:53\] forward: forward handles names under .foo\.com\.. only/);
    expect(lint('aks', overlay({ 'zone.db': '$ORIGIN example.com.\n' })).findings).toEqual([
      "warning overlay-key-not-imported coredns-custom[zone.db]: 'zone.db' ends in neither .server nor .override, so it is not imported, and no plugin reads the file /etc/coredns/custom/zone.db (AKS imports only keys ending in .server or .override; any other key is not read)",
    ]);
    const used = overlay({ 'zone.db': '$ORIGIN example.com.\n', 'zone.server': 'example.com:53 {\n    file /etc/coredns/custom/zone.db\n}\n' });
    expect(lint('k3s', used).findings.filter((finding) => finding.includes('zone.db'))).toEqual([
      "info overlay-key-not-imported coredns-custom[zone.db]: 'zone.db' ends in neither .server nor .override, so it is not imported; a plugin reads it as the file /etc/coredns/custom/zone.db (k3s mounts every key as a file under /etc/coredns/custom, for plugins such as file to read; only *.server and *.override are imported)",
    ]);
  });

  it("finds a key YAML folded into one line (the AKS doc's override-block.server without '|'), and the syntax error it causes", () => {
    const folded = configMap('  override-block.server:\n     internal.cloudapp.net:53 {\n         errors\n         forward . /etc/resolv.conf\n     }\n');
    const result = lint('aks', folded);
    expect(result.ok).toBe(false);
    expect(result.findings[0]).toBe(
      'error overlay-key-folded coredns-custom[override-block.server]:1:1: \'override-block.server\' is written over several lines without \'|\': YAML folded them into one line ("internal.cloudapp.net:53 { errors forward . /etc/resolv.c..."), which CoreDNS reads as one directive',
    );
    expect(result.findings[1]).toMatch(/^error overlay-syntax-error coredns-custom\[override-block\.server\]:1:\d+: the composed Corefile does not parse/);
  });

  it("does not stop at the syntax error a folded key causes: the other keys' traps are still found", () => {
    const text = configMap('  bad.server: example.org:53 {\n      forward . 10.0.0.1\n    }\n  cache.override: |\n    cache 300\n  zone.db: x\n');
    const codes = lint('aks', text).findings.map((finding) => finding.split(' ').slice(0, 3).join(' '));
    expect(codes).toEqual([
      'error overlay-key-folded coredns-custom[bad.server]:1:1:',
      "warning overlay-key-not-imported coredns-custom[zone.db]:",
      expect.stringMatching(/^error overlay-syntax-error coredns-custom\[bad\.server\]:1:\d+:$/),
      expect.stringMatching(/^error overlay-override-refused coredns-custom\[cache\.override\]:1:1$/),
    ]);
  });
});
