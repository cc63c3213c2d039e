import type { AfterBlock, Block, Comment, Directive, ServerBlock } from './model.js';
import type { SourcePosition } from '../util/source-position.js';

/**
 * The node objects the parser builds for the three node kinds a large Corefile consists of
 * (server blocks, directives, nested blocks). They are the model's plain interfaces, except that
 * `position` is computed from one small integer held in a private field instead of being an
 * object of its own: a 10 MB Corefile has a million nodes, and on small VMs every byte kept costs
 * time (the garbage collector copies the model, and the kernel hands out its pages one by one).
 *
 * Consequences, all harmless for a read-only model: `position` is an accessor (not an own
 * property, so `{...node}` and `JSON.stringify` leave it out) and returns a fresh object.
 * Hand-built models may use plain objects with a `position` property instead.
 */

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A line and column packed into one small integer (`line * 2048 + column`) when the line is
 * below 2^20 and the column below 2^11, so that it stays a V8 small integer stored inside the
 * node; otherwise a position object (very long lines or files).
 */
export type PackedPosition = number | SourcePosition;

const COLUMN_BITS = 11;
const COLUMN_LIMIT = 1 << COLUMN_BITS;
const LINE_LIMIT = 1 << 20;

export function packPosition(line: number, column: number): PackedPosition {
  return line < LINE_LIMIT && column < COLUMN_LIMIT ? line * COLUMN_LIMIT + column : { line, column };
}

export function unpackPosition(packed: PackedPosition): SourcePosition {
  return typeof packed === 'number' ? { line: packed >> COLUMN_BITS, column: packed & (COLUMN_LIMIT - 1) } : { line: packed.line, column: packed.column };
}

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
  #at: PackedPosition;

  constructor(keys: readonly string[], directives: readonly Directive[], line: number, column: number) {
    this.keys = keys;
    this.directives = directives;
    this.#at = packPosition(line, column);
  }

  get position(): SourcePosition {
    return unpackPosition(this.#at);
  }

  moveTo(line: number, column: number): void {
    this.#at = packPosition(line, column);
  }
}

/** A directive without a block (most of them): no room is kept for one. */
export class ParsedDirective implements Mutable<Directive> {
  name: string;
  arguments: readonly string[];
  declare block?: Block;
  declare afterBlock?: AfterBlock;
  declare leadingComments?: readonly Comment[];
  declare trailingComment?: Comment;
  declare blankLineBefore?: boolean;
  declare argumentPositions?: readonly SourcePosition[];
  readonly #at: PackedPosition;

  constructor(name: string, argumentList: readonly string[], line: number, column: number) {
    this.name = name;
    this.arguments = argumentList;
    this.#at = packPosition(line, column);
  }

  get position(): SourcePosition {
    return unpackPosition(this.#at);
  }
}

/**
 * A directive with a nested block (`block` is its third own property, as on plain objects). Not a
 * subclass of {@link ParsedDirective}: a derived constructor is not inlined as well.
 */
export class ParsedDirectiveWithBlock implements Mutable<Directive> {
  name: string;
  arguments: readonly string[];
  block: Block;
  declare afterBlock?: AfterBlock;
  declare leadingComments?: readonly Comment[];
  declare trailingComment?: Comment;
  declare blankLineBefore?: boolean;
  declare argumentPositions?: readonly SourcePosition[];
  readonly #at: PackedPosition;

  constructor(name: string, argumentList: readonly string[], block: Block, line: number, column: number) {
    this.name = name;
    this.arguments = argumentList;
    this.block = block;
    this.#at = packPosition(line, column);
  }

  get position(): SourcePosition {
    return unpackPosition(this.#at);
  }
}

export class ParsedBlock implements Mutable<Block> {
  directives: readonly Directive[];
  declare endComments?: readonly Comment[];
  declare closingComment?: Comment;
  declare closePosition?: SourcePosition;
  declare openedOnNewLine?: boolean;
  declare openingComment?: Comment;
  declare firstTokenOnOpeningLine?: boolean;
  declare closedOnLastLine?: boolean;
  readonly #at: PackedPosition;

  constructor(directives: readonly Directive[], line: number, column: number) {
    this.directives = directives;
    this.#at = packPosition(line, column);
  }

  get position(): SourcePosition {
    return unpackPosition(this.#at);
  }
}
