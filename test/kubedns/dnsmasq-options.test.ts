import { describe, expect, it } from 'vitest';
import { inetAton, parseDnsmasqArgs, splitDnsmasqOptions } from '../../src/kubedns/dnsmasq-options.js';

describe('parseDnsmasqArgs', () => {
  it('reads the stock dnsmasq arguments', () => {
    const parsed = parseDnsmasqArgs(['-k', '--cache-size=1000', '--no-negcache', '--dns-loop-detect', '--log-facility=-', '--server=/cluster.local/127.0.0.1#10053', '--server=/in-addr.arpa/127.0.0.1#10053', '--server=/ip6.arpa/127.0.0.1#10053']);
    expect(parsed.cacheSize).toBe(1000);
    expect(parsed.noNegcache).toBe(true);
    expect(parsed.servers.map((entry) => [entry.domains, entry.target])).toEqual([
      [['cluster.local'], { kind: 'upstream', address: '127.0.0.1', port: 10053, source: undefined, written: '127.0.0.1' }],
      [['in-addr.arpa'], { kind: 'upstream', address: '127.0.0.1', port: 10053, source: undefined, written: '127.0.0.1' }],
      [['ip6.arpa'], { kind: 'upstream', address: '127.0.0.1', port: 10053, source: undefined, written: '127.0.0.1' }],
    ]);
    expect(parsed.otherOptions.map((option) => [option.name, option.value])).toEqual([['keep-in-foreground', undefined], ['dns-loop-detect', undefined], ['log-facility', '-']]);
    expect(parsed.problem).toBeUndefined();
    expect(parsed.invalid).toEqual([]);
  });

  it('reads long and short forms alike', () => {
    const long = parseDnsmasqArgs(['--server', '8.8.8.8', '--no-resolv', '--strict-order', '--cache-size', '0', '--dns-forward-max=300', '--log-queries', '--all-servers', '--address=/ads.example/0.0.0.0', '--domain-needed', '--port=5353']);
    const short = parseDnsmasqArgs(['-S', '8.8.8.8', '-Ro', '-c0', '-0', '300', '-q', '--all-servers', '-A/ads.example/0.0.0.0', '-D', '-p5353']);
    const strip = (settings: ReturnType<typeof parseDnsmasqArgs>) => ({ ...settings, servers: settings.servers.map((entry) => [entry.domains, entry.target]), addresses: settings.addresses.map((entry) => [entry.domains, entry.address]), spellings: [...settings.spellings.keys()] });
    expect(strip(short)).toEqual(strip(long));
    // Each setting keeps how it was written.
    expect([...short.spellings].map(([name, options]) => [name, options.map((option) => option.text)])).toEqual([
      ['server', ['-S 8.8.8.8']],
      ['no-resolv', ['-Ro']],
      ['strict-order', ['-Ro']],
      ['cache-size', ['-c0']],
      ['dns-forward-max', ['-0 300']],
      ['log-queries', ['-q']],
      ['all-servers', ['--all-servers']],
      ['address', ['-A/ads.example/0.0.0.0']],
      ['domain-needed', ['-D']],
      ['port', ['-p5353']],
    ]);
    expect(long).toMatchObject({ noResolv: true, strictOrder: true, cacheSize: 0, dnsForwardMax: 300, logQueries: true, allServers: true, domainNeeded: true, port: 5353 });
  });

  it('reads every --server form', () => {
    const parsed = parseDnsmasqArgs([
      '--server=/a/b/10.0.0.1#5353',
      '--server=/zone/',
      '--server=/zone/#',
      '--server=1.2.3.4@eth0',
      '--server=1.2.3.4@5.6.7.8#53',
      '--server=::1#53',
      '--server=//10.0.0.2',
      '--local=/home.lan/',
      '--server=',
      '--server=127.0.0.010',
      '--server=1.2.3.4#',
    ]);
    expect(parsed.servers.map((entry) => [entry.domains, entry.target])).toEqual([
      [['a', 'b'], { kind: 'upstream', address: '10.0.0.1', port: 5353, source: undefined, written: '10.0.0.1' }],
      [['zone'], { kind: 'local-only' }],
      [['zone'], { kind: 'default-upstreams' }],
      [undefined, { kind: 'upstream', address: '1.2.3.4', port: 53, source: 'eth0', written: '1.2.3.4' }],
      [undefined, { kind: 'upstream', address: '1.2.3.4', port: 53, source: '5.6.7.8#53', written: '1.2.3.4' }],
      [undefined, { kind: 'upstream', address: '::1', port: 53, source: undefined, written: '::1' }],
      [[''], { kind: 'upstream', address: '10.0.0.2', port: 53, source: undefined, written: '10.0.0.2' }],
      [['home.lan'], { kind: 'local-only' }],
      [undefined, { kind: 'empty' }],
      [undefined, { kind: 'upstream', address: '127.0.0.8', port: 53, source: undefined, written: '127.0.0.010' }],
      [undefined, { kind: 'upstream', address: '1.2.3.4', port: 53, source: undefined, written: '1.2.3.4' }],
    ]);
    expect(parsed.invalid).toEqual([]);
  });

  it('reports the values dnsmasq 2.90 refuses (checked with dnsmasq --test)', () => {
    const parsed = parseDnsmasqArgs(['--server=127.0.0.08', '--server=[::1]#53', '--server=1.2.3.4#99999', '--server=/a/1.2.3.4#abc', '--server=256.1.1.1', '--server=/a/b', '--cache-size=-1', '--dns-forward-max=0x10', '--port=70000', '--server=ns.example.com']);
    expect(parsed.invalid.map((entry) => entry.option.value)).toEqual(['127.0.0.08', '[::1]#53', '1.2.3.4#99999', '/a/1.2.3.4#abc', '256.1.1.1', '/a/b', '-1', '0x10', '70000', 'ns.example.com']);
  });

  it('stops at what getopt refuses: unknown or ambiguous options, values given to options without one, junk', () => {
    expect(parseDnsmasqArgs(['--foo']).problem?.reason).toBe('unknown option --foo');
    expect(parseDnsmasqArgs(['--cache=10']).problem?.reason).toBe('--cache is ambiguous');
    expect(parseDnsmasqArgs(['--no-resolv=1']).problem?.reason).toBe('--no-resolv takes no value');
    expect(parseDnsmasqArgs(['junk']).problem?.reason).toBe('junk found in command line');
    expect(parseDnsmasqArgs(['--server']).problem?.reason).toBe('--server needs a value');
    expect(parseDnsmasqArgs(['-k', '--', 'x']).problem).toMatchObject({ index: 2, reason: 'junk found in command line' });
  });

  it('accepts unambiguous prefixes of long names and optional values only after =', () => {
    expect(parseDnsmasqArgs(['--no-resol']).noResolv).toBe(true);
    expect(splitDnsmasqOptions(['--log-queries=extra', '-qextra', '-q'])).toEqual({
      options: [
        { name: 'log-queries', value: 'extra', index: 0, text: '--log-queries=extra' },
        { name: 'log-queries', value: 'extra', index: 1, text: '-qextra' },
        { name: 'log-queries', value: undefined, index: 2, text: '-q' },
      ],
      problem: undefined,
    });
  });
});

describe('inetAton (each case checked against dnsmasq 2.90 --test)', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    ['127.0.0.010', '127.0.0.8'],
    ['0x7f.1', '127.0.0.1'],
    ['127.1', '127.0.0.1'],
    ['10.1.2', '10.1.0.2'],
    ['2130706433', '127.0.0.1'],
    ['0', '0.0.0.0'],
  ])('%s → %s', (text, address) => {
    expect(inetAton(text)).toBe(address);
  });

  it.each(['127.0.0.08', '127.0.0.09', '256.1.1.1', '1.2.3.4.5', '', '1..2', '1.2.3.256', '4294967296', ' 1.2.3.4', 'a.b.c.d', '0x'])('refuses %j', (text) => {
    expect(inetAton(text)).toBeUndefined();
  });
});

describe('domains that end in a dot (dnsmasq 2.86+)', () => {
  it('marks an entry whose domain before the last ends in a dot as applying to names without a dot too', () => {
    const parsed = parseDnsmasqArgs([
      '--local=/internal./local./lc./',
      '--local=/a/b./',
      '--server=/c./d/10.0.0.1',
      '--address=/.e./f/',
      '--address=/*g./h/192.0.2.1',
      '--server=/#/i/10.0.0.2',
      '--server=/./j/10.0.0.3',
      '--local=/k./',
    ]);
    const marks = [...parsed.servers, ...parsed.addresses].map((entry) => `${entry.option.text} ${entry.trailingDotUnqualified}`);
    expect(marks).toEqual([
      '--local=/internal./local./lc./ true',
      // The last domain's dot leaves nothing behind it: no empty domain follows.
      '--local=/a/b./ false',
      '--server=/c./d/10.0.0.1 true',
      '--server=/#/i/10.0.0.2 false',
      // `.` alone becomes the empty domain without being canonicalised: nothing is cut in place.
      '--server=/./j/10.0.0.3 false',
      '--local=/k./ false',
      '--address=/.e./f/ true',
      '--address=/*g./h/192.0.2.1 true',
    ]);
  });
});

describe('options dnsmasq takes once', () => {
  it('stops at the second of an option dnsmasq takes once ("illegal repeated flag"), not at repeated servers or flags', () => {
    const repeated = parseDnsmasqArgs(['--cache-size=1000', '--no-negcache', '--server=/a/10.0.0.1', '--cache-size=0', '--port=53']);
    expect(repeated.problem).toEqual({ index: 3, token: '--cache-size=0', reason: 'illegal repeated flag (--cache-size is taken once)' });
    expect(parseDnsmasqArgs(['-c', '10', '--cache-size=5']).problem?.token).toBe('--cache-size=5');
    expect(parseDnsmasqArgs(['--log-async', '--log-async']).problem?.reason).toBe('illegal repeated flag (--log-async is taken once)');
    expect(parseDnsmasqArgs(['--no-negcache', '-N', '--server=10.0.0.1', '--server=10.0.0.1', '--address=/a/', '--address=/a/']).problem).toBeUndefined();
  });
});
