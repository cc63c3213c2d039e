import { lexCorefile } from './lexer.js';
import type { WordLexeme } from './lexer.js';
import type { SourcePosition } from '../util/source-position.js';

/**
 * A Corefile with its file imports spliced in as text, the way CoreDNS's `import` brings a file's
 * tokens in (coredns/caddy `caddyfile/parse.go`): each imported file's lines replace the import
 * line, so that every line of the result can be traced to the file (and line) it was written in,
 * and findings on the composed Corefile can be reported there. Which files an import brings in is
 * the caller's {@link ImportResolver}: the `coredns-custom` overlay of a platform
 * (src/platform/compose.ts), or the files next to a Corefile that `lint FILE` reads.
 *
 * - `import` is a directive only as the first word of a line (anywhere a directive or a server key
 *   may start); tokens of an imported file never continue the line before or after the import.
 * - An import naming a snippet defined before it (`(name) { … }` at the top level) is a snippet
 *   import, left for the snippet expansion (src/corefile/expand.ts); the resolver is told.
 * - Nested imports are resolved from the file they are written in; a file importing itself
 *   (through any chain) and imports nested more than {@link MAX_IMPORT_DEPTH} files deep are
 *   problems, and so is going past {@link MAX_IMPORTED_FILES} files or {@link MAX_COMPOSED_LENGTH}
 *   characters (the tool's bounds: CoreDNS has none before 1.13.0).
 *
 * Pure: no Node APIs.
 */

/** Imports inside imported files deeper than this are not followed (CoreDNS stops at a cycle; this bounds the work). */
const MAX_IMPORT_DEPTH = 10;
/** Files spliced into one composition, at most (as many as the snippet imports the expansion follows). */
export const MAX_IMPORTED_FILES = 10_000;
/** Characters of one composition, at most (the size of the largest Corefile the CLI reads). */
export const MAX_COMPOSED_LENGTH = 16 * 1024 * 1024;

/** One `import PATTERN` line as the composer meets it. */
export interface ImportSite {
  readonly pattern: string;
  /** The file it is written in: undefined for the base Corefile. */
  readonly key: string | undefined;
  readonly position: SourcePosition;
  /** True at the top level (between server blocks), false inside a block. */
  readonly topLevel: boolean;
  /** True inside a snippet definition (CoreDNS resolves it where the snippet is imported). */
  readonly inSnippet: boolean;
  /** True when a snippet of that name is defined before it: a snippet import, not a file import. */
  readonly snippet: boolean;
}

/** What an import brings in. */
export type ImportResolution =
  /** Leave the line as written (a snippet import, a file the caller cannot tell about); `reason` says why, for messages. */
  | { readonly kind: 'keep'; readonly reason?: string }
  /**
   * Splice these files in, in this order (none: the import brings nothing); `problem` when CoreDNS
   * stops at this import (a named file that is not there, a directory).
   */
  | { readonly kind: 'splice'; readonly files: readonly { readonly key: string; readonly text: string }[]; readonly problem?: string };

export type ImportResolver = (site: ImportSite) => ImportResolution;

/** Where a line of the composed text was written: in the base (`key` undefined) or in an imported file. */
export interface LineOrigin {
  readonly key: string | undefined;
  /** 1-based line in the base or in the file. */
  readonly line: number;
  /** Added to a column of the composed line to get the column where it was written. */
  readonly columnOffset: number;
}

/** One import as it was resolved. */
export interface ComposedImport extends ImportSite {
  readonly resolution: ImportResolution;
}

/** Why the composition is not what CoreDNS would start with, or where the composer stopped. */
export interface ImportProblem {
  /** `resolver`: CoreDNS stops at the import (the resolver's problem); `cycle`: a file imports itself; `depth`, `bound`: the tool's bounds. */
  readonly kind: 'resolver' | 'cycle' | 'depth' | 'bound';
  readonly key: string | undefined;
  readonly position: SourcePosition;
  readonly pattern: string;
  readonly message: string;
}

export interface ImportComposition {
  /** The effective Corefile: what CoreDNS reads after its imports. */
  readonly text: string;
  /** The origin of each line of `text` (index 0 is line 1). */
  readonly lines: readonly LineOrigin[];
  readonly imports: readonly ComposedImport[];
  readonly problems: readonly ImportProblem[];
  /** Where a position of `text` was written. */
  locate(position: SourcePosition): { readonly key: string | undefined; readonly position: SourcePosition };
}

interface Line {
  readonly text: string;
  readonly origin: LineOrigin;
}

/** Composes `base` with the files `resolve` brings in for its imports (and theirs). Never throws on content. */
export function composeImports(base: string, resolve: ImportResolver): ImportComposition {
  const imports: ComposedImport[] = [];
  const problems: ImportProblem[] = [];
  const snippets = new Set<string>();
  let files = 0;
  let length = 0;

  const expand = (text: string, key: string | undefined, chain: readonly (string | undefined)[]): Line[] => {
    const sourceLines = text.split('\n');
    if (sourceLines.length > 1 && sourceLines[sourceLines.length - 1] === '') sourceLines.pop();
    const importsByLine = findImports(text);
    const out: Line[] = [];
    let depth = 0;
    let inSnippet = false;
    sourceLines.forEach((lineText, index) => {
      const lineNumber = index + 1;
      const origin = { key, line: lineNumber, columnOffset: 0 };
      if (depth === 0) {
        const defined = /^\s*\(([^()\s]+)\)/.exec(lineText);
        inSnippet = defined !== null;
        if (defined !== null) snippets.add(defined[1] as string);
      }
      const found = importsByLine.get(lineNumber);
      if (found === undefined) {
        out.push({ text: lineText, origin });
        length += lineText.length + 1;
      } else {
        const before = lineText.slice(0, found.column - 1);
        const after = lineText.slice(found.end - 1);
        const position = { line: lineNumber, column: found.column };
        const site: ImportSite = { pattern: found.pattern, key, position, topLevel: depth === 0 && before.trim() === '', inSnippet: inSnippet && depth > 0, snippet: snippets.has(found.pattern) };
        const resolution = resolve(site);
        imports.push({ ...site, resolution });
        if (resolution.kind === 'keep') {
          out.push({ text: lineText, origin });
          length += lineText.length + 1;
        } else {
          if (before.trim() !== '') out.push({ text: before, origin });
          if (resolution.problem !== undefined) problems.push({ kind: 'resolver', key, position, pattern: found.pattern, message: resolution.problem });
          for (const file of resolution.files) {
            if (chain.includes(file.key)) {
              problems.push({ kind: 'cycle', key, position, pattern: found.pattern, message: `a cycle of imports: '${file.key}' imports itself through ${found.pattern}` });
              continue;
            }
            if (chain.length > MAX_IMPORT_DEPTH) {
              problems.push({ kind: 'depth', key, position, pattern: found.pattern, message: `imports nested more than ${MAX_IMPORT_DEPTH} files deep` });
              continue;
            }
            if (files >= MAX_IMPORTED_FILES || length + file.text.length > MAX_COMPOSED_LENGTH) {
              problems.push({ kind: 'bound', key, position, pattern: found.pattern, message: `more than ${MAX_IMPORTED_FILES.toLocaleString('en')} imported files or ${MAX_COMPOSED_LENGTH / 1024 / 1024} MiB of Corefile text, more than this tool follows` });
              break;
            }
            files += 1;
            for (const line of expand(file.text, file.key, [...chain, file.key])) out.push(line);
          }
          if (after.trim() !== '') out.push({ text: after, origin: { key, line: lineNumber, columnOffset: found.end - 1 } });
        }
      }
      depth = Math.max(0, depth + braceDelta(lineText));
    });
    return out;
  };

  const lines = expand(base, undefined, [undefined]);
  const text = `${lines.map((line) => line.text).join('\n')}\n`;
  const origins = lines.map((line) => line.origin);
  return {
    text,
    lines: origins,
    imports,
    problems,
    locate: (position) => {
      const origin = origins[position.line - 1];
      if (origin === undefined) return { key: undefined, position };
      return { key: origin.key, position: { line: origin.line, column: position.column + origin.columnOffset } };
    },
  };
}

/** Whether `text` has an `import` word at all (most Corefiles have none: nothing to compose). */
export function mayImport(text: string): boolean {
  return text.includes('import');
}

/** The `import PATTERN` directives of a text: by line, the pattern and its columns (first word on its line, one argument). */
export function findImports(text: string): Map<number, { readonly pattern: string; readonly column: number; readonly end: number }> {
  const found = new Map<number, { pattern: string; column: number; end: number }>();
  if (!mayImport(text)) return found;
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

/** `path` with `.` and `..` resolved and no repeated or trailing slash (`..` past the start kept, for a relative path). */
function normalizePath(path: string): string {
  const absolute = path.startsWith('/');
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
    else if (part !== '..' || !absolute) parts.push(part);
  }
  return absolute ? `/${parts.join('/')}` : parts.join('/') || '.';
}

/**
 * What an import's pattern names, as CoreDNS joins it: relative to the directory of the file it is
 * written in (`key`, a path relative to the Corefile's directory; undefined for the Corefile),
 * normalized; an absolute pattern as written.
 */
export function importPath(pattern: string, key: string | undefined): string {
  if (pattern.startsWith('/')) return normalizePath(pattern);
  const slash = key === undefined ? -1 : key.lastIndexOf('/');
  return normalizePath(slash < 0 ? pattern : `${(key as string).slice(0, slash)}/${pattern}`);
}
