import { describe, expect, it } from 'vitest';
import { coreDnsFeatures } from '../../src/coredns/features.js';
import { COREDNS_RELEASES } from '../../src/coredns/versions.js';
import { parseDnsmasqArgs } from '../../src/kubedns/dnsmasq-options.js';
import { kubeDnsPod } from '../../src/kubedns/kube-dns-pod.js';
import { DNSMASQ_EFFECTS, KUBEDNS_EFFECTS } from '../../src/translate/deployment-effects.js';
import type { DnsmasqFacts, EffectRow } from '../../src/translate/deployment-effects.js';
import { DIAGNOSTIC_CODES } from '../../src/diagnostics/codes.js';
import { expectEqual } from '../support/hot-expect.js';

/** The per-container tables the Deployment planner reads (src/translate/deployment-effects.ts). */

const rows = DNSMASQ_EFFECTS.filter((row): row is EffectRow<DnsmasqFacts> => !('entries' in row));
const releases = COREDNS_RELEASES.filter((release) => release.unpublished !== true).map((release) => coreDnsFeatures(release.version));

/** Every combination of the settings the rows read, as dnsmasq reads them from its arguments. */
function argumentSets(): string[][] {
  const choices: string[][] = [
    ['', '--no-resolv'],
    ['', '--cache-size=0', '--cache-size=1000'],
    ['', '--no-negcache'],
    ['', '--log-queries'],
    ['', '--strict-order'],
    ['', '--all-servers'],
    ['', '--dns-forward-max=0', '--dns-forward-max=150'],
    ['', '--domain-needed'],
    ['', '--port=5353'],
    ['', '--server=8.8.8.8'],
  ];
  return choices.reduce<string[][]>((sets, options) => sets.flatMap((set) => options.map((option) => (option === '' ? set : [...set, option]))), [[]]);
}

describe('the dnsmasq table', () => {
  it('says one thing per option written, at every release, and nothing of an option not written', () => {
    let checked = 0;
    for (const args of argumentSets()) {
      const settings = parseDnsmasqArgs(args);
      const facts: DnsmasqFacts = { settings, upstreams: settings.servers.map((server) => ({ target: '8.8.8.8', text: server.option.text })), pod: kubeDnsPod(undefined, '1.22.20', 'cluster.local') };
      for (const target of releases.filter((_, index) => index % 7 === 0)) {
        const applied = rows.filter((row) => row.when(facts, target)).map((row) => row.option);
        const written = args.map((arg) => arg.slice(2).split('=')[0] as string).filter((option) => option !== 'server');
        // --server without --no-resolv is reported under no-resolv's rows (the upstreams beside resolv.conf).
        const expected = [...new Set([...written, ...(settings.servers.length > 0 ? ['no-resolv'] : [])])].sort();
        expectEqual([...applied].sort(), expected);
        checked += 1;
      }
    }
    expect(checked).toBeGreaterThan(10_000);
  });

  it('sets a plan field only where the target has what it needs', () => {
    const args = ['--strict-order', '--dns-forward-max=150', '--no-negcache', '--log-queries'];
    const settings = parseDnsmasqArgs(args);
    const facts: DnsmasqFacts = { settings, upstreams: [], pod: kubeDnsPod(undefined, '1.22.20', 'cluster.local') };
    const fieldsAt = (version: string) => Object.assign({}, ...rows.filter((row) => row.when(facts, coreDnsFeatures(version)) && row.sets !== undefined).map((row) => row.sets?.(facts)));
    expect(fieldsAt('1.14.7')).toEqual({ strictOrder: true, maxConcurrent: 150, noNegativeCache: true, logQueries: true });
    // forward without max_concurrent; proxy: neither option.
    expect(fieldsAt('1.2.6')).toEqual({ strictOrder: true, noNegativeCache: true, logQueries: true });
    expect(fieldsAt('1.0.4')).toEqual({ noNegativeCache: true, logQueries: true });
  });

  it('names registered codes, and keeps the rows of one option together', () => {
    for (const row of [...rows, ...KUBEDNS_EFFECTS]) expect(Object.keys(DIAGNOSTIC_CODES)).toContain(row.code);
    // The options of one container come together: the report order is the table's.
    const order = DNSMASQ_EFFECTS.map((row) => row.option);
    expect(order.filter((option, index) => order.indexOf(option) !== index && order[index - 1] !== option)).toEqual([]);
  });
});
