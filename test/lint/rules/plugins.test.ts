import { describe, expect, it } from 'vitest';
import { lintCorefile } from '../../../src/lint/lint.js';
import { findings, main } from '../../support/lint-findings.js';

describe('plugin availability', () => {
  it('follows the version matrix', () => {
    expect(findings(main('    ready\n'), '1.4.0')).toEqual(['plugin-not-yet-added@5:5/error']);
    expect(findings(main('    loop\n'), '1.2.0')).toEqual(['plugin-not-yet-added@5:5/error']);
    expect(findings('.:53 {\n    federation cluster.local {\n        a b.com\n    }\n    kubernetes cluster.local\n}\n', '1.7.0')).toEqual(['plugin-removed@2:5/error']);
    expect(findings('.:53 {\n    federation cluster.local {\n        a b.com\n    }\n    kubernetes cluster.local\n}\n', '1.6.2')).toEqual([]);
    expect(findings('.:53 {\n    startup whoami\n}\n', '1.0.6')).toEqual(['plugin-deprecated@2:5/info']);
    expect(findings('.:53 {\n    forward . 8.8.8.8\n}\n', '1.0.5')).toEqual(['version-caveat@2:5/info']);
    expect(findings('.:53 {\n    forward . 8.8.8.8\n}\n', '1.0.4')).toEqual(['plugin-not-yet-added@2:5/error']);
  });

  it('reports a plugin without facts once, and nothing more about it', () => {
    expect(findings('a.org {\n    whoami\n}\nb.org {\n    whoami\n    bind 127.0.0.1\n}\n', '1.0.0')).toEqual(['plugin-without-facts@2:5/info', 'plugin-without-facts@6:5/info']);
    expect(lintCorefile('. {\n    bind 10.0.0.1\n}\n', { coredns: '1.0.0' }).diagnostics[0]?.message).toContain('confirmed in CoreDNS 1.0.5 and later only');
  });
});
