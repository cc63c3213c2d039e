import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { checkNodeLocalDnsRouting } from '../../src/nodelocal/node-local-check.js';
import { nodeLocalDnsTemplate } from '../../src/nodelocal/node-local-dns-template.js';
import { preflightNodeLocalDns } from '../../src/nodelocal/preflight.js';
import { translateLikeNodeCache } from '../../src/nodelocal/translate-like-node-cache.js';
import { translateKubeDns } from '../../src/translate/translate.js';
import { anyKubeDnsInput, kubeDnsData, validKubeDnsInput } from '../support/kube-dns-arbitraries.js';
import type { KubeDnsInput } from '../support/kube-dns-arbitraries.js';
import { memoryIo } from '../support/memory-io.js';
import { Outcomes } from '../support/outcomes.js';
import { configMapYaml } from '../support/kube-dns-manifests.js';

/** Each behaviour change of node-cache, the template switch, and each CoreDNS it embeds. */
const release = fc.constantFrom('1.15.6', '1.15.7', '1.15.8', '1.15.13', '1.15.14', '1.20.0', '1.22.9', '1.22.10', '1.22.14', '1.24.0', '1.26.7');
const LOCAL_IPS = '169.254.20.10,10.96.0.10';
const UPSTREAM_IP = '10.96.0.20';

/** Now and then a stub domain with a host name nameserver, which the 1.22.10 gate refuses. */
const withHostnames = fc.tuple(anyKubeDnsInput(), fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) })).map(
  ([input, hostname]): KubeDnsInput => (hostname ? { ...input, stubs: [...input.stubs, ['named.example', ['ns1.named.example']]] } : input),
);

const yaml = (data: Record<string, string>): string => configMapYaml(data, { metadata: 'block', apiVersion: false });

async function profileRun(version: string, data: Record<string, string>): Promise<{ status: number; out: string }> {
  const io = memoryIo({ files: { 'kube-dns.yaml': yaml(data) } });
  const status = await main(['--node-local-dns', version, '--local-ip', LOCAL_IPS, '--upstream-ip', UPSTREAM_IP, 'kube-dns.yaml'], io);
  return { status, out: io.out() };
}

function reversedKeys(data: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(data).reverse());
}

describe('the node-local-dns profile on generated ConfigMaps', () => {
  it('prints the same Corefile (or the same refusal) whatever the order of the keys and of the stub domains', async () => {
    const outcomes = new Outcomes<'written' | 'several stubs written' | 'refused'>();
    await fc.assert(
      fc.asyncProperty(release, withHostnames, async (version, input) => {
        const forward = await profileRun(version, kubeDnsData(input));
        const backward = await profileRun(version, reversedKeys(kubeDnsData(input, true)));
        expect(backward).toEqual(forward);
        if (forward.status !== 0) outcomes.add('refused');
        else if (new Set(input.stubs.map(([domain]) => domain)).size > 1) outcomes.add('several stubs written');
        else outcomes.add('written');
      }),
      { numRuns: 80 },
    );
    outcomes.expectAtLeast({ written: 6, 'several stubs written': 10, refused: 10 });
  });

  it('writes every stub domain of a valid ConfigMap exactly once after the bundled template', () => {
    const outcomes = new Outcomes<'no stubs' | 'stubs' | 'refused'>();
    fc.assert(
      fc.property(release, validKubeDnsInput(), (version, input) => {
        const data = kubeDnsData(input);
        const result = translateLikeNodeCache(version, { data, baseCorefile: nodeLocalDnsTemplate(version, { localIps: LOCAL_IPS }), localIps: LOCAL_IPS, clusterDnsIp: UPSTREAM_IP });
        const domains = new Set(input.stubs.map(([domain]) => domain));
        if (!result.ok) {
          // Valid for kube-dns 1.26.7; an older release's own kube-dns rules, or the 1.22.10 gate (a host name nameserver), may refuse it.
          expect(result.rejected === 'node-cache-validation' || (result.rejected === 'kube-dns-validation' && version !== '1.26.7')).toBe(true);
          return void outcomes.add('refused');
        }
        outcomes.add(domains.size === 0 ? 'no stubs' : 'stubs');
        expect(result.corefile.startsWith(nodeLocalDnsTemplate(version, { localIps: LOCAL_IPS }).slice(0, 20))).toBe(true);
        for (const domain of domains) expect(result.corefile.split(`\n\n${domain}:53 {\n`).length - 1).toBe(1);
        expect(result.corefile.match(/^\S+:53 \{$/gm)?.length).toBe(domains.size + 4);
      }),
      { numRuns: 150 },
    );
    outcomes.expectAtLeast({ 'no stubs': 5, stubs: 35, refused: 15 });
  });

  it('gives the pre-flight verdict of the profile: accepted exactly when node-cache writes a Corefile', () => {
    const outcomes = new Outcomes<'loads' | 'does not load' | 'refused'>();
    fc.assert(
      fc.property(release, withHostnames, (version, input) => {
        const data = kubeDnsData(input);
        const verdict = preflightNodeLocalDns(version, data);
        const profile = translateLikeNodeCache(version, { data, baseCorefile: nodeLocalDnsTemplate(version, { localIps: LOCAL_IPS }), localIps: LOCAL_IPS, clusterDnsIp: UPSTREAM_IP });
        expect(verdict.accepted).toBe(profile.ok);
        expect(verdict.result).toEqual(profile);
        if (verdict.loads) expect(verdict.diagnostics.filter((entry) => entry.severity === 'error')).toEqual([]);
        else expect(verdict.reason).toMatch(/refuses|fails kube-dns's validation|does not load|more nameservers/);
        outcomes.add(!verdict.accepted ? 'refused' : verdict.loads ? 'loads' : 'does not load');
      }),
      { numRuns: 150 },
    );
    outcomes.expectAtLeast({ loads: 20, 'does not load': 8, refused: 20 });
  });

  it('routes every stub domain of a valid ConfigMap as CoreDNS alone does when CoreDNS runs its translation', () => {
    const outcomes = new Outcomes<'checked' | 'refused or not loading' | 'not translated'>();
    fc.assert(
      fc.property(fc.constantFrom('1.15.13', '1.22.9', '1.26.7'), validKubeDnsInput(), (version, input) => {
        const data = kubeDnsData(input);
        const corefile = translateKubeDns(data).corefile;
        if (corefile === undefined) return void outcomes.add('not translated');
        const result = checkNodeLocalDnsRouting({ release: version, kubeDns: data, corefile, localIps: LOCAL_IPS, upstreamIp: UPSTREAM_IP });
        if (!result.preflight.loads) return void outcomes.add('refused or not loading');
        outcomes.add('checked');
        const differing = new Set(result.differences.map((difference) => difference.name));
        for (const [domain] of input.stubs) expect(differing.has(domain)).toBe(false);
      }),
      { numRuns: 80 },
    );
    outcomes.expectAtLeast({ checked: 12, 'refused or not loading': 8 });
  });
});
