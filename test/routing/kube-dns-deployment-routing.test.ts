import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KUBE_DNS_QUIRKS } from '../../src/kubedns/kube-dns-quirks.js';
import { readKubeDnsInstall } from '../../src/kubedns/kube-dns-install.js';
import { checkRouting, formatRoutingCheck } from '../../src/routing/check.js';
import { describeDestination } from '../../src/routing/destination.js';
import { kubeDnsRouting } from '../../src/routing/kube-dns-routing.js';
import { translateKubeDnsInstall } from '../../src/translate/translate.js';
import { configMapYaml, deploymentYaml, STOCK_DNSMASQ_ARGS } from '../support/kube-dns-manifests.js';

const root = join(import.meta.dirname, '../..');

function deployment(dnsmasq: readonly string[], kubedns?: readonly string[]) {
  const install = readKubeDnsInstall([{ text: deploymentYaml({ dnsmasq, ...(kubedns === undefined ? {} : { kubedns }) }) }]);
  if (install.deployment === undefined) throw new Error('no deployment');
  return install.deployment;
}

function where(routing: ReturnType<typeof kubeDnsRouting>, name: string): string {
  return describeDestination(routing.route(name).destination);
}

describe('the kube-dns model with the Deployment', () => {
  it("routes the manifest's --server zones, merged with the ConfigMap's, and its --no-resolv upstreams", () => {
    const routing = kubeDnsRouting(
      { stubDomains: '{"acme.local": ["10.0.0.1"]}', upstreamNameservers: '["192.0.2.1"]' },
      { deployment: deployment([...STOCK_DNSMASQ_ARGS, '--server=/acme.local/10.0.0.2#5353', '--server=/corp/10.0.0.3', '-R', '--server=192.0.2.9']) },
    );
    expect(where(routing, 'x.acme.local')).toBe('10.0.0.1:53 10.0.0.2:5353');
    expect(where(routing, 'x.corp')).toBe('10.0.0.3:53');
    expect(where(routing, 'example.com')).toBe('192.0.2.1:53 192.0.2.9:53');
    expect(routing.cachesNegativeAnswers).toBe(false);
  });

  it('answers --address and --server=/zone/ itself (as template would), an address beating servers, NXDOMAIN giving way', () => {
    const routing = kubeDnsRouting(
      { stubDomains: '{"served.test": ["10.0.0.1"], "fixed.test": ["10.0.0.2"]}' },
      { deployment: deployment([...STOCK_DNSMASQ_ARGS, '--server=/blocked.test/', '--address=/served.test/', '--address=/fixed.test/192.0.2.7']) },
    );
    expect(where(routing, 'a.blocked.test')).toBe('plugin template');
    expect(where(routing, 'a.served.test')).toBe('10.0.0.1:53');
    expect(where(routing, 'a.fixed.test')).toBe('plugin template');
  });

  it('routes the other query types of an --address zone by dnsmasq era: on as if it were not there from 2.86 (kube-dns 1.22.1), NODATA before', () => {
    const flags = [...STOCK_DNSMASQ_ARGS, '--address=/v4.test/192.0.2.4', '--address=/v6.test/fd00::6', '--address=/nodata.test/192.0.2.5', '--local=/nodata.test/', '--server=/corp.test/10.0.0.3', '--address=/a.corp.test/192.0.2.6', '--server=/same.test/10.0.0.4', '--address=/same.test/192.0.2.7', '--address=/x.cluster.local/192.0.2.8', '--local=/parent.test/', '--address=/c.parent.test/192.0.2.9'];
    const era = (tag: string) => {
      const install = readKubeDnsInstall([{ text: deploymentYaml({ dnsmasq: flags, kubeDnsImage: `registry.k8s.io/dns/k8s-dns-kube-dns:${tag}` }) }]);
      const routing = kubeDnsRouting(null, install.deployment === undefined ? {} : { deployment: install.deployment });
      return (name: string, type: string) => describeDestination(routing.route(name, type).destination);
    };
    const newer = era('1.22.1');
    const older = era('1.22.0');
    // Every era: the address's own type, and the zone's own servers for the others.
    for (const route of [newer, older]) {
      expect(route('x.v4.test', 'A')).toBe('plugin template');
      expect(route('x.v6.test', 'AAAA')).toBe('plugin template');
      expect(route('x.same.test', 'A')).toBe('plugin template');
      expect(route('x.same.test', 'AAAA')).toBe('10.0.0.4:53');
      expect(route('x.nodata.test', 'MX')).toBe('plugin template');
    }
    // dnsmasq 2.86+: the others go where the name would go without the entry.
    expect(newer('x.v4.test', 'AAAA')).toBe('resolv.conf');
    expect(newer('x.v4.test', 'mx')).toBe('resolv.conf');
    expect(newer('x.v6.test', 'A')).toBe('resolv.conf');
    expect(newer('x.a.corp.test', 'MX')).toBe('10.0.0.3:53');
    expect(newer('y.x.cluster.local', 'AAAA')).toBe('cluster cluster.local');
    expect(newer('x.c.parent.test', 'AAAA')).toBe('plugin template');
    // Before: NODATA, dnsmasq's own answer.
    for (const name of ['x.v4.test', 'x.a.corp.test', 'y.x.cluster.local']) expect(older(name, 'AAAA')).toBe('plugin template');
    expect(older('x.v6.test', 'A')).toBe('plugin template');
  });

  it("sends the cluster's zones under a ConfigMap stub domain to the stub when every name reaches kubedns through dnsmasq's default server and the nanny (its --server=/local/… is more specific)", () => {
    const nanny = ['--cache-size=1000', '--no-resolv', '--server=127.0.0.1#10053'];
    const text = (stubs: string) => `${deploymentYaml({ dnsmasq: nanny })}---\n${configMapYaml({ stubDomains: stubs })}`;
    const local = text('{"local": ["10.0.0.9"]}');
    const routing = kubeDnsRouting({ stubDomains: '{"local": ["10.0.0.9"]}' }, { deployment: deployment(nanny) });
    expect(where(routing, 'kubernetes.default.svc.cluster.local')).toBe('10.0.0.9:53');
    expect(where(routing, 'x.local')).toBe('10.0.0.9:53');
    expect(where(routing, '1.0.96.10.in-addr.arpa')).toBe('cluster, else resolv.conf');
    // The translator refuses it (kube-dns-quirk-kept, error), and repairs it on request: check then expects the cluster's names.
    const refused = translateKubeDnsInstall(readKubeDnsInstall([{ text: local }]));
    expect(refused.ok).toBe(false);
    expect(refused.diagnostics.filter((entry) => entry.severity === 'error').map((entry) => `${entry.code} ${entry.key}${entry.path ?? ''}`)).toEqual(['kube-dns-quirk-kept stubDomains["local"]']);
    const repaired = translateKubeDnsInstall(readKubeDnsInstall([{ text: local }]), { repair: ['unserved-cluster-zones'] });
    expect(repaired.ok).toBe(true);
    const check = checkRouting({ kubeDns: local, corefile: repaired.corefile ?? '', repairs: ['unserved-cluster-zones'] });
    expect(check.ok, formatRoutingCheck(check)).toBe(true);
    expect(check.repaired.map((difference) => difference.name)).toContain('kubernetes.default.svc.cluster.local');
    // A stub above the reverse zones: kept, the stub block gets them.
    const arpa = text('{"arpa": ["10.0.0.9"]}');
    const kept = translateKubeDnsInstall(readKubeDnsInstall([{ text: arpa }]));
    expect(kept.ok).toBe(true);
    expect(kept.diagnostics.filter((entry) => entry.code === 'kube-dns-quirk-kept').map((entry) => entry.message.match(/names of '([^']+)'/)?.[1])).toEqual(['in-addr.arpa', 'ip6.arpa']);
    expect(checkRouting({ kubeDns: arpa, corefile: kept.corefile ?? '' }).ok).toBe(true);
    expect(describeDestination(kubeDnsRouting({ stubDomains: '{"arpa": ["10.0.0.9"]}' }, { deployment: deployment(nanny) }).route('1.0.96.10.in-addr.arpa').destination)).toBe('10.0.0.9:53');
  });

  it("follows kops's in6.arpa typo: ip6.arpa went upstream, in6.arpa through kubedns to the resolver; the domain comes from --domain", () => {
    const dnsmasq = STOCK_DNSMASQ_ARGS.map((arg) => arg.replace('/ip6.arpa/', '/in6.arpa/').replace('cluster.local', 'corp.example'));
    const routing = kubeDnsRouting(null, { deployment: deployment(dnsmasq, ['--domain=corp.example.']) });
    expect(routing.clusterDomain).toBe('corp.example');
    expect(where(routing, '8.b.d.0.1.0.0.2.ip6.arpa')).toBe('resolv.conf');
    expect(where(routing, 'x.in6.arpa')).toBe('resolv.conf');
    expect(where(routing, 'kubernetes.default.svc.corp.example')).toBe('cluster corp.example');
    expect(routing.notes.join('\n')).toContain('no --server for ip6.arpa to kubedns');
  });

  it('finds no difference for the translation of the golden installs, and exactly the repaired ones when asked', () => {
    // Each golden install, and the names a repair changes on purpose (docs/kube-dns-deployment.md, "Quirks the default keeps").
    const repaired: Record<string, readonly string[]> = {
      'kubernetes-1.25-kube-dns-1.22.20.yaml': [],
      'kubernetes-1.10-kube-dns-1.14.9.yaml': [],
      'kubeasz-kube-dns-1.14.13.yaml': [],
      'kops-1.12-kube-dns-1.14.13.yaml': ['ip6.arpa'],
      'aws-private-zone-dnsmasq.yaml': ['ip6.arpa', 'in6.arpa', 'in-addr.arpa'],
    };
    for (const [file, zones] of Object.entries(repaired)) {
      const text = readFileSync(join(root, 'golden', 'deployment', file), 'utf8');
      const translation = translateKubeDnsInstall(readKubeDnsInstall([{ text }]));
      const check = checkRouting({ kubeDns: text, corefile: translation.corefile ?? '' });
      expect(check.differences, `${file}\n${formatRoutingCheck(check)}`).toEqual([]);
      expect(check.negativeCaching).toEqual([]);
      const repair = [...KUBE_DNS_QUIRKS];
      const repairedTranslation = translateKubeDnsInstall(readKubeDnsInstall([{ text }]), { repair });
      const repairedCheck = checkRouting({ kubeDns: text, corefile: repairedTranslation.corefile ?? '', repairs: repair });
      expect(repairedCheck.ok, `${file}\n${formatRoutingCheck(repairedCheck)}`).toBe(true);
      const names = repairedCheck.repaired.map((difference) => difference.name);
      expect(names.filter((name) => !zones.some((zone) => name === zone || name.endsWith(`.${zone}`))), file).toEqual([]);
      expect(names.length > 0, file).toBe(zones.length > 0);
      // Without the repairs, check of the repaired Corefile fails on those very names.
      expect(checkRouting({ kubeDns: text, corefile: repairedTranslation.corefile ?? '' }).differences.map((difference) => difference.name)).toEqual(names);
    }
  });
});

describe('addresses as dnsmasq reads them', () => {
  it('routes a leading-zero octet of a ConfigMap nameserver to the octal reading, as the translation does', () => {
    const data = { stubDomains: '{"acme.local": ["010.0.0.1:5353"]}' };
    const routing = kubeDnsRouting(data, { kubeDnsVersion: '1.22.20' });
    expect(where(routing, 'x.acme.local')).toBe('8.0.0.1:5353');
    expect(routing.notes.join('\n')).toContain("dnsmasq reads '010.0.0.1:5353' as 8.0.0.1");
  });
});

describe('negative caching in check', () => {
  const corefile = '.:53 {\n    kubernetes cluster.local in-addr.arpa ip6.arpa {\n        fallthrough in-addr.arpa ip6.arpa\n    }\n    forward . /etc/resolv.conf\n    cache 30\n}\n';

  it('fails when kube-dns did not cache NXDOMAIN and a block does, naming the block and the time', () => {
    const check = checkRouting({ kubeDns: null, corefile, kubeDnsDeployment: deployment(STOCK_DNSMASQ_ARGS) });
    expect(check.differences).toEqual([]);
    expect(check.negativeCaching).toEqual([{ keys: '.:53', seconds: 30 }]);
    expect(check.ok).toBe(false);
    expect(formatRoutingCheck(check)).toMatch(/^kube-dns and the Corefile route all \d+ checked names the same way, but cache differently:\nkube-dns did not cache NXDOMAIN; this Corefile caches it for 30 s in block \.:53\n/);
  });

  it('passes with disable denial, without cache, and when kube-dns cached too; is not checked without the Deployment', () => {
    const noDenial = corefile.replace('cache 30\n', 'cache 30 {\n        disable denial\n    }\n');
    expect(checkRouting({ kubeDns: null, corefile: noDenial, kubeDnsDeployment: deployment(STOCK_DNSMASQ_ARGS) }).ok).toBe(true);
    expect(checkRouting({ kubeDns: null, corefile: corefile.replace('    cache 30\n', ''), kubeDnsDeployment: deployment(STOCK_DNSMASQ_ARGS) }).ok).toBe(true);
    const cached = deployment(STOCK_DNSMASQ_ARGS.filter((arg) => arg !== '--no-negcache'));
    expect(checkRouting({ kubeDns: null, corefile, kubeDnsDeployment: cached }).ok).toBe(true);
    expect(checkRouting({ kubeDns: null, corefile }).ok).toBe(true);
    // `denial CAPACITY TTL` sets the time; `cache` alone keeps denials up to 1800 s.
    const short = corefile.replace('cache 30\n', 'cache 30 {\n        denial 9984 1\n    }\n');
    expect(checkRouting({ kubeDns: null, corefile: short, kubeDnsDeployment: deployment(STOCK_DNSMASQ_ARGS) }).negativeCaching).toEqual([{ keys: '.:53', seconds: 1 }]);
    expect(checkRouting({ kubeDns: null, corefile: corefile.replace('cache 30', 'cache'), kubeDnsDeployment: deployment(STOCK_DNSMASQ_ARGS) }).negativeCaching).toEqual([{ keys: '.:53', seconds: 1800 }]);
  });
});

describe('raced-default-servers: upstreamNameservers beside the default server to kubedns', () => {
  // dnsmasq-nanny adds --server=UPSTREAM for each upstreamNameservers entry; with the manifest's
  // --no-resolv --server=127.0.0.1#10053 dnsmasq has three default servers and asks the fastest.
  const text = `${deploymentYaml({ dnsmasq: ['--cache-size=1000', '--no-resolv', '--server=127.0.0.1#10053'] })}---\n${configMapYaml({ upstreamNameservers: '["8.8.8.8", "8.8.4.4"]' })}`;

  it('models every name of the default server as going to kubedns or to the upstreams', () => {
    const routing = kubeDnsRouting({ upstreamNameservers: '["8.8.8.8", "8.8.4.4"]' }, { deployment: deployment(['--cache-size=1000', '--no-resolv', '--server=127.0.0.1#10053']) });
    expect(describeDestination(routing.route('kubernetes.default.svc.cluster.local').destination)).toBe('one of {cluster cluster.local | 8.8.4.4:53 8.8.8.8:53}');
    // kube-dns 1.14.10+: kubedns forwards the rest to upstreamNameservers too, so the outside names reach the same servers either way.
    expect(describeDestination(routing.route('example.com').destination)).toBe('8.8.4.4:53 8.8.8.8:53');
    expect(routing.notes.some((note) => note.includes('raced-default-servers'))).toBe(true);
    const repaired = kubeDnsRouting({ upstreamNameservers: '["8.8.8.8", "8.8.4.4"]' }, { deployment: deployment(['--cache-size=1000', '--no-resolv', '--server=127.0.0.1#10053']), repairs: ['raced-default-servers'] });
    expect(describeDestination(repaired.route('kubernetes.default.svc.cluster.local').destination)).toBe('cluster cluster.local');
  });

  it('is refused by default with kube-dns-quirk-kept; repaired, check with the same --repair passes and names the cluster names', () => {
    const refused = translateKubeDnsInstall(readKubeDnsInstall([{ text }]), { coredns: '1.14.7' });
    expect(refused.ok).toBe(false);
    expect(refused.diagnostics.filter((entry) => entry.message.startsWith('raced-default-servers')).map((entry) => [entry.code, entry.severity])).toEqual([['kube-dns-quirk-kept', 'error']]);
    const translation = translateKubeDnsInstall(readKubeDnsInstall([{ text }]), { coredns: '1.14.7', repair: ['raced-default-servers'] });
    expect(translation.ok).toBe(true);
    expect(translation.diagnostics.map((entry) => entry.code)).toContain('kube-dns-quirk-repaired');
    const check = checkRouting({ kubeDns: text, corefile: translation.corefile ?? '', coredns: '1.14.7', repairs: ['raced-default-servers'] });
    expect(check.ok, formatRoutingCheck(check)).toBe(true);
    expect(check.repaired.map((difference) => difference.name)).toContain('kubernetes.default.svc.cluster.local');
    expect(checkRouting({ kubeDns: text, corefile: translation.corefile ?? '', coredns: '1.14.7' }).ok).toBe(false);
  });
});
