import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

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

const isRoot = process.getuid?.() === 0;
const refusedInput = 'data:\n  stubDomains: \'{"cluster.local": ["10.0.0.1"]}\'\n';
/** What every translation of a ConfigMap without its Deployment says first (and, for the example, only). */
const ASSUMED =
  'info kube-dns-deployment-assumed: no Deployment given: assuming the stock kube-dns 1.26.7 manifest (cluster domain cluster.local, dnsmasq with --no-negcache: NXDOMAIN never cached)\n';

/** A ConfigMap whose Corefile is about `count` × 80 bytes: 200 stub domains make about 16 KiB. */
function manyStubDomains(count: number): string {
  const stubDomains = Object.fromEntries(Array.from({ length: count }, (_, index) => [`zone${index}.example`, ['10.0.0.1']]));
  return `data:\n  stubDomains: '${JSON.stringify(stubDomains)}'\n  upstreamNameservers: '["1.1.1.1"]'\n`;
}

interface Finished {
  status: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a program without blocking the test; kills it (SIGKILL) if it runs longer than 10 s. */
function runAsync(command: string, args: string[], cwd = root): Promise<Finished> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolvePromise({ status, signal, stdout, stderr });
    });
  });
}

describe.skipIf(!existsSync(bin) && process.env['CI'] === undefined)('bundled CLI --out', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(join(tmpdir(), 'kube-dns-to-coredns-out-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('replaces the file atomically and leaves it alone on failure', () => {
    const target = join(directory, 'Corefile');
    writeFileSync(target, 'old\n');
    expect(run(['--out', target, example]).status).toBe(0);
    expect(readFileSync(target, 'utf8')).toMatch(/^\.:53 \{/);
    writeFileSync(target, 'old\n');
    expect(run(['--out', target, '-'], refusedInput).status).toBe(1);
    expect(readFileSync(target, 'utf8')).toBe('old\n');
    expect(readdirSync(directory)).toEqual(['Corefile']);
  });

  it('writes to a FIFO directly and leaves it a FIFO', async () => {
    const fifo = join(directory, 'corefile.fifo');
    execFileSync('mkfifo', [fifo]);
    // Each side's open waits for the other; a reader left waiting is killed after 10 s.
    const [written, read] = await Promise.all([runAsync(process.execPath, [bin, '--out', fifo, example]), runAsync('cat', [fifo])]);
    expect(written).toMatchObject({ status: 0, stdout: '', stderr: ASSUMED });
    expect(read).toMatchObject({ status: 0, stdout: run([example]).stdout });
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(readdirSync(directory)).toEqual(['corefile.fifo']);
  });

  it.skipIf(!isRoot)('writes to a character device directly and leaves it a device (a private clone of /dev/null)', () => {
    const device = join(directory, 'null');
    execFileSync('mknod', [device, 'c', '1', '3']);
    const result = run(['--out', device, example]);
    expect(result.stderr).toBe(ASSUMED);
    expect(result.status).toBe(0);
    expect(lstatSync(device).isCharacterDevice()).toBe(true);
    expect(lstatSync(device).rdev).toBe(statSync('/dev/null').rdev);
    expect(readdirSync(directory)).toEqual(['null']);
  });

  it('follows a symbolic link and replaces its target, keeping the link', () => {
    mkdirSync(join(directory, 'real'));
    writeFileSync(join(directory, 'real', 'Corefile'), 'old\n');
    symlinkSync('real/Corefile', join(directory, 'Corefile'));
    expect(run(['--out', join(directory, 'Corefile'), example]).status).toBe(0);
    expect(lstatSync(join(directory, 'Corefile')).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(directory, 'Corefile'))).toBe('real/Corefile');
    expect(readFileSync(join(directory, 'real', 'Corefile'), 'utf8')).toMatch(/^\.:53 \{/);
    expect(readdirSync(join(directory, 'real'))).toEqual(['Corefile']);
  });

  it('refuses a directory and a socket with exit 2, naming the target', async () => {
    const subdirectory = join(directory, 'Corefile.d');
    mkdirSync(subdirectory);
    const onDirectory = run(['--out', subdirectory, example]);
    expect(onDirectory.status).toBe(2);
    expect(onDirectory.stderr).toBe(`${ASSUMED}kube-dns-to-coredns: ${subdirectory}: cannot write: a directory; --out writes regular files, FIFOs and character devices only\n`);
    expect(readdirSync(subdirectory)).toEqual([]);

    const socketPath = join(directory, 'Corefile.sock');
    const server = createServer();
    await new Promise<void>((resolveListen) => server.listen(socketPath, resolveListen));
    try {
      const onSocket = await runAsync(process.execPath, [bin, '--out', socketPath, example]);
      expect(onSocket.status).toBe(2);
      expect(onSocket.stderr).toMatch(/Corefile\.sock: cannot write: a socket;/);
      expect(lstatSync(socketPath).isSocket()).toBe(true);
    } finally {
      await new Promise((resolveClose) => server.close(resolveClose));
    }
    expect(readdirSync(directory).sort()).toEqual(['Corefile.d']);
  });

  it('keeps the mode of the file it replaces', () => {
    const target = join(directory, 'Corefile');
    writeFileSync(target, 'old\n');
    chmodSync(target, 0o600);
    expect(run(['--out', target, example]).status).toBe(0);
    expect(statSync(target).mode & 0o7777).toBe(0o600);
    chmodSync(target, 0o640);
    expect(run(['--out', target, example]).status).toBe(0);
    expect(statSync(target).mode & 0o7777).toBe(0o640);
  });

  it.skipIf(!isRoot)('keeps the owner and group of the file it replaces (run as root)', () => {
    const target = join(directory, 'Corefile');
    writeFileSync(target, 'old\n');
    chownSync(target, 12345, 23456);
    expect(run(['--out', target, example]).status).toBe(0);
    expect(readFileSync(target, 'utf8')).toMatch(/^\.:53 \{/);
    expect(statSync(target)).toMatchObject({ uid: 12345, gid: 23456 });
  });

  it("writes to stdout with '--out -', as '-' reads stdin", () => {
    const result = spawnSync(process.execPath, [bin, '--out', '-', example], { encoding: 'utf8', cwd: directory });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^\.:53 \{/);
    expect(readdirSync(directory)).toEqual([]);
  });

  it('names the target, not the temporary file, when it cannot write', () => {
    const target = join(directory, 'missing', 'Corefile');
    const result = run(['--out', target, example]);
    expect(result.status).toBe(2);
    expect(result.stderr).toBe(`${ASSUMED}kube-dns-to-coredns: ${target}: cannot write: ENOENT: no such file or directory\n`);
  });

  it('removes the temporary file when writing it fails (file size limit) and names the target', () => {
    const target = join(directory, 'Corefile');
    writeFileSync(target, 'old\n');
    // `ulimit -f 2` allows 1 or 2 KiB (the shell's unit); the Corefile is about 16 KiB, so the
    // temporary file is created and its write fails with EFBIG (Node ignores SIGXFSZ).
    const result = spawnSync('/bin/sh', ['-c', 'ulimit -f 2 && exec "$0" "$@"', process.execPath, bin, '--out', target, '-'], {
      input: manyStubDomains(200),
      encoding: 'utf8',
      cwd: root,
    });
    expect(result.stderr).toBe(`${ASSUMED}kube-dns-to-coredns: ${target}: cannot write: EFBIG: file too large\n`);
    expect(result.status).toBe(2);
    expect(readFileSync(target, 'utf8')).toBe('old\n');
    expect(readdirSync(directory)).toEqual(['Corefile']);
  });
});
