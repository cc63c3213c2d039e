import { KubeDnsToCoreDnsError } from './kube-dns-to-coredns-error.js';

/** Why the package broke a promise of its own: the `code` of an {@link InternalError}. */
export type InternalErrorCode =
  /** A state the code rules out was reached (a table out of order, a parser state that cannot occur). */
  'invariant-broken';

/**
 * The package reached a state its own tables or code rule out: a bug to report, never the caller's
 * input. The CLI prints the stack trace for the report.
 */
export class InternalError extends KubeDnsToCoreDnsError {
  override readonly name = 'InternalError';
  readonly category = 'internal';
  declare readonly code: InternalErrorCode;

  constructor(reason: string) {
    super('invariant-broken', `internal: ${reason.replace(/^internal: /, '')}`);
  }
}
