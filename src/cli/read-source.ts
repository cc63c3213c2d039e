import type { CliIo } from './io.js';
import { UsageError } from './usage-error.js';

/** A named input text: `name` is what error messages call it (`-` reads standard input). */
export interface Source {
  readonly name: string;
  readonly text: string;
}

const STDIN = '-';
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Reads FILE (or standard input for `-`/no file) as UTF-8; unreadable input is a usage error. */
export async function readSource(path: string | undefined, io: CliIo): Promise<Source> {
  const fromStdin = path === undefined || path === STDIN;
  const name = fromStdin ? '<stdin>' : path;
  let bytes: Uint8Array;
  try {
    bytes = fromStdin ? await io.readStdin() : await io.readFile(path);
  } catch (error) {
    throw new UsageError(`${name}: cannot read: ${describeSystemError(error)}`);
  }
  try {
    return { name, text: utf8.decode(bytes) };
  } catch {
    throw new UsageError(`${name}: not UTF-8 text`);
  }
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
