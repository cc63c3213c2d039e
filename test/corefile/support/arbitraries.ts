import fc from 'fast-check';
import type { AfterBlock, Block, Comment, Corefile, CorefileItem, Directive, ImportStatement, ServerBlock, SnippetDefinition } from '../../../src/corefile/model.js';

/**
 * fast-check generators of Corefile models, built from hostile strings: spaces, quotes,
 * backslashes, braces, `#`, line breaks, tabs, empty strings, `{$X}`, non-ASCII, `import`, commas
 * and parentheses.
 *
 * `representableCorefile` only uses tokens that corefile-syntax.md §4 calls representable, decided
 * here by {@link representableBySpec} — written from the spec, independently of the printer — and
 * respects the positional rules (keys, snippet names, imports). `hostileCorefile` uses any string
 * anywhere, so the printer must either refuse it or print it faithfully.
 */

const HOSTILE_PIECES = [
  'a', 'b.c', 'x', ' ', '  ', '"', '\\', '\\\\', '{', '}', '#', '\n', '\t', '\r', '', '{$X}', '{%Y%}', 'é', '😀',
  'import', ',', '(', ')', '\u00a0', '\u0085', '\u2028', '\ufeff', '\u200b', 'x"y', '\\"', '#c', '{$', '.',
] as const;

const hostilePieces = fc.array(fc.constantFrom(...HOSTILE_PIECES), { maxLength: 4 }).map((pieces) => pieces.join(''));

/** Any text: mostly hostile pieces, some arbitrary graphemes, now and then a brace or a lone surrogate. */
export const hostileText = fc.oneof(
  { weight: 6, arbitrary: hostilePieces },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 5 }) },
  { weight: 1, arbitrary: fc.constantFrom('{', '}', '\ud800', 'a\udfffb', 'import') },
);

const SEPARATOR = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u;
const ODD_BACKSLASHES_BEFORE_QUOTE_OR_END = /(?:^|[^\\])(?:\\\\)*\\(?:"|$)/u;
const LONE_SURROGATE = /\p{Cs}/u;

/** corefile-syntax.md §4: can some form of `token` be read back by CoreDNS as exactly `token`? */
export function representableBySpec(token: string): boolean {
  if (token === '{' || token === '}' || LONE_SURROGATE.test(token)) return false;
  const bare = token !== '' && !token.startsWith('"') && !token.includes('#') && !SEPARATOR.test(token);
  return bare || quotableBySpec(token);
}

function quotableBySpec(token: string): boolean {
  return !ODD_BACKSLASHES_BEFORE_QUOTE_OR_END.test(token);
}

const token = hostileText.filter(representableBySpec);
const tokenNoImport = token.filter((text) => text !== 'import');
const commentText = hostilePieces.filter((text) => !/[\n\r]/.test(text));

function compact<T>(value: Record<string, unknown>): T {
  for (const key of Object.keys(value)) if (value[key] === undefined) delete value[key];
  return value as T;
}

const optional = <T>(arbitrary: fc.Arbitrary<T>, freq = 3): fc.Arbitrary<T | undefined> => fc.option(arbitrary, { nil: undefined, freq });

const comment: fc.Arbitrary<Comment> = fc
  .record({ text: commentText, blankLineBefore: fc.boolean() })
  .map((value) => compact<Comment>({ text: value.text, blankLineBefore: value.blankLineBefore || undefined }));
const comments = optional(fc.array(comment, { maxLength: 3 }));

type Context = 'server' | 'nested' | 'snippet';

interface Vocabulary {
  readonly word: fc.Arbitrary<string>;
  readonly comment: fc.Arbitrary<Comment>;
  readonly comments: fc.Arbitrary<readonly Comment[] | undefined>;
}

function directiveArbitrary(vocabulary: Vocabulary, context: Context, depth: number, valid: boolean): fc.Arbitrary<Directive> {
  const inner: Context = context === 'snippet' ? 'snippet' : 'nested';
  const block = depth <= 0 ? fc.constant(undefined) : optional(blockArbitrary(vocabulary, inner, depth - 1, valid), 2);
  const afterBlock = depth <= 0 ? fc.constant(undefined) : optional(afterBlockArbitrary(vocabulary, inner, depth - 1, valid), 6);
  const trivia = {
    leadingComments: vocabulary.comments,
    trailingComment: optional(vocabulary.comment),
    blankLineBefore: fc.boolean(),
  };
  const plain = fc
    .record({ name: valid ? vocabulary.word.filter((name) => name !== 'import') : vocabulary.word, arguments: fc.array(vocabulary.word, { maxLength: 4 }), block, afterBlock, ...trivia })
    .map((value) =>
      compact<Directive>({
        ...value,
        // The `{` line has room for the first token only when no trailing comment waits on it.
        block: valid && value.trailingComment !== undefined && value.block?.openedOnNewLine !== true ? onOwnLines(value.block) : value.block,
        afterBlock: value.block === undefined && valid ? undefined : value.afterBlock,
        blankLineBefore: value.blankLineBefore || undefined,
      }),
    );
  if (valid && context === 'snippet') return plain;
  // An import: one non-empty argument; in a nested block it may own a block opened on its own line.
  const importBlock = context === 'nested' && depth > 0 ? optional(blockArbitrary(vocabulary, 'nested', depth - 1, valid).map((value) => ({ ...value, openedOnNewLine: true })), 4) : fc.constant(undefined);
  const anImport = fc
    .record({ pattern: vocabulary.word.filter((text) => text !== ''), block: importBlock, ...trivia })
    .map((value) => compact<Directive>({ name: 'import', arguments: [value.pattern], block: value.block, leadingComments: value.leadingComments, trailingComment: value.trailingComment, blankLineBefore: value.blankLineBefore || undefined }));
  return fc.oneof({ weight: 6, arbitrary: plain }, { weight: 1, arbitrary: anImport });
}

function afterBlockArbitrary(vocabulary: Vocabulary, context: Context, depth: number, valid: boolean): fc.Arbitrary<AfterBlock> {
  return fc
    .record({ arguments: fc.array(vocabulary.word, { minLength: 0, maxLength: 2 }), block: optional(blockArbitrary(vocabulary, context, depth, valid), 2) })
    .filter((value) => !valid || value.arguments.length > 0 || value.block !== undefined)
    // After another block, a comment of it may wait on the line: only a `{` on a new line is safe.
    .map((value) => compact<AfterBlock>({ ...value, block: valid && value.block?.openedOnNewLine !== true ? onOwnLines(value.block) : value.block }));
}

function blockArbitrary(vocabulary: Vocabulary, context: Context, depth: number, valid: boolean): fc.Arbitrary<Block> {
  return fc
    .record({
      directives: fc.array(directiveArbitrary(vocabulary, context, depth, valid), { maxLength: 3 }),
      endComments: vocabulary.comments,
      closingComment: optional(vocabulary.comment),
      openedOnNewLine: fc.boolean(),
      openingComment: optional(vocabulary.comment),
      firstTokenOnOpeningLine: fc.boolean(),
      closedOnLastLine: fc.boolean(),
    })
    .map((value) => {
      const [first] = value.directives;
      const last = value.directives[value.directives.length - 1];
      const canCloseOnLastLine = last !== undefined && (value.endComments ?? []).length === 0 && value.closingComment === undefined && !(last.name === 'import' && context !== 'snippet');
      const openingComment = value.openedOnNewLine || !valid ? value.openingComment : undefined;
      const canShareOpeningLine =
        openingComment === undefined && (first === undefined ? (value.endComments ?? []).length === 0 : (first.leadingComments ?? []).length === 0 && first.name !== 'import');
      return compact<Block>({
        ...value,
        openedOnNewLine: value.openedOnNewLine || undefined,
        openingComment,
        firstTokenOnOpeningLine: value.firstTokenOnOpeningLine && (canShareOpeningLine || !valid) ? true : undefined,
        closedOnLastLine: value.closedOnLastLine && (canCloseOnLastLine || !valid) ? true : undefined,
      });
    });
}

/** `block` without `firstTokenOnOpeningLine`. */
function onOwnLines(block: Block | undefined): Block | undefined {
  if (block?.firstTokenOnOpeningLine !== true) return block;
  const { firstTokenOnOpeningLine: _dropped, ...rest } = block;
  return rest;
}

/** Keys the spec allows (§2.1, §4 item 5): every key but the last may also be one that needs a comma. */
function keysArbitrary(valid: boolean): fc.Arbitrary<readonly string[]> {
  if (!valid) return fc.array(hostileText, { maxLength: 4 });
  const standalone = (key: string, index: number) => key !== '' && !key.endsWith(',') && key !== '{' && !(index === 0 && key === 'import');
  const canTakeComma = (key: string) => key === '{' || representableBySpec(`${key},`);
  return fc
    .array(fc.oneof(token, fc.constantFrom('', '{', 'import', 'a,', ',')), { minLength: 0, maxLength: 4 })
    .filter((keys) => keys.every((key, index) => (index === keys.length - 1 ? standalone(key, index) && representableBySpec(key) : standalone(key, index) ? representableBySpec(key) : canTakeComma(key))))
    .filter((keys) => !(keys.length === 1 && /^\(.*\)$/su.test(keys[0] as string)))
    // A first key opening the file must not start with a U+FEFF it cannot quote (a BOM is dropped).
    .filter((keys) => {
      const first = keys[0];
      if (first === undefined || !first.startsWith('\ufeff')) return true;
      return quotableBySpec(standalone(first, 0) ? first : `${first},`);
    });
}

function itemArbitrary(valid: boolean): fc.Arbitrary<CorefileItem> {
  const vocabulary: Vocabulary = valid ? { word: token, comment, comments } : { word: hostileText, comment, comments };
  const snippetVocabulary: Vocabulary = valid ? { ...vocabulary, word: tokenNoImport } : vocabulary;
  const trivia = { leadingComments: comments, trailingComment: optional(comment), blankLineBefore: fc.boolean() };
  const list = (vocab: Vocabulary, context: Context) => ({
    directives: fc.array(directiveArbitrary(vocab, context, 2, valid), { maxLength: 4 }),
    endComments: comments,
    closingComment: optional(comment),
  });
  const server = fc
    .record({ keys: keysArbitrary(valid), ...list(vocabulary, 'server'), ...trivia })
    .map((value) => compact<ServerBlock>({ kind: 'server-block', ...value, blankLineBefore: value.blankLineBefore || undefined }));
  const snippet = fc
    .record({ name: valid ? tokenNoImport.map((name) => name.replace(/[{}]/gu, '')).filter((name) => representableBySpec(`(${name})`)) : hostileText, ...list(snippetVocabulary, 'snippet'), ...trivia })
    .map((value) => compact<SnippetDefinition>({ kind: 'snippet', ...value, blankLineBefore: value.blankLineBefore || undefined }));
  const anImport = fc
    .record({ pattern: valid ? token.filter((text) => text !== '') : hostileText, ...trivia })
    .map((value) => compact<ImportStatement>({ kind: 'import', ...value, blankLineBefore: value.blankLineBefore || undefined }));
  return fc.oneof({ weight: 5, arbitrary: server }, { weight: 2, arbitrary: snippet }, { weight: 1, arbitrary: anImport });
}

function corefileArbitrary(valid: boolean): fc.Arbitrary<Corefile> {
  return fc
    .record({ items: fc.array(itemArbitrary(valid), { maxLength: 4 }), endComments: comments })
    .map((value) => {
      // Snippet names must be unique, and a snippet may not import itself.
      const seen = new Set<string>();
      const items = value.items.filter((item) => {
        if (item.kind !== 'snippet' || !valid) return true;
        if (seen.has(item.name)) return false;
        seen.add(item.name);
        return true;
      });
      return compact<Corefile>({ items, endComments: value.endComments });
    });
}

/** Models every token of which is representable and every positional rule respected. */
export const representableCorefile = corefileArbitrary(true);
/** Models with any string anywhere (braces, odd backslashes, lone surrogates, bad keys…). */
export const hostileCorefile = corefileArbitrary(false);

/** Texts glued from Corefile-ish words and separators: mostly invalid, some valid in odd ways. */
export const tokenSoup = fc
  .array(
    fc.constantFrom(
      'a', 'b', 'a.org', 'x,', ',', '""', '"q r"', '"{"', '{', '{', '}', '}', 'import', '(s)', '(t)', 'log', '#c', 'a#b', '\\',
      '{$X}', ' ', ' ', ' ', '\n', '\n', '\n', '\n\n', '\t', '\r\n', '"multi\nline"', '"a\\"b"',
    ),
    { maxLength: 40 },
  )
  .map((pieces) => pieces.join(''));

/**
 * Server blocks whose nested blocks are laid out every way CoreDNS accepts: a `{` at the end of
 * its directive's line or on a line of its own; the first directive (or, in an empty block, the
 * `}`) on the `{` line or the next; a `}` on a line of its own or after the last token; words or
 * another block after a `}`; comments at line ends; quoted words spanning lines. Server blocks are
 * always `KEY {` … `}` with the `}` on its own line, so their bodies are easy to find again.
 */
export const nestedLayoutText: fc.Arbitrary<string> = (() => {
  const word = fc.constantFrom('a', 'b.c', 'x', '"q r"', '"multi\nline"', '{$X}', '10.0.0.1');
  const lineEnd = fc.constantFrom('\n', '\n', ' # note\n', '\n\n');
  /** Text between two words of one line. */
  const space = fc.constantFrom(' ', '\t', '  ');
  const words = (min: number) => fc.array(word, { minLength: min, maxLength: 3 }).map((list) => list.join(' '));
  const { block } = fc.letrec<{ block: string; directive: string; directives: string }>((tie) => ({
    block: fc
      .record({
        open: fc.constantFrom(' {', ' {', '\n{', ' # c\n{'),
        afterOpen: fc.oneof(space, lineEnd),
        body: tie('directives'),
        beforeClose: fc.oneof(space, lineEnd),
        rest: fc.oneof({ depthSize: 'small', maxDepth: 4 }, { weight: 3, arbitrary: fc.constant('') }, words(1).map((text) => ` ${text}`), tie('block')),
      })
      .map(({ open, afterOpen, body, beforeClose, rest }) => `${open}${afterOpen}${body}${beforeClose}}${rest}`),
    directive: fc
      .record({ name: fc.constantFrom('a', 'b', 'forward', 'x'), args: words(0), block: fc.option(tie('block'), { freq: 2, depthSize: 'small', maxDepth: 4 }) })
      .map(({ name, args, block: nested }) => `${name}${args === '' ? '' : ` ${args}`}${nested ?? ''}`),
    directives: fc
      .array(fc.tuple(tie('directive'), lineEnd), { maxLength: 3 })
      .map((lines) => lines.map(([line, end], index) => (index === lines.length - 1 ? line : `${line}${end}`)).join('')),
  }));
  const server = fc
    .record({ key: fc.constantFrom('.', 'example.org:53', 'a.b'), first: fc.oneof(space, lineEnd), directives: fc.array(fc.tuple(fc.constantFrom('log', 'forward . 1.1.1.1', 'hosts'), fc.option(block, { freq: 5 })), { maxLength: 3 }) })
    .map(({ key, first, directives }) => `${key} {${first}${directives.map(([line, nested]) => `${line}${nested ?? ''}`).join('\n')}\n}\n`);
  return fc.array(server, { minLength: 1, maxLength: 3 }).map((blocks) => blocks.join('\n'));
})();
