/** Exit statuses of the CLI: a stable, documented part of its contract. */
export const ExitCode = {
  /** Output written (warnings allowed). */
  ok: 0,
  /** The translation failed or was refused; `fmt --check` found a non-canonical file. */
  failed: 1,
  /** Bad usage, or input that could not be read or parsed. */
  usage: 2,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/**
 * A problem the user can fix: bad arguments or unreadable input. The CLI prints only its message
 * (never a stack trace) and exits with `exitCode`.
 */
export class UsageError extends Error {
  override readonly name = 'UsageError';
  readonly exitCode: ExitCode;

  constructor(message: string, exitCode: ExitCode = ExitCode.usage) {
    super(message);
    this.exitCode = exitCode;
  }
}
