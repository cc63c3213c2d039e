import { InputTooLargeError } from './io.js';
import type { CliIo } from './io.js';
import { UsageError } from './usage-error.js';

/** A named input text: `name` is what error messages call it (`-` reads standard input). */
export interface Source {
  readonly name: string;
  readonly text: string;
}

const STDIN = '-';

/**
 * The most each kind of input may hold. Kubernetes stores at most 1 MiB per ConfigMap; the limits
 * leave room for `kubectl get -o yaml` of a List and for generated Corefiles, and refuse a
 * runaway input before it costs seconds and memory.
 */
export const INPUT_LIMITS = {
  configMap: 32 * 1024 * 1024,
  /**
   * A Corefile (or a CoreDNS ConfigMap). Kubernetes stores no object above about 1.5 MiB, so real
   * ones are far smaller; 16 MiB leaves room for generated files and keeps the worst case (16 MiB
   * of one-word directives, 8 million of them) inside Node's default heap: `lint` 20 s, 2 GB.
   */
  corefile: 16 * 1024 * 1024,
  /** A `--batch` FILE when the I/O cannot stream it (the real one streams FILE, bounded per line). */
  batch: 1024 * 1024 * 1024,
  /**
   * One line of `--batch` input: a case holds one ConfigMap's data. FILE and standard input are
   * read as they come, so a stream has no total limit, only this one per line (and a line with no
   * line feed within twice this ends the reading).
   */
  batchLine: 32 * 1024 * 1024,
} as const;
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Reads FILE (or standard input for `-`/no file) as UTF-8, refusing more than `maxBytes`;
 * unreadable or oversized input is a usage error.
 */
export async function readSource(path: string | undefined, io: CliIo, maxBytes: number): Promise<Source> {
  const { name, bytes } = await readSourceBytes(path, io, maxBytes);
  try {
    return { name, text: utf8.decode(bytes) };
  } catch {
    throw await notUtf8(name, bytes);
  }
}

/**
 * `FILE:LINE:COL: not UTF-8 text: byte 0xff at byte offset N`: the usage error for bytes a fatal
 * UTF-8 decoder refused (the search loads only then: every command reads its input here).
 */
async function notUtf8(name: string, bytes: Uint8Array): Promise<UsageError> {
  const { firstInvalidUtf8, invalidUtf8In } = await import('../util/utf8.js');
  const found = firstInvalidUtf8(bytes);
  return new UsageError(found === undefined ? `${name}: not UTF-8 text` : invalidUtf8In(name, found));
}

/** True when `path` means standard input (`-` or no FILE). */
export function isStdin(path: string | undefined): path is undefined | typeof STDIN {
  return path === undefined || path === STDIN;
}

/** {@link readSource} without the decoding: the bytes of FILE or standard input, and its name. */
export async function readSourceBytes(path: string | undefined, io: CliIo, maxBytes: number): Promise<{ readonly name: string; readonly bytes: Uint8Array }> {
  const fromStdin = isStdin(path);
  const name = sourceName(path);
  try {
    return { name, bytes: fromStdin ? await io.readStdin(maxBytes) : await io.readFile(path, maxBytes) };
  } catch (error) {
    if (error instanceof InputTooLargeError) {
      throw new UsageError(`${name}: larger than ${Math.round(maxBytes / 1024 / 1024)} MiB, more than this command reads`);
    }
    throw cannotRead(name, error);
  }
}

/** What error messages call FILE: its path, or `<stdin>`. */
export function sourceName(path: string | undefined): string {
  return isStdin(path) ? '<stdin>' : path;
}

/** The usage error for input that could not be read, with the system's reason in plain words. */
export function cannotRead(name: string, error: unknown): UsageError {
  return new UsageError(`${name}: cannot read: ${describeSystemError(error)}`);
}

function describeSystemError(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = String((error as { code: unknown }).code);
    if (code === 'ENOENT') return 'no such file';
    if (code === 'EISDIR') return 'is a directory';
    if (code === 'EACCES') return 'permission denied';
    return code;
  }
  return error instanceof Error ? error.message : String(error);
}
