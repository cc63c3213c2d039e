import { PACKAGE_VERSION } from '../generated/version.js';
import { runTranslate } from './commands/translate.js';
import { reportFailure } from './errors.js';
import type { CliIo } from './io.js';
import { ExitCode, UsageError } from './usage-error.js';

type Command = (args: readonly string[], io: CliIo) => Promise<number>;

/** Subcommands, loaded on first use so that each run only pays for the code it needs. */
const SUBCOMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  fmt: async () => (await import('./commands/fmt.js')).runFmt,
  lint: async () => (await import('./commands/lint.js')).runLint,
  migrate: async () => (await import('./commands/migrate.js')).runMigrate,
  check: async () => (await import('./commands/check.js')).runCheck,
  explain: async () => (await import('./commands/explain.js')).runExplain,
  cutover: async () => (await import('./commands/cutover.js')).runCutover,
  verify: async () => (await import('./commands/verify.js')).runVerify,
};

async function dispatch(argv: readonly string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === '--version' || first === '-V') {
    io.stdout.write(`${PACKAGE_VERSION}\n`);
    return ExitCode.ok;
  }
  const loadSubcommand = first === undefined ? undefined : SUBCOMMANDS[first];
  if (loadSubcommand !== undefined) return (await loadSubcommand())(rest, io);
  return runTranslate(argv, io);
}

/** `--out FILE` (or `--out=FILE`, `-` for stdout) works for every command; it is taken out before dispatch. */
function takeOutOption(argv: readonly string[]): { out: string | undefined; rest: string[] } {
  const rest: string[] = [];
  let out: string | undefined;
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] as string;
    if (argument === '--') {
      rest.push(...argv.slice(index));
      break;
    }
    if (argument === '--out' || argument.startsWith('--out=')) {
      if (out !== undefined) throw new UsageError('--out given twice');
      out = argument === '--out' ? argv[(index += 1)] : argument.slice('--out='.length);
      if (out === undefined || out === '') throw new UsageError('--out needs a FILE');
      continue;
    }
    rest.push(argument);
  }
  return { out, rest };
}

/**
 * The whole CLI as a function: parses `argv` (without the node and script paths), talks to the
 * world only through `io`, and returns the exit status. Never throws: every failure is reported
 * by {@link reportFailure}, the CLI's one mapping from errors to exit statuses and messages.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const { out, rest: args } = takeOutOption(argv);
    // `--out -` is standard output, as `-` is standard input for FILE.
    if (out === undefined || out === '-') return await dispatch(args, io);
    // --out FILE: collect stdout and write FILE only when the command succeeded, all at once.
    let collected = '';
    const status = await dispatch(args, { ...io, stdout: { write: (chunk) => void (collected += chunk), isTTY: false } });
    if (status === ExitCode.ok) {
      try {
        await io.writeOutputFile(out, collected);
      } catch (error) {
        // The message names OUT as given, never a temporary file or a link's target.
        throw new UsageError(`${out}: cannot write: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    return status;
  } catch (error) {
    return reportFailure(error, io);
  }
}
