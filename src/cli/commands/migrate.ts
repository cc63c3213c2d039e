import { FEDERATION_REMOVED_IN, KUBERNETES_TRANSFER_MOVED_IN, PROXY_DEPRECATED_IN, SEVERAL_FORWARDS_PER_BLOCK_FROM } from '../../coredns/migration-facts.js';
import { kubeadmProfileFor } from '../../kubeadm/kubernetes-version.js';
import { CONFIGMAP_LINE } from '../../configmap/configmap-line.js';
import { migrateCorefileText } from '../../migrate/migrate.js';
import type { MigrationResult } from '../../migrate/migrate.js';
import { migrationNotice } from '../../migrate/notices.js';
import { printable } from '../../util/printable-text.js';
import { defineCommand } from '../command.js';
import type { CommandContext } from '../command.js';
import { readCorefileSource } from '../corefile-source.js';
import { usingCorefile } from '../errors.js';
import { checkedText, flag, release } from '../options.js';
import { ExitCode, UsageError } from '../usage-error.js';

export const MIGRATE_HELP = `Usage: kube-dns-to-coredns migrate --from VERSION --to VERSION [options] [FILE|-]
       kube-dns-to-coredns migrate --batch [--from VERSION] [--to VERSION] [options] [FILE|-]
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
  --batch                 FILE (or standard input) holds one Corefile per line, as JSON:
                          {"id", "corefile", "from", "to"} and optionally "deprecations",
                          "dropFederations", "newDefaults" (the options above are the
                          defaults of lines without them); one JSON result line per input
                          line, in order: {id, ok, changed, from, to, corefile, notices} or
                          {id, ok: false, stage, error}; a summary on stderr; exit 0
  --check                 print nothing but the notices; exit 1 when the Corefile would
                          change (like fmt --check)
  --kubeadm-default-for KUBERNETES
                          say whether FILE is the default Corefile kubeadm of that
                          Kubernetes release (1.10 to 1.20) installed: kubeadm replaces a
                          default Corefile on upgrade and migrates a customised one
                          (takes -o, none of the options above)
  -o, --output FORMAT     corefile (default: the Corefile on stdout, notices on stderr),
                          json: {file, from, to, ok, changed, corefile, notices},
                          configmap: FILE's ConfigMap with the migrated Corefile, its
                          labels, annotations and other keys kept (a bare Corefile: the
                          kube-system/coredns ConfigMap), for kubectl apply -f -; or
                          eks-addon: the EKS add-on's configurationValues {"corefile": …}
  -q, --quiet             warnings and errors only: no infos, notes or summaries
  --verbose               each diagnostic followed by its code's hint
  --out FILE              write the output to FILE, only on success (see the main --help)
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
  kube-dns-to-coredns migrate --from 1.8.0 --to 1.14.7 -o configmap coredns.yaml | kubectl apply -f -
  kube-dns-to-coredns migrate --from 1.6.7-eksbuild.1 --to 1.8.4 --check Corefile
  kube-dns-to-coredns migrate --kubeadm-default-for 1.18 Corefile
`;

const options = {
  from: release(),
  to: release(),
  deprecations: flag(),
  'drop-federations': flag(),
  'no-new-defaults': flag(),
  check: flag(),
  'kubeadm-default-for': checkedText(kubeadmProfileFor),
  batch: flag(),
} as const;

/** The migration's own options, which `--kubeadm-default-for` does not take. */
const MIGRATION_OPTIONS = ['from', 'to', 'deprecations', 'drop-federations', 'no-new-defaults', 'check'] as const;

type MigrateContext = CommandContext<typeof options, 'corefile' | 'json' | 'configmap' | 'eks-addon'>;

/**
 * `kube-dns-to-coredns migrate`: see {@link MIGRATE_HELP}. The Corefile goes to stdout, notices
 * to stderr (both in one JSON document with `-o json`); usage errors, unknown releases,
 * unreadable input and syntax errors are thrown for `main` to report (exit 2).
 */
export const migrateCommand = defineCommand({
  name: 'migrate',
  help: MIGRATE_HELP,
  options,
  positionals: { name: 'FILE', max: 1 },
  // `text` was the name of the Corefile output before 0.2.
  outputs: { kinds: ['corefile', 'json', 'configmap', 'eks-addon'], aliases: { text: 'corefile' } },
  run: runMigrate,
});

async function runMigrate(context: MigrateContext): Promise<number> {
  const { io, options: values, report } = context;
  if (values.batch) {
    const misplaced = ['check', 'kubeadm-default-for', 'output'].find((option) => context.given.has(option));
    if (misplaced !== undefined) throw new UsageError(`migrate: --batch writes one JSON result line per Corefile; it takes no --${misplaced}`);
    // Loaded only for a batch: a single migration does not pay for the batch loop.
    const { runMigrateBatch } = await import('../corefile-batch.js');
    return runMigrateBatch(context.positionals[0], io, {
      from: values.from,
      to: values.to,
      deprecations: values.deprecations,
      dropFederations: values['drop-federations'],
      newDefaults: !values['no-new-defaults'],
    });
  }
  const kubernetes = values['kubeadm-default-for'];
  if (kubernetes !== undefined) {
    const ignored = MIGRATION_OPTIONS.filter((option) => context.given.has(option)).map((option) => `--${option}`);
    if (ignored.length > 0) throw new UsageError(`migrate: --kubeadm-default-for takes none of the migration's options (${ignored.join(', ')}): it only says whether FILE is kubeadm's default`);
  }
  if ((context.output === 'configmap' || context.output === 'eks-addon') && (kubernetes !== undefined || values.check)) {
    throw new UsageError(`migrate: -o ${context.output} writes the migrated Corefile, which ${values.check ? '--check' : '--kubeadm-default-for'} does not print; use -o corefile or json`);
  }
  const source = await readCorefileSource(context.positionals[0], io);
  if (kubernetes !== undefined) {
    const { isKubeadmDefaultCorefileFor } = await import('../../kubeadm/cluster-decisions.js');
    const isDefault = isKubeadmDefaultCorefileFor(source.corefile, kubernetes);
    if (context.output === 'json') {
      report.json({ file: source.name, kubernetes, kubeadmDefault: isDefault });
    } else {
      io.stdout.write(`${printable(source.name)}: ${isDefault ? 'is' : 'is not'} the default Corefile of kubeadm ${kubernetes}${isDefault ? ' (kubeadm replaces it on upgrade)' : ' (kubeadm migrates it on upgrade)'}\n`);
    }
    return isDefault ? ExitCode.ok : ExitCode.failed;
  }
  const { from, to } = values;
  if (from === undefined || to === undefined) throw new UsageError('migrate: --from VERSION and --to VERSION are required (or --kubeadm-default-for KUBERNETES)');
  // The library's migrateCorefile first refuses a ConfigMap given as the Corefile, which takes the
  // YAML reader; text without a line only a ConfigMap has is no ConfigMap, and needs none of it.
  const migrate = CONFIGMAP_LINE.test(source.corefile) ? (await import('../../migrate/migrate-corefile.js')).migrateCorefile : migrateCorefileText;
  const result = usingCorefile(source, (corefile) =>
    migrate(corefile, {
      from,
      to,
      deprecations: values.deprecations,
      dropFederations: values['drop-federations'],
      newDefaults: !values['no-new-defaults'],
      filename: source.name,
    }),
  );
  // A ConfigMap's other data keys (AKS's *.server, k3s's NodeHosts) are not migrated: said, not skipped silently.
  const keyNotices = (source.otherKeys ?? []).map((key) =>
    migrationNotice('migrate-configmap-key-not-migrated', {
      action: 'kept',
      message: `data key '${key}' of the ConfigMap is not migrated: only 'Corefile' is read${/\.(?:server|override)$/.test(key) ? '; if it holds Corefile text (imported as a file), migrate it on its own' : ''}${context.output === 'configmap' ? ' (written back unchanged)' : ''}`,
    }),
  );
  // -o configmap: FILE's ConfigMap written back, with a word on what the write-back leaves out.
  const configMap = context.output === 'configmap' && result.ok && !values.check ? await source.writeBack(result.corefile) : undefined;
  const placed = source.locateFindings?.(result.notices) ?? result.notices;
  const notices = [
    ...placed.filter((notice) => notice.position === undefined && notice.location === undefined),
    ...keyNotices,
    ...(source.notes ?? []).map((entry) => ({ ...entry, action: 'kept' as const })),
    ...(configMap?.diagnostics ?? []).map((entry) => ({ ...entry, action: 'kept' as const })),
    ...placed.filter((notice) => notice.position !== undefined || notice.location !== undefined),
  ];
  if (context.output === 'json') {
    const { ok, changed } = result;
    report.json({ file: source.name, from: result.from, to: result.to, ok, changed, ...(values.check || !ok ? {} : { corefile: result.corefile }), notices });
  } else {
    report.diagnostics(notices);
    if (values.check) {
      if (result.changed) io.stdout.write(`${printable(source.name)}\n`);
    } else if (result.ok) {
      // The EKS add-on's writer is loaded for -o eks-addon only.
      const text = context.output === 'eks-addon' ? (await import('../../platform/eks-addon.js')).renderEksAddonConfiguration(result.corefile) : configMap === undefined ? result.corefile : configMap.text;
      io.stdout.write(text);
    }
    report.info(`${printable(source.name)}: ${summary(result)}\n`);
  }
  if (!result.ok) return ExitCode.failed;
  return values.check && result.changed ? ExitCode.failed : ExitCode.ok;
}

function summary(result: MigrationResult): string {
  const route = `CoreDNS ${result.from.version} → ${result.to.version}`;
  const errors = result.notices.filter((notice) => notice.severity === 'error');
  if (!result.ok) {
    const start = errors.some((notice) => notice.code === 'migrate-target-refuses') ? `; the result would not start on CoreDNS ${result.to.version}` : '';
    return `${route}: refused (${errors.length} error notices${start}); nothing written`;
  }
  return `${route}: ${result.changed ? 'migrated' : 'unchanged'}`;
}
