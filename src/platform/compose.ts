/**
 * A platform's base Corefile composed with a `coredns-custom` ConfigMap, as CoreDNS's `import`
 * composes them (docs/platforms.md#how-an-overlay-is-composed):
 *
 * - the ConfigMap is mounted as a directory ({@link ComposeOptions.customDirectory}), one file per
 *   data key; an `import PATTERN` whose directory is that one brings in the files whose names match
 *   the pattern's last element (Go's `filepath.Match`: `*`, `?`, `[…]`, `\` escapes), in lexical
 *   order, one after the other;
 * - a relative pattern is relative to the directory of the Corefile (`import custom/*.override`
 *   in `/etc/coredns/Corefile` reads `/etc/coredns/custom/`), and of the importing file for an
 *   import inside an imported file;
 * - a pattern with a wildcard that matches nothing imports nothing (CoreDNS only logs a warning); a
 *   pattern without one names a file that must exist;
 * - `import` is a directive only as the first word of a line (anywhere a directive or a server key
 *   may start); tokens of an imported file never continue the line before or after the import.
 *
 * The composition is text: each imported file's lines replace the import line, so that every line
 * of the result can be traced back to the base or to one key (and its line) of the ConfigMap, and
 * findings on the composed Corefile can be reported where the user wrote the text.
 *
 * Pure: no Node APIs.
 */
import { composeImports } from '../corefile/compose-imports.js';
import type { ImportResolution, LineOrigin } from '../corefile/compose-imports.js';
import type { SourcePosition } from '../util/source-position.js';
import { checkArgument, checkOptions } from '../errors/arguments.js';

export interface ComposeOptions {
  /** Directory of the base Corefile, against which its relative imports resolve. Default `/etc/coredns`. */
  readonly corefileDirectory?: string;
  /** Where the `coredns-custom` ConfigMap is mounted. Default `/etc/coredns/custom` (AKS and k3s). */
  readonly customDirectory?: string;
}

export type { LineOrigin } from '../corefile/compose-imports.js';

/** One `import` of the custom directory, as CoreDNS expanded it. */
export interface OverlayImport {
  readonly pattern: string;
  /** Where the import is written (the base, or a key that imports further keys). */
  readonly key: string | undefined;
  readonly position: SourcePosition;
  /** True for an import at the top level (between server blocks), false inside a block. */
  readonly topLevel: boolean;
  /** The data keys it brought in, in the order CoreDNS reads them. */
  readonly keys: readonly string[];
}

/** Why the composition is not what CoreDNS would start with (CoreDNS stops at these). */
export interface CompositionProblem {
  readonly key: string | undefined;
  readonly position: SourcePosition;
  readonly message: string;
}

export interface Composition {
  /** The effective Corefile: what CoreDNS reads after its imports. */
  readonly text: string;
  /** The origin of each line of `text` (index 0 is line 1). */
  readonly lines: readonly LineOrigin[];
  readonly imports: readonly OverlayImport[];
  /** Data keys no import brought in (they are files in the custom directory only). */
  readonly unimported: readonly string[];
  /** Imports CoreDNS refuses: a named file that is not there, a cycle, imports nested too deep. */
  readonly problems: readonly CompositionProblem[];
  /** Where a position of `text` was written. */
  locate(position: SourcePosition): { readonly key: string | undefined; readonly position: SourcePosition };
}

/** The data of a `coredns-custom` ConfigMap: an object of strings (a Map is refused, not read as empty). */
export function checkOverlayData(fn: string, data: unknown): void {
  checkArgument(fn, 'data', data, 'object');
  for (const [key, value] of Object.entries(data as object)) checkArgument(fn, `data[${JSON.stringify(key)}]`, value, 'string');
}


/**
 * Composes `base` with the data keys of a `coredns-custom` ConfigMap. Never throws on the overlay's
 * content: what CoreDNS would refuse is in `problems`, and a composed text that does not parse is
 * for the caller's parser to report (through {@link Composition.locate}).
 */
export function composeOverlay(base: string, data: Readonly<Record<string, string>>, options: ComposeOptions = {}): Composition {
  checkArgument('composeOverlay', 'base', base, 'string');
  checkOverlayData('composeOverlay', data);
  checkOptions('composeOverlay', 'options', options, { corefileDirectory: 'string?', customDirectory: 'string?' });
  const corefileDirectory = trimSlash(options.corefileDirectory ?? '/etc/coredns');
  const customDirectory = trimSlash(options.customDirectory ?? '/etc/coredns/custom');
  const keys = Object.keys(data).sort(byteOrder);
  const used = new Set<string>();
  const composition = composeImports(base, (site): ImportResolution => {
    if (site.snippet) return { kind: 'keep' };
    const resolved = resolveInto(site.pattern, site.key === undefined ? corefileDirectory : customDirectory, customDirectory);
    if (resolved === undefined) return { kind: 'keep' };
    const matched = keys.filter((name) => goMatch(resolved, name));
    for (const name of matched) used.add(name);
    const files = matched.map((name) => ({ key: name, text: data[name] as string }));
    return matched.length === 0 && !hasWildcard(resolved)
      ? { kind: 'splice', files, problem: `file to import not found: ${site.pattern} (no data key '${resolved}' in the coredns-custom ConfigMap)` }
      : { kind: 'splice', files };
  });
  const imports: OverlayImport[] = [];
  for (const entry of composition.imports) {
    if (entry.resolution.kind !== 'splice') continue;
    imports.push({ pattern: entry.pattern, key: entry.key, position: entry.position, topLevel: entry.topLevel, keys: entry.resolution.files.map((file) => file.key) });
  }
  return {
    text: composition.text,
    lines: composition.lines,
    imports,
    unimported: keys.filter((name) => !used.has(name)),
    problems: composition.problems.map(({ key, position, message }) => ({ key, position, message })),
    locate: composition.locate,
  };
}

/** The file-name pattern inside the custom directory that `pattern` (relative to `directory`) reads; undefined when it reads elsewhere. */
function resolveInto(pattern: string, directory: string, customDirectory: string): string | undefined {
  const absolute = pattern.startsWith('/') ? pattern : `${directory}/${pattern}`;
  const normal = normalize(absolute);
  const slash = normal.lastIndexOf('/');
  if (slash < 0 || normal.slice(0, slash) !== customDirectory) return undefined;
  return normal.slice(slash + 1);
}

function normalize(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

function trimSlash(path: string): string {
  return normalize(path);
}

function hasWildcard(pattern: string): boolean {
  return /[*?[\\]/.test(pattern);
}

/** Go's sort.Strings order for ASCII names (ConfigMap keys are [-._a-zA-Z0-9]). */
function byteOrder(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Go's `path/filepath.Match` for one path element: `*` any run of characters, `?` one character,
 * `[…]` a class (`^` negates, ranges `a-z`), `\` escapes the next character. A malformed pattern
 * matches nothing (Go returns ErrBadPattern, and CoreDNS's import fails).
 */
export function goMatch(pattern: string, name: string): boolean {
  const memo = new Map<string, boolean>();
  const match = (p: number, n: number): boolean => {
    const id = `${p},${n}`;
    const known = memo.get(id);
    if (known !== undefined) return known;
    let result: boolean;
    if (p === pattern.length) result = n === name.length;
    else {
      const c = pattern[p] as string;
      if (c === '*') result = match(p + 1, n) || (n < name.length && name[n] !== '/' && match(p, n + 1));
      else if (n === name.length) result = false;
      else if (c === '?') result = name[n] !== '/' && match(p + 1, n + 1);
      else if (c === '[') {
        const cls = readClass(pattern, p);
        result = cls !== undefined && cls.test(name[n] as string) && match(cls.end, n + 1);
      } else if (c === '\\') result = p + 1 < pattern.length && pattern[p + 1] === name[n] && match(p + 2, n + 1);
      else result = c === name[n] && match(p + 1, n + 1);
    }
    memo.set(id, result);
    return result;
  };
  return match(0, 0);
}

function readClass(pattern: string, start: number): { test: (char: string) => boolean; end: number } | undefined {
  let index = start + 1;
  const negated = pattern[index] === '^';
  if (negated) index += 1;
  const ranges: [string, string][] = [];
  // Go reads a ']' right after '[' (or '[^') as a malformed pattern, not as a character.
  if (pattern[index] === ']') return undefined;
  while (index < pattern.length && pattern[index] !== ']') {
    let low = pattern[index] as string;
    if (low === '\\') low = pattern[(index += 1)] ?? '';
    index += 1;
    let high = low;
    if (pattern[index] === '-' && pattern[index + 1] !== undefined && pattern[index + 1] !== ']') {
      high = pattern[index + 1] as string;
      if (high === '\\') high = pattern[(index += 1) + 1] ?? '';
      index += 2;
    }
    if (low === '' || high < low) return undefined;
    ranges.push([low, high]);
  }
  if (pattern[index] !== ']') return undefined;
  return { test: (char) => ranges.some(([low, high]) => char >= low && char <= high) !== negated, end: index + 1 };
}
