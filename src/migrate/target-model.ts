/**
 * The migrated Corefile's model for the target check (target-check.ts), built from the parse the
 * migration already made instead of parsing the whole result again: a migration rewrites a few
 * lines, so most top-level items of the result are items of the input, line for line. Those are
 * taken as they are; only the runs of lines around them that the migration wrote (or that hold no
 * kept item) are parsed, on their own (`parseCorefileLines`).
 *
 * The items of the model therefore count lines in two ways: a kept item keeps the input's line
 * numbers, and an item parsed anew counts the result's lines plus {@link TargetModel.offset}
 * (larger than any line of the input), so that a position says which text it is in. The target
 * check maps each finding back through {@link TargetModel.outputLine}, and lint prints other
 * nodes' lines in messages through the same function (`lintCorefileModel`'s `lineNumber`), so
 * the findings are those of a lint of the whole result (the property test in
 * test/migrate/target-check.property.test.ts compares the two on random migrations).
 *
 * Where taking items over could read differently from parsing the whole result, there is no model
 * (`undefined`) and the target check parses the result: an item without a closing brace (a
 * braceless block runs to the end of the file), two items on one line, a rewritten run that does
 * not parse on its own or whose last item is not closed, a snippet name defined twice (a parse
 * error across items), a line in a rewritten run starting with U+FEFF (dropped only as the text's
 * first character), and more syntax warnings than lint lists per code (which of them are listed
 * depends on their order).
 *
 * Pure: no Node APIs.
 */
import type { CorefileWarning } from '../corefile/errors.js';
import type { Corefile, CorefileItem } from '../corefile/model.js';
import { parseCorefileLines } from '../corefile/parser.js';
import type { ParseResult } from '../corefile/parser.js';
import { FINDINGS_LISTED_PER_CODE } from '../lint/context.js';
import type { SourcePosition } from '../util/source-position.js';
import type { EditedText } from './text-edits.js';

export interface TargetModel {
  readonly corefile: Corefile;
  readonly warnings: readonly CorefileWarning[];
  /** Lines of items parsed anew are the result's lines plus this; lines below it are the input's (kept items). */
  readonly offset: number;
  /** The line of the result a position of the model is on. */
  outputLine(line: number): number;
}

/** Offsets of the lines of `text` (1-based line `n` starts at `starts[n - 1]`), and one more: the end. */
function lineStarts(text: string, count: number): Int32Array {
  const starts = new Int32Array(count + 1);
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && line < count; at = text.indexOf('\n', at + 1)) starts[line++] = at + 1;
  starts[count] = text.length;
  return starts;
}

/** Only spaces, tabs and line breaks (a `\r` counts only before `\n`): nothing the parser reads or warns about. */
function blank(text: string, start: number, end: number): boolean {
  for (let at = start; at < end; at += 1) {
    const code = text.charCodeAt(at);
    if (code === 0x20 || code === 0x09 || code === 0x0a) continue;
    if (code === 0x0d && text.charCodeAt(at + 1) === 0x0a) continue;
    return false;
  }
  return true;
}

/** The lines of the top-level items of a parse, or undefined when they cannot be taken over (see the module comment). */
function itemRanges(items: readonly CorefileItem[]): ItemRange[] | undefined {
  const ranges: ItemRange[] = new Array(items.length);
  for (let index = 0; index < items.length; index += 1) {
    const range = itemLines(items[index] as CorefileItem);
    if (range === undefined || !follows(ranges[index - 1], range)) return undefined;
    ranges[index] = range;
  }
  return ranges;
}

/** The first and last line of a top-level item. */
export interface ItemRange {
  readonly first: number;
  readonly last: number;
}

/** The lines of `item` when it can be taken over (see the module comment), else undefined. */
export function itemLines(item: CorefileItem): ItemRange | undefined {
  const first = item.position?.line;
  if (first === undefined) return undefined;
  if (item.kind === 'import') {
    if (item.pattern.includes('\n')) return undefined;
    return { first, last: item.patternPosition?.line ?? first };
  }
  const last = item.closePosition?.line;
  return last === undefined ? undefined : { first, last };
}

/** Whether an item on lines `range` can follow one on `before`: not on the same line. */
export function follows(before: ItemRange | undefined, range: ItemRange): boolean {
  return before === undefined || before.last < range.first;
}

/** What {@link walkTarget} hands over, in the result's order; each answers false when the walk must stop (the whole result is then parsed). */
export interface TargetVisitor {
  /** The input's item `index`, kept as written. */
  kept(index: number): boolean;
  /** An item of a rewritten run, parsed anew (lines counted from the result's plus the offset). */
  parsed(item: CorefileItem): boolean;
}

/**
 * The result's top-level items, in order, as the input's items the edits kept (by index into
 * `ranges`, the input items' lines) and items parsed anew from the rewritten runs between them,
 * with the result's parser warnings (`warnings`: the input's); undefined where the whole result
 * must be parsed (see the module comment) or where `visit` stopped the walk.
 */
export function walkTarget(
  ranges: readonly ItemRange[],
  inputWarnings: readonly CorefileWarning[],
  inputLines: number,
  output: string,
  edited: EditedText,
  visit: TargetVisitor,
): { readonly warnings: CorefileWarning[]; readonly offset: number } | undefined {
  const offset = inputLines + 2;
  // The input's warnings of each item, in their order.
  const itemWarnings = new Map<number, CorefileWarning[]>();
  for (const warning of inputWarnings) {
    const line = warning.position.line;
    let low = 0;
    let high = ranges.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((ranges[middle] as ItemRange).first <= line) low = middle;
      else high = middle - 1;
    }
    const range = ranges[low];
    if (range === undefined || line < range.first || line > range.last) continue;
    const list = itemWarnings.get(low);
    if (list === undefined) itemWarnings.set(low, [warning]);
    else list.push(warning);
  }

  const starts = lineStarts(output, edited.lineCount);
  const warnings: CorefileWarning[] = [];
  /** Parses result lines `first..last` on their own; false when they cannot be taken so. */
  const rewritten = (first: number, last: number): boolean => {
    if (last < first) return true;
    const start = starts[first - 1] as number;
    const end = starts[last] as number;
    if (blank(output, start, end)) return true;
    const text = output.slice(start, end);
    if (first > 1 && text.charCodeAt(0) === 0xfeff) return false;
    let parsed: ParseResult;
    try {
      parsed = parseCorefileLines(text, first + offset, { tokenPositions: true });
    } catch {
      return false;
    }
    for (const item of parsed.corefile.items) {
      if (itemLines(item) === undefined || !visit.parsed(item)) return false;
    }
    for (const warning of parsed.warnings) warnings.push(warning);
    return true;
  };
  let next = 1;
  for (let index = 0; index < ranges.length; index += 1) {
    const range = ranges[index] as ItemRange;
    const at = edited.keptAt(range.first, range.last);
    if (at === undefined || at < next) continue;
    if (!rewritten(next, at - 1) || !visit.kept(index)) return undefined;
    for (const warning of itemWarnings.get(index) ?? []) warnings.push(warning);
    next = at + (range.last - range.first) + 1;
  }
  if (!rewritten(next, edited.lineCount)) return undefined;
  if (warnings.length >= FINDINGS_LISTED_PER_CODE) return undefined;
  return { warnings, offset };
}

/**
 * The model of `output` (the input's text with `edited`'s edits made) for the target check, or
 * undefined where the whole result must be parsed (see the module comment).
 */
export function targetModel(input: ParseResult, inputLines: number, output: string, edited: EditedText): TargetModel | undefined {
  const items = input.corefile.items;
  const ranges = itemRanges(items);
  if (ranges === undefined) return undefined;
  const model: CorefileItem[] = [];
  const walked = walkTarget(ranges, input.warnings, inputLines, output, edited, {
    kept: (index) => model.push(items[index] as CorefileItem) > 0,
    parsed: (item) => model.push(item) > 0,
  });
  if (walked === undefined) return undefined;
  const snippets = new Set<string>();
  for (const item of model) {
    if (item.kind !== 'snippet') continue;
    if (snippets.has(item.name)) return undefined;
    snippets.add(item.name);
  }
  const { warnings, offset } = walked;
  const outputLine = (line: number): number => (line >= offset ? line - offset : (edited.keptAt(line, line) ?? line));
  return { corefile: { items: model }, warnings, offset, outputLine };
}

/** `lineNumber` for lint over a {@link TargetModel}: the result's line of a position. */
export function outputLineNumber(model: TargetModel): (position: SourcePosition) => number {
  return (position) => model.outputLine(position.line);
}
