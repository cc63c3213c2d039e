/**
 * The kubernetes capture rule's longest match (src/lint/rules/keys.ts): looking a zone's suffixes
 * up in each zone's first entry gives the entry that trying every entry's every zone with
 * `isWithin` gives — the longest zone containing the name, the earliest entry among equals; and
 * the rule stops early (`hasCapturingCandidate`) only where that longest match would report nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bare } from '../../../src/lint/context.js';
import { firstByZone, hasCapturingCandidate, longestMatch, suffixZones } from '../../../src/lint/rules/keys.js';
import type { KeyEntry } from '../../../src/lint/context.js';
import { isWithin } from '../../../src/dns/zones.js';
import { Outcomes } from '../../support/outcomes.js';

/** The definition: every zone of every entry tried, the longest containing `zone` kept (the first among equals). */
function scanned(entries: readonly (readonly string[])[], zone: string): number | undefined {
  let best: number | undefined;
  let bestLength = -1;
  entries.forEach((zones, index) => {
    for (const candidate of zones.map(bare)) {
      if (!isWithin(zone, candidate)) continue;
      const length = candidate === '' ? 0 : candidate.length + 1;
      if (length > bestLength) {
        best = index;
        bestLength = length;
      }
    }
  });
  return best;
}

const label = fc.constantFrom('a', 'b', 'ab', 'local', 'cluster', 'x-1', 'a\\.b', 'LOCAL', 'İ');
const name = fc.array(label, { minLength: 0, maxLength: 4 }).map((labels) => (labels.length === 0 ? '.' : `${labels.join('.')}.`));

describe('the longest matching zone', () => {
  it('is the first entry of the longest suffix present, as trying every zone finds', () => {
    const outcomes = new Outcomes<'the zone itself' | 'a parent zone' | 'the root' | 'none'>();
    fc.assert(
      fc.property(fc.array(fc.array(name, { minLength: 1, maxLength: 3 }), { minLength: 0, maxLength: 12 }), name, (entries, asked) => {
        const zone = bare(asked);
        const indexes = entries.map((_, index) => index);
        const found = longestMatch(firstByZone(indexes, (index) => entries[index] ?? []), zone);
        expect(found).toBe(scanned(entries, zone));
        // Only the zones the lookup can end on kept (what the capture rule builds): the same answer.
        expect(longestMatch(firstByZone(indexes, (index) => entries[index] ?? [], new Set(suffixZones(zone))), zone)).toBe(found);
        if (found === undefined) return outcomes.add('none');
        const zones = (entries[found] ?? []).map(bare);
        outcomes.add(zones.includes(zone) ? 'the zone itself' : zone !== '' && zones.some((candidate) => candidate !== '' && isWithin(zone, candidate)) ? 'a parent zone' : 'the root');
      }),
      { numRuns: 400 },
    );
    // Expected in 400 runs: about 80 the zone itself, 60 a parent, 150 the root, 110 none.
    outcomes.expectAtLeast({ 'the zone itself': 30, 'a parent zone': 25, 'the root': 60, none: 40 });
  });
});

describe("the capture rule's early stop", () => {
  it('stops only where no asked zone has its longest match in a block without the kubernetes plugin', () => {
    const outcomes = new Outcomes<'stopped' | 'went on, captured' | 'went on, not captured'>();
    const entry = fc.record({ kubernetes: fc.boolean(), zones: fc.array(name, { minLength: 1, maxLength: 3 }), port: fc.constantFrom('53', '5353') });
    fc.assert(
      fc.property(fc.array(entry, { minLength: 0, maxLength: 8 }), fc.array(fc.record({ zone: name.map(bare), port: fc.constantFrom('53', '5353') }), { minLength: 1, maxLength: 3 }), (written, asked) => {
        const entries = written.map(({ kubernetes, zones, port }) => ({
          block: { plugins: { has: (plugin: string) => kubernetes && plugin === 'kubernetes' } },
          reading: { zones, address: { transport: 'dns', port } },
        })) as unknown as KeyEntry[];
        // The definition: some asked zone's longest match among the keys on its port is in a block without kubernetes.
        const captured = asked.some(({ zone, port }) => {
          const onPort = written.filter((each) => each.port === port);
          const owner = scanned(onPort.map((each) => each.zones), zone);
          return owner !== undefined && !(onPort[owner] as { kubernetes: boolean }).kubernetes;
        });
        const goesOn = hasCapturingCandidate(asked, entries);
        if (!goesOn) {
          expect(captured).toBe(false);
          return outcomes.add('stopped');
        }
        outcomes.add(captured ? 'went on, captured' : 'went on, not captured');
      }),
      { numRuns: 400 },
    );
    // Expected in 400 runs: about 185 stopped, 145 went on and captured, 70 went on without a capture.
    outcomes.expectAtLeast({ stopped: 60, 'went on, captured': 45, 'went on, not captured': 24 });
  });
});
