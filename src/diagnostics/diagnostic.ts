import { checkArgument } from '../errors/arguments.js';
import type { SourcePosition, ValueLocation } from '../util/source-position.js';
import { printable } from '../util/printable-text.js';
import { DIAGNOSTIC_CODES } from './codes.js';
import type { DiagnosticCode, Severity } from './codes.js';

export type { Severity };

/**
 * Diagnostics listed per code, by `lint` and by the CLI's text output: a hostile or generated input
 * can repeat one mistake millions of times; past this many, the rest of that code are counted in
 * one `findings-not-listed`.
 */
export const LISTED_PER_CODE = 1000;

const SEVERITY_RANK: Readonly<Record<Severity, number>> = { info: 0, warning: 1, error: 2 };

/** The worse of two severities (error over warning over info). */
export function worseSeverity(a: Severity, b: Severity): Severity {
  return SEVERITY_RANK[b] > SEVERITY_RANK[a] ? b : a;
}

/**
 * One decision the translator (or the linter) made and wants the user to know about: a refusal,
 * a drop, a rewrite or an assumption. `code` is stable across releases; `message` and `hint` are
 * for people and may be reworded.
 */
export interface Diagnostic {
  readonly code: DiagnosticCode;
  readonly severity: Severity;
  /** The ConfigMap data key concerned (`stubDomains`, `upstreamNameservers`, `federations`, `Corefile`). */
  readonly key?: string;
  /** Where inside that key's value, as a JSON path (`["acme.local"][1]`) or a Corefile location. */
  readonly path?: string;
  /** Line and column inside the key's value text, when known. */
  readonly position?: SourcePosition;
  /**
   * Where `position` is in the input file, when the value was read from one (the CLI, and
   * `translateKubeDnsInstall` with a ConfigMap read from text): `kube-dns.yaml` line 8, column 60
   * for line 1, column 28 of the `stubDomains` value, traced through the YAML scalar's
   * indentation, escapes and folding; `exact` false when only the value's start is known.
   */
  readonly location?: ValueLocation;
  /** One line saying what happened. */
  readonly message: string;
  /** One line saying what to do about it. */
  readonly hint: string;
}

export interface DiagnosticDetails {
  readonly key?: string;
  readonly path?: string;
  readonly position?: SourcePosition;
  readonly location?: ValueLocation;
  readonly message: string;
  /** Overrides the code's standard hint. */
  readonly hint?: string;
  /** Overrides the code's standard severity (e.g. an error downgraded by `--force`). */
  readonly severity?: Severity;
}

/** Builds a diagnostic of a registered code. */
export function diagnostic(code: DiagnosticCode, details: DiagnosticDetails): Diagnostic {
  const entry = DIAGNOSTIC_CODES[code];
  // Filled in this order, which is the order of the JSON output, without spreading temporary
  // objects (a large or batched translation makes tens of thousands of diagnostics).
  const built: { -readonly [Field in keyof Diagnostic]: Diagnostic[Field] } = { code, severity: details.severity ?? entry.severity } as Diagnostic;
  if (details.key !== undefined) built.key = details.key;
  if (details.path !== undefined) built.path = details.path;
  if (details.position !== undefined) built.position = details.position;
  if (details.location !== undefined) built.location = details.location;
  built.message = details.message;
  built.hint = details.hint ?? entry.hint;
  return built;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((entry) => entry.severity === 'error');
}

/**
 * `severity code key.path: message` — the one-line form the CLI prints on stderr; with a
 * `location`, `severity code FILE:LINE:COL key.path: message` (where the value's start is all that is
 * known, `FILE:LINE:COL key.path (value start; LINE:COL inside it)`). Always one line:
 * control characters (and other characters that could forge a line or drive a terminal) in a key,
 * path or message, e.g. a stub domain holding a line feed, are written as escapes (`\n`,
 * `\u001b`); see {@link printable}.
 */
export function formatDiagnostic(entry: Diagnostic): string {
  checkArgument('formatDiagnostic', 'entry', entry, 'object');
  const named = `${entry.key ?? ''}${entry.path ?? ''}`;
  const { location, position } = entry;
  const where =
    location === undefined
      ? named
      : `${location.filename}:${location.line}:${location.column}${named === '' ? '' : ` ${named}`}${location.exact || position === undefined ? '' : ` (value start; ${position.line}:${position.column} inside it)`}`;
  return printable(`${entry.severity} ${entry.code}${where === '' ? '' : ` ${where}`}: ${entry.message}`);
}

/** Text `JSON.stringify` writes unchanged between its quotes: no quote, backslash, control or surrogate. */
const NEEDS_NO_JSON_ESCAPE = /^[^"\\\x00-\x1f\ud800-\udfff]*$/;

/** A JSON path step for an object member or array index, e.g. `["acme.local"]`, `[1]`. */
export function jsonPathStep(step: string | number): string {
  if (typeof step === 'number') return `[${step}]`;
  // One step per stub domain and nameserver: skipping JSON.stringify for plain names adds up.
  return NEEDS_NO_JSON_ESCAPE.test(step) ? `["${step}"]` : `[${JSON.stringify(step)}]`;
}
