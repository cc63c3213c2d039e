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
  const help = command === '' ? '--help' : `'${command} --help'`;
  const prefix = command === '' ? '' : `${command}: `;
  let parsed;
  try {
    parsed = parseArgs({ ...config, options, args: [...args], strict: true, tokens: true });
  } catch (error) {
    throw new UsageError(`${prefix}${error instanceof Error ? error.message : String(error)}; see ${help}`);
  }
  // A value option given twice would keep only its last value: refused rather than half ignored.
  const given = new Map<string, string>();
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== 'option' || token.value === undefined) continue;
    const option = options?.[token.name];
    if (option === undefined || option.type !== 'string' || option.multiple === true) continue;
    const earlier = given.get(token.name);
    if (earlier !== undefined) throw new UsageError(`${prefix}--${token.name} is given twice ('${earlier}' and '${token.value}'); give it once; see ${help}`);
    given.set(token.name, token.value);
  }
  const { tokens: _tokens, ...result } = parsed;
  // Adding a short name changes no value's type.
  return result as unknown as ReturnType<typeof parseArgs<T & { args: string[]; strict: true }>>;
}
