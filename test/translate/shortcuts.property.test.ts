import fc from 'fast-check';
import { describe, it } from 'vitest';
import { readForwardTarget, readForwardTargetInFull } from '../../src/coredns/forward-targets.js';
import { plainIPv4Length } from '../../src/dns/go-net.js';
import { isWithin, normalizeZone, normalizeZoneInFull } from '../../src/dns/zones.js';
import { hostileString, ipv4Text, nameserverText, stubDomainName, translatableStubNameserver } from '../support/kube-dns-arbitraries.js';
import { Outcomes } from '../support/outcomes.js';
import { expectEqual, expectSame } from '../support/hot-expect.js';

/**
 * The shortcuts the default translator takes for the common case — a zone already canonical, a
 * plain IPv4 nameserver — give exactly what the general code gives.
 */

const label = fc.oneof(
  fc.stringMatching(/^[a-z0-9_-]{1,8}$/),
  fc.constantFrom('a'.repeat(63), 'b'.repeat(64), '', '-a', 'a-', '_', 'A', 'é', 'xn--bcher-kva'),
);
const zoneLike = fc.oneof(
  fc.array(label, { minLength: 1, maxLength: 5 }).map((labels) => labels.join('.')),
  fc.array(fc.constant('abcdefghij'), { minLength: 20, maxLength: 26 }).map((labels) => labels.join('.')),
  stubDomainName,
  hostileString,
);

describe('the canonical-name shortcut of normalizeZone', () => {
  it('gives what the full normalization gives', () => {
    const outcomes = new Outcomes<'already canonical' | 'normalized' | 'refused'>();
    fc.assert(
      fc.property(zoneLike, (name) => {
        const full = normalizeZoneInFull(name);
        outcomes.add('problem' in full ? 'refused' : full.changes.length === 0 ? 'already canonical' : 'normalized');
        expectEqual(normalizeZone(name), full);
      }),
      { numRuns: 5000 },
    );
    // Expected in 5000 runs: about 2050 canonical names (the shortcut's case), 380 normalized, 2570 refused.
    outcomes.expectAtLeast({ 'already canonical': 1600, normalized: 200, refused: 2000 });
  });
});

const octet = fc.oneof(fc.nat(300).map(String), fc.constantFrom('0', '00', '010', '255', '256'));
const plainish = fc
  .tuple(octet, octet, octet, octet, fc.option(fc.oneof(fc.nat(70000).map(String), fc.constantFrom('', '0', '053', '00053', '65535', '65536', '999999')), { nil: undefined }))
  .map(([a, b, c, d, port]) => `${a}.${b}.${c}.${d}${port === undefined ? '' : `:${port}`}`);

describe('the plain-IPv4 shortcut of readForwardTarget', () => {
  it('gives what the full reading gives', () => {
    const outcomes = new Outcomes<'plain IPv4' | 'other target' | 'refused'>();
    fc.assert(
      fc.property(fc.oneof(plainish, nameserverText, translatableStubNameserver, ipv4Text, fc.stringMatching(/^[0-9.:[\]a-f]{0,18}$/)), (text) => {
        const full = readForwardTargetInFull(text);
        outcomes.add(!full.ok ? 'refused' : plainIPv4Length(text) > 0 ? 'plain IPv4' : 'other target');
        expectEqual(readForwardTarget(text), full);
      }),
      { numRuns: 5000 },
    );
    // Expected in 5000 runs: about 2330 plain IPv4 targets (the shortcut's case), 860 other targets, 1800 refusals.
    outcomes.expectAtLeast({ 'plain IPv4': 1900, 'other target': 600, refused: 1400 });
  });
});

describe('isWithin', () => {
  it('is "equal, or ends in a dot and the parent"', () => {
    const name = fc.oneof(stubDomainName, fc.constantFrom('', '.', 'a.', '.a', 'local', 'cluster.local', 'xcluster.local'));
    fc.assert(
      fc.property(name, name, (child, parent) => {
        expectSame(isWithin(child, parent), parent === '' || child === parent || child.endsWith(`.${parent}`));
      }),
      { numRuns: 3000 },
    );
  });
});
