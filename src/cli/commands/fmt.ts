import { formatCorefile } from '../../corefile/index.js';
import type { FormatResult } from '../../corefile/index.js';
import { printable } from '../../util/printable-text.js';
import { defineCommand } from '../command.js';
import type { CommandContext } from '../command.js';
import { readCorefileSource } from '../corefile-source.js';
import type { CorefileSourceText } from '../corefile-source.js';
import { isInputFailure, reportFailure, usingCorefile } from '../errors.js';
import type { CliIo } from '../io.js';
import { flag } from '../options.js';
import { ExitCode, UsageError } from '../usage-error.js';

export const FMT_HELP = `Usage: kube-dns-to-coredns fmt [FILE|-]
       kube-dns-to-coredns fmt --check [FILE|-]...

Print the canonical form of a CoreDNS Corefile: one directive per line, four-space
indentation, a blank line between server blocks, comments kept, quotes only where
CoreDNS needs them. Formatting never changes what CoreDNS reads.

FILE is a Corefile, or a CoreDNS ConfigMap (YAML or JSON, as kubectl prints it) whose
'Corefile' entry is formatted. Without FILE, or with '-', standard input is read.

Options:
  --check       print the name of each FILE that is not already in canonical form, one
                per line, on stdout (like gofmt -l); nothing when all are. Takes several
                FILEs.
  -q, --quiet   warnings and errors only (fmt writes no infos)
  --out FILE    write the output to FILE, only on success (see the main --help)
  -h, --help    show this help

Exit status: 0 formatted (or all canonical with --check), 1 some FILE not canonical
(--check), 2 unreadable input, a syntax error (FILE:LINE:COL: message) or bad usage;
with --check every FILE is still checked, and the highest status wins.

Examples:
  kube-dns-to-coredns fmt Corefile > Corefile.new
  kubectl -n kube-system get configmap coredns -o yaml | kube-dns-to-coredns fmt
  kube-dns-to-coredns fmt --check deploy/*/Corefile   # in CI: lists the files to format
`;

const options = { check: flag() } as const;

/**
 * `kube-dns-to-coredns fmt`: prints the canonical Corefile, or with `--check` lists the files that
 * are not canonical; see {@link FMT_HELP}. Usage errors, unreadable input and syntax errors are
 * thrown for `main` to report (syntax errors as `FILE:LINE:COL: message`, exit 2); with `--check`,
 * those of a file are reported the same way and the other files still checked.
 */
export const fmtCommand = defineCommand({
  name: 'fmt',
  help: FMT_HELP,
  options,
  positionals: { name: 'FILE', max: Number.POSITIVE_INFINITY },
  run: runFmt,
});

async function runFmt(context: CommandContext<typeof options, never>): Promise<number> {
  const { io, positionals, report } = context;
  const { check } = context.options;
  if (positionals.length > 1 && !check) {
    throw new UsageError(`fmt: formatting prints one Corefile, got ${positionals.length} FILEs; give one FILE, or --check to check several`);
  }
  if (positionals.filter((file) => file === '-').length > 1) throw new UsageError("fmt: standard input ('-') can be read only once");
  const files = positionals.length === 0 ? [undefined] : positionals;
  if (check) return checkFiles(files, io);
  const source = await readCorefileSource(files[0], io);
  const result = format(source);
  for (const warning of result.warnings) report.warningLine(source.locate(warning.position, `warning: ${warning.reason}`));
  io.stdout.write(result.text);
  return ExitCode.ok;
}

/** `--check`: the name of each file that is not canonical, on stdout; the worst status of all. */
async function checkFiles(files: readonly (string | undefined)[], io: CliIo): Promise<number> {
  let status: number = ExitCode.ok;
  for (const file of files) {
    let source: CorefileSourceText;
    let result: FormatResult;
    try {
      source = await readCorefileSource(file, io);
      result = format(source);
    } catch (error) {
      // A bug stops the run (main reports it); a problem with this file does not.
      if (!isInputFailure(error)) throw error;
      status = Math.max(status, reportFailure(error, io));
      continue;
    }
    if (!result.unchanged) {
      io.stdout.write(`${printable(source.name)}\n`);
      status = Math.max(status, ExitCode.failed);
    }
  }
  return status;
}

/** The formatted text; a syntax error (or a print refusal, naming the node) is reported against FILE. */
function format(source: CorefileSourceText): FormatResult {
  return usingCorefile(source, (corefile) => formatCorefile(corefile, { filename: source.name }));
}
