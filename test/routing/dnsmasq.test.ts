import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readKubeDnsConfig } from '../../src/kubedns/read-kube-dns-config.js';
import { readKubeDnsInstall } from '../../src/kubedns/kube-dns-install.js';
import { deploymentYaml } from '../support/kube-dns-manifests.js';
import { coreDnsRouting } from '../../src/routing/coredns-routing.js';
import { checkRouting, namesToCheck } from '../../src/routing/check.js';
import { translateKubeDnsInstall } from '../../src/translate/translate.js';
import { describeDestination } from '../../src/routing/destination.js';
import type { RouteDestination } from '../../src/routing/destination.js';
import { kubeDnsRouting } from '../../src/routing/kube-dns-routing.js';
import { displayName } from '../../src/dns/names.js';
import { findDnsmasq, Lab, nannyArgs } from './dnsmasq-harness.js';
import type { FakeServer, QueryResult } from './dnsmasq-harness.js';

/**
 * The kube-dns model against the real thing: dnsmasq, started with the flags kube-dns's
 * dnsmasq-nanny derives from the ConfigMap, forwarding to fake DNS servers on loopback addresses
 * that answer with their own address. For every name of a generated set, the server that answered
 * must be one the model predicts. Traffic stays on 127.0.0.0/8.
 */

const dnsmasq = findDnsmasq();
const inCi = process.env['CI'] !== undefined && process.env['CI'] !== '' && process.env['CI'] !== 'false';

if (dnsmasq === undefined && !inCi) {
  console.warn('test/routing/dnsmasq.test.ts skipped: dnsmasq is not installed (apt-get install dnsmasq-base, or scripts/ci-dnsmasq.sh)');
}

if (dnsmasq === undefined && inCi) {
  it('dnsmasq is installed (CI must run the dnsmasq tests)', () => {
    throw new Error('dnsmasq is not installed: run scripts/ci-dnsmasq.sh (apt-get install dnsmasq-base) before the tests');
  });
}

describe.skipIf(dnsmasq === undefined)('kube-dns model against real dnsmasq', () => {
  let lab: Lab;
  let kubedns: FakeServer;
  let resolver: FakeServer;
  let upstreams: FakeServer[];
  let stubs: FakeServer[];

  beforeAll(async () => {
    lab = new Lab();
    kubedns = await lab.fakeServer(9);
    try {
      // The node's resolv.conf cannot name a port: the fake node resolver must listen on 53.
      resolver = await lab.fakeServer(8, 53);
    } catch (error) {
      throw new Error(`cannot bind ${lab.prefix}8:53 for the fake node resolver (needs root): ${String(error)}`);
    }
    upstreams = await Promise.all([20, 21, 22].map((host) => lab.fakeServer(host)));
    stubs = await Promise.all([30, 31, 32, 33, 34, 35].map((host) => lab.fakeServer(host)));
  });

  afterAll(async () => {
    await lab?.close();
  });

  /** The fake servers a destination stands for; any of them may answer. */
  function expectedServers(destination: RouteDestination): Set<string> {
    switch (destination.kind) {
      case 'cluster':
        return new Set([kubedns.address]);
      case 'resolv.conf':
        return new Set([resolver.address]);
      case 'servers':
        return new Set(destination.servers);
      case 'any-of':
        return new Set(destination.destinations.flatMap((member) => [...expectedServers(member)]));
      default:
        return new Set();
    }
  }

  function describeResult(result: QueryResult): string {
    if (result.kind === 'answered') return result.by.address;
    return result.kind === 'timeout' ? 'no answer' : result.rcode;
  }

  interface Mismatch {
    readonly name: string;
    readonly predicted: string;
    readonly observed: string;
  }

  /**
   * Starts dnsmasq as the nanny would for `data`, queries every name and returns where the
   * model's prediction and dnsmasq disagree.
   */
  async function compare(data: Record<string, string>, clusterDomain: string, extraNames: readonly string[] = []): Promise<{ mismatches: Mismatch[]; queried: number }> {
    const model = kubeDnsRouting(data, { clusterDomain });
    // What the nanny runs: the ConfigMap when kube-dns accepts it, else kube-dns's defaults.
    const reading = readKubeDnsConfig(data);
    const config = reading.acceptedByKubeDns ? reading.config : { stubDomains: [], upstreamNameservers: undefined };
    const args = nannyArgs({
      clusterDomain,
      kubedns,
      stubDomains: config.stubDomains.map((stub) => [stub.domain, stub.nameservers.map((entry) => entry.value)] as const),
      upstreamNameservers: (config.upstreamNameservers ?? []).map((entry) => entry.value),
      resolvFile: lab.writeFile('resolv.conf', `nameserver ${resolver.ip}\n`),
    });
    const names = [...namesToCheck(model, coreDnsRouting(''), extraNames)];
    // dnsmasq matches whole labels, case-insensitively.
    for (const stub of config.stubDomains) names.push(`not${stub.domain}`, `X.${stub.domain.toUpperCase()}`);
    const server = await lab.startDnsmasq(dnsmasq as string, args);
    const mismatches: Mismatch[] = [];
    try {
      expect(server.log(), 'dnsmasq exited at startup').not.toMatch(/bad command line|FAILED to start/);
      for (const name of names) {
        const destination = model.route(name).destination;
        const expected = expectedServers(destination);
        const result = await server.query(name === '' ? '.' : name);
        const answeredBy = result.kind === 'answered' ? result.by.address : undefined;
        if (answeredBy === undefined || !expected.has(answeredBy)) {
          mismatches.push({ name: displayName(name), predicted: describeDestination(destination), observed: describeResult(result) });
        }
      }
    } finally {
      await server.stop();
    }
    return { mismatches, queried: names.length };
  }

  const data = (stubDomains: Record<string, readonly string[]>, upstreamNameservers?: readonly string[]): Record<string, string> => ({
    stubDomains: JSON.stringify(stubDomains),
    ...(upstreamNameservers === undefined ? {} : { upstreamNameservers: JSON.stringify(upstreamNameservers) }),
  });
  const at = (server: FakeServer) => server.address;

  it('most specific stub domain wins; its names never fall back to the upstreams', async () => {
    const config = data({ 'acme.local': [at(stubs[0]!)], 'a.acme.local': [at(stubs[1]!)], local: [at(stubs[2]!)] }, [at(upstreams[0]!)]);
    const { mismatches, queried } = await compare(config, 'cluster.local', ['x.a.acme.local', 'b.acme.local', 'deep.b.local']);
    expect(mismatches).toEqual([]);
    expect(queried).toBeGreaterThan(20);
  });

  it('a stub above the cluster domain leaves cluster names with kubedns; a stub below it takes its subtree', async () => {
    const config = data({ local: [at(stubs[0]!)], 'my.cluster.local': [at(stubs[1]!)] });
    const { mismatches } = await compare(config, 'cluster.local', ['a.b.my.cluster.local', 'svc.cluster.local', 'other.local']);
    expect(mismatches).toEqual([]);
  });

  it('reverse zones go to kubedns unless a narrower stub takes them; a stub on arpa does not capture them', async () => {
    const config = data({ '10.in-addr.arpa': [at(stubs[0]!)], arpa: [at(stubs[1]!)], '8.b.d.0.1.0.0.2.ip6.arpa': [at(stubs[2]!)] });
    const { mismatches } = await compare(config, 'cluster.local', ['4.3.2.10.in-addr.arpa', '4.3.2.11.in-addr.arpa', 'e164.arpa', '1.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa']);
    expect(mismatches).toEqual([]);
  });

  it('upstreamNameservers replace the node resolv.conf (--no-resolv); absent or [] means resolv.conf', async () => {
    for (const config of [data({}, [at(upstreams[0]!), at(upstreams[1]!)]), data({}, []), data({})]) {
      const { mismatches } = await compare(config, 'cluster.local', ['example.com', 'www.example.org', 'single']);
      expect(mismatches).toEqual([]);
    }
  });

  it('a stub domain with no nameservers sends its names upstream', async () => {
    const { mismatches } = await compare(data({ 'empty.example': [], 'acme.local': [at(stubs[0]!)] }, [at(upstreams[2]!)]), 'cluster.local', ['x.empty.example']);
    expect(mismatches).toEqual([]);
  });

  it('a stub equal to the cluster domain: dnsmasq answers from either kubedns or the stub', async () => {
    const { mismatches } = await compare(data({ 'cluster.local': [at(stubs[3]!)] }), 'cluster.local');
    expect(mismatches).toEqual([]);
  });

  it('a ConfigMap kube-dns rejects routes like its defaults (four upstreams are one too many)', async () => {
    const config = data({ 'acme.local': [at(stubs[0]!)] }, upstreams.map(at).concat(at(stubs[5]!)));
    expect(kubeDnsRouting(config).acceptedByKubeDns).toBe(false);
    const { mismatches } = await compare(config, 'cluster.local', ['x.acme.local']);
    expect(mismatches).toEqual([]);
  });

  it('a cluster domain other than cluster.local', async () => {
    const config = data({ 'example.org': [at(stubs[0]!)], 'svc.k8s.example.org': [at(stubs[1]!)] }, [at(upstreams[0]!)]);
    const { mismatches } = await compare(config, 'k8s.example.org');
    expect(mismatches).toEqual([]);
  });

  it('dnsmasq refuses the [IPv6]#port form the nanny passes, as the model notes', async () => {
    const config = data({ 'v6.example': ['[2001:db8::1]:5353'] });
    expect(kubeDnsRouting(config).notes.join('\n')).toMatch(/which dnsmasq refuses/);
    const reading = readKubeDnsConfig(config);
    expect(reading.acceptedByKubeDns).toBe(true);
    const args = nannyArgs({ clusterDomain: 'cluster.local', kubedns, stubDomains: [['v6.example', ['[2001:db8::1]:5353']]], upstreamNameservers: [], resolvFile: lab.writeFile('resolv.conf', `nameserver ${resolver.ip}\n`) });
    expect(args).toContain('--server=/v6.example/[2001:db8::1]#5353');
    const server = await lab.startDnsmasq(dnsmasq as string, args);
    const code = await Promise.race([server.exited, new Promise<'running'>((resolve) => setTimeout(() => resolve('running'), 3000))]);
    await server.stop();
    expect(code).not.toBe('running');
    expect(code).not.toBe(0);
    expect(server.log()).toMatch(/bad command line options/);
  });

  describe('generated ConfigMaps (fast-check, fixed seed)', () => {
    const clusterDomains = ['cluster.local', 'k8s.example.org'] as const;
    const domainPool = (clusterDomain: string) => [
      'acme.local', 'a.acme.local', 'local', 'example.org', 'corp.example.org', 'org', `my.${clusterDomain}`, `svc.${clusterDomain}`,
      clusterDomain.split('.').slice(1).join('.') || 'local', '10.in-addr.arpa', '96.10.in-addr.arpa', 'arpa', '8.b.d.0.1.0.0.2.ip6.arpa', 'consul',
    ];

    it('dnsmasq answers every name from a server the model predicts', async () => {
      const config = fc.constantFrom(...clusterDomains).chain((clusterDomain) =>
        fc.record({
          clusterDomain: fc.constant(clusterDomain),
          stubs: fc.uniqueArray(fc.tuple(fc.constantFrom(...domainPool(clusterDomain)), fc.subarray([0, 1, 2, 3, 4, 5], { maxLength: 2 })), { maxLength: 5, selector: ([domain]) => domain }),
          upstreams: fc.option(fc.subarray([0, 1, 2], { maxLength: 3 }), { nil: undefined }),
        }),
      );
      const failures: string[] = [];
      let queried = 0;
      await fc.assert(
        fc.asyncProperty(config, async (generated) => {
          const stubDomains = Object.fromEntries(generated.stubs.map(([domain, indexes]) => [domain, indexes.map((index) => at(stubs[index]!))]));
          const upstreamList = generated.upstreams?.map((index) => at(upstreams[index]!));
          const result = await compare(data(stubDomains, upstreamList), generated.clusterDomain);
          queried += result.queried;
          if (result.mismatches.length > 0) failures.push(`${JSON.stringify(generated)}: ${JSON.stringify(result.mismatches)}`);
          expect(result.mismatches).toEqual([]);
        }),
        { seed: 20240605, numRuns: 30, endOnFailure: true },
      );
      expect(failures).toEqual([]);
      expect(queried).toBeGreaterThan(300);
    });
  });

  it("raced-default-servers: upstreamNameservers beside a default server to kubedns — dnsmasq asks the fastest default server, cluster names included", async () => {
    // The manifest's --no-resolv --server=KUBEDNS, then the nanny's --server=UPSTREAM (dnsmasq 2.90 forward.c:
    // every default server on the first query and every 50 queries / 20 s, else the one that answered first).
    const upstream = upstreams[1]!;
    // A kubedns that answers its cluster names at once and takes 300 ms for the names it forwards.
    const slowKubedns = await lab.fakeServer(10, 0, () => false, (name) => (name.endsWith('.cluster.local') ? 0 : 300));
    const args = ['--cache-size=0', '--no-resolv', `--server=${slowKubedns.ip}#${slowKubedns.port}`, `--server=${upstream.ip}#${upstream.port}`];
    const routing = kubeDnsRouting({ upstreamNameservers: JSON.stringify([upstream.address]) }, { deployment: readKubeDnsInstall([{ text: deploymentYaml({ dnsmasq: ['--cache-size=1000', '--no-resolv', '--server=127.0.0.1#10053'] }) }]).deployment! });
    const server = await lab.startDnsmasq(dnsmasq as string, args);
    const answeredBy = new Set<string>();
    try {
      // The first query goes to both default servers; the upstream answers example.com first and becomes dnsmasq's pick.
      expect(await server.query('example.com')).toMatchObject({ kind: 'answered', by: upstream });
      for (let index = 0; index < 10; index += 1) {
        const name = `s${index}.default.svc.cluster.local`;
        const result = await server.query(name);
        expect(result.kind, name).toBe('answered');
        if (result.kind === 'answered') answeredBy.add(result.by.address === upstream.address ? 'upstream' : result.by.address === slowKubedns.address ? 'kubedns' : result.by.address);
        // The model: kubedns or the upstreams (kubedns's address in the Pod stands for the fake kubedns).
        expect(routing.route(name).destination.kind).toBe('any-of');
      }
    } finally {
      await server.stop();
    }
    // Until the next probe of every server (50 queries or 20 s), the cluster names went to the upstream only.
    expect([...answeredBy]).toEqual(['upstream']);
  });

  it('raced-default-servers does not apply with --strict-order: dnsmasq asks kubedns, the first default server, for every name however slow, as the model and the translation say', async () => {
    const upstream = upstreams[2]!;
    // kubedns takes 150 ms for every name; without --strict-order the upstream would win after the first query.
    const slowKubedns = await lab.fakeServer(11, 0, (name) => name.startsWith('missing.'), () => 150);
    const args = ['--cache-size=0', '--no-resolv', '--strict-order', `--server=${slowKubedns.ip}#${slowKubedns.port}`, `--server=${upstream.ip}#${upstream.port}`];
    const manifest = ['--cache-size=1000', '--no-resolv', '--strict-order', '--server=127.0.0.1#10053'];
    const install = readKubeDnsInstall([
      { text: `${deploymentYaml({ dnsmasq: manifest })}---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: kube-dns, namespace: kube-system}\ndata: ${JSON.stringify({ upstreamNameservers: JSON.stringify([upstream.address]) })}\n` },
    ]);
    const routing = kubeDnsRouting(install.configMap?.data ?? null, { deployment: install.deployment! });
    const server = await lab.startDnsmasq(dnsmasq as string, args);
    const answeredBy = new Set<string>();
    try {
      for (const name of ['example.com', ...Array.from({ length: 8 }, (_, index) => `s${index}.default.svc.cluster.local`), 'www.example.com']) {
        const result = await server.query(name);
        answeredBy.add(result.kind === 'answered' ? (result.by.address === slowKubedns.address ? 'kubedns' : result.by.address) : result.kind);
        // The model: kubedns (the cluster's names) or kubedns's own resolver (the rest), never an any-of.
        expect(routing.route(name).destination.kind, name).not.toBe('any-of');
      }
      // kubedns's NXDOMAIN is final: the upstream is not asked.
      expect(await server.query('missing.example.com')).toEqual({ kind: 'rcode', rcode: 'NXDOMAIN' });
    } finally {
      await server.stop();
    }
    expect([...answeredBy]).toEqual(['kubedns']);
    // The translation (an upstream off loopback, which the translator refuses as a loop): no race to refuse, and check passes on it.
    const data = { upstreamNameservers: JSON.stringify(['10.0.0.53']) };
    const translation = translateKubeDnsInstall({ ...install, configMap: { ...install.configMap!, data } });
    expect(translation.diagnostics.filter((entry) => entry.severity === 'error')).toEqual([]);
    expect(checkRouting({ kubeDns: data, kubeDnsDeployment: install.deployment!, corefile: translation.corefile ?? '' }).ok).toBe(true);
  });
});
