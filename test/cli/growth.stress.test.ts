import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { expectDoublingGrowth } from '../support/growth.js';
import { configMapYaml, deploymentYaml, STOCK_DNSMASQ_ARGS } from '../support/kube-dns-manifests.js';
import { memoryIo } from '../support/memory-io.js';

/**
 * The main paths of the CLI at n and 2n (issue #18, hostile input): each doubling of the input at
 * most triples the time, end to end in process (reading, the command, the report), so that no
 * step grows with the square of the input. Sizes are chosen for tens of milliseconds a run; the
 * figures at hundreds of thousands of items are in docs/performance.md ("Hostile input").
 */

type Files = Record<string, string>;

async function runs(args: readonly string[], files: Files, status: number): Promise<void> {
  const io = memoryIo({ files });
  expect(await main([...args], io)).toBe(status);
}

/** dnsmasq's stock flags and `count` `--server=/zN.example/IP` flags. */
function serverFlags(count: number): string[] {
  const servers = Array.from({ length: count }, (_, index) => `--server=/z${index}.example/10.1.${(index >> 8) & 255}.${index & 255}`);
  return [...STOCK_DNSMASQ_ARGS, ...servers];
}

const KUBE_DNS = configMapYaml({});
const MAIN = '.:53 {\n    errors\n    health\n    kubernetes cluster.local in-addr.arpa ip6.arpa {\n        pods insecure\n        fallthrough in-addr.arpa ip6.arpa\n    }\n    proxy . /etc/resolv.conf\n    cache 30\n    loop\n    reload\n}\n';

/** kubeadm's Corefile of the proxy era and `count` stub blocks, each one `migrate` rewrites. */
function stubBlocks(count: number): string {
  const blocks = Array.from({ length: count }, (_, index) => `zone-${index}.example.com:53 {\n    errors\n    cache 30\n    proxy . 10.${(index >> 8) & 255}.${index & 255}.53\n}\n`);
  return MAIN + blocks.join('');
}

describe('doubling the input at most triples the time', () => {
  it('translate: a Deployment with n dnsmasq --server flags', async () => {
    await expectDoublingGrowth(
      (count) => ({ 'deploy.yaml': deploymentYaml({ dnsmasq: serverFlags(count) }) }),
      (files) => runs(['--kube-dns-deployment', 'deploy.yaml'], files, 0),
      { size: 500 },
    );
  });

  it('check: the translation of those n flags against the Deployment', async () => {
    await expectDoublingGrowth(
      async (count) => {
        const files: Files = { 'kube-dns.yaml': KUBE_DNS, 'deploy.yaml': deploymentYaml({ dnsmasq: serverFlags(count) }) };
        const io = memoryIo({ files });
        expect(await main(['--kube-dns-deployment', 'deploy.yaml', 'kube-dns.yaml'], io)).toBe(0);
        return { ...files, Corefile: io.out() };
      },
      (files) => runs(['check', '--kube-dns', 'kube-dns.yaml', '--kube-dns-deployment', 'deploy.yaml', '--corefile', 'Corefile'], files, 0),
      { size: 300 },
    );
  });

  it('lint: n server blocks', async () => {
    await expectDoublingGrowth((count) => ({ Corefile: stubBlocks(count) }), (files) => runs(['lint', '--coredns', '1.3.1', 'Corefile'], files, 0), { size: 1500 });
  });

  it('migrate: n server blocks, every one rewritten (proxy to forward)', async () => {
    await expectDoublingGrowth((count) => ({ Corefile: stubBlocks(count) }), (files) => runs(['migrate', '--from', '1.3.1', '--to', '1.8.0', 'Corefile'], files, 0), { size: 600 });
  });

  it('fmt: n nested levels', async () => {
    await expectDoublingGrowth(
      (depth) => ({ Corefile: `.:53 {\n    a${' { a'.repeat(depth)}${' }'.repeat(depth)}\n}\n` }),
      (files) => runs(['fmt', 'Corefile'], files, 0),
      { size: 8000 },
    );
  });
});
