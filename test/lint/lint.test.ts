import { describe, expect, it } from 'vitest';
import { CorefileSyntaxError } from '../../src/corefile/errors.js';
import { DIAGNOSTIC_CODES } from '../../src/diagnostics/codes.js';
import { formatDiagnostic } from '../../src/diagnostics/diagnostic.js';
import { lintCorefile, lintParsedCorefile } from '../../src/lint/index.js';
import { UnresolvedCoreDnsReleaseError } from '../../src/coredns/resolve-release.js';
import { findings, main } from '../support/lint-findings.js';
import { coreDnsConfigMapYaml } from '../support/kube-dns-manifests.js';

/** The linter as a whole; each rule group has its own file in test/lint/rules/. */
describe('lintCorefile', () => {
  it('gives every diagnostic key Corefile, a position and a path that starts with it', () => {
    const { diagnostics, ok, coredns } = lintCorefile('.:53 {\n    proxy . 8.8.8.8\n    ready\n}\nAcme.local:53 {\n    forward .\n}\n', { coredns: '1.6.7' });
    expect(ok).toBe(false);
    expect(coredns).toBe('1.6.7');
    expect(diagnostics.length).toBeGreaterThan(2);
    for (const entry of diagnostics) {
      expect(entry.key).toBe('Corefile');
      expect(entry.position).toBeDefined();
      expect(entry.path?.startsWith(`:${entry.position?.line}:${entry.position?.column} `)).toBe(true);
      expect(DIAGNOSTIC_CODES[entry.code].area).toBe('lint');
    }
    expect(diagnostics.map(formatDiagnostic)[0]).toBe(
      `error plugin-removed Corefile:2:5 [.:53] proxy: plugin 'proxy' was removed in CoreDNS 1.5.0: CoreDNS 1.6.7 stops with "Unknown directive 'proxy'"; use forward instead`,
    );
  });

  it('throws an input error naming readConfigMap when given a ConfigMap instead of a Corefile', () => {
    const configMap = coreDnsConfigMapYaml('.:53 {\n    forward . 10.0.0.2\n}\n', { namespace: null });
    expect(() => lintCorefile(configMap, { filename: 'coredns.yaml' })).toThrow(
      expect.objectContaining({ name: 'ConfigMapInputError', code: 'configmap-given', message: expect.stringMatching(/^coredns\.yaml: lintCorefile takes Corefile text, .*readConfigMap\(text\)/) }),
    );
    expect(() => lintCorefile(JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', data: { Corefile: '.:53 {\n}\n' } }))).toThrow(expect.objectContaining({ code: 'configmap-given' }));
  });

  it('orders findings by position', () => {
    const { diagnostics } = lintCorefile('b.org:5353 {\n    forward . 10.0.0.1\n}\n.:53 {\n    forward . 127.0.0.1\n    loop\n}\nB.ORG:5353 {\n}\n', { coredns: '1.14.7' });
    const positions = diagnostics.map((entry) => (entry.position?.line ?? 0) * 1000 + (entry.position?.column ?? 0));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it('is clean for the Kubernetes default of each era', () => {
    expect(findings(main('    cache 30\n    loop\n    reload\n    loadbalance\n'), '1.14.7')).toEqual([]);
    expect(findings('.:53 {\n    errors\n    health\n    kubernetes cluster.local in-addr.arpa ip6.arpa {\n        pods insecure\n        upstream\n        fallthrough in-addr.arpa ip6.arpa\n    }\n    prometheus :9153\n    proxy . /etc/resolv.conf\n    cache 30\n    loop\n    reload\n    loadbalance\n}\n', '1.2.6')).toEqual([
      'resolv-conf-loop-risk@10:13/info',
    ]);
  });

  it('throws the syntax error and refuses unknown versions', () => {
    expect(() => lintCorefile('. {\n    whoami }\n')).toThrow(CorefileSyntaxError);
    expect(() => lintCorefile('. {\n}\n', { coredns: '1.4.1' })).toThrow(UnresolvedCoreDnsReleaseError);
  });

  it('lints a model without positions at 1:1', () => {
    const result = lintParsedCorefile({ items: [{ kind: 'server-block', keys: ['.'], directives: [{ name: 'proxy', arguments: ['.', '1.1.1.1'] }] }] });
    expect(result.diagnostics.map((entry) => `${entry.code} ${entry.path}`)).toEqual(['plugin-removed :1:1 [.] proxy']);
    const custom = lintParsedCorefile({ items: [{ kind: 'server-block', keys: ['.'], directives: [{ name: 'proxy', arguments: ['.', '1.1.1.1'] }] }] }, { plugins: ['proxy'] });
    expect(custom.diagnostics.map((entry) => `${entry.code} ${entry.path}`)).toEqual(['plugin-without-facts :1:1 [.] proxy']);
  });

  it('turns parser warnings into syntax-warning', () => {
    expect(findings('a.org,b.org {\n    forward . 10.0.0.1\n}\n')).toEqual(['syntax-warning@1:1/warning']);
  });
});
