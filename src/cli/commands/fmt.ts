import { CorefileError, CorefilePrintError, formatCorefile } from '../../corefile/index.js';
import type { FormatResult } from '../../corefile/index.js';
import type { CliIo } from '../io.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { readCorefileSource } from '../corefile-source.js';
import type { CorefileSourceText } from '../corefile-source.js';
import { ExitCode, UsageError } from '../usage-error.js';
import { printable } from '../../util/printable-text.js';

export const FMT_HELP = `Usage: kube-dns-to-coredns fmt [FILE|-]
       kube-dns-to-coredns fmt --check [FILE|-]...

Print the canonical form of a CoreDNS Corefile: one directive per line, four-space
indentation, a blank line between server blocks, comments kept, quotes only where
CoreDNS needs them. Formatting never changes what CoreDNS reads.

FILE is a Corefile, or a CoreDNS ConfigMap (YAML or JSON, as kubectl prints it) whose
'Corefile' entry is formatted. Without FILE, or with '-', standard input is read.

Options:
  --check     print the name of each FILE that is not already in canonical form, one per
              line, on stdout (like gofmt -l); nothing when all are. Takes several FILEs.
  -h, --help  show this help

Exit status: 0 formatted (or all canonical with --check), 1 some FILE not canonical
(--check), 2 unreadable input, a syntax error (FILE:LINE:COL: message) or bad usage;
with --check every FILE is still checked, and the highest status wins.

Examples:
  kube-dns-to-coredns fmt Corefile > Corefile.new
  kubectl -n kube-system get configmap coredns -o yaml | kube-dns-to-coredns fmt
  kube-dns-to-coredns fmt --check deploy/*/Corefile   # in CI: lists the files to format
`;

/**
 * `kube-dns-to-coredns fmt`: prints the canonical Corefile, or with `--check` lists the files that
 * are not canonical; see {@link FMT_HELP}. Syntax errors go to stderr as `FILE:LINE:COL: message`
 * (exit 2); usage and input errors are thrown as {@link UsageError} for `main` to report (with
 * `--check`, reported per file, and the other files still checked).
 */
export async function runFmt(args: readonly string[], io: CliIo): Promise<number> {
  const { check, help, files } = parseFmtArgs(args);
  if (help) {
    io.stdout.write(FMT_HELP);
    return ExitCode.ok;
  }
  if (check) return checkFiles(files, io);
  const source = await readCorefileSource(files[0], io);
  const result = format(source, io);
  if (result === undefined) return ExitCode.usage;
  for (const warning of result.warnings) io.stderr.write(`${printable(source.locate(warning.position, `warning: ${warning.reason}`))}\n`);
  io.stdout.write(result.text);
  return ExitCode.ok;
}

/** `--check`: the name of each file that is not canonical, on stdout; the worst status of all. */
async function checkFiles(files: readonly (string | undefined)[], io: CliIo): Promise<number> {
  let status: number = ExitCode.ok;
  for (const file of files) {
    let source: CorefileSourceText;
    try {
      source = await readCorefileSource(file, io);
    } catch (error) {
      if (!(error instanceof UsageError) || files.length === 1) throw error;
      io.stderr.write(`kube-dns-to-coredns: ${printable(error.message)}\n`);
      status = Math.max(status, error.exitCode);
      continue;
    }
    const result = format(source, io);
    if (result === undefined) status = ExitCode.usage;
    else if (!result.unchanged) {
      io.stdout.write(`${printable(source.name)}\n`);
      status = Math.max(status, ExitCode.failed);
    }
  }
  return status;
}

/** The formatted text, or `undefined` after writing why it could not be formatted. */
function format(source: CorefileSourceText, io: CliIo): FormatResult | undefined {
  try {
    return formatCorefile(source.corefile, { filename: source.name });
  } catch (error) {
    if (!(error instanceof CorefileError)) throw error;
    io.stderr.write(`${printable(describeFailure(error, source.name, source))}\n`);
    return undefined;
  }
}

/** `FILE:LINE:COL: reason` for syntax errors; print refusals (rare: keys CoreDNS then rejects) name the node too. */
function describeFailure(error: CorefileError, name: string, source: CorefileSourceText): string {
  const reason = error instanceof CorefilePrintError ? `cannot print ${error.path}: ${error.reason}` : error.reason;
  return error.position === undefined ? `${name}: ${reason}` : source.locate(error.position, reason);
}

function parseFmtArgs(args: readonly string[]): { check: boolean; help: boolean; files: readonly (string | undefined)[] } {
  const parsed = parseCommandArgs('fmt', args, {
    allowPositionals: true,
    options: { check: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
  });
  const { positionals, values } = parsed;
  if (positionals.length > 1 && !values.check) {
    throw new UsageError(`fmt: formatting prints one Corefile, got ${positionals.length} FILEs; give one FILE, or --check to check several`);
  }
  if (positionals.filter((file) => file === '-').length > 1) throw new UsageError("fmt: standard input ('-') can be read only once");
  return { check: values.check, help: values.help, files: positionals.length === 0 ? [undefined] : positionals };
}
