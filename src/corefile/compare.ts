import { trimTrailingSeparators } from './lexer.js';
import type { AfterBlock, Block, Comment, Corefile, CorefileItem, Directive, DirectiveList } from './model.js';

/**
 * Equality of Corefile models: what the round-trip laws mean by "equal".
 *
 * Two models are equal when they print the same, i.e. when they agree on every token's text, the
 * order of everything, comment texts (trailing whitespace aside), where comments are attached,
 * blank lines where a blank line can be printed, and the layout flags. Not compared: source
 * positions, `blankLineBefore` where it cannot show (first element of a block, first comment of a
 * top-level item or of the file's end comments), `closedOnLastLine` on an empty block, and an
 * absent optional list versus an empty one.
 */

/** A plain, position-free value that is deep-equal for equal models (and JSON-serialisable). */
export function comparableCorefile(corefile: Corefile): unknown {
  return {
    items: corefile.items.map(comparableItem),
    endComments: comments(corefile.endComments, false),
  };
}

/** True when `a` and `b` are equal in the sense above. */
export function corefilesEqual(a: Corefile, b: Corefile): boolean {
  return JSON.stringify(comparableCorefile(a)) === JSON.stringify(comparableCorefile(b));
}

function comparableItem(item: CorefileItem): unknown {
  const leading = comments(item.leadingComments, false);
  const trivia = {
    leading,
    trailing: comment(item.trailingComment),
    blank: leading.length > 0 && item.blankLineBefore === true,
  };
  switch (item.kind) {
    case 'import':
      return { kind: item.kind, pattern: item.pattern, ...trivia };
    case 'snippet':
      return { kind: item.kind, name: item.name, ...trivia, ...directiveList(item) };
    case 'server-block':
      return { kind: item.kind, keys: [...item.keys], ...trivia, ...directiveList(item) };
  }
}

function directiveList(list: DirectiveList): Record<string, unknown> {
  return {
    directives: list.directives.map((directive, index) => comparableDirective(directive, index === 0)),
    endComments: comments(list.endComments, list.directives.length > 0),
    closing: comment(list.closingComment),
  };
}

function comparableDirective(directive: Directive, first: boolean): unknown {
  const leading = comments(directive.leadingComments, !first);
  return {
    name: directive.name,
    arguments: [...directive.arguments],
    leading,
    trailing: comment(directive.trailingComment),
    blank: (!first || leading.length > 0) && directive.blankLineBefore === true,
    ...rest(directive),
  };
}

function rest(segment: Directive | AfterBlock): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  if (segment.block !== undefined) result['block'] = comparableBlock(segment.block);
  if (segment.afterBlock !== undefined) {
    result['afterBlock'] = { arguments: [...segment.afterBlock.arguments], ...rest(segment.afterBlock) };
  }
  return result;
}

function comparableBlock(block: Block): unknown {
  return {
    ...directiveList(block),
    openedOnNewLine: block.openedOnNewLine === true,
    opening: comment(block.openingComment),
    closedOnLastLine: block.closedOnLastLine === true && block.directives.length > 0,
  };
}

function comments(list: readonly Comment[] | undefined, firstCanBeBlank: boolean): unknown[] {
  return (list ?? []).map((entry, index) => ({
    text: trimTrailingSeparators(entry.text),
    blank: entry.blankLineBefore === true && (index > 0 || firstCanBeBlank),
  }));
}

function comment(entry: Comment | undefined): string | null {
  return entry === undefined ? null : trimTrailingSeparators(entry.text);
}
