import { CHOMPING_MODE, EVENT_ID, SCALAR_STYLE } from 'js-yaml';
import type { Event } from 'js-yaml';
import { PositionCursor } from '../util/source-position.js';
import type { ValueLocation } from '../util/source-position.js';

/**
 * Where a character of a ConfigMap `data` value is written in the YAML (or JSON) file: the value
 * `{"a": [1.2.3.4]}` read from a `|` block, a quoted or a plain scalar has lost its indentation,
 * its quotes' escapes and its folded line breaks, so a position inside the value (Go's JSON
 * decoder reports one) is not one in the file. This traces each character of the value back to
 * the source text that made it, following YAML 1.2's rules for the five scalar styles as js-yaml
 * reads them:
 *
 * - a character copied from the source maps to itself;
 * - an escape of a double-quoted scalar (`\"`, `\t`, `\u00e9`, `\U0001f600`) and a quoted `''`
 *   map to the escape's first character;
 * - a space or line feed made by folding (line breaks of plain and quoted scalars, of a `>`
 *   block) and the line feeds of a `|` block map to the line break in the source they stand for.
 *
 * A value written as an alias (`*name`) is traced in the scalar its anchor (`&name`) marks. The
 * trace is checked against the value the reader produced: when the two differ (a scalar this
 * does not know how to read) the location is the value's start, marked not exact, and so is the
 * location of a key brought in by a merge key (`<<`): the data mapping's start.
 */

/**
 * One run of the decoded value: `length` units from `decoded` on, made from the source at
 * `source`. A copy maps unit k to `source + k`; a made unit (an escape, a folded break) maps every
 * unit to `source`, and spans `width` source units.
 */
interface Run {
  readonly decoded: number;
  readonly source: number;
  readonly length: number;
  /** 0 for a copy; the source width of the escape or break for a made unit. */
  readonly width: number;
}

/** The decoded text of a scalar with the run each part of it came from. */
class Trace {
  readonly runs: Run[] = [];
  private readonly pieces: string[] = [];
  private length = 0;

  constructor(private readonly input: string) {}

  copy(start: number, end: number): void {
    if (end <= start) return;
    this.runs.push({ decoded: this.length, source: start, length: end - start, width: 0 });
    this.pieces.push(this.input.slice(start, end));
    this.length += end - start;
  }

  made(text: string, source: number, width: number): void {
    if (text === '') return;
    this.runs.push({ decoded: this.length, source, length: text.length, width });
    this.pieces.push(text);
    this.length += text.length;
  }

  /** `count` line feeds, at the last `count` of `breaks` (the line breaks they stand for). */
  breaks(count: number, breaks: readonly number[]): void {
    for (let index = 0; index < count; index += 1) {
      const at = breaks[Math.min(breaks.length - 1, Math.max(0, breaks.length - count) + index)] ?? 0;
      this.made('\n', at, lineBreakWidth(this.input, at));
    }
  }

  /** One line break folded into a space; n > 1 give n − 1 line feeds (for the empty lines). */
  fold(breaks: readonly number[]): void {
    const [first] = breaks;
    if (first === undefined) return;
    if (breaks.length === 1) this.made(' ', first, lineBreakWidth(this.input, first));
    else this.breaks(breaks.length - 1, breaks.slice(1));
  }

  text(): string {
    return this.pieces.join('');
  }
}

function lineBreakWidth(input: string, at: number): number {
  return input.charCodeAt(at) === CR && input.charCodeAt(at + 1) === LF ? 2 : 1;
}

const LF = 10;
const CR = 13;
const SPACE = 32;
const TAB = 9;
const BACKSLASH = 92;
const QUOTE = 39;

/** Line breaks and blanks from `position`: YAML folds them into one space or line feeds. */
function foldedBreaks(input: string, position: number, end: number): { readonly position: number; readonly breaks: number[] } {
  const breaks: number[] = [];
  let at = position;
  while (at < end) {
    const ch = input.charCodeAt(at);
    if (ch === LF) {
      breaks.push(at);
      at += 1;
    } else if (ch === CR) {
      breaks.push(at);
      at += input.charCodeAt(at + 1) === LF ? 2 : 1;
    } else if (ch === SPACE || ch === TAB) at += 1;
    else break;
  }
  return { position: at, breaks };
}

/** The escapes of a double-quoted scalar that stand for one character. */
const SIMPLE_ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0',
  a: '\x07',
  b: '\b',
  t: '\t',
  '\t': '\t',
  n: '\n',
  v: '\v',
  f: '\f',
  r: '\r',
  e: '\x1b',
  ' ': ' ',
  '"': '"',
  '/': '/',
  '\\': '\\',
  N: '\x85',
  _: '\xa0',
  L: '\u2028',
  P: '\u2029',
};

const HEX_ESCAPE_DIGITS: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };

type Flow = 'plain' | 'single' | 'double';

/** Plain and quoted scalars: folded line breaks, `''` and backslash escapes. */
function traceFlow(input: string, start: number, end: number, style: Flow, trace: Trace): void {
  let position = start;
  let captureStart = start;
  let captureEnd = start;
  while (position < end) {
    const ch = input.charCodeAt(position);
    if (style === 'single' && ch === QUOTE) {
      trace.copy(captureStart, position);
      trace.made("'", position, 2);
      position += 2;
      captureStart = captureEnd = position;
    } else if (style === 'double' && ch === BACKSLASH) {
      trace.copy(captureStart, position);
      const escapeStart = position;
      position += 1;
      const escaped = input[position] ?? '';
      if (escaped === '\n' || escaped === '\r') {
        position = foldedBreaks(input, position, end).position;
      } else if (SIMPLE_ESCAPES[escaped] !== undefined) {
        position += 1;
        trace.made(SIMPLE_ESCAPES[escaped], escapeStart, position - escapeStart);
      } else {
        const digits = HEX_ESCAPE_DIGITS[escaped] ?? 8;
        const code = Number.parseInt(input.slice(position + 1, position + 1 + digits), 16);
        position += 1 + digits;
        trace.made(Number.isNaN(code) || code > 0x10ffff ? '\ufffd' : String.fromCodePoint(code), escapeStart, position - escapeStart);
      }
      captureStart = captureEnd = position;
    } else if (ch === LF || ch === CR) {
      trace.copy(captureStart, captureEnd);
      const folded = foldedBreaks(input, position, end);
      trace.fold(folded.breaks);
      position = captureStart = captureEnd = folded.position;
    } else {
      position += 1;
      if (ch !== SPACE && ch !== TAB) captureEnd = position;
    }
  }
  // A plain scalar ends at its last non-blank character; a quoted one keeps its last blanks.
  trace.copy(captureStart, style === 'plain' ? captureEnd : end);
}

/** `|` and `>` blocks: indentation taken off, line breaks kept or folded, the end chomped. */
function traceBlock(input: string, start: number, end: number, indent: number, chomping: number, folded: boolean, trace: Trace): void {
  const textIndent = indent < 0 ? 0 : indent;
  let didReadContent = false;
  let atMoreIndented = false;
  /**
   * The line breaks since the last content: the one ending it, then those of the empty lines (a
   * last line without a break counts as ending at the end).
   */
  let pending: number[] = [];
  let lineStart = start;
  while (lineStart < end) {
    let lineEnd = lineStart;
    while (lineEnd < end && input.charCodeAt(lineEnd) !== LF && input.charCodeAt(lineEnd) !== CR) lineEnd += 1;
    const breakWidth = lineEnd < end ? lineBreakWidth(input, lineEnd) : 0;
    let column = 0;
    while (column < textIndent && lineStart + column < lineEnd && input.charCodeAt(lineStart + column) === SPACE) column += 1;
    if (indent < 0 || lineStart + column >= lineEnd) {
      pending.push(lineEnd);
      lineStart = lineEnd + (breakWidth || 1);
      continue;
    }
    const contentStart = lineStart + textIndent;
    const emptyLines = didReadContent ? pending.length - 1 : pending.length;
    const first = input.charCodeAt(contentStart);
    if (folded) {
      if (first === SPACE || first === TAB) {
        atMoreIndented = true;
        trace.breaks(didReadContent ? 1 + emptyLines : emptyLines, pending);
      } else if (atMoreIndented) {
        atMoreIndented = false;
        trace.breaks(emptyLines + 1, pending);
      } else if (emptyLines === 0) {
        const [ending] = pending;
        if (didReadContent && ending !== undefined) trace.made(' ', ending, lineBreakWidth(input, ending));
      } else {
        trace.breaks(emptyLines, pending);
      }
    } else {
      trace.breaks(didReadContent ? 1 + emptyLines : emptyLines, pending);
    }
    trace.copy(contentStart, lineEnd);
    didReadContent = true;
    pending = [lineEnd];
    lineStart = lineEnd + (breakWidth || 1);
  }
  const emptyLines = didReadContent ? pending.length - 1 : pending.length;
  if (chomping === CHOMPING_MODE.KEEP) trace.breaks(didReadContent ? 1 + emptyLines : emptyLines, pending);
  else if (chomping !== CHOMPING_MODE.STRIP && didReadContent) trace.breaks(1, pending.slice(0, 1));
}

/** The runs of a scalar, and its text as traced. */
function traceScalar(input: string, event: Extract<Event, { type: typeof EVENT_ID.SCALAR }>): { readonly runs: readonly Run[]; readonly text: string } {
  const trace = new Trace(input);
  const { valueStart: start, valueEnd: end } = event;
  if (start >= 0) {
    if (event.fast) trace.copy(start, end);
    else if (event.style === SCALAR_STYLE.LITERAL_BLOCK || event.style === SCALAR_STYLE.FOLDED_BLOCK) {
      traceBlock(input, start, end, event.indent, event.chomping, event.style === SCALAR_STYLE.FOLDED_BLOCK, trace);
    } else {
      traceFlow(input, start, end, event.style === SCALAR_STYLE.SINGLE_QUOTED ? 'single' : event.style === SCALAR_STYLE.DOUBLE_QUOTED ? 'double' : 'plain', trace);
    }
  }
  return { runs: trace.runs, text: trace.text() };
}

/**
 * The source offsets of a scalar's value: `offsetOf(k)` is where the value's UTF-16 unit `k` is
 * written; past the last unit, just after the last character written (a trailing line feed of a
 * block, which stands for the line's end, is skipped: an error at the end of the value points at
 * the end of its text, not at the next line).
 */
export interface ScalarSourceMap {
  /** False when the scalar's text as traced is not `value` (see the module comment). */
  readonly exact: boolean;
  offsetOf(offset: number): number;
}

/**
 * Traces the scalar `event` of `input`, whose value as the reader decoded it is `value`. When the
 * trace does not give `value`, every offset maps to the scalar's start (`exact` false).
 */
export function scalarSourceMap(input: string, event: Extract<Event, { type: typeof EVENT_ID.SCALAR }>, value: string): ScalarSourceMap {
  const { runs, text } = traceScalar(input, event);
  const start = Math.max(0, event.valueStart);
  if (text !== value) return { exact: false, offsetOf: () => start };
  return {
    exact: true,
    offsetOf(offset: number): number {
      if (runs.length === 0) return start;
      if (offset >= value.length) return endOfText(runs, value);
      const run = runs[findRun(runs, Math.max(0, offset))] as Run;
      return run.width === 0 ? run.source + (offset - run.decoded) : run.source;
    },
  };
}

/** The index of the run holding decoded unit `offset` (runs are in decoded order, without gaps). */
function findRun(runs: readonly Run[], offset: number): number {
  let low = 0;
  let high = runs.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if ((runs[middle] as Run).decoded <= offset) low = middle;
    else high = middle - 1;
  }
  return low;
}

/** Just after the last source character of the value that is not a trailing line feed. */
function endOfText(runs: readonly Run[], value: string): number {
  let offset = value.length;
  while (offset > 0 && value.charCodeAt(offset - 1) === LF) offset -= 1;
  const last = offset === 0 ? value.length - 1 : offset - 1;
  const run = runs[findRun(runs, last)] as Run;
  return run.width === 0 ? run.source + (last - run.decoded) + 1 : run.source + run.width;
}

/** A lazily built map from (data key, offset in its value) to a place in the file. */
export class DataValueLocator {
  private readonly maps = new Map<string, ScalarSourceMap>();
  private cursor: PositionCursor | undefined;

  /**
   * `scalarOf(key)`: the scalar event of the key's value in `source`, or the offset of what is
   * written there instead (an alias, the data mapping for a key a merge key brought in).
   */
  constructor(
    private readonly source: string,
    private readonly filename: string,
    private readonly data: Readonly<Record<string, string>>,
    private readonly scalarOf: (key: string) => Extract<Event, { type: typeof EVENT_ID.SCALAR }> | number | undefined,
  ) {}

  /** Where unit `offset` of data key `key`'s value is written; undefined for a key the data does not have. */
  locate(key: string, offset: number): ValueLocation | undefined {
    const value = this.data[key];
    if (value === undefined || !Object.hasOwn(this.data, key)) return undefined;
    let map = this.maps.get(key);
    if (map === undefined) {
      const scalar = this.scalarOf(key);
      if (scalar === undefined) return undefined;
      map = typeof scalar === 'number' ? { exact: false, offsetOf: () => scalar } : scalarSourceMap(this.source, scalar, value);
      this.maps.set(key, map);
    }
    this.cursor ??= new PositionCursor(this.source);
    const { line, column } = this.cursor.positionAt(map.offsetOf(offset));
    return { filename: this.filename, line, column, exact: map.exact };
  }
}

