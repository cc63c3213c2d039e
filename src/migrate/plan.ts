/**
 * The planning floor of a migration: {@link PlannedDirective} (a directive as it will be written)
 * and {@link MigrationPlan} (the shared state and edit operations of the rules).
 *
 * Pure: no Node APIs.
 */
import type { Directive, DirectiveList } from '../corefile/model.js';
import type { Availability } from '../coredns/availability.js';
import { coreDnsFeatures } from '../coredns/features.js';
import { NEW_DEFAULTS } from '../coredns/migration-facts.js';

/** A new default that is an option (`max_concurrent 1000`, `lameduck 5s`). */
type NewDefaultOption = Extract<(typeof NEW_DEFAULTS)[number], { readonly kind: 'option' }>;
/** A new default that is a plugin (`loop`, `ready`). */
type NewDefaultPlugin = Extract<(typeof NEW_DEFAULTS)[number], { readonly kind: 'plugin' }>;
import { compareCoreDnsVersions, isCoreDnsVersionAtLeast } from '../coredns/versions.js';
import type { CoreDnsVersion } from '../coredns/versions.js';
import { migrationNotice } from './notices.js';
import type { MigrationNotice, NoticeDetails } from './notices.js';
import type { DiagnosticCode } from '../diagnostics/codes.js';
import { ownedSpan } from './spans.js';
import type { LineSpan } from './spans.js';
import { LineEditor } from './text-edits.js';
import { OwnAnswers } from '../lint/release-answers.js';
import type { MigrateOptions } from './options.js';

/**
 * One directive of a block as it will be written. `lines` are its source lines, read on first use
 * (most directives never change), then edited in place; null when removed or when the directive
 * does not have its lines to itself.
 */
export class PlannedDirective {
  name: string;
  changed = false;
  #removed = false;
  #lines: string[] | undefined;
  /** The span, worked out on first use (`null`: not yet): most directives never need it. */
  #span: LineSpan | undefined | null = null;

  /** `list.directives[index]`, planned on the text of `editor`. */
  constructor(
    private readonly list: DirectiveList,
    private readonly index: number,
    private readonly editor: LineEditor,
  ) {
    this.directive = list.directives[index] as Directive;
    this.name = this.directive.name;
  }

  readonly directive: Directive;

  /** The lines the directive has to itself ({@link ownedSpan}); undefined when it shares them. */
  get span(): LineSpan | undefined {
    if (this.#span === null) this.#span = ownedSpan(this.editor, this.list, this.index);
    return this.#span;
  }

  /** Whether a rule removed the directive. */
  get removed(): boolean {
    return this.#removed;
  }

  get lines(): string[] | null {
    if (this.#removed || this.span === undefined) return null;
    if (this.#lines === undefined) {
      this.#lines = [];
      for (let line = this.span.first; line <= this.span.last; line += 1) this.#lines.push(this.editor.line(line));
    }
    return this.#lines;
  }

  set lines(lines: string[] | null) {
    if (lines === null) this.#removed = true;
    else this.#lines = lines;
  }
}

/**
 * What every migration rule works with: the text being edited, the notices, the two releases and
 * the target's facts, and the edits a rule makes on a planned directive or one of its options.
 * The rules themselves live with the plugins they concern (proxy.ts, kubernetes.ts,
 * block-level.ts) and the driver in migrate.ts.
 */
export class MigrationPlan {
  readonly editor: LineEditor;

  readonly notices: MigrationNotice[] = [];

  readonly up: boolean;

  readonly unit: string;

  readonly features;

  constructor(
    text: string,
    readonly from: CoreDnsVersion,
    readonly to: CoreDnsVersion,
    readonly options: MigrateOptions,
  ) {
    this.editor = new LineEditor(text);
    this.up = compareCoreDnsVersions(to, from) > 0;
    this.unit = this.detectIndentUnit();
    this.features = coreDnsFeatures(to);
    this.answers = new OwnAnswers(to);
  }

  detectIndentUnit(): string {
    for (let line = 1; line <= this.editor.lineCount; line += 1) {
      const indentation = this.editor.indentation(line);
      if (indentation !== '' && this.editor.line(line).trim() !== '' && !this.editor.line(line).trim().startsWith('#')) return indentation;
    }
    return '    ';
  }

  /** Answers of the release tables in the target release, shared by every migration to it (src/lint/release-answers.ts). */
  private readonly answers: OwnAnswers;

  /** `coreDnsPluginAvailability` in the target release, asked once per name. */
  plugin(name: string): Availability {
    return this.answers.plugin(name);
  }

  /** `coreDnsOptionAvailability` in the target release, asked once per pair. */
  option(plugin: string, option: string): Availability {
    return this.answers.option(plugin, option);
  }

  notice(code: DiagnosticCode, details: NoticeDetails): void {
    this.notices.push(migrationNotice(code, details));
  }

  /** The target release is `release` or newer. */
  targetHas(release: CoreDnsVersion): boolean {
    return isCoreDnsVersionAtLeast(this.to, release);
  }

  /** Whether the server block (or snippet) being migrated holds the kubernetes plugin. */
  inKubernetesBlock = false;

  /** The source release is `release` or newer. */
  sourceHas(release: CoreDnsVersion): boolean {
    return isCoreDnsVersionAtLeast(this.from, release);
  }

  /** An upgrade that crosses `release` (from older than it to it or newer). */
  crosses(release: CoreDnsVersion): boolean {
    return this.up && !isCoreDnsVersionAtLeast(this.from, release) && this.targetHas(release);
  }

  spanTo(release: CoreDnsVersion): { from: CoreDnsVersion; to: CoreDnsVersion } {
    return { from: release, to: this.to };
  }

  notInPlace(directive: Directive): void {
    this.notice('migrate-not-in-place', {
      action: 'refused',
      plugin: directive.name,
      ...(directive.position === undefined ? {} : { position: directive.position }),
      message: `${directive.name} must change for CoreDNS ${this.to}, but its line holds more than this directive (or its braces are not on lines of their own)`,
    });
  }

  remove(entry: PlannedDirective): void {
    entry.lines = null;
    entry.changed = true;
  }

  /** The lines of option `index` of the entry's block, relative to the entry's first line; undefined when not its own. */
  optionRange(entry: PlannedDirective, index: number): { start: number; end: number } | undefined {
    const block = entry.directive.block;
    if (block === undefined || entry.span === undefined) return undefined;
    const span = ownedSpan(this.editor, block, index);
    if (span === undefined) return undefined;
    return { start: span.first - entry.span.first, end: span.last - entry.span.first };
  }

  /** Marks option `index` for removal (its lines become undefined markers, dropped when written). */
  removeOption(entry: PlannedDirective, index: number): void {
    this.replaceOption(entry, index, []);
  }

  /** Replaces option `index` by `lines` (already indented). */
  replaceOption(entry: PlannedDirective, index: number, lines: readonly string[]): void {
    const range = this.optionRange(entry, index);
    const option = entry.directive.block?.directives[index];
    if (range === undefined || entry.lines === null || option === undefined) {
      if (option !== undefined) this.notInPlace(option);
      return;
    }
    const current = entry.lines;
    // Replaced lines are blanked to a marker first so later ranges keep their offsets.
    for (let line = range.start; line <= range.end; line += 1) current[line] = REMOVED;
    current[range.start] = lines.length === 0 ? REMOVED : lines.join(LINE_SEPARATOR);
    entry.changed = true;
  }

  /** The indentation of the entry's options (an existing one's, else the directive's plus one unit). */
  optionIndent(entry: PlannedDirective): string {
    const first = entry.directive.block?.directives[0]?.position?.line;
    if (first !== undefined) return this.editor.indentation(first);
    return (entry.span === undefined ? '' : this.editor.indentation(entry.span.first)) + this.unit;
  }

  /** Adds an option line at the end of the entry's block (making a block when it has none). */
  addOption(entry: PlannedDirective, text: string): boolean {
    if (entry.lines === null || entry.span === undefined) {
      this.notInPlace(entry.directive);
      return false;
    }
    const indent = this.optionIndent(entry);
    const lines = entry.lines;
    if (entry.directive.block !== undefined) {
      lines.splice(lines.length - 1, 0, indent + text);
    } else {
      if (lines.length !== 1) {
        this.notInPlace(entry.directive);
        return false;
      }
      const comment = entry.directive.trailingComment;
      const line = lines[0] ?? '';
      const at = comment === undefined ? -1 : line.lastIndexOf(`#${comment.text}`);
      const code = at < 0 ? line.trimEnd() : line.slice(0, at).trimEnd();
      const tail = at < 0 ? '' : ` ${line.slice(at)}`;
      lines.splice(0, 1, `${code} {${tail}`, indent + text, this.editor.indentation(entry.span.first) + '}');
    }
    entry.changed = true;
    return true;
  }

  /**
   * The new default options (`lameduck 5s`, `max_concurrent 1000`) an upgrade adds. `max_concurrent
   * 1000` goes only to the forward of a block with kubernetes, the one kubeadm's default Corefile
   * (and the translator) gives it — never to stub forwards, which neither has it on.
   */
  addDefaultOption(entry: PlannedDirective, plugin: 'health' | 'forward'): void {
    if (this.options.newDefaults === false) return;
    for (const item of this.crossedDefaultOptions(plugin)) {
      if (item.plugin === 'forward' && !this.inKubernetesBlock) continue;
      if (entry.directive.block?.directives.some((option) => option.name === item.option) === true) continue;
      const text = [item.option, ...item.arguments].join(' ');
      if (!this.addOption(entry, text)) continue;
      this.notice('migrate-new-default', {
        action: 'added',
        plugin,
        option: item.option,
        ...(entry.directive.position === undefined ? {} : { position: entry.directive.position }),
        releases: this.spanTo(item.release),
        message: `added \`${text}\` to ${plugin}: a default since ${item.release} (corefile-migration and kubeadm add it on upgrade)`,
      });
    }
  }

  /**
   * The new default options of `plugin` whose release this upgrade crosses: asked per directive,
   * worked out once per pair of releases and plugin (bounded: a batch migrates many Corefiles
   * between the same two releases).
   */
  private crossedDefaultOptions(plugin: 'health' | 'forward'): readonly NewDefaultOption[] {
    // This plan's answer first: the shared table's key is a string made per call.
    const known = plugin === 'health' ? this.#crossedHealth : this.#crossedForward;
    if (known !== undefined) return known;
    const key = `${this.from} ${this.to} ${plugin}`;
    let items = CROSSED_DEFAULT_OPTIONS.get(key);
    if (items === undefined) {
      items = Object.freeze(NEW_DEFAULTS.filter((item): item is NewDefaultOption => item.kind === 'option' && item.plugin === plugin && this.crosses(item.release)));
      CROSSED_DEFAULT_OPTIONS.set(key, items);
    }
    if (plugin === 'health') this.#crossedHealth = items;
    else this.#crossedForward = items;
    return items;
  }

  #crossedHealth: readonly NewDefaultOption[] | undefined;
  #crossedForward: readonly NewDefaultOption[] | undefined;
  #crossedPlugins: readonly NewDefaultPlugin[] | undefined;

  /** The new default plugins whose release this upgrade crosses (asked per block, worked out once). */
  crossedDefaultPlugins(): readonly NewDefaultPlugin[] {
    return (this.#crossedPlugins ??= NEW_DEFAULTS.filter((item): item is NewDefaultPlugin => item.kind === 'plugin' && this.crosses(item.release)));
  }

  /** A block left with no lines between its braces becomes no block. */
  collapseEmptyBlock(entry: PlannedDirective): void {
    const lines = entry.lines;
    if (lines === null || entry.directive.block === undefined) return;
    const inner = lines.slice(1, -1).filter((line) => line !== REMOVED);
    if (inner.length > 0 || (entry.directive.block.endComments?.length ?? 0) > 0) return;
    const first = (lines[0] ?? '').replace(/[ \t]*\{[ \t]*$/, '');
    if (first === lines[0]) return;
    entry.lines = [first];
  }
}

/** {@link MigrationPlan}'s crossed new default options, by `FROM TO PLUGIN`. */
const CROSSED_DEFAULT_OPTIONS = new Map<string, readonly NewDefaultOption[]>();

/**
 * Joins the lines that replace one source line. A line feed, since no line of the text holds one
 * (any other character, NUL included, may be in the input and must stay inside its line).
 */
export const LINE_SEPARATOR = '\n';

/** Marks a line removed inside a planned directive (kept until written so that offsets hold); holds a line feed, so no source line equals it. */
export const REMOVED = '\u0000removed\u0000\n';

/** The lines a planned directive is written as. */
export function writtenLines(lines: readonly string[]): string[] {
  const written: string[] = [];
  for (const line of lines) {
    if (line === REMOVED) continue;
    if (line.includes(LINE_SEPARATOR)) written.push(...line.split(LINE_SEPARATOR));
    else written.push(line);
  }
  return written;
}
