import { lexCorefile } from '../../../src/corefile/lexer.js';
import type { WordLexeme } from '../../../src/corefile/lexer.js';

/**
 * Test oracle: CoreDNS's Corefile parser as a plain cursor machine over the lexer's words, written
 * from the grammar facts in corefile-syntax.md §2–§3, deliberately without any of the model's
 * structure. It answers "what does CoreDNS hand to its plugins?":
 *
 * - server blocks with their keys and, per directive occurrence, the token list with a "starts a
 *   new line" flag per token (what `NextArg`/`RemainingArgs` observe);
 * - snippet definitions with their body tokens; top-level and directive-level imports.
 *
 * Imports are not expanded: top-level and directive-level ones behave as if they imported nothing
 * (and are recorded), nested ones stay in the token list. Every token's flag is recorded, the one
 * right after a nested `{` included (a plugin reading that `{` with `NextArg` sees it), except
 * the first of a snippet body: it compares with the snippet's `{`, which no plugin ever reads.
 */

export interface FlaggedToken {
  readonly text: string;
  /** The token starts a line: the previous token (its last line, for quoted line breaks) ended on an earlier line. `null`: not observable. */
  readonly newLine: boolean | null;
}

export type ReferenceEntry =
  | { readonly kind: 'block'; readonly keys: readonly string[]; readonly directives: readonly (readonly FlaggedToken[])[] }
  | { readonly kind: 'snippet'; readonly name: string; readonly tokens: readonly FlaggedToken[] }
  | { readonly kind: 'import'; readonly pattern: string };

export type ReferenceResult = { readonly ok: true; readonly entries: ReferenceEntry[] } | { readonly ok: false; readonly message: string };

class Refusal extends Error {}

export function referenceParse(text: string): ReferenceResult {
  const tokens: WordLexeme[] = lexCorefile(text).lexemes.filter((lexeme): lexeme is WordLexeme => lexeme.kind === 'word');
  let cursor = -1;
  const entries: ReferenceEntry[] = [];
  const snippets = new Set<string>();

  const val = (): string => tokens[cursor]?.text ?? '';
  const next = (): boolean => {
    if (cursor < tokens.length - 1) {
      cursor += 1;
      return true;
    }
    return false;
  };
  const isNewLine = (): boolean => {
    if (cursor < 1) return true;
    if (cursor > tokens.length - 1) return false;
    return (tokens[cursor - 1] as WordLexeme).endLine < (tokens[cursor] as WordLexeme).line;
  };
  const nextArg = (): boolean => {
    if (cursor >= 0 && cursor < tokens.length - 1 && (tokens[cursor] as WordLexeme).endLine === (tokens[cursor + 1] as WordLexeme).line) {
      cursor += 1;
      return true;
    }
    return false;
  };
  const refuse = (message: string): never => {
    throw new Refusal(message);
  };
  const syntaxError = (expected: string): never => refuse(`Syntax error: Unexpected token '${val()}', expecting '${expected}'`);

  /** The import checks; leaves the cursor on the pattern and returns it. */
  const importChecks = (): string => {
    if (!nextArg()) refuse(val() === '{' ? "Unexpected token '{', expecting argument" : `Wrong argument count or unexpected line ending after '${val()}'`);
    const pattern = val();
    if (pattern === '') refuse('Import requires a non-empty filepath');
    if (nextArg()) refuse('Import takes only one argument (glob pattern or file)');
    return pattern;
  };
  /** An import that imported nothing: its two tokens disappear, the cursor lands before the next. */
  const spliceImport = (): string => {
    const pattern = importChecks();
    tokens.splice(cursor - 1, 2);
    cursor -= 1;
    return pattern;
  };

  const flagged = (list: readonly WordLexeme[]): FlaggedToken[] =>
    list.map((token, index) => {
      const previous = list[index - 1];
      if (previous === undefined) return { text: token.text, newLine: true };
      return { text: token.text, newLine: previous.endLine < token.line };
    });

  try {
    while (next()) {
      const keys: string[] = [];
      const directives: FlaggedToken[][] = [];
      let atEnd = false;
      // addresses
      let expectingAnother = false;
      for (;;) {
        let key = val();
        if (key === 'import' && isNewLine()) {
          entries.push({ kind: 'import', pattern: spliceImport() });
          continue;
        }
        if (key === '{') {
          if (expectingAnother) refuse("Expected another address but had '{' - check for extra comma");
          break;
        }
        if (key !== '') {
          expectingAnother = key.endsWith(',');
          if (expectingAnother) key = key.slice(0, -1);
          keys.push(key);
        }
        const hasNext = next();
        if (expectingAnother && !hasNext) refuse('Unexpected EOF');
        if (!hasNext) {
          atEnd = true;
          break;
        }
        if (!expectingAnother && isNewLine()) break;
      }
      if (atEnd) {
        if (keys.length > 0) entries.push({ kind: 'block', keys, directives });
        break;
      }
      const [only] = keys;
      if (keys.length === 1 && only !== undefined && only.startsWith('(') && only.endsWith(')')) {
        const name = only.slice(1, -1);
        if (snippets.has(name)) refuse(`redeclaration of previously declared snippet ${name}`);
        if (val() !== '{') syntaxError('{');
        let depth = 1;
        const body: WordLexeme[] = [];
        while (next()) {
          if (val() === '}') {
            depth -= 1;
            if (depth === 0) break;
          }
          if (val() === '{') depth += 1;
          body.push(tokens[cursor] as WordLexeme);
        }
        if (depth !== 0) syntaxError('}');
        for (let index = 0; index + 1 < body.length; index += 1) {
          const previous = body[index - 1];
          const atLineStart = previous === undefined || previous.line !== (body[index] as WordLexeme).line;
          if (body[index]?.text === 'import' && atLineStart && body[index + 1]?.text === name) refuse('maximum snippet import depth exceeded');
        }
        snippets.add(name);
        entries.push({ kind: 'snippet', name, tokens: flagged(body).map((token, index) => (index === 0 ? { ...token, newLine: null } : token)) });
        continue;
      }
      // block contents
      const opened = val() === '{';
      if (!opened) cursor -= 1;
      while (next()) {
        if (val() === '}') break;
        if (val() === 'import') {
          const importWord = tokens[cursor] as WordLexeme;
          const pattern = spliceImport();
          directives.push(flagged([importWord, { ...importWord, text: pattern }]));
          cursor -= 1;
          continue;
        }
        // one directive
        const occurrence: WordLexeme[] = [tokens[cursor] as WordLexeme];
        let nesting = 0;
        while (next()) {
          const token = tokens[cursor] as WordLexeme;
          if (token.text === '{') {
            nesting += 1;
          } else if (isNewLine() && nesting === 0) {
            cursor -= 1;
            break;
          } else if (token.text === '}' && nesting > 0) {
            nesting -= 1;
          } else if (token.text === '}') {
            refuse("Unexpected '}' because no matching opening brace");
          } else if (token.text === 'import' && isNewLine()) {
            importChecks();
            occurrence.push(token, tokens[cursor] as WordLexeme);
            continue;
          }
          occurrence.push(token);
        }
        if (nesting > 0) refuse('Unexpected EOF');
        directives.push(flagged(occurrence));
      }
      if (opened && val() !== '}') syntaxError('}');
      if (keys.length > 0) entries.push({ kind: 'block', keys, directives });
    }
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, message: error.message };
    throw error;
  }
  return { ok: true, entries };
}
