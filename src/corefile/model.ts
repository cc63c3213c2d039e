import { checkArgument, checkCorefileModel } from '../errors/arguments.js';
import type { SourcePosition } from '../util/source-position.js';

/**
 * The Corefile model: what CoreDNS's parser sees, as a tree.
 *
 * ```text
 * Corefile ─ items ─┬─ ServerBlock ─ keys, directives ─ Directive ─ name, arguments, block? ─ …
 *                   ├─ SnippetDefinition ─ name, directives
 *                   └─ ImportStatement ─ pattern
 * ```
 *
 * **Tokens are text as CoreDNS's lexer produces it**: quotes and escapes removed, environment
 * placeholders (`{$NAME}`, `{%NAME%}`) kept exactly as written. We never expand placeholders or
 * imports; a `{$X}` in a token *is* the placeholder, and printing it bare reproduces it.
 *
 * **Imports** are kept as written: at the top level as an {@link ImportStatement}; inside blocks
 * as an ordinary {@link Directive} named `import` with one argument (that is how it reads, and the
 * parser checks its arguments the way CoreDNS does). **Snippet definitions** are a
 * {@link SnippetDefinition} whose body is parsed like a nested block and, as in CoreDNS, not
 * validated until imported (we never import it).
 *
 * **Layout** that plugins can observe is part of the model, so printing never changes what
 * CoreDNS reads: the optional {@link Block} flags and {@link Directive.afterBlock} record the
 * layouts CoreDNS accepts but the canonical form would change (a `{` on its own line, a token
 * after `{` on its line, a `}` after tokens, tokens after a `}`). Within every server block and
 * snippet body, each token keeps whether it starts a line. Layout plugins cannot observe
 * (indentation, where a server block's or snippet's braces sit and whether its first directive
 * shares the `{` line, key lists spread over lines with commas, braceless blocks) is not kept.
 *
 * **Comments** are kept, attached to the node they precede (`leadingComments`), or end
 * (`trailingComment`: the comment at the end of the node's first line). Comments before a block's
 * `}` are its `endComments`; after the last item, the Corefile's `endComments`. Comment text is
 * what follows `#`, without trailing whitespace. Single blank lines between directives and between
 * comments are kept as `blankLineBefore`.
 *
 * **Positions** (1-based line and column, columns in code points, a leading BOM not counted) are
 * set on every node the parser creates (on server blocks, directives and blocks as an accessor,
 * see `parsed-nodes.ts`); token positions only with `parseCorefile`'s `tokenPositions` option.
 * Models built by hand may omit them.
 *
 * **Equality** (what the round-trip laws mean by "equal") is {@link corefilesEqual}: positions
 * are ignored, and so are `blankLineBefore` flags where no blank line can be printed (the first
 * element of a block or of the file) and absent-versus-empty optional lists. Everything else —
 * every token's text, the order of everything, comments and the layout flags — must match.
 */

/** A `#` comment. */
export interface Comment {
  /** Text after `#`, without the line break and trailing whitespace. */
  readonly text: string;
  /** A blank line separates this comment from what precedes it. */
  readonly blankLineBefore?: boolean;
  readonly position?: SourcePosition;
}

/** A sequence of directives between braces: a server block's body or a nested block. */
export interface DirectiveList {
  readonly directives: readonly Directive[];
  /** Comment lines after the last directive, before the closing `}`. */
  readonly endComments?: readonly Comment[];
  /** The comment at the end of the closing `}` line. */
  readonly closingComment?: Comment;
  /** Position of the closing `}` (parsed with `tokenPositions`, and when the source has one). */
  readonly closePosition?: SourcePosition;
}

/** A nested block `{ … }` after a directive's arguments. Nesting depth is limited only by the input. */
export interface Block extends DirectiveList {
  /**
   * The `{` was the first token of its line. CoreDNS's parser accepts that, but plugins then do
   * not see the block as theirs (e.g. `forward` fails with "Unexpected token '{', expecting
   * argument"). Kept so that formatting never silently repairs or breaks a configuration.
   */
  readonly openedOnNewLine?: boolean;
  /** The comment at the end of the `{` line; only with `openedOnNewLine`. */
  readonly openingComment?: Comment;
  /**
   * The token after the `{` is on the `{` line: the first directive (`health { lameduck 5s }`)
   * or, in an empty block, the `}` (`forward . 1.1.1.1 { }`). Plugins reading with `NextArg` see
   * the difference. The `{` line then has no comment of its own and the first directive no
   * leading comments (in an empty block: no end comments); an `import` cannot come first.
   */
  readonly firstTokenOnOpeningLine?: boolean;
  /**
   * The `}` shared its line with the block's last token (`health { lameduck 5s }`): plugins then
   * read the `}` as one more argument of that line. Only meaningful when the block has directives.
   */
  readonly closedOnLastLine?: boolean;
  /** Position of the `{`. */
  readonly position?: SourcePosition;
}

/**
 * Tokens that follow a nested block's `}` on the same line (`hosts { … } extra`): CoreDNS keeps
 * them in the same directive. Rare; only possible after a block.
 */
export interface AfterBlock {
  readonly arguments: readonly string[];
  readonly block?: Block;
  readonly afterBlock?: AfterBlock;
  readonly argumentPositions?: readonly SourcePosition[];
}

/**
 * A line in a block: a plugin directive at the top of a server block, a sub-directive (property)
 * inside a nested block. `import` appears as a directive named `import` with one argument.
 */
export interface Directive {
  readonly name: string;
  readonly arguments: readonly string[];
  readonly block?: Block;
  /** Tokens after the block's `}` on the same line; only when `block` is present. */
  readonly afterBlock?: AfterBlock;
  readonly leadingComments?: readonly Comment[];
  readonly trailingComment?: Comment;
  /** A blank line separates this directive from what precedes it in its block. */
  readonly blankLineBefore?: boolean;
  /** Position of the name. */
  readonly position?: SourcePosition;
  /** Positions of `arguments`, index for index (parsed with `tokenPositions`). */
  readonly argumentPositions?: readonly SourcePosition[];
}

/** Comments and separation shared by the top-level items. */
export interface TopLevelTrivia {
  readonly leadingComments?: readonly Comment[];
  /** The comment at the end of the item's first line. */
  readonly trailingComment?: Comment;
  /** A blank line separates the item from its leading comments (items are always separated). */
  readonly blankLineBefore?: boolean;
}

/**
 * A server block: keys (as written, after CoreDNS's comma handling; see `parseServerKey` for what
 * they mean) and the directives between its braces.
 *
 * `keys` is empty when every key was `""`: CoreDNS then ignores the block (it prints as `"" {`).
 */
export interface ServerBlock extends DirectiveList, TopLevelTrivia {
  readonly kind: 'server-block';
  readonly keys: readonly string[];
  /** Position of the first key (or of the `{` when there is none). */
  readonly position?: SourcePosition;
  /** Positions of `keys` (parsed with `tokenPositions`). */
  readonly keyPositions?: readonly SourcePosition[];
}

/** `(name) { … }`: a snippet definition, imported elsewhere with `import name`. */
export interface SnippetDefinition extends DirectiveList, TopLevelTrivia {
  readonly kind: 'snippet';
  /** The text between the parentheses (any characters). */
  readonly name: string;
  readonly position?: SourcePosition;
}

/** `import PATTERN` between server blocks (a file, a glob or a snippet name); never expanded. */
export interface ImportStatement extends TopLevelTrivia {
  readonly kind: 'import';
  readonly pattern: string;
  readonly position?: SourcePosition;
  readonly patternPosition?: SourcePosition;
}

export type CorefileItem = ServerBlock | SnippetDefinition | ImportStatement;

export interface Corefile {
  readonly items: readonly CorefileItem[];
  /** Comment lines after the last item. */
  readonly endComments?: readonly Comment[];
}

/** The server blocks of `corefile`, in order. */
export function serverBlocks(corefile: Corefile): ServerBlock[] {
  checkArgument('serverBlocks', 'corefile', corefile, 'object');
  checkCorefileModel('serverBlocks', 'corefile', corefile);
  return corefile.items.filter((item): item is ServerBlock => item.kind === 'server-block');
}
