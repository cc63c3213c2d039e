import { describe, expect, it } from 'vitest';
import { kubernetesDefaultMainBlock, KUBERNETES_COREDNS_RELEASES } from '../../src/coredns/kubernetes-default-corefile.js';
import type { DefaultDirective } from '../../src/coredns/kubernetes-default-corefile.js';
import { migrateCorefile } from '../../src/migrate/migrate-corefile.js';
import { realCoreDnsSkip, useRealCoreDnsLab } from '../support/real-coredns.js';
import type { RealCoreDnsRelease } from '../support/real-coredns.js';

/**
 * "Every migrated Corefile is accepted by the target release", checked by the real releases
 * (1.2.6, 1.6.9, 1.8.0, 1.14.7) on a sample of twelve migrations, each moved to loopback first
 * (test/support/real-coredns.ts); skipped with a message when KUBE_DNS_TO_COREDNS_COREDNS_DIR is unset.
 */
const skip = realCoreDnsSkip('test/migrate/real-coredns.test.ts');

function render(directives: readonly DefaultDirective[], indent: string): string[] {
  return directives.flatMap((directive) => {
    const head = `${indent}${[directive.name, ...directive.args].join(' ')}`;
    return directive.block === undefined ? [head] : [`${head} {`, ...render(directive.block, `${indent}    `), `${indent}}`];
  });
}

function kubeadmDefault(kubernetes: string): { coredns: string; corefile: string } {
  const coredns = KUBERNETES_COREDNS_RELEASES.find((entry) => entry.kubernetes === kubernetes)?.coredns ?? '';
  const block = kubernetesDefaultMainBlock(coredns, { clusterDomain: 'cluster.local', upstreams: ['/etc/resolv.conf'] });
  return { coredns, corefile: `.:53 {\n${render(block.directives, '    ').join('\n')}\n}\n` };
}

const STUBS = '.:53 {\n    errors\n    kubernetes cluster.local {\n        upstream\n    }\n    # acme\n    proxy acme.local 10.0.0.1 {\n        policy first\n    }\n    proxy . 8.8.8.8\n    cache 30\n}\n';

const CASES: readonly { readonly name: string; readonly corefile: string; readonly from: string; readonly to: RealCoreDnsRelease }[] = [
  ...(['1.2.6', '1.6.9', '1.8.0', '1.14.7'] as const).map((to) => ({ name: `kubeadm 1.11 default → ${to}`, ...kubeadmDefault('1.11'), from: kubeadmDefault('1.11').coredns, to })),
  { name: 'kubeadm 1.16 default → 1.8.0', ...kubeadmDefault('1.16'), from: kubeadmDefault('1.16').coredns, to: '1.8.0' },
  { name: 'kubeadm 1.13 default → 1.14.7', ...kubeadmDefault('1.13'), from: kubeadmDefault('1.13').coredns, to: '1.14.7' },
  { name: 'stub proxies split for 1.8.0', corefile: STUBS, from: '1.2.6', to: '1.8.0' },
  { name: 'stub proxies kept in one block for 1.14.7', corefile: STUBS, from: '1.2.6', to: '1.14.7' },
  { name: 'stub proxies mapped for 1.6.9', corefile: STUBS, from: '1.2.6', to: '1.6.9' },
  { name: 'kubeadm 1.19 default down to 1.2.6', ...kubeadmDefault('1.19'), from: '1.7.0', to: '1.2.6' },
  { name: 'two forwards of 1.14.7 down to 1.8.0', corefile: '.:53 {\n    forward acme.local 10.0.0.1\n    forward . 8.8.8.8\n    cache 30\n}\n', from: '1.14.7', to: '1.8.0' },
];

/** Corefiles migrate refuses with migrate-target-refuses (nothing it can rewrite): the real target must refuse them too. */
const TARGET_REFUSALS: readonly { readonly name: string; readonly corefile: string; readonly from: string; readonly to: RealCoreDnsRelease }[] = [
  { name: 'a :53 key, 1.2.6 → 1.8.0', corefile: ':53 {\n    forward . 10.0.0.1\n}\n', from: '1.2.6', to: '1.8.0' },
  { name: 'a .zone key, 1.8.0 → 1.14.7', corefile: '.acme.local {\n    forward . 10.0.0.1\n}\n', from: '1.8.0', to: '1.14.7' },
  { name: 'keys colliding by case, 1.6.9 → 1.14.7', corefile: 'acme.local {\n    forward . 10.0.0.1\n}\nACME.local {\n    forward . 10.0.0.2\n}\n', from: '1.6.9', to: '1.14.7' },
];

describe.skipIf(skip !== undefined)('migrated Corefiles against real CoreDNS', () => {
  const lab = useRealCoreDnsLab({ concurrency: 4 });

  it('every migrated sample starts, where its input is refused (at most twelve starts)', async () => {
    expect(CASES.length).toBeLessThanOrEqual(11);
    // The control: the same stub proxies unmigrated, which 1.8.0 refuses ("Unknown directive 'proxy'").
    const control = lab().start(STUBS, '1.8.0');
    const results = await Promise.all(
      CASES.map(async (entry) => {
        const migrated = migrateCorefile(entry.corefile, { from: entry.from, to: entry.to });
        expect(migrated.ok, entry.name).toBe(true);
        expect(migrated.changed, entry.name).toBe(true);
        return { entry, migrated, verdict: await lab().start(migrated.corefile, entry.to) };
      }),
    );
    const refused = results.filter(({ verdict }) => !verdict.accepted).map(({ entry, migrated, verdict }) => `${entry.name}: ${'reason' in verdict ? verdict.reason : ''}\n${migrated.corefile}`);
    expect(refused).toEqual([]);
    expect((await control).accepted).toBe(false);
  }, 120_000);

  it('what migrate refuses as migrate-target-refuses, the real target refuses, and the source release starts', async () => {
    const results = await Promise.all(
      TARGET_REFUSALS.map(async (entry) => {
        const migrated = migrateCorefile(entry.corefile, { from: entry.from, to: entry.to });
        expect(migrated.notices.map((notice) => notice.code), entry.name).toContain('migrate-target-refuses');
        const source = entry.from as RealCoreDnsRelease;
        return { entry, target: await lab().start(entry.corefile, entry.to), source: await lab().start(entry.corefile, source) };
      }),
    );
    expect(results.filter(({ target }) => target.accepted).map(({ entry }) => entry.name)).toEqual([]);
    expect(results.filter(({ source }) => !source.accepted).map(({ entry, source }) => `${entry.name}: ${'reason' in source ? source.reason : ''}`)).toEqual([]);
  }, 120_000);
});
