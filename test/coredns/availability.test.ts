import { describe, expect, it } from 'vitest';
import { COREDNS_OPTIONS_WITH_FACTS, COREDNS_PLUGINS_WITH_FACTS, coreDnsOptionAvailability, coreDnsPluginAvailability } from '../../src/coredns/availability.js';
import { COREDNS_VERSIONS, UnknownCoreDnsVersionError } from '../../src/coredns/versions.js';

describe('coreDnsPluginAvailability', () => {
  it.each([
    ['proxy', '1.3.1', { status: 'available', removedIn: '1.5.0' }],
    ['proxy', '1.4.0', { status: 'deprecated', deprecatedIn: '1.4.0', removedIn: '1.5.0', replacement: 'forward' }],
    ['proxy', '1.5.0', { status: 'removed', removedIn: '1.5.0', replacement: 'forward' }],
    ['forward', '1.0.4', { status: 'not-yet-added', since: '1.0.5' }],
    ['forward', '1.0.5', { status: 'available', externalModule: 'github.com/coredns/forward' }],
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
    ['transfer', '1.7.1', { status: 'unknown', since: '1.8.0' }],
    ['transfer', '1.8.0', { status: 'available' }],
    ['bind', '1.0.4', { status: 'unknown' }],
    ['bind', '1.0.5', { status: 'available' }],
    ['startup', '1.0.5', { status: 'unknown' }],
    ['startup', '1.0.6', { status: 'deprecated', deprecatedIn: '1.0.6', replacement: 'on' }],
    ['shutdown', '1.1.0', { status: 'removed', removedIn: '1.1.0', replacement: 'on' }],
  ] as const)('%s in %s', (plugin, version, expected) => {
    const availability = coreDnsPluginAvailability(plugin, version);
    expect(availability).toMatchObject(expected);
    expect(availability.evidence).toBeTruthy();
    if (expected.status !== 'available') expect(availability.externalModule).toBeUndefined();
  });

  it.each(['errors', 'health', 'kubernetes', 'prometheus', 'cache', 'log', 'loadbalance', 'hosts', 'rewrite', 'autopath', 'file', 'etcd', 'pprof'])(
    '%s is there from 1.0.0 to 1.14.7',
    (plugin) => {
      for (const version of COREDNS_VERSIONS) expect(coreDnsPluginAvailability(plugin, version).status).toBe('available');
    },
  );

  it.each(['alias', 'fanout', 'Forward', 'forward ', 'k8s-external', '__proto__', 'constructor', 'toString', 'hasOwnProperty', ''])(
    'answers unknown for %j rather than guessing',
    (plugin) => {
      expect(coreDnsPluginAvailability(plugin, '1.8.0')).toEqual({ status: 'unknown', evidence: 'no version facts are recorded for this name' });
    },
  );

  it('covers every plugin of the Kubernetes Corefiles the brief lists', () => {
    for (const plugin of ['errors', 'health', 'ready', 'kubernetes', 'prometheus', 'forward', 'proxy', 'cache', 'loop', 'reload', 'loadbalance', 'federation', 'log', 'hosts', 'rewrite', 'template', 'autopath', 'bind', 'k8s_external', 'transfer']) {
      expect(COREDNS_PLUGINS_WITH_FACTS).toContain(plugin);
    }
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

  it('answers unknown for options without facts', () => {
    expect(coreDnsOptionAvailability('forward', 'policy', '1.8.0').status).toBe('unknown');
    expect(coreDnsOptionAvailability('cache', 'success', '1.8.0').status).toBe('unknown');
    expect(coreDnsOptionAvailability('kubernetes', 'constructor', '1.8.0').status).toBe('unknown');
    expect(COREDNS_OPTIONS_WITH_FACTS).toContain('kubernetes upstream');
  });
});
