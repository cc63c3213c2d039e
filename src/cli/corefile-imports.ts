import { findImports, importPath, MAX_COMPOSED_LENGTH, MAX_IMPORTED_FILES } from '../corefile/compose-imports.js';
import { holdsPlaceholder } from '../lint/placeholders.js';
import type { ImportedFile, ImportReader } from '../lint/import-reader.js';
import { goMatch } from '../platform/compose.js';
import { firstInvalidUtf8, invalidUtf8In } from '../util/utf8.js';
import type { CliIo } from './io.js';
import { InputTooLargeError } from './io.js';

/**
 * `lint FILE`: the files a Corefile imports, read next to FILE (read-only) and handed to the linter
 * as an {@link ImportReader}. An import's pattern is resolved as CoreDNS resolves it, relative to the
 * directory of the file it is written in, and globbed as Go's `filepath.Glob` globs the last path
 * element (in lexical order). Only what lies in FILE's directory and below is read: an absolute
 * pattern names a file of the machine CoreDNS runs on, `..` leaves FILE's directory, a wildcard
 * in a directory name is not followed; each is left to the linter as `import-not-checked` with the
 * reason. Regular files only (a FIFO or a device is not read), within the composer's bounds
 * ({@link MAX_IMPORTED_FILES} files, {@link MAX_COMPOSED_LENGTH} bytes in all).
 */

type Read = { readonly files: readonly ImportedFile[] } | { readonly unresolved: string };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Reads the imports of `corefile` (written in `file`) and theirs; undefined when `io` cannot list directories. */
export async function readImportsNextTo(corefile: string, file: string, io: CliIo): Promise<ImportReader | undefined> {
  const listDirectory = io.listDirectory;
  if (listDirectory === undefined) return undefined;
  const slash = file.lastIndexOf('/');
  const base = slash < 0 ? '.' : file.slice(0, slash) || '/';
  const inBase = (path: string) => (path === '.' ? base : base === '.' ? path : `${base}/${path}`);
  const reads = new Map<string, Read>();
  const listings = new Map<string, Promise<readonly { readonly name: string; readonly kind: string }[] | undefined>>();
  const texts = new Map<string, string>();
  let bytes = 0;
  let files = 0;
  const pending: { readonly text: string; readonly key: string | undefined }[] = [{ text: corefile, key: undefined }];

  const read = async (path: string): Promise<Read> => {
    if (path.startsWith('/')) return { unresolved: `an absolute path names a file of the machine CoreDNS runs on; lint reads imports only next to ${file}` };
    if (path === '..' || path.startsWith('../')) return { unresolved: `it lies outside the directory of ${file}, where lint reads imports` };
    const cut = path.lastIndexOf('/');
    const directory = cut < 0 ? '.' : path.slice(0, cut);
    const last = path.slice(cut + 1);
    if (/[*?[\\]/.test(directory)) return { unresolved: 'a wildcard in a directory name is not followed' };
    let listing = listings.get(directory);
    if (listing === undefined) {
      listing = listDirectory(inBase(directory)).catch((error: unknown) => {
        const code = typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : '';
        if (code === 'ENOENT' || code === 'ENOTDIR') return [];
        return undefined;
      });
      listings.set(directory, listing);
    }
    const entries = await listing;
    if (entries === undefined) return { unresolved: `the directory ${inBase(directory)} could not be listed` };
    const matched = entries.filter((entry) => goMatch(last, entry.name)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const found: ImportedFile[] = [];
    for (const entry of matched) {
      const name = directory === '.' ? entry.name : `${directory}/${entry.name}`;
      if (entry.kind === 'directory') {
        found.push({ name, directory: true });
        continue;
      }
      if (entry.kind !== 'file') return { unresolved: `${name} is not a regular file` };
      let text = texts.get(name);
      if (text === undefined) {
        if (files >= MAX_IMPORTED_FILES) return { unresolved: `more than ${MAX_IMPORTED_FILES.toLocaleString('en')} imported files, more than lint reads` };
        let read: Uint8Array;
        try {
          read = await io.readFile(inBase(name), MAX_COMPOSED_LENGTH - bytes);
        } catch (error) {
          return { unresolved: error instanceof InputTooLargeError ? `the imported files hold more than ${MAX_COMPOSED_LENGTH / 1024 / 1024} MiB, more than lint reads` : `${name} could not be read as UTF-8 text` };
        }
        try {
          text = utf8.decode(read);
        } catch {
          const invalid = firstInvalidUtf8(read);
          return { unresolved: invalid === undefined ? `${name} could not be read as UTF-8 text` : invalidUtf8In(name, invalid) };
        }
        files += 1;
        bytes += text.length;
        texts.set(name, text);
        pending.push({ text, key: name });
      }
      found.push({ name, text });
    }
    return { files: found };
  };

  for (let next = pending.shift(); next !== undefined; next = pending.shift()) {
    for (const { pattern } of findImports(next.text).values()) {
      if (holdsPlaceholder(pattern)) continue;
      const path = importPath(pattern, next.key);
      if (!reads.has(path)) reads.set(path, await read(path));
    }
  }
  return (path) => reads.get(path) ?? { unresolved: 'not read (past what lint reads of the imports)' };
}

/** The reader for a Corefile that has no directory lint could read imports from (standard input, a ConfigMap's entry). */
export function importsNotReadable(reason: string): ImportReader {
  return () => ({ unresolved: reason });
}
