import { parseCoreDnsVersion } from '../../coredns/versions.js';
import { formatCutoverJson, formatCutoverScript, formatCutoverText, planCutover } from '../../install/cutover.js';
import { kubeDnsRules } from '../../kubedns/kube-dns-versions.js';
import { optionValue } from '../errors.js';
import type { CliIo } from '../io.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { ExitCode, UsageError } from '../usage-error.js';
import { writeDiagnostics } from '../write-diagnostics.js';
import { readKubeDnsInstallInput } from './install-input.js';

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
  --cluster-domain DOMAIN    the cluster domain, when INSTALL has no Deployment
  --cluster-dns-ip IP        the cluster DNS IP, when INSTALL has no Service
  --drop-federations, --force, --kube-dns-version V, --name NAME   as for the translation
  -h, --help                 show this help

Exit status: 0 plan written, 1 no plan (translation refused, lint errors, or kube-dns and
CoreDNS would route a name differently: the differences are printed), 2 bad usage or
unreadable input.
`;

const OUTPUTS = ['text', 'json', 'script'] as const;

/** `kube-dns-to-coredns cutover`: see {@link CUTOVER_HELP}. */
export async function runCutover(args: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('cutover', args, {
    allowPositionals: true,
    options: {
      coredns: { type: 'string' },
      output: { type: 'string', short: 'o' },
      image: { type: 'string' },
      'cluster-domain': { type: 'string' },
      'cluster-dns-ip': { type: 'string' },
      'drop-federations': { type: 'boolean' },
      force: { type: 'boolean' },
      'kube-dns-version': { type: 'string' },
      name: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    io.stdout.write(CUTOVER_HELP);
    return ExitCode.ok;
  }
  if (values.coredns === undefined) throw new UsageError("cutover: --coredns VERSION is required (the release to switch to); see 'cutover --help'");
  if (positionals.length !== 1) throw new UsageError(`cutover: expected one INSTALL file, got ${positionals.length}; see 'cutover --help'`);
  const output = values.output ?? 'text';
  if (!(OUTPUTS as readonly string[]).includes(output)) throw new UsageError(`cutover: --output must be one of ${OUTPUTS.join(', ')}, not '${output}'`);
  const coredns = optionValue('cutover', '--coredns', values.coredns, parseCoreDnsVersion);
  const kubeDnsVersion = values['kube-dns-version'] === undefined ? undefined : optionValue('cutover', '--kube-dns-version', values['kube-dns-version'], (value) => kubeDnsRules(value).version);
  const file = positionals[0] as string;
  const install = await readKubeDnsInstallInput(file, {}, values.name, io);
  const plan = planCutover(install, {
    coredns,
    kubeDnsFile: file === '-' ? 'kube-dns.yaml' : file,
    ...(values.image === undefined ? {} : { image: values.image }),
    ...(values['cluster-domain'] === undefined ? {} : { clusterDomain: values['cluster-domain'] }),
    ...(values['cluster-dns-ip'] === undefined ? {} : { clusterDnsIp: values['cluster-dns-ip'] }),
    ...(kubeDnsVersion === undefined ? {} : { kubeDnsVersion }),
    dropFederations: values['drop-federations'] === true,
    force: values.force === true,
  });
  if (output === 'json') {
    io.stdout.write(formatCutoverJson(plan));
    return plan.ok ? ExitCode.ok : ExitCode.failed;
  }
  writeDiagnostics(plan, io);
  if (!plan.ok) {
    io.stderr.write(`cutover: no plan: ${plan.refusal}\n`);
    return ExitCode.failed;
  }
  io.stdout.write(output === 'script' ? formatCutoverScript(plan) : formatCutoverText(plan));
  return ExitCode.ok;
}
