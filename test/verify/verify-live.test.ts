import dgram from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { parseCorefile, printCorefile } from '../../src/corefile/index.js';
import { readKubeDnsInstall } from '../../src/kubedns/kube-dns-install.js';
import { translateKubeDnsInstall } from '../../src/translate/translate.js';
import { findDnsmasq, Lab, nannyArgs } from '../routing/dnsmasq-harness.js';
import { configMapYaml, deploymentYaml } from '../support/kube-dns-manifests.js';
import { memoryIo } from '../support/memory-io.js';
import { realCoreDnsSkip, STOCK_CLUSTER, useRealCoreDnsLab } from '../support/real-coredns.js';
import type { RunningCoreDns } from '../support/real-coredns.js';

/**
 * `verify` against real servers, all on loopback: dnsmasq started with the flags dnsmasq-nanny
 * gives it for the ConfigMap (the kube-dns side; a real CoreDNS serving the cluster zone from the
 * lab's fake API, which serves the Services every cluster has, stands in for kubedns), and real
 * CoreDNS running the translated Corefile (the same fake API). The stub and upstream nameservers
 * are fake servers that answer A queries with their own address and NXDOMAIN for everything else.
 * Exit 0 for the translation; exit 1, naming the stub domain, when its block is removed from the
 * Corefile; exit 1, naming kubernetes.default, when neither server sees that Service.
 */

const dnsmasq = findDnsmasq();
const skip = dnsmasq === undefined ? 'dnsmasq is not installed' : realCoreDnsSkip('test/verify/verify-live.test.ts');
if (dnsmasq === undefined) console.warn(`test/verify/verify-live.test.ts skipped: ${skip}`);

describe.skipIf(skip !== undefined)('verify against real dnsmasq and real CoreDNS', () => {
  const lab = new Lab();
  const coredns = useRealCoreDnsLab({ cluster: STOCK_CLUSTER });
  const sockets: dgram.Socket[] = [];
  const running: RunningCoreDns[] = [];
  let kubeDnsAddress = '';
  let installText = '';
  let corefile = '';

  beforeAll(async () => {
    if (dnsmasq === undefined) return;
    // Fake nameservers: A gets their own address; NXDOMAIN for the missing names and for other types.
    const nxdomain = (name: string, type: string) => type !== 'A' || name.toLowerCase().startsWith('kube-dns-to-coredns-missing');
    const [upstream, acme, corp] = await Promise.all([lab.fakeServer(11, 0, nxdomain), lab.fakeServer(12, 0, nxdomain), lab.fakeServer(13, 0, nxdomain)]);
    // The ConfigMap names cluster-side addresses (a loopback nameserver is refused: in the kube-dns pod
    // it was kube-dns itself); both servers reach the fakes in their place.
    const fakes = new Map([['10.200.0.11', upstream], ['10.200.0.12', acme], ['10.200.0.13', corp]] as const);
    const data = { stubDomains: JSON.stringify({ 'acme.local': ['10.200.0.12'], 'corp.example': ['10.200.0.13'] }), upstreamNameservers: JSON.stringify(['10.200.0.11']) };
    installText = [deploymentYaml(), 'apiVersion: v1\nkind: Service\nmetadata: {name: kube-dns, namespace: kube-system}\nspec: {clusterIP: 10.96.0.10, selector: {k8s-app: kube-dns}}\n', configMapYaml(data)].join('---\n');
    const install = readKubeDnsInstall([{ text: installText, filename: 'kube-dns.yaml' }]);
    const translation = translateKubeDnsInstall(install, { coredns: '1.14.7' });
    if (!translation.ok) throw new Error('refused');
    corefile = [...fakes].reduce((text, [ip, server]) => text.replaceAll(ip, server?.address ?? ''), translation.corefile);
    expect(corefile).not.toMatch(/10\.200\./);
    // kubedns's stand-in: the cluster zone and the reverse zones from the same fake API, the rest upstream.
    const kubedns = await coredns().serve(`.:53 {\n    kubernetes cluster.local in-addr.arpa ip6.arpa {\n        pods insecure\n        fallthrough in-addr.arpa ip6.arpa\n    }\n    forward . ${upstream?.address}\n}\n`, '1.14.7');
    running.push(kubedns);
    const server = await lab.startDnsmasq(
      dnsmasq,
      nannyArgs({
        clusterDomain: 'cluster.local',
        kubedns: { ip: kubedns.ip, port: kubedns.dnsPort, address: `${kubedns.ip}:${kubedns.dnsPort}` },
        stubDomains: [['acme.local', [acme?.address as string]], ['corp.example', [corp?.address as string]]],
        upstreamNameservers: [upstream?.address as string],
        resolvFile: lab.writeFile('resolv.conf', `nameserver ${upstream?.ip}\n`),
      }),
    );
    kubeDnsAddress = server.address;
  }, 60_000);

  afterAll(async () => {
    for (const server of running) await server.stop();
    for (const socket of sockets) socket.close();
    await lab.close();
  });

  async function verify(corefileText: string, old = kubeDnsAddress): Promise<{ status: number; out: string; err: string }> {
    const server = await coredns().serve(corefileText, '1.14.7');
    running.push(server);
    // The kubernetes plugin answers once it has listed the API.
    const io = memoryIo({ files: { 'kube-dns.yaml': installText } });
    const status = await main(['verify', '--kube-dns', 'kube-dns.yaml', '--old', old, '--new', `${server.ip}:${server.dnsPort}`, '--timeout', '1500'], io);
    return { status, out: io.out(), err: io.err() };
  }

  it('exits 0 for the translation: every answer agrees or differs as documented', async () => {
    const run = await verify(corefile);
    expect(run.err).toBe('');
    expect(run.out, run.out).toMatch(/^\d+ queries: \d+ agree, \d+ differ as expected, 0 differ unexpectedly\n/);
    expect(run.out).toMatch(/agree/);
    expect(Number(/: (\d+) agree/.exec(run.out)?.[1])).toBeGreaterThan(20);
    expect(run.status).toBe(0);
  }, 60_000);

  it('exits 1 when a stub block is removed from the Corefile, naming the stub domain', async () => {
    const parsed = parseCorefile(corefile).corefile;
    const without = printCorefile({ ...parsed, items: parsed.items.filter((item) => !(item.kind === 'server-block' && item.keys.some((key) => key.startsWith('acme.local')))) });
    expect(without).not.toContain('acme.local');
    const run = await verify(without);
    expect(run.status, run.out).toBe(1);
    expect(run.out).toMatch(/^DIFFERENT acme\.local\. A: other answers/m);
    expect(run.out).toMatch(/^DIFFERENT x\.acme\.local\. A/m);
    expect(run.out).not.toMatch(/^DIFFERENT corp\.example\./m);
  }, 60_000);

  it('exits 1 when neither server answers kubernetes.default (its namespace is not served), naming it', async () => {
    // Both sides alike: the same Corefile, whose kubernetes plugin exposes kube-system only.
    const hidden = corefile.replace(/( *)kubernetes cluster\.local in-addr\.arpa ip6\.arpa \{\n/, (line, indent: string) => `${line}${indent}    namespaces kube-system\n`);
    expect(hidden).toContain('namespaces kube-system');
    const old = await coredns().serve(hidden, '1.14.7');
    running.push(old);
    const run = await verify(hidden, `${old.ip}:${old.dnsPort}`);
    expect(run.status, run.out).toBe(1);
    expect(run.out).toMatch(/^DIFFERENT kubernetes\.default\.svc\.cluster\.local\. A: NXDOMAIN from CoreDNS for a name that must exist \(the API server's Service, which every cluster has\); kube-dns did not answer it either/m);
    expect(run.out).toMatch(/ 1 differ unexpectedly\n/);
    expect(run.out).not.toMatch(/^DIFFERENT kube-dns\.kube-system/m);
  }, 60_000);

  it('exits 2 when a server does not answer', async () => {
    const silent = dgram.createSocket('udp4');
    sockets.push(silent);
    await new Promise<void>((resolve) => silent.bind(0, `${lab.prefix}20`, () => resolve()));
    const io = memoryIo({ files: { 'kube-dns.yaml': installText } });
    const status = await main(['verify', '--kube-dns', 'kube-dns.yaml', '--old', kubeDnsAddress, '--new', `${lab.prefix}20:${silent.address().port}`, '--timeout', '200', '--tries', '2'], io);
    expect(status).toBe(2);
    expect(io.err()).toMatch(/did not answer .* \(2 tries of 200 ms\)/);
  }, 30_000);
});

