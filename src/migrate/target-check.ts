/**
 * The last stage of a migration: the migrated Corefile linted for the target release. Some
 * findings depend on the release and are nothing migrate can rewrite (a host name or `https://`
 * destination on a downgrade below 1.14.4 / 1.14.5, `grpc://` destinations from 1.7.0, an
 * upper-case key from 1.6.4, a `:53` key from 1.3.1, a `.zone` key from 1.10.0, zones that collide
 * by case from 1.14.7, `health` in a block with several keys on 1.1.0–1.6.5). Each lint error of
 * the result becomes a `migrate-target-refuses` notice, at the input line it comes from, so that
 * migrate never reports success for a Corefile the target refuses — also when the input already
 * had that error for the source release (`proxy { except }` without names becomes `forward`'s
 * `except` without names: the result does not start either), which the notice says. The one
 * exception is a directive no default build has (`unknown-directive`): migrate keeps it for a
 * custom build with a `migrate-plugin-unknown` warning.
 *
 * Pure: no Node APIs.
 */
import type { CorefileWarning } from '../corefile/errors.js';
import type { Corefile } from '../corefile/model.js';
import type { CoreDnsVersion } from '../coredns/versions.js';
import { lintCorefile, lintCorefileModel } from '../lint/lint.js';
import { migrationNotice } from './notices.js';
import type { MigrationNotice } from './notices.js';
import { outputLineNumber, targetModel } from './target-model.js';
import type { TargetModel } from './target-model.js';
import type { EditedText, SourceLines } from './text-edits.js';

export interface TargetCheckInput {
  /** The input, parsed with token positions, and its parser warnings. */
  readonly input: () => { readonly corefile: Corefile; readonly warnings: readonly CorefileWarning[] };
  /** The number of lines of the input. */
  readonly inputLines: number;
  /** The migrated text and, per line of it (1-based), the input lines it comes from. */
  readonly output: string;
  readonly sourceOf: (line: number) => SourceLines | undefined;
  /** The migration's edits (the lines lint's messages name are then the result's); undefined when it edited nothing. */
  readonly edited: EditedText | undefined;
  /**
   * Lint the result as one parsed text, not as the input's items plus the rewritten lines
   * (target-model.ts): the definition the shortcut is tested against.
   */
  readonly wholeText?: boolean;
  /** Whether the output line (1-based) is an input line kept as written. */
  readonly unchangedLine: (line: number) => boolean;
  /** The text of an input line (1-based), for placing a finding on a rewritten line at the input line it keeps. */
  readonly inputLine?: (line: number) => string | undefined;
  readonly from: CoreDnsVersion;
  readonly to: CoreDnsVersion;
}

/** The errors lint finds in the migrated Corefile for `to` (but for directives no default build has). */
export function targetRefusals(check: TargetCheckInput): MigrationNotice[] {
  // Text the migration did not edit is the input itself: its parse is shared (lint reads the
  // parser's warnings by reason and position, which do not depend on the file name).
  // An edited text is linted as the input's items it kept plus its rewritten lines parsed anew
  // (target-model.ts), or, where that could read differently, parsed whole.
  let model: TargetModel | undefined;
  if (check.edited !== undefined && check.wholeText !== true) {
    const input = check.input();
    model = targetModel({ corefile: input.corefile, warnings: input.warnings }, check.inputLines, check.output, check.edited);
  }
  // Only errors are read: lint lists no other finding (errorsOnly).
  const linted =
    model !== undefined
      ? lintCorefileModel(model.corefile, { coredns: check.to, warnings: model.warnings }, outputLineNumber(model), true)
      : check.edited !== undefined
        ? lintCorefile(check.output, { coredns: check.to })
        : lintCorefileModel(check.input().corefile, { coredns: check.to, warnings: check.input().warnings }, undefined, true);
  const errors = linted.diagnostics.filter((finding) => finding.severity === 'error');
  if (errors.length === 0) return [];
  // An error of the same kind on the input lines a line comes from was there before the migration
  // (the input is linted only when the result has errors: most migrations never need it).
  const before = new Map<string, number[]>();
  const input = check.input();
  for (const finding of lintCorefileModel(input.corefile, { coredns: check.from, warnings: input.warnings }, undefined, true).diagnostics) {
    if (finding.severity !== 'error') continue;
    const lines = before.get(finding.code) ?? [];
    lines.push(finding.position?.line ?? 1);
    before.set(finding.code, lines);
  }
  const notices: MigrationNotice[] = [];
  let outputLines: readonly string[] | undefined;
  const outputLineText = (line: number): string | undefined => (outputLines ??= check.output.split('\n'))[line - 1];
  for (const finding of errors) {
    // A kept item's finding is on the input's line, which the result holds as it was.
    const kept = model !== undefined && finding.position !== undefined && finding.position.line < model.offset;
    const outputLine = finding.position === undefined ? 1 : model === undefined ? finding.position.line : model.outputLine(finding.position.line);
    const source = (kept ? { first: finding.position.line, last: finding.position.line } : check.sourceOf(outputLine)) ?? { first: 1, last: 1 };
    // Past the snippet expansion bound nothing after it was checked: never taken as "already there".
    const already = finding.code !== 'snippet-expansion-limit' && before.get(finding.code)?.some((line) => line >= source.first && line <= source.last) === true;
    // Kept for a custom build, with migrate-plugin-unknown: the default build's finding is no refusal.
    if (already && finding.code === 'unknown-directive') continue;
    const exact = finding.position !== undefined && (kept || check.unchangedLine(outputLine));
    // A rewritten line that still holds an input line of its source as written (an option kept inside
    // a block that became another plugin's) is placed there; otherwise at the first input line it comes from.
    const traced = exact || finding.position === undefined ? undefined : traceToInput(check.inputLine, outputLineText(outputLine), finding.position.column, source);
    const position = exact && finding.position !== undefined ? { line: source.first, column: finding.position.column } : (traced ?? { line: source.first, column: 1 });
    const place = (finding.path ?? '').replace(/^:\d+:\d+ ?/, '');
    const input = already ? `; the Corefile given fails for CoreDNS ${check.from} in the same way, so it did not start there either: fix it (lint --coredns ${check.from} shows it), then migrate` : '';
    // Lint's place in the result, said to be the result's, where the migration rewrote the line.
    const inResult = check.edited !== undefined && !exact && finding.position !== undefined ? ` at line ${outputLine}, column ${finding.position.column} of the migrated text` : '';
    notices.push(
      migrationNotice('migrate-target-refuses', {
        action: 'refused',
        position,
        ...(finding.path === undefined ? {} : pluginAndOption(place)),
        releases: { from: check.to, to: check.to },
        message: `the migrated Corefile fails for CoreDNS ${check.to}${inResult} (lint ${finding.code}${place === '' ? '' : ` at ${place}`}${check.edited !== undefined && /\bline \d/.test(finding.message) ? '; its line numbers are those of the migrated text' : ''}): ${finding.message}${input}`,
      }),
    );
  }
  return notices;
}

/**
 * The input line a rewritten output line keeps as written (its text, indentation aside, is the
 * text of exactly one line of the input lines it comes from), with `column` moved by the change
 * of indentation; undefined when there is no such line.
 */
function traceToInput(inputLine: TargetCheckInput['inputLine'], output: string | undefined, column: number, source: SourceLines): { line: number; column: number } | undefined {
  const written = output?.replace(/\r$/, '');
  // A rewrite of more lines than a block holds is not searched (a hostile input could make every finding scan it).
  if (inputLine === undefined || written === undefined || written.trim() === '' || source.last - source.first > MAX_TRACED_LINES) return undefined;
  let found: { line: number; column: number } | undefined;
  for (let line = source.first; line <= source.last; line += 1) {
    const text = inputLine(line)?.replace(/\r$/, '');
    if (text === undefined || text.trim() !== written.trim()) continue;
    if (found !== undefined) return undefined;
    const moved = column - indentation(written) + indentation(text);
    found = { line, column: Math.max(1, moved) };
  }
  return found;
}

/** The most input lines a rewritten line's source is searched through by {@link traceToInput}. */
const MAX_TRACED_LINES = 500;

function indentation(line: string): number {
  return line.length - line.trimStart().length;
}

/** The plugin and option lint names (`[.:53] forward > except` → forward, except), for the notice's path. */
function pluginAndOption(place: string): { plugin?: string; option?: string } {
  const named = place.replace(/^\[[^\]]*\] ?/, '');
  if (named === '' || named.startsWith('[')) return {};
  const [plugin = '', option] = named.split(' > ');
  return option === undefined ? { plugin } : { plugin, option };
}
