/**
 * How `--out FILE` writes the output (docs/cli.md, "--out FILE"). Loaded only when --out is used.
 *
 * - A regular file, or the regular file a chain of symbolic links leads to, is replaced all at
 *   once: a temporary file `.NAME.PID.RANDOM.tmp` next to it is written, flushed to disk, given
 *   the old file's mode and owner, and renamed over it. The links stay links.
 * - A FIFO or a character device (a terminal, `/dev/null`) is written to directly: renaming over
 *   it would replace the device with a file.
 * - A link inside `/proc` (where `/dev/stdout`, `/dev/stderr` and `/dev/fd/N` lead) names an open
 *   descriptor, not a path: it is written through, appending when it is a regular file (as the
 *   shell's `>` or `>>` left it).
 * - Anything else (a directory, a socket, a block device) is refused.
 *
 * The temporary file is removed on every way out but SIGKILL (and a machine crash): errors,
 * SIGINT, SIGTERM, SIGHUP and `process.exit`.
 */
import { closeSync, constants, openSync, unlinkSync, writeSync } from 'node:fs';
import type { Stats } from 'node:fs';
import { lstat, open, readlink, realpath, rename, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { OutputFileError } from './io.js';
import type { OutputFileStream } from './io.js';

/** Where the output goes, once symbolic links are followed. */
export type OutputTarget =
  /** A regular file (`existing`) or a name that does not exist yet: replaced through a temporary file. */
  | { readonly kind: 'replace'; readonly path: string; readonly existing?: ExistingFile }
  /** A FIFO, a character device or an open descriptor: opened and written, never renamed over. */
  | { readonly kind: 'write-through'; readonly path: string; readonly append: boolean };

/** What the replacement keeps of the file it replaces. */
export interface ExistingFile {
  readonly mode: number;
  readonly uid: number;
  readonly gid: number;
}

/** As many links as Linux follows before it gives up with ELOOP. */
const MAX_SYMBOLIC_LINKS = 40;

/** Writes `content` to `path` as described above; rejects with an {@link OutputFileError}. */
export async function writeOutputFile(path: string, content: string): Promise<void> {
  try {
    const target = await resolveOutputTarget(path);
    if (target.kind === 'write-through') await writeThrough(target.path, target.append, content);
    else await replaceFile(target, content);
  } catch (error) {
    throw asOutputFileError(error);
  }
}

/**
 * The output of `--batch --out FILE`, written as it comes: to a temporary file renamed over FILE by
 * `commit` (FILE is replaced all at once, as with {@link writeOutputFile}), or, for a FIFO or a
 * character device, straight to it, opened at the first write. Writes are synchronous, so that
 * memory holds one chunk at a time whatever the batch's size.
 */
export async function openOutputStream(path: string): Promise<OutputFileStream> {
  let target: OutputTarget;
  try {
    target = await resolveOutputTarget(path);
  } catch (error) {
    throw asOutputFileError(error);
  }
  if (target.kind === 'write-through') return writeThroughStream(target.path, target.append);
  let temporary: TemporaryFile;
  try {
    temporary = await createTemporaryFile(target);
  } catch (error) {
    throw asOutputFileError(error);
  }
  const { fd } = temporary.handle;
  return {
    write: (chunk) => {
      try {
        writeFully(fd, chunk);
      } catch (error) {
        throw asOutputFileError(error);
      }
    },
    commit: async () => {
      try {
        await temporary.commit();
        await syncDirectory(dirname(target.path));
      } catch (error) {
        throw asOutputFileError(error);
      } finally {
        await temporary.discard();
      }
    },
    discard: () => temporary.discard(),
  };
}

function writeThroughStream(path: string, append: boolean): OutputFileStream {
  let fd: number | undefined;
  const close = (): void => {
    if (fd !== undefined) closeSync(fd);
    fd = undefined;
  };
  return {
    write: (chunk) => {
      try {
        fd ??= openSync(path, constants.O_WRONLY | constants.O_NOCTTY | (append ? constants.O_APPEND : 0));
        writeFully(fd, chunk);
      } catch (error) {
        throw asOutputFileError(error);
      }
    },
    commit: async () => {
      try {
        close();
      } catch (error) {
        throw asOutputFileError(error);
      }
    },
    discard: async () => {
      try {
        close();
      } catch {
        // Closing a device or FIFO that failed: nothing left to undo.
      }
    },
  };
}

/** `writeSync` until every byte of `chunk` is written (a pipe may take part of it). */
function writeFully(fd: number, chunk: string): void {
  const bytes = Buffer.from(chunk, 'utf8');
  let offset = 0;
  while (offset < bytes.length) offset += writeSync(fd, bytes, offset, bytes.length - offset);
}

/** Follows symbolic links from `path` to what the output will be written to. */
export async function resolveOutputTarget(path: string): Promise<OutputTarget> {
  // resolve() would drop the slash and write a file where the user named a directory.
  if (path.endsWith('/')) throw new OutputFileError(`a directory name (it ends in '/'); ${WHAT_OUT_WRITES}`);
  let current = resolve(path);
  for (let links = 0; links <= MAX_SYMBOLIC_LINKS; links += 1) {
    let stats: Stats;
    try {
      stats = await lstat(current);
    } catch (error) {
      // A new file (or a dangling link's target); a missing directory fails when the temporary file is created.
      if (isSystemError(error) && error.code === 'ENOENT') return { kind: 'replace', path: current };
      throw error;
    }
    if (stats.isSymbolicLink()) {
      const directory = await realpath(dirname(current));
      if (directory === '/proc' || directory.startsWith('/proc/')) return descriptorTarget(current);
      current = resolve(directory, await readlink(current));
      continue;
    }
    if (stats.isFile()) return { kind: 'replace', path: current, existing: { mode: stats.mode & 0o7777, uid: stats.uid, gid: stats.gid } };
    if (stats.isFIFO() || stats.isCharacterDevice()) return { kind: 'write-through', path: current, append: false };
    throw refusal(stats);
  }
  throw new OutputFileError('too many levels of symbolic links', { code: 'ELOOP' });
}

/** A link in /proc: the kernel opens what the descriptor holds (its text need not be a path). */
async function descriptorTarget(path: string): Promise<OutputTarget> {
  const stats = await stat(path);
  if (stats.isFile()) return { kind: 'write-through', path, append: true };
  if (stats.isFIFO() || stats.isCharacterDevice()) return { kind: 'write-through', path, append: false };
  throw refusal(stats);
}

const WHAT_OUT_WRITES = '--out writes regular files, FIFOs and character devices only';

function refusal(stats: Stats): OutputFileError {
  return new OutputFileError(`${describeKind(stats)}; ${WHAT_OUT_WRITES}`);
}

function describeKind(stats: Stats): string {
  if (stats.isFile()) return 'a regular file';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** Opens without creating or truncating: a FIFO waits for its reader, as with a shell redirect. */
async function writeThrough(path: string, append: boolean, content: string): Promise<void> {
  const handle = await open(path, constants.O_WRONLY | constants.O_NOCTTY | (append ? constants.O_APPEND : 0));
  try {
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
}

async function replaceFile(target: { path: string; existing?: ExistingFile }, content: string): Promise<void> {
  const temporary = await createTemporaryFile(target);
  try {
    await temporary.handle.writeFile(content);
    await temporary.commit();
  } finally {
    await temporary.discard();
  }
  await syncDirectory(dirname(target.path));
}

/** A temporary file next to the target, removed on every way out until it is renamed over the target. */
export interface TemporaryFile {
  readonly path: string;
  readonly handle: FileHandle;
  /**
   * Flushes the file to disk (`fsync`), closes it and renames it over the target — unless the
   * target has meanwhile become something else than a regular file, which is refused.
   */
  commit(): Promise<void>;
  /** Closes the file and removes it unless it was renamed; never rejects. */
  discard(): Promise<void>;
}

/**
 * Creates `.NAME.PID.RANDOM.tmp` in the target's directory (NAME: the target's first 64
 * characters), owned like the file it replaces and with its mode, or with the usual mode of a new
 * file (0666 less the umask).
 */
export async function createTemporaryFile(target: { path: string; existing?: ExistingFile }): Promise<TemporaryFile> {
  const path = temporaryPathFor(target.path);
  // Guarded before it exists: a signal that lands while it is being created still removes it.
  guardTemporaryFile(path);
  let handle: FileHandle;
  try {
    // An existing file's content is never readable by others before its mode is copied.
    handle = await open(path, 'wx', target.existing === undefined ? 0o666 : 0o600);
  } catch (error) {
    releaseTemporaryFile(path);
    throw error;
  }
  let removed = false;
  const temporary: TemporaryFile = {
    path,
    handle,
    commit: async () => {
      await handle.sync();
      await handle.close();
      await ensureStillReplaceable(target.path);
      await rename(path, target.path);
      removed = true;
      releaseTemporaryFile(path);
    },
    discard: async () => {
      await handle.close().catch(() => undefined);
      if (removed) return;
      removed = true;
      removeQuietly(path);
      releaseTemporaryFile(path);
    },
  };
  if (target.existing !== undefined) {
    try {
      await keepModeAndOwner(handle, target.existing);
    } catch (error) {
      await temporary.discard();
      throw error;
    }
  }
  return temporary;
}

/** Checked again just before the rename: what is not a regular file is never renamed over. */
async function ensureStillReplaceable(target: string): Promise<void> {
  let stats: Stats;
  try {
    stats = await lstat(target);
  } catch (error) {
    if (isSystemError(error) && error.code === 'ENOENT') return;
    throw error;
  }
  if (!stats.isFile()) throw new OutputFileError(`became ${describeKind(stats)} while the output was written; left as it was`);
}

async function keepModeAndOwner(handle: FileHandle, existing: ExistingFile): Promise<void> {
  const created = await handle.stat();
  if (created.uid !== existing.uid || created.gid !== existing.gid) {
    try {
      await handle.chown(existing.uid, existing.gid);
    } catch (error) {
      const reason = isSystemError(error) ? ` (${error.code})` : '';
      throw new OutputFileError(
        `cannot keep its owner ${existing.uid}:${existing.gid}${reason}; left as it was`,
        { code: isSystemError(error) ? error.code : undefined, cause: error },
      );
    }
  }
  // After chown, which may clear the set-user-ID and set-group-ID bits.
  await handle.chmod(existing.mode);
}

function temporaryPathFor(target: string): string {
  const name = Array.from(basename(target)).slice(0, 64).join('');
  const random = Math.random().toString(36).slice(2, 10).padEnd(8, '0');
  return join(dirname(target), `.${name}.${process.pid}.${random}.tmp`);
}

/** Makes the rename itself durable; some file systems cannot sync a directory, which is fine. */
async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await open(directory, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // The file's content is on disk already; only the rename's durability is best effort.
  }
}

// Temporary files that exist right now, removed synchronously when the process ends early.
const guardedTemporaryFiles = new Set<string>();
const CLEANUP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

function guardTemporaryFile(path: string): void {
  if (guardedTemporaryFiles.size === 0) {
    for (const signal of CLEANUP_SIGNALS) process.on(signal, removeAndDie);
    process.on('exit', removeGuardedTemporaryFiles);
  }
  guardedTemporaryFiles.add(path);
}

function releaseTemporaryFile(path: string): void {
  if (!guardedTemporaryFiles.delete(path) || guardedTemporaryFiles.size > 0) return;
  for (const signal of CLEANUP_SIGNALS) process.off(signal, removeAndDie);
  process.off('exit', removeGuardedTemporaryFiles);
}

function removeGuardedTemporaryFiles(): void {
  for (const path of guardedTemporaryFiles) removeQuietly(path);
}

/** Removes the temporary files, then dies of the same signal, as the process would have without us. */
function removeAndDie(signal: NodeJS.Signals): void {
  removeGuardedTemporaryFiles();
  for (const path of [...guardedTemporaryFiles]) releaseTemporaryFile(path);
  process.kill(process.pid, signal);
}

function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch {
    // Already gone (or never created).
  }
}

function isSystemError(error: unknown): error is NodeJS.ErrnoException & { code: string } {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string';
}

/** Node's messages end in `, SYSCALL 'PATH'`, which names the temporary file: keep `CODE: reason`. */
function asOutputFileError(error: unknown): OutputFileError {
  if (error instanceof OutputFileError) return error;
  if (!isSystemError(error)) return new OutputFileError(error instanceof Error ? error.message : String(error), { cause: error });
  const syscall = error.syscall === undefined ? -1 : error.message.indexOf(`, ${error.syscall}`);
  return new OutputFileError(syscall === -1 ? error.message : error.message.slice(0, syscall), { code: error.code, cause: error });
}
