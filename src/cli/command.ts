import { parseArgs } from 'node:util';
import { closestNames } from '../lint/suggest.js';
import { OutputFileError } from './io.js';
import type { CliIo } from './io.js';
import { Reporter } from './reporter.js';
import { ExitCode, UsageError } from './usage-error.js';

/**
 * The one shape of a command (docs/cli.md, "Adding a command"): a {@link CommandDefinition}
 * declares its name, help, options (each with its typed parser), positionals, output formats and
 * the rules for options that do not go together; {@link runCommand} is the preamble every command
 * shares — parse, `--help`, `-o`, misplaced options, typed values, `--out`, `--quiet` — and then
 * calls `run` with what it parsed. A command reads no argument itself.
 */

/** Where an option's value is read: for messages (`lint: --coredns: …`). */
export interface OptionSite {
  /** The command's name, `''` for the translator (the main command). */
  readonly command: string;
  /** `--coredns`, as users write it. */
  readonly option: string;
}

/** How one option is written and read. Made by the constructors of options.ts. */
export interface OptionSpec<T> {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  /** A string option that may be given several times (its values are kept in order). */
  readonly multiple?: boolean;
  /** The typed value from what was given (`undefined` when the option was not): throws a {@link UsageError}. */
  readonly parse: (given: string | readonly string[] | boolean | undefined, site: OptionSite) => T;
}

export type OptionSpecs = Readonly<Record<string, OptionSpec<unknown>>>;

/** The typed values of a command's options. */
export type OptionValues<Options extends OptionSpecs> = { readonly [Name in keyof Options]: Options[Name] extends OptionSpec<infer T> ? T : never };

/**
 * The kinds of output a command writes with `-o` (docs/cli.md, "Output formats"): one word per
 * kind, the same across commands — `corefile` (a Corefile), `configmap` (a CoreDNS ConfigMap),
 * `text` (a report for people: findings, a table, a verdict) and `json` (one JSON document).
 */
export type OutputKind = 'corefile' | 'configmap' | 'text' | 'json' | 'install' | 'script' | PlatformOutputKind;

/**
 * Where platforms keep CoreDNS configuration (docs/platforms.md): a coredns-custom overlay, the
 * EKS add-on's configurationValues, the CoreDNS Helm chart's values.
 */
export type PlatformOutputKind = 'coredns-custom' | 'eks-addon' | 'helm-values';

export interface OutputSpec<Kind extends OutputKind> {
  /** The formats, the default first. */
  readonly kinds: readonly [Kind, ...Kind[]];
  /** Words of earlier releases still accepted for a kind (`table` for `text`). */
  readonly aliases?: Readonly<Record<string, Kind>>;
}

/** Options that do not go together, checked in order; the first that applies is the refusal. */
export type MisplacedRule =
  /** `options` are refused when `with` is given. */
  | { readonly with: string; readonly options: readonly string[]; readonly message: (option: string) => string }
  /** `options` are refused when `without` is not given. */
  | { readonly without: string; readonly options: readonly string[]; readonly message: (option: string) => string };

export interface PositionalSpec {
  /** What help calls one: `FILE`, `NAME`. */
  readonly name: string;
  readonly min?: number;
  /** At most this many (default: none allowed). */
  readonly max: number;
}

/** What `run` receives: the typed options, the positionals, the output format and the reporter. */
export interface CommandContext<Options extends OptionSpecs, Kind extends OutputKind> {
  readonly io: CliIo;
  readonly options: OptionValues<Options>;
  /** Which options were given on the command line (for rules a command states itself). */
  readonly given: ReadonlySet<string>;
  readonly positionals: readonly string[];
  readonly output: Kind;
  /** Diagnostics, notes and JSON documents, written as `--quiet` and `--verbose` ask. */
  readonly report: Reporter;
}

export interface CommandDefinition<Options extends OptionSpecs = OptionSpecs, Kind extends OutputKind = OutputKind> {
  /** The word after `kube-dns-to-coredns`; `''` for the translator. */
  readonly name: string;
  /**
   * Shown by `--help` (and `-h`); a function when the text needs modules the command's run does
   * not (it is then loaded only for `--help`).
   */
  readonly help: string | (() => Promise<string>);
  readonly options: Options;
  readonly positionals?: PositionalSpec;
  /** The `-o, --output` formats; a command without them takes no `-o`. */
  readonly outputs?: OutputSpec<Kind>;
  readonly misplaced?: readonly MisplacedRule[];
  /**
   * Whether the output of this run streams (`--batch`): with `--out FILE` it is then written to FILE
   * as it comes instead of being collected first.
   */
  readonly streamsOutput?: (options: OptionValues<Options>) => boolean;
  /** Does the work; returns the exit status (0, 1 or 2, docs/cli.md). Throws errors for `main` to report. */
  readonly run: (context: CommandContext<Options, Kind>) => Promise<number>;
}

/** What the preamble reads of a definition, whatever its types. */
type CommandShape = Pick<CommandDefinition<OptionSpecs, OutputKind>, 'name' | 'options' | 'positionals' | 'outputs'>;

/** Declares a command; only gives `run` its types. */
export function defineCommand<const Options extends OptionSpecs, Kind extends OutputKind = never>(definition: CommandDefinition<Options, Kind>): CommandDefinition<Options, Kind> {
  return definition;
}

/** Options every command takes, read by the preamble (docs/cli.md, "Options of every command"). */
const COMMON_OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  out: { type: 'string' },
  quiet: { type: 'boolean', short: 'q' },
  verbose: { type: 'boolean' },
} as const;

/** `'lint --help'`, or `--help` for the main command. */
export function helpHint(command: string): string {
  return command === '' ? '--help' : `'${command} --help'`;
}

/** `lint: `, or nothing for the main command. */
export function commandPrefix(command: string): string {
  return command === '' ? '' : `${command}: `;
}

/**
 * The preamble of every command: parses `args` against the definition (node:util parseArgs, strict),
 * answers `--help`, reads `-o`, refuses misplaced options and surplus positionals, runs each
 * option's typed parser, then `run`. With `--out FILE` the output is collected and written to FILE
 * only when the command succeeded, all at once.
 */
export async function runCommand<Options extends OptionSpecs, Kind extends OutputKind>(definition: CommandDefinition<Options, Kind>, args: readonly string[], io: CliIo): Promise<number> {
  const shape: CommandShape = definition;
  const { name } = definition;
  const parsed = parseCommandLine(shape, args);
  const values = parsed.values;
  if (values['help'] === true) {
    io.stdout.write(typeof definition.help === 'string' ? definition.help : await definition.help());
    return ExitCode.ok;
  }
  const prefix = commandPrefix(name);
  const positionals = parsed.positionals;
  const spec = definition.positionals;
  if (spec !== undefined && spec.min === spec.max && positionals.length !== spec.max) {
    throw new UsageError(`${prefix}expected one ${spec.name}, got ${positionals.length}${positionals.length > 0 ? `: ${positionals.join(' ')}` : ''}; see ${helpHint(name)}`);
  }
  if (spec !== undefined && positionals.length > spec.max) {
    throw new UsageError(`${prefix}expected at most one ${spec.name}, got ${positionals.length}: ${positionals.join(' ')}`);
  }
  const given = new Set(Object.keys(values).filter((option) => values[option] !== undefined && values[option] !== false));
  for (const rule of definition.misplaced ?? []) {
    const applies = 'with' in rule ? given.has(rule.with) : !given.has(rule.without);
    const misplaced = applies ? rule.options.find((option) => given.has(option)) : undefined;
    if (misplaced !== undefined) throw new UsageError(rule.message(misplaced));
  }
  const output = outputKind(name, definition.outputs, values['output']);
  const options: Record<string, unknown> = {};
  for (const [option, optionSpec] of Object.entries(definition.options)) {
    options[option] = optionSpec.parse(values[option] as string | readonly string[] | boolean | undefined, { command: name, option: `--${option}` });
  }
  const out = values['out'] as string | undefined;
  if (out === '') throw new UsageError('--out needs a FILE');
  const report = new Reporter(io, { quiet: values['quiet'] === true, verbose: values['verbose'] === true });
  const context = (commandIo: CliIo): CommandContext<Options, Kind> => ({
    io: commandIo,
    options: options as OptionValues<Options>,
    given,
    positionals,
    output,
    report: commandIo === io ? report : new Reporter(commandIo, { quiet: values['quiet'] === true, verbose: values['verbose'] === true }),
  });
  // `--out -` is standard output, as `-` is standard input for FILE.
  if (out === undefined || out === '-') return definition.run(context(io));
  if (definition.streamsOutput?.(options as OptionValues<Options>) === true && io.openOutputStream !== undefined) {
    return runStreamingToFile(out, io.openOutputStream, (stdout) => definition.run(context({ ...io, stdout })));
  }
  // --out FILE: collect stdout and write FILE only when the command succeeded, all at once.
  let collected = '';
  const status = await definition.run(context({ ...io, stdout: { write: (chunk) => void (collected += chunk), isTTY: false } }));
  if (status === ExitCode.ok) await cannotWrite(out, () => io.writeOutputFile(out, collected));
  return status;
}

/** `action` with an error of the output file as the usage error naming OUT as given, never a temporary file or a link's target. */
async function cannotWrite<T>(out: string, action: () => Promise<T> | T): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (error instanceof OutputFileError) throw new UsageError(`${out}: cannot write: ${error.message}`);
    throw error;
  }
}

/**
 * `--out FILE` for a command whose output streams (`--batch`): written as it comes, never held
 * whole; FILE becomes the output only when the command succeeded (a regular file is replaced at the
 * end, all at once).
 */
async function runStreamingToFile(out: string, open: NonNullable<CliIo['openOutputStream']>, run: (stdout: CliIo['stdout']) => Promise<number>): Promise<number> {
  const stream = await cannotWrite(out, () => open(out));
  let status: number;
  try {
    status = await cannotWrite(out, () => run({ write: (chunk) => stream.write(chunk), isTTY: false }));
  } catch (error) {
    await stream.discard();
    throw error;
  }
  if (status !== ExitCode.ok) {
    await stream.discard();
    return status;
  }
  await cannotWrite(out, () => stream.commit());
  return status;
}

type ParseConfig = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

/** The options as node:util declares them: the command's, `--output` (with `-o`) and the common ones. */
function parseConfig(definition: CommandShape): ParseConfig {
  const config: ParseConfig = {};
  for (const [option, spec] of Object.entries(definition.options)) {
    config[option] = { type: spec.type, ...(spec.short === undefined ? {} : { short: spec.short }), ...(spec.multiple === true ? { multiple: true } : {}) };
  }
  if (definition.outputs !== undefined) config['output'] = { type: 'string', short: 'o' };
  for (const [option, spec] of Object.entries(COMMON_OPTIONS)) config[option] = { ...spec };
  return config;
}

/**
 * node:util parseArgs in strict mode, with its complaints turned into a {@link UsageError} that
 * names the command and points at its help; an unknown option gets the closest known ones, and a
 * value option given twice is refused rather than half ignored.
 */
export function parseCommandLine(
  definition: CommandShape,
  args: readonly string[],
): { readonly values: Readonly<Record<string, string | string[] | boolean | undefined>>; readonly positionals: readonly string[] } {
  const { name } = definition;
  const options = parseConfig(definition);
  const prefix = commandPrefix(name);
  const help = helpHint(name);
  refuseUnknownOptions(name, args, options);
  let parsed;
  try {
    parsed = parseArgs({ options, args: [...args], strict: true, allowPositionals: definition.positionals !== undefined, tokens: true });
  } catch (error) {
    throw new UsageError(`${prefix}${error instanceof Error ? error.message : String(error)}; see ${help}`);
  }
  const given = new Map<string, string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option' || token.value === undefined) continue;
    const option = options[token.name];
    if (option === undefined || option.type !== 'string' || option.multiple === true) continue;
    const earlier = given.get(token.name);
    if (earlier !== undefined) throw new UsageError(`${prefix}--${token.name} is given twice ('${earlier}' and '${token.value}'); give it once; see ${help}`);
    given.set(token.name, token.value);
  }
  return { values: parsed.values as Record<string, string | string[] | boolean | undefined>, positionals: parsed.positionals };
}

/**
 * An option the command does not have: `Unknown option '--core-dns'; did you mean '--coredns'?`,
 * with the way to pass a FILE whose name starts with `-` (after `--`).
 */
function refuseUnknownOptions(command: string, args: readonly string[], options: ParseConfig): void {
  const { tokens } = parseArgs({ options, args: [...args], strict: false, allowPositionals: true, tokens: true });
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name in options) continue;
    const written = token.rawName;
    const long = Object.keys(options).map((option) => `--${option}`);
    const meant = didYouMean(written.startsWith('--') ? closestNames(written, long) : []);
    throw new UsageError(`${commandPrefix(command)}Unknown option '${written}'${meant} (a FILE whose name starts with '-' goes after '--': -- ${written}); see ${helpHint(command)}`);
  }
}

function outputKind<Kind extends OutputKind>(command: string, spec: OutputSpec<Kind> | undefined, given: unknown): Kind {
  if (spec === undefined) return undefined as unknown as Kind;
  if (given === undefined) return spec.kinds[0];
  const word = String(given);
  const kind = spec.kinds.find((candidate) => candidate === word) ?? spec.aliases?.[word];
  if (kind !== undefined) return kind;
  throw new UsageError(`${commandPrefix(command)}--output must be one of ${spec.kinds.join(', ')}, not '${word}'${didYouMean(closestNames(word, spec.kinds))}`);
}

/** `; did you mean 'a' or 'b'?`, or nothing without suggestions. */
function didYouMean(suggestions: readonly string[]): string {
  return suggestions.length === 0 ? '' : `; did you mean ${suggestions.map((suggestion) => `'${suggestion}'`).join(' or ')}?`;
}
