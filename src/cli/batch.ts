import { validateBatchCase } from '../generated/validate-batch-case.js';
import { stringifyAsciiJson } from '../util/ascii-json.js';
import type { CliIo } from './io.js';
import { INPUT_LIMITS, readSource } from './read-source.js';
import { ExitCode } from './usage-error.js';

/** One output line of `--batch`: the corpus shape, plus `stage: "input"` for unusable lines. */
export type BatchResultLine =
  | { readonly id: unknown; readonly ok: true; readonly corefile: string; readonly warnings?: readonly string[]; readonly unrequested?: readonly string[] }
  | { readonly id: unknown; readonly ok: false; readonly stage: 'translate' | 'decode' | 'input'; readonly error: string; readonly warnings?: readonly string[] };

/** The progress line (on a terminal) is redrawn every this many cases. */
const PROGRESS_EVERY = 512;
/**
 * Output is written once this many characters are pending: few `write` calls, yet each chunk is
 * small enough to be built in V8's young generation and encoded into reused malloc memory. Larger
 * chunks (a few MiB each) land in freshly mapped pages, whose page faults cost more on a small VM
 * than encoding the text does.
 */
const FLUSH_CHARACTERS = 48 * 1024;

/** One usable input line of a batch. */
export interface BatchCase {
  readonly id: unknown;
  readonly data: Record<string, string> | null;
  readonly dnsDomain?: string;
  readonly clusterDomain?: string;
}

/**
 * The batch loop: one JSON result line per JSON input line, in input order. A line that cannot be
 * used yields an `input` error line for its id (`null` if it has none); the batch goes on. Exit
 * status 0 even when cases fail: failures are data here. Unreadable input exits 2.
 */
export async function runBatch(
  file: string | undefined,
  io: CliIo,
  translateCase: (batchCase: BatchCase, lineNumber: number) => { readonly ok: boolean; readonly stage?: string },
): Promise<number> {
  const source = await readSource(file, io, INPUT_LIMITS.batch);
  const counts = { ok: 0, failed: 0, unusable: 0 };
  const progress = io.stderr.isTTY === true;
  let pending: string[] = [];
  let pendingCharacters = 0;
  let lineNumber = 0;
  for (const line of source.text.split('\n')) {
    lineNumber += 1;
    if (line.trim() === '') continue;
    const read = readBatchCase(line, lineNumber);
    const result = 'unusable' in read ? read.unusable : translateCase(read, lineNumber);
    if (result.ok) counts.ok += 1;
    else if (result.stage === 'input') counts.unusable += 1;
    else counts.failed += 1;
    const resultLine = stringifyAsciiJson(result);
    pending.push(resultLine);
    pendingCharacters += resultLine.length + 1;
    const done = counts.ok + counts.failed + counts.unusable;
    const progressDue = progress && done % PROGRESS_EVERY === 0;
    if (pendingCharacters >= FLUSH_CHARACTERS || progressDue) {
      io.stdout.write(`${pending.join('\n')}\n`);
      pending = [];
      pendingCharacters = 0;
    }
    if (progressDue) io.stderr.write(`\r${done} cases…`);
  }
  if (pending.length > 0) io.stdout.write(`${pending.join('\n')}\n`);
  const total = counts.ok + counts.failed + counts.unusable;
  io.stderr.write(`${progress ? '\r' : ''}batch: ${total} case${total === 1 ? '' : 's'}: ${counts.ok} ok, ${counts.failed} refused or failed, ${counts.unusable} unusable input lines\n`);
  return ExitCode.ok;
}

function readBatchCase(line: string, lineNumber: number): BatchCase | { readonly unusable: BatchResultLine } {
  let input: unknown;
  try {
    input = JSON.parse(line);
  } catch (error) {
    return { unusable: inputError(null, `line ${lineNumber}: not JSON: ${error instanceof Error ? error.message : String(error)}`) };
  }
  const id = typeof input === 'object' && input !== null && 'id' in input ? (input as { id: unknown }).id : null;
  if (!validateBatchCase(input)) {
    const [problem] = validateBatchCase.errors ?? [];
    const where = problem?.instancePath === '' || problem === undefined ? 'the line' : problem.instancePath.slice(1).replaceAll('/', '.');
    return { unusable: inputError(id, `line ${lineNumber}: ${where} ${problem?.message ?? 'is not a batch case'} (expected {"id", "data", "dnsDomain"})`) };
  }
  return input as BatchCase;
}

export function inputError(id: unknown, error: string): BatchResultLine {
  return { id, ok: false, stage: 'input', error };
}
