import type { AfterBlock, Block, Comment, Directive, ServerBlock } from './model.js';
import type { SourcePosition } from '../util/source-position.js';

/**
 * The node objects the parser builds for the three node kinds a large Corefile consists of
 * (server blocks, directives, nested blocks). They are the model's plain interfaces, except that
 * `position` is computed from two numbers held in private fields instead of being an object of its
 * own: a 10 MB Corefile has a million nodes, and on small VMs every object kept costs time.
 *
 * Consequences, all harmless for a read-only model: `position` is an accessor (not an own
 * property, so `{...node}` and `JSON.stringify` leave it out) and returns a fresh object.
 * Hand-built models may use plain objects with a `position` property instead.
 */

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

export class ParsedServerBlock implements Mutable<ServerBlock> {
  readonly kind = 'server-block';
  keys: readonly string[];
  directives: readonly Directive[];
  declare leadingComments?: readonly Comment[];
  declare trailingComment?: Comment;
  declare blankLineBefore?: boolean;
  declare endComments?: readonly Comment[];
  declare closingComment?: Comment;
  declare closePosition?: SourcePosition;
  declare keyPositions?: readonly SourcePosition[];
  #line: number;
  #column: number;

  constructor(keys: readonly string[], directives: readonly Directive[], line: number, column: number) {
    this.keys = keys;
    this.directives = directives;
    this.#line = line;
    this.#column = column;
  }

  get position(): SourcePosition {
    return { line: this.#line, column: this.#column };
  }

  moveTo(line: number, column: number): void {
    this.#line = line;
    this.#column = column;
  }
}

export class ParsedDirective implements Mutable<Directive> {
  name: string;
  arguments: readonly string[];
  declare block?: Block;
  declare afterBlock?: AfterBlock;
  declare leadingComments?: readonly Comment[];
  declare trailingComment?: Comment;
  declare blankLineBefore?: boolean;
  declare argumentPositions?: readonly SourcePosition[];
  readonly #line: number;
  readonly #column: number;

  constructor(name: string, argumentList: readonly string[], block: Block | undefined, line: number, column: number) {
    this.name = name;
    this.arguments = argumentList;
    if (block !== undefined) this.block = block;
    this.#line = line;
    this.#column = column;
  }

  get position(): SourcePosition {
    return { line: this.#line, column: this.#column };
  }
}

export class ParsedBlock implements Mutable<Block> {
  directives: readonly Directive[];
  declare endComments?: readonly Comment[];
  declare closingComment?: Comment;
  declare closePosition?: SourcePosition;
  declare openedOnNewLine?: boolean;
  declare openingComment?: Comment;
  declare closedOnLastLine?: boolean;
  readonly #line: number;
  readonly #column: number;

  constructor(directives: readonly Directive[], line: number, column: number) {
    this.directives = directives;
    this.#line = line;
    this.#column = column;
  }

  get position(): SourcePosition {
    return { line: this.#line, column: this.#column };
  }
}
