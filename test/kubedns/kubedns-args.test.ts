import { describe, expect, it } from 'vitest';
import { readContainerArgv } from '../../src/kubedns/container-args.js';
import { parseKubeDnsArgs, readDomainFlag, readFederationsFlag } from '../../src/kubedns/kubedns-args.js';

describe('parseKubeDnsArgs', () => {
  it('reads the stock manifest (kubernetes cluster/addons/dns/kube-dns)', () => {
    const parsed = parseKubeDnsArgs(['--domain=cluster.local.', '--dns-port=10053', '--config-dir=/kube-dns-config', '--v=2']);
    expect(parsed.values).toEqual({ domain: 'cluster.local.', dnsPort: 10053, configDir: '/kube-dns-config' });
    expect(parsed.otherSettings.map((setting) => [setting.name, setting.value])).toEqual([['v', '2']]);
    expect(parsed.invalid).toEqual([]);
    expect(parsed.problem).toBeUndefined();
  });

  it('reads the older manifest with --config-map and federations', () => {
    const parsed = parseKubeDnsArgs(['--domain', 'cluster.local', '--dns-port', '10053', '--config-map=kube-dns', '--federations=myfed=example.com', '--federations', 'other=example.org', '--v', '2', '--logtostderr']);
    expect(parsed.values.domain).toBe('cluster.local.');
    expect(parsed.values.configMap).toBe('kube-dns');
    expect([...(parsed.values.federations ?? [])]).toEqual([['myfed', 'example.com'], ['other', 'example.org']]);
    expect(parsed.otherSettings.map((setting) => setting.name)).toEqual(['v', 'logtostderr']);
  });

  it('stops at a flag kube-dns does not have, seen in a real-world manifest with a valueFrom reference', () => {
    const argv = readContainerArgv({
      args: ['--domain=cluster.local.', '--dns-port=10053', '--namespace=$(POD_NAMESPACE)', '--config-dir=/kube-dns-config', '--v=2'],
      env: [{ name: 'PROMETHEUS_PORT', value: '10055' }, { name: 'POD_NAMESPACE' }],
    });
    expect(argv.unresolved).toEqual([{ field: 'args', index: 2, name: 'POD_NAMESPACE', reason: 'run-time' }]);
    const parsed = parseKubeDnsArgs(argv.programArguments ?? []);
    expect(parsed.problem).toMatchObject({ kind: 'unknown-flag', name: 'namespace', index: 2 });
    expect(parsed.values).toEqual({ domain: 'cluster.local.', dnsPort: 10053 });
  });

  it('keeps the last value of a repeated flag and accepts underscores', () => {
    expect(parseKubeDnsArgs(['--domain=a.', '--domain=b.', '--config_dir=/x', '--nameservers=1.1.1.1:53,8.8.8.8']).values).toEqual({ domain: 'b.', configDir: '/x', nameservers: '1.1.1.1:53,8.8.8.8' });
  });

  it('reports values kube-dns refuses and the token that stops it', () => {
    const parsed = parseKubeDnsArgs(['--domain=Cluster.Local', '--dns-port=port', '--federations=noequals', '--profiling=maybe', 'stray', '--unknown-flag', '--domain=late.']);
    expect(parsed.invalid.map((entry) => entry.setting.name)).toEqual(['domain', 'dns-port', 'federations', 'profiling']);
    expect(parsed.positional).toEqual([{ index: 4, value: 'stray' }]);
    expect(parsed.problem).toMatchObject({ kind: 'unknown-flag', name: 'unknown-flag', index: 5 });
    expect(parsed.values.domain).toBeUndefined();
  });
});

describe('kube-dns value readers', () => {
  it.each([
    ['cluster.local.', 'cluster.local.'],
    ['cluster.local', 'cluster.local.'],
    ['a', 'a.'],
  ])('--domain=%s is stored as %s', (value, stored) => {
    expect(readDomainFlag(value)).toEqual({ domain: stored });
  });

  it.each(['', '.', 'cluster.local..', 'Cluster.local', 'a_b.local', `${'a'.repeat(64)}.local`])('refuses --domain=%j', (value) => {
    expect(readDomainFlag(value)).toHaveProperty('reason');
  });

  it('reads --federations pairs with spaces trimmed, empty meaning none', () => {
    const into = new Map<string, string>();
    expect(readFederationsFlag(' a = x.org , b=y.com', into)).toBeUndefined();
    expect(readFederationsFlag('  ', into)).toBeUndefined();
    expect([...into]).toEqual([['a', 'x.org'], ['b', 'y.com']]);
    expect(readFederationsFlag('A=x.org', new Map())).toMatch(/federation name/);
    expect(readFederationsFlag('a=X.org', new Map())).toMatch(/federation domain/);
  });
});
