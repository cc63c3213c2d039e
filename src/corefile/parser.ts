import { checkArgument } from '../errors/arguments.js';
import { CorefileSyntaxError, makeWarning } from './errors.js';
import type { CorefileSyntaxErrorCode, CorefileWarning, CorefileWarningCode } from './errors.js';
import { Scanner } from './lexer.js';
import { ParsedBlock, ParsedDirective, ParsedDirectiveWithBlock, ParsedServerBlock } from './parsed-nodes.js';
import type { AfterBlock, Block, Comment, Corefile, CorefileItem, Directive, ImportStatement, SnippetDefinition } from './model.js';
import type { SourcePosition } from '../util/source-position.js';

/**
 * Stage 2: words and comments (from the lexer's {@link Scanner}) → {@link Corefile}, accepting
 * what CoreDNS's Corefile parser accepts.
 *
 * Grouping follows CoreDNS: the first word of a block and the words on its line are keys (a
 * trailing comma continues the list on the next line); after the keys, `{` opens the block (or,
 * without `{`, the block runs braceless to the end of the file); each line in a block is a
 * directive; a `{` (even at the start of the next line) opens a nested block of the current
 * directive; a `}` that starts a line closes the server block. `(name) { … }` with a single key
 * is a snippet; `import` at the start of a line is an import.
 *
 * Leniencies CoreDNS's parser has are accepted and reported as warnings; the model keeps whatever
 * plugins can observe (see `model.ts`), so printing never changes what CoreDNS reads.
 *
 * Documented deviations (refused with `unsupported-construct`, all of them configurations no
 * plugin reads as intended): a nested block whose first token is another `{`; `import` directly
 * after a nested `{` on the same line (CoreDNS passes it to the plugin as a word); `import` inside
 * a comma-continued key list or followed by a keyless `{` block (the keys would come from the
 * imported file). Directive names are not checked unless `knownDirectives` is given.
 */

export interface ParseOptions {
  /** Name used in messages (`FILE:LINE:COL: …`). Default `Corefile`. */
  readonly filename?: string;
  /**
   * Plugin names of the target CoreDNS build (its `plugin.cfg`). When given, a server block's
   * directive that is not among them fails with `Unknown directive 'NAME'`, as in CoreDNS.
   */
  readonly knownDirectives?: Iterable<string>;
  /**
   * Also record the position of every argument, key and closing brace (`argumentPositions`,
   * `keyPositions`, `closePosition`). Off by default: nodes always carry their own `position`,
   * and the extra objects cost time and memory on large files.
   */
  readonly tokenPositions?: boolean;
}

export interface ParseResult {
  readonly corefile: Corefile;
  readonly warnings: readonly CorefileWarning[];
}

/** What {@link parseCorefileItems} answers once the items are read. */
export interface ItemsRead {
  readonly warnings: readonly CorefileWarning[];
  readonly endComments?: readonly Comment[];
}

/** Parses a Corefile. Throws {@link CorefileSyntaxError} for text CoreDNS would refuse to parse. */
export function parseCorefile(text: string, options: ParseOptions = {}): ParseResult {
  checkArgument('parseCorefile', 'text', text, 'string');
  checkArgument('parseCorefile', 'options', options, 'object?');
  const filename = options.filename ?? 'Corefile';
  const known = options.knownDirectives === undefined ? undefined : new Set(options.knownDirectives);
  return new Parser(new Scanner(text, filename), filename, known, options.tokenPositions === true).parse();
}

/**
 * {@link parseCorefile} of `text` read as lines `firstLine`… of a larger text: positions count
 * lines from `firstLine` (columns are unchanged, since `text` starts a line). For the migration's
 * target check, which parses only the lines a migration rewrote; not part of the package's API.
 */
export function parseCorefileLines(text: string, firstLine: number, options: ParseOptions = {}): ParseResult {
  const filename = options.filename ?? 'Corefile';
  const known = options.knownDirectives === undefined ? undefined : new Set(options.knownDirectives);
  return new Parser(new Scanner(text, filename, firstLine), filename, known, options.tokenPositions === true).parse();
}

/**
 * {@link parseCorefile}, item by item: `visit` gets each top-level item as soon as it is parsed, and
 * the parse stops when it returns false (the items before it are exactly those of the whole
 * parse). Nothing keeps the items: a caller that lets each one go holds one item's model at a
 * time (the migration's block-by-block path, src/migrate/migrate.ts). The warnings are those of
 * the text read so far; `endComments`, the comments after the last item, as the whole parse has
 * them (only when the parse read the whole text). Not part of the package's API.
 */
export function parseCorefileItems(text: string, options: ParseOptions, visit: (item: CorefileItem) => boolean): ItemsRead {
  const filename = options.filename ?? 'Corefile';
  const known = options.knownDirectives === undefined ? undefined : new Set(options.knownDirectives);
  return new Parser(new Scanner(text, filename), filename, known, options.tokenPositions === true).eachItem(visit);
}

/**
 * Where a nested construct sits; decides the checks CoreDNS applies there.
 * - `server`: directly in a server block (directive names, `}` on a directive line is an error).
 * - `nested`: inside a directive's block.
 * - `snippet`: anywhere in a snippet body (not validated until imported, like CoreDNS).
 */
type Context = 'server' | 'nested' | 'snippet';

/** The nodes that take a comment at the end of a line. */
interface CommentSlots {
  trailingComment?: Comment | undefined;
  closingComment?: Comment | undefined;
  openingComment?: Comment | undefined;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type MutableAfterBlock = Mutable<AfterBlock> & { arguments: string[]; argumentPositions?: SourcePosition[] };
type MutableDirectiveList = { directives: readonly Directive[]; endComments?: readonly Comment[]; closingComment?: Comment; closePosition?: SourcePosition };
type MutableBlock = Mutable<Block> & MutableDirectiveList;
type MutableSnippet = Mutable<SnippetDefinition> & MutableDirectiveList;
type MutableTopLevel = MutableSnippet | Mutable<ImportStatement>;

/** The words of a snippet body, kept for CoreDNS's self-import check. */
interface RecordedWord {
  readonly text: string;
  readonly line: number;
  readonly column: number;
}

/** Empty lists are shared, frozen (models are read-only). */
const NO_STRINGS = Object.freeze<string[]>([]) as string[];
const NO_DIRECTIVES = Object.freeze<Directive[]>([]) as Directive[];
const NO_COMMENTS = Object.freeze<Comment[]>([]) as Comment[];
const NO_POSITIONS = Object.freeze<SourcePosition[]>([]) as SourcePosition[];
/** Items gathered per chunk (see `parse`). */
const ITEM_CHUNK = 4096;
/** Size of the one-word list cache, indexed like the scanner's intern table. */
const LIST_SLOTS = 4096;
/**
 * The one-word list cache, shared by every parser: its lists are frozen and used only when their
 * word matches, so lists left by earlier texts are as good as new ones. One cache per parser cost
 * a 4096-slot fill per text, most of the work for a small Corefile.
 */
const SINGLE_WORD_LISTS: (readonly string[])[] = new Array<readonly string[]>(LIST_SLOTS).fill(NO_STRINGS);

/**
 * `stack.slice(start, end)`. Short lists (most of them) are written as array literals, which the
 * optimizing compiler allocates inline instead of calling into the runtime.
 */
function listOf<T>(stack: readonly T[], start: number, end: number): T[] {
  switch (end - start) {
    case 1:
      return [stack[start] as T];
    case 2:
      return [stack[start] as T, stack[start + 1] as T];
    case 3:
      return [stack[start] as T, stack[start + 1] as T, stack[start + 2] as T];
    case 4:
      return [stack[start] as T, stack[start + 1] as T, stack[start + 2] as T, stack[start + 3] as T];
    default:
      return stack.slice(start, end);
  }
}

/**
 * A reader over the scanner: one method per construct, nested blocks kept on explicit stacks
 * instead of the call stack (see `directiveList`), so nesting depth is limited only by the input.
 * The scanner's fields describe the next unconsumed word (`hasWord`); comments are attached as
 * they are passed (`peek`).
 *
 * Speed: the model is what stays in memory, and on a large file the garbage collector copying it
 * (and the kernel handing out fresh pages for it) is most of the time. So each node is allocated
 * once, when its fields are known (`parsed-nodes.ts`); lists are cut at their exact length from
 * shared stacks that never shrink, one-word lists and empty lists are shared, and nothing else is
 * allocated per word or per node (no position objects, no result tuples, no comment holders)
 * unless `tokenPositions` asks for it. Time is linear in the input.
 */
class Parser {
  private hasWord = false;
  /** The last consumed word. */
  private lastText = '';
  private lastEndLine = 0;
  private lastLine = 0;
  private lastColumn = 0;
  private consumedAny = false;
  /** Where a comment at the end of the current line goes. */
  private ownerNode: CommentSlots | undefined;
  private ownerField: keyof CommentSlots = 'trailingComment';
  /** A comment that lost its slot to a `{` on its line, waiting for the line's next slot (see openBlock). */
  private carriedComment: Comment | undefined;
  /** Comment lines waiting for the node they precede, up to `pendingTop` (a shared stack). */
  private readonly pending: Comment[] = [];
  private pendingTop = 0;
  /** Last line holding a word or a comment: a gap of two lines or more is a blank line. */
  private lastContentLine = 0;
  private readonly snippets = new Set<string>();
  private recorded: RecordedWord[] | undefined;
  private readonly warnings: CorefileWarning[];
  /**
   * Shared stacks: a list under construction occupies the top, from its start index up to the
   * stack's `…Top`. The arrays never shrink (setting an array's length to 0 drops its storage, and
   * the next push would allocate it again); entries above the top are stale.
   */
  private readonly wordStack: string[] = [];
  private wordTop = 0;
  private readonly positionStack: SourcePosition[] = [];
  private positionTop = 0;
  private readonly directiveStack: Directive[] = [];
  private directiveTop = 0;
  /** Intern slots (see `Scanner.slot`) of the words on `wordStack`, index for index. */
  private readonly slotStack: number[] = [];
  /** Frozen one-word lists by the scanner's intern slot of their word. */
  private readonly singleWordLists: (readonly string[])[] = SINGLE_WORD_LISTS;
  /** Positions cut by the last `takeWords` (only with `tokenPositions`). */
  private takenPositions: SourcePosition[] | undefined;
  /** Where comments on a directive's line wait until its node exists (no object per directive). */
  private readonly slots: CommentSlots = {};
  /**
   * The nested blocks open around the current position, outermost first (`depth` of them), with
   * the directive owning each, that directive's last afterBlock segment, and where the block's
   * directives start on `directiveStack`. Like the other stacks, they never shrink.
   */
  private readonly openBlocks: ParsedBlock[] = [];
  private readonly openDirectives: ParsedDirectiveWithBlock[] = [];
  private readonly openTails: (MutableAfterBlock | undefined)[] = [];
  private readonly openListStarts: number[] = [];
  private depth = 0;

  constructor(
    private readonly scan: Scanner,
    private readonly filename: string,
    private readonly knownDirectives: ReadonlySet<string> | undefined,
    private readonly tokenPositions: boolean,
  ) {
    this.warnings = scan.warnings;
    this.advance();
  }

  parse(): ParseResult {
    // Items are gathered in chunks and concatenated once: one list growing to 100,000 items
    // would be copied into ever larger (and, past 16,000 items, freshly mapped) stores.
    const chunks: CorefileItem[][] = [];
    let chunk: CorefileItem[] = [];
    while (this.peek()) {
      chunk.push(this.topLevelItem());
      if (chunk.length === ITEM_CHUNK) {
        chunks.push(chunk);
        chunk = [];
      }
    }
    const items = chunks.length === 0 ? chunk : (chunks[0] as CorefileItem[]).concat(...chunks.slice(1), chunk);
    const corefile: Mutable<Corefile> = { items };
    const endComments = this.takePending(true);
    if (endComments.length > 0) corefile.endComments = endComments;
    return { corefile, warnings: this.warnings };
  }

  /** The top-level items one at a time (see {@link parseCorefileItems}). */
  eachItem(visit: (item: CorefileItem) => boolean): ItemsRead {
    while (this.peek()) if (!visit(this.topLevelItem())) return { warnings: this.warnings };
    const endComments = this.takePending(true);
    return endComments.length > 0 ? { warnings: this.warnings, endComments } : { warnings: this.warnings };
  }

  // ── words and comments ───────────────────────────────────────────────────────────────────────

  private advance(): void {
    this.hasWord = this.scan.next();
  }

  /** True when a word follows; attaches the comments before it. */
  private peek(): boolean {
    while (this.hasWord && this.scan.kind === 'comment') {
      this.comment();
      this.advance();
    }
    return this.hasWord;
  }

  /** The next word's text, or undefined at the end. */
  private peekText(): string | undefined {
    return this.peek() ? this.scan.text : undefined;
  }

  /** Consumes the next word (call after `peek()` returned true) and returns its text. */
  private consume(): string {
    const { scan } = this;
    const text = scan.text;
    this.lastText = text;
    this.lastEndLine = scan.endLine;
    this.lastLine = scan.line;
    this.lastColumn = scan.column;
    this.lastContentLine = scan.endLine;
    this.consumedAny = true;
    this.recorded?.push({ text, line: scan.line, column: scan.column });
    this.advance();
    return text;
  }

  private here(): SourcePosition {
    return { line: this.scan.line, column: this.scan.column };
  }

  private lastPosition(): SourcePosition {
    return { line: this.lastLine, column: this.lastColumn };
  }

  private setOwner(node: CommentSlots, field: keyof CommentSlots): void {
    this.ownerNode = node;
    this.ownerField = field;
    // A comment moved past a `{` (see openBlock) goes to the next comment slot of its line.
    const carried = this.carriedComment;
    if (carried !== undefined) {
      this.carriedComment = undefined;
      node[field] = joinedComment(carried, node[field]);
    }
  }

  private comment(): void {
    const { scan } = this;
    const position = { line: scan.line, column: scan.column };
    const node = this.ownerNode;
    if (this.consumedAny && this.lastEndLine === scan.line && node !== undefined) {
      const existing = node[this.ownerField];
      const text = existing === undefined ? scan.text : `${existing.text} #${scan.text}`;
      node[this.ownerField] = { text, position: existing?.position ?? position };
    } else {
      const comment: Mutable<Comment> = { text: scan.text, position };
      if (scan.line - this.lastContentLine >= 2) comment.blankLineBefore = true;
      this.pending[this.pendingTop++] = comment;
    }
    this.lastContentLine = scan.line;
  }

  /** Pending comment lines for a node; `first` clears the blank line the printer cannot show. */
  private takePending(first: boolean): Comment[] {
    if (this.pendingTop === 0) return NO_COMMENTS;
    const taken = this.pending.slice(0, this.pendingTop);
    this.pendingTop = 0;
    const head = taken[0];
    if (first && head?.blankLineBefore === true) taken[0] = withoutBlankLine(head);
    return taken;
  }

  /** The next word is on a new line: the previous word (multi-line quotes counted) ended earlier. */
  private atNewLine(): boolean {
    return !this.consumedAny || this.lastEndLine < this.scan.line;
  }

  /** A word follows on the current line. */
  private sameLineFollows(): boolean {
    return this.peek() && !this.atNewLine();
  }

  /**
   * The words pushed since `start`, as an exact-length list; the stacks shrink back. With
   * `tokenPositions`, their positions are left in `takenPositions`.
   */
  private takeWords(start: number, positionStart: number): string[] {
    const { wordStack, wordTop } = this;
    const count = wordTop - start;
    const words = count === 0 ? NO_STRINGS : count === 1 ? this.sharedList(wordStack[start] as string, this.slotStack[start] as number) : listOf(wordStack, start, wordTop);
    this.wordTop = start;
    if (this.tokenPositions) {
      // Most directives of a block have no arguments (`errors`, `reload`): one shared empty list.
      this.takenPositions = this.positionTop === positionStart ? NO_POSITIONS : this.positionStack.slice(positionStart, this.positionTop);
      this.positionTop = positionStart;
    }
    return words;
  }

  /**
   * A frozen one-word list, shared by every directive with that single argument (`cache 30`,
   * `reload`'s `10s`…): lists are most of a model's memory. Words the scanner shares from its
   * intern table (`slot` ≥ 0) find their list in the slot of the same number, without hashing.
   */
  private sharedList(word: string, slot: number): string[] {
    if (slot < 0) return Object.freeze([word]) as string[];
    const known = this.singleWordLists[slot] as string[];
    if (known[0] === word) return known;
    const list = Object.freeze([word]) as string[];
    this.singleWordLists[slot] = list;
    return list;
  }

  private pushWord(): void {
    if (this.tokenPositions) this.pushPosition(this.here());
    this.pushText(this.scan.slot, this.consume());
  }

  /** Pushes a word with its intern slot (-1 when the text is not the scanner's shared string). */
  private pushText(slot: number, text: string): void {
    this.slotStack[this.wordTop] = slot;
    this.wordStack[this.wordTop++] = text;
  }

  private pushPosition(position: SourcePosition): void {
    this.positionStack[this.positionTop++] = position;
  }

  private fail(code: CorefileSyntaxErrorCode, reason: string, at: SourcePosition): never {
    throw new CorefileSyntaxError(code, reason, at, this.filename);
  }

  private warn(code: CorefileWarningCode, reason: string, at: SourcePosition): void {
    this.warnings.push(makeWarning(code, reason, at, this.filename));
  }

  /** CoreDNS's message when input ends where `}` is still expected. */
  private failExpectingClose(): never {
    this.fail('expected-closing-brace', `Syntax error: Unexpected token '${this.lastText}', expecting '}'`, this.lastPosition());
  }

  // ── top level ────────────────────────────────────────────────────────────────────────────────

  private topLevelItem(): CorefileItem {
    const leadingComments = this.takePending(true);
    const { line, column } = this.scan;
    const server = new ParsedServerBlock(NO_STRINGS, NO_DIRECTIVES, line, column);
    if (leadingComments.length > 0) {
      server.leadingComments = leadingComments;
      if (line - this.lastContentLine >= 2) server.blankLineBefore = true;
    }
    this.setOwner(server, 'trailingComment');
    if (this.scan.text === 'import' && this.atNewLine()) return this.topLevelImport({ line, column }, server);

    const atEnd = this.keys(server);
    if (atEnd) return server;
    const onlyKey = server.keys[0];
    if (server.keys.length === 1 && onlyKey !== undefined && onlyKey.startsWith('(') && onlyKey.endsWith(')')) {
      return this.snippet(onlyKey.slice(1, -1), server.position, server);
    }
    if (this.scan.text === '{') {
      const { line: openLine, column: openColumn } = this.scan;
      if (server.keys.length === 0) server.moveTo(openLine, openColumn);
      this.consume();
      this.directiveList(server, 'server', openLine, openColumn);
    } else {
      this.warn('block-without-braces', 'this server block has no braces: every following line belongs to it, up to a line starting with }', this.here());
      this.directiveList(server, 'server', 0, 0);
    }
    if (server.keys.length === 0) this.warn('block-without-keys', 'this block has no keys (only empty ones): CoreDNS ignores it', server.position);
    return server;
  }

  private topLevelImport(at: SourcePosition, trivia: ParsedServerBlock): ImportStatement {
    const statement: Mutable<ImportStatement> = { kind: 'import', pattern: '', position: at };
    copyTrivia(trivia, statement);
    this.consume();
    this.setOwner(statement, 'trailingComment');
    statement.pattern = this.importPattern(at);
    statement.patternPosition = this.lastPosition();
    if (this.peekText() === '{') {
      this.fail(
        'unsupported-construct',
        "a block right after a top-level import takes its keys from the imported file, which is never expanded here; write the keys before '{'",
        this.here(),
      );
    }
    return statement;
  }

  /** CoreDNS's checks for `import PATTERN` (the `import` word at `at` is consumed). */
  private importPattern(at: SourcePosition): string {
    if (!this.sameLineFollows()) this.fail('invalid-import', "Wrong argument count or unexpected line ending after 'import'", at);
    const patternAt = this.here();
    const pattern = this.consume();
    if (pattern === '') this.fail('invalid-import', 'Import requires a non-empty filepath', patternAt);
    if (pattern === '{' || pattern === '}') {
      this.fail('invalid-import', `Unexpected token '${pattern}', expecting a file, glob or snippet name to import`, patternAt);
    }
    if (this.sameLineFollows()) this.fail('invalid-import', 'Import takes only one argument (glob pattern or file)', this.here());
    return pattern;
  }

  /**
   * The key list, CoreDNS style: words on the first line; a trailing comma asks for another key,
   * possibly on a later line; empty words are skipped. Stops before `{` or the next line's word.
   * Sets `server.keys` (and `position`, `keyPositions`); returns true at the end of the input.
   */
  private keys(server: ParsedServerBlock): boolean {
    const start = this.wordTop;
    const positionStart = this.positionTop;
    let expectingAnother = false;
    let atEnd = false;
    let firstKey = true;
    for (;;) {
      const text = this.scan.text;
      if (text === '{') {
        if (expectingAnother) this.fail('extra-comma', "Expected another address but had '{' - check for extra comma", this.here());
        break;
      }
      if (text === 'import' && expectingAnother && this.atNewLine()) {
        this.fail('unsupported-construct', 'an import inside a list of server keys takes keys from a file that is never expanded here', this.here());
      }
      const { line, column, slot } = this.scan;
      this.consume();
      if (text === '') {
        this.warn('empty-key', 'an empty key ("") is dropped', { line, column });
      } else {
        let key = text;
        expectingAnother = key.endsWith(',');
        if (expectingAnother) key = key.slice(0, -1);
        if (key === '') this.warn('empty-key', "a lone ',' makes an empty key, which CoreDNS rejects as a zone", { line, column });
        if (key.includes(',')) this.warn('comma-inside-key', `'${key}' is one key: only a comma at the end of a key separates keys`, { line, column });
        if (key === '}') this.warn('closing-brace-as-key', "a '}' outside any block became a server key named '}'", { line, column });
        if (firstKey) server.moveTo(line, column);
        firstKey = false;
        this.pushText(key === text ? slot : -1, key);
        if (this.tokenPositions) this.pushPosition({ line, column });
      }
      if (!this.peek()) {
        if (expectingAnother) this.fail('unexpected-eof', 'Unexpected EOF (a key list ending in a comma needs another key)', { line, column });
        atEnd = true;
        break;
      }
      if (!expectingAnother && this.atNewLine()) break;
    }
    server.keys = this.takeWords(start, positionStart);
    if (this.tokenPositions) server.keyPositions = this.takenPositions as SourcePosition[];
    return atEnd;
  }

  private snippet(name: string, at: SourcePosition, trivia: ParsedServerBlock): SnippetDefinition {
    if (this.snippets.has(name)) this.fail('snippet-redeclared', `redeclaration of previously declared snippet ${name}`, at);
    const opening = this.here();
    if (this.scan.text !== '{') this.fail('expected-opening-brace', `Syntax error: Unexpected token '${this.scan.text}', expecting '{'`, opening);
    this.snippets.add(name);
    const snippet: MutableSnippet = { kind: 'snippet', name, directives: NO_DIRECTIVES, position: at };
    copyTrivia(trivia, snippet);
    this.setOwner(snippet, 'trailingComment');
    this.consume();
    const recorded: RecordedWord[] = [];
    this.recorded = recorded;
    this.directiveList(snippet, 'snippet', opening.line, opening.column);
    this.recorded = undefined;
    recorded.pop(); // the closing brace
    const importWord = recorded[findSelfImport(name, recorded)];
    if (importWord !== undefined) {
      this.fail('snippet-self-import', `snippet '${name}' imports itself (CoreDNS: maximum snippet import depth exceeded)`, { line: importWord.line, column: importWord.column });
    }
    return snippet;
  }

  // ── blocks and directives ────────────────────────────────────────────────────────────────────

  /**
   * The directives of a server block or snippet body, up to its closing `}` (consumed), nested
   * blocks included. `openLine` and `openColumn` are the position of the body's `{`; `openLine`
   * is 0 for a braceless server block, which ends at end of input or a line-initial `}`.
   *
   * Nesting is read without recursion, so that depth is bounded only by the input: the
   * directives whose nested block is open wait on the `open…` stacks, one entry per level, and
   * the loop goes on with the innermost list. A `}` there closes it and resumes its directive
   * (which may take more words, or another block, after the `}`).
   */
  private directiveList(list: MutableDirectiveList, context: Context, openLine: number, openColumn: number): void {
    const listStart = this.directiveTop;
    const nestedContext: Context = context === 'snippet' ? 'snippet' : 'nested';
    for (;;) {
      const depth = this.depth;
      const innerContext = depth === 0 ? context : nestedContext;
      if (!this.peek()) {
        if (depth > 0) this.endOfInput(nestedContext, (this.openBlocks[depth - 1] as ParsedBlock).position);
        if (openLine !== 0) this.endOfInput(context, { line: openLine, column: openColumn });
        break;
      }
      const text = this.scan.text;
      if (text === '}') {
        if (depth === 0) {
          list.directives = this.takeDirectives(listStart);
          // A `}` sharing the last line of a server block or snippet is invisible to plugins.
          this.closeList(list, false);
          return;
        }
        this.closeBlock();
        this.resumeDirective(depth === 1 ? context : nestedContext);
        continue;
      }
      if (text === '{') {
        if (innerContext === 'server') this.fail('unknown-directive', "Unknown directive '{'", this.here());
        this.fail('unsupported-construct', "a block cannot start with '{': CoreDNS hands that brace to the plugin as a property name", this.here());
      }
      if (text === 'import' && innerContext !== 'server' && !this.atNewLine()) {
        this.fail(
          'unsupported-construct',
          "'import' right after '{' on the same line is not an import in CoreDNS (the plugin reads it as a word); put it on its own line",
          this.here(),
        );
      }
      this.directive(innerContext, this.directiveTop === (depth === 0 ? listStart : (this.openListStarts[depth - 1] as number)));
    }
    list.directives = this.takeDirectives(listStart);
  }

  /** The directives pushed since `start`, as an exact-length list; the stack shrinks back. */
  private takeDirectives(start: number): Directive[] {
    const top = this.directiveTop;
    if (top === start) return NO_DIRECTIVES;
    this.directiveTop = start;
    return listOf(this.directiveStack, start, top);
  }

  /** End of input inside a braced list (a braceless block simply ends). */
  private endOfInput(context: Context, opening: SourcePosition): void {
    if (context === 'snippet') this.failExpectingClose();
    if (context === 'nested') {
      this.fail('unexpected-eof', `Unexpected EOF (the '{' at line ${opening.line}, column ${opening.column} is never closed)`, this.lastPosition());
    }
    // A server block may end without `}` when its last token closed a nested block.
    if (this.lastText !== '}' || (this.lastLine === opening.line && this.lastColumn === opening.column)) this.failExpectingClose();
    this.warn('missing-closing-brace', "this server block has no closing '}': the nested block's '}' ends it", opening);
  }

  /**
   * Consumes a list's `}`. `onLastLine`: it shares the line of the list's last token, which only
   * a nested block records (plugins read that `}` as one more argument).
   */
  private closeList(list: MutableDirectiveList, onLastLine: boolean): void {
    const closeAt = onLastLine || this.tokenPositions ? this.here() : undefined;
    if (this.tokenPositions && closeAt !== undefined) list.closePosition = closeAt;
    this.consume();
    const endComments = this.takePending(list.directives.length === 0);
    if (endComments.length > 0) list.endComments = endComments;
    if (onLastLine && list.directives.length > 0) {
      (list as MutableBlock).closedOnLastLine = true;
      this.warn('closing-brace-after-tokens', "this '}' shares a line with other tokens: plugins read it as one more argument", closeAt as SourcePosition);
    } else {
      this.setOwner(list, 'closingComment');
    }
  }

  /**
   * One directive: its name and the words on its line. Pushed on the directive stack when it
   * ends; when a `{` opens a nested block, its node is made then (the block is its last
   * constructor argument) and waits on the `open…` stacks until the block closes.
   */
  private directive(context: Context, firstInList: boolean): void {
    const leadingComments = this.takePending(firstInList);
    const { line, column } = this.scan;
    const name = this.scan.text;
    const blankLineBefore = (leadingComments.length > 0 || !firstInList) && line - this.lastContentLine >= 2;
    this.consume();
    // Comments on the directive's line wait in a holder until the node exists (it is built with
    // all its fields at once: that keeps the many directive objects small).
    const { slots } = this;
    slots.trailingComment = undefined;
    this.setOwner(slots, 'trailingComment');
    if (context === 'server' && this.knownDirectives !== undefined && !this.knownDirectives.has(name) && !isExempt(name)) {
      this.fail('unknown-directive', `Unknown directive '${name}'`, { line, column });
    }
    const start = this.wordTop;
    const positionStart = this.positionTop;
    const isImport = name === 'import' && context !== 'snippet';
    if (isImport) {
      const at = { line, column };
      if (this.tokenPositions) this.pushPosition(this.sameLineFollows() ? this.here() : at);
      const slot = this.sameLineFollows() ? this.scan.slot : -1;
      this.pushText(slot, this.importPattern(at));
    }
    let opensBlock = false;
    while (this.peek()) {
      const text = this.scan.text;
      const newLine = this.atNewLine();
      if (text === '{') {
        if (newLine && isImport && context === 'server') this.fail('unknown-directive', "Unknown directive '{'", this.here());
        opensBlock = true;
        break;
      }
      if (newLine) break;
      if (text === '}') {
        if (context === 'server') this.fail('unexpected-closing-brace', "Unexpected '}' because no matching opening brace", this.here());
        break;
      }
      this.pushWord();
    }
    const words = this.takeWords(start, positionStart);
    let directive: ParsedDirective | ParsedDirectiveWithBlock;
    let block: ParsedBlock | undefined;
    if (opensBlock) {
      block = new ParsedBlock(NO_DIRECTIVES, this.scan.line, this.scan.column);
      directive = new ParsedDirectiveWithBlock(name, words, block, line, column);
    } else {
      directive = new ParsedDirective(name, words, line, column);
    }
    if (leadingComments.length > 0) directive.leadingComments = leadingComments;
    const trailingComment = slots.trailingComment;
    if (trailingComment !== undefined) {
      directive.trailingComment = trailingComment;
      slots.trailingComment = undefined;
    }
    if (blankLineBefore) directive.blankLineBefore = true;
    if (this.tokenPositions) directive.argumentPositions = this.takenPositions as SourcePosition[];
    if (this.ownerNode === slots) this.ownerNode = directive;
    if (block === undefined) {
      this.directiveStack[this.directiveTop++] = directive;
      return;
    }
    this.openDirectives[this.depth] = directive as ParsedDirectiveWithBlock;
    this.openTails[this.depth] = undefined;
    this.openBlock(block);
  }

  /**
   * Goes on with the directive whose nested block just closed (the innermost open one): words
   * after the `}` on its line, or another block. Pushes the directive when it ends.
   */
  private resumeDirective(context: Context): void {
    const depth = this.depth;
    const directive = this.openDirectives[depth] as ParsedDirectiveWithBlock;
    let tail = this.openTails[depth];
    while (this.peek()) {
      const text = this.scan.text;
      const newLine = this.atNewLine();
      if (text === '{') {
        if (newLine && context === 'server' && directive.name === 'import') this.fail('unknown-directive', "Unknown directive '{'", this.here());
        const block = new ParsedBlock(NO_DIRECTIVES, this.scan.line, this.scan.column);
        if (tail !== undefined && tail.block === undefined) {
          tail.block = block;
        } else {
          const next: MutableAfterBlock = { arguments: [], block };
          if (tail === undefined) directive.afterBlock = next;
          else tail.afterBlock = next;
          tail = next;
        }
        this.openTails[depth] = tail;
        this.openBlock(block);
        return;
      }
      if (newLine) break;
      if (text === '}') {
        if (context === 'server') this.fail('unexpected-closing-brace', "Unexpected '}' because no matching opening brace", this.here());
        break;
      }
      // Words after a nested block's `}` on the same line.
      const argumentAt = this.here();
      if (tail === undefined || tail.block !== undefined) {
        this.warn('tokens-after-closing-brace', `'${text}' follows a '}' on the same line: CoreDNS adds it to the directive after the block`, argumentAt);
        const next: MutableAfterBlock = { arguments: [] };
        if (tail === undefined) directive.afterBlock = next;
        else tail.afterBlock = next;
        tail = next;
      }
      tail.arguments.push(this.consume());
      if (this.tokenPositions) (tail.argumentPositions ??= []).push(argumentAt);
    }
    this.directiveStack[this.directiveTop++] = directive;
  }

  /**
   * Consumes the `{` of `block` (at the scanner) and makes it the innermost open list.
   *
   * When the token after `{` shares its line (`firstTokenOnOpeningLine`), the block has no line of
   * its own for comments written before that `{`, and the model would hold them where the printer
   * cannot put them back. Comments are not read by CoreDNS; they are moved to the nearest line end
   * before the `{`:
   * - comment lines between the previous line and a `{` that starts a line join the comment at the
   *   end of that previous line (`a` / `# c` / `{ }` prints `a # c` / `{ }`);
   * - a comment inside the `{` line before the `{` (`a#b { }`: a `#` inside a word starts a comment
   *   that ends at the next separator), or after a `{` that starts a line and before the line's next
   *   token (`{#c }`), moves past the tokens of that line: it joins the next comment slot the line
   *   has (the first directive's, or the `}`'s of an empty block).
   */
  private openBlock(block: ParsedBlock): void {
    const { line, column } = this.scan;
    const openedOnNewLine = this.atNewLine();
    const previousLineEnd = { node: this.ownerNode, field: this.ownerField };
    this.consume();
    if (openedOnNewLine) {
      block.openedOnNewLine = true;
      this.setOwner(block, 'openingComment');
      this.warn('brace-on-own-line', "this '{' starts a line: CoreDNS accepts it, but plugins only see a block whose '{' ends the directive's line", { line, column });
    }
    // Plugins can see whether the token after `{` shares its line (NextArg does): kept.
    if (this.sameLineFollows()) {
      block.firstTokenOnOpeningLine = true;
      if (openedOnNewLine) {
        if (this.pendingTop > 0 && previousLineEnd.node !== undefined) {
          const { node, field } = previousLineEnd;
          for (const comment of this.takePending(false)) node[field] = joinedComment(node[field], comment);
        }
        // A comment after the `{` and before a token of the same line (`{#c }`: a `#` inside a word
        // ends at the next separator) has no line end of its own: it moves past the line's tokens too.
        const opening = block.openingComment;
        if (opening !== undefined) {
          delete block.openingComment;
          this.carriedComment = joinedComment(this.carriedComment, opening);
        }
      } else {
        const node = this.ownerNode;
        const earlier = node?.[this.ownerField];
        if (node !== undefined && earlier !== undefined && earlier.position?.line === line) {
          node[this.ownerField] = undefined;
          this.carriedComment = earlier;
        }
      }
    }
    const depth = this.depth;
    this.openBlocks[depth] = block;
    this.openListStarts[depth] = this.directiveTop;
    this.depth = depth + 1;
  }

  /** Consumes the `}` of the innermost open block, which gets its directives. */
  private closeBlock(): void {
    const depth = this.depth - 1;
    const block = this.openBlocks[depth] as ParsedBlock;
    block.directives = this.takeDirectives(this.openListStarts[depth] as number);
    this.closeList(block, !this.atNewLine());
    this.depth = depth;
  }
}

/**
 * CoreDNS ≥ 1.13 refuses a snippet whose body has an `import` at a line start (start lines
 * compared, as CoreDNS does) followed by the snippet's own name. Index of that `import`, or -1.
 */
export function findSelfImport(name: string, body: readonly { readonly text: string; readonly line: number }[]): number {
  for (let index = 0; index + 1 < body.length; index += 1) {
    const word = body[index] as { readonly text: string; readonly line: number };
    const previous = body[index - 1];
    const atLineStart = previous === undefined || previous.line !== word.line;
    if (word.text === 'import' && atLineStart && body[index + 1]?.text === name) return index;
  }
  return -1;
}

/** Two comments of one line as one, the way a line's second `#` joins its first (`a #b #c`). */
function joinedComment(first: Comment | undefined, second: Comment | undefined): Comment | undefined {
  if (first === undefined || second === undefined) return first ?? second;
  return { text: `${first.text} #${second.text}`, ...(first.position === undefined ? {} : { position: first.position }) };
}

function withoutBlankLine(comment: Comment): Comment {
  const { blankLineBefore: _dropped, ...rest } = comment;
  return rest;
}

/** `import` is not a plugin; a name holding a placeholder is only known once CoreDNS expands it. */
function isExempt(name: string): boolean {
  return name === 'import' || name.includes('{$') || name.includes('{%');
}

function copyTrivia(from: ParsedServerBlock, to: MutableTopLevel): void {
  if (from.leadingComments !== undefined) to.leadingComments = from.leadingComments;
  if (from.trailingComment !== undefined) to.trailingComment = from.trailingComment;
  if (from.blankLineBefore === true) to.blankLineBefore = true;
}
