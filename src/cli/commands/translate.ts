import { parseArgs } from 'node:util';
import { ConfigMapInputError, readConfigMap } from '../../configmap/read-configmap.js';
import { isDns1123Subdomain } from '../../kubedns/go-net.js';
import { KUBEADM_DEFAULT_DNS_DOMAIN, translateLikeKubeadm } from '../../kubeadm/kubeadm-translation.js';
import type { KubeadmOutcome } from '../../kubeadm/kubeadm-translation.js';
import { kubeadmProfileFor, UnsupportedKubernetesVersionError } from '../../kubeadm/kubernetes-version.js';
import type { KubeadmProfile } from '../../kubeadm/profiles.js';
import { runKubeadmBatch } from '../batch.js';
import type { CliIo } from '../io.js';
import { MAIN_HELP } from '../help.js';
import { readSource } from '../read-source.js';
import { ExitCode, UsageError } from '../usage-error.js';

const KUBE_DNS_CONFIGMAP = 'kube-dns';

/** `kube-dns-to-coredns [options] [FILE|-]`: the translation itself. */
export async function runTranslate(args: readonly string[], io: CliIo): Promise<number> {
  const options = parseTranslateArgs(args);
  if (options.help) {
    io.stdout.write(MAIN_HELP);
    return ExitCode.ok;
  }
  if (options.kubeadm === undefined) {
    throw new UsageError('--kubeadm VERSION is required for now (the default translator is not available yet); see --help');
  }
  const profile = profileFor(options.kubeadm);
  if (options.batch) return runKubeadmBatch(profile, options.file, io);

  const dnsDomain = options.dnsDomain ?? KUBEADM_DEFAULT_DNS_DOMAIN;
  if (!isDns1123Subdomain(dnsDomain)) {
    throw new UsageError(`--dns-domain '${dnsDomain}' is not a DNS-1123 subdomain (kubeadm refused such a networking.dnsDomain before translating)`);
  }
  const source = await readSource(options.file, io);
  let data;
  try {
    data = readConfigMap(source.text, { filename: source.name, preferredNames: [KUBE_DNS_CONFIGMAP], ...(options.name === undefined ? {} : { name: options.name }) }).data;
  } catch (error) {
    if (error instanceof ConfigMapInputError) throw new UsageError(error.message);
    throw error;
  }
  return reportKubeadmOutcome(profile, translateLikeKubeadm(profile, data, dnsDomain), io);
}

function reportKubeadmOutcome(profile: KubeadmProfile, outcome: KubeadmOutcome, io: CliIo): number {
  for (const warning of outcome.warnings) io.stderr.write(`warning: kubeadm ${profile.id}: ${warning}\n`);
  if (outcome.ok) {
    io.stdout.write(outcome.corefile);
    return ExitCode.ok;
  }
  io.stderr.write(`error: kubeadm ${profile.id} fails (${outcome.stage} stage): ${outcome.error}\n`);
  return ExitCode.failed;
}

interface TranslateOptions {
  readonly kubeadm: string | undefined;
  readonly dnsDomain: string | undefined;
  readonly name: string | undefined;
  readonly batch: boolean;
  readonly help: boolean;
  readonly file: string | undefined;
}

function parseTranslateArgs(args: readonly string[]): TranslateOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: {
        kubeadm: { type: 'string' },
        'dns-domain': { type: 'string' },
        name: { type: 'string' },
        batch: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}; see --help`);
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) throw new UsageError(`expected at most one FILE, got ${positionals.length}: ${positionals.join(' ')}`);
  return {
    kubeadm: values.kubeadm,
    dnsDomain: values['dns-domain'],
    name: values.name,
    batch: values.batch,
    help: values.help,
    file: positionals[0],
  };
}

function profileFor(version: string): KubeadmProfile {
  try {
    return kubeadmProfileFor(version);
  } catch (error) {
    if (error instanceof UnsupportedKubernetesVersionError) throw new UsageError(error.message);
    throw error;
  }
}
