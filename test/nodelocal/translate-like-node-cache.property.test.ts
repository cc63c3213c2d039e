import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { translateLikeNodeCache } from '../../src/nodelocal/translate-like-node-cache.js';
import type { NodeCacheResult } from '../../src/nodelocal/translate-like-node-cache.js';
import { anyKubeDnsInput, kubeDnsData } from '../support/kube-dns-arbitraries.js';
import type { KubeDnsInput } from '../support/kube-dns-arbitraries.js';
import { Outcomes } from '../support/outcomes.js';

/** One release per behaviour change, and the ones either side of the validation gate. */
const release = fc.constantFrom('1.15.6', '1.15.7', '1.15.12', '1.15.13', '1.22.9', '1.22.10', '1.26.7');

/** Now and then a stub domain with a hostname nameserver, which the 1.22.10 gate refuses. */
const withHostnames = fc.tuple(anyKubeDnsInput(), fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) })).map(
  ([input, hostname]): KubeDnsInput => (hostname ? { ...input, stubs: [...input.stubs, ['named.example', ['ns1.named.example']]] } : input),
);

const BASE = '.:53 {\n    bind __PILLAR__LOCAL__DNS__\n    forward . __PILLAR__UPSTREAM__SERVERS__ {\n            force_tcp\n    }\n}\n';

function run(version: string, data: Record<string, string>): NodeCacheResult {
  return translateLikeNodeCache(version, { data, baseCorefile: BASE, localIps: '169.254.20.10,10.0.0.10', clusterDnsIp: '10.0.0.20' });
}

function verdict(result: NodeCacheResult): string {
  return result.ok ? result.corefile : `rejected: ${result.rejected}`;
}

function occurrences(text: string, part: string): number {
  return text.split(part).length - 1;
}

describe('translateLikeNodeCache on generated ConfigMaps', () => {
  it('does not depend on the order of the stub domains in the JSON', () => {
    const outcomes = new Outcomes<'written' | 'several stubs written' | 'refused'>();
    fc.assert(
      fc.property(release, withHostnames, (version, input) => {
        const forward = run(version, kubeDnsData(input));
        const backward = run(version, kubeDnsData(input, true));
        expect(verdict(backward)).toBe(verdict(forward));
        if (!forward.ok) outcomes.add('refused');
        else if (input.stubs.length > 1) outcomes.add('several stubs written');
        else outcomes.add('written');
      }),
      { numRuns: 300 },
    );
    outcomes.expectAtLeast({ written: 20, 'several stubs written': 40, refused: 20 });
  });

  it('writes each stub domain of an accepted ConfigMap exactly once, or says why it kept the old Corefile', () => {
    const outcomes = new Outcomes<'written' | 'kube-dns-validation' | 'node-cache-validation' | 'not-reproduced'>();
    fc.assert(
      fc.property(release, withHostnames, (version, input) => {
        const result = run(version, kubeDnsData(input));
        if (!result.ok) {
          outcomes.add(result.rejected);
          expect(result.reason).not.toBe('');
          if (result.rejected === 'node-cache-validation') expect(version === '1.22.10' || version === '1.26.7').toBe(true);
          return;
        }
        outcomes.add('written');
        const domains = new Set(input.stubs.map(([domain]) => domain));
        for (const domain of domains) expect(occurrences(result.corefile, `\n\n${domain}:53 {\n`)).toBe(1);
        expect(result.corefile.match(/^\S+:53 \{$/gm)?.length).toBe(domains.size + 1);
        expect(result.corefile.startsWith(BASE.slice(0, 6))).toBe(true);
      }),
      { numRuns: 300 },
    );
    outcomes.expectAtLeast({ written: 90, 'kube-dns-validation': 10, 'node-cache-validation': 5 });
  });
});
