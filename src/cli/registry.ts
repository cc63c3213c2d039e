import type { CommandDefinition, OptionSpecs, OutputKind } from './command.js';

/**
 * Every command after `kube-dns-to-coredns`, by name (docs/cli.md, "Adding a command"), and the
 * translator (no command word, commands/translate.ts). Each module is loaded on first use, so that
 * a run only pays for the code it needs: the entry of the executable holds this list, the
 * preamble and the error report, nothing of any command (test/cli/start-up.test.ts).
 */
export interface CommandEntry {
  readonly name: string;
  /** The module's {@link CommandDefinition}. */
  readonly load: () => Promise<CommandDefinition<OptionSpecs, OutputKind>>;
}

/** Widens a definition's option and output types for the registry, which only runs it. */
const entry = <Options extends OptionSpecs, Kind extends OutputKind>(name: string, load: () => Promise<CommandDefinition<Options, Kind>>): CommandEntry => ({
  name,
  load: load as unknown as CommandEntry['load'],
});

/** The main command: `kube-dns-to-coredns [options] [FILE|-]`. */
export const TRANSLATE_COMMAND: CommandEntry = entry('', async () => (await import('./commands/translate.js')).translateCommand);

export const COMMANDS: readonly CommandEntry[] = [
  entry('fmt', async () => (await import('./commands/fmt.js')).fmtCommand),
  entry('lint', async () => (await import('./commands/lint.js')).lintCommand),
  entry('migrate', async () => (await import('./commands/migrate.js')).migrateCommand),
  entry('check', async () => (await import('./commands/check.js')).checkCommand),
  entry('explain', async () => (await import('./commands/explain.js')).explainCommand),
  entry('compose', async () => (await import('./commands/compose.js')).composeCommand),
  entry('cutover', async () => (await import('./commands/cutover.js')).cutoverCommand),
  entry('verify', async () => (await import('./commands/verify.js')).verifyCommand),
];
