import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  closeSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OutputFileError } from '../../src/cli/io.js';
import { createTemporaryFile, resolveOutputTarget, writeOutputFile } from '../../src/cli/output-file.js';

/** The documented name of the temporary file: `.NAME.PID.RANDOM.tmp`. */
const TEMPORARY_NAME = /^\.(.+)\.(\d+)\.([0-9a-z]{8})\.tmp$/;

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'kube-dns-to-coredns-output-file-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

describe('writeOutputFile', () => {
  it('creates a new file with the mode a new file gets (0666 less the umask)', async () => {
    const target = join(directory, 'Corefile');
    await writeOutputFile(target, 'new\n');
    expect(readFileSync(target, 'utf8')).toBe('new\n');
    const umask = process.umask(0o022);
    process.umask(umask);
    expect(statSync(target).mode & 0o777).toBe(0o666 & ~umask);
    expect(readdirSync(directory)).toEqual(['Corefile']);
  });

  it('replaces a regular file by a new one (a new inode), keeping its mode', async () => {
    const target = join(directory, 'Corefile');
    writeFileSync(target, 'old\n');
    chmodSync(target, 0o604);
    const before = statSync(target).ino;
    await writeOutputFile(target, 'new\n');
    expect(readFileSync(target, 'utf8')).toBe('new\n');
    expect(statSync(target).ino).not.toBe(before);
    expect(statSync(target).mode & 0o7777).toBe(0o604);
  });

  it('follows a chain of links, relative to the real directory of each link', async () => {
    // dir-link -> real-dir; Corefile -> dir-link/first; real-dir/first -> ../final/Corefile.
    // Read lexically from dir-link, '../final' would be directory/final; from real-dir it is nested/final.
    mkdirSync(join(directory, 'nested', 'real-dir'), { recursive: true });
    mkdirSync(join(directory, 'nested', 'final'));
    writeFileSync(join(directory, 'nested', 'final', 'Corefile'), 'old\n');
    symlinkSync('nested/real-dir', join(directory, 'dir-link'));
    symlinkSync('../final/Corefile', join(directory, 'nested', 'real-dir', 'first'));
    symlinkSync('dir-link/first', join(directory, 'Corefile'));
    await writeOutputFile(join(directory, 'Corefile'), 'new\n');
    expect(readFileSync(join(directory, 'nested', 'final', 'Corefile'), 'utf8')).toBe('new\n');
    expect(lstatSync(join(directory, 'Corefile')).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(directory, 'nested', 'real-dir', 'first')).isSymbolicLink()).toBe(true);
    expect(existsSync(join(directory, 'final'))).toBe(false);
    expect(readdirSync(join(directory, 'nested', 'final'))).toEqual(['Corefile']);
  });

  it("creates a dangling link's target", async () => {
    symlinkSync('Corefile.real', join(directory, 'Corefile'));
    await writeOutputFile(join(directory, 'Corefile'), 'new\n');
    expect(readFileSync(join(directory, 'Corefile.real'), 'utf8')).toBe('new\n');
    expect(lstatSync(join(directory, 'Corefile')).isSymbolicLink()).toBe(true);
  });

  it('refuses a loop of links', async () => {
    symlinkSync('b', join(directory, 'a'));
    symlinkSync('a', join(directory, 'b'));
    await expect(writeOutputFile(join(directory, 'a'), 'new\n')).rejects.toMatchObject({
      message: 'too many levels of symbolic links',
      code: 'ELOOP',
    });
  });

  it.skipIf(process.platform !== 'linux')(
    'writes through a descriptor link (/dev/fd/N, like /dev/stdout) by appending, without replacing the file',
    async () => {
      const target = join(directory, 'stdout.log');
      writeFileSync(target, 'written before\n');
      const descriptor = openSync(target, 'a');
      try {
        const before = statSync(target).ino;
        expect(await resolveOutputTarget(`/dev/fd/${descriptor}`)).toEqual({
          kind: 'write-through',
          path: `/dev/fd/${descriptor}`,
          append: true,
        });
        await writeOutputFile(`/dev/fd/${descriptor}`, 'new\n');
        expect(readFileSync(target, 'utf8')).toBe('written before\nnew\n');
        expect(statSync(target).ino).toBe(before);
        expect(readdirSync(directory)).toEqual(['stdout.log']);
      } finally {
        closeSync(descriptor);
      }
    },
  );

  it('keeps a long name recognisable in the temporary name and stays within the 255-byte limit', async () => {
    const name = `${'c'.repeat(240)}.conf`;
    await writeOutputFile(join(directory, name), 'new\n');
    expect(readdirSync(directory)).toEqual([name]);
  });

  it("refuses a name ending in '/' instead of writing a file without the slash", async () => {
    await expect(writeOutputFile(join(directory, 'out') + '/', 'new\n')).rejects.toMatchObject({
      message: "a directory name (it ends in '/'); --out writes regular files, FIFOs and character devices only",
    });
    expect(readdirSync(directory)).toEqual([]);
  });

  it('does not rename over a target that became a FIFO while the output was written', async () => {
    const target = join(directory, 'Corefile');
    writeFileSync(target, 'old\n');
    const temporary = await createTemporaryFile(await resolveOutputTarget(target).then((resolved) => ({ path: resolved.path })));
    try {
      rmSync(target);
      execFileSync('mkfifo', [target]);
      await temporary.handle.writeFile('new\n');
      await expect(temporary.commit()).rejects.toMatchObject({ message: 'became a FIFO while the output was written; left as it was' });
    } finally {
      await temporary.discard();
    }
    expect(lstatSync(target).isFIFO()).toBe(true);
    expect(readdirSync(directory)).toEqual(['Corefile']);
  });

  it('rejects with the reason only: no path, and never the temporary file', async () => {
    const failure = writeOutputFile(join(directory, 'missing', 'Corefile'), 'new\n');
    await expect(failure).rejects.toBeInstanceOf(OutputFileError);
    await expect(failure).rejects.toMatchObject({ message: 'ENOENT: no such file or directory', code: 'ENOENT' });
  });
});

/** The built module, for child processes (node runs JavaScript only); `npm test` builds first. */
const builtModule = join(import.meta.dirname, '../../dist/cli/output-file.js');

/**
 * Starts a Node process that creates the temporary file for `target` (the first step of writing
 * it) and then waits; resolves with the process and the temporary file's path.
 */
function holdTemporaryFile(target: string, after = 'setInterval(() => {}, 1000);', options: { uid?: number; gid?: number } = {}, module = builtModule) {
  const script = `
    import { createTemporaryFile, resolveOutputTarget } from ${JSON.stringify(module)};
    const target = await resolveOutputTarget(process.argv[1]);
    const temporary = await createTemporaryFile(target);
    process.stdout.write(temporary.path + '\\n');
    ${after}
  `;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, target], { stdio: ['ignore', 'pipe', 'pipe'], ...options });
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const temporaryPath = new Promise<string>((resolvePath, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.endsWith('\n')) resolvePath(stdout.trim());
    });
    child.on('close', () => reject(new Error(`exited before creating the temporary file: ${stderr}`)));
  });
  const finished = new Promise<{ status: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolveExit) =>
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      resolveExit({ status, signal, stderr });
    }),
  );
  return { child, temporaryPath, finished };
}

describe.skipIf(!existsSync(builtModule) && process.env['CI'] === undefined)('the temporary file (built module, child processes)', () => {
  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)('is removed on %s, and the process still dies of the signal', async (signal) => {
    const target = join(directory, 'Corefile');
    writeFileSync(target, 'old\n');
    const { child, temporaryPath, finished } = holdTemporaryFile(target);
    const temporary = await temporaryPath;
    expect(existsSync(temporary)).toBe(true);
    child.kill(signal);
    expect(await finished).toMatchObject({ status: null, signal });
    expect(readdirSync(directory)).toEqual(['Corefile']);
    expect(readFileSync(target, 'utf8')).toBe('old\n');
  });

  it('is removed when the process exits early (process.exit)', async () => {
    const target = join(directory, 'Corefile');
    const { temporaryPath, finished } = holdTemporaryFile(target, 'process.exit(3);');
    expect(basename(await temporaryPath)).toMatch(TEMPORARY_NAME);
    expect(await finished).toMatchObject({ status: 3 });
    expect(readdirSync(directory)).toEqual([]);
  });

  it('is left behind by SIGKILL under the documented name .NAME.PID.RANDOM.tmp, the target untouched', async () => {
    const target = join(directory, 'Corefile');
    writeFileSync(target, 'old\n');
    const { child, temporaryPath, finished } = holdTemporaryFile(target);
    const temporary = await temporaryPath;
    child.kill('SIGKILL');
    expect(await finished).toMatchObject({ signal: 'SIGKILL' });
    const leftOver = readdirSync(directory).filter((name) => name !== 'Corefile');
    expect(leftOver).toEqual([basename(temporary)]);
    expect(leftOver[0]?.match(TEMPORARY_NAME)?.slice(1)).toEqual(['Corefile', String(child.pid), expect.any(String)]);
    expect(readFileSync(target, 'utf8')).toBe('old\n');
  });

  it.skipIf(process.getuid?.() !== 0)(
    'is removed, and the file left as it was, when its owner cannot be kept (run as root, writer uid 12345)',
    async () => {
      const shared = join(directory, 'shared');
      mkdirSync(shared);
      chmodSync(directory, 0o755);
      chmodSync(shared, 0o777);
      const target = join(shared, 'Corefile');
      writeFileSync(target, 'old\n');
      // The checkout may sit in a folder only root can read (a fresh clone under a private temporary
      // folder): the writer gets its own readable copy of the built code.
      const readable = join(directory, 'package');
      cpSync(join(builtModule, '../..'), join(readable, 'dist'), { recursive: true });
      writeFileSync(join(readable, 'package.json'), '{"type": "module"}\n');
      const module = join(readable, 'dist', 'cli', 'output-file.js');
      const { temporaryPath, finished } = holdTemporaryFile(target, '', { uid: 12345, gid: 12345 }, module);
      await expect(temporaryPath).rejects.toThrow(/exited before creating/);
      const { status, stderr } = await finished;
      expect(status).not.toBe(0);
      expect(stderr).toContain('OutputFileError: cannot keep its owner 0:0 (EPERM); left as it was');
      expect(readdirSync(shared)).toEqual(['Corefile']);
      expect(readFileSync(target, 'utf8')).toBe('old\n');
    },
  );
});
