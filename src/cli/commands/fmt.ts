import { parseArgs } from 'node:util';
import { ConfigMapInputError, readConfigMap } from '../../configmap/read-configmap.js';
import { CorefileError, CorefilePrintError, formatCorefile } from '../../corefile/index.js';
import type { FormatResult } from '../../corefile/index.js';
import type { SourcePosition } from '../../util/source-position.js';
import { formatAt } from '../../util/source-position.js';
import type { CliIo } from '../io.js';
import { readSource } from '../read-source.js';
import { ExitCode, UsageError } from '../usage-error.js';

export const FMT_HELP = `Usage: kube-dns-to-coredns fmt [--check] [FILE|-]

Print the canonical form of a CoreDNS Corefile: one directive per line, four-space
indentation, a blank line between server blocks, comments kept, quotes only where
CoreDNS needs them. Formatting never changes what CoreDNS reads.

FILE is a Corefile, or a CoreDNS ConfigMap (YAML or JSON, as kubectl prints it) whose
'Corefile' entry is formatted. Without FILE, or with '-', standard input is read.

Options:
  --check     print nothing; exit 1 when FILE is not already in canonical form
  -h, --help  show this help

Exit status: 0 formatted (or already canonical with --check), 1 not canonical (--check),
2 unreadable input, a syntax error (FILE:LINE:COL: message) or bad usage.

Examples:
  kube-dns-to-coredns fmt Corefile > Corefile.new
  kubectl -n kube-system get configmap coredns -o yaml | kube-dns-to-coredns fmt
  kube-dns-to-coredns fmt --check deploy/coredns/Corefile   # in CI
`;

/**
 * `kube-dns-to-coredns fmt`: prints the canonical Corefile; see {@link FMT_HELP}. Syntax errors
 * go to stderr as `FILE:LINE:COL: message` (exit 2); usage and input errors are thrown as
 * {@link UsageError} for `main` to report.
 */
export async function runFmt(args: readonly string[], io: CliIo): Promise<number> {
  const { check, help, file } = parseFmtArgs(args);
  if (help) {
    io.stdout.write(FMT_HELP);
    return ExitCode.ok;
  }
  const { name, text } = await readSource(file, io);
  const source = corefileSource(text, name);
  let result: FormatResult;
  try {
    result = formatCorefile(source.corefile, { filename: name });
  } catch (error) {
    if (!(error instanceof CorefileError)) throw error;
    io.stderr.write(`${describeFailure(error, name, source)}\n`);
    return ExitCode.usage;
  }
  if (check) return result.unchanged ? ExitCode.ok : ExitCode.failed;
  for (const warning of result.warnings) io.stderr.write(`${source.locate(warning.position, `warning: ${warning.reason}`)}\n`);
  io.stdout.write(result.text);
  return ExitCode.ok;
}

/** `FILE:LINE:COL: reason` for syntax errors; print refusals (rare: keys CoreDNS then rejects) name the node too. */
function describeFailure(error: CorefileError, name: string, source: CorefileSource): string {
  const reason = error instanceof CorefilePrintError ? `cannot print ${error.path}: ${error.reason}` : error.reason;
  return error.position === undefined ? `${name}: ${reason}` : source.locate(error.position, reason);
}

function parseFmtArgs(args: readonly string[]): { check: boolean; help: boolean; file: string | undefined } {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: { check: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
    });
  } catch (error) {
    throw new UsageError(`fmt: ${error instanceof Error ? error.message : String(error)}; see 'fmt --help'`);
  }
  const { positionals, values } = parsed;
  if (positionals.length > 1) throw new UsageError(`fmt: expected at most one FILE, got ${positionals.length}: ${positionals.join(' ')}`);
  return { check: values.check, help: values.help, file: positionals[0] };
}

interface CorefileSource {
  readonly corefile: string;
  /** `FILE:LINE:COL: message` for a position in the Corefile text, pointing into FILE when possible. */
  locate(position: SourcePosition, message: string): string;
}

/** A line that only a YAML or JSON ConfigMap starts with, never a Corefile. */
const CONFIGMAP_HINT = /^[ \t]*(?:---[ \t]*$|"?(?:apiVersion|kind|metadata|data|Corefile)"?[ \t]*:|\{[ \t]*"(?:apiVersion|kind|metadata|data|Corefile)"[ \t]*:)/m;

/** The Corefile text in `text`: the text itself, or the `Corefile` entry of a ConfigMap. */
function corefileSource(text: string, filename: string): CorefileSource {
  if (!CONFIGMAP_HINT.test(text)) return { corefile: text, locate: (position, message) => formatAt(filename, position, message) };
  let data;
  let name;
  try {
    ({ data, name } = readConfigMap(text, { filename, preferredNames: ['coredns'] }));
  } catch (error) {
    if (error instanceof ConfigMapInputError) throw new UsageError(error.message);
    throw error;
  }
  const corefile = data['Corefile'];
  if (corefile === undefined) {
    const keys = Object.keys(data);
    const which = name === undefined ? 'the ConfigMap' : `ConfigMap '${name}'`;
    throw new UsageError(`${filename}: ${which} has no 'Corefile' entry (keys: ${keys.length === 0 ? 'none' : keys.join(', ')})`);
  }
  const block = findLiteralBlock(text, corefile);
  return {
    corefile,
    locate: (position, message) =>
      block === undefined
        ? `${filename}: data.Corefile line ${position.line}, column ${position.column}: ${message}`
        : formatAt(filename, { line: block.firstLine + position.line, column: block.indent + position.column }, message),
  };
}

/**
 * Where `value` sits in `source` as a YAML literal block (`|`): the 0-based source line of its
 * first line and its indentation. Undefined when it is written some other way.
 */
function findLiteralBlock(source: string, value: string): { firstLine: number; indent: number } | undefined {
  const sourceLines = source.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  const valueLines = value.split('\n');
  if (valueLines[valueLines.length - 1] === '') valueLines.pop();
  const anchor = valueLines.findIndex((line) => line !== '');
  const anchorText = valueLines[anchor];
  if (anchorText === undefined) return undefined;
  for (let candidate = anchor; candidate < sourceLines.length; candidate += 1) {
    const line = sourceLines[candidate] as string;
    const indent = line.length - anchorText.length;
    if (indent <= 0 || !line.endsWith(anchorText) || line.slice(0, indent).trim() !== '') continue;
    const firstLine = candidate - anchor;
    const padding = line.slice(0, indent);
    const matches = valueLines.every((expected, index) => {
      const actual = sourceLines[firstLine + index];
      return actual !== undefined && (expected === '' ? actual.trim() === '' : actual === padding + expected);
    });
    if (matches) return { firstLine, indent };
  }
  return undefined;
}
