/**
 * The string literals of a TypeScript source, comments left out: quoted strings and the text parts
 * of template literals (a `${…}` inside a template is code again, and may hold strings of its own).
 * A small scanner, not a parser: regular-expression literals are recognised by the token before the
 * slash, which is enough for this repository's sources (a test would show otherwise: the guard
 * test fails on any literal it cannot place).
 */
export interface SourceLiteral {
  readonly text: string;
  /** 1-based line of the literal's first character. */
  readonly line: number;
}

const REGEX_BEFORE = new Set(['(', ',', '=', ':', '[', '!', '&', '|', '?', '{', '}', ';', '+', '-', '*', '%', '<', '>', '~', '^']);

export function sourceLiterals(source: string): SourceLiteral[] {
  const literals: SourceLiteral[] = [];
  /** One entry per open template literal: the `{` depth of the code inside its current `${`. */
  const templates: number[] = [];
  let depth = 0;
  let line = 1;
  let previous = '';
  let i = 0;
  const n = source.length;
  const newlines = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (source[k] === '\n') line++;
  };
  const readTemplateText = () => {
    // At the first character after ` or after the } closing a ${…}.
    const start = i;
    const startLine = line;
    while (i < n) {
      const c = source[i];
      if (c === '\\') i += 2;
      else if (c === '`') {
        literals.push({ text: source.slice(start, i), line: startLine });
        newlines(start, i);
        i++;
        templates.pop();
        previous = '`';
        return;
      } else if (c === '$' && source[i + 1] === '{') {
        literals.push({ text: source.slice(start, i), line: startLine });
        newlines(start, i);
        i += 2;
        templates[templates.length - 1] = depth;
        depth++;
        previous = '{';
        return;
      } else i++;
    }
    throw new Error(`unterminated template literal from line ${startLine}`);
  };
  while (i < n) {
    const c = source[i] ?? '';
    if (c === '\n') {
      line++;
      i++;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '/' && source[i + 1] === '/') {
      while (i < n && source[i] !== '\n') i++;
      continue;
    }
    if (c === '/' && source[i + 1] === '*') {
      const end = source.indexOf('*/', i + 2);
      if (end < 0) throw new Error(`unterminated comment on line ${line}`);
      newlines(i, end);
      i = end + 2;
      continue;
    }
    if (c === '"' || c === "'") {
      const start = i + 1;
      i = start;
      while (i < n && source[i] !== c) i += source[i] === '\\' ? 2 : 1;
      literals.push({ text: source.slice(start, i), line });
      i++;
      previous = c;
      continue;
    }
    if (c === '`') {
      i++;
      templates.push(-1);
      readTemplateText();
      continue;
    }
    if (c === '/' && (previous === '' || REGEX_BEFORE.has(previous) || previous === 'return')) {
      // A regular-expression literal: skip it (with its character classes) and its flags.
      i++;
      let inClass = false;
      while (i < n && (inClass || source[i] !== '/')) {
        if (source[i] === '\\') i++;
        else if (source[i] === '[') inClass = true;
        else if (source[i] === ']') inClass = false;
        else if (source[i] === '\n') throw new Error(`unterminated regular expression on line ${line}`);
        i++;
      }
      i++;
      while (i < n && /[a-z]/.test(source[i] ?? '')) i++;
      previous = 'regex';
      continue;
    }
    if (c === '{') depth++;
    if (c === '}') {
      depth--;
      if (templates.length > 0 && templates[templates.length - 1] === depth) {
        i++;
        readTemplateText();
        continue;
      }
    }
    if (/[A-Za-z0-9_$]/.test(c)) {
      const start = i;
      while (i < n && /[A-Za-z0-9_$]/.test(source[i] ?? '')) i++;
      previous = source.slice(start, i);
      if (previous !== 'return' && previous !== 'typeof' && previous !== 'case') previous = 'word';
      continue;
    }
    previous = c;
    i++;
  }
  return literals;
}
