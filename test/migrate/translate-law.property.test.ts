/**
 * migrate ∘ translate (issue 18 item 9): translating a kube-dns ConfigMap for one CoreDNS release
 * and migrating the result to another configures CoreDNS as translating for that other release
 * does. "Configures CoreDNS as" is {@link configuration}: for every zone and port a server block
 * answers, the plugins that route or cache a query there, with their arguments and options —
 * docs/migrate.md ("How it is tested") says what it leaves out and why.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Directive } from '../../src/corefile/model.js';
import { parseCorefile } from '../../src/corefile/parser.js';
import { parseServerKey } from '../../src/corefile/server-key.js';
import { COREDNS_VERSIONS, compareCoreDnsVersions } from '../../src/coredns/versions.js';
import { migrateCorefile } from '../../src/migrate/migrate-corefile.js';
import { translateKubeDns } from '../../src/translate/translate.js';
import { Outcomes } from '../support/outcomes.js';

/** Plugins that neither route nor cache a query: probes, metrics, logs, reloading, answer order. */
const NOT_ROUTING_OR_CACHING: ReadonlySet<string> = new Set(['errors', 'health', 'ready', 'prometheus', 'loop', 'reload', 'loadbalance', 'log']);
/**
 * kubernetes options that follow the shape of kubeadm's default Corefile of each release, which the
 * translator copies and migrate does not rewrite (it keeps what the cluster runs): `ttl 30` from
 * 1.3.1 (5 s before), `upstream` until 1.5.1 (a no-op from 1.5.2).
 */
const KUBEADM_SHAPE_OPTIONS: ReadonlySet<string> = new Set(['ttl', 'upstream']);

function line(directive: Directive): string {
  // proxy and forward route alike: the same FROM, the same destinations.
  const name = directive.name === 'proxy' ? 'forward' : directive.name;
  const options = (directive.block?.directives ?? [])
    .filter((option) => !(directive.name === 'kubernetes' && KUBEADM_SHAPE_OPTIONS.has(option.name)))
    .map((option) => [option.name, ...option.arguments].join(' '))
    .sort();
  return `${[name, ...directive.arguments].join(' ')}${options.length === 0 ? '' : ` { ${options.join('; ')} }`}`;
}

/** Zone:port → the routing and caching plugins of the block that answers it, as one text. */
function configuration(corefile: string): Map<string, string> {
  const zones = new Map<string, string>();
  for (const item of parseCorefile(corefile).corefile.items) {
    if (item.kind !== 'server-block') continue;
    const plugins = item.directives.filter((directive) => !NOT_ROUTING_OR_CACHING.has(directive.name)).map(line).sort().join(' | ');
    for (const key of item.keys) {
      const address = parseServerKey(key);
      for (const zone of address.zones) zones.set(`${zone}:${address.port ?? '53'}`, plugins);
    }
  }
  return zones;
}

const releases = fc.constantFrom(...COREDNS_VERSIONS);
const zone = fc.constantFrom('acme.local', 'consul.local', 'corp.example', 'local', 'example.com', '10.in-addr.arpa', 'svc.cluster.local');
const data = fc.record(
  {
    stubDomains: fc.dictionary(zone, fc.array(fc.constantFrom('10.150.0.1', '10.150.0.2', '192.0.2.53', '10.0.0.10:5353'), { minLength: 1, maxLength: 2 }), { maxKeys: 3 }).map((stubs) => JSON.stringify(stubs)),
    upstreamNameservers: fc.array(fc.constantFrom('8.8.8.8', '1.1.1.1', '10.0.0.2'), { maxLength: 3 }).map((upstreams) => JSON.stringify([...new Set(upstreams)])),
  },
  { requiredKeys: [] },
);

describe('migrate ∘ translate', () => {
  it('migrate(translate(v1), v1 → v2) configures CoreDNS as translate(v2), for every pair of releases', () => {
    const outcomes = new Outcomes<'same' | 'migrate refused' | 'translation refused' | 'v1 cannot route as kube-dns' | 'same release'>();
    fc.assert(
      fc.property(releases, releases, data, (v1, v2, input) => {
        if (v1 === v2) return outcomes.add('same release');
        const first = translateKubeDns(input, { coredns: v1 });
        const target = translateKubeDns(input, { coredns: v2 });
        if (!first.ok || !target.ok) return outcomes.add('translation refused');
        // Before 1.0.3 the translation itself cannot forward outside reverse lookups (it says so);
        // migrate keeps the routing it is given. (The other way, migrate refuses: fallthrough with zones.)
        if (first.diagnostics.some((entry) => entry.code === 'reverse-lookups-not-forwarded') && !target.diagnostics.some((entry) => entry.code === 'reverse-lookups-not-forwarded')) {
          return outcomes.add('v1 cannot route as kube-dns');
        }
        const migrated = migrateCorefile(first.corefile, { from: v1, to: v2 });
        if (!migrated.ok) {
          // Refused, never wrong: an upgrade is refused only for what it cannot rewrite (health
          // in a block with several keys on 1.1.0–1.6.5); a downgrade also for plugins the older release lacks.
          const errors = migrated.notices.filter((notice) => notice.severity === 'error').map((notice) => notice.code);
          if (compareCoreDnsVersions(v1, v2) < 0) expect([...new Set(errors)]).toEqual(['migrate-target-refuses']);
          return outcomes.add('migrate refused');
        }
        expect(Object.fromEntries(configuration(migrated.corefile)), `${v1} → ${v2}`).toEqual(Object.fromEntries(configuration(target.corefile)));
        outcomes.add('same');
      }),
      { numRuns: 300 },
    );
    // About 260 compared, 30 refused (downgrades, mostly), 6 from before 1.0.3, 2 of one release.
    outcomes.expectAtLeast({ same: 220, 'migrate refused': 15 });
  });

  it('the comparison tells configurations apart: caching, destinations, max_concurrent, zones', () => {
    const base = translateKubeDns({ stubDomains: '{"acme.local": ["10.150.0.1"]}' }, { coredns: '1.14.7' }).corefile ?? '';
    const same = (text: string) => JSON.stringify([...configuration(text)]) === JSON.stringify([...configuration(base)]);
    expect(same(base.replace('disable denial', 'denial 9984 1'))).toBe(false);
    expect(same(base.replace('forward . 10.150.0.1', 'forward . 10.150.0.2'))).toBe(false);
    expect(same(base.replace('forward . 10.150.0.1', 'forward . 10.150.0.1 {\n        max_concurrent 1000\n    }'))).toBe(false);
    expect(same(base.replace('acme.local:53', 'acme.local:5353'))).toBe(false);
    // Probes, metrics and the kubeadm-shaped kubernetes options do not count; proxy is forward.
    expect(same(base.replace('    ready\n', '').replace('        ttl 30\n', ''))).toBe(true);
    expect(same(base.replace('forward . 10.150.0.1', 'proxy . 10.150.0.1'))).toBe(true);
  });
});
