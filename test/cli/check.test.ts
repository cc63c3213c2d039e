import { describe, expect, it } from 'vitest';
import { CHECK_HELP } from '../../src/cli/commands/check.js';
import { runCheck } from '../support/commands.js';
import { main } from '../../src/cli/main.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { renderCoreDnsConfigMap } from '../../src/configmap/write-configmap.js';
import { translateKubeDns, translateKubeDnsInstall } from '../../src/translate/translate.js';
import { readKubeDnsInstall } from '../../src/kubedns/kube-dns-install.js';
import { memoryIo } from '../support/memory-io.js';
import { configMapYaml, deploymentYaml, STOCK_DNSMASQ_ARGS } from '../support/kube-dns-manifests.js';

const DATA = { stubDomains: '{"consul.local": ["10.150.0.1"], "local": ["10.150.0.2"]}', upstreamNameservers: '["8.8.8.8"]' };
const KUBE_DNS = configMapYaml({ stubDomains: `${DATA.stubDomains}\n`, upstreamNameservers: `${DATA.upstreamNameservers}\n` }, { metadata: 'block', values: 'block' });
const TRANSLATED = translateKubeDns(DATA).corefile ?? '';
/** Forgets that 'local' captures cluster.local in CoreDNS. */
const NAIVE = TRANSLATED.replace('.:53 cluster.local:53 {', '.:53 {');

const coreDnsConfigMap = renderCoreDnsConfigMap;

describe('kube-dns-to-coredns check', () => {
  it('exits 0 when every name goes where it went', async () => {
    const io = memoryIo({ files: { 'kube-dns.yaml': KUBE_DNS, Corefile: TRANSLATED } });
    expect(await runCheck(['--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile'], io)).toBe(0);
    expect(io.out()).toMatch(/^kube-dns and the Corefile route all \d+ checked names the same way\.\n$/);
    expect(io.err()).toBe('');
  });

  it('exits 1 with a table of the differing names; reads a CoreDNS ConfigMap too', async () => {
    const io = memoryIo({ files: { 'kube-dns.yaml': KUBE_DNS, 'coredns.yaml': coreDnsConfigMap(NAIVE) } });
    expect(await runCheck(['--kube-dns', 'kube-dns.yaml', '--corefile', 'coredns.yaml'], io)).toBe(1);
    const lines = io.out().split('\n');
    expect(lines[0]).toMatch(/^kube-dns and the Corefile route 5 of \d+ checked names differently:$/);
    expect(lines[2]).toMatch(/^NAME +KUBE-DNS +COREDNS$/);
    expect(lines[3]).toMatch(/^cluster\.local +cluster cluster\.local +10\.150\.0\.2:53$/);
    expect(lines[4]).toMatch(/^svc\.cluster\.local +\(kubedns: cluster domain cluster\.local\) +\(block "local:53" > forward \. 10\.150\.0\.2\)$/);
    expect(lines.slice(5, 8)).toEqual(['default.svc.cluster.local', 'kubernetes.default.svc.cluster.local', 'x.cluster.local']);
  });

  it('--output json lists differences, notes and the names compared', async () => {
    const io = memoryIo({ files: { k: KUBE_DNS }, stdin: NAIVE });
    expect(await runCheck(['--kube-dns', 'k', '--corefile', '-', '-o', 'json', '--name', 'db.cluster.local'], io)).toBe(1);
    const json = JSON.parse(io.out()) as { ok: boolean; equivalent: boolean; checked: number; differences: { name: string; kubeDns: { text: string; via: string; destination: unknown }; coreDns: { text: string } }[]; notes: string[]; names: string[] };
    expect(json.ok).toBe(false);
    // The old name, for one release.
    expect(json.equivalent).toBe(false);
    expect(json.checked).toBe(json.names.length);
    expect(json.names).toContain('db.cluster.local');
    expect(json.differences.map((difference) => difference.name)).toContain('db.cluster.local');
    expect(json.differences[0]).toEqual({
      name: 'cluster.local',
      kubeDns: { destination: { kind: 'cluster', zone: 'cluster.local' }, text: 'cluster cluster.local', via: 'kubedns: cluster domain cluster.local' },
      coreDns: { destination: { kind: 'servers', servers: ['10.150.0.2:53'] }, text: '10.150.0.2:53', via: 'block "local:53" > forward . 10.150.0.2' },
    });
    expect(io.err()).toBe('');
  });

  it('prints notes on stderr: kube-dns rejected the ConfigMap', async () => {
    const io = memoryIo({ files: { k: 'stubDomains: \'{"Acme.local": ["10.0.0.1"]}\'\n', c: translateKubeDns(null).corefile ?? '' } });
    expect(await runCheck(['--kube-dns', 'k', '--corefile', 'c'], io)).toBe(0);
    expect(io.err()).toMatch(/^Notes:\n {2}- kube-dns: kube-dns 1\.26\.7 rejects this ConfigMap/);
  });

  it('honours --cluster-domain and --port', async () => {
    const corefile = (translateKubeDns(DATA, { clusterDomain: 'k8s.corp' }).corefile ?? '').replaceAll(':53', ':1053');
    const io = memoryIo({ files: { k: KUBE_DNS, c: corefile } });
    expect(await runCheck(['--kube-dns', 'k', '--corefile', 'c', '--cluster-domain', 'k8s.corp', '--port', '1053'], io)).toBe(0);
    expect(await runCheck(['--kube-dns', 'k', '--corefile', 'c', '--cluster-domain', 'k8s.corp'], memoryIo({ files: { k: KUBE_DNS, c: corefile } }))).toBe(1);
  });

  it('reports Corefile syntax errors as FILE:LINE:COL with exit 2', async () => {
    const io = memoryIo({ files: { k: KUBE_DNS, c: '. {\n    whoami }\n' } });
    expect(await main(['check', '--kube-dns', 'k', '--corefile', 'c'], io)).toBe(2);
    expect(io.err()).toBe("c:2:12: Unexpected '}' because no matching opening brace\n");
    expect(io.out()).toBe('');
  });

  it('prints its help; refuses bad usage', async () => {
    const io = memoryIo();
    expect(await runCheck(['--help'], io)).toBe(0);
    expect(io.out()).toBe(CHECK_HELP);
    const files = { files: { k: KUBE_DNS, c: TRANSLATED } };
    for (const args of [
      ['--kube-dns', 'k'],
      ['--corefile', 'c'],
      ['--kube-dns', '-', '--corefile', '-'],
      ['--kube-dns', 'k', '--corefile', 'c', 'extra'],
      ['--kube-dns', 'k', '--corefile', 'c', '-o', 'yaml'],
      ['--kube-dns', 'k', '--corefile', 'c', '--cluster-domain', 'Not_A_Domain'],
      ['--kube-dns', 'k', '--corefile', 'c', '--port', '0'],
      ['--kube-dns', 'k', '--corefile', 'c', '--kube-dns-version', '9.9.9'],
      ['--kube-dns', 'missing', '--corefile', 'c'],
    ]) {
      await expect(runCheck(args, memoryIo(files)), args.join(' ')).rejects.toThrow(UsageError);
    }
  });
});

describe('check and explain with the kube-dns Deployment', () => {
  const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: kube-dns, namespace: kube-system}
spec:
  template:
    spec:
      containers:
      - name: dnsmasq
        image: registry.k8s.io/dns/k8s-dns-dnsmasq-nanny:1.22.20
        args: ["--", "-k", "--no-negcache", "--server=/cluster.local/127.0.0.1#10053", "--server=/in-addr.arpa/127.0.0.1#10053", "--server=/ip6.arpa/127.0.0.1#10053", "--server=/corp.test/10.9.9.9"]
`;
  const kubeadmLike = TRANSLATED.replaceAll(/ {4}cache 30 \{\n {8}disable denial\n {4}\}\n/g, '    cache 30\n');

  it('fails on NXDOMAIN caching kube-dns did not do, and routes the manifest servers, with --kube-dns-deployment', async () => {
    const io = memoryIo({ files: { 'kube-dns.yaml': KUBE_DNS, 'deploy.yaml': deployment, Corefile: kubeadmLike } });
    expect(await runCheck(['--kube-dns', 'kube-dns.yaml', '--kube-dns-deployment', 'deploy.yaml', '--corefile', 'Corefile'], io)).toBe(1);
    expect(io.out()).toContain('kube-dns did not cache NXDOMAIN; this Corefile caches it for 30 s in block .:53 cluster.local:53');
    expect(io.out()).toContain('corp.test');
    // Without the Deployment, the same Corefile passes: negative caching is not checked.
    expect(await runCheck(['--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile'], memoryIo({ files: { 'kube-dns.yaml': KUBE_DNS, Corefile: kubeadmLike } }))).toBe(0);
  });

  it('reads the Deployment from the --kube-dns file too; explain routes its servers', async () => {
    const both = `${KUBE_DNS}---\n${deployment}`;
    const io = memoryIo({ files: { 'kube-dns.yaml': both, Corefile: TRANSLATED } });
    expect(await runCheck(['--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile', '-o', 'json'], io)).toBe(1);
    const result = JSON.parse(io.out()) as { negativeCaching: unknown[]; differences: { name: string }[] };
    expect(result.negativeCaching).toEqual([]);
    expect(result.differences.map((difference) => difference.name)).toContain('x.corp.test');
    const explained = memoryIo({ files: { 'kube-dns.yaml': KUBE_DNS, 'deploy.yaml': deployment } });
    expect(await main(['explain', 'api.corp.test.', '--kube-dns', 'kube-dns.yaml', '--kube-dns-deployment', 'deploy.yaml'], explained)).toBe(0);
    expect(explained.out()).toContain('10.9.9.9:53');
  });

  it('says when the --kube-dns file holds the Deployment but no ConfigMap: kube-dns is routed as if it had no data', async () => {
    const io = memoryIo({ files: { 'deploy.yaml': deployment, Corefile: TRANSLATED } });
    await runCheck(['--kube-dns', 'deploy.yaml', '--corefile', 'Corefile'], io);
    expect(io.err()).toContain("no kube-dns ConfigMap in the input: kube-dns is routed as if it had no data (no stub domains; upstreams from the node's resolv.conf)");
    const explained = memoryIo({ files: { 'deploy.yaml': deployment } });
    expect(await main(['explain', 'api.corp.test.', '--kube-dns', 'deploy.yaml', '-o', 'json'], explained)).toBe(0);
    expect((JSON.parse(explained.out()) as { notes: string[] }).notes.join('\n')).toContain('no kube-dns ConfigMap in the input');
    const withConfigMap = memoryIo({ files: { 'kube-dns.yaml': KUBE_DNS, 'deploy.yaml': deployment, Corefile: TRANSLATED } });
    await runCheck(['--kube-dns', 'kube-dns.yaml', '--kube-dns-deployment', 'deploy.yaml', '--corefile', 'Corefile'], withConfigMap);
    expect(withConfigMap.err()).not.toContain('no kube-dns ConfigMap');
  });
});

describe('check on a server block with thousands of keys', () => {
  const block = (count: number) => `${Array.from({ length: count }, (_, index) => `z${index}.example`).join(' ')} {\n    forward . 10.0.0.1\n}\n`;
  const json = async (count: number) => {
    const io = memoryIo({ files: { 'kube-dns.yaml': KUBE_DNS, Corefile: block(count) } });
    expect(await runCheck(['-o', 'json', '--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile'], io)).toBe(1);
    expect(io.err()).not.toMatch(/internal error/);
    return io.out();
  };

  it('names the block by its first keys in every route, so the output grows linearly with the keys', async () => {
    const [small, large] = [await json(500), await json(1000)];
    // Each of the ~2 names per key named every key: the output grew with the square of the keys.
    expect(large.length / small.length).toBeLessThan(2.3);
    const vias = (JSON.parse(large) as { differences: { coreDns: { via: string } }[] }).differences.map((entry) => entry.coreDns.via);
    expect(Math.max(...vias.map((via) => via.length))).toBeLessThan(200);
    expect(vias).toContain('block "z0.example z1.example z2.example …" (1,000 keys) > forward . 10.0.0.1');
  });
});

describe('check -o json: NXDOMAIN under a dnsmasq --address (#18 trial H2)', () => {
  it('lists the names whose NXDOMAIN only kube-dns turned into NOERROR, and exits 1', async () => {
    const parts = { dnsmasq: [...STOCK_DNSMASQ_ARGS, '--address=/local/10.99.0.251'], kubeDnsImage: 'registry.k8s.io/dns/k8s-dns-kube-dns:1.23.1' };
    const text = `${deploymentYaml(parts)}---\n${configMapYaml({ stubDomains: '{"b.acme.local": ["10.99.0.5"]}' })}`;
    const translated = translateKubeDnsInstall(readKubeDnsInstall([{ text, filename: 'kube-dns.yaml' }]), { coredns: '1.14.7' }).corefile ?? '';
    const former = translated.replaceAll('    rewrite rcode regex (^|\\.)local\\.$ NXDOMAIN NOERROR\n', '');
    expect(former).not.toBe(translated);
    const io = memoryIo({ files: { 'kube-dns.yaml': text, Corefile: former } });
    expect(await runCheck(['--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile', '--coredns', '1.14.7', '-o', 'json'], io)).toBe(1);
    const result = JSON.parse(io.out()) as { ok: boolean; differences: unknown[]; nxdomainAnswers: { name: string; address?: string }[] };
    expect(result.differences).toEqual([]);
    expect(result.nxdomainAnswers).toContainEqual({ name: 'x.b.acme.local', address: '--address=/local/10.99.0.251' });
    const fixed = memoryIo({ files: { 'kube-dns.yaml': text, Corefile: translated } });
    expect(await runCheck(['--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile', '--coredns', '1.14.7'], fixed)).toBe(0);
  });
});

describe('check --drop-federations', () => {
  // A ConfigMap with a federation, translated for a release without the federation plugin (1.7.0+).
  const federated = configMapYaml({ federations: 'myfed=example.com' });

  it("passes on the translator's own --drop-federations output, listing the federation names as expected; fails without the option", async () => {
    const translation = translateKubeDns({ federations: 'myfed=example.com' }, { coredns: '1.14.7', dropFederations: true });
    expect(translation.ok).toBe(true);
    const files = { 'kube-dns.yaml': federated, Corefile: translation.corefile ?? '' };
    const without = memoryIo({ files });
    expect(await runCheck(['--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile', '--coredns', '1.14.7'], without)).toBe(1);
    expect(without.out()).toContain('service.namespace.myfed.svc.cluster.local');
    const io = memoryIo({ files });
    expect(await runCheck(['--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile', '--coredns', '1.14.7', '--drop-federations', '-o', 'json'], io)).toBe(0);
    const result = JSON.parse(io.out()) as { ok: boolean; differences: unknown[]; repaired: { name: string }[] };
    expect(result.differences).toEqual([]);
    expect(result.repaired.map((entry) => entry.name)).toEqual(['service.namespace.myfed.svc.cluster.local']);
  });

  it('still fails where the Corefile differs for another reason than the dropped federations', async () => {
    const io = memoryIo({ files: { 'kube-dns.yaml': federated, Corefile: '.:53 {\n    forward . 10.9.9.9\n}\n' } });
    expect(await runCheck(['--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile', '--drop-federations'], io)).toBe(1);
    expect(io.out()).toContain('kubernetes.default.svc.cluster.local');
  });

  it('is documented in the help', () => {
    expect(CHECK_HELP).toContain('--drop-federations');
  });
});
