import { CorefileError } from '../corefile/errors.js';
import type { CoreDnsReleaseInput } from '../coredns/resolve-release.js';
import { lintCorefile } from '../lint/lint.js';
import { migrateCorefile } from '../migrate/migrate-corefile.js';
import type { BatchCaseReader, BatchOutcome } from './batch.js';
import { inputError, runBatch } from './batch.js';
import { batchItemFailure } from './errors.js';
import type { CliIo } from './io.js';

/**
 * `migrate --batch` and `lint --batch` (docs/cli.md, "Fleets"): one Corefile per input line, as
 * NDJSON `{"id", "corefile", …}` with the command's options as fields of the line, one result line
 * per input line, in order, through the batch loop of batch.ts (streamed, a summary on stderr).
 * Fields a line does not hold come from the command line; a field the command does not take is an
 * unusable line, never ignored. A Corefile that does not parse, or a release that is not one, is
 * that line's failure: the batch goes on.
 */

/** The JSON type a field of a line must have. */
type FieldType = 'string' | 'boolean' | 'string-list';

/** One usable line: its id (`null` when it has none), its Corefile and its other fields, checked. */
export interface CorefileBatchCase {
  readonly id: unknown;
  readonly corefile: string;
  readonly fields: Readonly<Record<string, string | boolean | readonly string[] | undefined>>;
}

function hasType(value: unknown, type: FieldType): boolean {
  if (type === 'string-list') return Array.isArray(value) && value.every((item) => typeof item === 'string');
  return typeof value === type;
}

const TYPE_WORDS: Readonly<Record<FieldType, string>> = { string: 'a string', boolean: 'true or false', 'string-list': 'a list of strings' };

/** The reader of lines `{"id", "corefile", …fields}`. */
function corefileCaseReader(fields: Readonly<Record<string, FieldType>>): BatchCaseReader<CorefileBatchCase> {
  const expected = `expected {${['id', 'corefile', ...Object.keys(fields)].map((name) => JSON.stringify(name)).join(', ')}}`;
  return (line, lineNumber) => {
    let input: unknown;
    try {
      input = JSON.parse(line);
    } catch (error) {
      return { unusable: inputError(null, `line ${lineNumber}: not JSON: ${error instanceof Error ? error.message : String(error)}`) };
    }
    if (typeof input !== 'object' || input === null || Array.isArray(input)) return { unusable: inputError(null, `line ${lineNumber}: not a JSON object (${expected})`) };
    const record = input as Record<string, unknown>;
    const id = Object.hasOwn(record, 'id') ? record['id'] : null;
    const refuse = (problem: string) => ({ unusable: inputError(id, `line ${lineNumber}: ${problem} (${expected})`) });
    if (typeof record['corefile'] !== 'string') return refuse(Object.hasOwn(record, 'corefile') ? '"corefile" must be a string' : 'no "corefile"');
    const read: Record<string, string | boolean | readonly string[]> = {};
    // `for…in`: a parsed JSON object has only its own members, in the order Object.entries gives.
    for (const name in record) {
      if (name === 'id' || name === 'corefile') continue;
      const value = record[name];
      const type = Object.hasOwn(fields, name) ? fields[name] : undefined;
      if (type === undefined) return refuse(`unknown field ${JSON.stringify(name)}`);
      if (!hasType(value, type)) return refuse(`${JSON.stringify(name)} must be ${TYPE_WORDS[type]}`);
      read[name] = value as string | boolean | readonly string[];
    }
    return { id, corefile: record['corefile'], fields: read };
  };
}

/**
 * A case's failure: a Corefile CoreDNS would not parse is the command's (`stage` migrate or lint),
 * a release or value the line names wrongly is the line's (`input`). Anything else is a bug and
 * ends the batch through `main`.
 */
function caseFailure(error: unknown, id: unknown, lineNumber: number, stage: 'migrate' | 'lint'): BatchOutcome {
  const failure = batchItemFailure(error);
  if (failure === undefined) throw error;
  if (error instanceof CorefileError) return { id, ok: false, stage, error: `line ${lineNumber}: ${failure}` } as BatchOutcome;
  return inputError(id, `line ${lineNumber}: ${failure}`);
}

/** What `migrate --batch` takes from the command line, for lines that do not say. */
export interface MigrateBatchDefaults {
  readonly from: CoreDnsReleaseInput | undefined;
  readonly to: CoreDnsReleaseInput | undefined;
  readonly deprecations: boolean;
  readonly dropFederations: boolean;
  readonly newDefaults: boolean;
}

const MIGRATE_FIELDS = { from: 'string', to: 'string', deprecations: 'boolean', dropFederations: 'boolean', newDefaults: 'boolean' } as const;

/**
 * `migrate --batch FILE|-`: lines `{"id", "corefile", "from", "to"}` (plus `deprecations`,
 * `dropFederations`, `newDefaults`); each result line is `-o json`'s document with the line's id
 * instead of the file name: `{id, ok, changed, from, to, corefile?, notices}` (`corefile` only when
 * ok), or `{id, ok: false, stage, error}`.
 */
export function runMigrateBatch(file: string | undefined, io: CliIo, defaults: MigrateBatchDefaults): Promise<number> {
  return runBatch<CorefileBatchCase>(
    file,
    io,
    ({ id, corefile, fields }, lineNumber) => {
      const from = (fields['from'] as string | undefined) ?? defaults.from;
      const to = (fields['to'] as string | undefined) ?? defaults.to;
      if (from === undefined || to === undefined) return inputError(id, `line ${lineNumber}: no ${from === undefined ? '"from"' : '"to"'}, and no ${from === undefined ? '--from' : '--to'} on the command line`);
      try {
        const result = migrateCorefile(corefile, {
          from,
          to,
          deprecations: (fields['deprecations'] as boolean | undefined) ?? defaults.deprecations,
          dropFederations: (fields['dropFederations'] as boolean | undefined) ?? defaults.dropFederations,
          newDefaults: (fields['newDefaults'] as boolean | undefined) ?? defaults.newDefaults,
        });
        const { ok, changed, notices } = result;
        // Written out field by field (no spread: see migrateCorefileText); `corefile` only when ok.
        const line: Record<string, unknown> = { id, ok, changed, from: result.from, to: result.to };
        if (ok) line['corefile'] = result.corefile;
        line['notices'] = notices;
        return line as unknown as BatchOutcome;
      } catch (error) {
        return caseFailure(error, id, lineNumber, 'migrate');
      }
    },
    corefileCaseReader(MIGRATE_FIELDS),
  );
}

/** What `lint --batch` takes from the command line, for lines that do not say. */
export interface LintBatchDefaults {
  readonly coredns: CoreDnsReleaseInput;
  readonly plugins: readonly string[] | undefined;
}

const LINT_FIELDS = { coredns: 'string', plugins: 'string-list' } as const;

/**
 * `lint --batch FILE|-`: lines `{"id", "corefile", "coredns"}` (plus `plugins`, a custom build's
 * directive names); each result line is `-o json`'s document with the line's id: `{id, coredns,
 * ok, diagnostics}`, or `{id, ok: false, stage, error}`.
 */
export function runLintBatch(file: string | undefined, io: CliIo, defaults: LintBatchDefaults): Promise<number> {
  return runBatch<CorefileBatchCase>(
    file,
    io,
    ({ id, corefile, fields }, lineNumber) => {
      const coredns = (fields['coredns'] as string | undefined) ?? defaults.coredns;
      const plugins = (fields['plugins'] as readonly string[] | undefined) ?? defaults.plugins;
      try {
        const result = lintCorefile(corefile, plugins === undefined ? { coredns } : { coredns, plugins });
        return { id, coredns: result.coredns, ok: result.ok, diagnostics: result.diagnostics };
      } catch (error) {
        return caseFailure(error, id, lineNumber, 'lint');
      }
    },
    corefileCaseReader(LINT_FIELDS),
  );
}
