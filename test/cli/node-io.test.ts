import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { InputTooLargeError } from '../../src/cli/io.js';
import { readBoundedFile } from '../../src/cli/node-io.js';

/**
 * Size limits hold for every kind of file: bytes are counted while they are read, so a FIFO, a
 * device or a symbolic link to one (a committed `kube-dns.yaml -> /dev/zero`) ends with "larger
 * than …" instead of being read without end.
 */
const work = mkdtempSync(join(tmpdir(), 'kube-dns-to-coredns-node-io-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const MiB = 1024 * 1024;

/** A FIFO at a new path, and a writer that fills it with `bytes` bytes (or until the reader leaves). */
function fifo(name: string, bytes: number): string {
  const path = join(work, name);
  expect(spawnSync('mkfifo', [path]).status).toBe(0);
  const writer = spawn('sh', ['-c', `head -c ${bytes} /dev/zero > "${path}"`], { stdio: 'ignore' });
  writer.on('error', () => undefined);
  return path;
}

describe.skipIf(!existsSync('/dev/zero'))('reading FILE with a size limit', () => {
  it('refuses a symbolic link to /dev/zero and /dev/zero itself once the limit is passed', async () => {
    const link = join(work, 'kube-dns.yaml');
    symlinkSync('/dev/zero', link);
    await expect(readBoundedFile(link, MiB)).rejects.toBeInstanceOf(InputTooLargeError);
    await expect(readBoundedFile('/dev/zero', MiB)).rejects.toBeInstanceOf(InputTooLargeError);
  });

  it('refuses a FIFO that brings more than the limit, and reads one that brings less', async () => {
    await expect(readBoundedFile(fifo('endless', 64 * MiB), MiB)).rejects.toBeInstanceOf(InputTooLargeError);
    expect((await readBoundedFile(fifo('small', 1000), MiB)).length).toBe(1000);
  });

  it('refuses a large regular file before reading it, reads a small one whole, and names a directory', async () => {
    const file = join(work, 'regular.yaml');
    writeFileSync(file, 'a: b\n'.repeat(1000));
    expect((await readBoundedFile(file, MiB)).length).toBe(5000);
    await expect(readBoundedFile(file, 4999)).rejects.toBeInstanceOf(InputTooLargeError);
    await expect(readBoundedFile(work, MiB)).rejects.toMatchObject({ code: 'EISDIR' });
  });
});

describe.skipIf(!existsSync('/dev/zero'))('every FILE option of the real executable', () => {
  const bin = join(import.meta.dirname, '../../dist/bundle/kube-dns-to-coredns.cjs');
  const zero = join(work, 'zero.yaml');
  const kubeDns = join(work, 'cm.yaml');

  it.skipIf(!existsSync(bin) && process.env['CI'] === undefined)('ends each with exit 2 and "larger than", naming the file', () => {
    symlinkSync('/dev/zero', zero);
    writeFileSync(kubeDns, 'data: {}\n');
    const runs: ReadonlyArray<readonly string[]> = [
      ['lint', zero],
      ['check', '--kube-dns', kubeDns, '--corefile', zero],
      ['explain', 'a.example', '--kube-dns', kubeDns, '--corefile', zero],
      ['--kube-dns-deployment', zero, kubeDns],
      ['--node-local-dns', '1.26.7', '--local-ip', '169.254.20.10', '--upstream-ip', '10.0.0.10', '--node-local-dns-base', zero, kubeDns],
    ];
    for (const args of runs) {
      const run = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 20_000 });
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(/zero\.yaml: larger than \d+ MiB, more than this command reads\n$/);
    }
  });
});
