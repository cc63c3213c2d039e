/**
 * The notices of a migration: one per finding, each a {@link Diagnostic} of a registered
 * `migrate-…` code plus the plugin/option concerned, the releases the finding spans and what was
 * done. Sorted by position in the Corefile (release notices first).
 *
 * Pure: no Node APIs.
 */
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { Diagnostic, DiagnosticDetails } from '../diagnostics/diagnostic.js';
import type { DiagnosticCode } from '../diagnostics/codes.js';
import type { CoreDnsVersion } from '../coredns/versions.js';
import type { SourcePosition } from '../util/source-position.js';

/** What the migration did about a finding. */
export type MigrationAction = 'replaced' | 'removed' | 'added' | 'moved' | 'kept' | 'refused' | 'resolved';

/** The releases a finding concerns: `from` is where the change takes effect, `to` the last release it covers. */
export interface ReleaseSpan {
  readonly from: CoreDnsVersion;
  readonly to: CoreDnsVersion;
}

/** One finding of a migration. */
export interface MigrationNotice extends Diagnostic {
  readonly plugin?: string;
  readonly option?: string;
  readonly releases?: ReleaseSpan;
  readonly action: MigrationAction;
}

export interface NoticeDetails extends Omit<DiagnosticDetails, 'key' | 'path'> {
  readonly plugin?: string;
  readonly option?: string;
  readonly releases?: ReleaseSpan;
  readonly action: MigrationAction;
  readonly position?: SourcePosition;
}

/** Builds a notice; `path` is `:LINE:COL plugin[ > option]`, as lint names a place. */
export function migrationNotice(code: DiagnosticCode, details: NoticeDetails): MigrationNotice {
  const at = details.position === undefined ? '' : `:${details.position.line}:${details.position.column}`;
  const name = details.plugin === undefined ? '' : details.option === undefined ? ` ${details.plugin}` : ` ${details.plugin} > ${details.option}`;
  const path = `${at}${name}`;
  // Built field by field (a large migration makes hundreds of thousands of notices).
  const built: Mutable<DiagnosticDetails> = { key: 'Corefile', message: details.message };
  if (path !== '') built.path = path;
  if (details.position !== undefined) built.position = details.position;
  if (details.hint !== undefined) built.hint = details.hint;
  if (details.severity !== undefined) built.severity = details.severity;
  const notice = diagnostic(code, built) as Mutable<MigrationNotice>;
  if (details.plugin !== undefined) notice.plugin = details.plugin;
  if (details.option !== undefined) notice.option = details.option;
  if (details.releases !== undefined) notice.releases = details.releases;
  notice.action = details.action;
  return notice;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/** Notices without a position first (in the order made), then by line and column; stable. */
export function sortNotices(notices: readonly MigrationNotice[]): MigrationNotice[] {
  return notices
    .map((notice, index) => ({ notice, index }))
    .sort((a, b) => {
      const pa = a.notice.position;
      const pb = b.notice.position;
      if (pa === undefined || pb === undefined) return (pa === undefined ? 0 : 1) - (pb === undefined ? 0 : 1) || a.index - b.index;
      return pa.line - pb.line || pa.column - pb.column || a.index - b.index;
    })
    .map(({ notice }) => notice);
}
