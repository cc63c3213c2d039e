import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readForwardTarget, readForwardTargetInFull } from '../../src/coredns/forward-targets.js';
import { isWithin, normalizeZone, normalizeZoneInFull } from '../../src/dns/zones.js';
import { hostileString, ipv4Text, nameserverText, stubDomainName } from '../support/kube-dns-arbitraries.js';

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
    fc.assert(
      fc.property(zoneLike, (name) => {
        expect(normalizeZone(name)).toEqual(normalizeZoneInFull(name));
      }),
      { numRuns: 5000 },
    );
  });
});

const octet = fc.oneof(fc.nat(300).map(String), fc.constantFrom('0', '00', '010', '255', '256'));
const plainish = fc
  .tuple(octet, octet, octet, octet, fc.option(fc.oneof(fc.nat(70000).map(String), fc.constantFrom('', '0', '053', '00053', '65535', '65536', '999999')), { nil: undefined }))
  .map(([a, b, c, d, port]) => `${a}.${b}.${c}.${d}${port === undefined ? '' : `:${port}`}`);

describe('the plain-IPv4 shortcut of readForwardTarget', () => {
  it('gives what the full reading gives', () => {
    fc.assert(
      fc.property(fc.oneof(plainish, nameserverText, ipv4Text, fc.stringMatching(/^[0-9.:[\]a-f]{0,18}$/)), (text) => {
        expect(readForwardTarget(text)).toEqual(readForwardTargetInFull(text));
      }),
      { numRuns: 5000 },
    );
  });
});

describe('isWithin', () => {
  it('is "equal, or ends in a dot and the parent"', () => {
    const name = fc.oneof(stubDomainName, fc.constantFrom('', '.', 'a.', '.a', 'local', 'cluster.local', 'xcluster.local'));
    fc.assert(
      fc.property(name, name, (child, parent) => {
        expect(isWithin(child, parent)).toBe(parent === '' || child === parent || child.endsWith(`.${parent}`));
      }),
      { numRuns: 3000 },
    );
  });
});
