/**
 * `migrateCorefile`: a Corefile written for one CoreDNS release, rewritten for another (up or
 * down), with one notice per finding. Stages: resolve the releases (releases.ts) → parse with
 * token positions (src/corefile) → plan line edits per server block and snippet (this module
 * drives the rules: proxy.ts, kubernetes.ts, block-level.ts and the option checks here, all on
 * plan.ts's shared state, facts from src/coredns) → apply them to the original text
 * (text-edits.ts), so that every line not changed stays byte for byte as written → lint the
 * result for the target release (target-check.ts), refusing what it would refuse; the result's
 * model for that lint is the input's parse for the items the edits left alone plus the rewritten
 * lines parsed anew (target-model.ts).
 * docs/migrate.md describes every rule.
 *
 * Pure: no Node APIs.
 */
import { checkArgument } from '../errors/arguments.js';
import { parseCorefile, parseCorefileItems } from '../corefile/parser.js';
import type { ParseOptions, ParseResult } from '../corefile/parser.js';
import type { CorefileWarning } from '../corefile/errors.js';
import { BlockwiseErrorCheck } from '../lint/blockwise.js';
import type { CheckedBlock } from '../lint/blockwise.js';
import type { CoreDnsVersion } from '../coredns/versions.js';
import { follows, itemLines, walkTarget } from './target-model.js';
import type { ItemRange } from './target-model.js';
import type { ServerBlock, SnippetDefinition } from '../corefile/model.js';
import { isUsable } from '../coredns/availability.js';
import { coreDnsFeatures, noDenialCaching } from '../coredns/features.js';
import { KUBERNETES_TRANSFER_MOVED_IN, NEW_DEFAULTS, SEVERAL_FORWARDS_PER_BLOCK_FROM } from '../coredns/migration-facts.js';
import { COREDNS_RELEASE_SPAN } from '../coredns/versions.js';
import type { CoreDnsReleaseMapping } from '../coredns/resolve-release.js';
import { sortNotices } from './notices.js';
import type { MigrationNotice } from './notices.js';
import { resolveMigrationRelease } from './releases.js';
import { targetRefusals } from './target-check.js';
import type { SourcePosition } from '../util/source-position.js';
import { migrateProxy } from './proxy.js';
import { migrateKubernetes, foldTransfer, migrateFederation } from './kubernetes.js';
import { addNewDefaultPlugins, splitForwards } from './block-level.js';
import { MigrationPlan, PlannedDirective, writtenLines } from './plan.js';

import type { MigrateOptions } from './options.js';
import type { SourceLines } from './text-edits.js';

export interface MigrationResult {
  /** No notice is an error. When false, `corefile` is the input unchanged: nothing was migrated. */
  readonly ok: boolean;
  /** The migrated Corefile (the input itself when nothing changed or the migration was refused). */
  readonly corefile: string;
  /** Whether `corefile` differs from the input. */
  readonly changed: boolean;
  readonly from: CoreDnsReleaseMapping;
  readonly to: CoreDnsReleaseMapping;
  /** One per finding, release notices first, then in Corefile order. */
  readonly notices: readonly MigrationNotice[];
}

/**
 * Migrates `corefile`, known to be Corefile text, from `options.from` to `options.to`: the
 * library's `migrateCorefile` (migrate-corefile.ts) once it has made sure that the
 * text is no ConfigMap (which takes the YAML reader, which the CLI loads only for YAML input).
 * `path` (what the property tests compare): `blocks` (the default) reads a Corefile of server
 * blocks one block at a time where it can (see {@link migrateBlockByBlock}), else as `model`
 * does; `model` parses the whole input and lints the result's model made of the input's kept
 * items plus the rewritten lines (target-model.ts); `text` lints the result parsed as one text;
 * `blocks-only` is the block-by-block path alone, undefined where it leaves the migration to the
 * whole parse.
 *
 * @throws {UnresolvedCoreDnsReleaseError} when `from` or `to` names no known release.
 * @throws {CorefileSyntaxError} when the Corefile does not parse.
 */
export function migrateCorefileText(corefile: string, options: MigrateOptions, path?: Exclude<MigrationPath, 'blocks-only'>): MigrationResult;
export function migrateCorefileText(corefile: string, options: MigrateOptions, path: 'blocks-only'): MigrationResult | undefined;
export function migrateCorefileText(corefile: string, options: MigrateOptions, path: MigrationPath = 'blocks'): MigrationResult | undefined {
  checkArgument('migrateCorefile', 'corefile', corefile, 'string');
  checkArgument('migrateCorefile', 'options', options, 'object');
  const from = resolveMigrationRelease('from', options.from);
  const to = resolveMigrationRelease('to', options.to);
  const releaseNotices = [...from.notices, ...to.notices];
  // Results are built with their fields written out: `{ ...base, ok, … }` (a spread followed by
  // new fields) takes V8 a slow path of several microseconds per object, per Corefile of a batch.
  const result = (ok: boolean, text: string, changed: boolean, notices: readonly MigrationNotice[]): MigrationResult => ({ from: from.mapping, to: to.mapping, ok, corefile: text, changed, notices });
  const parseOptions = { tokenPositions: true, ...(options.filename === undefined ? {} : { filename: options.filename }) };
  if (from.version === to.version) {
    if (path === 'blocks-only') return undefined;
    // Nothing to rewrite, but the answer is still checked: a Corefile the release refuses is not "unchanged and fine".
    const input = parseCorefile(corefile, parseOptions);
    const lineCount = corefile.split('\n').length;
    const refusals = targetRefusals({
      input: () => input,
      inputLines: lineCount,
      output: corefile,
      edited: undefined,
      sourceOf: (line) => (line >= 1 && line <= lineCount ? { first: line, last: line } : undefined),
      unchangedLine: () => true,
      from: from.version,
      to: to.version,
    });
    return result(refusals.length === 0, corefile, false, [...releaseNotices, ...refusals]);
  }
  if (path === 'blocks' || path === 'blocks-only') {
    const migrated = migrateBlockByBlock(corefile, options, from.version, to.version, parseOptions);
    if (migrated !== undefined) return result(true, migrated.corefile, migrated.changed, [...releaseNotices, ...migrated.notices]);
    if (path === 'blocks-only') return undefined;
  }
  const parsed: ParseResult = parseCorefile(corefile, parseOptions);
  const migration = new Migration(corefile, from.version, to.version, options);
  for (const item of parsed.corefile.items) {
    if (item.kind === 'import') migration.fileImport(item.pattern, item.position);
    else migration.migrateList(item);
  }
  if (migration.notices.some((notice) => notice.severity === 'error')) {
    return result(false, corefile, false, [...releaseNotices, ...sortNotices(migration.notices)]);
  }
  const edited = migration.editor.changed ? migration.editor.applyWithSourceLines() : undefined;
  const text = edited?.text ?? corefile;
  // The result's lines are only needed to place a refusal: split when one is made.
  let outputLines: string[] | undefined;
  const lines = (): string[] => (outputLines ??= text.split('\n'));
  const sourceOf = (line: number): SourceLines | undefined => (edited === undefined ? (line >= 1 && line <= lines().length ? { first: line, last: line } : undefined) : edited.source(line));
  const refusals = targetRefusals({
    input: () => parsed,
    inputLines: migration.editor.lineCount,
    output: text,
    edited,
    wholeText: path === 'text',
    sourceOf,
    unchangedLine: (line) => {
      const source = sourceOf(line);
      const written = lines()[line - 1] ?? '';
      return source !== undefined && source.first === source.last && written.replace(/\r$/, '') === migration.editor.line(source.first);
    },
    inputLine: (line) => (line >= 1 && line <= migration.editor.lineCount ? migration.editor.line(line) : undefined),
    from: from.version,
    to: to.version,
  });
  const notices = [...releaseNotices, ...sortNotices([...migration.notices, ...refusals])];
  if (refusals.length > 0) return result(false, corefile, false, notices);
  return result(true, text, text !== corefile, notices);
}

/** How {@link migrateCorefileText} reads the input and checks the result (all give the same result). */
export type MigrationPath = 'blocks' | 'blocks-only' | 'model' | 'text';

/**
 * The migration of a Corefile of server blocks, read one block at a time: each block is parsed,
 * migrated and, when the migration left it as written, linted for the target release at once,
 * keeping of it only what lint's rules across blocks need (`BlockwiseErrorCheck`), so that no
 * model of the whole Corefile is ever alive (on a large Corefile, the garbage collector copying
 * that model was a third of the time, and most of the memory). The blocks the migration rewrote
 * are linted from the result's rewritten lines (target-model.ts's walk, as the `model` path
 * does); then the rules across blocks run over the summaries.
 *
 * It answers only the common case — the migration succeeded and the target release refuses
 * nothing — and undefined for everything else, which the caller then migrates on the whole
 * parse (the findings of a refusal are worded and placed there): a snippet or a top-level
 * import (snippet imports and the snippets' own checks need the whole Corefile), an item without
 * a closing brace or two on one line, a kept block that the migration had edited lines around,
 * an error of the migration, an error of the target check. The results are identical (property
 * test: test/migrate/target-check.property.test.ts).
 */
function migrateBlockByBlock(
  corefile: string,
  options: MigrateOptions,
  from: CoreDnsVersion,
  to: CoreDnsVersion,
  parseOptions: ParseOptions,
): { readonly corefile: string; readonly changed: boolean; readonly notices: readonly MigrationNotice[] } | undefined {
  const migration = new Migration(corefile, from, to, options);
  const check = new BlockwiseErrorCheck(to);
  const ranges: ItemRange[] = [];
  /** Per input block: its lint, when the migration left it as written (undefined: it had edits). */
  const linted: (CheckedBlock | undefined)[] = [];
  let whole = false;
  const { warnings } = parseCorefileItems(corefile, parseOptions, (item) => {
    const range = itemLines(item);
    if (item.kind !== 'server-block' || range === undefined || !follows(ranges[ranges.length - 1], range)) {
      whole = true;
      return false;
    }
    const edits = migration.editor.editCount;
    migration.migrateList(item);
    ranges.push(range);
    linted.push(migration.editor.editCount === edits ? check.block(item) : undefined);
    return true;
  });
  if (whole || migration.notices.some((notice) => notice.severity === 'error')) return undefined;
  const edited = migration.editor.changed ? migration.editor.applyWithSourceLines() : undefined;
  let blocks: (CheckedBlock | undefined)[] = linted;
  let targetWarnings: readonly CorefileWarning[] = warnings;
  if (edited !== undefined) {
    const result: CheckedBlock[] = [];
    const walked = walkTarget(ranges, warnings, migration.editor.lineCount, edited.text, edited, {
      kept: (index) => {
        const block = linted[index];
        return block !== undefined && result.push(block) > 0;
      },
      parsed: (item) => item.kind === 'server-block' && result.push(check.block(item)) > 0,
    });
    if (walked === undefined) return undefined;
    blocks = result;
    targetWarnings = walked.warnings;
  }
  if (blocks.some((block) => block === undefined) || check.hasErrors(blocks as CheckedBlock[], targetWarnings)) return undefined;
  const text = edited?.text ?? corefile;
  return { corefile: text, changed: text !== corefile, notices: sortNotices(migration.notices) };
}

/** kubernetes options with rules of their own (kubernetes.ts), not checked by `checkOptions`. */
const KUBERNETES_OPTIONS_OF_THEIR_OWN: ReadonlySet<string> = new Set(['upstream', 'resyncperiod', 'endpoint', 'transfer']);

/** Drives the rules over each server block and snippet, in order. */
class Migration extends MigrationPlan {
  /** The source release's facts, looked up once. */
  private readonly sourceFeatures = coreDnsFeatures(this.from);

  /** Snippets defined so far: `import NAME` of one of them imports it, any other `import` names files. */
  private readonly definedSnippets = new Set<string>();

  /** `import PATTERN` of files (not of a snippet defined before): what they hold is not migrated. */
  fileImport(pattern: string | undefined, position: SourcePosition | undefined): void {
    if (pattern === undefined || this.definedSnippets.has(pattern)) return;
    this.notice('migrate-import-not-migrated', {
      action: 'kept',
      plugin: 'import',
      ...(position === undefined ? {} : { position }),
      message: `import ${pattern} names files, which are not migrated: migrate each of them for CoreDNS ${this.to} too`,
    });
  }

  migrateList(item: ServerBlock | SnippetDefinition): void {
    const planned = item.directives.map((_, index) => new PlannedDirective(item, index, this.editor));
    this.inKubernetesBlock = item.directives.some((directive) => directive.name === 'kubernetes');
    for (const entry of planned) this.migrateDirective(entry, planned);
    if (item.kind === 'server-block') {
      addNewDefaultPlugins(this, item, planned);
      splitForwards(this, item, planned);
    } else if (!this.features.multipleForwardPerBlock && planned.filter((entry) => entry.lines !== null && entry.name === 'forward').length > 1) {
      this.notice('migrate-forward-split-refused', {
        action: 'refused',
        ...(item.position === undefined ? {} : { position: item.position }),
        message: `snippet (${item.name}) would hold several forward lines, which CoreDNS ${this.to} refuses (several per block from ${SEVERAL_FORWARDS_PER_BLOCK_FROM}); a snippet cannot be split automatically`,
      });
    }
    for (const entry of planned) {
      if (!entry.changed) continue;
      if (entry.span === undefined) {
        this.notInPlace(entry.directive);
        continue;
      }
      this.editor.replace(entry.span.first, entry.span.last, writtenLines(entry.lines ?? []));
    }
    if (item.kind === 'snippet') this.definedSnippets.add(item.name);
  }

  private migrateDirective(entry: PlannedDirective, planned: PlannedDirective[]): void {
    const directive = entry.directive;
    const name = directive.name;
    if (name === 'import') return this.fileImport(directive.arguments[0], directive.position);
    if (name.includes('{$') || name.includes('{%')) return;
    if (name === 'proxy') return migrateProxy(this, entry);
    if (name === 'federation') return migrateFederation(this, entry);
    if (name === 'transfer' && !this.targetHas(KUBERNETES_TRANSFER_MOVED_IN)) return foldTransfer(this, entry, planned);
    const availability = this.plugin(name);
    if (availability.status === 'unknown') {
      this.notice('migrate-plugin-unknown', {
        action: 'kept',
        plugin: name,
        ...(directive.position === undefined ? {} : { position: directive.position }),
        message: `${name} is in no CoreDNS release's default build (${COREDNS_RELEASE_SPAN}): kept as written; it needs a custom build`,
      });
      return;
    }
    if (!isUsable(availability)) {
      if ((name === 'ready' || name === 'loop') && !this.up) {
        this.notice('migrate-default-removed', {
          action: 'removed',
          plugin: name,
          ...(directive.position === undefined ? {} : { position: directive.position }),
          message: `${name} was removed: CoreDNS ${this.to} does not have it (it arrived in ${availability.since ?? '?'})`,
        });
        this.remove(entry);
        return;
      }
      const when =
        availability.status === 'not-yet-added'
          ? `it arrives in ${availability.since ?? '?'}`
          : `it left in ${availability.removedIn ?? '?'}${availability.replacement === undefined ? '' : `; use ${availability.replacement} instead`}`;
      this.notice('migrate-plugin-unavailable', {
        action: 'refused',
        plugin: name,
        ...(directive.position === undefined ? {} : { position: directive.position }),
        releases: availability.status === 'not-yet-added' ? { from: this.to, to: this.to } : this.spanTo(availability.removedIn ?? this.to),
        message: `CoreDNS ${this.to} does not have the ${name} plugin: ${when}`,
      });
      return;
    }
    if (name === 'kubernetes') migrateKubernetes(this, entry);
    this.checkOptions(entry);
    if (name === 'cache') this.undoDenialApproximation(entry);
    if (name === 'forward') this.removeDefaultOnDowngrade(entry);
    if (entry.changed) this.collapseEmptyBlock(entry);
    if (name === 'health') this.addDefaultOption(entry, 'health');
    if (name === 'forward') this.addDefaultOption(entry, 'forward');
  }

  /**
   * cache `denial 9984 1`, the approximation of `disable denial` for releases before 1.9.4 (see
   * {@link approximateOption}), becomes `disable denial` again on an upgrade that crosses 1.9.4:
   * what the translator writes for the target, and what the approximation stood for.
   */
  private undoDenialApproximation(entry: PlannedDirective): void {
    const target = noDenialCaching(this.features);
    if (!this.up || !target.exact) return;
    const source = noDenialCaching(this.sourceFeatures);
    if (source.exact) return;
    const options = entry.directive.block?.directives ?? [];
    options.forEach((option, index) => {
      if (option.name !== source.name || option.arguments.join(' ') !== source.arguments.join(' ')) return;
      if (options.some((other) => other.name === target.name)) return;
      this.replaceOption(entry, index, [`${this.optionIndent(entry)}${target.text}`]);
      this.notice('migrate-approximation-undone', {
        action: 'replaced',
        plugin: 'cache',
        option: option.name,
        ...(option.position === undefined ? {} : { position: option.position }),
        releases: this.spanTo(target.disableFrom),
        message: `cache '${source.text}' became '${target.text}': CoreDNS ${this.to} switches denial caching off (${target.disableFrom}+), which '${source.text}' approximated (NXDOMAIN kept for at most 1 s)`,
      });
    });
  }

  /**
   * A downgrade below 1.7.0 removes the new default `max_concurrent 1000` from the forward of a
   * block with kubernetes, as the upgrade added it (and as corefile-migration's MigrateDown does):
   * kubeadm's default Corefile, and the translator, have none before 1.7.0. Another limit stays.
   */
  private removeDefaultOnDowngrade(entry: PlannedDirective): void {
    if (this.up || this.options.newDefaults === false || !this.inKubernetesBlock) return;
    for (const item of NEW_DEFAULTS) {
      if (item.kind !== 'option' || item.plugin !== 'forward' || !this.sourceHas(item.release) || this.targetHas(item.release)) continue;
      const options = entry.directive.block?.directives ?? [];
      const index = options.findIndex((option) => option.name === item.option && option.arguments.join(' ') === item.arguments.join(' '));
      const option = options[index];
      // Unavailable in the target: checkOptions removes it already.
      if (option === undefined || !isUsable(this.option('forward', item.option))) continue;
      this.removeOption(entry, index);
      this.notice('migrate-default-removed', {
        action: 'removed',
        plugin: 'forward',
        option: item.option,
        ...(option.position === undefined ? {} : { position: option.position }),
        message: `forward ${item.option} ${item.arguments.join(' ')} was removed: a default from ${item.release}, which CoreDNS ${this.to} (older) and its kubeadm default do without`,
      });
    }
  }

  /** Options with version facts the target release lacks: a few are removed (defaults), the rest refused. */
  private checkOptions(entry: PlannedDirective): void {
    const block = entry.directive.block;
    if (block === undefined) return;
    block.directives.forEach((option, index) => {
      if (entry.name === 'kubernetes' && KUBERNETES_OPTIONS_OF_THEIR_OWN.has(option.name)) return;
      const availability = this.option(entry.name, option.name);
      if (availability.status !== 'removed' && availability.status !== 'not-yet-added') return;
      const position = option.position === undefined ? {} : { position: option.position };
      if (this.approximateOption(entry, index)) return;
      const isDefault = NEW_DEFAULTS.some((item) => item.kind === 'option' && item.plugin === entry.name && item.option === option.name);
      if (isDefault && !this.up) {
        this.notice('migrate-default-removed', {
          action: 'removed',
          plugin: entry.name,
          option: option.name,
          ...position,
          message: `${entry.name} ${option.name} was removed: CoreDNS ${this.to} does not have it (it arrived in ${availability.since ?? '?'})`,
        });
        this.removeOption(entry, index);
        return;
      }
      this.notice('migrate-option-unavailable', {
        action: 'refused',
        plugin: entry.name,
        option: option.name,
        ...position,
        message:
          availability.status === 'not-yet-added'
            ? `CoreDNS ${this.to} does not accept ${entry.name} ${option.name}: it arrives in ${availability.since ?? '?'}`
            : `CoreDNS ${this.to} does not accept ${entry.name} ${option.name}: removed in ${availability.removedIn ?? '?'}${availability.replacement === undefined ? '' : `; use ${availability.replacement}`}`,
      });
    });
  }

  /**
   * cache `disable denial` (1.9.4+) for an older target: `denial 9984 1`, the shortest denial TTL
   * those releases accept (capacity at its default), where the block sets no denial of its own.
   * What the translator writes for kube-dns's `--no-negcache` on either side of 1.9.4.
   */
  private approximateOption(entry: PlannedDirective, index: number): boolean {
    const options = entry.directive.block?.directives ?? [];
    const option = options[index];
    if (entry.name !== 'cache' || option?.name !== 'disable' || option.arguments.length !== 1 || option.arguments[0] !== 'denial') return false;
    if (options.some((other) => other.name === 'denial')) return false;
    const rule = noDenialCaching(this.features);
    const replacement = rule.text;
    this.replaceOption(entry, index, [`${this.optionIndent(entry)}${replacement}`]);
    this.notice('migrate-option-approximated', {
      action: 'replaced',
      plugin: 'cache',
      option: 'disable',
      ...(option.position === undefined ? {} : { position: option.position }),
      message: `cache 'disable denial' became '${replacement}': CoreDNS ${this.to} cannot switch denial caching off (${rule.disableFrom}+), so NXDOMAIN is kept for at most 1 s`,
    });
    return true;
  }
}
