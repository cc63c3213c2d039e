import dgram from 'node:dgram';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readKubeDnsInstall } from '../../src/kubedns/kube-dns-install.js';
import { nannyAppendedArgs } from '../../src/kubedns/dnsmasq-nanny-args.js';
import { parseDnsmasqArgs } from '../../src/kubedns/dnsmasq-options.js';
import { translateKubeDnsInstall } from '../../src/translate/translate.js';
import { kubeDnsRouting } from '../../src/routing/kube-dns-routing.js';
import { describeDestination } from '../../src/routing/destination.js';
import { deploymentYaml, STOCK_DNSMASQ_ARGS } from '../support/kube-dns-manifests.js';
import { findDnsmasq, Lab } from './dnsmasq-harness.js';
import { exchange } from '../support/dns-query.js';
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

  it("sends a --server=/zone/# zone to the default servers, under a more general domain and beside the zone's own server, as the model does", async () => {
    const [corp, own, upstream] = await Promise.all([lab.fakeServer(52), lab.fakeServer(53), lab.fakeServer(54)]);
    const args = ['--cache-size=0', '--no-resolv', `--server=/corp.test/${corp.ip}#${corp.port}`, '--server=/www.corp.test/#', `--server=/www.corp.test/${own.ip}#${own.port}`, `--server=${upstream.ip}#${upstream.port}`];
    const running = await lab.startDnsmasq(dnsmasq as string, args);
    const answered: Record<string, string> = {};
    try {
      for (const name of ['x.www.corp.test', 'www.corp.test', 'x.corp.test']) {
        const result = await running.query(name);
        answered[name] = result.kind === 'answered' ? result.by.address : JSON.stringify(result);
      }
    } finally {
      await running.stop();
    }
    expect(answered).toEqual({ 'x.www.corp.test': upstream.address, 'www.corp.test': upstream.address, 'x.corp.test': corp.address });
    const deployment = readKubeDnsInstall([{ text: deploymentYaml({ dnsmasq: args }) }]).deployment;
    const routing = kubeDnsRouting(null, { ...(deployment === undefined ? {} : { deployment }) });
    for (const [name, address] of Object.entries(answered)) expect(describeDestination(routing.route(name).destination)).toBe(address);
  });

  it('answers REFUSED to every query it would forward with --dns-forward-max=0, as the model says', async () => {
    const upstream = await lab.fakeServer(55);
    const args = ['--cache-size=0', '--no-resolv', '--dns-forward-max=0', `--server=/cluster.local/${kubedns.ip}#${kubedns.port}`, `--server=${upstream.ip}#${upstream.port}`, '--address=/fixed.test/10.1.2.3'];
    const running = await lab.startDnsmasq(dnsmasq as string, args);
    try {
      expect(await running.query('example.com')).toEqual({ kind: 'rcode', rcode: 'REFUSED' });
      expect(await running.query('kubernetes.default.svc.cluster.local')).toEqual({ kind: 'rcode', rcode: 'REFUSED' });
      expect(await running.query('a.fixed.test')).toEqual({ kind: 'rcode', rcode: 'A 10.1.2.3' });
    } finally {
      await running.stop();
    }
    const deployment = readKubeDnsInstall([{ text: deploymentYaml({ dnsmasq: args }) }]).deployment;
    const routing = kubeDnsRouting(null, { ...(deployment === undefined ? {} : { deployment }) });
    expect(routing.route('example.com').via).toContain('REFUSED');
    expect(routing.route('kubernetes.default.svc.cluster.local').via).toContain('REFUSED');
    expect(routing.route('a.fixed.test').via).not.toContain('REFUSED');
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
  /** What dnsmasq answered `name`: the fake server's address, or the rcode / answer it gave itself. */
  const observed = async (running: Awaited<ReturnType<Lab['startDnsmasq']>>, name: string) => {
    const result = await running.query(name);
    return result.kind === 'answered' ? result.by.address : result.kind === 'rcode' ? result.rcode : 'timeout';
  };

  /** Where the kube-dns model sends `name`, as `observed` names it (`kubedns`, a server address, or a local answer). */
  const predicted = (model: ReturnType<typeof kubeDnsRouting>, name: string, resolver: FakeServer, local: readonly string[]): string[] => {
    const { destination, via } = model.route(name);
    if (destination.kind === 'servers') return [...destination.servers];
    if (destination.kind === 'resolv.conf') return [via.includes('kubedns') ? kubedns.address : resolver.address];
    if (destination.kind === 'cluster') return [kubedns.address];
    if (destination.kind === 'plugin') return [...local];
    return [describeDestination(destination)];
  };

  it('applies a domain list with a dot before its last domain to names without a dot too (dnsmasq 2.86+), as the model of kube-dns 1.22.1+ says', async () => {
    const [resolver, corp] = await Promise.all([lab.fakeServer(80, 53), lab.fakeServer(81)]);
    const resolvFile = lab.writeFile('resolv-80.conf', `nameserver ${resolver.ip}\n`);
    const base = ['--cache-size=0', `--resolv-file=${resolvFile}`, `--server=/cluster.local/${kubedns.ip}#${kubedns.port}`];
    const cases: Array<[string, readonly string[], readonly string[]]> = [
      // kubespray: names of one label answered NXDOMAIN, the zones themselves too, the rest forwarded.
      ['--local=/internal./local./lc./', ['example', 'x', 'local', 'lc', 'x.lc', 'example.com', 'kubernetes.default.svc.cluster.local'], ['NXDOMAIN']],
      // The dot on the last domain leaves nothing behind it.
      ['--local=/internal/local/lc./', ['example', 'x.lc'], ['NXDOMAIN']],
      [`--server=/corp./lan/${corp.ip}#${corp.port}`, ['example', 'x.corp', 'x.lan', 'example.com'], []],
      ['--address=/ads./track/10.1.2.3', ['example', 'x.ads', 'example.com'], ['A 10.1.2.3']],
    ];
    const seen: string[] = [];
    for (const [flag, names, local] of cases) {
      const text = deploymentYaml({ dnsmasq: [...STOCK_DNSMASQ_ARGS, flag], kubeDnsImage: 'registry.k8s.io/dns/k8s-dns-kube-dns:1.26.7' });
      const model = kubeDnsRouting(null, { deployment: readKubeDnsInstall([{ text }]).deployment! });
      const running = await lab.startDnsmasq(dnsmasq as string, [...base, flag.replace(corp.address, `${corp.ip}#${corp.port}`)]);
      try {
        for (const name of names) {
          const answer = await observed(running, name);
          expect(predicted(model, name, resolver, local), `${flag} ${name}: model ${describeDestination(model.route(name).destination)}, dnsmasq ${answer}`).toContain(answer);
          seen.push(`${flag} ${name} ${answer}`);
        }
      } finally {
        await running.stop();
      }
    }
    // The quirk is real: one label answered locally or sent to corp where a list without the dots forwards it.
    expect(seen).toContain('--local=/internal./local./lc./ example NXDOMAIN');
    expect(seen).toContain(`--local=/internal/local/lc./ example ${resolver.address}`);
    expect(seen).toContain(`--server=/corp./lan/${corp.ip}#${corp.port} example ${corp.address}`);
    expect(seen).toContain('--address=/ads./track/10.1.2.3 example A 10.1.2.3');
    // kube-dns 1.22.0's dnsmasq (2.85) did not: its model forwards names of one label.
    const older = kubeDnsRouting(null, { deployment: readKubeDnsInstall([{ text: deploymentYaml({ dnsmasq: [...STOCK_DNSMASQ_ARGS, '--local=/internal./local./lc./'], kubeDnsImage: 'registry.k8s.io/dns/k8s-dns-kube-dns:1.22.0' }) }]).deployment! });
    expect(describeDestination(older.route('example').destination)).toBe('resolv.conf');
  });

  it("answers names without a dot by the entries written for them ('//'), as the model of dnsmasq 2.86+ says, for A, AAAA, MX and ANY", async () => {
    const [upstream, nodots] = await Promise.all([lab.fakeServer(90), lab.fakeServer(91)]);
    const at = (server: FakeServer) => `${server.ip}#${server.port}`;
    /** What dnsmasq answered: the fake server that did, or its own answer. */
    const ask = async (running: Awaited<ReturnType<Lab['startDnsmasq']>>, name: string, type: 'A' | 'AAAA' | 'MX' | 'ANY') => {
      const reply = await exchange(running.listen.ip, running.listen.port, name, 2000, type);
      if (reply === 'timeout') return 'timeout';
      const record = reply.answers?.find((entry) => entry.type === 'A' || entry.type === 'AAAA');
      const by = record?.type === 'A' ? lab.serverAt(String(record.data)) : undefined;
      if (by !== undefined) return by.address;
      return [reply.rcode ?? '?', ...(reply.answers ?? []).map((entry) => `${entry.type} ${String(entry.data)}`)].join(' ');
    };
    const cases: Array<[readonly string[], Record<string, string>]> = [
      // An address answers its type (and ANY); the other types: REFUSED, as no entry serves them.
      [['--address=//10.9.9.9'], { 'example A': 'NOERROR A 10.9.9.9', 'example AAAA': 'REFUSED', 'example MX': 'REFUSED', 'example ANY': 'NOERROR A 10.9.9.9', 'x.lan A': 'upstream' }],
      [['--address=//#'], { 'example A': 'NOERROR A 0.0.0.0', 'example AAAA': 'NOERROR AAAA ::', 'example MX': 'REFUSED', 'example ANY': 'NOERROR A 0.0.0.0 AAAA ::' }],
      [[`--server=//${'NODOTS'}`], { 'example A': 'nodots', 'example AAAA': 'NOERROR', 'x.lan A': 'upstream' }],
      [['--local=//'], { 'example A': 'NXDOMAIN', 'example MX': 'NXDOMAIN', 'x.lan A': 'upstream' }],
      // Servers beat an NXDOMAIN entry; an address beats both for its type, NODATA beside an NXDOMAIN entry.
      [['--local=//', `--server=//${'NODOTS'}`], { 'example A': 'nodots', 'example MX': 'NOERROR' }],
      [['--address=//10.9.9.9', '--local=//'], { 'example A': 'NOERROR A 10.9.9.9', 'example AAAA': 'NOERROR', 'example MX': 'NOERROR' }],
      // A domain of the name itself wins; its other types meet the entries for names without a dot.
      [['--address=//10.9.9.9', '--address=/lan/10.1.1.1'], { 'lan A': 'NOERROR A 10.1.1.1', 'lan AAAA': 'REFUSED', 'x.lan A': 'NOERROR A 10.1.1.1', 'example A': 'NOERROR A 10.9.9.9' }],
      [[`--server=/lan//${'NODOTS'}`], { 'example A': 'nodots', 'x.lan A': 'nodots', 'example.com A': 'upstream' }],
      // Both families: each answers its type, ANY gets the IPv6 one.
      [['--address=//10.9.9.9', '--address=//fd00::9'], { 'example AAAA': 'NOERROR AAAA fd00::9', 'example MX': 'REFUSED', 'example ANY': 'NOERROR AAAA fd00::9' }],
    ];
    const seen: string[] = [];
    for (const [flags, expected] of cases) {
      const args = flags.map((flag) => flag.replace('NODOTS', at(nodots)));
      const text = deploymentYaml({ dnsmasq: [...STOCK_DNSMASQ_ARGS, '--no-resolv', `--server=${upstream.ip}#${upstream.port}`, ...args], kubeDnsImage: 'registry.k8s.io/dns/k8s-dns-kube-dns:1.26.7' });
      const model = kubeDnsRouting(null, { deployment: readKubeDnsInstall([{ text }]).deployment! });
      const running = await lab.startDnsmasq(dnsmasq as string, ['--cache-size=0', '--no-resolv', `--server=${upstream.ip}#${upstream.port}`, `--server=/cluster.local/${at(kubedns)}`, ...args]);
      try {
        for (const [question, answer] of Object.entries(expected)) {
          const [name, type] = question.split(' ') as [string, 'A' | 'AAAA' | 'MX' | 'ANY'];
          const observed = await ask(running, name, type);
          const shown = observed === upstream.address ? 'upstream' : observed === nodots.address ? 'nodots' : observed;
          seen.push(`${flags.join(' ')} ${question}: ${shown}`);
          expect(shown, `${flags.join(' ')} ${question}`).toBe(answer);
          // The model: the server that answered, or dnsmasq's own answer (a template on the CoreDNS side).
          const { destination, via } = model.route(name, type);
          const predicted = destination.kind === 'servers' ? (destination.servers.includes(`${nodots.ip}:${nodots.port}`) ? 'nodots' : 'upstream') : destination.kind === 'plugin' ? 'dnsmasq' : describeDestination(destination);
          // (A fake server answers other types than A without records, as dnsmasq's NODATA: those are told by the table above.)
          if (shown === 'upstream' || shown === 'nodots') expect(predicted, `${flags.join(' ')} ${question}: ${via}`).toBe(shown);
          else if (shown !== 'NOERROR') expect(predicted, `${flags.join(' ')} ${question}: ${via}`).toBe('dnsmasq');
          if (shown === 'REFUSED') expect(via).toContain('REFUSED');
        }
      } finally {
        await running.stop();
      }
    }
    expect(seen.length).toBe(30);
  });

  it('stops at the first name without a dot with --server=//# (dnsmasq 2.90), as the translation warns', async () => {
    const upstream = await lab.fakeServer(92);
    const running = await lab.startDnsmasq(dnsmasq as string, ['--cache-size=0', '--no-resolv', `--server=${upstream.ip}#${upstream.port}`, '--server=//#']);
    try {
      expect(await running.query('example.com')).toMatchObject({ kind: 'answered', by: upstream });
      expect(await running.query('example')).toEqual({ kind: 'timeout' });
      // A segmentation fault: no exit code, a signal.
      expect(await Promise.race([running.exited, new Promise((resolve) => setTimeout(() => resolve('running'), 2000))])).toBeNull();
    } finally {
      await running.stop();
    }
  });

  it('answers --local=/zone/ NXDOMAIN itself, except the more specific zones it has servers for (kubespray --local=/local/)', async () => {
    const [resolver] = await Promise.all([lab.fakeServer(82, 53)]);
    const resolvFile = lab.writeFile('resolv-82.conf', `nameserver ${resolver.ip}\n`);
    const manifest = [...STOCK_DNSMASQ_ARGS.filter((arg) => arg !== '-k' && arg !== '--dns-loop-detect' && !arg.startsWith('--log-facility')), '--local=/local/', '--local=/corp.test/'];
    const model = kubeDnsRouting(null, { deployment: readKubeDnsInstall([{ text: deploymentYaml({ dnsmasq: manifest }) }]).deployment! });
    const running = await lab.startDnsmasq(dnsmasq as string, [...manifest.map((arg) => arg.replace('127.0.0.1#10053', `${kubedns.ip}#${kubedns.port}`).replace('--cache-size=1000', '--cache-size=0')), `--resolv-file=${resolvFile}`]);
    const seen: string[] = [];
    try {
      for (const name of ['kubernetes.default.svc.cluster.local', 'cluster.local', 'x.local', 'local', 'a.corp.test', 'corp.test', 'example.com', 'example']) {
        const answer = await observed(running, name);
        expect(predicted(model, name, resolver, ['NXDOMAIN']), `${name}: model ${describeDestination(model.route(name).destination)}, dnsmasq ${answer}\n${running.log()}`).toContain(answer);
        seen.push(`${name} ${answer}`);
      }
    } finally {
      await running.stop();
    }
    expect(seen).toEqual([
      `kubernetes.default.svc.cluster.local ${kubedns.address}`,
      `cluster.local ${kubedns.address}`,
      'x.local NXDOMAIN',
      'local NXDOMAIN',
      'a.corp.test NXDOMAIN',
      'corp.test NXDOMAIN',
      `example.com ${resolver.address}`,
      `example ${resolver.address}`,
    ]);
  });

  it.each([
    ['every name to kubedns (Kubernetes 1.3-1.5: --no-resolv --server=127.0.0.1#10053)', ['--cache-size=1000', '--no-resolv', '--server=127.0.0.1#10053']],
    ['the cluster zones to kubedns, the rest to resolv.conf', ['--cache-size=1000', '--no-negcache', '--server=/cluster.local/127.0.0.1#10053', '--server=/in-addr.arpa/127.0.0.1#10053', '--server=/ip6.arpa/127.0.0.1#10053']],
  ] as const)('without dnsmasq-nanny (%s) the ConfigMap never reaches dnsmasq: its stub and upstreams are not used, as the model and the translation say', async (_, manifest) => {
    const [resolver, stub, configUpstream] = await Promise.all([lab.fakeServer(manifest.length === 3 ? 83 : 84, 53), lab.fakeServer(manifest.length === 3 ? 85 : 86), lab.fakeServer(manifest.length === 3 ? 87 : 88)]);
    const resolvFile = lab.writeFile(`resolv-${resolver.ip}.conf`, `nameserver ${resolver.ip}\n`);
    const data = { stubDomains: JSON.stringify({ 'acme.test': [stub.address] }), upstreamNameservers: JSON.stringify([configUpstream.address]) };
    const text = deploymentYaml({ nanny: false, kubedns: ['--domain=cluster.local.', '--dns-port=10053'], dnsmasq: manifest });
    const install = readKubeDnsInstall([{ text: `${text}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: kube-dns, namespace: kube-system}\ndata: ${JSON.stringify(data)}\n` }]);
    const model = kubeDnsRouting(install.configMap?.data ?? null, { deployment: install.deployment! });
    const translation = translateKubeDnsInstall(install);
    expect(translation.diagnostics.filter((entry) => entry.code === 'configmap-not-applied').map((entry) => entry.key)).toEqual(['stubDomains', 'upstreamNameservers']);
    expect(translation.corefile).not.toContain('acme.test');
    // No nanny: dnsmasq runs with the manifest's arguments only (the Pod's resolv.conf is the lab's file).
    const running = await lab.startDnsmasq(dnsmasq as string, [...manifest.map((arg) => arg.replace('127.0.0.1#10053', `${kubedns.ip}#${kubedns.port}`).replace('--cache-size=1000', '--cache-size=0')), `--resolv-file=${resolvFile}`]);
    const seen = new Set<string>();
    try {
      for (const name of ['x.acme.test', 'example.com', 'kubernetes.default.svc.cluster.local']) {
        const answer = await observed(running, name);
        expect(predicted(model, name, resolver, []), `${name}: model ${describeDestination(model.route(name).destination)} (${model.route(name).via}), dnsmasq ${answer}`).toContain(answer);
        seen.add(answer);
      }
    } finally {
      await running.stop();
    }
    // Neither the stub nor the ConfigMap's upstream was ever asked.
    expect(seen.has(stub.address) || seen.has(configUpstream.address)).toBe(false);
  });
  it('refuses a second --cache-size or --log-async and accepts repeated servers and flags, as the reader says', async () => {
    const { spawnSync } = await import('node:child_process');
    for (const args of [['--cache-size=1000', '--cache-size=0'], ['--log-async', '--log-async'], ['-p', '5353', '--port=5354'], ['--no-negcache', '-N', '--server=10.0.0.1', '--server=10.0.0.1']]) {
      const run = spawnSync(dnsmasq as string, ['--test', '--conf-file=/dev/null', ...args], { encoding: 'utf8' });
      const problem = parseDnsmasqArgs(args).problem;
      expect(run.status === 0, `${args.join(' ')}: ${run.stderr}`).toBe(problem === undefined);
      if (problem !== undefined) expect(run.stderr).toContain('illegal repeated flag');
    }
  });
});

