import { PACKAGE_VERSION } from '../generated/version.js';
import { runTranslate } from './commands/translate.js';
import type { CliIo } from './io.js';
import { ExitCode, UsageError } from './usage-error.js';

type Command = (args: readonly string[], io: CliIo) => Promise<number>;

/** Subcommands, loaded on first use so that each run only pays for the code it needs. */
const SUBCOMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  fmt: async () => (await import('./commands/fmt.js')).runFmt,
};

/**
 * The whole CLI as a function: parses `argv` (without the node and script paths), talks to the
 * world only through `io`, and returns the exit status. Never throws for user errors.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const [first, ...rest] = argv;
    if (first === '--version' || first === '-V') {
      io.stdout.write(`${PACKAGE_VERSION}\n`);
      return ExitCode.ok;
    }
    const loadSubcommand = first === undefined ? undefined : SUBCOMMANDS[first];
    if (loadSubcommand !== undefined) return await (await loadSubcommand())(rest, io);
    return await runTranslate(argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`kube-dns-to-coredns: ${error.message}\n`);
      return error.exitCode;
    }
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    io.stderr.write(`kube-dns-to-coredns: internal error, please report it:\n${detail}\n`);
    return ExitCode.failed;
  }
}
