import { describe, expect, it } from 'vitest';
import { nannyAppendedArgs, nannyServerAddress, parseNannyArgs } from '../../src/kubedns/dnsmasq-nanny-args.js';
import { STOCK_DNSMASQ_ARGS, STOCK_NANNY_ARGS } from '../support/kube-dns-manifests.js';

/** The dnsmasq container of the stock kube-dns manifest: the nanny's flags, `--`, dnsmasq's. */
const STOCK = [...STOCK_NANNY_ARGS, ...STOCK_DNSMASQ_ARGS];

describe('parseNannyArgs', () => {
  it('splits the stock arguments at -- into the nanny flags and dnsmasq argv', () => {
    const parsed = parseNannyArgs(STOCK);
    expect(parsed.settings.map((setting) => [setting.name, setting.value])).toEqual([['v', '2'], ['logtostderr', 'true'], ['configDir', '/etc/k8s/dns/dnsmasq-nanny'], ['restartDnsmasq', 'true']]);
    expect(parsed.dnsmasqArgs).toEqual(STOCK.slice(5));
    expect(parsed.hasSeparator).toBe(true);
    expect(parsed.ignored).toEqual([]);
    expect(parsed.problem).toBeUndefined();
  });

  it('splits at the first -- only; later ones go to dnsmasq', () => {
    expect(parseNannyArgs(['--', '-k', '--', 'x']).dnsmasqArgs).toEqual(['-k', '--', 'x']);
  });

  it('without -- gives dnsmasq nothing and reads the default configDir', () => {
    const parsed = parseNannyArgs(['-v=2']);
    expect(parsed).toMatchObject({ dnsmasqArgs: [], hasSeparator: false, configDir: '/etc/k8s/dns/dnsmasq-nanny' });
  });

  it('names what Go flag never reads and the flag that stops the nanny', () => {
    expect(parseNannyArgs(['-v=2', '--cache-size=1000', '--', '-k']).problem).toMatchObject({ kind: 'unknown-flag', name: 'cache-size' });
    const parsed = parseNannyArgs(['-v=2', 'oops', '-configDir=/x', '--', '-k']);
    expect(parsed.ignored.map((item) => item.value)).toEqual(['oops', '-configDir=/x']);
    expect(parsed.configDir).toBe('/etc/k8s/dns/dnsmasq-nanny');
  });
});

describe('what the nanny appends from the ConfigMap', () => {
  it.each([
    ['1.2.3.4', '1.2.3.4'],
    ['1.2.3.4:5353', '1.2.3.4#5353'],
    ['[fd00::1]:53', '[fd00::1]#53'],
    ['fd00::1', 'fd00::1'],
    ['ns.example.com:53', 'ns.example.com#53'],
  ])('%s → %s', (input, output) => {
    expect(nannyServerAddress(input)).toBe(output);
  });

  it('appends stubs, then upstreams, then --no-resolv', () => {
    const appended = nannyAppendedArgs(new Map([['acme.local', ['1.2.3.4', 'ns.acme.local:53']]]), ['8.8.8.8', '8.8.4.4:53']);
    expect(appended.argv).toEqual(['--server', '/acme.local/1.2.3.4', '--server', '/acme.local/ns.acme.local#53', '--server', '8.8.8.8', '--server', '8.8.4.4#53', '--no-resolv']);
    expect(appended.servers.map((server) => server.resolvedAtRunTime)).toEqual([false, true, false, false]);
    expect(nannyAppendedArgs(new Map([['a', ['1.1.1.1']]]), []).argv).toEqual(['--server', '/a/1.1.1.1']);
  });
});
