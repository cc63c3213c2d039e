/**
 * Where a parsed node sits in the text, in whole lines: the lines a directive occupies, and
 * whether it has them to itself (so they can be removed or replaced without touching anything
 * else). Needs a model parsed with `tokenPositions`.
 *
 * Pure: no Node APIs.
 */
import type { Block, Directive, DirectiveList } from '../corefile/model.js';
import type { LineEditor } from './text-edits.js';

/** A directive's first and last line. */
export interface LineSpan {
  readonly first: number;
  readonly last: number;
}

function lineBreaks(token: string): number {
  if (!token.includes('\n')) return 0;
  let count = 0;
  for (const char of token) if (char === '\n') count += 1;
  return count;
}

/** The lines of `directive`, from its name to its last token (a block's `}`); undefined without positions. */
function directiveSpan(directive: Directive): LineSpan | undefined {
  const start = directive.position;
  if (start === undefined) return undefined;
  let last = start.line + lineBreaks(directive.name);
  const positions = directive.argumentPositions ?? [];
  const args = directive.arguments;
  for (let index = 0; index < args.length; index += 1) {
    const at = positions[index];
    if (at !== undefined) last = Math.max(last, at.line + lineBreaks(args[index] as string));
  }
  if (directive.block !== undefined) {
    const close = directive.block.closePosition;
    if (close === undefined) return undefined;
    last = Math.max(last, close.line);
  }
  if (directive.afterBlock !== undefined) return undefined;
  return { first: start.line, last };
}

/** The line of the next token after `directives[index]` inside `list` (a sibling, or the list's `}`). */
function nextTokenLine(list: DirectiveList, index: number): number | undefined {
  const next = list.directives[index + 1];
  if (next !== undefined) return next.leadingComments?.[0]?.position?.line ?? next.position?.line;
  return list.endComments?.[0]?.position?.line ?? list.closePosition?.line;
}

/** Whether the text before `column` (1-based, code points) on `line` is blank. */
function startsLine(editor: LineEditor, line: number, column: number): boolean {
  // Counting UTF-16 units is enough: a prefix that holds a character beyond U+FFFF is not blank
  // whichever way it is counted.
  return editor.blankBefore(line, column - 1);
}

/**
 * The lines of `list.directives[index]` when nothing else shares them (its name starts its line,
 * the next token starts on a later line, its block's braces sit as usual); else undefined.
 */
export function ownedSpan(editor: LineEditor, list: DirectiveList, index: number): LineSpan | undefined {
  const directive = list.directives[index];
  if (directive === undefined) return undefined;
  const span = directiveSpan(directive);
  const position = directive.position;
  if (span === undefined || position === undefined) return undefined;
  if (!startsLine(editor, position.line, position.column)) return undefined;
  const next = nextTokenLine(list, index);
  if (next === undefined || next <= span.last) return undefined;
  if (directive.block !== undefined && !blockLaidOutPlainly(editor, directive.block)) return undefined;
  return span;
}

/** A block whose `{` ends its directive's first line and whose `}` stands on its own line. */
function blockLaidOutPlainly(editor: LineEditor, block: Block): boolean {
  if (block.openedOnNewLine === true || block.firstTokenOnOpeningLine === true || block.closedOnLastLine === true) return false;
  const close = block.closePosition;
  return close !== undefined && startsLine(editor, close.line, close.column);
}
