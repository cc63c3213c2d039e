import { describe, expect, it } from 'vitest';
import { lintCorefile } from '../../../src/lint/index.js';
import { findings } from '../../support/lint-findings.js';

/** `.:53 { LINES }` */
const block = (...lines: readonly string[]) => `.:53 {\n${lines.map((line) => `    ${line}\n`).join('')}}\n`;
const messages = (text: string, coredns: string) => lintCorefile(text, { coredns }).diagnostics.map((entry) => entry.message);

describe('plugin arguments and options (the syntax table)', () => {
  it('counts arguments of plugin lines and options', () => {
    expect(findings(block('health :8080 :8081'), '1.14.7')).toEqual(['argument-count@2:5/error']);
    expect(findings(block('loop yes'), '1.8.0')).toEqual(['argument-count@2:5/error']);
    expect(findings(block('kubernetes cluster.local {', '    pods', '}'), '1.8.0')).toEqual(['argument-count@3:9/error']);
    // One argument read with NextArg: the second word is read as the next option.
    expect(findings(block('forward . 10.0.0.1 {', '    max_fails 3 4', '}'), '1.8.0')).toEqual(['argument-count@3:9/error']);
    expect(messages(block('health :8080 :8081'), '1.14.7')).toEqual(["plugin 'health' takes 0 to 1 arguments, not 2: CoreDNS 1.14.7 does not start"]);
  });

  it("refuses a template rcode its release's dns library does not name, and an ederror code that is no uint16", () => {
    const template = (...options: readonly string[]) => block('template ANY ANY acme.local {', ...options.map((option) => `    ${option}`), '}');
    expect(findings(template('rcode nxdomain'), '1.14.7')).toEqual(['argument-invalid@3:15/error']);
    expect(findings(template('rcode 3'), '1.8.0')).toEqual(['argument-invalid@3:15/error']);
    expect(findings(template('rcode NOTIMP'), '1.2.6')).toEqual(['argument-invalid@3:15/error']);
    expect(findings(template('rcode NOTIMP'), '1.3.0')).toEqual([]);
    expect(findings(template('rcode DSOTYPENI'), '1.12.1')).toEqual(['argument-invalid@3:15/error']);
    expect(findings(template('rcode DSOTYPENI'), '1.12.2')).toEqual([]);
    expect(messages(template('rcode nxdomain'), '1.14.7')[0]).toMatch(/^option 'rcode' of template: 'nxdomain' is not one of NOERROR, FORMERR, .*DSOTYPENI: CoreDNS 1\.14\.7 does not start$/);
    expect(findings(template('rcode NXDOMAIN', 'ederror 65536'), '1.14.7')).toEqual(['argument-invalid@4:17/error']);
    expect(findings(template('rcode NXDOMAIN', 'ederror +15 blocked'), '1.14.7')).toEqual(['argument-invalid@4:17/error']);
    expect(findings(template('rcode NXDOMAIN', 'ederror 15 blocked'), '1.14.7')).toEqual([]);
  });

  it('reads durations, integers, ranges and words per release, at the argument', () => {
    const ttl = (value: string) => block('kubernetes cluster.local {', `    ttl ${value}`, '}');
    expect(findings(ttl('0'), '1.2.6')).toEqual(['argument-invalid@3:13/error']);
    expect(findings(ttl('0'), '1.3.0')).toEqual([]);
    expect(findings(ttl('3601'), '1.14.7')).toEqual(['argument-invalid@3:13/error']);
    expect(findings(block('reload 1s'), '1.14.7')).toEqual(['argument-invalid@2:12/error']);
    expect(findings(block('reload 10s 0'), '1.14.1')).toEqual(['argument-invalid@2:16/error']);
    expect(findings(block('reload 10s 0'), '1.14.2')).toEqual([]);
    expect(findings(block('cache 0'), '1.8.0')).toEqual(['argument-invalid@2:11/error']);
    expect(findings(block('cache cluster.local'), '1.8.0')).toEqual([]);
    expect(findings(block('forward . 10.0.0.1 {', '    policy bogus', '}'), '1.8.0')).toEqual(['argument-invalid@3:16/error']);
    expect(findings(block('forward . 10.0.0.1 {', '    policy sequential', '}'), '1.1.1')).toEqual(['argument-invalid@3:16/error']);
    expect(findings(block('forward . 10.0.0.1 {', '    policy sequential', '}'), '1.1.2')).toEqual([]);
    expect(messages(block('forward . 10.0.0.1 {', '    expire 30', '}'), '1.8.0')).toEqual(["option 'expire' of forward: '30' is not a duration (e.g. 30s, 5m): CoreDNS 1.8.0 does not start"]);
    // Placeholders are left alone.
    expect(findings(block('reload {$INTERVAL}'), '1.8.0')).toEqual([]);
  });

  it('reports options the release does not have, with close names', () => {
    expect(findings(block('kubernetes cluster.local {', '    fallthru', '}'), '1.8.0')).toEqual(['option-unknown@3:9/error']);
    expect(messages(block('cache 30 {', '    prefech 10', '}'), '1.8.0')[0]).toMatch(/'prefech' is not an option of cache \(its options in CoreDNS 1\.8\.0: .*\).*did you mean 'prefetch'\?$/);
    // The option timelines still speak for options of other releases.
    expect(findings(block('cache 30 {', '    keepttl', '}'), '1.8.0')).toEqual(['option-not-yet-added@3:9/error']);
    expect(findings(block('kubernetes cluster.local {', '    resyncperiod 30s', '}'), '1.7.0')).toEqual(['option-removed@3:9/error']);
    // A block on a plugin that reads none.
    expect(findings(block('prometheus :9153 {', '    runtime_metrics', '}'), '1.8.0')).toEqual(['option-unknown@3:9/error']);
    expect(findings(block('prometheus :9153 {', '    runtime_metrics', '}'), '1.14.3')).toEqual([]);
    expect(findings(block('errors {', '    consolidate 5m ".*"', '}'), '1.2.5')).toEqual(['option-unknown@3:9/error']);
    expect(findings(block('errors {', '    consolidate 5m ".*"', '}'), '1.2.6')).toEqual([]);
  });

  it('warns about lines the release reads past', () => {
    expect(findings(block('reload 10s {', '    jitter 5s', '}'), '1.8.0')).toEqual(['option-ignored@3:9/warning']);
    expect(findings(block('loadbalance {', '    prefer 10.0.0.0/8', '}'), '1.12.3')).toEqual(['option-ignored@3:9/warning']);
    expect(findings(block('loadbalance {', '    prefer 10.0.0.0/8', '}'), '1.12.4')).toEqual([]);
    expect(findings(block('kubernetes cluster.local {', '    resyncperiod', '}'), '1.6.9')).toEqual(['option-ignored@3:9/warning']);
    expect(findings(block('kubernetes cluster.local {', '    resyncperiod 30s', '}'), '1.6.9')).toEqual(['argument-count@3:9/error']);
    expect(findings(block('kubernetes cluster.local {', '    resyncperiod 30s', '}'), '1.5.2')).toEqual([]);
  });

  it('reads hosts lines as entries until a fallthrough', () => {
    const hosts = (...lines: readonly string[]) => block('hosts {', ...lines.map((line) => `    ${line}`), '}');
    expect(findings(hosts('10.0.0.1 web.acme.local', 'fallthrough'), '1.8.0')).toEqual([]);
    expect(findings(hosts('web.acme.local 10.0.0.1'), '1.8.0')).toEqual(['option-ignored@3:9/warning']);
    expect(findings(hosts('ttl 60'), '1.2.6')).toEqual(['option-ignored@3:9/warning']);
    expect(findings(hosts('ttl 60'), '1.4.0')).toEqual([]);
    expect(findings(hosts('fallthrough', 'bogus'), '1.8.0')).toEqual(['option-unknown@4:9/error']);
    expect(findings(hosts('ttl 0'), '1.8.0')).toEqual(['argument-invalid@3:13/error']);
    expect(findings(hosts('fallthrough_unsupported'), '1.14.7')).toEqual(['requirement-missing@3:9/error']);
    expect(findings(hosts('fallthrough', 'fallthrough_unsupported'), '1.14.7')).toEqual([]);
  });

  it('passes over unknown lines where the release does (ready on 1.14.3)', () => {
    const ready = (line: string) => block('ready {', `    ${line}`, '}');
    expect(findings(ready('bogus'), '1.14.3')).toEqual(['option-ignored@3:9/warning']);
    expect(findings(ready('bogus'), '1.14.4')).toEqual(['option-unknown@3:9/error']);
    expect(findings(ready('monitor sometimes'), '1.14.3')).toEqual(['argument-invalid@3:17/error']);
    // Words a setup does not read are no error (kubernetes ttl reads its first argument only).
    expect(findings(block('kubernetes cluster.local {', '    ttl 30 60', '}'), '1.8.0')).toEqual([]);
    expect(findings(block('kubernetes cluster.local {', '    apiserver_qps 2.5', '}'), '1.14.7')).toEqual([]);
  });

  it('counts rewrite rules written in a block as arguments', () => {
    expect(findings(block('rewrite stop {', '    name regex (.*)\\.a {1}.b', '    answer name (.*)\\.b {1}.a', '}'), '1.8.0')).toEqual([]);
    expect(findings(block('rewrite name'), '1.8.0')).toEqual(['argument-count@2:5/error']);
    expect(findings(block('rewrite bogus a b'), '1.8.0')).toEqual(['argument-invalid@2:13/error']);
    expect(findings(block('rewrite ttl a 10'), '1.2.2')).toEqual(['argument-invalid@2:13/error']);
    expect(findings(block('rewrite ttl a 10'), '1.2.3')).toEqual([]);
  });

  it('reads the words of rewrite class, type and rcode rules as each release does', () => {
    // Verdicts of the real CoreDNS 1.2.6, 1.6.9, 1.8.0 and 1.14.7 (started on `rewrite RULE`): true = starts.
    const verdicts: readonly (readonly [string, readonly [boolean, boolean, boolean, boolean]])[] = [
      ['class in ch', [true, true, true, true]],
      ['class IN chaos', [false, false, false, false]],
      ['class IN CH extra', [false, false, false, false]],
      ['type a aaaa', [true, true, true, true]],
      ['type A BOGUS', [false, false, false, false]],
      ['type none a', [false, false, false, false]],
      ['type nsap-ptr a', [true, true, true, true]],
      ['type svcb a', [false, false, true, true]],
      ['stop type a aaaa', [true, true, true, true]],
      ['continue bogus a b', [false, false, false, false]],
      ['rcode example.org SERVFAIL nxdomain', [false, false, false, true]],
      ['rcode example.org 24 0', [false, false, false, false]],
      ['rcode example.org 007 NotImpl', [false, false, false, true]],
      ['rcode exact example.org 2 3', [false, false, false, true]],
      ['rcode wild example.org 2 3', [false, false, false, false]],
      ['rcode example.org 2', [false, false, false, false]],
      ['rcode example.org dsotypeni 0', [false, false, false, true]],
      ['NAME example.org example.com', [true, true, true, true]],
    ];
    for (const [rule, starts] of verdicts) {
      ['1.2.6', '1.6.9', '1.8.0', '1.14.7'].forEach((release, index) => {
        expect(lintCorefile(block(`rewrite ${rule}`), { coredns: release }).ok, `rewrite ${rule} @${release}`).toBe(starts[index]);
      });
    }
    expect(findings(block('rewrite class IN chaos'), '1.14.7')).toEqual(['argument-invalid@2:22/error']);
    expect(findings(block('rewrite class IN CH extra'), '1.14.7')).toEqual(['argument-count@2:5/error']);
    expect(messages(block('rewrite type A BOGUS'), '1.14.7')).toEqual([`plugin 'rewrite': invalid type "BOGUS" (a type is a record type name such as A, AAAA, SRV, TXT, in any case): CoreDNS 1.14.7 does not start`]);
    expect(messages(block('rewrite rcode example.org 24 0'), '1.14.7')[0]).toMatch(/^plugin 'rewrite': invalid matching RCODE '24' for a rcode rule/);
    // A record type newer than a release's dns library: template refuses it too.
    expect(findings(block('template IN HTTPS'), '1.6.9')).toEqual(['argument-invalid@2:17/error']);
    expect(findings(block('template IN HTTPS {', '    rcode NXDOMAIN', '}'), '1.8.0')).toEqual([]);
  });

  it('finds plugins repeated where the release allows one, through snippets too', () => {
    expect(findings(block('cache 30', 'cache 60'), '1.14.7')).toEqual(['plugin-repeated@3:5/error']);
    expect(findings(block('cache 30', 'cache 60'), '1.0.6')).toEqual([]);
    expect(findings(block('ready', 'ready :8182'), '1.5.0')).toEqual(['plugin-repeated@3:5/error']);
    expect(findings('(common) {\n    errors\n}\n.:53 {\n    import common\n    errors\n}\n', '1.8.0')).toEqual(['plugin-repeated@6:5/error']);
    // Allowed several times (log, health), and forward keeps its own rule.
    expect(findings(block('log', 'log'), '1.8.0')).toEqual([]);
    expect(findings(block('forward acme.local 10.0.0.1', 'forward . 10.0.0.2'), '1.8.0')).toEqual(['forward-once-per-block@3:5/error']);
    expect(findings(block('cache 30 {', '    serve_stale_policy prefer_positive', '    serve_stale_policy prefer_positive', '}'), '1.14.7')).toEqual(['option-repeated@4:9/error']);
  });

  it('knows what a plugin or option needs beside it', () => {
    expect(findings(block('k8s_external example.org'), '1.10.1')).toEqual([]);
    expect(findings(block('k8s_external example.org'), '1.11.0')).toEqual(['requirement-missing@2:5/error']);
    expect(findings(block('kubernetes cluster.local', 'k8s_external example.org'), '1.11.0')).toEqual([]);
    expect(findings(block('transfer cluster.local'), '1.8.0')).toEqual(['requirement-missing@2:5/error']);
    expect(findings(block('transfer cluster.local {', '    to *', '}'), '1.8.0')).toEqual([]);
    expect(findings(block('loadbalance {', '    reload 10s', '}'), '1.14.7')).toEqual(['requirement-missing@3:9/error']);
  });

  it('leaves plugins outside the table, and those of a custom build, unjudged', () => {
    expect(findings(block('whoami {', '    anything 1 2', '}'), '1.8.0')).toEqual([]);
    expect(findings(block('alias x y'), '1.8.0', ['alias', 'cache'])).toEqual(['plugin-without-facts@2:5/info']);
    // A custom build's plugin of the default build is judged as that release's.
    expect(findings(block('cache 0'), '1.8.0', ['alias', 'cache'])).toEqual(['argument-invalid@2:11/error']);
  });
});
