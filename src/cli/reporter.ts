import { diagnostic, formatDiagnostic, LISTED_PER_CODE, worseSeverity } from '../diagnostics/diagnostic.js';
import type { Diagnostic, Severity } from '../diagnostics/diagnostic.js';
import { printable } from '../util/printable-text.js';
import { writePrettyJson } from '../util/pretty-json.js';
import type { CliIo, OutputStream } from './io.js';

/** Lines are written in chunks of about this many characters, not one `write` (a system call) each. */
const CHUNK_CHARACTERS = 48 * 1024;

/** How much the text output says (docs/cli.md, "Options of every command"). */
export interface ReportLevel {
  /** `-q, --quiet`: warnings and errors only — no infos, notes or summaries. */
  readonly quiet: boolean;
  /** `--verbose`: each diagnostic is followed by the hint of its code (`  hint: …`). */
  readonly verbose: boolean;
}

/**
 * How every command writes what it found, in text or JSON: diagnostics (`severity code key: message`),
 * `warning:`/`note:` lines and summaries, filtered by `--quiet` and explained by `--verbose`. JSON
 * documents are written whole: `--quiet` only shortens the text for people.
 */
export class Reporter {
  constructor(
    private readonly io: CliIo,
    readonly level: ReportLevel,
  ) {}

  /**
   * One line per diagnostic, on stderr (or `stream`); infos are left out with `--quiet`. At most
   * {@link LISTED_PER_CODE} of one code are listed; the rest of that code are counted in one
   * `findings-not-listed` line, last (as `lint` does with its findings): a Deployment with 200,000
   * dnsmasq flags made one line each, 33 MB of text nobody reads. JSON keeps them all.
   */
  diagnostics(entries: readonly Diagnostic[], stream: 'stdout' | 'stderr' = 'stderr'): void {
    const out = this.stream(stream);
    let chunk = '';
    const perCode = new Map<string, { count: number; worst: Severity }>();
    for (const entry of entries) {
      if (!this.shows(entry.severity)) continue;
      const seen = perCode.get(entry.code);
      if (seen === undefined) perCode.set(entry.code, { count: 1, worst: entry.severity });
      else if ((seen.count += 1) > LISTED_PER_CODE) {
        // The worst severity among those not listed.
        seen.worst = seen.count === LISTED_PER_CODE + 1 ? entry.severity : worseSeverity(seen.worst, entry.severity);
        continue;
      }
      chunk += this.line(entry);
      if (chunk.length >= CHUNK_CHARACTERS) {
        out.write(chunk);
        chunk = '';
      }
    }
    for (const [code, seen] of perCode) {
      if (seen.count <= LISTED_PER_CODE) continue;
      const more = seen.count - LISTED_PER_CODE;
      chunk += this.line(diagnostic('findings-not-listed', { severity: seen.worst, message: `${more.toLocaleString('en')} more ${code} diagnostics are not listed (${seen.count.toLocaleString('en')} in all; the first ${LISTED_PER_CODE.toLocaleString('en')} are; -o json lists them all)` }));
    }
    if (chunk !== '') out.write(chunk);
  }

  /** A diagnostic's text line, and its hint's with `--verbose`. */
  private line(entry: Diagnostic): string {
    const hint = this.level.verbose && entry.hint !== '' ? `  hint: ${printable(entry.hint)}\n` : '';
    return `${formatDiagnostic(entry)}\n${hint}`;
  }

  /** A `warning: …` line on stderr (kept with `--quiet`). */
  warning(message: string): void {
    this.io.stderr.write(`warning: ${printable(message)}\n`);
  }

  /** An `error: …` line on stderr (kept with `--quiet`). */
  error(message: string): void {
    this.io.stderr.write(`error: ${printable(message)}\n`);
  }

  /** A warning already written out (`FILE:LINE:COL: warning: …`), on stderr (kept with `--quiet`). */
  warningLine(line: string): void {
    this.io.stderr.write(`${printable(line)}\n`);
  }

  /** A `note: …` line on stderr; left out with `--quiet`. */
  note(message: string): void {
    if (!this.level.quiet) this.io.stderr.write(`note: ${printable(message)}\n`);
  }

  /** Text as it is, already printable (a summary line, a notes section), on stderr; left out with `--quiet`. */
  info(text: string): void {
    if (!this.level.quiet && text !== '') this.io.stderr.write(text);
  }

  /**
   * One JSON document on stdout, indented (JSON output is never shortened), written in chunks: a
   * large result (`migrate -o json` of a 16 MiB Corefile, a notice per line) makes more text than
   * one string can hold.
   */
  json(value: unknown): void {
    writePrettyJson(value, (chunk) => this.io.stdout.write(chunk));
    this.io.stdout.write('\n');
  }

  /** Whether a diagnostic of this severity is shown. */
  shows(severity: Severity): boolean {
    return !(this.level.quiet && severity === 'info');
  }

  private stream(name: 'stdout' | 'stderr'): OutputStream {
    return name === 'stdout' ? this.io.stdout : this.io.stderr;
  }
}
