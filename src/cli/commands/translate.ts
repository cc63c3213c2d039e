import { parseArgs } from 'node:util';
import { ConfigMapInputError, readConfigMap } from '../../configmap/read-configmap.js';
import type { ConfigMapData } from '../../configmap/read-configmap.js';
import { renderCoreDnsConfigMap } from '../../configmap/write-configmap.js';
import { formatDiagnostic } from '../../diagnostics/diagnostic.js';
import { isDns1123Subdomain } from '../../kubedns/go-net.js';
import { UnsupportedKubeDnsVersionError } from '../../kubedns/kube-dns-versions.js';
import { KUBEADM_DEFAULT_DNS_DOMAIN, translateLikeKubeadm } from '../../kubeadm/kubeadm-translation.js';
import type { KubeadmOutcome } from '../../kubeadm/kubeadm-translation.js';
import { kubeadmProfileFor, UnsupportedKubernetesVersionError } from '../../kubeadm/kubernetes-version.js';
import type { KubeadmProfile } from '../../kubeadm/profiles.js';
import { parseCoreDnsVersion, UnknownCoreDnsVersionError } from '../../translate/coredns-versions.js';
import { CorefileError } from '../../corefile/errors.js';
import { mergeTranslation } from '../../translate/merge.js';
import { TranslateOptionsError, translateKubeDns } from '../../translate/translate.js';
import type { TranslateOptions, Translation } from '../../translate/translate.js';
import { runKubeadmBatch, runTranslateBatch } from '../batch.js';
import { readCorefileSource } from '../corefile-source.js';
import type { CorefileSourceText } from '../corefile-source.js';
import { MAIN_HELP } from '../help.js';
import type { CliIo } from '../io.js';
import { readSource } from '../read-source.js';
import { ExitCode, UsageError } from '../usage-error.js';

const KUBE_DNS_CONFIGMAP = 'kube-dns';
const OUTPUT_FORMATS = ['corefile', 'configmap', 'json'] as const;
type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** Options of the default translator that `--kubeadm` does not take. */
const DEFAULT_MODE_ONLY = ['coredns', 'output', 'drop-federations', 'force', 'kube-dns-version', 'cluster-dns-ip', 'merge'] as const;

/** `kube-dns-to-coredns [options] [FILE|-]`: the translation itself. */
export async function runTranslate(args: readonly string[], io: CliIo): Promise<number> {
  const { values, file } = parseTranslateArgs(args);
  if (values.help) {
    io.stdout.write(MAIN_HELP);
    return ExitCode.ok;
  }
  const clusterDomain = values['cluster-domain'] ?? values['dns-domain'];
  if (values.kubeadm !== undefined) {
    const misplaced = DEFAULT_MODE_ONLY.find((option) => values[option] !== undefined && values[option] !== false);
    if (misplaced !== undefined) throw new UsageError(`--${misplaced} belongs to the default translator; --kubeadm reproduces kubeadm exactly`);
    const profile = profileFor(values.kubeadm);
    if (values.batch) return runKubeadmBatch(profile, file, io);
    return runKubeadm(profile, clusterDomain ?? KUBEADM_DEFAULT_DNS_DOMAIN, await readKubeDnsData(file, values.name, io), io);
  }
  const options = translateOptions(values, clusterDomain);
  const output = outputFormat(values.output);
  if (values.batch) {
    if (values.merge !== undefined) throw new UsageError('--merge works on one ConfigMap, not with --batch');
    return runTranslateBatch(options, file, io);
  }
  if (values.merge !== undefined && file === values.merge) throw new UsageError('--merge FILE and the kube-dns input must be different files');
  const existing = values.merge === undefined ? undefined : await readCorefileSource(values.merge, io);
  const data = await readKubeDnsData(file, values.name, io);
  const translation = translate(data, options);
  return report(existing === undefined ? translation : merged(existing, translation), output, io);
}

/** The translation merged into the Corefile of `--merge FILE`. */
function merged(existing: CorefileSourceText, translation: Translation): Translation {
  try {
    const result = mergeTranslation(existing.corefile, translation, existing.name);
    return { ...translation, ok: result.ok, corefile: result.corefile, model: result.model, diagnostics: result.diagnostics };
  } catch (error) {
    if (error instanceof CorefileError && error.position !== undefined) throw new UsageError(existing.locate(error.position, error.reason));
    throw error;
  }
}

/** Maps option errors of the library to usage errors (exit 2). */
export function translate(data: ConfigMapData | null, options: TranslateOptions): Translation {
  try {
    return translateKubeDns(data, options);
  } catch (error) {
    if (error instanceof TranslateOptionsError || error instanceof UnknownCoreDnsVersionError || error instanceof UnsupportedKubeDnsVersionError) {
      throw new UsageError(error.message);
    }
    throw error;
  }
}

function report(translation: Translation, output: OutputFormat, io: CliIo): number {
  if (output === 'json') {
    io.stdout.write(`${JSON.stringify({ corefile: translation.corefile ?? null, coredns: translation.coredns, diagnostics: translation.diagnostics }, null, 2)}\n`);
  } else {
    for (const entry of translation.diagnostics) io.stderr.write(`${formatDiagnostic(entry)}\n`);
    if (translation.corefile !== undefined) {
      io.stdout.write(output === 'configmap' ? renderCoreDnsConfigMap(translation.corefile) : translation.corefile);
    }
  }
  if (!translation.ok) {
    if (output !== 'json') io.stderr.write('translation refused: no Corefile was written (see the errors above)\n');
    return ExitCode.failed;
  }
  return ExitCode.ok;
}

async function readKubeDnsData(file: string | undefined, name: string | undefined, io: CliIo): Promise<ConfigMapData> {
  const source = await readSource(file, io);
  try {
    return readConfigMap(source.text, { filename: source.name, preferredNames: [KUBE_DNS_CONFIGMAP], ...(name === undefined ? {} : { name }) }).data;
  } catch (error) {
    if (error instanceof ConfigMapInputError) throw new UsageError(error.message);
    throw error;
  }
}

function runKubeadm(profile: KubeadmProfile, dnsDomain: string, data: ConfigMapData, io: CliIo): number {
  if (!isDns1123Subdomain(dnsDomain)) {
    throw new UsageError(`--dns-domain '${dnsDomain}' is not a DNS-1123 subdomain (kubeadm refused such a networking.dnsDomain before translating)`);
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

function parseTranslateArgs(args: readonly string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: {
        kubeadm: { type: 'string' },
        coredns: { type: 'string' },
        'cluster-domain': { type: 'string' },
        'dns-domain': { type: 'string' },
        output: { type: 'string', short: 'o' },
        'drop-federations': { type: 'boolean' },
        force: { type: 'boolean' },
        'kube-dns-version': { type: 'string' },
        'cluster-dns-ip': { type: 'string' },
        merge: { type: 'string' },
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
  if (values['cluster-domain'] !== undefined && values['dns-domain'] !== undefined) {
    throw new UsageError('--cluster-domain and --dns-domain are the same option; give one');
  }
  return { values, file: positionals[0] };
}

type TranslateValues = ReturnType<typeof parseTranslateArgs>['values'];

function translateOptions(values: TranslateValues, clusterDomain: string | undefined): TranslateOptions {
  if (values.coredns !== undefined) {
    try {
      parseCoreDnsVersion(values.coredns);
    } catch (error) {
      if (error instanceof UnknownCoreDnsVersionError) throw new UsageError(`--coredns: ${error.message}`);
      throw error;
    }
  }
  return {
    ...(values.coredns === undefined ? {} : { coredns: values.coredns }),
    ...(clusterDomain === undefined ? {} : { clusterDomain }),
    ...(values['kube-dns-version'] === undefined ? {} : { kubeDnsVersion: values['kube-dns-version'] }),
    ...(values['cluster-dns-ip'] === undefined ? {} : { clusterDnsIp: values['cluster-dns-ip'] }),
    dropFederations: values['drop-federations'] === true,
    force: values.force === true,
  };
}

function outputFormat(value: string | undefined): OutputFormat {
  if (value === undefined) return 'corefile';
  if ((OUTPUT_FORMATS as readonly string[]).includes(value)) return value as OutputFormat;
  throw new UsageError(`--output must be one of ${OUTPUT_FORMATS.join(', ')}, not '${value}'`);
}

function profileFor(version: string): KubeadmProfile {
  try {
    return kubeadmProfileFor(version);
  } catch (error) {
    if (error instanceof UnsupportedKubernetesVersionError) throw new UsageError(error.message);
    throw error;
  }
}
