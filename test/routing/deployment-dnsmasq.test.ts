import dgram from 'node:dgram';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readKubeDnsInstall } from '../../src/kubedns/kube-dns-install.js';
import { nannyAppendedArgs } from '../../src/kubedns/dnsmasq-nanny-args.js';
import { translateKubeDnsInstall } from '../../src/translate/translate.js';
import { kubeDnsRouting } from '../../src/routing/kube-dns-routing.js';
import { describeDestination } from '../../src/routing/destination.js';
import { deploymentYaml, STOCK_DNSMASQ_ARGS } from '../support/kube-dns-manifests.js';
import { findDnsmasq, Lab } from './dnsmasq-harness.js';
import type { FakeServer } from './dnsmasq-harness.js';

/**
 * The facts the Deployment translation rests on, checked on the real dnsmasq (Debian's, on
 * loopback only): started with a golden manifest's dnsmasq arguments plus what dnsmasq-nanny
 * appends for the ConfigMap, with kubedns and the upstreams replaced by fake servers on 127.x.
 */

const dnsmasq = findDnsmasq();
const root = join(import.meta.dirname, '../..');
const inCi = process.env['CI'] !== undefined && process.env['CI'] !== '' && process.env['CI'] !== 'false';
if (dnsmasq === undefined && !inCi) console.warn('test/routing/deployment-dnsmasq.test.ts skipped: dnsmasq is not installed (scripts/ci-dnsmasq.sh)');

/** A fake upstream that answers NXDOMAIN to everything and counts the queries per name. */
async function nxdomainServer(ip: string): Promise<{ server: FakeServer; seen: Map<string, number>; close: () => void }> {
  const socket = dgram.createSocket('udp4');
  const seen = new Map<string, number>();
  socket.on('message', (message, remote) => {
    const query = dnsPacket.decode(message);
    const question = query.questions?.[0];
    if (question === undefined) return;
    seen.set(question.name, (seen.get(question.name) ?? 0) + 1);
    const reply = dnsPacket.encode({
      id: query.id ?? 0,
      type: 'response',
      flags: dnsPacket.RECURSION_AVAILABLE | dnsPacket.AUTHORITATIVE_ANSWER | ((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED) | 3, // rcode NXDOMAIN
      questions: [question],
      // An SOA with a long minimum: without --no-negcache, dnsmasq keeps the NXDOMAIN.
      authorities: [{ type: 'SOA', name: 'example.com', ttl: 300, data: { mname: 'ns.example.com', rname: 'h.example.com', serial: 1, refresh: 300, retry: 300, expire: 300, minimum: 300 } }],
    });
    socket.send(reply, remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, ip, resolve));
  const port = socket.address().port;
  return { server: { ip, port, address: `${ip}:${port}` }, seen, close: () => socket.close() };
}

/** The dnsmasq arguments of a golden install, kubedns moved to `kubedns`, plus the nanny's for `upstream`. */
function dnsmasqArgs(file: string, kubedns: FakeServer, upstream: FakeServer): string[] {
  const install = readKubeDnsInstall([{ text: readFileSync(join(root, 'golden', 'deployment', file), 'utf8') }]);
  const manifest = install.deployment?.dnsmasq?.dnsmasqArgs ?? [];
  const moved = manifest
    .filter((arg) => arg !== '--dns-loop-detect' && arg !== '-k' && !arg.startsWith('--log-facility'))
    .map((arg) => arg.replace('127.0.0.1#10053', `${kubedns.ip}#${kubedns.port}`));
  return [...moved, ...nannyAppendedArgs(new Map(), [`${upstream.ip}:${upstream.port}`]).argv];
}

function corefileOf(file: string): string {
  const install = readKubeDnsInstall([{ text: readFileSync(join(root, 'golden', 'deployment', file), 'utf8') }]);
  return translateKubeDnsInstall(install).corefile ?? '';
}

describe.skipIf(dnsmasq === undefined)('Deployment flags against real dnsmasq', () => {
  let lab: Lab;
  let kubedns: FakeServer;
  const closers: (() => void)[] = [];

  beforeAll(async () => {
    lab = new Lab();
    kubedns = await lab.fakeServer(9);
  });

  afterAll(async () => {
    for (const close of closers) close();
    await lab?.close();
  });

  it.each([
    ['kubernetes-1.25-kube-dns-1.22.20.yaml', 2, 'disable denial'],
    ['kubernetes-1.10-kube-dns-1.14.9.yaml', 1, undefined],
  ] as const)('%s: a missing name asked twice reaches the upstream %i time(s), and the Corefile caches NXDOMAIN the same way', async (file, upstreamQueries, cacheOption) => {
    const upstream = await nxdomainServer(`${lab.prefix}${upstreamQueries === 2 ? 40 : 41}`);
    closers.push(upstream.close);
    const running = await lab.startDnsmasq(dnsmasq as string, dnsmasqArgs(file, kubedns, upstream.server));
    try {
      expect(await running.query('missing.example.com')).toEqual({ kind: 'rcode', rcode: 'NXDOMAIN' });
      expect(await running.query('missing.example.com')).toEqual({ kind: 'rcode', rcode: 'NXDOMAIN' });
    } finally {
      await running.stop();
    }
    expect(upstream.seen.get('missing.example.com')).toBe(upstreamQueries);
    const corefile = corefileOf(file);
    if (cacheOption === undefined) expect(corefile).toMatch(/ {4}cache 30\n/);
    else expect(corefile).toContain(`    cache 30 {\n        ${cacheOption}\n    }\n`);
  });

  it("tries the manifest's server for a zone before the ConfigMap's the nanny appends, as the translated forward lists them", async () => {
    const [first, second] = await Promise.all([lab.fakeServer(50), lab.fakeServer(51)]);
    const manifest = `--server=/corp.test/${first.ip}#${first.port}`;
    const appended = nannyAppendedArgs(new Map([['corp.test', [`${second.ip}:${second.port}`]]]), []).argv;
    const running = await lab.startDnsmasq(dnsmasq as string, ['--cache-size=0', '--no-resolv', manifest, ...appended]);
    try {
      for (const name of ['a.corp.test', 'b.corp.test', 'corp.test']) {
        const result = await running.query(name);
        expect(result.kind === 'answered' ? result.by.ip : result).toBe(first.ip);
      }
    } finally {
      await running.stop();
    }
  });

  it('answers NXDOMAIN for --server=/zone/ and --address=/zone/ alone, a zone with a server wins over them, an address over the server', async () => {
    const server = await lab.fakeServer(60);
    const at = `${server.ip}#${server.port}`;
    const running = await lab.startDnsmasq(dnsmasq as string, [
      '--cache-size=0',
      '--no-resolv',
      '--server=/local.test/',
      '--address=/blocked.test/',
      '--address=/served.test/',
      `--server=/served.test/${at}`,
      '--address=/fixed.test/10.1.2.3',
      `--server=/fixed.test/${at}`,
    ]);
    try {
      expect(await running.query('a.local.test')).toEqual({ kind: 'rcode', rcode: 'NXDOMAIN' });
      expect(await running.query('a.blocked.test')).toEqual({ kind: 'rcode', rcode: 'NXDOMAIN' });
      const served = await running.query('a.served.test');
      expect(served.kind === 'answered' ? served.by.ip : served).toBe(server.ip);
      expect(await running.query('a.fixed.test')).toEqual({ kind: 'rcode', rcode: 'A 10.1.2.3' });
    } finally {
      await running.stop();
    }
  });

  it("agrees with the kube-dns model on where names go with the manifest's own servers, addresses and --no-resolv", async () => {
    const [stubA, stubB, upstream] = await Promise.all([lab.fakeServer(70), lab.fakeServer(71), lab.fakeServer(72)]);
    const at = (server: FakeServer) => `${server.ip}#${server.port}`;
    const manifest = [
      ...STOCK_DNSMASQ_ARGS.filter((arg) => arg !== '-k' && arg !== '--dns-loop-detect' && !arg.startsWith('--log-facility')).map((arg) => (arg === '--cache-size=1000' ? '--cache-size=0' : arg)),
      `--server=/corp.test/${at(stubA)}`,
      '--server=/b.corp.test/',
      '--address=/fixed.test/10.1.2.3',
      '--address=/gone.test/',
      '-R',
      `--server=${at(upstream)}`,
    ];
    const data = { stubDomains: JSON.stringify({ 'corp.test': [`${stubB.ip}:${stubB.port}`] }) };
    const install = readKubeDnsInstall([{ text: deploymentYaml({ dnsmasq: manifest }) }]);
    const model = kubeDnsRouting(data, { deployment: install.deployment! });
    const appended = nannyAppendedArgs(new Map([['corp.test', [`${stubB.ip}:${stubB.port}`]]]), []).argv;
    const args = [...manifest.map((arg) => arg.replace('127.0.0.1#10053', at(kubedns))), ...appended];
    const running = await lab.startDnsmasq(dnsmasq as string, args);
    const seen: string[] = [];
    try {
      for (const name of ['x.corp.test', 'corp.test', 'y.b.corp.test', 'a.fixed.test', 'a.gone.test', 'example.com', 'kubernetes.default.svc.cluster.local']) {
        const destination = model.route(name).destination;
        const result = await running.query(name);
        const observed = result.kind === 'answered' ? result.by.address : result.kind === 'rcode' ? result.rcode : 'timeout';
        const predicted =
          destination.kind === 'servers'
            ? destination.servers
            : destination.kind === 'cluster'
              ? [kubedns.address]
              : destination.kind === 'plugin'
                ? ['NXDOMAIN', 'A 10.1.2.3']
                : [describeDestination(destination)];
        expect(predicted, `${name}: model ${describeDestination(destination)}, dnsmasq ${observed}`).toContain(observed);
        seen.push(`${name} ${observed}`);
      }
    } finally {
      await running.stop();
    }
    // Every kind of destination was met: both stub servers' zone, a local answer each way, the upstream, kubedns.
    expect(seen.join('\n')).toMatch(/a\.fixed\.test A 10\.1\.2\.3/);
    expect(seen.join('\n')).toMatch(/y\.b\.corp\.test NXDOMAIN/);
    expect(seen.join('\n')).toContain(`example.com ${upstream.address}`);
  });
});

