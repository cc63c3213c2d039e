import { KUBEADM_DEFAULT_DNS_DOMAIN, translateLikeKubeadm } from '../kubeadm/kubeadm-translation.js';
import type { KubeadmOutcome } from '../kubeadm/kubeadm-translation.js';
import { isDns1123Subdomain } from '../kubedns/go-net.js';
import type { KubeadmProfile } from '../kubeadm/profiles.js';
import { validateBatchCase } from '../generated/validate-batch-case.js';
import { TranslateOptionsError, translateKubeDns } from '../translate/translate.js';
import type { TranslateOptions } from '../translate/translate.js';
import { stringifyAsciiJson } from '../util/ascii-json.js';
import type { CliIo } from './io.js';
import { readSource } from './read-source.js';
import { ExitCode } from './usage-error.js';

/** One output line of `--batch`: the corpus shape, plus `stage: "input"` for unusable lines. */
export type BatchResultLine =
  | { readonly id: unknown; readonly ok: true; readonly corefile: string; readonly warnings?: readonly string[] }
  | { readonly id: unknown; readonly ok: false; readonly stage: 'translate' | 'decode' | 'input'; readonly error: string; readonly warnings?: readonly string[] };

/** Lines are written in chunks of this many to keep `write` calls few. */
const FLUSH_EVERY = 512;

/** One usable input line of a batch. */
interface BatchCase {
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
async function runBatch(file: string | undefined, io: CliIo, translateCase: (batchCase: BatchCase, lineNumber: number) => object): Promise<number> {
  const source = await readSource(file, io);
  let pending: string[] = [];
  let lineNumber = 0;
  for (const line of source.text.split('\n')) {
    lineNumber += 1;
    if (line.trim() === '') continue;
    const read = readBatchCase(line, lineNumber);
    pending.push(stringifyAsciiJson('unusable' in read ? read.unusable : translateCase(read, lineNumber)));
    if (pending.length >= FLUSH_EVERY) {
      io.stdout.write(`${pending.join('\n')}\n`);
      pending = [];
    }
  }
  if (pending.length > 0) io.stdout.write(`${pending.join('\n')}\n`);
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

/** `--kubeadm VERSION --batch`: kubeadm's outcome per case, in the reference corpus layout. */
export function runKubeadmBatch(profile: KubeadmProfile, file: string | undefined, io: CliIo): Promise<number> {
  return runBatch(file, io, (batchCase, lineNumber) => {
    const dnsDomain = batchCase.dnsDomain ?? batchCase.clusterDomain ?? KUBEADM_DEFAULT_DNS_DOMAIN;
    if (!isDns1123Subdomain(dnsDomain)) return inputError(batchCase.id, `line ${lineNumber}: dnsDomain '${dnsDomain}' is not a DNS-1123 subdomain`);
    return resultLine(batchCase.id, translateLikeKubeadm(profile, batchCase.data, dnsDomain));
  });
}

/** `--batch` of the default translator: `{id, ok, corefile?, diagnostics}` per case. */
export function runTranslateBatch(options: TranslateOptions, file: string | undefined, io: CliIo): Promise<number> {
  return runBatch(file, io, (batchCase, lineNumber) => {
    const clusterDomain = batchCase.clusterDomain ?? batchCase.dnsDomain ?? options.clusterDomain;
    try {
      const translation = translateKubeDns(batchCase.data, { ...options, ...(clusterDomain === undefined ? {} : { clusterDomain }) });
      return { id: batchCase.id, ok: translation.ok, ...(translation.corefile === undefined ? {} : { corefile: translation.corefile }), diagnostics: translation.diagnostics };
    } catch (error) {
      if (error instanceof TranslateOptionsError) return inputError(batchCase.id, `line ${lineNumber}: ${error.message}`);
      throw error;
    }
  });
}

function resultLine(id: unknown, outcome: KubeadmOutcome): BatchResultLine {
  const warnings = outcome.warnings.length > 0 ? { warnings: outcome.warnings } : {};
  if (outcome.ok) return { id, ok: true, corefile: outcome.corefile, ...warnings };
  return { id, ok: false, stage: outcome.stage, error: outcome.error, ...warnings };
}

function inputError(id: unknown, error: string): BatchResultLine {
  return { id, ok: false, stage: 'input', error };
}
