import { describe, expect, it } from 'vitest';
import { readKubeDnsInstall } from '../../src/kubedns/kube-dns-install.js';
import { lintCorefile } from '../../src/lint/lint.js';
import { checkRouting, formatRoutingCheck, routingModels } from '../../src/routing/check.js';
import { describeDestination } from '../../src/routing/destination.js';
import { kubeDnsRouting } from '../../src/routing/kube-dns-routing.js';
import { translateKubeDnsInstall } from '../../src/translate/translate.js';
import { configMapYaml, deploymentYaml, STOCK_DNSMASQ_ARGS } from '../support/kube-dns-manifests.js';

function routing(extra: readonly string[], kubeDns: string, data: Record<string, string> = {}) {
  const install = readKubeDnsInstall([{ text: deploymentYaml({ dnsmasq: [...STOCK_DNSMASQ_ARGS, ...extra], kubeDnsImage: `registry.k8s.io/dns/k8s-dns-kube-dns:${kubeDns}` }) }]);
  if (install.deployment === undefined) throw new Error('no deployment');
  return kubeDnsRouting(data, { deployment: install.deployment });
}

describe("dnsmasq 2.86+ answers NODATA for a server's NXDOMAIN under an --address domain (#18 trial H2)", () => {
  it('names the address for every name under its domain, through a more specific stub and kubedns, from kube-dns 1.22.1', () => {
    const model = routing(['--address=/local/10.99.0.251'], '1.23.1', { stubDomains: '{"b.acme.local": ["10.99.0.5"]}' });
    expect(describeDestination(model.route('nxh.b.acme.local').destination)).toBe('10.99.0.5:53');
    expect(model.nxdomainAsNoData('nxh.b.acme.local')).toBe('--address=/local/10.99.0.251');
    expect(model.nxdomainAsNoData('nx.default.svc.cluster.local')).toBe('--address=/local/10.99.0.251');
    expect(model.nxdomainAsNoData('local')).toBe('--address=/local/10.99.0.251');
    expect(model.nxdomainAsNoData('example.com')).toBeUndefined();
    expect(model.nxdomainAsNoData('xlocal')).toBeUndefined();
  });

  it('takes the longest domain with an address, an IPv6 or # address too, and no NXDOMAIN entry', () => {
    const model = routing(['--address=/acme.test/192.0.2.1', '--address=/b.acme.test/fd00::1', '--address=/zero.test/#', '--address=/nx.test/', '--local=/lo.test/'], '1.26.7');
    expect(model.nxdomainAsNoData('x.b.acme.test')).toBe('--address=/b.acme.test/fd00::1');
    expect(model.nxdomainAsNoData('x.acme.test')).toBe('--address=/acme.test/192.0.2.1');
    expect(model.nxdomainAsNoData('x.zero.test')).toBe('--address=/zero.test/#');
    expect(model.nxdomainAsNoData('x.nx.test')).toBeUndefined();
    expect(model.nxdomainAsNoData('x.lo.test')).toBeUndefined();
  });

  it('not for dnsmasq 2.85 and older (kube-dns before 1.22.1: check_for_local_domain reads only the cache)', () => {
    const model = routing(['--address=/local/10.99.0.251'], '1.22.0', { stubDomains: '{"b.acme.local": ["10.99.0.5"]}' });
    expect(model.nxdomainAsNoData('nxh.b.acme.local')).toBeUndefined();
  });

  it("reads '#' as every domain: --address=/#/ip answers A for every name no other domain holds, --server=/#/ip is an upstream", () => {
    const model = routing(['--address=/#/10.99.0.250'], '1.23.1', { stubDomains: '{"acme.local": ["10.99.0.2"]}', upstreamNameservers: '["10.99.0.5"]' });
    expect(describeDestination(model.route('example.com').destination)).toBe('plugin template');
    expect(describeDestination(model.route('example').destination)).toBe('plugin template');
    expect(describeDestination(model.route('example.com', 'MX').destination)).toBe('10.99.0.5:53');
    expect(describeDestination(model.route('www.acme.local').destination)).toBe('10.99.0.2:53');
    expect(describeDestination(model.route('kubernetes.default.svc.cluster.local').destination)).toBe('cluster cluster.local');
    expect(model.zones).not.toContain('#');
    // Every NXDOMAIN a server gives becomes NODATA: the address's domain holds every name.
    expect(model.nxdomainAsNoData('nxa.acme.local')).toBe('--address=/#/10.99.0.250');
    const server = routing(['--server=/#/10.99.0.9', '--no-resolv'], '1.23.1');
    expect(describeDestination(server.route('example.com').destination)).toBe('10.99.0.9:53');
    expect(server.zones).not.toContain('#');
  });
});

describe('the translation keeps it (CoreDNS 1.11.3+) or says so, and check sees it', () => {
  const stub = { stubDomains: '{"b.acme.local": ["10.99.0.5"]}' };
  function translated(coredns: string, kubeDns = '1.23.1') {
    const parts = { dnsmasq: [...STOCK_DNSMASQ_ARGS, '--address=/local/10.99.0.251'], kubeDnsImage: `registry.k8s.io/dns/k8s-dns-kube-dns:${kubeDns}` };
    const text = `${deploymentYaml(parts)}---\n${configMapYaml(stub)}`;
    const translation = translateKubeDnsInstall(readKubeDnsInstall([{ text, filename: 'kube-dns.yaml' }]), { coredns });
    if (!translation.ok) throw new Error('refused');
    return { text, translation, corefile: translation.corefile };
  }

  it('1.14.7: a rewrite rcode rule for the names of the domain in every block that forwards them; check passes, and fails without the rules', () => {
    const { text, translation, corefile } = translated('1.14.7');
    const rule = '    rewrite rcode regex (^|\\.)local\\.$ NXDOMAIN NOERROR\n';
    expect(corefile.split('\n\n').filter((block) => block.includes(rule)).map((block) => block.split(' {')[0])).toEqual(['.:53 cluster.local:53', 'b.acme.local:53', 'local:53']);
    expect(lintCorefile(corefile, { coredns: '1.14.7' }).diagnostics.filter((entry) => entry.severity === 'error')).toEqual([]);
    expect(translation.diagnostics.some((entry) => entry.code === 'address-nxdomain-not-kept')).toBe(false);
    const check = checkRouting({ kubeDns: text, corefile, coredns: '1.14.7' });
    expect(check.ok, formatRoutingCheck(check)).toBe(true);
    expect(check.nxdomainAnswers).toEqual([]);
    // The former output: the stub's and the cluster's NXDOMAIN passed on.
    const former = checkRouting({ kubeDns: text, corefile: corefile.replaceAll(rule, ''), coredns: '1.14.7' });
    expect(former.ok).toBe(false);
    expect(former.differences).toEqual([]);
    expect(former.nxdomainAnswers.map((entry) => `${entry.name} ${entry.queryType ?? 'A'}`)).toEqual(expect.arrayContaining(['x.b.acme.local A', 'kubernetes.default.svc.cluster.local A', 'x.local AAAA', 'x.local MX']));
    expect(formatRoutingCheck(former)).toContain("x.b.acme.local: kube-dns answered a server's NXDOMAIN NOERROR without records (dnsmasq 2.86+, under --address=/local/10.99.0.251); the Corefile passes it on");
    // The CoreDNS model reads the rule for the names it matches only.
    const coreDns = routingModels({ kubeDns: text, corefile }).coreDns;
    expect(coreDns.nxdomainAsNoData('x.b.acme.local')).toBe(true);
    expect(coreDns.nxdomainAsNoData('example.com')).toBe(false);
    expect(coreDns.notes.some((note) => note.includes("'rewrite'"))).toBe(false);
  });

  it('before 1.12.0: a warning, and check told the release lists the names as expected', () => {
    const { text, translation, corefile } = translated('1.8.0');
    expect(corefile).not.toContain('rewrite');
    expect(translation.diagnostics.filter((entry) => entry.code === 'address-nxdomain-not-kept').map((entry) => entry.severity)).toEqual(['warning']);
    const check = checkRouting({ kubeDns: text, corefile, coredns: '1.8.0' });
    expect(check.ok, formatRoutingCheck(check)).toBe(true);
    expect(check.nxdomainAnswers.length).toBeGreaterThan(0);
    expect(check.nxdomainAnswers.every((entry) => entry.unavoidable === true)).toBe(true);
    expect(formatRoutingCheck(check)).toContain('expected: x.b.acme.local: kube-dns answered');
    // Not told the release, the same Corefile fails.
    expect(checkRouting({ kubeDns: text, corefile }).ok).toBe(false);
  });

  it('kube-dns before 1.22.1 (dnsmasq 2.85): no rule, no warning', () => {
    const { translation, corefile } = translated('1.14.7', '1.22.0');
    expect(corefile).not.toContain('rewrite');
    expect(translation.diagnostics.some((entry) => entry.code === 'address-nxdomain-not-kept')).toBe(false);
  });

  it('writes the rules of nested address domains in one order whatever the order of the flags (seed -957106380 of the flag-order law)', () => {
    const flags = ['--address=/acme.test/192.0.2.1', '--address=/b.acme.test/192.0.2.1', '--server=/local.vpc/192.0.2.9'];
    const corefileOf = (order: readonly string[]) => {
      const text = deploymentYaml({ dnsmasq: [...STOCK_DNSMASQ_ARGS, ...order], kubeDnsImage: 'registry.k8s.io/dns/k8s-dns-kube-dns:1.23.1' });
      const translation = translateKubeDnsInstall(readKubeDnsInstall([{ text, filename: 'kube-dns.yaml' }]), { coredns: '1.14.7' });
      if (!translation.ok) throw new Error('refused');
      return translation.corefile;
    };
    const forward = corefileOf(flags);
    const block = forward.split('\n\n').find((text) => text.startsWith('b.acme.test:53')) ?? '';
    expect(block.indexOf('(^|\\.)b\\.acme\\.test')).toBeGreaterThan(-1);
    expect(block.indexOf('(^|\\.)b\\.acme\\.test')).toBeLessThan(block.indexOf('(^|\\.)acme\\.test'));
    expect(corefileOf([...flags].reverse())).toBe(forward);
  });
});
