import type { SourcePosition } from '../util/source-position.js';
import { DIAGNOSTIC_CODES } from './codes.js';
import type { DiagnosticCode } from './codes.js';

export type Severity = 'error' | 'warning' | 'info';

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
  /** One line saying what happened. */
  readonly message: string;
  /** One line saying what to do about it. */
  readonly hint: string;
}

export interface DiagnosticDetails {
  readonly key?: string;
  readonly path?: string;
  readonly position?: SourcePosition;
  readonly message: string;
  /** Overrides the code's standard hint. */
  readonly hint?: string;
  /** Overrides the code's standard severity (e.g. an error downgraded by `--force`). */
  readonly severity?: Severity;
}

/** Builds a diagnostic of a registered code. */
export function diagnostic(code: DiagnosticCode, details: DiagnosticDetails): Diagnostic {
  const entry = DIAGNOSTIC_CODES[code];
  return {
    code,
    severity: details.severity ?? entry.severity,
    ...(details.key === undefined ? {} : { key: details.key }),
    ...(details.path === undefined ? {} : { path: details.path }),
    ...(details.position === undefined ? {} : { position: details.position }),
    message: details.message,
    hint: details.hint ?? entry.hint,
  };
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((entry) => entry.severity === 'error');
}

/** `severity code key.path: message` — the one-line form the CLI prints on stderr. */
export function formatDiagnostic(entry: Diagnostic): string {
  const where = `${entry.key ?? ''}${entry.path ?? ''}`;
  return `${entry.severity} ${entry.code}${where === '' ? '' : ` ${where}`}: ${entry.message}`;
}

/** A JSON path step for an object member or array index, e.g. `["acme.local"]`, `[1]`. */
export function jsonPathStep(step: string | number): string {
  return typeof step === 'number' ? `[${step}]` : `[${JSON.stringify(step)}]`;
}
