import type { Directive, ServerBlock } from '../corefile/model.js';
import type { DiagnosticCode } from '../diagnostics/codes.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { Diagnostic, Severity } from '../diagnostics/diagnostic.js';
import type { CoreDnsFeatures } from '../coredns/features.js';
import type { CoreDnsVersion } from '../coredns/versions.js';
import type { SourcePosition } from '../util/source-position.js';
import type { PluginBuild } from './build.js';
import type { KeyReading } from './server-keys.js';

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

export class LintContext {
  readonly features: CoreDnsFeatures;
  readonly version: CoreDnsVersion;
  readonly build: PluginBuild;
  readonly #diagnostics: Diagnostic[] = [];
  readonly #reportedOnce = new Set<string>();

  constructor(features: CoreDnsFeatures, build: PluginBuild) {
    this.features = features;
    this.version = features.version;
    this.build = build;
  }

  report(code: DiagnosticCode, position: SourcePosition, path: string, message: string, extra: { severity?: Severity; hint?: string } = {}): void {
    this.#diagnostics.push(diagnostic(code, { key: 'Corefile', path, position, message, ...extra }));
  }

  /** Reports only the first time `once` is seen. */
  reportOnce(once: string, code: DiagnosticCode, position: SourcePosition, path: string, message: string): void {
    if (this.#reportedOnce.has(once)) return;
    this.#reportedOnce.add(once);
    this.report(code, position, path, message);
  }

  /** The findings ordered by position (then in the order reported). */
  sorted(): Diagnostic[] {
    const order = (entry: Diagnostic) => entry.position ?? ORIGIN;
    return this.#diagnostics
      .map((entry, index) => ({ entry, index }))
      .sort((a, b) => order(a.entry).line - order(b.entry).line || order(a.entry).column - order(b.entry).column || a.index - b.index)
      .map(({ entry }) => entry);
  }
}

/** A directive of a server block after snippet imports are expanded. */
export interface PlacedDirective {
  readonly directive: Directive;
  /** The label of the place it is written: the block, or `(snippet)`. */
  readonly label: string;
}

/** One server key with where it is written and how the release reads it. */
export interface KeyEntry {
  readonly block: BlockInfo;
  readonly key: string;
  readonly position: SourcePosition;
  readonly reading: KeyReading & { kind: 'ok' };
}

/** A server block as the block rules see it. */
export interface BlockInfo {
  readonly block: ServerBlock;
  readonly label: string;
  readonly position: SourcePosition;
  readonly directives: readonly PlacedDirective[];
  /** Names of the plugins the block uses (after imports) that the build linted against loads. */
  readonly plugins: ReadonlySet<string>;
  /** Every directive name of the block (after imports), loadable or not. */
  readonly written: ReadonlySet<string>;
  /** Its valid keys, filled in by the key rules. */
  readonly keys: KeyEntry[];
}

/** `:LINE:COL [LABEL] NAME > NAME` (see the module comment); several labels for a snippet inside a block. */
export function where(position: SourcePosition, label?: string | readonly string[], ...names: readonly string[]): string {
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
