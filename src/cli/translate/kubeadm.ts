import { isDns1123Subdomain } from '../../dns/go-net.js';
import { KUBEADM_DEFAULT_DNS_DOMAIN, translateLikeKubeadm } from '../../kubeadm/kubeadm-translation.js';
import type { KubeadmResult } from '../../kubeadm/kubeadm-translation.js';
import { kubeadmProfileFor } from '../../kubeadm/kubernetes-version.js';
import type { KubeadmProfile } from '../../kubeadm/profiles.js';
import type { BatchResultLine } from '../batch.js';
import { readKubeDnsInput } from '../input/kube-dns-configmap.js';
import type { CliIo } from '../io.js';
import { optionValue } from '../options.js';
import type { Reporter } from '../reporter.js';
import { ExitCode, UsageError } from '../usage-error.js';
import type { TranslateArguments } from './arguments.js';

/** `--kubeadm VERSION`: what kubeadm of that release stored, or its error (docs/cli.md). */
export async function runKubeadmMode(version: string, args: TranslateArguments, io: CliIo, reporter: Reporter): Promise<number> {
  const profile = optionValue('', '--kubeadm', version, kubeadmProfileFor);
  if (args.batch) return runKubeadmBatch(profile, args.file, io, reporter.level.quiet);
  const dnsDomain = args.clusterDomain ?? KUBEADM_DEFAULT_DNS_DOMAIN;
  if (!isDns1123Subdomain(dnsDomain)) {
    throw new UsageError(`--dns-domain '${dnsDomain}' is not a DNS-1123 subdomain (kubeadm refused such a networking.dnsDomain before translating)`);
  }
  const input = await readKubeDnsInput(args.file, args.name, io, 'kubeadm');
  // kubeadm read the ConfigMap's data only, so what the reader reports about the rest (binaryData)
  // does not change kubeadm's result: warnings here, whatever their weight for the default translator.
  reporter.diagnostics(input.diagnostics.map((entry) => (entry.severity === 'error' ? { ...entry, severity: 'warning' } : entry)));
  return reportKubeadmResult(profile, translateLikeKubeadm(profile, input.data, dnsDomain), io, reporter);
}

function reportKubeadmResult(profile: KubeadmProfile, outcome: KubeadmResult, io: CliIo, reporter: Reporter): number {
  for (const warning of outcome.warnings) reporter.warning(`kubeadm ${profile.id}: ${warning}`);
  if (outcome.ok) {
    for (const finding of outcome.unrequested) {
      reporter.warning(`${finding} (kubeadm ${profile.id} pasted the ConfigMap's values into its manifest unescaped; the Corefile is what it stored)`);
    }
    io.stdout.write(outcome.corefile);
    return ExitCode.ok;
  }
  reporter.error(`kubeadm ${profile.id} fails (${outcome.stage} stage): ${outcome.error}`);
  return ExitCode.failed;
}

/** `--kubeadm VERSION --batch`: kubeadm's outcome per case, in the reference corpus layout. */
async function runKubeadmBatch(profile: KubeadmProfile, file: string | undefined, io: CliIo, quiet: boolean): Promise<number> {
  const { inputError, runBatch } = await import('../batch.js');
  return runBatch(
    file,
    io,
    (batchCase, lineNumber) => {
      // kubeadm chose its CoreDNS itself: a case's release would not be read, so it is refused.
      if (batchCase.coredns !== undefined) return inputError(batchCase.id, `line ${lineNumber}: coredns: --kubeadm ${profile.id} reproduces what kubeadm stored, for the CoreDNS release it installed; a case's coredns would not be read (translate without --kubeadm to choose the release)`);
      const dnsDomain = batchCase.dnsDomain ?? batchCase.clusterDomain ?? KUBEADM_DEFAULT_DNS_DOMAIN;
      if (!isDns1123Subdomain(dnsDomain)) return inputError(batchCase.id, `line ${lineNumber}: dnsDomain '${dnsDomain}' is not a DNS-1123 subdomain`);
      return resultLine(batchCase.id, translateLikeKubeadm(profile, batchCase.data, dnsDomain));
    },
    undefined,
    { quiet },
  );
}

function resultLine(id: unknown, outcome: KubeadmResult): BatchResultLine {
  const warnings = outcome.warnings.length > 0 ? { warnings: outcome.warnings } : {};
  if (outcome.ok) {
    // Last, so that dropping it gives the reference corpus's line (docs/cli.md).
    const unrequested = outcome.unrequested.length > 0 ? { unrequested: outcome.unrequested } : {};
    return { id, ok: true, corefile: outcome.corefile, ...warnings, ...unrequested };
  }
  return { id, ok: false, stage: outcome.stage, error: outcome.error, ...warnings };
}
