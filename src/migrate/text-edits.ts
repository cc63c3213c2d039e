/**
 * Editing a Corefile's text by lines, so that every line migration does not touch stays byte for
 * byte as it was (comments, blank lines, indentation, quoting, line endings). The migration reads
 * the model (parser positions say where each node sits) and asks for whole-line edits here;
 * nothing is re-printed.
 *
 * Pure: no Node APIs.
 */

/** One planned change: lines `first..last` (1-based, inclusive) replaced by `lines`; `last = first - 1` inserts before `first`. */
interface LineEdit {
  readonly first: number;
  readonly last: number;
  readonly lines: readonly string[];
  /** Among edits at the same place, lower goes first (insertions after a node keep their order). */
  readonly order: number;
}

/** The lines `first..last` (1-based, inclusive) of the original text a line of the edited text comes from. */
export interface SourceLines {
  readonly first: number;
  readonly last: number;
}

/** Two planned edits touch the same line: a bug of the planner (it edits each line once). */
class OverlappingEditError extends Error {
  override readonly name = 'OverlappingEditError';
}

/**
 * The result of {@link LineEditor.applyWithSourceLines}: the edited text, and for each of its lines
 * the lines of the original text it comes from (looked up on demand: a large migration has tens of
 * thousands of lines, and only a failed target check asks).
 */
export interface EditedText {
  readonly text: string;
  /** The number of lines of `text`. */
  readonly lineCount: number;
  /** For line `line` (1-based) of `text`: itself when kept, the replaced lines for a line of a replacement, the line before (at least 1) for an insertion. */
  source(line: number): SourceLines | undefined;
  /**
   * Where original lines `first..last` are in `text` when they are kept as one run (no line of
   * them edited, nothing inserted between them): the line of `first` there; else undefined.
   */
  keptAt(first: number, last: number): number | undefined;
}

/** A run of lines of the edited text: kept from the original (`kept`), or written by one edit. */
interface Segment {
  /** The first line of the run in the edited text (1-based). */
  readonly start: number;
  /** Kept: the original lines of the run. Else the source lines of the edit. */
  readonly kept: boolean;
  readonly first: number;
  readonly last: number;
}

/**
 * A Corefile text with the edits planned on it. Lines are read from the text where they are (line
 * starts are kept, not the lines), and lines no edit touches are copied as runs of the original
 * text: a migration reads few lines and keeps most.
 */
export class LineEditor {
  private readonly text: string;
  /** Offset of each line's first character, and one more entry: the end of the text. */
  private readonly starts: Int32Array;
  private readonly count: number;
  /** The line ending of the text (`\r\n` when its first line ends so), used for inserted lines. */
  readonly eol: string;
  /** Whether the text ends with a line break. */
  private readonly finalBreak: boolean;
  private readonly edits: LineEdit[] = [];

  constructor(text: string) {
    this.text = text;
    this.eol = /\r\n/.test(text.slice(0, (text.indexOf('\n') + 1) || text.length)) ? '\r\n' : '\n';
    this.finalBreak = text.endsWith('\n');
    // One pass over the line breaks (a large Corefile has tens of thousands), into a store that
    // doubles when full (keeping a slot for the end): entry n is where line n + 1 starts.
    let starts = new Int32Array(Math.max(16, text.length >> 5));
    let breaks = 0;
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
      breaks += 1;
      if (breaks + 1 >= starts.length) {
        const larger = new Int32Array(starts.length * 2);
        larger.set(starts);
        starts = larger;
      }
      starts[breaks] = at + 1;
    }
    this.count = text === '' ? 0 : this.finalBreak ? breaks : breaks + 1;
    starts[this.count] = text.length;
    this.starts = starts;
  }

  get lineCount(): number {
    return this.count;
  }

  /** Line `line` (1-based), without its line ending. */
  line(line: number): string {
    if (line < 1 || line > this.count) return '';
    return this.text.slice(this.starts[line - 1], this.lineEnd(line));
  }

  /** Where line `line` (1..count) ends, before its line ending. */
  private lineEnd(line: number): number {
    const start = this.starts[line - 1] as number;
    let end = this.starts[line] as number;
    if (line < this.count || this.finalBreak) end -= 1;
    if (end > start && this.text.charCodeAt(end - 1) === 0x0d) end -= 1;
    return end;
  }

  /** Whether the first `length` characters of line `line` (fewer when it is shorter) are spaces and tabs. */
  blankBefore(line: number, length: number): boolean {
    if (line < 1 || line > this.count) return true;
    const start = this.starts[line - 1] as number;
    const end = Math.min(start + length, this.lineEnd(line));
    for (let at = start; at < end; at += 1) {
      const code = this.text.charCodeAt(at);
      if (code !== 0x20 && code !== 0x09) return false;
    }
    return true;
  }

  /** The whitespace a line starts with. */
  indentation(line: number): string {
    return /^[ \t]*/.exec(this.line(line))?.[0] ?? '';
  }

  replace(first: number, last: number, lines: readonly string[]): void {
    this.edits.push({ first, last, lines, order: this.edits.length });
  }

  remove(first: number, last: number): void {
    this.replace(first, last, []);
  }

  /** Inserts `lines` after line `line` (0: at the top). */
  insertAfter(line: number, lines: readonly string[]): void {
    this.edits.push({ first: line + 1, last: line, lines, order: this.edits.length });
  }

  /** How many edits were asked for so far. */
  get editCount(): number {
    return this.edits.length;
  }

  get changed(): boolean {
    return this.edits.length > 0;
  }

  /**
   * The text with every edit made.
   *
   * @throws {OverlappingEditError} when two edits replace the same line.
   */
  apply(): string {
    return this.applyWithSourceLines().text;
  }

  /**
   * The text with every edit made, and where each of its lines comes from ({@link EditedText}).
   * Every line not edited keeps its own ending; inserted lines end with the text's; a line that
   * is no longer the last one gets a line break, and the last one ends as the text did.
   *
   * @throws {OverlappingEditError} when two edits replace the same line.
   */
  applyWithSourceLines(): EditedText {
    const sorted = [...this.edits].sort((a, b) => a.first - b.first || a.order - b.order);
    const { text, starts, count, eol } = this;
    // Each run ends with its last line and that line's ending as pieces of their own, so that the
    // last line of the result can be given the ending the text had (see the end).
    const pieces: string[] = [];
    const segments: Segment[] = [];
    let written = 0;
    /** The ending the last line written had in its source (the text's, for a written line). */
    let lastEnding = '';
    const keep = (first: number, last: number): void => {
      if (last < first) return;
      segments.push({ start: written + 1, kept: true, first, last });
      written += last - first + 1;
      if (last > first) pieces.push(text.slice(starts[first - 1], starts[last - 1]));
      const line = this.line(last);
      const ending = text.slice((starts[last - 1] as number) + line.length, starts[last]);
      pieces.push(line, ending.endsWith('\n') ? ending : eol);
      lastEnding = ending;
    };
    let coveredUpTo = 0;
    let next = 1;
    for (const edit of sorted) {
      if (edit.last >= edit.first) {
        if (edit.first <= coveredUpTo) throw new OverlappingEditError(`lines ${edit.first}–${edit.last} are edited twice`);
        coveredUpTo = edit.last;
      } else if (edit.first <= coveredUpTo) {
        throw new OverlappingEditError(`an insertion at line ${edit.first} falls inside a replaced range`);
      }
      if (next < edit.first) keep(next, Math.min(edit.first - 1, count));
      if (edit.lines.length > 0) {
        const first = edit.last >= edit.first ? edit.first : Math.max(1, edit.first - 1);
        const last = edit.last >= edit.first ? edit.last : first;
        segments.push({ start: written + 1, kept: false, first, last });
        written += edit.lines.length;
        for (const line of edit.lines) pieces.push(line, eol);
        lastEnding = eol;
      }
      next = Math.max(next, edit.first, edit.last + 1);
    }
    if (next <= count) keep(next, count);
    // The last line ends as the text did: with its own ending when the text ended with a break,
    // else without one (or with the lone `\r` the text ended with).
    if (written > 0 && !this.finalBreak) pieces[pieces.length - 1] = lastEnding.endsWith('\n') ? '' : lastEnding;
    const kept = segments.filter((segment) => segment.kept);
    return {
      text: pieces.join(''),
      lineCount: written,
      source: (line: number): SourceLines | undefined => {
        if (line < 1 || line > written) return undefined;
        // The last segment starting at or before `line`.
        let low = 0;
        let high = segments.length - 1;
        while (low < high) {
          const middle = (low + high + 1) >> 1;
          if ((segments[middle] as Segment).start <= line) low = middle;
          else high = middle - 1;
        }
        const segment = segments[low] as Segment;
        if (!segment.kept) return { first: segment.first, last: segment.last };
        const original = segment.first + (line - segment.start);
        return { first: original, last: original };
      },
      keptAt: (first: number, last: number): number | undefined => {
        // The last kept run starting at or before `first` (kept runs follow the original's order).
        let low = 0;
        let high = kept.length - 1;
        if (high < 0 || (kept[0] as Segment).first > first) return undefined;
        while (low < high) {
          const middle = (low + high + 1) >> 1;
          if ((kept[middle] as Segment).first <= first) low = middle;
          else high = middle - 1;
        }
        const run = kept[low] as Segment;
        return last <= run.last ? run.start + (first - run.first) : undefined;
      },
    };
  }
}
