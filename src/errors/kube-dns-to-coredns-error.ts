import { formatAt } from '../util/source-position.js';
import type { SourcePosition } from '../util/source-position.js';

/**
 * The one error family of the package: every error it throws on purpose (or returns, like
 * `GoJsonError`) is a {@link KubeDnsToCoreDnsError}. A program catches the base class, tells the
 * cases apart by `code` (stable: never renamed, a closed union per class), reads `position`
 * when the problem sits somewhere in a text, and decides what to do by `category`.
 */

/**
 * What an error means for whoever handles it:
 * - `input`: the caller's input (a text, the data, an option) is unusable as given; changing the
 *   input is the fix. The CLI reports it and exits 2, never with a stack trace.
 * - `refused`: the input is usable, but the answer to the question asked is no (the routing of
 *   two configurations differs). The CLI would exit 1.
 * - `internal`: the package broke a promise of its own (a translated Corefile failed its
 *   self-check): a bug to report. The CLI says so and prints the stack trace for the report.
 */
export type ErrorCategory = 'input' | 'refused' | 'internal';

/** Where a problem sits, for the constructor of a {@link KubeDnsToCoreDnsError}. */
export interface ErrorLocation {
  /** The name of the text the position points into (`FILE`, `<stdin>`), when there is one. */
  readonly filename?: string | undefined;
  /** The place in that text: 1-based line and column, and the UTF-16 offset when known. */
  readonly position?: SourcePosition | undefined;
}

export interface KubeDnsToCoreDnsErrorOptions extends ErrorLocation {
  /**
   * The whole `message`, for the classes whose message is not `FILE:LINE:COL: reason` (texts
   * worded exactly like another program's). Default: {@link locatedMessage}.
   */
  readonly message?: string;
  readonly cause?: unknown;
}

/** Base class of every error of the package; see {@link ErrorCategory} for how to handle one. */
export abstract class KubeDnsToCoreDnsError extends Error {
  override readonly name: string = 'KubeDnsToCoreDnsError';
  /** How to handle it: see {@link ErrorCategory}. The same for every error of a class. */
  abstract readonly category: ErrorCategory;
  /** Which problem it is: stable, a closed union per class (narrowed by each subclass). */
  readonly code: string;
  /** The sentence without the location: `message` is this with `FILE:LINE:COL: ` in front, or more context. */
  readonly reason: string;
  /** Where in `filename` (or in the value or text the failing call read) the problem is. */
  readonly position: SourcePosition | undefined;
  /** The name of the text `position` points into, as the caller gave it (`filename` options). */
  readonly filename: string | undefined;

  protected constructor(code: string, reason: string, options: KubeDnsToCoreDnsErrorOptions = {}) {
    super(options.message ?? locatedMessage(reason, options), options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.reason = reason;
    this.position = options.position;
    this.filename = options.filename;
  }
}

/**
 * `reason` with its location in front, as compilers and editors print it: `FILE:LINE:COL: reason`,
 * `FILE: reason` without a position, `line L, column C: reason` without a file name.
 */
export function locatedMessage(reason: string, location: ErrorLocation): string {
  const { filename, position } = location;
  if (filename !== undefined) return position === undefined ? `${filename}: ${reason}` : formatAt(filename, position, reason);
  return position === undefined ? reason : `line ${position.line}, column ${position.column}: ${reason}`;
}
