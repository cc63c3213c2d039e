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

/** A Corefile text split into lines, with the edits planned on it. */
export class LineEditor {
  private readonly lines: string[];
  /** Each line's own ending (`\n`, `\r\n`; for a last line without a line feed: `''` or `\r`), kept for the lines not edited. */
  private readonly endings: string[];
  /** The line ending of the text (`\r\n` when its first line ends so), used for inserted lines. */
  readonly eol: string;
  /** Whether the text ends with a line break. */
  private readonly finalBreak: boolean;
  private readonly edits: LineEdit[] = [];

  constructor(text: string) {
    this.eol = /\r\n/.test(text.slice(0, (text.indexOf('\n') + 1) || text.length)) ? '\r\n' : '\n';
    this.finalBreak = text.endsWith('\n');
    this.lines = [];
    this.endings = [];
    if (text === '') return;
    const parts = text.split('\n');
    if (this.finalBreak) parts.pop();
    parts.forEach((part, index) => {
      const cr = part.endsWith('\r');
      this.lines.push(cr ? part.slice(0, -1) : part);
      const last = index === parts.length - 1 && !this.finalBreak;
      this.endings.push(last ? (cr ? '\r' : '') : cr ? '\r\n' : '\n');
    });
  }

  get lineCount(): number {
    return this.lines.length;
  }

  /** Line `line` (1-based), without its line ending. */
  line(line: number): string {
    return this.lines[line - 1] ?? '';
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
   * The text with every edit made, and for each of its lines (index 0: line 1) the lines of the
   * original text it comes from: itself when kept, the replaced lines for a line of a replacement,
   * the line before (at least 1) for an insertion.
   *
   * @throws {OverlappingEditError} when two edits replace the same line.
   */
  applyWithSourceLines(): { readonly text: string; readonly sourceLines: readonly SourceLines[] } {
    const sorted = [...this.edits].sort((a, b) => a.first - b.first || a.order - b.order);
    let coveredUpTo = 0;
    const out: string[] = [];
    const endings: string[] = [];
    const sourceLines: SourceLines[] = [];
    let next = 1;
    const keep = (line: number): void => {
      out.push(this.lines[line - 1] ?? '');
      endings.push(this.endings[line - 1] ?? this.eol);
      sourceLines.push({ first: line, last: line });
    };
    for (const edit of sorted) {
      if (edit.last >= edit.first) {
        if (edit.first <= coveredUpTo) throw new OverlappingEditError(`lines ${edit.first}–${edit.last} are edited twice`);
        coveredUpTo = edit.last;
      } else if (edit.first <= coveredUpTo) {
        throw new OverlappingEditError(`an insertion at line ${edit.first} falls inside a replaced range`);
      }
      while (next < edit.first) keep(next++);
      const source = edit.last >= edit.first ? { first: edit.first, last: edit.last } : { first: Math.max(1, edit.first - 1), last: Math.max(1, edit.first - 1) };
      for (const line of edit.lines) {
        out.push(line);
        endings.push(this.eol);
        sourceLines.push(source);
      }
      next = Math.max(next, edit.last + 1);
    }
    while (next <= this.lines.length) keep(next++);
    // A line that is no longer the last one needs a line break; the last one ends as the text did.
    let text = '';
    out.forEach((line, index) => {
      const ending = endings[index] ?? this.eol;
      if (index < out.length - 1) text += line + (ending.endsWith('\n') ? ending : this.eol);
      else text += line + (this.finalBreak ? (ending.endsWith('\n') ? ending : this.eol) : ending.endsWith('\n') ? '' : ending);
    });
    return { text, sourceLines };
  }
}
