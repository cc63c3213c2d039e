import { PACKAGE_VERSION } from '../generated/version.js';
import { closestNames } from '../lint/suggest.js';
import { runCommand } from './command.js';
import { reportFailure } from './errors.js';
import type { CliIo } from './io.js';
import { COMMANDS, TRANSLATE_COMMAND } from './registry.js';
import { ExitCode, UsageError } from './usage-error.js';

/** Options of every command that may come before the command's name (`--out FILE lint …`). */
const LEADING_OPTIONS: Readonly<Record<string, 'flag' | 'value'>> = { '--out': 'value', '-q': 'flag', '--quiet': 'flag', '--verbose': 'flag' };

/** How many leading arguments are options of every command: the command's name comes after them. */
function leadingOptions(argv: readonly string[]): number {
  let index = 0;
  while (index < argv.length) {
    const argument = argv[index] as string;
    const kind = LEADING_OPTIONS[argument];
    if (kind === 'value') index += 2;
    else if (kind === 'flag' || argument.startsWith('--out=')) index += 1;
    else break;
  }
  return Math.min(index, argv.length);
}

async function dispatch(argv: readonly string[], io: CliIo): Promise<number> {
  const first = argv[0];
  if (first === '--version' || first === '-V') {
    io.stdout.write(`${PACKAGE_VERSION}\n`);
    return ExitCode.ok;
  }
  const at = leadingOptions(argv);
  const word = argv[at];
  const command = COMMANDS.find((candidate) => candidate.name === word);
  if (command !== undefined) return runCommand(await command.load(), [...argv.slice(0, at), ...argv.slice(at + 1)], io);
  if (word !== undefined) refuseMisspeltCommand(word);
  return runCommand(await TRANSLATE_COMMAND.load(), argv, io);
}

/**
 * A bare word one typo away from a command's name (`chek`) is taken for that command, not for a
 * FILE to translate: such a file is given by its path (`./chek`).
 */
function refuseMisspeltCommand(word: string): void {
  if (!/^[a-z]+$/.test(word)) return;
  const [meant] = closestNames(word, COMMANDS.map((command) => command.name));
  if (meant === undefined) return;
  throw new UsageError(`unknown command '${word}'; did you mean '${meant}'? (to translate a file of that name, give its path: ./${word}); see --help`);
}

/**
 * The whole CLI as a function: parses `argv` (without the node and script paths), talks to the
 * world only through `io`, and returns the exit status. Never throws: every failure is reported
 * by {@link reportFailure}, the CLI's one mapping from errors to exit statuses and messages.
 */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    return reportFailure(error, io);
  }
}
