import { batchCaseFields, validateBatchCase } from '../generated/validate-batch-case.js';
import { stringifyAsciiJson } from './ascii-json.js';
import { batchItemFailure } from './errors.js';
import type { CliIo } from './io.js';
import { cannotRead, INPUT_LIMITS, isStdin, readSourceBytes, sourceName } from './read-source.js';
import { ExitCode } from './usage-error.js';
import { firstInvalidUtf8, hexByte } from '../util/utf8.js';

/** One output line of `--batch`: the corpus shape, plus `stage: "input"` for unusable lines and `stage: "output"` for a result too large to write. */
export type BatchResultLine =
  | { readonly id: unknown; readonly ok: true; readonly corefile: string; readonly warnings?: readonly string[]; readonly unrequested?: readonly string[] }
  | { readonly id: unknown; readonly ok: false; readonly stage: 'translate' | 'decode' | 'input' | 'output' | 'internal' | 'migrate' | 'lint'; readonly error: string; readonly warnings?: readonly string[] };

/** What a batch's command answers for one case: its result line (the loop counts `ok` and `stage`, and the error diagnostics' codes). */
export interface BatchResult {
  readonly id?: unknown;
  readonly ok: boolean;
  readonly stage?: string;
  readonly error?: string;
  readonly diagnostics?: readonly { readonly severity: string; readonly code: string }[];
}

/** What the batch loop counts of a result line (the rest of it is the command's). */
export type BatchOutcome = BatchResult;

/** Reads one input line of a batch: the command's case, or the result line of an unusable line. */
export type BatchCaseReader<Case> = (line: string, lineNumber: number) => Case | { readonly unusable: BatchResultLine };

/** The progress line (on a terminal) is redrawn every this many cases. */
const PROGRESS_EVERY = 512;
/**
 * Output is written once this many characters are pending: few `write` calls, yet each chunk is
 * small enough to be built in V8's young generation and encoded into reused malloc memory. Larger
 * chunks (a few MiB each) land in freshly mapped pages, whose page faults cost more on a small VM
 * than encoding the text does.
 */
const FLUSH_CHARACTERS = 48 * 1024;
/** Pending output is also written once it has waited this long, so that slow cases can be watched. */
const FLUSH_MILLISECONDS = 200;
/**
 * How long the loop works before it gives the event loop a turn. A file is read synchronously, so
 * without a turn a signal's handler (the output file's cleanup) would wait for the whole batch.
 */
const YIELD_MILLISECONDS = 50;

/** A macrotask turn: timers and signal handlers run, then the loop goes on. */
function giveTheEventLoopATurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
/**
 * The most one result line may hold: twice the longest input line. A case whose result is longer
 * (diagnostics quoting a long key thousands of times) gets an `output` error line instead, and
 * its text is never built whole.
 */
const MAX_RESULT_CHARACTERS = 64 * 1024 * 1024;
/** How many failing cases the summary names. */
const NAMED_FAILURES = 10;

/** One usable input line of a batch. */
export interface BatchCase {
  readonly id: string | number;
  readonly data: Record<string, string> | null;
  readonly dnsDomain?: string;
  readonly clusterDomain?: string;
  /** The case's CoreDNS release (the default translator only). */
  readonly coredns?: string;
}

/** What the summary says about the failures: which cases (first few) and how many per code. */
class FailureSummary {
  private readonly named: string[] = [];
  private failures = 0;
  private readonly codes = new Map<string, number>();

  add(result: BatchResult, lineNumber: number): void {
    this.failures += 1;
    if (this.named.length < NAMED_FAILURES) this.named.push(result.id === null ? `line ${lineNumber}` : describeId(result.id));
    const errors = (result.diagnostics ?? []).filter((entry) => entry.severity === 'error').map((entry) => entry.code);
    for (const code of errors.length > 0 ? new Set(errors) : [result.stage ?? 'failed']) this.codes.set(code, (this.codes.get(code) ?? 0) + 1);
  }

  /** `batch: not ok: "b", line 3 (and 2 more); by code: input 1, json-syntax 3`, or nothing when all were ok. */
  line(): string {
    if (this.failures === 0) return '';
    const more = this.failures - this.named.length;
    const codes = [...this.codes.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([code, count]) => `${code} ${count}`);
    return `batch: not ok: ${this.named.join(', ')}${more > 0 ? ` (and ${more} more)` : ''}; by code: ${codes.join(', ')}\n`;
  }
}

/** An id as the summary names it: its JSON, cut to 40 characters. */
function describeId(id: unknown): string {
  const text = stringifyAsciiJson(id);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

/**
 * The batch loop: one JSON result line per input line, in input order, each written as soon as it
 * is known (pending lines are written whenever the input has no more complete lines at hand, so a
 * pipe sees every answer before the next line arrives). A line that cannot be used — blank, too
 * long, not UTF-8, not JSON, not a case — yields an `input` error line for its id (`null` if it has
 * none usable); a case whose translation fails in any way (a bug included) or whose result is too
 * large to write yields its own error line: the batch always goes on. Exit status 0 even when cases
 * fail: failures are data here, counted and named in the summary on stderr. Unreadable input exits 2.
 */
export async function runBatch<Case = BatchCase>(
  file: string | undefined,
  io: CliIo,
  runCase: (batchCase: Case, lineNumber: number) => BatchResult,
  /** How a line is read: the translator's `{"id", "data", …}` cases unless a command says otherwise. */
  readCase: BatchCaseReader<Case> = readBatchCase as unknown as BatchCaseReader<Case>,
  options: { readonly quiet?: boolean; readonly maxResultCharacters?: number } = {},
): Promise<number> {
  const quiet = options.quiet === true;
  const maxCharacters = options.maxResultCharacters ?? MAX_RESULT_CHARACTERS;
  const counts = { ok: 0, failed: 0, unusable: 0 };
  const failures = new FailureSummary();
  const progress = io.stderr.isTTY === true && !quiet;
  let pending: string[] = [];
  let pendingCharacters = 0;
  let lastFlush = Date.now();
  const flush = (): void => {
    if (pending.length > 0) io.stdout.write(`${pending.join('\n')}\n`);
    pending = [];
    pendingCharacters = 0;
    lastFlush = Date.now();
  };
  const stopped: { reason?: string } = {};
  let lastTurn = Date.now();
  for await (const lines of batchInputLines(file, io, stopped)) {
    for (const line of lines) {
      if (Date.now() - lastTurn >= YIELD_MILLISECONDS) {
        await giveTheEventLoopATurn();
        lastTurn = Date.now();
      }
      const { result, text } = answer(line, runCase, readCase, maxCharacters);
      if (result.ok) counts.ok += 1;
      else if (result.stage === 'input') counts.unusable += 1;
      else counts.failed += 1;
      if (!result.ok) failures.add(result, line.lineNumber);
      pending.push(text);
      pendingCharacters += text.length + 1;
      const done = counts.ok + counts.failed + counts.unusable;
      const progressDue = progress && done % PROGRESS_EVERY === 0;
      if (pendingCharacters >= FLUSH_CHARACTERS || progressDue || Date.now() - lastFlush >= FLUSH_MILLISECONDS) flush();
      if (progressDue) io.stderr.write(`\r${done} cases…`);
    }
    // Nothing more at hand: the next line may take a while to arrive.
    flush();
  }
  const total = counts.ok + counts.failed + counts.unusable;
  // The summary is kept with --quiet when something failed: it says which cases.
  if (!quiet) io.stderr.write(`${progress ? '\r' : ''}batch: ${total} case${total === 1 ? '' : 's'}: ${counts.ok} ok, ${counts.failed} refused or failed, ${counts.unusable} unusable input lines\n`);
  io.stderr.write(failures.line());
  if (stopped.reason !== undefined) {
    io.stderr.write(`kube-dns-to-coredns: ${stopped.reason}\n`);
    return ExitCode.usage;
  }
  return ExitCode.ok;
}

/** The result of one input line and its text: whatever goes wrong with this line stays with it. */
function answer<Case>(
  line: InputLine,
  runCase: (batchCase: Case, lineNumber: number) => BatchResult,
  readCase: BatchCaseReader<Case>,
  maxCharacters: number,
): { readonly result: BatchResult; readonly text: string } {
  const { lineNumber } = line;
  let read: Case | { readonly unusable: BatchResultLine };
  try {
    read = 'problem' in line ? { unusable: inputError(null, `line ${lineNumber}: ${line.problem}`) } : readCase(line.text, lineNumber);
  } catch (error) {
    // JSON.parse itself may run out of stack on a deep enough line.
    read = { unusable: lineFailure(error, null, lineNumber) };
  }
  let result: BatchResult;
  if (isUnusable(read)) {
    result = read.unusable;
  } else {
    try {
      result = runCase(read, lineNumber);
    } catch (error) {
      result = lineFailure(error, (read as { readonly id?: unknown }).id ?? null, lineNumber);
    }
  }
  const text = boundedResultText(result, maxCharacters);
  if (text !== undefined) return { result, text };
  const tooLarge: BatchResult = {
    id: usableId(result.id),
    ok: false,
    stage: 'output',
    error: `line ${lineNumber}: the result is longer than ${describeCharacters(maxCharacters)}, more than a result line may hold; translate this case on its own`,
  };
  return { result: tooLarge, text: stringifyAsciiJson(tooLarge) };
}

/**
 * An error a case's translation threw: an input error (the case's own cluster domain or release)
 * is that case's input error; anything else — a bug, a stack overflow on a pathological case — is
 * an `internal` error line for it.
 */
function lineFailure(error: unknown, id: unknown, lineNumber: number): BatchResultLine {
  const failure = batchItemFailure(error);
  if (failure !== undefined) return inputError(id, `line ${lineNumber}: ${failure}`);
  const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  return { id, ok: false, stage: 'internal', error: `line ${lineNumber}: internal error, please report it: ${reason.slice(0, 1000)}` };
}

/** The id a result line may carry: a string or a number as given, else `null` (never a deep structure). */
function usableId(id: unknown): string | number | null {
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

function describeCharacters(count: number): string {
  return count >= 1024 * 1024 ? `${Math.round(count / 1024 / 1024)} MiB` : `${count} characters`;
}

/**
 * The result's JSON line, built member by member and diagnostic by diagnostic so that it stops
 * as soon as it passes `maxCharacters` (undefined then): a result too large is never built whole.
 */
function boundedResultText(result: BatchResult, maxCharacters: number): string | undefined {
  const record = result as unknown as Record<string, unknown>;
  let text = '{';
  let first = true;
  for (const key of Object.keys(record)) {
    const member = key === 'id' ? usableId(record[key]) : record[key];
    if (member === undefined) continue;
    text += `${first ? '' : ', '}${stringifyAsciiJson(key)}: `;
    first = false;
    if (Array.isArray(member)) {
      text += '[';
      for (let index = 0; index < member.length; index += 1) {
        text += `${index === 0 ? '' : ', '}${memberText(member[index])}`;
        if (text.length > maxCharacters) return undefined;
      }
      text += ']';
    } else {
      text += memberText(member);
    }
    if (text.length > maxCharacters) return undefined;
  }
  return `${text}}`;
}

/**
 * The JSON text of a frozen object, kept: what a batch resolves once and every result shares (the
 * releases `migrate --batch` names, their notices) is frozen, deeply, and written once per batch.
 */
const SHARED_TEXT = new WeakMap<object, string | null>();

function memberText(member: unknown): string {
  if (typeof member !== 'object' || member === null || Array.isArray(member) || !Object.isFrozen(member)) return stringifyAsciiJson(member);
  let text = SHARED_TEXT.get(member);
  if (text === undefined) {
    // Only a text that cannot change is kept: frozen all the way down (`null`: not so).
    text = deepFrozen(member) ? stringifyAsciiJson(member) : null;
    SHARED_TEXT.set(member, text);
  }
  return text ?? stringifyAsciiJson(member);
}

function deepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  return Object.isFrozen(value) && Object.values(value).every(deepFrozen);
}

/** An input line as text, or why it cannot be read as text. */
type InputLine = { readonly lineNumber: number; readonly text: string } | { readonly lineNumber: number; readonly problem: string };

/**
 * The lines of FILE or of standard input, read as they arrive when the I/O can stream them (else
 * read whole, FILE at most {@link INPUT_LIMITS.batch}), in groups: each group is every complete
 * line at hand. Reading ends early when a line has no line feed within twice the line limit
 * (`/dev/zero`): that line is the last group, and `stopped` says why the rest was not read.
 */
async function* batchInputLines(file: string | undefined, io: CliIo, stopped: { reason?: string }): AsyncGenerator<readonly InputLine[]> {
  const splitter = new LineSplitter(INPUT_LIMITS.batchLine);
  const chunks = isStdin(file) ? io.stdinChunks?.() : io.fileChunks?.(file);
  if (chunks !== undefined) {
    const encoder = new TextEncoder();
    try {
      for await (const chunk of chunks) {
        const lines = splitter.push(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
        if (lines.length > 0) yield lines;
        if (splitter.abandoned) break;
      }
    } catch (error) {
      throw cannotRead(sourceName(file), error);
    }
  } else {
    const { bytes } = await readSourceBytes(file, io, INPUT_LIMITS.batch);
    yield splitter.push(bytes);
  }
  if (splitter.abandoned) {
    stopped.reason = `${sourceName(file)}: line ${splitter.lineCount} has no line end within ${Math.round((2 * INPUT_LIMITS.batchLine) / 1024 / 1024)} MiB; the rest of the input was not read`;
    return;
  }
  const last = splitter.end();
  if (last.length > 0) yield last;
}

const LINE_FEED = 0x0a;
const BYTE_ORDER_MARK = '\ufeff';

/**
 * Cuts a byte stream into lines at line feeds and decodes each as UTF-8, holding at most
 * `maxLineBytes` of an unfinished line: a longer line is dropped up to its end and reported. A line
 * still without a line feed after `maxSkipBytes` more is reported at once and the splitter gives up
 * ({@link abandoned}): an endless line (`/dev/zero`) would otherwise be read for ever.
 * A byte order mark at the very start is skipped, as the other commands do.
 */
export class LineSplitter {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  /** The start of the unfinished line, in the chunks it came in. */
  private partial: Uint8Array[] = [];
  private partialBytes = 0;
  /** The unfinished line is longer than the limit; its bytes are no longer kept. */
  private overlong = false;
  /** Bytes of an overlong line dropped so far. */
  private skipped = 0;
  private lineNumber = 0;
  /** True once a line went past `maxLineBytes + maxSkipBytes` without a line feed: push nothing more. */
  abandoned = false;

  constructor(
    private readonly maxLineBytes: number,
    private readonly maxSkipBytes: number = maxLineBytes,
  ) {}

  /** The number of lines reported so far. */
  get lineCount(): number {
    return this.lineNumber;
  }

  /** The lines that `chunk` completes. */
  push(chunk: Uint8Array): InputLine[] {
    if (this.abandoned) return [];
    const first = chunk.indexOf(LINE_FEED);
    if (first < 0) {
      this.keep(chunk);
      if (this.overlong && this.skipped > this.maxSkipBytes) {
        this.abandoned = true;
        this.overlong = false;
        this.skipped = 0;
        this.lineNumber += 1;
        return [{ lineNumber: this.lineNumber, problem: `longer than ${Math.round((this.maxLineBytes + this.maxSkipBytes) / 1024 / 1024)} MiB without a line end; the rest of the input is not read` }];
      }
      return [];
    }
    const lines = [this.finish(chunk.subarray(0, first))];
    const last = chunk.lastIndexOf(LINE_FEED);
    if (last > first) this.finishAll(chunk.subarray(first + 1, last), lines);
    this.keep(chunk.subarray(last + 1));
    return lines;
  }

  /** The last line when the input does not end with a line feed. */
  end(): InputLine[] {
    return this.partialBytes > 0 || this.overlong ? [this.finish(new Uint8Array(0))] : [];
  }

  private keep(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (this.overlong) {
      this.skipped += bytes.length;
      return;
    }
    if (this.partialBytes + bytes.length > this.maxLineBytes) {
      this.overlong = true;
      this.skipped = this.partialBytes + bytes.length - this.maxLineBytes;
      this.partial = [];
      this.partialBytes = 0;
      return;
    }
    // A copy: the chunk's buffer may be reused by the stream.
    this.partial.push(bytes.slice());
    this.partialBytes += bytes.length;
  }

  /** The line made of the kept start and `rest`. */
  private finish(rest: Uint8Array): InputLine {
    const overlong = this.overlong || this.partialBytes + rest.length > this.maxLineBytes;
    const bytes = this.partial.length === 0 ? rest : concat([...this.partial, rest], this.partialBytes + rest.length);
    this.partial = [];
    this.partialBytes = 0;
    this.overlong = false;
    this.skipped = 0;
    this.lineNumber += 1;
    return overlong ? this.overlongLine(this.lineNumber) : this.line(this.lineNumber, this.decode(bytes), bytes);
  }

  /**
   * The whole lines in `region` (line feeds between them, none around), decoded in one call when
   * they are all UTF-8 (one call per line costs more than the rest of the split).
   */
  private finishAll(region: Uint8Array, lines: InputLine[]): void {
    let texts: string[] | undefined;
    try {
      texts = this.decoder.decode(region).split('\n');
    } catch {
      texts = undefined;
    }
    let start = 0;
    for (let index = 0; start <= region.length; index += 1) {
      const found = region.indexOf(LINE_FEED, start);
      const end = found < 0 ? region.length : found;
      this.lineNumber += 1;
      if (end - start > this.maxLineBytes) lines.push(this.overlongLine(this.lineNumber));
      else if (texts !== undefined) lines.push(this.line(this.lineNumber, texts[index] as string));
      else {
        const bytes = region.subarray(start, end);
        lines.push(this.line(this.lineNumber, this.decode(bytes), bytes));
      }
      start = end + 1;
    }
  }

  private decode(bytes: Uint8Array): string | undefined {
    try {
      return this.decoder.decode(bytes);
    } catch {
      return undefined;
    }
  }

  private overlongLine(lineNumber: number): InputLine {
    return { lineNumber, problem: `longer than ${Math.round(this.maxLineBytes / 1024 / 1024)} MiB, more than a batch line may hold` };
  }

  /** The line `lineNumber` as decoded (undefined: `bytes` are not UTF-8, and the problem names the first byte that is not). */
  private line(lineNumber: number, decoded: string | undefined, bytes?: Uint8Array): InputLine {
    if (decoded === undefined) {
      const invalid = bytes === undefined ? undefined : firstInvalidUtf8(bytes);
      return { lineNumber, problem: invalid === undefined ? 'not UTF-8 text' : `not UTF-8 text: byte ${hexByte(invalid.byte)} at column ${invalid.column} (byte offset ${invalid.offset} of the line)` };
    }
    const text = lineNumber === 1 && decoded.startsWith(BYTE_ORDER_MARK) ? decoded.slice(BYTE_ORDER_MARK.length) : decoded;
    if (text.trim() === '') return { lineNumber, problem: 'blank line (expected one JSON object per line)' };
    return { lineNumber, text };
  }
}

function concat(parts: readonly Uint8Array[], length: number): Uint8Array {
  const joined = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}

function readBatchCase(line: string, lineNumber: number): BatchCase | { readonly unusable: BatchResultLine } {
  let input: unknown;
  try {
    input = JSON.parse(line);
  } catch (error) {
    return { unusable: inputError(null, `line ${lineNumber}: not JSON: ${error instanceof Error ? error.message : String(error)}`) };
  }
  const id = usableId(typeof input === 'object' && input !== null && 'id' in input ? (input as { id: unknown }).id : null);
  if (!validateBatchCase(input)) {
    const [problem] = validateBatchCase.errors ?? [];
    const where = problem?.instancePath === '' || problem === undefined ? 'the line' : problem.instancePath.slice(1).replaceAll('/', '.');
    const expected = problem?.keyword === 'additionalProperties' ? '' : ` (expected {${batchCaseFields.map((field) => JSON.stringify(field)).join(', ')}})`;
    return { unusable: inputError(id, `line ${lineNumber}: ${where} ${problem === undefined ? 'is not a batch case' : schemaProblem(problem)}${expected}`) };
  }
  return input as BatchCase;
}

/** A schema validator's complaint in plain English: `must be an object or null`, not `must be object,null`. */
function schemaProblem(problem: { readonly keyword: string; readonly params: Record<string, unknown>; readonly message?: string }): string {
  if (problem.keyword === 'additionalProperties') {
    const field = String(problem.params['additionalProperty']);
    return `has a field '${field.length > 40 ? `${field.slice(0, 39)}…` : field}' a batch case does not have; it would not be read (the fields: ${batchCaseFields.join(', ')})`;
  }
  if (problem.keyword !== 'type') return problem.message ?? 'is not a batch case';
  const types = problem.params['type'];
  const names = (Array.isArray(types) ? types : String(types).split(',')).map((type) => String(type));
  const withArticle = names.map((type) => (type === 'null' ? 'null' : `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`));
  return `must be ${withArticle.length > 1 ? `${withArticle.slice(0, -1).join(', ')} or ${withArticle[withArticle.length - 1]}` : withArticle[0]}`;
}

function isUnusable<Case>(read: Case | { readonly unusable: BatchResultLine }): read is { readonly unusable: BatchResultLine } {
  return typeof read === 'object' && read !== null && 'unusable' in read;
}

export function inputError(id: unknown, error: string): BatchResultLine {
  return { id, ok: false, stage: 'input', error };
}
