import { InputTooLargeError, OutputFileError } from '../../src/cli/io.js';
import type { CliIo, DirectoryEntry } from '../../src/cli/io.js';

/** An in-memory CliIo: files from a map, stdin from a string, captured stdout and stderr. */
export interface MemoryIo extends CliIo {
  readonly out: () => string;
  readonly err: () => string;
  /** Files written with writeOutputFile. */
  readonly written: Map<string, string>;
}

export function memoryIo(
  options: {
    stdin?: string;
    files?: Record<string, string | Uint8Array>;
    readFile?: (path: string) => Uint8Array;
    /** Lists a directory (with `readFile`: the real folders the files are read from). */
    listDirectory?: (path: string) => readonly DirectoryEntry[];
  } = {},
): MemoryIo {
  let out = '';
  let err = '';
  const written = new Map<string, string>();
  const encoder = new TextEncoder();
  const asBytes = (content: string | Uint8Array) => (typeof content === 'string' ? encoder.encode(content) : content);
  return {
    stdout: { write: (chunk) => void (out += chunk) },
    stderr: { write: (chunk) => void (err += chunk) },
    readStdin: async (maxBytes) => bounded(asBytes(options.stdin ?? ''), maxBytes),
    readFile: async (path, maxBytes) => {
      if (options.readFile) return bounded(options.readFile(path), maxBytes);
      const content = options.files?.[path];
      if (content === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
      return bounded(asBytes(content), maxBytes);
    },
    // Directories are the folders of the files' paths (`dir/` keys are empty directories).
    listDirectory: async (path) => {
      if (options.listDirectory) return options.listDirectory(path);
      const prefix = path === '.' || path === '' ? '' : `${path.replace(/\/$/, '')}/`;
      const names = Object.keys(options.files ?? {}).filter((name) => name.startsWith(prefix) && name.length > prefix.length);
      if (names.length === 0 && !Object.keys(options.files ?? {}).some((name) => name === prefix)) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
      const entries = new Map<string, 'file' | 'directory'>();
      for (const name of names) {
        const rest = name.slice(prefix.length);
        const slash = rest.indexOf('/');
        if (slash < 0) entries.set(rest, 'file');
        else entries.set(rest.slice(0, slash), 'directory');
      }
      return [...entries].map(([name, kind]) => ({ name, kind }));
    },
    // Files stream in chunks, as the real I/O reads them for --batch.
    fileChunks: async function* (path) {
      const content = options.readFile ? options.readFile(path) : options.files?.[path];
      if (content === undefined) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
      const bytes = asBytes(content);
      for (let start = 0; start < bytes.length; start += 65536) yield bytes.subarray(start, start + 65536);
    },
    writeOutputFile: async (path, content) => {
      if (path.startsWith('/unwritable/')) throw new OutputFileError('EACCES: permission denied', { code: 'EACCES' });
      written.set(path, content);
    },
    openOutputStream: async (path) => {
      if (path.startsWith('/unwritable/')) throw new OutputFileError('EACCES: permission denied', { code: 'EACCES' });
      let content = '';
      return {
        write: (chunk) => void (content += chunk),
        commit: async () => void written.set(path, content),
        discard: async () => undefined,
      };
    },
    written,
    out: () => out,
    err: () => err,
  };
}

function bounded(bytes: Uint8Array, maxBytes = Number.POSITIVE_INFINITY): Uint8Array {
  if (bytes.length > maxBytes) throw new InputTooLargeError(maxBytes);
  return bytes;
}
