import { describe, expect, it } from 'vitest';
import { formatGoIP, isDns1123Subdomain, isGoIP, isValidPort, parseGoIP, splitHostPort } from '../../src/dns/go-net.js';

describe('splitHostPort (Go net.SplitHostPort)', () => {
  it.each([
    ['1.2.3.4:53', { host: '1.2.3.4', port: '53' }],
    ['[2001:db8::1]:5353', { host: '2001:db8::1', port: '5353' }],
    ['1.2.3.4:', { host: '1.2.3.4', port: '' }],
    [':53', { host: '', port: '53' }],
    ['ns.example.com:abc', { host: 'ns.example.com', port: 'abc' }],
    ['[]:1', { host: '', port: '1' }],
  ])('%s', (input, expected) => {
    expect(splitHostPort(input)).toEqual(expected);
  });

  it.each(['1.2.3.4', '2001:db8::1', '[2001:db8::1]', '[::1', '[::1]x:53', 'a[b]:53', 'a]b:53', '[a]:b]:53', ''])('rejects %s', (input) => {
    expect(splitHostPort(input)).toBeUndefined();
  });
});

describe('parseGoIP (Go ≤ 1.15 net.ParseIP)', () => {
  it.each([
    ['1.2.3.4', [1, 2, 3, 4]],
    ['010.0.0.1', [10, 0, 0, 1]],
    ['0.0.0.0', [0, 0, 0, 0]],
    ['::', new Array(16).fill(0)],
    ['::1', [...new Array(15).fill(0), 1]],
    ['::ffff:1.2.3.4', [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 1, 2, 3, 4]],
    ['2001:DB8::1', [0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]],
    ['1:2:3:4:5:6:7:8', [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8]],
    ['1:2:3:4:5:6:1.2.3.4', [0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 1, 2, 3, 4]],
  ])('%s', (input, bytes) => {
    expect(parseGoIP(input)).toEqual(bytes);
  });

  it.each([
    '256.1.1.1',
    '1.2.3',
    '1.2.3.4.5',
    '1.2.3.4:53',
    '[2001:db8::1]',
    'fe80::1%eth0',
    '2001:db8::1::2',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7::8',
    '1::2::3',
    '12345::1',
    ':1',
    '1:',
    '1.2.3.4::',
    '1:2:3:4:5:1.2.3.4',
    'a b',
    '',
    'ns1.example.com',
  ])('rejects %s', (input) => {
    expect(isGoIP(input)).toBe(false);
  });
});

describe('isValidPort (kubeadm ParsePort)', () => {
  it.each([
    ['53', 'atoi', true],
    ['053', 'atoi', true],
    ['+53', 'atoi', true],
    ['+53', 'uint16', false],
    ['-53', 'atoi', false],
    ['0', 'atoi', false],
    ['0', 'uint16', false],
    ['65535', 'uint16', true],
    ['65536', 'atoi', false],
    ['000000000065535', 'uint16', true],
    ['99999999999999999999', 'atoi', false],
    ['abc', 'atoi', false],
    ['5_3', 'atoi', false],
    [' 53', 'atoi', false],
  ] as const)('%s with %s → %s', (port, parser, valid) => {
    expect(isValidPort(port, parser)).toBe(valid);
  });
});

describe('isDns1123Subdomain', () => {
  it.each(['a', 'example.com', 'a-b.c', '1.2.3.4', 'xn--bcher-kva.example', `${'a'.repeat(63)}.${'b'.repeat(189)}`])('accepts %s', (name) => {
    expect(isDns1123Subdomain(name)).toBe(true);
  });
  it.each(['', 'Example.com', '-a.com', 'a-.com', 'a..b', 'a.', '.a', 'under_score.example', 'bücher.example', 'a'.repeat(254)])('rejects %s', (name) => {
    expect(isDns1123Subdomain(name)).toBe(false);
  });
});

describe('strict octets (Go ≥ 1.17) and formatGoIP (net.IP.String)', () => {
  it('refuses leading zeros only in the strict reading', () => {
    expect(isGoIP('010.0.0.1', 'strict')).toBe(false);
    expect(isGoIP('::ffff:1.02.3.4', 'strict')).toBe(false);
    expect(isGoIP('10.0.0.1', 'strict')).toBe(true);
    expect(isGoIP('0.0.0.0', 'strict')).toBe(true);
  });

  it.each([
    ['1.2.3.4', '1.2.3.4'],
    ['010.0.0.1', '10.0.0.1'],
    ['::ffff:1.2.3.4', '1.2.3.4'],
    ['2001:DB8:0::1', '2001:db8::1'],
    ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1'],
    ['1:0:2:0:3:0:4:0', '1:0:2:0:3:0:4:0'],
    ['::', '::'],
    ['::1', '::1'],
    ['fd00::a', 'fd00::a'],
  ])('%s prints as %s', (text, printed) => {
    const bytes = parseGoIP(text);
    expect(bytes && formatGoIP(bytes)).toBe(printed);
  });
});
