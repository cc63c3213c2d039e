import { loadablePlugins, parsePluginCfg } from '../../coredns/plugin-cfg.js';
import { NEWEST_COREDNS_VERSION } from '../../coredns/versions.js';
import { diagnostic, hasErrors } from '../../diagnostics/diagnostic.js';
import { lintCorefile } from '../../lint/lint.js';
import type { LintResult } from '../../lint/lint.js';
import { printable } from '../../util/printable-text.js';
import { SEVERAL_FORWARDS_PER_BLOCK_FROM } from '../../coredns/migration-facts.js';
import { defineCommand } from '../command.js';
import type { CommandContext } from '../command.js';
import { readCorefileSource } from '../corefile-source.js';
import { usingCorefile } from '../errors.js';
import type { CliIo } from '../io.js';
import { clusterDomain, flag, release, text } from '../options.js';
import { OVERLAY_OPTIONS, overlayArgs } from '../overlay-options.js';
import type { OverlayArgs } from '../overlay-options.js';
import { INPUT_LIMITS, isStdin, readSource } from '../read-source.js';
import { ExitCode, UsageError } from '../usage-error.js';

export const LINT_HELP = `Usage: kube-dns-to-coredns lint [--coredns VERSION] [--plugin-cfg FILE | --plugins LIST] [-o text|json] [FILE|-]
       kube-dns-to-coredns lint --batch [--coredns VERSION] [--plugin-cfg FILE | --plugins LIST] [FILE|-]
       kube-dns-to-coredns lint --platform aks|k3s|k3s-legacy | --base FILE [--cluster-domain DOMAIN]
                                [--coredns VERSION] [-o text|json] [--coredns-custom] CUSTOM

Check a CoreDNS Corefile against a CoreDNS release: plugins and options that release
does not have (yet or any more), forward destinations it cannot use, more than 15
destinations, two forwards in one block before ${SEVERAL_FORWARDS_PER_BLOCK_FROM}, zones served twice, upper-case
zones, blocks that capture the kubernetes plugin's zones or sit on another port than
the root block, loops, and more (see docs/lint.md).

FILE is a Corefile, a CoreDNS ConfigMap (YAML or JSON, as kubectl prints it) whose
'Corefile' entry is checked, the EKS CoreDNS add-on's configurationValues (its 'corefile';
the add-on's schema and probes are checked too), or the CoreDNS Helm chart's values (the
Corefile the chart renders, its traps as findings). Without FILE, or with '-', standard
input is read.

Findings go to stdout, one per line:
  SEVERITY CODE Corefile:LINE:COL [BLOCK] DIRECTIVE: message
LINE and COL count in the Corefile text (for a ConfigMap, in its 'Corefile' entry).
A summary goes to stderr.

Options:
  --coredns VERSION    the CoreDNS release to check against (default ${NEWEST_COREDNS_VERSION})
  --plugin-cfg FILE    check against a custom build of that release: the plugin.cfg it was
                       built from (NAME:PACKAGE lines, # comments); default: the release's own
  --plugins LIST       the same, as comma-separated directive names (e.g. errors,forward,alias)
  --platform P         lint a coredns-custom ConfigMap (CUSTOM) as it composes with the
                       base Corefile of platform P: aks, k3s, or k3s-legacy (k3s before
                       k3s-io/k3s#12980, which imported *.override after forward .)
  --base FILE          the same with the base Corefile the cluster really runs (a Corefile
                       or the coredns ConfigMap)
  --coredns-custom CUSTOM
                       the coredns-custom ConfigMap (or give it as FILE); findings in it
                       are located as coredns-custom[KEY]:LINE:COL (see docs/platforms.md)
  --cluster-domain DOMAIN
                       the cluster domain filled into the platform's base (cluster.local)
  -o, --output FORMAT  text (default) or json: {file, coredns, ok, diagnostics}
  --batch              FILE (or standard input) holds one Corefile per line, as JSON:
                       {"id", "corefile", "coredns"} and optionally "plugins" (a list of
                       directive names; the options above are the defaults of lines without
                       them); one JSON result line per input line, in order: {id, coredns,
                       ok, diagnostics} or {id, ok: false, stage, error}; a summary on
                       stderr; exit 0
  -q, --quiet          warnings and errors only: no infos, notes or summaries
  --verbose            each diagnostic followed by its code's hint
  --out FILE           write the output to FILE, only on success (see the main --help)
  -h, --help           show this help

Exit status: 0 no errors (warnings and infos allowed), 1 at least one error,
2 bad usage, unreadable input or a syntax error (FILE:LINE:COL: message on stderr).

Examples:
  kube-dns-to-coredns lint Corefile
  kube-dns-to-coredns lint --coredns 1.6.7 Corefile   # before an upgrade: will 1.6.7 start?
  kube-dns-to-coredns lint --plugin-cfg plugin.cfg Corefile   # a build with external plugins
  kubectl -n kube-system get configmap coredns -o yaml | kube-dns-to-coredns lint --coredns 1.8.0
  kube-dns-to-coredns lint -o json Corefile | jq '.diagnostics[] | select(.severity == "error")'
  kubectl -n kube-system get configmap coredns-custom -o yaml | kube-dns-to-coredns lint --platform aks
`;

/** `--plugin-cfg FILE` or `--plugins LIST`: how the custom build's plugins are given. */
type PluginsArg = { readonly file: string } | { readonly list: readonly string[] } | undefined;

const options = {
  coredns: release(),
  'plugin-cfg': text(),
  plugins: text(),
  ...OVERLAY_OPTIONS,
  'cluster-domain': clusterDomain(),
  batch: flag(),
} as const;

/**
 * `kube-dns-to-coredns lint`: see {@link LINT_HELP}. Findings go to stdout (they are the command's
 * output), the summary to stderr; usage errors, unreadable input and syntax errors are thrown for
 * `main` to report (syntax errors as `FILE:LINE:COL: message`, exit 2).
 */
export const lintCommand = defineCommand({
  name: 'lint',
  help: LINT_HELP,
  options,
  positionals: { name: 'FILE', max: 1 },
  outputs: { kinds: ['text', 'json'] },
  run: runLint,
});

async function runLint(context: CommandContext<typeof options, 'text' | 'json'>): Promise<number> {
  const { io, options: values, report } = context;
  const plugins = await customBuildPlugins(pluginsArg(values['plugin-cfg'], values.plugins), io);
  if (values.batch) {
    const misplaced = ['output', 'platform', 'base', 'coredns-custom', 'cluster-domain'].find((option) => context.given.has(option));
    if (misplaced !== undefined) throw new UsageError(`lint: --batch writes one JSON result line per Corefile; it takes no --${misplaced}`);
    // Loaded only for a batch: a single lint does not pay for the batch loop.
    const { runLintBatch } = await import('../corefile-batch.js');
    return runLintBatch(context.positionals[0], io, { coredns: values.coredns ?? NEWEST_COREDNS_VERSION, plugins });
  }
  const overlay = overlayArgs('lint', values, values['cluster-domain']);
  if (overlay === undefined && values['cluster-domain'] !== undefined) throw new UsageError('lint: --cluster-domain fills in the base of --platform; without it, the Corefile says its own domain');
  if (overlay !== undefined) {
    if (overlay.custom !== undefined && context.positionals.length > 0) throw new UsageError('lint: give the coredns-custom ConfigMap as --coredns-custom CUSTOM or as FILE, not both');
    return lintOverlayFile(context, overlay, plugins);
  }
  const source = await readCorefileSource(context.positionals[0], io);
  // The files it imports are read next to FILE (loaded only for a Corefile with an import word).
  const imports = source.corefile.includes('import') ? await import('../corefile-imports.js') : undefined;
  const reader =
    imports === undefined
      ? undefined
      : isStdin(context.positionals[0])
        ? imports.importsNotReadable('standard input has no directory to read imports from: give the Corefile as FILE')
        : source.isConfigMap || source.notes !== undefined
          ? imports.importsNotReadable('the files it imports are in the CoreDNS pod, not next to FILE')
          : await imports.readImportsNextTo(source.corefile, source.name, io);
  const lintImports = reader === undefined ? undefined : await import('../../lint/lint-imports.js');
  const linted = usingCorefile(source, (corefile) => {
    const lintOptions = { coredns: values.coredns ?? NEWEST_COREDNS_VERSION, filename: source.name };
    const withPlugins = plugins === undefined ? lintOptions : { ...lintOptions, plugins };
    return lintImports === undefined || reader === undefined ? lintCorefile(corefile, withPlugins) : lintImports.lintCorefileWithImports(corefile, { ...withPlugins, imports: reader });
  });
  // A ConfigMap's other data keys (AKS's *.server, k3s's NodeHosts) are not linted: said, not skipped silently.
  const keyFindings = (source.otherKeys ?? []).map((key) =>
    diagnostic('configmap-key-not-checked', {
      key,
      message: `data key '${key}' of the ConfigMap was not linted: only 'Corefile' is read${/\.(?:server|override)$/.test(key) ? '; if it holds Corefile text (imported as a file), lint it on its own' : ''}`,
    }),
  );
  const notes = source.notes ?? [];
  const findings = source.locateFindings?.(linted.diagnostics) ?? linted.diagnostics;
  const result = { ...linted, ok: linted.ok && !hasErrors(notes), diagnostics: [...notes, ...keyFindings, ...findings] };
  if (context.output === 'json') {
    report.json({ file: source.name, coredns: result.coredns, ok: result.ok, diagnostics: result.diagnostics });
  } else {
    report.diagnostics(result.diagnostics, 'stdout');
    report.info(`${printable(source.name)}: ${summary(result)} (CoreDNS ${result.coredns})\n`);
  }
  return result.ok ? ExitCode.ok : ExitCode.failed;
}

/** `--platform P | --base FILE`: the coredns-custom ConfigMap linted as it composes with the base. */
async function lintOverlayFile(context: CommandContext<typeof options, 'text' | 'json'>, overlay: OverlayArgs, plugins: readonly string[] | undefined): Promise<number> {
  const { io, report } = context;
  // The overlay's readers and rules are loaded only with --platform or --base.
  const [{ readOverlaySource }, { lintOverlay }] = await Promise.all([import('../overlay-source.js'), import('../../platform/overlay-lint.js')]);
  const source = await readOverlaySource(overlay, overlay.custom ?? context.positionals[0], io);
  const result = lintOverlay(source.base, source.data, { coredns: context.options.coredns ?? NEWEST_COREDNS_VERSION, text: source.text, ...(plugins === undefined ? {} : { plugins }) });
  if (context.output === 'json') {
    report.json({ file: source.name, base: source.base.title, coredns: result.coredns, ok: result.ok, diagnostics: result.diagnostics });
  } else {
    report.diagnostics(result.diagnostics, 'stdout');
    report.info(`${printable(source.name)}: ${summary(result)} (CoreDNS ${result.coredns}, composed with the ${source.base.title} base)\n`);
  }
  return result.ok ? ExitCode.ok : ExitCode.failed;
}

/** The directive names of the custom build, read from `--plugin-cfg FILE` or `--plugins LIST`. */
async function customBuildPlugins(given: PluginsArg, io: CliIo): Promise<readonly string[] | undefined> {
  if (given === undefined) return undefined;
  if ('list' in given) return given.list;
  const { name, text } = await readSource(given.file, io, INPUT_LIMITS.corefile);
  const names = loadablePlugins(parsePluginCfg(text, name));
  if (names.length === 0) throw new UsageError(`lint: --plugin-cfg ${name} names no plugin`);
  return names;
}

function summary(result: Pick<LintResult, 'diagnostics'>): string {
  if (result.diagnostics.length === 0) return 'no findings';
  const count = (severity: string, word: string) => {
    const n = result.diagnostics.filter((entry) => entry.severity === severity).length;
    return `${n} ${word}${n === 1 ? '' : 's'}`;
  };
  return [count('error', 'error'), count('warning', 'warning'), count('info', 'info')].join(', ');
}

function pluginsArg(file: string | undefined, list: string | undefined): PluginsArg {
  if (file !== undefined && list !== undefined) throw new UsageError('lint: give --plugin-cfg or --plugins, not both');
  if (file !== undefined) {
    if (file === '' || file === '-') throw new UsageError('lint: --plugin-cfg needs a file (standard input is for the Corefile)');
    return { file };
  }
  if (list === undefined) return undefined;
  const names = list.split(',').map((name) => name.trim());
  const bad = names.find((name) => !/^[a-z0-9][a-z0-9_-]*$/i.test(name));
  if (bad !== undefined) throw new UsageError(`lint: --plugins takes comma-separated directive names; '${bad}' is not one`);
  return { list: names };
}
