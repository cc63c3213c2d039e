import { describe, expect, it } from 'vitest';
import { preflightNodeLocalDns } from '../../src/nodelocal/preflight.js';
import { realCoreDnsSkip, useRealCoreDnsLab } from '../support/real-coredns.js';
import type { RealCoreDnsRelease } from '../support/real-coredns.js';

/**
 * What node-cache writes after the bundled template, started in the real CoreDNS release nearest to
 * the one it embeds (moved to loopback by test/support/real-coredns.ts: every bind, key, listener and
 * destination goes to the lab's own 127.x addresses, so the bind lines' own IPs are not what is
 * tested; the template's shape, its plugins and options, and duplicate zones on one address are).
 * Six starts: the pre-flight's `loads` is what the real program does.
 */

const skip = realCoreDnsSkip('test/nodelocal/real-coredns.test.ts');

const STUBS = { stubDomains: '{"acme.local": ["10.150.0.1"], "consul.local": ["10.150.0.2", "10.150.0.3"]}', upstreamNameservers: '["8.8.8.8"]' };
const CLUSTER_STUB = { stubDomains: '{"cluster.local": ["10.150.0.5"]}' };

/** node-cache release, the real CoreDNS nearest to the one it embeds, the ConfigMap. */
const CASES: ReadonlyArray<readonly [string, RealCoreDnsRelease, Record<string, string>]> = [
  ['1.15.7', '1.2.6', STUBS],
  ['1.15.13', '1.6.9', STUBS],
  ['1.22.10', '1.8.0', STUBS],
  ['1.26.7', '1.14.7', STUBS],
  ['1.15.13', '1.6.9', CLUSTER_STUB],
  ['1.26.7', '1.14.7', CLUSTER_STUB],
];

describe.skipIf(skip !== undefined)('node-cache Corefiles in real CoreDNS', () => {
  const lab = useRealCoreDnsLab({ concurrency: 6 });

  it('start exactly when the pre-flight says the Corefile loads', async () => {
    const rows = await Promise.all(
      CASES.map(async ([release, real, data]) => {
        const preflight = preflightNodeLocalDns(release, data);
        if (!preflight.result.ok) throw new Error(`${release}: refused: ${preflight.result.reason}`);
        const verdict = await lab().start(preflight.result.corefile, real);
        return { loads: preflight.loads, started: verdict.accepted, detail: `${release} @${real} ${data === STUBS ? 'stubs' : 'cluster stub'}: pre-flight ${preflight.loads ? 'loads' : preflight.reason}; CoreDNS ${verdict.accepted ? 'started' : `refused: ${verdict.reason}`}` };
      }),
    );
    expect(rows.filter((row) => row.loads !== row.started).map((row) => row.detail)).toEqual([]);
    expect(rows.map((row) => row.started)).toEqual([true, true, true, true, false, false]);
    for (const row of rows.slice(4)) expect(row.detail).toMatch(/cluster\.local.*already defined|already defined.*cluster\.local/);
  });
});
