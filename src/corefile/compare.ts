import { checkArgument, checkCorefileModel } from '../errors/arguments.js';
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
  checkArgument('comparableCorefile', 'corefile', corefile, 'object');
  checkCorefileModel('comparableCorefile', 'corefile', corefile);
  return {
    items: corefile.items.map(comparableItem),
    endComments: comments(corefile.endComments, false),
  };
}

/**
 * True when `a` and `b` are equal in the sense above: the same verdict as comparing their
 * {@link comparableCorefile} values, reached by walking both models side by side, without
 * building anything (the translator's self-check compares models of thousands of blocks).
 */
export function corefilesEqual(a: Corefile, b: Corefile): boolean {
  checkArgument('corefilesEqual', 'a', a, 'object');
  checkCorefileModel('corefilesEqual', 'a', a);
  checkArgument('corefilesEqual', 'b', b, 'object');
  checkCorefileModel('corefilesEqual', 'b', b);
  return sameItems(a.items, b.items) && sameComments(a.endComments, b.endComments, false);
}

const NO_COMMENTS: readonly Comment[] = [];

/**
 * {@link corefilesEqual} in pieces, for a caller that compares a model with a text parsed item by
 * item (the translator's self-check): top-level items `a` and `b` are equal. Not part of the API.
 */
export function itemsEqual(a: CorefileItem, b: CorefileItem): boolean {
  return sameItem(a, b);
}

/** {@link corefilesEqual} in pieces: the comments after the last item (`endComments`) are equal. Not part of the API. */
export function endCommentsEqual(a: readonly Comment[] | undefined, b: readonly Comment[] | undefined): boolean {
  return sameComments(a, b, false);
}

function sameItems(a: readonly CorefileItem[], b: readonly CorefileItem[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (!sameItem(a[index] as CorefileItem, b[index] as CorefileItem)) return false;
  return true;
}

function sameItem(a: CorefileItem, b: CorefileItem): boolean {
  if (a.kind !== b.kind) return false;
  const leadingA = a.leadingComments ?? NO_COMMENTS;
  const leadingB = b.leadingComments ?? NO_COMMENTS;
  if (!sameComments(leadingA, leadingB, false) || !sameComment(a.trailingComment, b.trailingComment)) return false;
  if ((leadingA.length > 0 && a.blankLineBefore === true) !== (leadingB.length > 0 && b.blankLineBefore === true)) return false;
  switch (a.kind) {
    case 'import':
      return a.pattern === (b as typeof a).pattern;
    case 'snippet':
      return a.name === (b as typeof a).name && sameDirectiveList(a, b as typeof a);
    case 'server-block':
      return sameStrings(a.keys, (b as typeof a).keys) && sameDirectiveList(a, b as typeof a);
  }
}

/**
 * Two directive lists with everything under them. Nested blocks are walked without recursion:
 * pairs of lists still to compare wait on a stack, so depth is bounded only by the models.
 */
function sameDirectiveList(a: DirectiveList, b: DirectiveList): boolean {
  const pending: DirectiveList[] = [a, b];
  while (pending.length > 0) {
    const listB = pending.pop() as DirectiveList;
    const listA = pending.pop() as DirectiveList;
    const { directives } = listA;
    if (directives.length !== listB.directives.length) return false;
    for (let index = 0; index < directives.length; index += 1) {
      if (!sameDirective(directives[index] as Directive, listB.directives[index] as Directive, index === 0, pending)) return false;
    }
    if (!sameComments(listA.endComments, listB.endComments, directives.length > 0) || !sameComment(listA.closingComment, listB.closingComment)) return false;
  }
  return true;
}

/** Compares a directive's own line and layout; pushes its pairs of blocks on `pending`. */
function sameDirective(a: Directive, b: Directive, first: boolean, pending: DirectiveList[]): boolean {
  if (a.name !== b.name || !sameStrings(a.arguments, b.arguments)) return false;
  const leadingA = a.leadingComments ?? NO_COMMENTS;
  const leadingB = b.leadingComments ?? NO_COMMENTS;
  if (!sameComments(leadingA, leadingB, !first) || !sameComment(a.trailingComment, b.trailingComment)) return false;
  if (((!first || leadingA.length > 0) && a.blankLineBefore === true) !== ((!first || leadingB.length > 0) && b.blankLineBefore === true)) return false;
  let segmentA: Directive | AfterBlock | undefined = a;
  let segmentB: Directive | AfterBlock | undefined = b;
  while (segmentA !== undefined && segmentB !== undefined) {
    if ((segmentA.block === undefined) !== (segmentB.block === undefined)) return false;
    if (segmentA.block !== undefined) {
      if (!sameBlockLayout(segmentA.block, segmentB.block as Block)) return false;
      pending.push(segmentA.block, segmentB.block as Block);
    }
    segmentA = segmentA.afterBlock;
    segmentB = segmentB.afterBlock;
    if (segmentA === undefined || segmentB === undefined) return segmentA === segmentB;
    if (!sameStrings(segmentA.arguments, segmentB.arguments)) return false;
  }
  return true;
}

/** The block's own flags and opening comment (its directives are compared as a list). */
function sameBlockLayout(a: Block, b: Block): boolean {
  return (
    (a.openedOnNewLine === true) === (b.openedOnNewLine === true) &&
    sameComment(a.openingComment, b.openingComment) &&
    (a.firstTokenOnOpeningLine === true) === (b.firstTokenOnOpeningLine === true) &&
    (a.closedOnLastLine === true && a.directives.length > 0) === (b.closedOnLastLine === true && b.directives.length > 0)
  );
}

function sameStrings(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

function sameComments(a: readonly Comment[] | undefined, b: readonly Comment[] | undefined, firstCanBeBlank: boolean): boolean {
  const listA = a ?? NO_COMMENTS;
  const listB = b ?? NO_COMMENTS;
  if (listA.length !== listB.length) return false;
  for (let index = 0; index < listA.length; index += 1) {
    const entryA = listA[index] as Comment;
    const entryB = listB[index] as Comment;
    if (trimTrailingSeparators(entryA.text) !== trimTrailingSeparators(entryB.text)) return false;
    const canBeBlank = index > 0 || firstCanBeBlank;
    if ((entryA.blankLineBefore === true && canBeBlank) !== (entryB.blankLineBefore === true && canBeBlank)) return false;
  }
  return true;
}

function sameComment(a: Comment | undefined, b: Comment | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return trimTrailingSeparators(a.text) === trimTrailingSeparators(b.text);
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

/**
 * The comparable form of a directive list. Built without recursion (depth is bounded only by the
 * model): each block's form is made empty, linked into its parent, and filled when its turn
 * comes on the `pending` stack.
 */
function directiveList(list: DirectiveList): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  const pending: [DirectiveList, Record<string, unknown>][] = [[list, root]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [source, target] = next;
    target['directives'] = source.directives.map((directive, index) => comparableDirective(directive, index === 0, pending));
    target['endComments'] = comments(source.endComments, source.directives.length > 0);
    target['closing'] = comment(source.closingComment);
  }
  return root;
}

function comparableDirective(directive: Directive, first: boolean, pending: [DirectiveList, Record<string, unknown>][]): unknown {
  const leading = comments(directive.leadingComments, !first);
  const result: Record<string, unknown> = {
    name: directive.name,
    arguments: [...directive.arguments],
    leading,
    trailing: comment(directive.trailingComment),
    blank: (!first || leading.length > 0) && directive.blankLineBefore === true,
  };
  let target = result;
  let segment: Directive | AfterBlock = directive;
  for (;;) {
    if (segment.block !== undefined) target['block'] = comparableBlock(segment.block, pending);
    const after: AfterBlock | undefined = segment.afterBlock;
    if (after === undefined) return result;
    const next: Record<string, unknown> = { arguments: [...after.arguments] };
    target['afterBlock'] = next;
    target = next;
    segment = after;
  }
}

/** A block's form, its directive list left to fill (pushed on `pending`). */
function comparableBlock(block: Block, pending: [DirectiveList, Record<string, unknown>][]): unknown {
  const form: Record<string, unknown> = {};
  pending.push([block, form]);
  form['openedOnNewLine'] = block.openedOnNewLine === true;
  form['opening'] = comment(block.openingComment);
  form['firstTokenOnOpeningLine'] = block.firstTokenOnOpeningLine === true;
  form['closedOnLastLine'] = block.closedOnLastLine === true && block.directives.length > 0;
  return form;
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
