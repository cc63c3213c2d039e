import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** The repository root. */
export const ROOT = join(import.meta.dirname, '../..');

/** Folders that hold build output, installed packages or scratch files, never sources. */
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'generated', '.examples', '.artifacts', '.git']);

/** Extensions of the text files the repository's own sources and documents use. */
const TEXT_EXTENSIONS = ['.ts', '.mts', '.js', '.mjs', '.cjs', '.json', '.md', '.yaml', '.yml', '.sh', '.html', '.css', '.snap'];

/** A text file of the repository: its path relative to the root (with `/`) and its content. */
export interface RepositoryFile {
  readonly path: string;
  readonly text: string;
}

function walk(folder: string, found: string[]): void {
  for (const entry of readdirSync(folder)) {
    const path = join(folder, entry);
    if (statSync(path).isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry)) walk(path, found);
    } else if (TEXT_EXTENSIONS.some((extension) => entry.endsWith(extension))) {
      found.push(path);
    }
  }
}

/**
 * The repository's own text files under `places` (folders or single files, relative to the root),
 * sorted by path. Build output, installed packages and generated code are left out.
 */
export function repositoryFiles(places: readonly string[]): RepositoryFile[] {
  const found: string[] = [];
  for (const place of places) {
    const path = join(ROOT, place);
    if (statSync(path).isDirectory()) walk(path, found);
    else found.push(path);
  }
  return found
    .map((path) => ({ path: relative(ROOT, path).split(sep).join('/'), text: readFileSync(path, 'utf8') }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Every README.md under `golden/` (the folder's own and those of the data sets it holds). */
export function goldenReadmes(): string[] {
  const found: string[] = [];
  const visit = (folder: string): void => {
    for (const entry of readdirSync(join(ROOT, folder))) {
      const path = `${folder}/${entry}`;
      if (statSync(join(ROOT, path)).isDirectory()) visit(path);
      else if (entry === 'README.md') found.push(path);
    }
  };
  visit('golden');
  return found.sort();
}
