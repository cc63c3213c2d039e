import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as library from '../../src/index.js';
import { kubernetesDefaultMainBlock, KUBERNETES_COREDNS_RELEASES } from '../../src/coredns/kubernetes-default-corefile.js';
import { compareCoreDnsVersions, NEWEST_COREDNS_VERSION } from '../../src/coredns/versions.js';
// @ts-expect-error: a plain .mjs module shared with scripts/update-golden.mjs
import { migrateGoldenFiles } from '../../scripts/migrate-golden.mjs';

/**
 * kubeadm's default Corefile of Kubernetes 1.11–1.20 migrated to every later CoreDNS release
 * kubeadm shipped, and the real-world Corefiles migrated to the newest release, as reviewed in
 * golden/migrate/ (scripts/update-golden.mjs rewrites them after a deliberate change).
 */
const root = join(import.meta.dirname, '../..');
const files = (migrateGoldenFiles as (root: string, library: unknown) => Map<string, string>)(root, {
  ...library,
  kubernetesDefaultMainBlock,
  KUBERNETES_COREDNS_RELEASES,
  compareCoreDnsVersions,
  NEWEST_COREDNS_VERSION,
});

describe('migrate golden files', () => {
  it('covers the ten Kubernetes defaults and the real-world Corefiles', () => {
    expect(files.size).toBe(11);
  });

  it.each([...files.keys()])('%s is as reviewed', (path) => {
    expect(files.get(path)).toBe(readFileSync(join(root, path), 'utf8'));
  });

  it('migrates every kubeadm default without a refusal, and kubeadm 1.11 reaches the shape of kubeadm 1.19', () => {
    const defaults = [...files.entries()].filter(([path]) => path.includes('kubeadm-default'));
    for (const [, text] of defaults) expect(text).not.toContain(': refused');
    const from111 = files.get('golden/migrate/kubeadm-default-k8s-1.11.txt') ?? '';
    const section = from111.slice(from111.indexOf('→ 1.7.0'), from111.indexOf('→ 1.8.0'));
    const to170 = section.slice(0, section.indexOf('### notices'));
    for (const line of ['lameduck 5s', 'ready', 'loop', 'max_concurrent 1000', 'forward . /etc/resolv.conf {']) expect(to170).toContain(line);
    expect(to170).not.toContain('upstream');
  });
});
