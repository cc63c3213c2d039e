import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { UsageError } from './usage-error.js';

type CommandConfig = Omit<ParseArgsConfig, 'args' | 'strict'>;

/**
 * `node:util` parseArgs in strict mode, with its complaints turned into a {@link UsageError} that
 * names the command and points at its help (`lint: Unknown option '--x'; see 'lint --help'`).
 * `command` is empty for the main command. Every command that takes `--output` also takes `-o`.
 */
export function parseCommandArgs<const T extends CommandConfig>(command: string, args: readonly string[], config: T): ReturnType<typeof parseArgs<T & { args: string[]; strict: true }>> {
  const output = config.options?.['output'];
  const options = output === undefined || output.short !== undefined ? config.options : { ...config.options, output: { ...output, short: 'o' } };
  try {
    // Adding a short name changes no value's type.
    return parseArgs({ ...config, options, args: [...args], strict: true }) as ReturnType<typeof parseArgs<T & { args: string[]; strict: true }>>;
  } catch (error) {
    const help = command === '' ? '--help' : `'${command} --help'`;
    throw new UsageError(`${command === '' ? '' : `${command}: `}${error instanceof Error ? error.message : String(error)}; see ${help}`);
  }
}
