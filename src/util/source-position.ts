/**
 * A 1-based line and column in a source text; columns count Unicode code points. `offset`, the
 * 0-based UTF-16 index into the text, is there where the producer knows it (errors of the Go JSON
 * decoder; the Corefile model's nodes have none).
 */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
  readonly offset?: number;
}

/**
 * A place in an input file for a place inside a value read from it (a ConfigMap data value): what
 * a diagnostic's `location` gives next to its `position` inside the value.
 */
export interface ValueLocation {
  /** The input's name (`FILE`, `<stdin>`). */
  readonly filename: string;
  /** 1-based line in the file. */
  readonly line: number;
  /** 1-based column in the file, in code points. */
  readonly column: number;
  /**
   * False when the character could not be traced to the file (an alias, a key brought in by a
   * merge key, a scalar read some other way): `line` and `column` are then where the value starts.
   */
  readonly exact: boolean;
}

/** Where the UTF-16 unit `offset` of data key `key`'s value is written in the file (`ConfigMapDocument.locate`). */
export type ValueLocator = (key: string, offset: number) => ValueLocation | undefined;

/**
 * Line and column of `offset` (a UTF-16 index into `text`). Only `\n` starts a new line, so CRLF
 * files count like LF files. Linear in `offset`; call it at error boundaries, not in hot loops.
 */
export function positionAt(text: string, offset: number): SourcePosition {
  return new PositionCursor(text).positionAt(offset);
}

/**
 * {@link positionAt} for many offsets into one text. It moves on from the offset it answered last
 * when the next one is not before it, so offsets asked in source order cost one pass over the text
 * in all (thousands of diagnostics in a large value stay linear); an earlier offset starts over.
 */
export class PositionCursor {
  private offset = 0;
  private line = 1;
  private column = 1;

  constructor(private readonly text: string) {}

  positionAt(offset: number): SourcePosition {
    const { text } = this;
    const end = Math.max(0, Math.min(offset, text.length));
    if (end < this.offset) {
      this.offset = 0;
      this.line = 1;
      this.column = 1;
    }
    let { line, column } = this;
    for (let index = this.offset; index < end; index += 1) {
      if (text.charCodeAt(index) === LINE_FEED) {
        line += 1;
        column = 1;
      } else if (!isTrailingSurrogate(text, index)) {
        column += 1;
      }
    }
    this.offset = end;
    this.line = line;
    this.column = column;
    return { line, column };
  }
}

const LINE_FEED = 0x0a;

/** `name:line:column: message`, the shape compilers and editors understand. */
export function formatAt(name: string, position: SourcePosition, message: string): string {
  return `${name}:${position.line}:${position.column}: ${message}`;
}

function isTrailingSurrogate(text: string, index: number): boolean {
  const unit = text.charCodeAt(index);
  if (unit < 0xdc00 || unit > 0xdfff || index === 0) return false;
  const previous = text.charCodeAt(index - 1);
  return previous >= 0xd800 && previous <= 0xdbff;
}

/**
 * The UTF-16 offset in `text` of a position {@link positionAt} gave (its own `offset` when it has
 * one); a position past a line's end or past the text is clamped to it.
 */
export function offsetAt(text: string, position: SourcePosition): number {
  if (position.offset !== undefined) return Math.max(0, Math.min(position.offset, text.length));
  let index = 0;
  for (let line = 1; line < position.line; line += 1) {
    const next = text.indexOf('\n', index);
    if (next === -1) return text.length;
    index = next + 1;
  }
  for (let column = 1; column < position.column && index < text.length && text.charCodeAt(index) !== LINE_FEED; column += 1) {
    index += isLeadingSurrogatePair(text, index) ? 2 : 1;
  }
  return index;
}

function isLeadingSurrogatePair(text: string, index: number): boolean {
  const unit = text.charCodeAt(index);
  return unit >= 0xd800 && unit <= 0xdbff && isTrailingSurrogate(text, index + 1);
}
