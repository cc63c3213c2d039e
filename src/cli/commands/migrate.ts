import { FEDERATION_REMOVED_IN, KUBERNETES_TRANSFER_MOVED_IN, PROXY_DEPRECATED_IN, SEVERAL_FORWARDS_PER_BLOCK_FROM } from '../../coredns/migration-facts.js';
import { resolveCoreDnsRelease } from '../../coredns/resolve-release.js';
import { formatDiagnostic } from '../../diagnostics/diagnostic.js';
import { isKubeadmDefaultCorefileFor } from '../../kubeadm/cluster-decisions.js';
import { kubeadmProfileFor } from '../../kubeadm/kubernetes-version.js';
import { migrateCorefile } from '../../migrate/migrate.js';
import { migrationNotice } from '../../migrate/notices.js';
import type { MigrationResult } from '../../migrate/migrate.js';
import { printable } from '../../util/printable-text.js';
import { readCorefileSource } from '../corefile-source.js';
import { optionValue, usingCorefile } from '../errors.js';
import type { CliIo } from '../io.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { ExitCode, UsageError } from '../usage-error.js';
import { writePrettyJson } from '../../util/pretty-json.js';

export const MIGRATE_HELP = `Usage: kube-dns-to-coredns migrate --from VERSION --to VERSION [options] [FILE|-]
       kube-dns-to-coredns migrate --kubeadm-default-for KUBERNETES [FILE|-]

Rewrite a CoreDNS Corefile written for one CoreDNS release for another, up or down:
proxy becomes forward (options mapped), stub forwards get server blocks of their own
before ${SEVERAL_FORWARDS_PER_BLOCK_FROM}, kubernetes options CoreDNS dropped are removed, the kubernetes transfer
option becomes the transfer plugin (${KUBERNETES_TRANSFER_MOVED_IN}), and the defaults corefile-migration and
kubeadm add on an upgrade are added (loop, ready, health lameduck 5s, forward
max_concurrent 1000). Only the lines that must change are touched: comments, blank
lines and layout stay as written. See docs/migrate.md.

VERSION is what you run: 1.6.7, v1.6.7, 1.6.7-eksbuild.1, v1.6.2-100 or an image
(registry.k8s.io/coredns/coredns:v1.8.0); a release newer than the newest known is
read as the newest known, with a warning. FILE is a Corefile, or a CoreDNS ConfigMap
(YAML or JSON) whose 'Corefile' entry is migrated; the Corefile is printed. Without
FILE, or with '-', standard input is read.

Options:
  --from VERSION          the release the Corefile is written for
  --to VERSION            the release to migrate to
  --deprecations          also replace what is only deprecated in the target release
                          (proxy from ${PROXY_DEPRECATED_IN}, kubernetes upstream, resyncperiod, endpoint)
  --drop-federations      remove federation for releases without it (${FEDERATION_REMOVED_IN}+) instead of
                          refusing
  --no-new-defaults       do not add loop, ready, lameduck 5s, max_concurrent 1000
  --check                 print nothing but the notices; exit 1 when the Corefile would
                          change (like fmt --check)
  --kubeadm-default-for KUBERNETES
                          say whether FILE is the default Corefile kubeadm of that
                          Kubernetes release (1.10 to 1.20) installed: kubeadm replaces a
                          default Corefile on upgrade and migrates a customised one
                          (takes -o, none of the options above)
  -o, --output FORMAT     text (default: the Corefile on stdout, notices on stderr) or json:
                          {file, from, to, ok, changed, corefile, notices}
  -h, --help              show this help

Notices: one per finding, 'SEVERITY CODE Corefile:LINE:COL PLUGIN[ > OPTION]: message'
on stderr (codes in docs/diagnostics.md).

Exit status: 0 migrated (warnings and infos allowed); 1 a notice is an error (nothing
is printed or written), with --check also when the Corefile would change, with
--kubeadm-default-for when FILE is not that default; 2 bad usage, an unknown release,
unreadable input or a syntax error.

Examples:
  kube-dns-to-coredns migrate --from 1.6.7 --to 1.8.0 Corefile > Corefile.new
  kubectl -n kube-system get configmap coredns -o yaml | kube-dns-to-coredns migrate --from v1.7.0 --to 1.11.3
  kube-dns-to-coredns migrate --from 1.6.7-eksbuild.1 --to 1.8.4 --check Corefile
  kube-dns-to-coredns migrate --kubeadm-default-for 1.18 Corefile
`;

const OUTPUT_FORMATS = ['text', 'json'] as const;
type OutputFormat = (typeof OUTPUT_FORMATS)[number];

interface MigrateArgs {
  readonly help: boolean;
  readonly from: string | undefined;
  readonly to: string | undefined;
  readonly deprecations: boolean;
  readonly dropFederations: boolean;
  readonly newDefaults: boolean;
  readonly check: boolean;
  readonly kubeadmDefaultFor: string | undefined;
  readonly output: OutputFormat;
  readonly file: string | undefined;
}

/**
 * `kube-dns-to-coredns migrate`: see {@link MIGRATE_HELP}. The Corefile goes to stdout, notices
 * to stderr (both in one JSON document with `-o json`); usage errors, unknown releases,
 * unreadable input and syntax errors are thrown for `main` to report (exit 2).
 */
export async function runMigrate(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseMigrateArgs(args);
  if (parsed.help) {
    io.stdout.write(MIGRATE_HELP);
    return ExitCode.ok;
  }
  const source = await readCorefileSource(parsed.file, io);
  if (parsed.kubeadmDefaultFor !== undefined) {
    const kubernetes = parsed.kubeadmDefaultFor;
    const isDefault = isKubeadmDefaultCorefileFor(source.corefile, kubernetes);
    if (parsed.output === 'json') {
      io.stdout.write(`${JSON.stringify({ file: source.name, kubernetes, kubeadmDefault: isDefault }, null, 2)}\n`);
    } else {
      io.stdout.write(`${printable(source.name)}: ${isDefault ? 'is' : 'is not'} the default Corefile of kubeadm ${kubernetes}${isDefault ? ' (kubeadm replaces it on upgrade)' : ' (kubeadm migrates it on upgrade)'}\n`);
    }
    return isDefault ? ExitCode.ok : ExitCode.failed;
  }
  const { from, to } = parsed;
  if (from === undefined || to === undefined) throw new UsageError('migrate: --from VERSION and --to VERSION are required (or --kubeadm-default-for KUBERNETES)');
  const result = usingCorefile(source, (corefile) =>
    migrateCorefile(corefile, {
      from,
      to,
      deprecations: parsed.deprecations,
      dropFederations: parsed.dropFederations,
      newDefaults: parsed.newDefaults,
      filename: source.name,
    }),
  );
  // A ConfigMap's other data keys (AKS's *.server, k3s's NodeHosts) are not migrated: said, not skipped silently.
  const keyNotices = (source.otherKeys ?? []).map((key) =>
    migrationNotice('migrate-configmap-key-not-migrated', {
      action: 'kept',
      message: `data key '${key}' of the ConfigMap is not migrated: only 'Corefile' is read${/\.(?:server|override)$/.test(key) ? '; if it holds Corefile text (imported as a file), migrate it on its own' : ''}`,
    }),
  );
  const notices = [...result.notices.filter((notice) => notice.position === undefined), ...keyNotices, ...result.notices.filter((notice) => notice.position !== undefined)];
  if (parsed.output === 'json') {
    const { ok, changed } = result;
    // Written in chunks: a 16 MiB Corefile with a notice per line makes more JSON than one string holds.
    writePrettyJson({ file: source.name, from: result.from, to: result.to, ok, changed, ...(parsed.check || !ok ? {} : { corefile: result.corefile }), notices }, (chunk) => io.stdout.write(chunk));
    io.stdout.write('\n');
  } else {
    for (const notice of notices) io.stderr.write(`${formatDiagnostic(notice)}\n`);
    if (parsed.check) {
      if (result.changed) io.stdout.write(`${printable(source.name)}\n`);
    } else if (result.ok) {
      io.stdout.write(result.corefile);
    }
    io.stderr.write(`${printable(source.name)}: ${summary(result)}\n`);
  }
  if (!result.ok) return ExitCode.failed;
  return parsed.check && result.changed ? ExitCode.failed : ExitCode.ok;
}

function summary(result: MigrationResult): string {
  const route = `CoreDNS ${result.from.version} → ${result.to.version}`;
  if (!result.ok) return `${route}: refused (${result.notices.filter((notice) => notice.severity === 'error').length} error notices); nothing written`;
  return `${route}: ${result.changed ? 'migrated' : 'unchanged'}`;
}

/** `text` when it resolves to a known release; else the resolver's error. */
function knownRelease(text: string): string {
  const resolved = resolveCoreDnsRelease(text);
  if (!resolved.ok) throw resolved.error;
  return text;
}

function parseMigrateArgs(args: readonly string[]): MigrateArgs {
  const parsed = parseCommandArgs('migrate', args, {
    allowPositionals: true,
    options: {
      from: { type: 'string' },
      to: { type: 'string' },
      deprecations: { type: 'boolean', default: false },
      'drop-federations': { type: 'boolean', default: false },
      'no-new-defaults': { type: 'boolean', default: false },
      check: { type: 'boolean', default: false },
      'kubeadm-default-for': { type: 'string' },
      output: { type: 'string', short: 'o', default: 'text' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const { positionals, values } = parsed;
  if (positionals.length > 1) throw new UsageError(`migrate: expected at most one FILE, got ${positionals.length}: ${positionals.join(' ')}`);
  const output = OUTPUT_FORMATS.find((format) => format === values.output);
  if (output === undefined) throw new UsageError(`migrate: --output must be one of ${OUTPUT_FORMATS.join(', ')}, not '${values.output}'`);
  const kubeadmDefaultFor = values['kubeadm-default-for'];
  if (kubeadmDefaultFor !== undefined) {
    optionValue('migrate', '--kubeadm-default-for', kubeadmDefaultFor, kubeadmProfileFor);
    const migrationOptions = [
      ['--from', values.from !== undefined],
      ['--to', values.to !== undefined],
      ['--deprecations', values.deprecations],
      ['--drop-federations', values['drop-federations']],
      ['--no-new-defaults', values['no-new-defaults']],
      ['--check', values.check],
    ] as const;
    const ignored = migrationOptions.filter(([, given]) => given).map(([name]) => name);
    if (ignored.length > 0) throw new UsageError(`migrate: --kubeadm-default-for takes none of the migration's options (${ignored.join(', ')}): it only says whether FILE is kubeadm's default`);
  }
  return {
    help: values.help,
    from: values.from === undefined ? undefined : optionValue('migrate', '--from', values.from, knownRelease),
    to: values.to === undefined ? undefined : optionValue('migrate', '--to', values.to, knownRelease),
    deprecations: values.deprecations,
    dropFederations: values['drop-federations'],
    newDefaults: !values['no-new-defaults'],
    check: values.check,
    kubeadmDefaultFor,
    output,
    file: positionals[0],
  };
}
