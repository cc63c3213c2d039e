import { describe, expect, it } from 'vitest';
import { compiledPlugins } from '../../../src/coredns/plugin-cfg.js';
import { COREDNS_VERSIONS } from '../../../src/coredns/versions.js';
import { lintCorefile } from '../../../src/lint/lint.js';
import { findings, main } from '../../support/lint-findings.js';

const block = (directive: string) => `.:53 {\n    ${directive}\n}\n`;
const message = (text: string, coredns?: string, plugins?: readonly string[]) =>
  lintCorefile(text, { ...(coredns === undefined ? {} : { coredns }), ...(plugins === undefined ? {} : { plugins }) }).diagnostics.map((entry) => entry.message);

/** The codes that say "this build has no such directive". */
const ABSENT = new Set(['plugin-removed', 'plugin-not-yet-added', 'unknown-directive']);

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

  it('knows every plugin of every release: none of them is reported absent where plugin.cfg has it', () => {
    let checked = 0;
    for (const version of COREDNS_VERSIONS) {
      for (const plugin of compiledPlugins(version)) {
        const codes = lintCorefile(block(plugin.name), { coredns: version }).diagnostics.map((entry) => entry.code);
        expect(codes.some((code) => ABSENT.has(code)), `${plugin.name} @${version}`).toBe(plugin.placeholder === true);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(3000);
  });

  it('says where a plugin the target lacks arrives or left', () => {
    expect(findings(block('dns64'), '1.6.9')).toEqual(['plugin-not-yet-added@2:5/error']);
    expect(message(block('dns64'), '1.6.9')).toEqual([`plugin 'dns64' was added in CoreDNS 1.7.0: CoreDNS 1.6.9 stops with "Unknown directive 'dns64'"`]);
    expect(message(block('view'), '1.9.4')[0]).toContain('was added in CoreDNS 1.10.0');
    expect(message(block('grpc . 10.0.0.1'), '1.2.6')[0]).toContain('was added in CoreDNS 1.5.0');
    expect(message(block('transfer'), '1.6.4')[0]).toContain('was added in CoreDNS 1.6.5');
    // Present from 1.6.5 on; a bare transfer lacks its required `to` line.
    expect(findings(block('transfer'), '1.6.5')).toEqual(['requirement-missing@2:5/error']);
    expect(findings(block('shed'), '1.14.6')).toEqual(['plugin-not-yet-added@2:5/error']);
    expect(findings(block('whoami'), '1.0.0')).toEqual([]);
    expect(findings(block('bind 127.0.0.1'), '1.0.0')).toEqual([]);
  });

  it('tells a placeholder that fails its setup from a name that is gone', () => {
    expect(message(block('reverse 10.0.0.0/8'), '1.1.4')).toEqual([
      `plugin 'reverse' was removed in CoreDNS 1.1.4: CoreDNS 1.1.4 keeps only a placeholder for it and stops with "plugin/reverse: this plugin has been deprecated"; remove it`,
    ]);
    expect(message(block('reverse 10.0.0.0/8'), '1.2.0')[0]).toContain(`CoreDNS 1.2.0 stops with "Unknown directive 'reverse'"`);
    expect(findings(block('reverse 10.0.0.0/8'), '1.1.3')).toEqual([]);
    expect(message(block('startup whoami'), '1.1.0')[0]).toContain('keeps only a placeholder for it');
    expect(message(block('startup whoami'), '1.1.0')[0]).toContain('use on instead');
    expect(message(block('shutdown whoami'), '1.1.1')[0]).toContain(`"Unknown directive 'shutdown'"; use on instead`);
  });

  it('refuses a name that no release has, suggesting the closest plugins', () => {
    expect(findings(block('forwrd . 8.8.8.8'))).toEqual(['unknown-directive@2:5/error']);
    expect(message(block('forwrd . 8.8.8.8'))).toEqual([
      `no CoreDNS release from 1.0.0 to 1.14.7 has a plugin 'forwrd' in its default build: CoreDNS 1.14.7 stops with "Unknown directive 'forwrd'"; did you mean 'forward'?`,
    ]);
    expect(message(block('Whoami'))[0]).toMatch(/did you mean 'whoami'\?$/);
    expect(message(block('kubernets cluster.local'))[0]).toMatch(/did you mean 'kubernetes'\?$/);
    expect(message(block('lgo'))[0]).toMatch(/did you mean 'log'\?$/);
    // Suggestions the target lacks say where they are.
    expect(message(block('dns46'), '1.6.9')[0]).toMatch(/did you mean 'dns64' \(CoreDNS 1\.7\.0 and later\)\?$/);
    expect(message(block('proxx . 10.0.0.1'), '1.8.0')[0]).toMatch(/did you mean 'proxy' \(removed in CoreDNS 1\.5\.0\)\?$/);
    // Nothing close: no guess.
    expect(message(block('alias'))[0]).toBe(`no CoreDNS release from 1.0.0 to 1.14.7 has a plugin 'alias' in its default build: CoreDNS 1.14.7 stops with "Unknown directive 'alias'"`);
    // Every occurrence is an error, and nothing else is checked about it.
    expect(findings('.:53 {\n    forwrd .\n}\nb.org {\n    forwrd .\n}\n')).toEqual(['unknown-directive@2:5/error', 'unknown-directive@5:5/error']);
  });
});

describe('a custom build (its plugin list)', () => {
  const build = ['errors', 'forward', 'cache', 'alias', 'kubernetes'];

  it('loads what the list names and nothing else', () => {
    expect(findings('.:53 {\n    errors\n    alias\n    forward . 8.8.8.8\n}\n', '1.14.7', build)).toEqual(['plugin-without-facts@3:5/info']);
    expect(findings(block('whoami'), '1.14.7', build)).toEqual(['unknown-directive@2:5/error']);
    expect(message(block('whoami'), '1.14.7', build)).toEqual([
      `plugin 'whoami' is not in your build's plugin list (the default build of CoreDNS 1.14.7 has it): CoreDNS stops with "Unknown directive 'whoami'"`,
    ]);
  });

  it('reports a listed plugin the default builds lack once, with what it knows of it', () => {
    expect(findings('a.org {\n    alias\n}\nb.org {\n    alias\n}\n', '1.14.7', build)).toEqual(['plugin-without-facts@2:5/info']);
    expect(message(block('alias'), '1.14.7', build)[0]).toBe(
      "plugin 'alias' comes from your build's plugin list; no CoreDNS release from 1.0.0 to 1.14.7 has it in its default build, so this linter has no facts about it: its arguments and options were not checked",
    );
    expect(message(block('dns64'), '1.6.9', ['dns64'])[0]).toContain('the default build of CoreDNS 1.6.9 lacks it (it arrives in 1.7.0)');
    expect(message(block('proxy . 10.0.0.1'), '1.14.7', ['proxy'])[0]).toContain('the default build of CoreDNS 1.14.7 lacks it (removed in 1.5.0)');
  });

  it('keeps the release facts of the plugins both builds have', () => {
    expect(findings(block('proxy . 10.0.0.1'), '1.4.0', ['proxy'])).toEqual(['plugin-deprecated@2:5/info']);
    expect(findings(block('forward . 8.8.8.8 {\n        max_concurrent 10\n    }'), '1.6.7', ['forward'])).toEqual(['option-not-yet-added@3:9/error']);
    expect(findings(block('dns64'), '1.6.9', [])).toEqual(['plugin-not-yet-added@2:5/error']);
    expect(message(block('dns64'), '1.6.9', [])[0]).toContain('was added in CoreDNS 1.7.0');
  });

  it('suggests names of the build too', () => {
    expect(message(block('alais'), '1.14.7', build)[0]).toMatch(/, nor does your build's plugin list: .*; did you mean 'alias'\?$/);
    expect(message(block('whoam'), '1.14.7', build)[0]).toMatch(/did you mean 'whoami' \(not in your build's plugin list\)\?$/);
  });

  it('runs the block rules on the plugins the build loads', () => {
    const twoForwards = '.:53 {\n    forward a.org 10.0.0.1\n    forward . 10.0.0.2\n}\n';
    expect(findings(twoForwards, '1.8.0', ['forward'])).toEqual(['forward-once-per-block@3:5/error']);
    expect(findings(twoForwards, '1.8.0', ['errors'])).toEqual(['unknown-directive@2:5/error', 'unknown-directive@3:5/error']);
  });
});
