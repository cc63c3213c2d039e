import { describe, expect, it } from 'vitest';
import { ServerKeyError } from '../../src/corefile/errors.js';
import { isDomainName, parseServerKey, zoneAddressKeys } from '../../src/corefile/server-key.js';

function keyError(key: string): ServerKeyError {
  try {
    parseServerKey(key);
  } catch (error) {
    if (error instanceof ServerKeyError) return error;
    throw error;
  }
  throw new Error(`accepted: ${key}`);
}

describe('parseServerKey (corefile-syntax.md §5)', () => {
  it('reads transport, zone and port, with the transports’ default ports', () => {
    expect(parseServerKey('.')).toMatchObject({ transport: 'dns', zones: ['.'], port: '53', explicitPort: false });
    expect(parseServerKey('example.org:1053')).toMatchObject({ zones: ['example.org.'], port: '1053', explicitPort: true });
    expect(parseServerKey('tls://.:5553')).toMatchObject({ transport: 'tls', zones: ['.'], port: '5553' });
    expect(parseServerKey('tls://example.org')).toMatchObject({ port: '853' });
    expect(parseServerKey('quic://example.org').port).toBe('853');
    expect(parseServerKey('grpc://example.org').port).toBe('443');
    expect(parseServerKey('https://.:8053')).toMatchObject({ transport: 'https', port: '8053' });
    expect(parseServerKey('https3://x').port).toBe('443');
    expect(parseServerKey('unix://x').port).toBeUndefined();
    expect(parseServerKey('dns://example.org').port).toBe('53');
    expect(parseServerKey('example.org', { dnsPort: '1053' }).port).toBe('1053');
  });

  it('keeps unknown and upper-case schemes in the zone name', () => {
    expect(parseServerKey('DNS://x').zones).toEqual(['dns://x.']);
  });

  it('takes a port only after the last colon, when Go’s Atoi accepts it, re-printed', () => {
    expect(parseServerKey('a.org:053').port).toBe('53');
    expect(parseServerKey('a.org:+53').port).toBe('53');
    expect(parseServerKey('a.org:-1').port).toBe('-1');
    expect(parseServerKey('example.org:abc')).toMatchObject({ zones: ['example.org:abc.'], port: '53', explicitPort: false });
    expect(parseServerKey('[::1]:53')).toMatchObject({ zones: ['[::1].'], port: '53' });
    expect(parseServerKey('a:99999999999999999999').zones).toEqual(['a:99999999999999999999.']);
    expect(keyError('example.org:').message).toBe('expecting data after last colon: "example.org:"');
  });

  it('makes zones fully qualified and lower case', () => {
    expect(parseServerKey('EXAMPLE.Org').zones).toEqual(['example.org.']);
    expect(parseServerKey('example.com.:1053').zones).toEqual(['example.com.']);
    expect(parseServerKey('a\\.').zones).toEqual(['a\\..']);
  });

  it('accepts what miekg/dns IsDomainName accepts — almost anything', () => {
    for (const zone of ['a.org,b.org', '{whoami', '}', '<domain', '[::1]', '32/27.104.21.172.in-addr.arpa', 'xn--p1ai', '__PILLAR__DNS__DOMAIN__']) {
      expect(isDomainName(zone), zone).toBe(true);
    }
    for (const zone of ['', 'a..b', '.example.org', `${'a'.repeat(64)}.org`, 'a\\']) expect(isDomainName(zone), zone).toBe(false);
    expect(isDomainName('.')).toBe(true);
    expect(isDomainName(`${'a'.repeat(63)}.org`)).toBe(true);
  });

  it('refuses what CoreDNS refuses, with its message', () => {
    expect(keyError(':53').message).toBe('zone is not a valid domain name: ');
    expect(keyError('.example.org').message).toBe('zone is not a valid domain name: .example.org');
    expect(keyError('a..b').code).toBe('invalid-domain-name');
    expect(keyError(`${'a.'.repeat(128)}org`).message).toBe('specified zone is too long: 259 > 255');
    expect(keyError('::/0').message).toBe('invalid CIDR ::/0');
  });

  it('turns CIDR keys into reverse zones, one per label-boundary subnet', () => {
    expect(parseServerKey('10.0.0.0/8')).toMatchObject({ zones: ['10.in-addr.arpa.'], cidr: '10.0.0.0/8' });
    expect(parseServerKey('192.168.1.0/24').zones).toEqual(['1.168.192.in-addr.arpa.']);
    expect(parseServerKey('0.0.0.0/0').zones).toEqual(['in-addr.arpa.']);
    expect(parseServerKey('2001:db8::/32').zones).toEqual(['8.b.d.0.1.0.0.2.ip6.arpa.']);
    const twelve = parseServerKey('10.0.0.0/12').zones;
    expect(twelve).toHaveLength(16);
    expect([twelve[0], twelve[15]]).toEqual(['0.10.in-addr.arpa.', '15.10.in-addr.arpa.']);
    const small = parseServerKey('10.0.0.0/27:53');
    expect(small.zones).toHaveLength(32);
    expect([small.zones[0], small.zones[31], small.port]).toEqual(['0.0.0.10.in-addr.arpa.', '31.0.0.10.in-addr.arpa.', '53']);
    expect(parseServerKey('fd00::/7').zones).toEqual(['c.f.ip6.arpa.', 'd.f.ip6.arpa.']);
    expect(parseServerKey('10.0.0.5/24').zones).toEqual(['0.0.10.in-addr.arpa.']);
  });

  it('leaves plain addresses, invalid masks and RFC 2317 names as ordinary zones', () => {
    expect(parseServerKey('10.0.0.1').zones).toEqual(['10.0.0.1.']);
    expect(parseServerKey('10.0.0.0/33').zones).toEqual(['10.0.0.0/33.']);
    expect(parseServerKey('010.0.0.0/8').zones).toEqual(['010.0.0.0/8.']);
    expect(parseServerKey('32/27.104.21.172.in-addr.arpa').zones).toEqual(['32/27.104.21.172.in-addr.arpa.']);
  });

  it('reports CoreDNS’s RFC 1035 startup warning without failing', () => {
    expect(parseServerKey('__pillar__:53').warnings).toEqual(['Domain "__pillar__." does not follow RFC1035 preferred syntax']);
    expect(parseServerKey('example.org').warnings).toEqual([]);
    expect(parseServerKey('10.0.0.0/8').warnings).toEqual([]);
  });

  it('names each served zone as CoreDNS does when it looks for duplicates', () => {
    expect(zoneAddressKeys(parseServerKey('example.org'))).toEqual(['dns://example.org.:53']);
    expect(zoneAddressKeys(parseServerKey('10.0.0.0/8'))).toEqual(zoneAddressKeys(parseServerKey('10.in-addr.arpa')));
    expect(zoneAddressKeys(parseServerKey(':015353'.replace(':', 'x:')))).toEqual(zoneAddressKeys(parseServerKey('x:15353')));
  });
});
