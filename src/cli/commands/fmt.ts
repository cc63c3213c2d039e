import { formatCorefile } from '../../corefile/index.js';
import type { CorefileWarning, FormatResult } from '../../corefile/index.js';
import { LISTED_PER_CODE } from '../../diagnostics/diagnostic.js';
import { printable } from '../../util/printable-text.js';
import { defineCommand } from '../command.js';
import type { CommandContext } from '../command.js';
import { readCorefileSource } from '../corefile-source.js';
import type { CorefileSourceText } from '../corefile-source.js';
import { isInputFailure, reportFailure, usingCorefile } from '../errors.js';
import type { CliIo } from '../io.js';
import { flag } from '../options.js';
import { ExitCode, UsageError } from '../usage-error.js';

export const FMT_HELP = `Usage: kube-dns-to-coredns fmt [-o corefile|configmap] [FILE|-]
       kube-dns-to-coredns fmt --check [FILE|-]...
       kube-dns-to-coredns fmt --write FILE...

Print the canonical form of a CoreDNS Corefile: one directive per line, four-space
indentation, a blank line between server blocks, comments kept, quotes only where
CoreDNS needs them. Formatting never changes what CoreDNS reads.

FILE is a Corefile, or a CoreDNS ConfigMap (YAML or JSON, as kubectl prints it) whose
'Corefile' entry is formatted. Without FILE, or with '-', standard input is read.

Options:
  --check       print the name of each FILE that is not already in canonical form, one
                per line, on stdout (like gofmt -l); nothing when all are. Takes several
                FILEs.
  --write       rewrite each FILE in place, all at once (as --out writes): a Corefile as
                its canonical form, a ConfigMap with its 'Corefile' entry formatted and
                everything else kept but the fields the API server sets. A FILE already
                canonical is not touched. Takes several FILEs.
  -o, --output FORMAT
                corefile (default) or configmap: FILE's ConfigMap with the formatted
                Corefile, its labels, annotations and other keys kept (a bare Corefile:
                the kube-system/coredns ConfigMap)
  -q, --quiet   warnings and errors only (fmt writes no infos)
  --verbose     each diagnostic followed by its code's hint
  --out FILE    write the output to FILE, only on success (see the main --help)
  -h, --help    show this help

Exit status: 0 formatted (or all canonical with --check), 1 some FILE not canonical
(--check), 2 unreadable input, a syntax error (FILE:LINE:COL: message) or bad usage;
with --check and --write every FILE is still handled, and the highest status wins.

Examples:
  kube-dns-to-coredns fmt Corefile > Corefile.new
  kubectl -n kube-system get configmap coredns -o yaml | kube-dns-to-coredns fmt
  kube-dns-to-coredns fmt --check deploy/*/Corefile   # in CI: lists the files to format
  kube-dns-to-coredns fmt --write deploy/coredns-configmap.yaml
  kubectl -n kube-system get configmap coredns -o yaml | kube-dns-to-coredns fmt -o configmap
`;

const options = { check: flag(), write: flag() } as const;

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
  outputs: { kinds: ['corefile', 'configmap'] },
  misplaced: [
    { with: 'check', options: ['write', 'output'], message: (option) => (option === 'write' ? 'fmt: --check and --write do not go together: --check only lists the files --write would rewrite' : 'fmt: -o does not go with --check') },
    {
      with: 'write',
      options: ['output', 'out'],
      message: (option) =>
        option === 'out'
          ? 'fmt: --out does not go with --write, which rewrites each FILE in place (use --out without --write to write the result elsewhere)'
          : 'fmt: -o does not go with --write, which writes each FILE back as it came in',
    },
  ],
  run: runFmt,
});

async function runFmt(context: CommandContext<typeof options, 'corefile' | 'configmap'>): Promise<number> {
  const { io, positionals, report } = context;
  const { check, write } = context.options;
  if (write) {
    if (positionals.length === 0) throw new UsageError('fmt: --write needs a FILE to rewrite');
    if (positionals.includes('-')) throw new UsageError("fmt: --write rewrites files; standard input ('-') cannot be written back (leave out --write to print the result)");
    return writeFiles(positionals, context);
  }
  if (positionals.length > 1 && !check) {
    throw new UsageError(`fmt: formatting prints one Corefile, got ${positionals.length} FILEs; give one FILE, or --check to check several`);
  }
  if (positionals.filter((file) => file === '-').length > 1) throw new UsageError("fmt: standard input ('-') can be read only once");
  const files = positionals.length === 0 ? [undefined] : positionals;
  if (check) return checkFiles(files, io);
  const source = await readCorefileSource(files[0], io);
  const result = format(source);
  reportWarnings(source, result.warnings, report);
  if (context.output === 'configmap') {
    const written = await source.writeBack(result.text);
    report.diagnostics(written.diagnostics);
    io.stdout.write(written.text);
  } else {
    io.stdout.write(result.text);
  }
  return ExitCode.ok;
}

/** `--write`: each FILE that is not canonical replaced by its formatted form, as it came in; the worst status of all. */
async function writeFiles(files: readonly string[], context: CommandContext<typeof options, 'corefile' | 'configmap'>): Promise<number> {
  const { io, report } = context;
  let status: number = ExitCode.ok;
  for (const file of files) {
    try {
      const source = await readCorefileSource(file, io);
      const result = format(source);
      reportWarnings(source, result.warnings, report);
      if (result.unchanged) continue;
      let text = result.text;
      if (source.isConfigMap) {
        const written = await source.writeBack(result.text);
        report.diagnostics(written.diagnostics.map((entry) => ({ ...entry, message: `${source.name}: ${entry.message}` })));
        text = written.text;
      }
      try {
        await io.writeOutputFile(file, text);
      } catch (error) {
        // The message names FILE as given, never a temporary file or a link's target.
        throw new UsageError(`${file}: cannot write: ${error instanceof Error ? error.message : String(error)}`);
      }
    } catch (error) {
      if (!isInputFailure(error)) throw error;
      status = Math.max(status, reportFailure(error, io));
    }
  }
  return status;
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

/**
 * The parser's warnings, `FILE:LINE:COL: warning: …` on stderr: at most {@link LISTED_PER_CODE}
 * of one kind, the rest counted in one line per kind, last (as every command lists its
 * diagnostics). A 12 MB Corefile nested two million levels deep on one line wrote a warning per
 * level, 231 MB of text.
 */
function reportWarnings(source: CorefileSourceText, warnings: readonly CorefileWarning[], report: CommandContext<typeof options, 'corefile' | 'configmap'>['report']): void {
  const counts = new Map<string, number>();
  for (const warning of warnings) {
    const count = (counts.get(warning.code) ?? 0) + 1;
    counts.set(warning.code, count);
    if (count <= LISTED_PER_CODE) report.warningLine(source.locate(warning.position, `warning: ${warning.reason}`));
  }
  for (const [code, count] of counts) {
    if (count <= LISTED_PER_CODE) continue;
    const more = (count - LISTED_PER_CODE).toLocaleString('en');
    report.warningLine(`${source.name}: warning: ${more} more ${code} warnings are not listed (${count.toLocaleString('en')} in all; the first ${LISTED_PER_CODE.toLocaleString('en')} are)`);
  }
}

/** The formatted text; a syntax error (or a print refusal, naming the node) is reported against FILE. */
function format(source: CorefileSourceText): FormatResult {
  return usingCorefile(source, (corefile) => formatCorefile(corefile, { filename: source.name }));
}
