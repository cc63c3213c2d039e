import { resolve } from 'node:path';
import { formatCutoverJson, formatCutoverScript, formatCutoverText, planCutover } from '../../install/cutover.js';
import { defineCommand } from '../command.js';
import type { CommandContext } from '../command.js';
import { readKubeDnsInstallInput } from '../input/install.js';
import { readCorefileSource } from '../corefile-source.js';
import { checkImageOption } from '../image-option.js';
import { MERGE_FINDINGS, placeCorefileFindings } from '../merge-findings.js';
import { usingCorefile } from '../errors.js';
import { clusterDomain, flag, ipAddress, kubeDnsVersion, release, text } from '../options.js';
import { ExitCode, UsageError } from '../usage-error.js';

export const CUTOVER_HELP = `Usage: kube-dns-to-coredns cutover --coredns VERSION [options] INSTALL [-o text|json|script]

The switch from kube-dns to CoreDNS as ordered steps, each with its exact kubectl commands and
what to wait for: pre-flight (lint for the target and the routing check; while kube-dns and
CoreDNS pods are endpoints of the same Service either answers, so the plan stops when they
would route a name differently), apply RBAC, ConfigMap and Deployment (CoreDNS pods join the
kube-dns Service as they become Ready), wait for the rollout, the Service, the live check
(verify), scale kube-dns to 0 keeping its objects, what to delete later; and the rollback:
the kube-dns objects exactly as INSTALL holds them, kube-dns back and Ready before CoreDNS is
scaled down. INSTALL is what 'kubectl -n kube-system get deploy/kube-dns svc/kube-dns cm/kube-dns
-o yaml' prints ('-' reads standard input).

  --coredns VERSION          the CoreDNS release to switch to (required)
  -o, --output FORMAT        text (default), json (the steps in order, each with its
                             commands; the rollback; the files), or script (a shell script
                             with set -eu, the files as here-documents and the waits)
  --image REF                the CoreDNS image to run (an air-gapped mirror)
  --merge FILE               merge the translation into FILE (a Corefile, or a CoreDNS
                             ConfigMap holding only Corefile), as -o install --merge does;
                             the merged Corefile is linted and checked
  --cluster-domain DOMAIN    the cluster domain, when INSTALL has no Deployment
  --cluster-dns-ip IP        the cluster DNS IP, when INSTALL has no Service
  --drop-federations, --force, --kube-dns-version V, --name NAME   as for the translation
  -q, --quiet                warnings and errors only: no notes
  --verbose                  each diagnostic followed by its code's hint
  --out FILE                 write the output to FILE, only on success (see the main --help)
  -h, --help                 show this help

Exit status: 0 plan written, 1 no plan (translation refused, lint errors, or kube-dns and
CoreDNS would route a name differently: the differences are printed), 2 bad usage or
unreadable input.
`;

const options = {
  coredns: release(),
  image: text(),
  merge: text(),
  'cluster-domain': clusterDomain(),
  'cluster-dns-ip': ipAddress(),
  'drop-federations': flag(),
  force: flag(),
  'kube-dns-version': kubeDnsVersion(),
  name: text(),
} as const;

/** `kube-dns-to-coredns cutover`: see {@link CUTOVER_HELP}. */
export const cutoverCommand = defineCommand({
  name: 'cutover',
  help: CUTOVER_HELP,
  options,
  positionals: { name: 'INSTALL', min: 1, max: 1 },
  outputs: { kinds: ['text', 'json', 'script'] },
  run: runCutover,
});

async function runCutover(context: CommandContext<typeof options, 'text' | 'json' | 'script'>): Promise<number> {
  const { io, options: values, report } = context;
  const coredns = values.coredns;
  if (coredns === undefined) throw new UsageError("cutover: --coredns VERSION is required (the release to switch to); see 'cutover --help'");
  await checkImageOption('cutover', values.image);
  const file = context.positionals[0] as string;
  if (values.merge !== undefined && values.merge === file) throw new UsageError('--merge FILE and INSTALL must be different files');
  const existing = values.merge === undefined ? undefined : await readCorefileSource(values.merge, io);
  if (existing?.otherKeys !== undefined && existing.otherKeys.length > 0) {
    throw new UsageError(`cutover --merge ${existing.name}: the install's ConfigMap holds only the Corefile, and this ConfigMap has other keys (${existing.otherKeys.join(', ')}) its Corefile may import`);
  }
  const install = await readKubeDnsInstallInput(file, {}, values.name, io);
  const build = () =>
    planCutover(install, {
    ...(existing === undefined ? {} : { merge: existing.corefile, mergeFilename: existing.name }),
    coredns,
    // Named only when INSTALL holds no object to write into the rollback file (check and verify read that file otherwise).
    kubeDnsFile: file === '-' ? 'kube-dns.yaml' : resolve(file),
    ...(values.image === undefined ? {} : { image: values.image }),
    ...(values['cluster-domain'] === undefined ? {} : { clusterDomain: values['cluster-domain'] }),
    ...(values['cluster-dns-ip'] === undefined ? {} : { clusterDnsIp: values['cluster-dns-ip'] }),
    ...(values['kube-dns-version'] === undefined ? {} : { kubeDnsVersion: values['kube-dns-version'] }),
    dropFederations: values['drop-federations'],
    force: values.force,
  });
  const built = existing === undefined ? build() : usingCorefile(existing, build);
  const plan: typeof built = existing === undefined ? built : { ...built, diagnostics: placeCorefileFindings(existing, built.diagnostics, MERGE_FINDINGS) };
  if (context.output === 'json') {
    io.stdout.write(formatCutoverJson(plan));
    return plan.ok ? ExitCode.ok : ExitCode.failed;
  }
  report.diagnostics(plan.diagnostics);
  if (!plan.ok) {
    io.stderr.write(`cutover: no plan: ${plan.refusal}\n`);
    return ExitCode.failed;
  }
  io.stdout.write(context.output === 'script' ? formatCutoverScript(plan) : formatCutoverText(plan));
  return ExitCode.ok;
}
