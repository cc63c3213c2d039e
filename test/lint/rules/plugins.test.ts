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

  it('reports a name no release has once, and nothing more about it', () => {
    expect(findings('a.org {\n    alias\n}\nb.org {\n    alias\n    bind 127.0.0.1\n}\n', '1.0.0')).toEqual(['plugin-without-facts@2:5/info']);
    expect(lintCorefile('. {\n    alias\n}\n', { coredns: '1.0.0' }).diagnostics[0]?.message).toContain("no version facts are recorded for plugin 'alias'");
  });

  it('knows every plugin of every release from plugin.cfg', () => {
    expect(findings('a.org {\n    whoami\n    bind 127.0.0.1\n}\n', '1.0.0')).toEqual([]);
    expect(findings('a.org {\n    dns64\n}\n', '1.6.9')).toEqual(['plugin-not-yet-added@2:5/error']);
    expect(findings('a.org {\n    transfer\n}\n', '1.6.5')).toEqual([]);
    expect(findings('a.org {\n    reverse 10.0.0.0/8\n}\n', '1.1.4')).toEqual(['plugin-removed@2:5/error']);
  });
});
