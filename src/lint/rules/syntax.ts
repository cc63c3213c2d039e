import type { Directive } from '../../corefile/model.js';
import { isUsable } from '../../coredns/availability.js';
import { eraAt, judgeArguments, missingRequiredLines, optionArgumentsAt, pluginSyntax, rewriteRegexpProblem, rewriteWordProblem } from '../../coredns/plugin-syntax.js';
import type { ArgumentShape, BlockReading, PluginSyntax } from '../../coredns/plugin-syntax.js';
import { isCoreDnsVersionAtLeast } from '../../coredns/versions.js';
import type { CoreDnsVersion } from '../../coredns/versions.js';
import { isGoIP } from '../../dns/go-net.js';
import type { SourcePosition } from '../../util/source-position.js';
import type { BlockInfo, LintContext, PathText } from '../context.js';
import { holdsPlaceholder, ORIGIN, placedLabels, quote, where } from '../context.js';
import { closestNames } from '../suggest.js';
import { checkOption } from './options.js';

/**
 * Plugin lines and their blocks as the release's setup code reads them, from the table of
 * src/coredns/plugin-syntax.ts: argument counts and kinds (durations, integers and their ranges,
 * words), options the plugin does not have, options given twice, blocks a plugin does not read,
 * plugins allowed once per server block, and what an option or plugin needs beside it. Every
 * error here is a Corefile that release refuses to start with. Codes: `argument-count`,
 * `argument-invalid`, `option-unknown`, `option-repeated`, `option-ignored`, `plugin-repeated`,
 * `requirement-missing` (and, through options.ts, the option timelines).
 *
 * Plugins outside the table are not judged here (their options still go through options.ts).
 */

/**
 * Arguments of plugin `plugin` (or of its option `option`) are reported as a count problem or
 * their first invalid argument. The texts are made only for a finding: this runs for every line.
 */
function checkArguments(
  context: LintContext,
  args: readonly string[],
  shape: ArgumentShape,
  plugin: string,
  option: string | undefined,
  label: string,
  position: SourcePosition,
  argumentPositions: readonly SourcePosition[] | undefined,
): boolean {
  for (let index = 0; index < args.length; index += 1) if (holdsPlaceholder(args[index] as string)) return true;
  const verdict = judgeArguments(args, shape);
  if (verdict.kind === 'ok') return true;
  const v = context.version;
  const what = option === undefined ? `plugin ${quote(plugin)}` : `option ${quote(option)} of ${plugin}`;
  const pathAt = (at: SourcePosition) => (option === undefined ? where(at, label, plugin) : where(at, label, plugin, option));
  switch (verdict.kind) {
    case 'count':
      context.report('argument-count', position, pathAt(position), `${what} takes ${verdict.expected} argument${/^(?:exactly|at least) 1\b/.test(verdict.expected) ? '' : 's'}, not ${args.length}: CoreDNS ${v} does not start`);
      return false;
    case 'invalid': {
      const at = argumentPositions?.[verdict.index] ?? position;
      context.report('argument-invalid', at, pathAt(at), `${what}: ${verdict.problem}: CoreDNS ${v} does not start`);
      return false;
    }
  }
}

/** A rewrite rule's words (class, type and rcode rules) and regular expressions, as its setup reads them (plugin-syntax.ts). */
function checkRewriteRule(context: LintContext, args: readonly string[], label: string, position: SourcePosition, argumentPositions: readonly SourcePosition[] | undefined): void {
  if (args.some(holdsPlaceholder)) return;
  const word = rewriteWordProblem(args, context.version);
  if (word !== undefined) {
    const at = word.kind === 'count' ? position : (argumentPositions?.[word.index] ?? position);
    context.report(word.kind === 'count' ? 'argument-count' : 'argument-invalid', at, where(at, label, 'rewrite'), `plugin 'rewrite': ${word.problem}: CoreDNS ${context.version} does not start`);
    return;
  }
  const found = rewriteRegexpProblem(args, context.version);
  if (found === undefined) return;
  const at = argumentPositions?.[found.index] ?? position;
  context.report('argument-invalid', at, where(at, label, 'rewrite'), `plugin 'rewrite': ${found.problem}: CoreDNS ${context.version} does not start`);
}

/**
 * bind's arguments and `except` names that are no IP address: interface names, which CoreDNS looks
 * up on the machine it runs on and stops without ("not a valid IP address or interface name").
 */
function checkBindInterfaces(context: LintContext, directive: Directive, label: string): void {
  const lines = [{ args: directive.arguments, positions: directive.argumentPositions, option: undefined as string | undefined }];
  for (const option of directive.block?.directives ?? []) if (option.name === 'except') lines.push({ args: option.arguments, positions: option.argumentPositions, option: 'except' });
  for (const { args, positions, option } of lines) {
    for (let index = 0; index < args.length; index += 1) {
      const name = args[index] as string;
      if (holdsPlaceholder(name) || isGoIP(name)) continue;
      const at = positions?.[index] ?? directive.position ?? ORIGIN;
      context.report(
        'bind-interface-not-checked',
        at,
        option === undefined ? where(at, label, 'bind') : where(at, label, 'bind', option),
        `${quote(name)} is no IP address, so CoreDNS ${context.version} reads it as a network interface name: it starts only where that interface exists (else "not a valid IP address or interface name"), which lint cannot see`,
      );
    }
  }
}

/** What the plugin syntax table says about one plugin at the release linted against. */
interface SyntaxAtRelease {
  readonly syntax: PluginSyntax;
  readonly arguments: ArgumentShape | 'unchecked' | undefined;
  readonly block: BlockReading;
}

/**
 * Per release, per plugin name of the syntax table: asked once, since every directive asks, and
 * shared by every lint of the release (a batch lints thousands of Corefiles; bounded by releases ×
 * the table's rows, since names outside the table are not kept).
 */
const SYNTAX_AT = new Map<CoreDnsVersion, Map<string, SyntaxAtRelease | null>>();

function syntaxAt(context: LintContext, name: string): SyntaxAtRelease | null {
  let byName = SYNTAX_AT.get(context.version);
  if (byName === undefined) {
    byName = new Map();
    SYNTAX_AT.set(context.version, byName);
  }
  let entry = byName.get(name);
  if (entry === undefined) {
    const syntax = pluginSyntax(name);
    if (syntax === undefined) return null;
    entry = { syntax, arguments: eraAt(syntax.arguments, context.version), block: eraAt(syntax.block, context.version) ?? 'unchecked' };
    byName.set(name, entry);
  }
  return entry;
}

/** Checks one written plugin line: its arguments and the lines of its block. */
export function checkPluginSyntax(context: LintContext, directive: Directive, label: string): void {
  const { name } = directive;
  const known = syntaxAt(context, name);
  const options = directive.block?.directives ?? [];
  if (known === null) {
    for (const option of options) checkOption(context, name, option, label);
    return;
  }
  const { syntax } = known;
  const v = context.version;
  const position = directive.position ?? ORIGIN;
  const path = () => where(position, label, name);
  const shape = known.arguments;
  const args =
    syntax.blockExtendsArguments === true && directive.arguments.length < 2 && directive.block !== undefined
      ? [...directive.arguments, ...options.flatMap((option) => [option.name, ...option.arguments])]
      : directive.arguments;
  if (shape !== undefined && shape !== 'unchecked') {
    const fits = checkArguments(context, args, shape, name, undefined, label, position, directive.argumentPositions);
    if (fits && name === 'rewrite') checkRewriteRule(context, args, label, position, directive.argumentPositions);
  }
  if (name === 'bind' && context.features.bindInterfaceNames) checkBindInterfaces(context, directive, label);
  for (const required of syntax.requiredOptions ?? []) {
    if (isCoreDnsVersionAtLeast(v, required.from) && !options.some((option) => option.name === required.option)) {
      context.report('requirement-missing', position, path, `${name} needs a ${quote(required.option)} line in its block: CoreDNS ${v} stops with "${required.message}"`);
    }
  }
  const missing = syntax.requiredOneOf === undefined || options.some((option) => holdsPlaceholder(option.name) || option.name === 'import') ? undefined : missingRequiredLines(name, options, v);
  if (missing !== undefined && syntax.requiredOneOf !== undefined) {
    const unless = syntax.requiredOneOf.unless;
    context.report(
      'requirement-missing',
      position,
      path,
      `${name} needs ${missing.map(quote).join(' or ')} in its block, or ${unless.option} other than ${unless.value}: CoreDNS ${v} stops with "${syntax.requiredOneOf.message}"`,
    );
  }
  if (directive.block === undefined) return;
  const reading = known.block;
  switch (reading) {
    case 'unchecked':
      for (const option of options) checkOption(context, name, option, label);
      return;
    case 'none': {
      const first = options[0];
      const at = first?.position ?? position;
      context.report(
        'option-unknown',
        at,
        first === undefined ? path : where(at, label, name, first.name),
        `plugin ${quote(name)} reads no block in CoreDNS ${v}: it does not start with one (the block's first token is read as a second ${name} line or an argument)`,
      );
      return;
    }
    case 'ignored':
      for (const option of options) {
        const at = option.position ?? position;
        context.report('option-ignored', at, where(at, label, name, option.name), `CoreDNS ${v} never reads the block of ${name}: ${quote(option.name)} has no effect`);
      }
      return;
    case 'options':
    case 'lenient':
    case 'hosts-entries':
    case 'name-pairs':
      checkOptions(context, directive, syntax, reading, label);
  }
}

function checkOptions(context: LintContext, directive: Directive, syntax: PluginSyntax, reading: 'options' | 'lenient' | 'hosts-entries' | 'name-pairs', label: string): void {
  const { name: plugin } = directive;
  const v = context.version;
  const list = directive.block?.directives ?? [];
  // Made when first needed: most blocks have one or two options and no rule that asks.
  let seen: Set<string> | undefined;
  let written: Set<string> | undefined;
  let fellThrough = false;
  for (const option of list) {
    const name = syntax.caseInsensitiveOptions === true ? option.name.toLowerCase() : option.name;
    const position = option.position ?? ORIGIN;
    const path = () => where(position, label, plugin, name);
    if (name === 'import' || holdsPlaceholder(name)) continue;
    const facts = Object.hasOwn(syntax.options, name) ? syntax.options[name] : undefined;
    if (facts === undefined) {
      if (reading === 'name-pairs') continue;
      if (reading === 'lenient') {
        context.report('option-ignored', position, path, `${quote(name)} is not an option of ${plugin} in CoreDNS ${v}, which passes over the line: it has no effect`);
        continue;
      }
      if (reading === 'hosts-entries' && !fellThrough) {
        if (!isGoIP(name)) {
          context.report('option-ignored', position, path, `${quote(name)} is neither an option of hosts in CoreDNS ${v} nor an entry starting with an IP address: CoreDNS drops the line`);
        }
        continue;
      }
      reportUnknownOption(context, plugin, syntax, name, position, path);
      continue;
    }
    const availability = context.option(plugin, name);
    if (reading === 'hosts-entries' && !fellThrough && !isUsable(availability)) {
      context.report('option-ignored', position, path, `${quote(name)} is not an option of hosts in CoreDNS ${v} (${availability.since === undefined ? 'unknown there' : `it arrives in ${availability.since}`}): CoreDNS reads the line as a host entry and drops it`);
      continue;
    }
    // Timelines (removed, not yet added, deprecated) and the kubernetes upstream history.
    checkOption(context, plugin, name === option.name ? option : { ...option, name }, label);
    if (name === 'fallthrough') fellThrough = true;
    if (!isUsable(availability)) continue;
    if (plugin === 'kubernetes' && name === 'upstream') continue;
    const shape = optionArgumentsAt(facts, v);
    if (shape !== undefined) {
      const ok = checkArguments(context, option.arguments, shape, plugin, name, label, position, option.argumentPositions);
      if (ok && facts.ignoredFrom !== undefined && isCoreDnsVersionAtLeast(v, facts.ignoredFrom)) {
        context.report('option-ignored', position, path, `option ${quote(name)} of ${plugin} is accepted and has no effect in CoreDNS ${v}`);
      }
    }
    if (facts.onceFrom !== undefined && seen !== undefined && seen.has(name) && isCoreDnsVersionAtLeast(v, facts.onceFrom)) {
      context.report('option-repeated', position, path, `option ${quote(name)} of ${plugin} is given twice: CoreDNS ${v} does not start`);
    }
    if (list.length > 1) (seen ??= new Set()).add(name);
    const requires = facts.requires;
    if (requires !== undefined && isCoreDnsVersionAtLeast(v, requires.from)) {
      written ??= new Set(list.map((entry) => entry.name));
      const missing =
        (requires.option !== undefined && !written.has(requires.option)) || (requires.pluginArgument !== undefined && !directive.arguments.includes(requires.pluginArgument));
      if (missing) context.report('requirement-missing', position, path, `option ${quote(name)} of ${plugin} needs ${requires.what}: CoreDNS ${v} does not start`);
    }
  }
}

function reportUnknownOption(context: LintContext, plugin: string, syntax: PluginSyntax, name: string, position: SourcePosition, path: PathText): void {
  const v = context.version;
  const message = () => context.memo(`option-unknown ${plugin} ${name}`, () => {
    const known = Object.keys(syntax.options).filter((option) => isUsable(context.option(plugin, option)));
    const suggestions = closestNames(name, known).map(quote);
    const guess = suggestions.length === 0 ? '' : `; did you mean ${suggestions.join(' or ')}?`;
    const list = known.length === 0 ? `${plugin} has no options in CoreDNS ${v}` : `its options in CoreDNS ${v}: ${known.join(', ')}`;
    return `${quote(name)} is not an option of ${plugin} (${list}): CoreDNS ${v} does not start ("unknown property" or a parse error)${guess}`;
    });
  context.report('option-unknown', position, path, message);
}

/**
 * Per server block (after imports): plugins written twice where the release allows one line, and
 * plugins that need another plugin in the block. `forward` is left to its own rule
 * (`forward-once-per-block`).
 */
export function checkBlockSyntax(context: LintContext, info: BlockInfo): void {
  const v = context.version;
  const counted = new Map<string, number>();
  for (const { directive, label } of info.directives) {
    const { name } = directive;
    if (name === 'forward' || !info.plugins.has(name)) continue;
    const syntax = pluginSyntax(name);
    if (syntax === undefined) continue;
    const count = (counted.get(name) ?? 0) + 1;
    counted.set(name, count);
    if (count > 2 || (count === 1 && syntax.requiresPlugin === undefined)) continue;
    const position = directive.position ?? ORIGIN;
    const path = () => where(position, placedLabels(info, label), name);
    if (count === 2 && eraAt(syntax.oncePerBlock, v) === true) {
      context.report('plugin-repeated', position, path, `a second ${name} in block ${quote(info.label)}: CoreDNS ${v} stops with "this plugin can only be used once per Server Block"`);
    }
    const requires = syntax.requiresPlugin;
    if (count === 1 && requires !== undefined && isCoreDnsVersionAtLeast(v, requires.from) && !info.plugins.has(requires.plugin)) {
      context.report('requirement-missing', position, path, `${name} needs the ${requires.plugin} plugin in its block: CoreDNS ${v} stops with "${requires.message}"`);
    }
  }
}
