import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The bundled executable that `npm install` links as `kube-dns-to-coredns` (built by `npm test`,
 * which runs the build first): a real process, real stdio, real exit codes.
 */
const root = join(import.meta.dirname, '../..');
const bin = join(root, 'dist', 'bundle', 'kube-dns-to-coredns.cjs');
const example = join(root, 'examples', 'kube-dns-configmap.yaml');

function run(args: string[], input?: string) {
  return spawnSync(process.execPath, [bin, ...args], { input, encoding: 'utf8', cwd: root });
}

describe.skipIf(!existsSync(bin) && process.env['CI'] === undefined)('bundled CLI', () => {
  it('translates the bundled example', () => {
    const result = run([example]);
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^\.:53 \{\n/);
    expect(result.stdout).toContain('consul.local:53 {');
  });

  it('runs a kubeadm profile from standard input', () => {
    const result = run(['--kubeadm', '1.12', '-'], 'data:\n  upstreamNameservers: \'["1.1.1.1"]\'\n');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('    proxy . 1.1.1.1\n');
  });

  it('formats a Corefile', () => {
    const result = run(['fmt', '-'], '.:53 {\n  errors\n}\n');
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('.:53 {\n    errors\n}\n');
  });

  it('exits 2 with one line and no stack trace for bad usage', () => {
    const result = run(['--coredns', 'nope', example]);
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('exits 1 for a refused translation', () => {
    const result = run(['-'], 'data:\n  stubDomains: \'{"cluster.local": ["10.0.0.1"]}\'\n');
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
  });
});

describe.skipIf(!existsSync(bin) && process.env['CI'] === undefined)('bundled CLI --out', () => {
  it('replaces the file atomically and leaves it alone on failure', async () => {
    const { mkdtempSync, readFileSync, readdirSync, writeFileSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const directory = mkdtempSync(join(tmpdir(), 'kube-dns-to-coredns-out-'));
    const target = join(directory, 'Corefile');
    writeFileSync(target, 'old\n');
    expect(run(['--out', target, example]).status).toBe(0);
    expect(readFileSync(target, 'utf8')).toMatch(/^\.:53 \{/);
    writeFileSync(target, 'old\n');
    expect(run(['--out', target, '-'], 'data:\n  stubDomains: \'{"cluster.local": ["10.0.0.1"]}\'\n').status).toBe(1);
    expect(readFileSync(target, 'utf8')).toBe('old\n');
    expect(readdirSync(directory)).toEqual(['Corefile']);
  });
});
