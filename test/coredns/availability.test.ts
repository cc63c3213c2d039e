import { describe, expect, it } from 'vitest';
import { coreDnsOptionsWithFacts, coreDnsOptionAvailability, coreDnsPluginAvailability, isUsable } from '../../src/coredns/availability.js';
import { allPluginNames, compiledPlugin, isCompiledIn } from '../../src/coredns/plugin-cfg.js';
import { COREDNS_VERSIONS, UnknownCoreDnsVersionError } from '../../src/coredns/versions.js';
import { expectSame } from '../support/hot-expect.js';

describe('coreDnsPluginAvailability', () => {
  it.each([
    ['proxy', '1.3.1', { status: 'available', since: '1.0.0', removedIn: '1.5.0' }],
    ['proxy', '1.4.0', { status: 'deprecated', deprecatedIn: '1.4.0', removedIn: '1.5.0', replacement: 'forward' }],
    ['proxy', '1.5.0', { status: 'removed', removedIn: '1.5.0', replacement: 'forward' }],
    ['forward', '1.0.4', { status: 'not-yet-added', since: '1.0.5' }],
    ['forward', '1.0.5', { status: 'available', externalModule: 'github.com/coredns/forward', caveat: expect.stringMatching(/external module/) }],
    ['forward', '1.0.6', { status: 'available', since: '1.0.5' }],
    ['federation', '1.6.2', { status: 'available', removedIn: '1.7.0' }],
    ['federation', '1.6.3', { status: 'available', externalModule: 'github.com/coredns/federation' }],
    ['federation', '1.6.9', { status: 'available', externalModule: 'github.com/coredns/federation' }],
    ['federation', '1.7.0', { status: 'removed', removedIn: '1.7.0' }],
    ['ready', '1.4.0', { status: 'not-yet-added', since: '1.5.0' }],
    ['ready', '1.5.0', { status: 'available' }],
    ['loop', '1.2.0', { status: 'not-yet-added', since: '1.2.1' }],
    ['loop', '1.2.1', { status: 'available' }],
    ['reload', '1.0.6', { status: 'not-yet-added', since: '1.1.0' }],
    ['reload', '1.1.0', { status: 'available' }],
    ['template', '1.0.2', { status: 'not-yet-added', since: '1.0.3' }],
    ['template', '1.0.3', { status: 'available' }],
    ['nsid', '1.0.0', { status: 'not-yet-added' }],
    ['nsid', '1.0.1', { status: 'available' }],
    ['route53', '1.0.4', { status: 'not-yet-added' }],
    ['route53', '1.0.5', { status: 'available' }],
    ['k8s_external', '1.2.6', { status: 'not-yet-added', since: '1.3.0' }],
    ['k8s_external', '1.3.0', { status: 'available' }],
    // The plugin.cfg table settles what the hand-written timelines only "confirmed from".
    ['transfer', '1.6.4', { status: 'not-yet-added', since: '1.6.5' }],
    ['transfer', '1.6.5', { status: 'available', since: '1.6.5' }],
    ['bind', '1.0.0', { status: 'available', since: '1.0.0' }],
    ['startup', '1.0.0', { status: 'available', since: '1.0.0', externalModule: 'github.com/mholt/caddy/startupshutdown', removedIn: '1.1.0' }],
    ['startup', '1.0.6', { status: 'deprecated', deprecatedIn: '1.0.6', replacement: 'on', removedIn: '1.1.0' }],
    ['startup', '1.1.0', { status: 'removed', removedIn: '1.1.0', replacement: 'on', placeholder: true }],
    ['shutdown', '1.1.0', { status: 'removed', removedIn: '1.1.0', replacement: 'on', placeholder: true }],
    ['shutdown', '1.1.1', { status: 'removed', removedIn: '1.1.0', replacement: 'on' }],
    ['reverse', '1.1.3', { status: 'available', removedIn: '1.1.4' }],
    ['reverse', '1.1.4', { status: 'removed', removedIn: '1.1.4', placeholder: true }],
    ['reverse', '1.2.0', { status: 'removed', removedIn: '1.1.4' }],
    ['dns64', '1.6.9', { status: 'not-yet-added', since: '1.7.0' }],
    ['dns64', '1.7.0', { status: 'available' }],
    ['view', '1.9.4', { status: 'not-yet-added', since: '1.10.0' }],
    ['grpc', '1.4.0', { status: 'not-yet-added', since: '1.5.0' }],
    ['whoami', '1.0.0', { status: 'available' }],
    ['shed', '1.14.6', { status: 'not-yet-added', since: '1.14.7' }],
    ['on', '1.0.5', { status: 'available', externalModule: 'github.com/mholt/caddy/onevent' }],
  ] as const)('%s in %s', (plugin, version, expected) => {
    const availability = coreDnsPluginAvailability(plugin, version);
    expect(availability).toMatchObject(expected);
    expect(availability.evidence).toContain('plugin.cfg');
    if (availability.status !== 'available' && availability.status !== 'deprecated') expect(availability.externalModule).toBeUndefined();
    if (!('placeholder' in expected)) expect(availability.placeholder).toBeUndefined();
  });

  it.each(['errors', 'health', 'kubernetes', 'prometheus', 'cache', 'log', 'loadbalance', 'hosts', 'rewrite', 'autopath', 'file', 'etcd', 'pprof', 'whoami', 'tls', 'erratic'])(
    '%s is there from 1.0.0 to 1.14.7',
    (plugin) => {
      for (const version of COREDNS_VERSIONS) expect(coreDnsPluginAvailability(plugin, version).status).toBe('available');
    },
  );

  it.each(['alias', 'fanout', 'Forward', 'forward ', 'k8s-external', '__proto__', 'constructor', 'toString', 'hasOwnProperty', ''])(
    'answers unknown for %j, a name no release has',
    (plugin) => {
      expect(coreDnsPluginAvailability(plugin, '1.8.0')).toEqual({ status: 'unknown', evidence: expect.stringMatching(/^no CoreDNS release from 1\.0\.0 to 1\.14\.7 has a plugin of this name/) });
    },
  );

  it('answers from the plugin.cfg table for every plugin of every release', () => {
    let checked = 0;
    for (const name of allPluginNames()) {
      for (const version of COREDNS_VERSIONS) {
        const availability = coreDnsPluginAvailability(name, version);
        expectSame(isUsable(availability), isCompiledIn(name, version), `${name} ${version}`);
        expectSame(availability.externalModule, isUsable(availability) ? compiledPlugin(name, version)?.externalModule : undefined, `${name} ${version}`);
        expectSame(availability.placeholder === true, compiledPlugin(name, version)?.placeholder === true, `${name} ${version}`);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(60 * 73);
  });

  it('refuses unknown releases', () => {
    expect(() => coreDnsPluginAvailability('forward', '1.6')).toThrow(UnknownCoreDnsVersionError);
  });
});

describe('coreDnsOptionAvailability', () => {
  it.each([
    ['health', 'lameduck', '1.0.4', { status: 'not-yet-added', since: '1.0.5' }],
    ['health', 'lameduck', '1.0.5', { status: 'available' }],
    ['kubernetes', 'upstream', '1.0.5', { status: 'available', caveat: 'needs at least one address before 1.0.6; a bare `upstream` is an argument error' }],
    ['kubernetes', 'upstream', '1.0.6', { status: 'available', removedIn: '1.7.0' }],
    ['kubernetes', 'upstream', '1.3.1', { status: 'available' }],
    ['kubernetes', 'upstream', '1.4.0', { status: 'deprecated', deprecatedIn: '1.4.0', caveat: expect.stringMatching(/arguments are ignored/) }],
    ['kubernetes', 'upstream', '1.5.2', { status: 'deprecated', caveat: expect.stringMatching(/no effect/) }],
    ['kubernetes', 'upstream', '1.6.9', { status: 'deprecated' }],
    ['kubernetes', 'upstream', '1.7.0', { status: 'removed', removedIn: '1.7.0' }],
    ['kubernetes', 'fallthrough', '1.0.2', { status: 'available', caveat: expect.stringMatching(/no zones before 1\.0\.3/) }],
    ['kubernetes', 'fallthrough', '1.0.3', { status: 'available' }],
    ['kubernetes', 'ttl', '1.0.0', { status: 'available' }],
    ['kubernetes', 'pods', '1.14.7', { status: 'available' }],
    ['kubernetes', 'transfer', '1.0.5', { status: 'unknown' }],
    ['kubernetes', 'transfer', '1.0.6', { status: 'available', removedIn: '1.8.0' }],
    ['kubernetes', 'transfer', '1.8.0', { status: 'removed', replacement: 'the transfer plugin' }],
    ['forward', 'max_concurrent', '1.6.7', { status: 'not-yet-added', since: '1.6.8' }],
    ['forward', 'max_concurrent', '1.6.8', { status: 'available' }],
    ['forward', 'resolver', '1.14.3', { status: 'not-yet-added', since: '1.14.4' }],
    ['forward', 'resolver', '1.14.4', { status: 'available' }],
  ] as const)('%s %s in %s', (plugin, option, version, expected) => {
    expect(coreDnsOptionAvailability(plugin, option, version)).toMatchObject(expected);
  });

  it('has no caveat on fallthrough once zones are accepted', () => {
    expect(coreDnsOptionAvailability('kubernetes', 'fallthrough', '1.0.3').caveat).toBeUndefined();
  });

  it('reads every option of the plugin syntax table, and answers unknown for names no release has', () => {
    expect(coreDnsOptionAvailability('forward', 'policy', '1.8.0').status).toBe('available');
    expect(coreDnsOptionAvailability('cache', 'success', '1.8.0').status).toBe('available');
    expect(coreDnsOptionAvailability('cache', 'keepttl', '1.10.0')).toMatchObject({ status: 'not-yet-added', since: '1.10.1' });
    expect(coreDnsOptionAvailability('kubernetes', 'resyncperiod', '1.7.0')).toMatchObject({ status: 'removed', removedIn: '1.7.0' });
    expect(coreDnsOptionAvailability('kubernetes', 'constructor', '1.8.0')).toMatchObject({ status: 'unknown', evidence: expect.stringMatching(/no release .* has an option of this name in kubernetes/) });
    expect(coreDnsOptionAvailability('whoami', 'anything', '1.8.0')).toMatchObject({ status: 'unknown', evidence: 'no version facts are recorded for this name' });
    expect(coreDnsOptionsWithFacts()).toContain('kubernetes upstream');
    expect(coreDnsOptionsWithFacts()).toContain('cache serve_stale');
    expect(coreDnsOptionsWithFacts().length).toBeGreaterThan(100);
  });
});
