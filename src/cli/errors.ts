import { CorefileError, CorefilePrintError } from '../corefile/errors.js';
import { KubeDnsToCoreDnsError, locatedMessage } from '../errors/kube-dns-to-coredns-error.js';
import { printable, printableLines } from '../util/printable-text.js';
import type { CorefileSourceText } from './corefile-source.js';
import type { CliIo } from './io.js';
import { ExitCode, UsageError } from './usage-error.js';

/**
 * The one place where the CLI turns a failure into its exit status and its message on stderr.
 * Commands do not catch library errors to convert them: they let them reach `main` (or, where the
 * work goes on after a failure — `fmt --check` over several files — call {@link reportFailure}
 * themselves).
 *
 * - {@link UsageError} (bad arguments, unreadable input): `kube-dns-to-coredns: message`, its exit
 *   status (2).
 * - {@link KubeDnsToCoreDnsError} of category `input`: exit 2, never a stack trace. A Corefile the
 *   command read that CoreDNS would not (a {@link CorefileError}) is the finding itself, written
 *   like `lint`'s findings: `FILE:LINE:COL: reason`, pointing into FILE even when the Corefile is
 *   the entry of a ConfigMap (see {@link usingCorefile}). Any other: `kube-dns-to-coredns: message`,
 *   whose message already starts with `FILE:LINE:COL: ` when the library knew the place.
 * - Category `refused`: exit 1, `kube-dns-to-coredns: message`.
 * - Anything else is a bug (category `internal`, or not an error of the package): exit 1, `internal
 *   error, please report it`, and the stack trace for the report.
 */
export function reportFailure(error: unknown, io: CliIo): ExitCode {
  const { status, text } = describeFailure(error);
  io.stderr.write(text);
  return status;
}

/** What {@link reportFailure} writes (`text`, whole lines) and returns. */
export function describeFailure(error: unknown): { readonly status: ExitCode; readonly text: string } {
  if (error instanceof UsageError) return { status: error.exitCode, text: `kube-dns-to-coredns: ${printable(error.message)}\n` };
  if (error instanceof KubeDnsToCoreDnsError && error.category === 'input') {
    const located = error instanceof CorefileError ? describeCorefileError(error) : undefined;
    return { status: ExitCode.usage, text: `${printable(located ?? `kube-dns-to-coredns: ${error.message}`)}\n` };
  }
  if (error instanceof KubeDnsToCoreDnsError && error.category === 'refused') {
    // A refusal's message may be a table (RoutingMismatchError): its lines are meant.
    return { status: ExitCode.failed, text: `kube-dns-to-coredns: ${printableLines(error.message)}\n` };
  }
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return { status: ExitCode.failed, text: `kube-dns-to-coredns: internal error, please report it:\n${printableLines(detail)}\n` };
}

/** Whether {@link reportFailure} takes `error` for bad usage or input (exit 2), not a refusal or a bug. */
export function isInputFailure(error: unknown): boolean {
  if (error instanceof UsageError) return error.exitCode === ExitCode.usage;
  return error instanceof KubeDnsToCoreDnsError && error.category === 'input';
}

/**
 * An input error that concerns one item of a `--batch` (a case's cluster domain): its message for
 * that item's result line. Undefined for anything else, which ends the batch through `main`.
 */
export function batchItemFailure(error: unknown): string | undefined {
  return error instanceof KubeDnsToCoreDnsError && error.category === 'input' ? error.message : undefined;
}

/** The source each Corefile error came from, for its position in FILE (set by {@link usingCorefile}). */
const corefileOrigins = new WeakMap<CorefileError, CorefileText>();

/** What {@link usingCorefile} needs of a source: its name, its Corefile text and where a position sits in FILE. */
type CorefileText = Pick<CorefileSourceText, 'name' | 'corefile' | 'locate'>;

/**
 * Runs `use` on the Corefile text of `source` (a library call that reads it) and marks the
 * Corefile errors it throws as being about `source`, so that {@link reportFailure} points them into
 * FILE (into the ConfigMap's `Corefile` entry, when FILE is a ConfigMap). Converts nothing.
 */
export function usingCorefile<T>(source: CorefileText, use: (corefile: string) => T): T {
  try {
    return use(source.corefile);
  } catch (error) {
    if (error instanceof CorefileError) corefileOrigins.set(error, source);
    throw error;
  }
}

/** `FILE:LINE:COL: reason` (or `FILE: reason`), or undefined when the error names no file. */
function describeCorefileError(error: CorefileError): string | undefined {
  // A printer refusal names the node: its path is part of where, the position may be absent.
  const reason = error instanceof CorefilePrintError ? `cannot print ${error.path}: ${error.reason}` : error.reason;
  const source = corefileOrigins.get(error);
  if (source !== undefined) return error.position === undefined ? `${source.name}: ${reason}` : source.locate(error.position, reason);
  return error.filename === undefined ? undefined : locatedMessage(reason, error);
}
