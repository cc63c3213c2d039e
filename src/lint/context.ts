import type { Corefile, Directive, ServerBlock } from '../corefile/model.js';
import { DIAGNOSTIC_CODES } from '../diagnostics/codes.js';
import type { DiagnosticCode } from '../diagnostics/codes.js';
import { diagnostic, LISTED_PER_CODE, worseSeverity } from '../diagnostics/diagnostic.js';
import type { Diagnostic, Severity } from '../diagnostics/diagnostic.js';
import type { Availability } from '../coredns/availability.js';
import { readDestination } from '../coredns/destinations.js';
import type { Destination } from '../coredns/destinations.js';
import type { CoreDnsFeatures } from '../coredns/features.js';
import type { CoreDnsVersion } from '../coredns/versions.js';
import type { SourcePosition } from '../util/source-position.js';
import type { PluginBuild } from './build.js';
import { OwnAnswers } from './release-answers.js';
import type { KeyReading } from './server-keys.js';

export { holdsOnlyNodeCacheVariables, holdsPlaceholder } from './placeholders.js';

/**
 * What every lint rule works with: the release and build linted against, and the report the
 * findings go to, with the helpers that place a finding (`path`, block labels). The rules live in
 * `rules/`, one module per group; `lint.ts` runs them in order.
 *
 * Every diagnostic has `key: 'Corefile'`, a `position` (line and column in the Corefile text) and a
 * `path` that repeats the position and names the place: `:LINE:COL [BLOCK] DIRECTIVE[ > OPTION]`,
 * where BLOCK is the block's keys (the first two and `…` when there are more) or `(name)` for a
 * snippet, so that `formatDiagnostic` prints `error code Corefile:12:5 [acme.local:53] forward: …`.
 *
 * Pure: no Node APIs.
 */

/** Where a node without a position is reported. */
export const ORIGIN: SourcePosition = { line: 1, column: 1 };

/** The plugins that forward queries and take destinations. */
export const FORWARDERS: ReadonlySet<string> = new Set(['forward', 'proxy']);

/**
 * Findings listed per code ({@link LISTED_PER_CODE}); the rest of that code is counted in one
 * `findings-not-listed` (with the worst severity among them, so the verdict stays the same).
 */
export const FINDINGS_LISTED_PER_CODE = LISTED_PER_CODE;

/**
 * A finding's `path` (see the module comment), or how to make it: rules check every directive,
 * and most have nothing to report, so hot rules pass a function and the text is only built for a
 * finding that is listed.
 */
export type PathText = string | (() => string);

export class LintContext {
  readonly features: CoreDnsFeatures;
  readonly version: CoreDnsVersion;
  readonly build: PluginBuild;
  readonly #diagnostics: Diagnostic[] = [];
  // Made on first use: a batch makes a context per Corefile, and most never report once or memo.
  #reportedOnce: Set<string> | undefined;
  /** Findings per code; past {@link FINDINGS_LISTED_PER_CODE}, only counted (and their worst severity kept). */
  readonly #perCode = new Map<DiagnosticCode, { count: number; worst: Severity }>();
  #memo: Map<string, string> | undefined;
  /** Error findings so far, listed or only counted. */
  errorCount = 0;
  /** Answers of the release tables, asked once per name, shared by every lint of the release (release-answers.ts). */
  readonly #answers: OwnAnswers;

  /**
   * The line number a message prints for a position of another node (`(line 12)`): its line,
   * unless the model is read in pieces (see `lintCorefileModel`).
   */
  readonly lineNumber: (position: SourcePosition) => number;

  /**
   * Only errors are listed (findings of other severities are counted as usual, so that
   * `findings-not-listed` and which errors are listed stay as in a full lint): for callers that
   * read the errors alone (the target checks of migrate and of the translator), which then pay for
   * no other finding's path, message or object.
   */
  readonly #errorsOnly: boolean;

  constructor(features: CoreDnsFeatures, build: PluginBuild, lineNumber?: (position: SourcePosition) => number, errorsOnly = false) {
    this.features = features;
    this.version = features.version;
    this.build = build;
    this.lineNumber = lineNumber ?? lineOf;
    this.#errorsOnly = errorsOnly;
    this.#answers = new OwnAnswers(features.version);
  }

  /**
   * Adds a finding. `message` may be a function: it is called only when the finding is listed
   * (past {@link FINDINGS_LISTED_PER_CODE} of its code, findings are only counted).
   */
  report(code: DiagnosticCode, position: SourcePosition, path: PathText, message: string | (() => string), extra: { severity?: Severity; hint?: string } = {}): void {
    const severity = extra.severity ?? DIAGNOSTIC_CODES[code].severity;
    if (severity === 'error') this.errorCount += 1;
    const seen = this.#perCode.get(code);
    if (seen === undefined) this.#perCode.set(code, { count: 1, worst: severity });
    else {
      seen.count += 1;
      seen.worst = worseSeverity(seen.worst, severity);
      if (seen.count > FINDINGS_LISTED_PER_CODE) return;
    }
    if (this.#errorsOnly && severity !== 'error') return;
    this.#diagnostics.push(diagnostic(code, { key: 'Corefile', path: typeof path === 'string' ? path : path(), position, message: typeof message === 'string' ? message : message(), ...extra }));
  }

  /** `coreDnsPluginAvailability` in the release linted against. */
  plugin(name: string): Availability {
    return this.#answers.plugin(name);
  }

  /** `coreDnsOptionAvailability` in the release linted against. */
  option(plugin: string, option: string): Availability {
    return this.#answers.option(plugin, option);
  }

  /** The destinations of a `forward`/`proxy` line: its arguments after the first, read. */
  destinations(directive: Directive): readonly Destination[] {
    // Two rules ask for them, the line's and then the block's, mostly with no other line between:
    // the last line's are kept for the second ask (models are read-only, and the list is never written to).
    if (directive === this.#destinationsOf) return this.#lastDestinations;
    const args = directive.arguments;
    const read: Destination[] = new Array(Math.max(0, args.length - 1));
    for (let index = 1; index < args.length; index += 1) read[index - 1] = readDestination(args[index] as string);
    this.#destinationsOf = directive;
    this.#lastDestinations = read;
    return read;
  }

  #destinationsOf: Directive | undefined;
  #lastDestinations: readonly Destination[] = [];

  /** `compute()` once per `key` for this lint: a message that costs work (suggestions) and repeats. */
  memo(key: string, compute: () => string): string {
    const memo = (this.#memo ??= new Map());
    let value = memo.get(key);
    if (value === undefined) {
      value = compute();
      memo.set(key, value);
    }
    return value;
  }

  /** Reports only the first time `once` is seen. */
  reportOnce(once: string, code: DiagnosticCode, position: SourcePosition, path: PathText, message: string): void {
    const reported = (this.#reportedOnce ??= new Set());
    if (reported.has(once)) return;
    reported.add(once);
    this.report(code, position, path, message);
  }

  /** The findings ordered by position (then in the order reported). */
  sorted(): Diagnostic[] {
    const order = (entry: Diagnostic) => entry.position ?? ORIGIN;
    const listed = this.#diagnostics
      .map((entry, index) => ({ entry, index }))
      .sort((a, b) => order(a.entry).line - order(b.entry).line || order(a.entry).column - order(b.entry).column || a.index - b.index)
      .map(({ entry }) => entry);
    // What was only counted comes last, one line per code.
    const unlisted = [...this.#perCode]
      .filter(([, seen]) => seen.count > FINDINGS_LISTED_PER_CODE)
      .map(([code, seen]) =>
        diagnostic('findings-not-listed', {
          key: 'Corefile',
          severity: seen.worst,
          message: `${(seen.count - FINDINGS_LISTED_PER_CODE).toLocaleString('en')} more ${code} findings are not listed (${seen.count.toLocaleString('en')} in all; the first ${FINDINGS_LISTED_PER_CODE.toLocaleString('en')} are)`,
        }),
      );
    return unlisted.length === 0 ? listed : [...listed, ...unlisted];
  }

}

/** Template variables (`__PILLAR__DNS__DOMAIN__`, …) of node-local-dns and kube-up addon manifests, filled in before CoreDNS reads the text. */
const NODE_CACHE_VARIABLE = /__PILLAR__[A-Z0-9_]*__/g;
const PILLAR = '__PILLAR__';

/**
 * The node-cache variables of a Corefile with where each is first written: keys, directive names
 * and arguments, in snippets and nested blocks too (a walk with an explicit stack). Empty for most
 * Corefiles: a word is only looked at when it holds `__PILLAR__`.
 */
export function nodeCacheVariables(corefile: Corefile): Map<string, SourcePosition> {
  const found = new Map<string, SourcePosition>();
  // Called only for a word holding `__PILLAR__`: the position (a fresh object from a parsed node) is read only then.
  const note = (text: string, position: SourcePosition | undefined) => {
    const at = position ?? ORIGIN;
    for (const match of text.matchAll(NODE_CACHE_VARIABLE)) {
      const seen = found.get(match[0]);
      if (seen === undefined || at.line < seen.line || (at.line === seen.line && at.column < seen.column)) found.set(match[0], at);
    }
  };
  const pending: (readonly Directive[])[] = [];
  for (const item of corefile.items) {
    if (item.kind === 'server-block') {
      const { keys } = item;
      for (let index = 0; index < keys.length; index += 1) {
        const key = keys[index] as string;
        if (key.includes(PILLAR)) note(key, item.keyPositions?.[index] ?? item.position);
      }
      pending.push(item.directives);
    } else if (item.kind === 'snippet') pending.push(item.directives);
  }
  for (let list = pending.pop(); list !== undefined; list = pending.pop()) {
    for (const directive of list) {
      if (directive.name.includes(PILLAR)) note(directive.name, directive.position);
      const args = directive.arguments;
      for (let index = 0; index < args.length; index += 1) {
        const argument = args[index] as string;
        if (argument.includes(PILLAR)) note(argument, directive.argumentPositions?.[index] ?? directive.position);
      }
      if (directive.block !== undefined) pending.push(directive.block.directives);
    }
  }
  return found;
}

/** The one finding for a Corefile's node-cache variables (lint.ts): at the first, naming them all. */
export function reportNodeCacheVariables(context: LintContext, variables: ReadonlyMap<string, SourcePosition>): void {
  if (variables.size === 0) return;
  const entries = [...variables].sort(([, a], [, b]) => a.line - b.line || a.column - b.column);
  const [, first] = entries[0] as [string, SourcePosition];
  const names = entries.map(([name, position]) => `${name} (line ${context.lineNumber(position)})`);
  context.report(
    'placeholder-not-checked',
    first,
    where(first),
    `${names.join(', ')} ${names.length === 1 ? 'is a template variable' : 'are template variables'} that ${names.length === 1 ? 'is' : 'are'} filled in before CoreDNS reads the Corefile (by node-cache for a node-local-dns template, by the cluster's set-up scripts for the kube-up addon manifests), so the keys, addresses and destinations holding ${names.length === 1 ? 'it' : 'them'} were not checked`,
  );
}

function lineOf(position: SourcePosition): number {
  return position.line;
}

/** A directive of a server block after snippet imports are expanded. */
export interface PlacedDirective {
  readonly directive: Directive;
  /** The label of the place it is written: the block, or `(snippet)`. */
  readonly label: string;
}

/** One server key with where it is written and how the release reads it. */
export interface KeyEntry {
  readonly block: BlockSummary;
  readonly key: string;
  readonly position: SourcePosition;
  readonly reading: KeyReading & { kind: 'ok' };
}

/**
 * What the rules across blocks (keys, health listeners) read of a server block: all that a lint
 * reading the blocks one at a time keeps of each (src/lint/blockwise.ts).
 */
export interface BlockSummary {
  readonly label: string;
  readonly position: SourcePosition;
  /** How many keys the block has (valid or not). */
  readonly keyCount: number;
  /** The block's directives (after imports); a summary holds only those named in {@link ACROSS_BLOCKS}. */
  readonly directives: readonly PlacedDirective[];
  /** Names of the plugins the block uses (after imports) that the build linted against loads; a summary holds only those named in {@link ACROSS_BLOCKS}. */
  readonly plugins: NameSet;
  /** Every directive name of the block (after imports), loadable or not; a summary holds only those named in {@link ACROSS_BLOCKS}. */
  readonly written: NameSet;
  /** Its valid keys, filled in by the key rules. */
  readonly keys: KeyEntry[];
}

/**
 * The directive names the rules across blocks ask a block about: kubernetes (the zones it serves),
 * health (its listener), bind and view (which let two blocks serve one zone).
 */
export const ACROSS_BLOCKS: readonly string[] = ['kubernetes', 'health', 'bind', 'view'];

/** A server block as the block rules see it. */
export interface BlockInfo extends BlockSummary {
  readonly block: ServerBlock;
}

/**
 * A set of directive names: a list while it is short (a block has a handful of plugins, and lint
 * makes two of these per block), a `Set` past {@link NameSet.LIST_LIMIT} names.
 */
export class NameSet {
  static readonly LIST_LIMIT = 16;
  #list: string[] = [];
  #set: Set<string> | undefined;

  add(name: string): void {
    if (this.#set !== undefined) {
      this.#set.add(name);
      return;
    }
    if (this.#list.includes(name)) return;
    this.#list.push(name);
    if (this.#list.length > NameSet.LIST_LIMIT) this.#set = new Set(this.#list);
  }

  has(name: string): boolean {
    return this.#set === undefined ? this.#list.includes(name) : this.#set.has(name);
  }

  /** The names of this set among `names`, as a set; one shared empty set when there are none (never add to it). */
  among(names: readonly string[]): NameSet {
    let subset: NameSet | undefined;
    for (const name of names) if (this.has(name)) (subset ??= new NameSet()).add(name);
    return subset ?? NO_NAMES;
  }
}

const NO_NAMES = new NameSet();

/** `:LINE:COL [LABEL] NAME > NAME` (see the module comment); several labels for a snippet inside a block. */
export function where(position: SourcePosition, label?: string | readonly string[], ...names: readonly string[]): string {
  // Most paths are one label and one or two names: built without the lists below (lint makes a
  // path for every directive it checks).
  if (typeof label === 'string') {
    const head = `:${position.line}:${position.column} [${label}]`;
    if (names.length === 1) return `${head} ${names[0]}`;
    if (names.length === 2) return `${head} ${names[0]} > ${names[1]}`;
  }
  const labels = label === undefined ? [] : typeof label === 'string' ? [label] : label;
  const block = labels.map((text) => ` [${text}]`).join('');
  const path = names.length === 0 ? '' : ` ${names.join(' > ')}`;
  return `:${position.line}:${position.column}${block}${path}`;
}

/** `[block]`, or `[block] [(snippet)]` for a directive a snippet brought into the block. */
export function placedLabels(info: { readonly label: string }, label: string): readonly string[] {
  return label === info.label ? [label] : [info.label, label];
}

export function blockLabel(keys: readonly string[]): string {
  if (keys.length === 1) return keys[0] as string;
  if (keys.length <= 2) return keys.join(' ');
  return `${keys[0]} ${keys[1]} …`;
}

export function quote(text: string): string {
  return `'${text}'`;
}

/** A zone in the form `isWithin` compares: lower case, no trailing dot, `''` for the root. */
export function bare(zone: string): string {
  const lower = zone.toLowerCase();
  if (lower === '.') return '';
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

export function fqdn(zone: string): string {
  const lower = zone.toLowerCase();
  return lower.endsWith('.') ? lower : `${lower}.`;
}
