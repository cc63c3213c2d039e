import { describe, expect, it } from 'vitest';
import { parseCorefile } from '../../../src/corefile/parser.js';
import { lintCorefile } from '../../../src/lint/lint.js';
import { fanOutCorefile, snippetChain } from '../../support/hostile-inputs.js';
import { findings } from '../../support/lint-findings.js';

describe('snippets and imports', () => {
  it('checks imported snippets in the context of each block, and their directives once', () => {
    const text = '(common) {\n    errors\n    loop\n    ready\n}\n.:53 {\n    import common\n    forward . 127.0.0.1\n}\nacme.local:53 {\n    import common\n    forward . /etc/resolv.conf\n}\n';
    expect(findings(text, '1.4.0')).toEqual(['plugin-not-yet-added@4:5/error', 'loopback-destination@8:15/error', 'resolv-conf-loop-risk@12:15/info']);
    const { diagnostics } = lintCorefile(text, { coredns: '1.4.0' });
    expect(diagnostics[0]?.path).toBe(':4:5 [(common)] ready');
  });

  it('counts forwards that snippets bring into a block', () => {
    const text = '(up) {\n    forward . 8.8.8.8\n}\n.:53 {\n    import up\n    forward acme.local 10.0.0.1\n}\n';
    const { diagnostics } = lintCorefile(text, { coredns: '1.8.0' });
    expect(diagnostics.map((entry) => `${entry.code} ${entry.path}`)).toEqual(['forward-once-per-block :6:5 [.:53] forward']);
  });

  it('does not lint unused snippets, and reports file imports and late snippets', () => {
    expect(findings('(unused) {\n    proxy . 1.1.1.1\n}\n. {\n}\n')).toEqual([]);
    expect(findings('. {\n    import later\n}\n(later) {\n    proxy . 1.1.1.1\n}\n')).toEqual(['import-not-checked@2:5/info']);
    expect(lintCorefile('. {\n    import later\n}\n(later) {\n}\n').diagnostics[0]?.message).toContain('defined after this block');
  });

  it('survives snippets that import each other', () => {
    const text = '(a) {\n    import b\n}\n(b) {\n    import a\n}\n. {\n    import b\n}\n';
    expect(() => parseCorefile(text)).not.toThrow();
    expect(() => lintCorefile(text)).not.toThrow();
  });
});

describe('snippets at any depth, within the expansion bound', () => {
  it('follows a proxy 11 snippets deep (CoreDNS 1.14.7 refuses it; lint stopped at 10 levels)', () => {
    expect(findings(snippetChain(11, 'proxy . 10.0.0.1'), '1.14.7')).toEqual(['plugin-removed@2:5/error']);
    expect(findings(snippetChain(500, 'proxy . 10.0.0.1'), '1.14.7')).toEqual(['plugin-removed@2:5/error']);
  });

  it('refuses a snippet fan-out of 60 million directives at the import past the bound, quickly', () => {
    const { diagnostics, ok } = lintCorefile(fanOutCorefile(6, 10), { coredns: '1.14.7' });
    expect(ok).toBe(false);
    expect(diagnostics.map((entry) => `${entry.severity} ${entry.code} ${entry.path}`)).toEqual(['error snippet-expansion-limit :10:5 [.:53] [(s1)] import']);
    expect(diagnostics[0]?.message).toMatch(/; CoreDNS 1\.14\.7 refuses to start$/);
    expect(lintCorefile(fanOutCorefile(6, 10), { coredns: '1.8.0' }).diagnostics[0]?.message).toMatch(/; CoreDNS 1\.8\.0 expands them without a bound \(1\.13\.0 and later refuse to start\); what lies beyond was not linted$/);
    // A larger fan-out costs no more: the work stops at the bound.
    expect(lintCorefile(fanOutCorefile(50, 40)).diagnostics.map((entry) => entry.code)).toEqual(['snippet-expansion-limit']);
  });
});
