import { CorefileError, CorefilePrintError, formatCorefile } from '../../corefile/index.js';
import type { FormatResult } from '../../corefile/index.js';
import type { CliIo } from '../io.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { readCorefileSource } from '../corefile-source.js';
import type { CorefileSourceText } from '../corefile-source.js';
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
  const source = await readCorefileSource(file, io);
  const { name } = source;
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
function describeFailure(error: CorefileError, name: string, source: CorefileSourceText): string {
  const reason = error instanceof CorefilePrintError ? `cannot print ${error.path}: ${error.reason}` : error.reason;
  return error.position === undefined ? `${name}: ${reason}` : source.locate(error.position, reason);
}

function parseFmtArgs(args: readonly string[]): { check: boolean; help: boolean; file: string | undefined } {
  const parsed = parseCommandArgs('fmt', args, {
    allowPositionals: true,
    options: { check: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
  });
  const { positionals, values } = parsed;
  if (positionals.length > 1) throw new UsageError(`fmt: expected at most one FILE, got ${positionals.length}: ${positionals.join(' ')}`);
  return { check: values.check, help: values.help, file: positionals[0] };
}
