import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { memoryIo } from '../support/memory-io.js';

/**
 * The script `cutover -o script` writes, run with the bundled CLI as its KUBE_DNS_TO_COREDNS (the
 * pre-flight lint and check run for real, on the files the script wrote) and a logging kubectl on
 * PATH, from a folder other than the script's: it needs nothing but itself and the tool.
 */

const root = join(import.meta.dirname, '../..');
const bin = join(root, 'dist', 'bundle', 'kube-dns-to-coredns.cjs');
const scratch = mkdtempSync(join(tmpdir(), 'kube-dns-to-coredns-cutover-script-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function script(input: string, coredns: string): Promise<string> {
  const io = memoryIo({ files: { 'kube-dns.yaml': readFileSync(join(root, input), 'utf8') } });
  const status = await main(['cutover', '--coredns', coredns, '-o', 'script', 'kube-dns.yaml'], io);
  expect(status, io.err()).toBe(0);
  return io.out();
}

function runScript(text: string): Promise<{ status: number; stderr: string; log: string[] }> {
  const folder = mkdtempSync(join(scratch, 'script-'));
  const elsewhere = mkdtempSync(join(scratch, 'cwd-'));
  const log = join(folder, 'kubectl.log');
  writeFileSync(join(folder, 'kubectl'), `#!/bin/sh\necho "kubectl $*" >> '${log}'\ncase "$*" in *'get endpoints'*) echo 'coredns-5d78c9869d-7xk2p kube-dns-6d5d8b9f7-abcde';; esac\nexit 0\n`);
  chmodSync(join(folder, 'kubectl'), 0o755);
  writeFileSync(join(folder, 'cutover.sh'), text);
  return new Promise((resolve) => {
    execFile('sh', [join(folder, 'cutover.sh')], { cwd: elsewhere, timeout: 30_000, env: { PATH: `${folder}:${process.env['PATH'] ?? '/usr/bin:/bin'}`, SKIP_VERIFY: '1', KUBE_DNS_TO_COREDNS: `${process.execPath} ${bin}` } }, (error, _stdout, stderr) => {
      resolve({ status: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stderr, log: existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [] });
    });
  });
}

describe.skipIf(!existsSync(bin) && process.env['CI'] === undefined)('the cut-over script with the real tool', () => {
  // Both sides of 1.9.4 (before it, NXDOMAIN is cached for 1 s where the stock kube-dns cached none:
  // check passes only when told the target), an autoscaler, a private registry.
  const cases = [
    ['golden/install/stock-kube-dns-1.22.20.yaml', '1.2.6'],
    ['golden/install/stock-kube-dns-1.22.20.yaml', '1.8.0'],
    ['golden/install/stock-kube-dns-1.22.20.yaml', '1.14.7'],
    ['golden/deployment/kops-1.12-kube-dns-1.14.13.yaml', '1.8.0'],
    ['golden/install/private-registry-scheduling.yaml', '1.14.7'],
  ] as const;
  it.each(cases)('%s for CoreDNS %s: the pre-flight passes on the files the script wrote, and every step runs', async (input, coredns) => {
    const done = await runScript(await script(input, coredns));
    expect(done.status, done.stderr).toBe(0);
    expect(done.log.at(-1)).toMatch(/rollout status deployment\/kube-dns|wait --for=jsonpath/);
    expect(done.log.some((line) => line.includes('--replicas=0'))).toBe(true);
  });
});
