import { describe, expect, it } from 'vitest';
import { destinationKey } from '../../src/routing/destination.js';
import { kubeDnsRouting } from '../../src/routing/kube-dns-routing.js';

const stubs = (value: Record<string, readonly string[]>) => JSON.stringify(value);

function keyOf(model: ReturnType<typeof kubeDnsRouting>, name: string): string {
  return destinationKey(model.route(name).destination);
}

describe('kube-dns routing model', () => {
  it('sends the cluster domain to kubedns, whose NXDOMAIN is final, whatever the case or trailing dot', () => {
    const model = kubeDnsRouting({});
    for (const name of ['cluster.local', 'kubernetes.default.svc.cluster.local', 'KUBERNETES.Default.SVC.cluster.local.', 'x.cluster.local']) {
      expect(keyOf(model, name)).toBe('cluster@cluster.local');
    }
    expect(model.route('x.cluster.local').via).toBe('kubedns: cluster domain cluster.local');
    expect(keyOf(model, 'cluster.localx')).toBe('resolv.conf');
  });

  it('sends the reverse zones to kubedns, which forwards what it cannot answer to the upstreams', () => {
    expect(keyOf(kubeDnsRouting({}), '1.0.96.10.in-addr.arpa')).toBe('cluster>resolv.conf');
    const model = kubeDnsRouting({ upstreamNameservers: '["8.8.8.8", "2001:4860:4860::8888", "1.1.1.1:5353"]' });
    expect(keyOf(model, 'x.ip6.arpa')).toBe('cluster>servers(1.1.1.1:5353,8.8.8.8:53,[2001:4860:4860::8888]:53)');
  });

  it('upstreamNameservers replace resolv.conf; absent or [] mean resolv.conf', () => {
    expect(keyOf(kubeDnsRouting({}), 'example.com')).toBe('resolv.conf');
    expect(keyOf(kubeDnsRouting(null), 'example.com')).toBe('resolv.conf');
    expect(kubeDnsRouting({ upstreamNameservers: '[]' }).route('example.com')).toEqual({ destination: { kind: 'resolv.conf' }, via: 'upstreamNameservers is empty: resolv.conf' });
    expect(keyOf(kubeDnsRouting({ upstreamNameservers: '["8.8.4.4", "8.8.8.8:53"]' }), 'example.com')).toBe('servers(8.8.4.4:53,8.8.8.8:53)');
  });

  it('picks the most specific stub domain and never falls back', () => {
    const model = kubeDnsRouting({ stubDomains: stubs({ 'acme.local': ['10.0.0.1'], 'a.acme.local': ['10.0.0.2:5353'], local: ['10.0.0.3'] }), upstreamNameservers: '["8.8.8.8"]' });
    expect(keyOf(model, 'acme.local')).toBe('servers(10.0.0.1:53)');
    expect(keyOf(model, 'b.acme.local')).toBe('servers(10.0.0.1:53)');
    expect(keyOf(model, 'x.a.acme.local')).toBe('servers(10.0.0.2:5353)');
    expect(keyOf(model, 'other.local')).toBe('servers(10.0.0.3:53)');
    expect(keyOf(model, 'notacme.local')).toBe('servers(10.0.0.3:53)');
    expect(model.route('x.a.acme.local').via).toBe('stub domain a.acme.local');
  });

  it('keeps cluster names with kubedns under a parent stub; a stub below the cluster domain takes its subtree', () => {
    const model = kubeDnsRouting({ stubDomains: stubs({ local: ['10.0.0.3'], 'my.cluster.local': ['10.0.0.4'], arpa: ['10.0.0.5'], '10.in-addr.arpa': ['10.0.0.6'] }) });
    expect(keyOf(model, 'svc.cluster.local')).toBe('cluster@cluster.local');
    expect(keyOf(model, 'a.my.cluster.local')).toBe('servers(10.0.0.4:53)');
    expect(keyOf(model, '4.3.2.1.in-addr.arpa')).toBe('cluster>resolv.conf');
    expect(keyOf(model, '4.3.2.10.in-addr.arpa')).toBe('servers(10.0.0.6:53)');
    expect(keyOf(model, 'e164.arpa')).toBe('servers(10.0.0.5:53)');
  });

  it('a stub equal to the cluster domain or a reverse zone gives dnsmasq two server sets to choose from', () => {
    const model = kubeDnsRouting({ stubDomains: stubs({ 'cluster.local': ['10.0.0.1'], 'in-addr.arpa': ['10.0.0.2'] }) });
    expect(keyOf(model, 'a.cluster.local')).toBe('any-of(cluster@cluster.local|servers(10.0.0.1:53))');
    expect(keyOf(model, '1.2.3.4.in-addr.arpa')).toBe('any-of(cluster>resolv.conf|servers(10.0.0.2:53))');
    expect(model.notes.join('\n')).toMatch(/stub domain cluster\.local is also served by kubedns/);
  });

  it('ignores a stub domain without nameservers, as the nanny does', () => {
    const model = kubeDnsRouting({ stubDomains: stubs({ 'empty.example': [] }), upstreamNameservers: '["8.8.8.8"]' });
    expect(keyOf(model, 'x.empty.example')).toBe('servers(8.8.8.8:53)');
    expect(model.notes).toEqual(['stub domain empty.example has no nameservers: dnsmasq-nanny adds no --server for it, so its names go upstream']);
  });

  it('models the nameservers read of a list too long to read in full, and says so', () => {
    const list = Array.from({ length: 1000 }, (_, index) => `10.0.${index >> 8}.${index & 255}`);
    const model = kubeDnsRouting({ stubDomains: stubs({ 'long.example': list }), upstreamNameservers: '["8.8.8.8"]' });
    expect(model.notes).toEqual(['stub domain long.example lists 1000 nameservers: only the first 256 were read and are modelled']);
    const servers = /^servers\((.*)\)$/.exec(keyOf(model, 'x.long.example'))?.[1]?.split(',');
    expect(servers).toHaveLength(256);
    expect(servers).toContain('10.0.0.255:53');
    expect(servers).not.toContain('10.0.1.0:53');
  });

  it('routes a ConfigMap kube-dns rejects like its defaults, and says so', () => {
    const model = kubeDnsRouting({ stubDomains: stubs({ 'acme.local': ['10.0.0.1'] }), upstreamNameservers: '["1.1.1.1", "1.0.0.1", "8.8.8.8", "8.8.4.4"]' });
    expect(model.acceptedByKubeDns).toBe(false);
    expect(keyOf(model, 'x.acme.local')).toBe('resolv.conf');
    expect(keyOf(model, 'example.com')).toBe('resolv.conf');
    expect(model.notes[0]).toMatch(/^kube-dns 1\.26\.7 rejects this ConfigMap \(1 problem, first: .*\) and runs its defaults at startup/);
  });

  it('answers federation-shaped names with a CNAME into the federation domain', () => {
    const model = kubeDnsRouting({ federations: 'myfed=fed.example.com' });
    expect(keyOf(model, 'web.shop.myfed.svc.cluster.local')).toBe('cluster@cluster.local[federation=fed.example.com]');
    expect(model.route('web.shop.myfed.svc.cluster.local').via).toBe('kubedns: federation myfed');
    for (const name of ['web.shop.other.svc.cluster.local', 'a.web.shop.myfed.svc.cluster.local', '1web.shop.myfed.svc.cluster.local', 'web.shop.myfed.pod.cluster.local']) {
      expect(keyOf(model, name)).toBe('cluster@cluster.local');
    }
  });

  it('notes hostname nameservers and the [IPv6]:port form dnsmasq refuses', () => {
    const model = kubeDnsRouting({ stubDomains: stubs({ 'acme.local': ['ns.acme.example', '[2001:db8::1]:5353', '2001:db8::2'] }) });
    expect(keyOf(model, 'acme.local')).toBe('servers([2001:db8::1]:5353,[2001:db8::2]:53,ns.acme.example:53)');
    expect(model.notes).toEqual([
      "stub domain acme.local: 'ns.acme.example' is a hostname; dnsmasq-nanny resolves it once, when it configures dnsmasq, and uses only its first address",
      "stub domain acme.local: dnsmasq-nanny passes '[2001:db8::1]:5353' to dnsmasq as '[2001:db8::1]#5353', which dnsmasq refuses (it does not start); routed as if it had accepted the address",
    ]);
  });

  it('uses the given cluster domain and lists the zones it routes on', () => {
    const model = kubeDnsRouting({ stubDomains: stubs({ 'acme.local': ['10.0.0.1'] }) }, { clusterDomain: 'K8s.Example.ORG.' });
    expect(model.clusterDomain).toBe('k8s.example.org');
    expect(keyOf(model, 'a.k8s.example.org')).toBe('cluster@k8s.example.org');
    expect(keyOf(model, 'a.cluster.local')).toBe('resolv.conf');
    expect(model.zones).toEqual(['k8s.example.org', 'in-addr.arpa', 'ip6.arpa', 'acme.local']);
  });
});

describe('kube-dns routing model: the wrong ConfigMap', () => {
  it('notes a ConfigMap without any kube-dns key, such as the CoreDNS one', () => {
    const model = kubeDnsRouting({ Corefile: '.:53 {\n}\n' });
    expect(model.notes).toEqual(['the ConfigMap has none of stubDomains, upstreamNameservers, federations (only Corefile): kube-dns runs its defaults']);
    expect(kubeDnsRouting({}).notes).toEqual([]);
  });
});
