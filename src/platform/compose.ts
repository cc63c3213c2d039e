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
import { lexCorefile } from '../corefile/lexer.js';
import type { WordLexeme } from '../corefile/lexer.js';
import type { SourcePosition } from '../util/source-position.js';
import { checkArgument, checkOptions } from '../errors/arguments.js';

export interface ComposeOptions {
  /** Directory of the base Corefile, against which its relative imports resolve. Default `/etc/coredns`. */
  readonly corefileDirectory?: string;
  /** Where the `coredns-custom` ConfigMap is mounted. Default `/etc/coredns/custom` (AKS and k3s). */
  readonly customDirectory?: string;
}

/** Where a line of the composed Corefile was written: in the base (`key` undefined) or in a data key. */
export interface LineOrigin {
  readonly key: string | undefined;
  /** 1-based line in the base or in the key's value. */
  readonly line: number;
  /** Added to a column of the composed line to get the column where it was written. */
  readonly columnOffset: number;
}

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

/** Imports inside imported files deeper than this are refused (CoreDNS stops at a cycle; this bounds the work). */
const MAX_IMPORT_DEPTH = 10;

interface Line {
  readonly text: string;
  readonly origin: LineOrigin;
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
  const imports: OverlayImport[] = [];
  const problems: CompositionProblem[] = [];
  const used = new Set<string>();

  const expand = (text: string, key: string | undefined, directory: string, chain: readonly (string | undefined)[]): Line[] => {
    const sourceLines = text.split('\n');
    if (sourceLines.length > 1 && sourceLines[sourceLines.length - 1] === '') sourceLines.pop();
    const importsByLine = findImports(text);
    const out: Line[] = [];
    let depth = 0;
    sourceLines.forEach((lineText, index) => {
      const lineNumber = index + 1;
      const found = importsByLine.get(lineNumber);
      const origin = { key, line: lineNumber, columnOffset: 0 };
      const resolved = found === undefined ? undefined : resolveInto(found.pattern, directory, customDirectory);
      if (found === undefined || resolved === undefined) {
        out.push({ text: lineText, origin });
      } else {
        const before = lineText.slice(0, found.column - 1);
        const after = lineText.slice(found.end - 1);
        if (before.trim() !== '') out.push({ text: before, origin });
        const position = { line: lineNumber, column: found.column };
        const matched = keys.filter((name) => goMatch(resolved, name));
        imports.push({ pattern: found.pattern, key, position, topLevel: depth === 0 && before.trim() === '', keys: matched });
        if (matched.length === 0 && !hasWildcard(resolved)) problems.push({ key, position, message: `file to import not found: ${found.pattern} (no data key '${resolved}' in the coredns-custom ConfigMap)` });
        for (const name of matched) {
          used.add(name);
          if (chain.includes(name) || chain.length > MAX_IMPORT_DEPTH) {
            problems.push({ key, position, message: chain.includes(name) ? `a cycle of imports: '${name}' imports itself through ${found.pattern}` : `imports nested more than ${MAX_IMPORT_DEPTH} files deep` });
            continue;
          }
          out.push(...expand(data[name] as string, name, customDirectory, [...chain, name]));
        }
        if (after.trim() !== '') out.push({ text: after, origin: { key, line: lineNumber, columnOffset: found.end - 1 } });
      }
      depth = Math.max(0, depth + braceDelta(lineText));
    });
    return out;
  };

  const lines = expand(base, undefined, corefileDirectory, [undefined]);
  const text = `${lines.map((line) => line.text).join('\n')}\n`;
  const origins = lines.map((line) => line.origin);
  return {
    text,
    lines: origins,
    imports,
    unimported: keys.filter((name) => !used.has(name)),
    problems,
    locate: (position) => {
      const origin = origins[position.line - 1];
      if (origin === undefined) return { key: undefined, position };
      return { key: origin.key, position: { line: origin.line, column: position.column + origin.columnOffset } };
    },
  };
}

/** The `import PATTERN` directives of a text: by line, the pattern and its columns (first word on its line, one argument). */
function findImports(text: string): Map<number, { readonly pattern: string; readonly column: number; readonly end: number }> {
  const found = new Map<number, { pattern: string; column: number; end: number }>();
  let words: readonly WordLexeme[];
  try {
    words = lexCorefile(text).lexemes.filter((lexeme): lexeme is WordLexeme => lexeme.kind === 'word');
  } catch {
    return found; // a text the lexer refuses is for the parser to report
  }
  words.forEach((word, index) => {
    const previous = words[index - 1];
    const argument = words[index + 1];
    if (word.text !== 'import' || word.quoted || (previous !== undefined && previous.endLine === word.line)) return;
    if (argument === undefined || argument.line !== word.line) return;
    const next = words[index + 2];
    if (next !== undefined && next.line === word.line && next.text !== '}') return; // more than one argument: the parser's error
    found.set(word.line, { pattern: argument.text, column: word.column, end: argument.column + rawLength(text, argument) });
  });
  return found;
}

/** Characters the word takes in the text (quotes included). */
function rawLength(text: string, word: WordLexeme): number {
  let end = word.offset;
  if (word.quoted) {
    end += 1;
    while (end < text.length && !(text[end] === '"' && text[end - 1] !== '\\')) end += 1;
    return end + 1 - word.offset;
  }
  while (end < text.length && !/\s/.test(text[end] as string) && text[end] !== '#') end += 1;
  return end - word.offset;
}

/** How many blocks a line opens minus how many it closes (for telling top-level imports apart). */
function braceDelta(line: string): number {
  let delta = 0;
  for (const word of line.replace(/#.*$/, '').split(/\s+/)) {
    if (word === '{') delta += 1;
    else if (word === '}') delta -= 1;
    else if (word.endsWith('{')) delta += 1;
  }
  return delta;
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
