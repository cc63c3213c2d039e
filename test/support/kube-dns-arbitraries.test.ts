import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readKubeDnsConfig } from '../../src/kubedns/read-kube-dns-config.js';
import { translateKubeDns } from '../../src/translate/translate.js';
import { anyKubeDnsInput, kubeDnsData, kubeDnsInput, validKubeDnsInput } from './kube-dns-arbitraries.js';
import type { KubeDnsInput } from './kube-dns-arbitraries.js';
import { Outcomes } from './outcomes.js';

/**
 * The generators themselves: the valid one makes only ConfigMaps the newest kube-dns accepts, with
 * the variety the translator's laws need, and most of them translate; the hostile one makes mostly
 * ConfigMaps kube-dns rejects.
 */

const isReverse = (zone: string) => zone.endsWith('.in-addr.arpa') || zone.endsWith('.ip6.arpa');
const isWithin = (zone: string, parent: string) => zone === parent || zone.endsWith(`.${parent}`);

type Variety =
  | 'stub below a reverse zone'
  | 'stub above the cluster domain'
  | 'stub inside the cluster domain'
  | 'stub above the reverse zones'
  | 'stub and its child'
  | 'IPv6 nameserver'
  | 'nameserver with a port'
  | 'hostname nameserver'
  | 'more than 4 nameservers'
  | 'stub without nameservers'
  | 'federations'
  | 'no upstreamNameservers'
  | 'upstreamNameservers'
  | 'translated'
  | 'refused';

function varieties(input: KubeDnsInput): Variety[] {
  const found = new Set<Variety>();
  const zones = input.stubs.map(([zone]) => zone);
  for (const [zone, servers] of input.stubs) {
    if (isReverse(zone)) found.add('stub below a reverse zone');
    if (zone !== 'cluster.local' && isWithin('cluster.local', zone)) found.add('stub above the cluster domain');
    if (zone !== 'cluster.local' && isWithin(zone, 'cluster.local')) found.add('stub inside the cluster domain');
    if (zone === 'arpa') found.add('stub above the reverse zones');
    if (zones.some((other) => other !== zone && isWithin(other, zone))) found.add('stub and its child');
    if (servers.length > 4) found.add('more than 4 nameservers');
    if (servers.length === 0) found.add('stub without nameservers');
    for (const server of servers) {
      if (server.includes('::') || server.split(':').length > 2) found.add('IPv6 nameserver');
      if (/^[0-9.]+:[0-9]+$|\]:[0-9]+$/.test(server)) found.add('nameserver with a port');
      if (!server.includes(':') && /[a-z]$/.test(server)) found.add('hostname nameserver');
    }
  }
  if ((input.federations ?? []).length > 0) found.add('federations');
  found.add(input.upstreams === undefined ? 'no upstreamNameservers' : 'upstreamNameservers');
  return [...found];
}

describe('validKubeDnsInput', () => {
  it('makes only ConfigMaps the newest kube-dns accepts, of every kind the laws need, most of them translatable', () => {
    const outcomes = new Outcomes<Variety>();
    fc.assert(
      fc.property(validKubeDnsInput(), (input) => {
        const data = kubeDnsData(input);
        const reading = readKubeDnsConfig(data);
        expect(reading.diagnostics.filter((entry) => entry.severity === 'error'), JSON.stringify(data)).toEqual([]);
        expect(reading.acceptedByKubeDns).toBe(true);
        for (const variety of varieties(input)) outcomes.add(variety);
        // Federations are refused by the newest CoreDNS unless dropped: dropped here, so that what is
        // counted is whether the rest translates.
        outcomes.add(translateKubeDns(data, { dropFederations: true }).ok ? 'translated' : 'refused');
      }),
      { numRuns: 300 },
    );
    // Expected: about 270 translated, 30 refused; every kind of stub and nameserver 20 to 230 times.
    outcomes.expectAtLeast({
      translated: 240,
      refused: 5,
      'stub below a reverse zone': 60,
      'stub above the cluster domain': 5,
      'stub inside the cluster domain': 5,
      'stub above the reverse zones': 3,
      'stub and its child': 90,
      'IPv6 nameserver': 130,
      'nameserver with a port': 150,
      'hostname nameserver': 15,
      'more than 4 nameservers': 50,
      'stub without nameservers': 25,
      federations: 30,
      'no upstreamNameservers': 40,
      upstreamNameservers: 200,
    });
  });

  it('adds a stub with more than 15 nameservers now and then when asked for more', () => {
    const samples = fc.sample(validKubeDnsInput(17), { numRuns: 500 });
    const tooMany = samples.filter((input) => input.stubs.some(([, servers]) => servers.length > 15)).length;
    expect(tooMany).toBeGreaterThanOrEqual(3);
    expect(fc.sample(validKubeDnsInput(), { numRuns: 500 }).every((input) => input.stubs.every(([, servers]) => servers.length <= 15))).toBe(true);
  });
});

describe('kubeDnsInput and anyKubeDnsInput', () => {
  it('the hostile generator makes mostly ConfigMaps kube-dns rejects; the mix mostly ones it accepts', () => {
    const hostile = fc.sample(kubeDnsInput(), { numRuns: 300 }).filter((input) => !readKubeDnsConfig(kubeDnsData(input)).acceptedByKubeDns).length;
    const mixed = fc.sample(anyKubeDnsInput(), { numRuns: 300 }).filter((input) => !readKubeDnsConfig(kubeDnsData(input)).acceptedByKubeDns).length;
    // Expected: about 250 of 300 hostile ConfigMaps rejected; about 35 of 300 mixed ones.
    expect(hostile).toBeGreaterThanOrEqual(200);
    expect(mixed).toBeGreaterThanOrEqual(10);
    expect(mixed).toBeLessThanOrEqual(80);
  });
});
