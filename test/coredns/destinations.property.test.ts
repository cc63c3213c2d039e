import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readDestination, readDestinationInFull } from '../../src/coredns/destinations.js';
import { Outcomes } from '../support/outcomes.js';

/**
 * `readDestination`'s shortcut for plain IPv4 destinations (`10.0.0.53`, `10.0.0.53:5353`: lint
 * reads every forward destination) agrees with the general reading, on those and on texts near them.
 */
describe('readDestination shortcut for plain IPv4 addresses', () => {
  it('reads what the general reading reads', () => {
    const octet = fc.oneof({ weight: 12, arbitrary: fc.nat(255).map(String) }, fc.constantFrom('0', '00', '010', '127', '255', '256', '999', '1000', '', 'a'));
    const address = fc.oneof({ weight: 3, arbitrary: fc.tuple(fc.constantFrom('127', '10', '1'), octet, octet, octet).map((octets) => octets.join('.')) }, fc.array(octet, { minLength: 3, maxLength: 5 }).map((octets) => octets.join('.')));
    const port = fc.oneof(fc.constant(''), fc.nat(99999).map((value) => `:${value}`), fc.constantFrom(':', ':053', ':123456', ':5x', '::53'));
    const scheme = fc.constantFrom('', '', '', 'dns://', 'tls://', 'https://');
    const text = fc.oneof({ weight: 4, arbitrary: fc.tuple(scheme, address, port).map(([a, b, c]) => a + b + c) }, fc.constantFrom('[::1]:53', '::1', 'localhost', '/etc/resolv.conf', '{$UPSTREAM}', 'dns.example.com:53', ''));
    const outcomes = new Outcomes<'ip' | 'loopback ip' | 'other'>();
    fc.assert(
      fc.property(text, (destination) => {
        const expected = readDestinationInFull(destination);
        expect(readDestination(destination)).toEqual(expected);
        outcomes.add(expected.kind !== 'ip' ? 'other' : expected.loopback ? 'loopback ip' : 'ip');
      }),
      { numRuns: 4000 },
    );
    outcomes.expectAtLeast({ ip: 1000, 'loopback ip': 400, other: 800 });
  });
});
