/**
 * `migrateCorefile`: a Corefile written for one CoreDNS release, rewritten for another (up or
 * down), with one notice per finding. Stages: resolve the releases (releases.ts) → parse with
 * token positions (src/corefile) → plan line edits per server block and snippet (this module,
 * facts from src/coredns) → apply them to the original text (text-edits.ts), so that every line
 * not changed stays byte for byte as written → lint the result for the target release
 * (target-check.ts), refusing what it would refuse. docs/migrate.md describes every rule.
 *
 * Pure: no Node APIs.
 */
import { parseCorefile } from '../corefile/parser.js';
import { formatToken } from '../corefile/printer.js';
import type { Directive, ServerBlock, SnippetDefinition } from '../corefile/model.js';
import { coreDnsOptionAvailability, coreDnsPluginAvailability, isUsable } from '../coredns/availability.js';
import type { Availability } from '../coredns/availability.js';
import { coreDnsFeatures } from '../coredns/features.js';
import {
  KUBERNETES_OPTION_CHANGES,
  KUBERNETES_TRANSFER_MOVED_IN,
  NEW_DEFAULTS,
  PROXY_DEPRECATED_IN,
  PROXY_HTTPS_GOOGLE_REMOVED_IN,
  PROXY_OPTION_MAPPINGS,
  PROXY_POLICY_TO_FORWARD,
  SPLIT_STUB_BLOCK_PLUGINS,
} from '../coredns/migration-facts.js';
import type { CoreDnsReleaseMapping } from '../coredns/resolve-release.js';
import { compareCoreDnsVersions, isCoreDnsVersionAtLeast } from '../coredns/versions.js';
import type { CoreDnsVersion } from '../coredns/versions.js';
import { migrationNotice, sortNotices } from './notices.js';
import type { MigrationNotice, NoticeDetails } from './notices.js';
import type { DiagnosticCode } from '../diagnostics/codes.js';
import { resolveMigrationRelease } from './releases.js';
import { ownedSpan } from './spans.js';
import type { LineSpan } from './spans.js';
import { targetRefusals } from './target-check.js';
import { LineEditor } from './text-edits.js';
import type { SourcePosition } from '../util/source-position.js';

export interface MigrateOptions {
  /** The release the Corefile is written for: `1.6.7`, `v1.6.7`, `1.6.7-eksbuild.1`, an image reference. */
  readonly from: string;
  /** The release to migrate to (same forms). */
  readonly to: string;
  /** Also replace what is only deprecated in the target release (proxy from 1.4.0, kubernetes upstream …). Default false, as kubeadm. */
  readonly deprecations?: boolean;
  /** Remove `federation` for releases without it (1.7.0+) instead of refusing. */
  readonly dropFederations?: boolean;
  /** Add the defaults corefile-migration and kubeadm add on an upgrade (loop, ready, lameduck 5s, max_concurrent 1000). Default true. */
  readonly newDefaults?: boolean;
  /** Name used in syntax errors. */
  readonly filename?: string;
}

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
 * Migrates `corefile` from `options.from` to `options.to`.
 *
 * @throws {UnresolvedCoreDnsReleaseError} when `from` or `to` names no known release.
 * @throws {CorefileSyntaxError} when the Corefile does not parse.
 */
export function migrateCorefile(corefile: string, options: MigrateOptions): MigrationResult {
  const from = resolveMigrationRelease('from', options.from);
  const to = resolveMigrationRelease('to', options.to);
  const releaseNotices = [...from.notices, ...to.notices];
  const base = { from: from.mapping, to: to.mapping };
  if (from.version === to.version) return { ...base, ok: true, corefile, changed: false, notices: releaseNotices };
  const parsed = parseCorefile(corefile, { tokenPositions: true, ...(options.filename === undefined ? {} : { filename: options.filename }) });
  const migration = new Migration(corefile, from.version, to.version, options);
  for (const item of parsed.corefile.items) {
    if (item.kind === 'import') migration.fileImport(item.pattern, item.position);
    else migration.migrateList(item);
  }
  if (migration.notices.some((notice) => notice.severity === 'error')) {
    return { ...base, ok: false, corefile, changed: false, notices: [...releaseNotices, ...sortNotices(migration.notices)] };
  }
  const edited = migration.editor.changed ? migration.editor.applyWithSourceLines() : undefined;
  const text = edited?.text ?? corefile;
  const outputLines = text.split('\n');
  const refusals = targetRefusals({
    input: parsed.corefile,
    warnings: parsed.warnings,
    output: text,
    edited: edited !== undefined,
    sourceLines: edited?.sourceLines ?? outputLines.map((_, index) => ({ first: index + 1, last: index + 1 })),
    unchangedLine: (line) => {
      const source = edited === undefined ? { first: line, last: line } : edited.sourceLines[line - 1];
      const written = outputLines[line - 1] ?? '';
      return source !== undefined && source.first === source.last && written.replace(/\r$/, '') === migration.editor.line(source.first);
    },
    from: from.version,
    to: to.version,
  });
  const notices = [...releaseNotices, ...sortNotices([...migration.notices, ...refusals])];
  if (refusals.length > 0) return { ...base, ok: false, corefile, changed: false, notices };
  return { ...base, ok: true, corefile: text, changed: text !== corefile, notices };
}

/**
 * One directive of a block as it will be written. `lines` are its source lines, read on first use
 * (most directives never change), then edited in place; null when removed or when the directive
 * does not have its lines to itself.
 */
class PlannedDirective {
  name: string;
  changed = false;
  #removed = false;
  #lines: string[] | undefined;

  constructor(
    readonly directive: Directive,
    readonly span: LineSpan | undefined,
    private readonly editor: LineEditor,
  ) {
    this.name = directive.name;
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

class Migration {
  readonly editor: LineEditor;
  readonly notices: MigrationNotice[] = [];
  private readonly up: boolean;
  private readonly unit: string;
  private readonly features;

  constructor(
    text: string,
    private readonly from: CoreDnsVersion,
    private readonly to: CoreDnsVersion,
    private readonly options: MigrateOptions,
  ) {
    this.editor = new LineEditor(text);
    this.up = compareCoreDnsVersions(to, from) > 0;
    this.unit = this.detectIndentUnit();
    this.features = coreDnsFeatures(to);
  }

  private detectIndentUnit(): string {
    for (let line = 1; line <= this.editor.lineCount; line += 1) {
      const indentation = this.editor.indentation(line);
      if (indentation !== '' && this.editor.line(line).trim() !== '' && !this.editor.line(line).trim().startsWith('#')) return indentation;
    }
    return '    ';
  }

  private readonly pluginAvailability = new Map<string, Availability>();

  /** {@link coreDnsPluginAvailability} in the target release, asked once per name. */
  private plugin(name: string): Availability {
    let availability = this.pluginAvailability.get(name);
    if (availability === undefined) {
      availability = coreDnsPluginAvailability(name, this.to);
      this.pluginAvailability.set(name, availability);
    }
    return availability;
  }

  private readonly optionAvailability = new Map<string, Availability>();

  /** {@link coreDnsOptionAvailability} in the target release, asked once per pair. */
  private option(plugin: string, option: string): Availability {
    const key = `${plugin} ${option}`;
    let availability = this.optionAvailability.get(key);
    if (availability === undefined) {
      availability = coreDnsOptionAvailability(plugin, option, this.to);
      this.optionAvailability.set(key, availability);
    }
    return availability;
  }

  private notice(code: DiagnosticCode, details: NoticeDetails): void {
    this.notices.push(migrationNotice(code, details));
  }

  /** The target release is `release` or newer. */
  private targetHas(release: CoreDnsVersion): boolean {
    return isCoreDnsVersionAtLeast(this.to, release);
  }

  /** An upgrade that crosses `release` (from older than it to it or newer). */
  private crosses(release: CoreDnsVersion): boolean {
    return this.up && !isCoreDnsVersionAtLeast(this.from, release) && this.targetHas(release);
  }

  private spanTo(release: CoreDnsVersion): { from: CoreDnsVersion; to: CoreDnsVersion } {
    return { from: release, to: this.to };
  }

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
    const planned = item.directives.map((directive, index) => new PlannedDirective(directive, ownedSpan(this.editor, item, index), this.editor));
    for (const entry of planned) this.migrateDirective(entry, planned);
    if (item.kind === 'server-block') {
      this.addNewDefaultPlugins(item, planned);
      this.splitForwards(item, planned);
    } else if (!this.features.multipleForwardPerBlock && planned.filter((entry) => entry.lines !== null && entry.name === 'forward').length > 1) {
      this.notice('migrate-forward-split-refused', {
        action: 'refused',
        ...(item.position === undefined ? {} : { position: item.position }),
        message: `snippet (${item.name}) would hold several forward lines, which CoreDNS ${this.to} refuses (several per block from 1.9.4); a snippet cannot be split automatically`,
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

  private notInPlace(directive: Directive): void {
    this.notice('migrate-not-in-place', {
      action: 'refused',
      plugin: directive.name,
      ...(directive.position === undefined ? {} : { position: directive.position }),
      message: `${directive.name} must change for CoreDNS ${this.to}, but its line holds more than this directive (or its braces are not on lines of their own)`,
    });
  }

  // -------------------------------------------------------------------------------------------
  // One directive
  // -------------------------------------------------------------------------------------------

  private migrateDirective(entry: PlannedDirective, planned: PlannedDirective[]): void {
    const directive = entry.directive;
    const name = directive.name;
    if (name === 'import') return this.fileImport(directive.arguments[0], directive.position);
    if (name.includes('{$') || name.includes('{%')) return;
    if (name === 'proxy') return this.migrateProxy(entry);
    if (name === 'federation') return this.migrateFederation(entry);
    if (name === 'transfer' && !this.targetHas(KUBERNETES_TRANSFER_MOVED_IN)) return this.foldTransfer(entry, planned);
    const availability = this.plugin(name);
    if (availability.status === 'unknown') {
      this.notice('migrate-plugin-unknown', {
        action: 'kept',
        plugin: name,
        ...(directive.position === undefined ? {} : { position: directive.position }),
        message: `${name} is in no CoreDNS release's default build (1.0.0 to 1.14.7): kept as written; it needs a custom build`,
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
    if (name === 'kubernetes') this.migrateKubernetes(entry);
    this.checkOptions(entry);
    if (entry.changed) this.collapseEmptyBlock(entry);
    if (name === 'health') this.addDefaultOption(entry, 'health');
    if (name === 'forward') this.addDefaultOption(entry, 'forward');
  }

  private remove(entry: PlannedDirective): void {
    entry.lines = null;
    entry.changed = true;
  }

  /** Options with version facts the target release lacks: a few are removed (defaults), the rest refused. */
  private checkOptions(entry: PlannedDirective): void {
    const block = entry.directive.block;
    if (block === undefined) return;
    block.directives.forEach((option, index) => {
      if (entry.name === 'kubernetes' && ['upstream', 'resyncperiod', 'endpoint', 'transfer'].includes(option.name)) return;
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
    const replacement = 'denial 9984 1';
    this.replaceOption(entry, index, [`${this.optionIndent(entry)}${replacement}`]);
    this.notice('migrate-option-approximated', {
      action: 'replaced',
      plugin: 'cache',
      option: 'disable',
      ...(option.position === undefined ? {} : { position: option.position }),
      message: `cache 'disable denial' became '${replacement}': CoreDNS ${this.to} cannot switch denial caching off (1.9.4+), so NXDOMAIN is kept for at most 1 s`,
    });
    return true;
  }

  /** The lines of option `index` of the entry's block, relative to the entry's first line; undefined when not its own. */
  private optionRange(entry: PlannedDirective, index: number): { start: number; end: number } | undefined {
    const block = entry.directive.block;
    if (block === undefined || entry.span === undefined) return undefined;
    const span = ownedSpan(this.editor, block, index);
    if (span === undefined) return undefined;
    return { start: span.first - entry.span.first, end: span.last - entry.span.first };
  }

  /** Marks option `index` for removal (its lines become undefined markers, dropped when written). */
  private removeOption(entry: PlannedDirective, index: number): void {
    this.replaceOption(entry, index, []);
  }

  /** Replaces option `index` by `lines` (already indented). */
  private replaceOption(entry: PlannedDirective, index: number, lines: readonly string[]): void {
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
  private optionIndent(entry: PlannedDirective): string {
    const first = entry.directive.block?.directives[0]?.position?.line;
    if (first !== undefined) return this.editor.indentation(first);
    return (entry.span === undefined ? '' : this.editor.indentation(entry.span.first)) + this.unit;
  }

  /** Adds an option line at the end of the entry's block (making a block when it has none). */
  private addOption(entry: PlannedDirective, text: string): boolean {
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

  private addDefaultOption(entry: PlannedDirective, plugin: 'health' | 'forward'): void {
    if (this.options.newDefaults === false) return;
    for (const item of NEW_DEFAULTS) {
      if (item.kind !== 'option' || item.plugin !== plugin || !this.crosses(item.release)) continue;
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

  // -------------------------------------------------------------------------------------------
  // proxy → forward
  // -------------------------------------------------------------------------------------------

  private migrateProxy(entry: PlannedDirective): void {
    const directive = entry.directive;
    const position = directive.position === undefined ? {} : { position: directive.position };
    const proxy = this.plugin('proxy');
    if (isUsable(proxy) && this.targetHas(PROXY_HTTPS_GOOGLE_REMOVED_IN)) {
      for (const option of directive.block?.directives ?? []) {
        if (option.name !== 'protocol' || option.arguments[0] !== 'https_google') continue;
        this.notice('migrate-proxy-unmappable', {
          action: 'refused',
          plugin: 'proxy',
          option: 'protocol',
          ...(option.position === undefined ? {} : { position: option.position }),
          releases: this.spanTo(PROXY_HTTPS_GOOGLE_REMOVED_IN),
          message: `proxy protocol https_google is gone from ${PROXY_HTTPS_GOOGLE_REMOVED_IN} (CoreDNS refuses it); removing it would send the queries as plain DNS to the listed hosts instead, so it is left to you`,
        });
      }
    }
    if (isUsable(proxy)) {
      if (proxy.status === 'deprecated' && !this.options.deprecations) {
        this.notice('migrate-option-deprecated', {
          action: 'kept',
          plugin: 'proxy',
          ...position,
          releases: this.spanTo(PROXY_DEPRECATED_IN),
          message: `proxy is deprecated from ${PROXY_DEPRECATED_IN} and removed in 1.5.0; kept for CoreDNS ${this.to} (--deprecations replaces it with forward)`,
        });
        return;
      }
      if (proxy.status !== 'deprecated') return;
    }
    if (!isUsable(this.plugin('forward'))) {
      this.notice('migrate-plugin-unavailable', { action: 'refused', plugin: 'proxy', ...position, message: `CoreDNS ${this.to} has neither proxy nor forward` });
      return;
    }
    if (entry.lines === null || entry.span === undefined || directive.position === undefined) {
      this.notInPlace(directive);
      return;
    }
    const first = entry.lines[0] ?? '';
    const chars = [...first];
    const column = directive.position.column - 1;
    if (chars.slice(column, column + 5).join('') !== 'proxy') {
      this.notInPlace(directive);
      return;
    }
    entry.lines[0] = [...chars.slice(0, column), 'forward', ...chars.slice(column + 5)].join('');
    entry.changed = true;
    entry.name = 'forward';
    let refused = false;
    directive.block?.directives.forEach((option, index) => {
      const optionPosition = option.position === undefined ? {} : { position: option.position };
      const indent = option.position === undefined ? this.optionIndent(entry) : this.editor.indentation(option.position.line);
      const mapping = Object.hasOwn(PROXY_OPTION_MAPPINGS, option.name) ? PROXY_OPTION_MAPPINGS[option.name] : undefined;
      const drop = (why: string): void => {
        this.notice('migrate-proxy-option-dropped', { action: 'removed', plugin: 'proxy', option: option.name, ...optionPosition, message: `proxy ${option.name} dropped: ${why}` });
        this.removeOption(entry, index);
      };
      const mapOption = (written: string, why: string): void => {
        this.notice('migrate-proxy-option-mapped', { action: 'replaced', plugin: 'proxy', option: option.name, ...optionPosition, message: `proxy ${option.name} ${option.arguments.join(' ')} became '${written}': ${why}` });
      };
      const refuse = (why: string): void => {
        refused = true;
        this.notice('migrate-proxy-unmappable', { action: 'refused', plugin: 'proxy', option: option.name, ...optionPosition, releases: this.spanTo('1.5.0'), message: why });
      };
      if (mapping === undefined) return refuse(`proxy option ${option.name} has no forward equivalent (forward would refuse it)`);
      if (mapping.kind === 'same') return;
      if (mapping.kind === 'drop') return drop(mapping.why);
      if (option.name === 'policy') {
        const policy = option.arguments[0] ?? '';
        const mapped = Object.hasOwn(PROXY_POLICY_TO_FORWARD, policy) ? PROXY_POLICY_TO_FORWARD[policy] : undefined;
        if (mapped === undefined) return drop(`forward has no policy '${policy}' (it has random, round_robin and sequential); its default, random, applies`);
        if (mapped !== policy) {
          this.replaceOption(entry, index, [`${indent}policy ${mapped}`]);
          mapOption(`policy ${mapped}`, `proxy's '${policy}' policy is forward's '${mapped}'`);
        }
        return;
      }
      // protocol
      const protocol = option.arguments[0] ?? '';
      if (protocol === 'dns') {
        if (option.arguments.includes('force_tcp')) {
          this.replaceOption(entry, index, [`${indent}force_tcp`]);
          return mapOption('force_tcp', 'forward sends DNS over TCP with its force_tcp option');
        }
        return drop('plain DNS over UDP (and TCP for truncated answers) is what forward does by default');
      }
      return refuse(
        protocol === 'grpc'
          ? 'proxy protocol grpc: forward does not speak gRPC; use the grpc plugin for this zone'
          : `proxy protocol ${protocol}: forward has no such protocol (DNS over HTTPS to Google is not supported); forward to a DNS-over-TLS upstream (tls://) instead`,
      );
    });
    if (refused) return;
    this.collapseEmptyBlock(entry);
    this.addDefaultOption(entry, 'forward');
    this.notice('migrate-proxy-to-forward', {
      action: 'replaced',
      plugin: 'proxy',
      ...position,
      releases: this.spanTo(this.targetHas('1.5.0') ? '1.5.0' : PROXY_DEPRECATED_IN),
      message: `proxy replaced by forward with the same destinations: proxy is ${this.targetHas('1.5.0') ? 'gone from 1.5.0 ("Unknown directive")' : `deprecated from ${PROXY_DEPRECATED_IN} (--deprecations)`}`,
    });
  }

  /** A block left with no lines between its braces becomes no block. */
  private collapseEmptyBlock(entry: PlannedDirective): void {
    const lines = entry.lines;
    if (lines === null || entry.directive.block === undefined) return;
    const inner = lines.slice(1, -1).filter((line) => line !== REMOVED);
    if (inner.length > 0 || (entry.directive.block.endComments?.length ?? 0) > 0) return;
    const first = (lines[0] ?? '').replace(/[ \t]*\{[ \t]*$/, '');
    if (first === lines[0]) return;
    entry.lines = [first];
  }

  // -------------------------------------------------------------------------------------------
  // kubernetes, transfer, federation
  // -------------------------------------------------------------------------------------------

  private migrateKubernetes(entry: PlannedDirective): void {
    const block = entry.directive.block;
    if (block === undefined) return;
    const transfers: string[][] = [];
    block.directives.forEach((option, index) => {
      const position = option.position === undefined ? {} : { position: option.position };
      if (option.name === 'transfer' && this.targetHas(KUBERNETES_TRANSFER_MOVED_IN)) {
        if (option.arguments[0] !== 'to' || option.arguments.length < 2) {
          this.notice('migrate-option-unavailable', {
            action: 'refused',
            plugin: 'kubernetes',
            option: 'transfer',
            ...position,
            message: `kubernetes transfer is gone in ${KUBERNETES_TRANSFER_MOVED_IN} and this one is not 'transfer to ADDRESS…', so it cannot move to the transfer plugin`,
          });
          return;
        }
        transfers.push(option.arguments.slice(1));
        this.removeOption(entry, index);
        this.notice('migrate-transfer-moved', {
          action: 'moved',
          plugin: 'kubernetes',
          option: 'transfer',
          ...position,
          releases: this.spanTo(KUBERNETES_TRANSFER_MOVED_IN),
          message: `kubernetes transfer moved to a transfer plugin for the kubernetes zones: the option is gone in ${KUBERNETES_TRANSFER_MOVED_IN}`,
        });
        return;
      }
      const change = KUBERNETES_OPTION_CHANGES.find((candidate) => candidate.option === option.name);
      if (change === undefined) return;
      const effective = this.targetHas(change.ineffectiveFrom) || (this.options.deprecations === true && this.targetHas(change.deprecatedIn));
      if (!effective) {
        if (this.targetHas(change.deprecatedIn)) {
          this.notice('migrate-option-deprecated', {
            action: 'kept',
            plugin: 'kubernetes',
            option: option.name,
            ...position,
            releases: this.spanTo(change.deprecatedIn),
            message: `kubernetes ${option.name} is deprecated from ${change.deprecatedIn} (from ${change.ineffectiveFrom}: ${change.ineffective}); kept for CoreDNS ${this.to}`,
          });
        }
        return;
      }
      const why = change.removedIn !== undefined && this.targetHas(change.removedIn) ? `CoreDNS refuses it from ${change.removedIn}` : `from ${change.ineffectiveFrom}: ${change.ineffective}`;
      if (change.action === 'remove') {
        this.removeOption(entry, index);
        this.notice('migrate-option-removed', {
          action: 'removed',
          plugin: 'kubernetes',
          option: option.name,
          ...position,
          releases: this.spanTo(this.targetHas(change.ineffectiveFrom) ? change.ineffectiveFrom : change.deprecatedIn),
          message: `kubernetes ${option.name} removed: ${why}`,
        });
        return;
      }
      if (option.arguments.length <= 1) return;
      const indent = option.position === undefined ? this.optionIndent(entry) : this.editor.indentation(option.position.line);
      this.replaceOption(entry, index, [`${indent}${option.name} ${formatToken(option.arguments[0] ?? '')}`]);
      this.notice('migrate-option-trimmed', {
        action: 'replaced',
        plugin: 'kubernetes',
        option: option.name,
        ...position,
        releases: this.spanTo(change.ineffectiveFrom),
        message: `kubernetes ${option.name} keeps its first address only: ${why}`,
      });
    });
    this.collapseEmptyBlock(entry);
    if (transfers.length > 0 && entry.lines !== null && entry.span !== undefined) {
      const indent = this.editor.indentation(entry.span.first);
      // The cluster zone only, as corefile-migration does: a transfer of the reverse zones would
      // list the services under in-addr.arpa names, which no secondary wants.
      const zones = entry.directive.arguments.slice(0, 1).map(formatToken);
      const lines = [`${indent}${['transfer', ...zones].join(' ')} {`, ...transfers.map((to) => `${indent}${this.unit}${['to', ...to.map(formatToken)].join(' ')}`), `${indent}}`];
      entry.lines.push(...lines);
      entry.changed = true;
    }
  }

  /** Below 1.8.0: `transfer [ZONES] { to … }` back into the kubernetes plugin of the block. */
  private foldTransfer(entry: PlannedDirective, planned: PlannedDirective[]): void {
    const directive = entry.directive;
    const position = directive.position === undefined ? {} : { position: directive.position };
    const kubernetes = planned.find((candidate) => candidate.name === 'kubernetes');
    const options = directive.block?.directives ?? [];
    const zones = kubernetes?.directive.arguments ?? [];
    const fits =
      kubernetes !== undefined &&
      options.length > 0 &&
      options.every((option) => option.name === 'to' && option.arguments.length > 0 && option.block === undefined) &&
      directive.arguments.every((zone) => zones.includes(zone));
    if (!fits) {
      this.notice('migrate-transfer-refused', {
        action: 'refused',
        plugin: 'transfer',
        ...position,
        releases: { from: this.to, to: this.to },
        message: `CoreDNS ${this.to} has no transfer plugin (it arrives in ${KUBERNETES_TRANSFER_MOVED_IN}), and this one is not only 'to' lines for zones of a kubernetes plugin in the same block`,
      });
      return;
    }
    for (const option of options) {
      if (!this.addOption(kubernetes, ['transfer', 'to', ...option.arguments.map(formatToken)].join(' '))) return;
    }
    this.remove(entry);
    this.notice('migrate-transfer-folded', {
      action: 'moved',
      plugin: 'transfer',
      ...position,
      releases: { from: this.to, to: this.to },
      message: `transfer folded into kubernetes as 'transfer to …': CoreDNS ${this.to} has no transfer plugin (it arrives in ${KUBERNETES_TRANSFER_MOVED_IN})`,
    });
  }

  private migrateFederation(entry: PlannedDirective): void {
    const availability = this.plugin('federation');
    if (isUsable(availability)) return;
    const position = entry.directive.position === undefined ? {} : { position: entry.directive.position };
    const removedIn = availability.removedIn ?? '1.7.0';
    if (this.options.dropFederations === true) {
      this.remove(entry);
      this.notice('migrate-federation-dropped', {
        action: 'removed',
        plugin: 'federation',
        ...position,
        releases: this.spanTo(removedIn),
        message: `federation removed (--drop-federations): CoreDNS has no federation plugin from ${removedIn}`,
      });
      return;
    }
    this.notice('migrate-federation-removed', {
      action: 'refused',
      plugin: 'federation',
      ...position,
      releases: this.spanTo(removedIn),
      message: `CoreDNS ${this.to} has no federation plugin (removed in ${removedIn}) and would refuse to start; pass --drop-federations to remove it`,
    });
  }

  // -------------------------------------------------------------------------------------------
  // Block level: new default plugins, one forward per block
  // -------------------------------------------------------------------------------------------

  private addNewDefaultPlugins(block: ServerBlock, planned: PlannedDirective[]): void {
    if (this.options.newDefaults === false) return;
    const names = new Set(planned.filter((entry) => entry.lines !== null || entry.span === undefined).map((entry) => entry.name));
    for (const item of NEW_DEFAULTS) {
      if (item.kind !== 'plugin' || !this.crosses(item.release) || names.has(item.plugin)) continue;
      if (!item.blocksWith.some((name) => names.has(name))) continue;
      const position = block.position === undefined ? {} : { position: block.position };
      if (names.has('import')) {
        this.notice('migrate-new-default', {
          action: 'kept',
          plugin: item.plugin,
          ...position,
          releases: this.spanTo(item.release),
          message: `${item.plugin} (a default since ${item.release}) was not added: the block imports other text, which may hold it already`,
        });
        continue;
      }
      const last = [...planned].reverse().find((entry) => entry.lines !== null);
      if (last === undefined || last.span === undefined || last.lines === null) {
        this.notInPlace(block.directives[block.directives.length - 1] ?? { name: item.plugin, arguments: [] });
        continue;
      }
      last.lines.push(this.editor.indentation(last.span.first) + item.plugin);
      last.changed = true;
      names.add(item.plugin);
      this.notice('migrate-new-default', {
        action: 'added',
        plugin: item.plugin,
        ...position,
        releases: this.spanTo(item.release),
        message: `added ${item.plugin}: a default since ${item.release} for server blocks with ${item.blocksWith.join(' or ')} (corefile-migration and kubeadm add it on upgrade)`,
      });
    }
  }

  /** Before 1.9.4 a block takes one forward: the stub forwards move into blocks of their own, as corefile-migration does. */
  private splitForwards(block: ServerBlock, planned: PlannedDirective[]): void {
    if (this.features.multipleForwardPerBlock) return;
    const forwards = planned.filter((entry) => entry.lines !== null && entry.name === 'forward');
    if (forwards.length <= 1) return;
    const stubs = forwards.filter((entry) => entry.directive.arguments[0] !== '.');
    const key = block.keys.length === 1 ? block.keys[0] ?? '' : '';
    const keyMatch = /^((?:dns:\/\/)?)\.((?::\d+)?)$/.exec(key);
    const closeLine = block.closePosition?.line;
    const position = block.position === undefined ? {} : { position: block.position };
    if (keyMatch === null || forwards.length - stubs.length > 1 || closeLine === undefined || stubs.some((entry) => entry.span === undefined)) {
      this.notice('migrate-forward-split-refused', {
        action: 'refused',
        plugin: 'forward',
        ...position,
        releases: { from: this.to, to: this.to },
        message: `server block ${block.keys.join(' ')} would hold ${forwards.length} forward lines, which CoreDNS ${this.to} refuses (several per block from 1.9.4); only stubs of a single-key root block (. or .:PORT) are split automatically`,
      });
      return;
    }
    const moved: string[] = [];
    for (const entry of stubs) {
      const directive = entry.directive;
      const lines = entry.lines ?? [];
      const zone = directive.arguments[0] ?? '';
      const headMatch = /^([ \t]*forward[ \t]+)\S+/.exec(lines[0] ?? '');
      if (headMatch === null || directive.arguments.length < 2) {
        this.notInPlace(directive);
        continue;
      }
      const head = `${headMatch[1] ?? ''}.${(lines[0] ?? '').slice(headMatch[0].length)}`;
      const indent = this.editor.indentation(entry.span?.first ?? 1);
      const body = [head, ...lines.slice(1)].filter((line) => line !== REMOVED).flatMap((line) => line.split(LINE_SEPARATOR));
      const comments = (directive.leadingComments ?? []).map((comment) => `${indent}#${comment.text}`);
      moved.push('', ...comments.map((line) => line.slice(indent.length)), `${keyMatch[1] ?? ''}${zone}${keyMatch[2] ?? ''} {`, ...body);
      for (const [name, ...args] of SPLIT_STUB_BLOCK_PLUGINS) {
        if (name === undefined || !isUsable(this.plugin(name))) continue;
        moved.push(`${indent}${[name, ...args].join(' ')}`);
      }
      moved.push('}');
      this.remove(entry);
      if (comments.length > 0 && directive.leadingComments?.[0]?.position !== undefined && entry.span !== undefined) {
        this.editor.remove(directive.leadingComments[0].position.line, entry.span.first - 1);
      }
      this.notice('migrate-forward-split', {
        action: 'moved',
        plugin: 'forward',
        ...(directive.position === undefined ? {} : { position: directive.position }),
        releases: { from: this.to, to: this.to },
        message: `forward for ${zone} moved into a server block of its own (${zone}): CoreDNS ${this.to} takes one forward per server block (several from 1.9.4)`,
      });
    }
    if (moved.length > 0) this.editor.insertAfter(closeLine, moved);
  }
}

/**
 * Joins the lines that replace one source line. A line feed, since no line of the text holds one
 * (any other character, NUL included, may be in the input and must stay inside its line).
 */
const LINE_SEPARATOR = '\n';

/** Marks a line removed inside a planned directive (kept until written so that offsets hold); holds a line feed, so no source line equals it. */
const REMOVED = '\u0000removed\u0000\n';

/** The lines a planned directive is written as. */
function writtenLines(lines: readonly string[]): string[] {
  return lines.filter((line) => line !== REMOVED).flatMap((line) => line.split(LINE_SEPARATOR));
}
