import { renderCoreDnsConfigMap } from '../../configmap/write-configmap.js';
import { mergeTranslation } from '../../translate/merge.js';
import { checkTranslateOptions, translateKubeDns, translateKubeDnsInstall } from '../../translate/translate.js';
import type { TranslateOptions, TranslationResult } from '../../translate/translate.js';
import { readCorefileSource } from '../corefile-source.js';
import { writeDiagnostics } from '../write-diagnostics.js';
import type { CorefileSourceText } from '../corefile-source.js';
import { batchItemFailure, usingCorefile } from '../errors.js';
import type { CliIo } from '../io.js';
import { ExitCode, UsageError } from '../usage-error.js';
import { readKubeDnsInstallInput } from './install-input.js';
import type { TranslateArguments } from './translate-input.js';

const OUTPUT_FORMATS = ['corefile', 'configmap', 'json', 'install'] as const;
type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** The default translator (docs/cli.md): kube-dns semantics to a Corefile for a target CoreDNS. */
export async function runDefaultMode(args: TranslateArguments, io: CliIo): Promise<number> {
  const options = translateOptions(args);
  // Once, before any input is read: with --batch a bad option would otherwise fail every line.
  checkTranslateOptions(options);
  const output = outputFormat(args.output);
  if (args.image !== undefined && output !== 'install') throw new UsageError('--image belongs to -o install');
  if (output === 'install') {
    if (args.batch) throw new UsageError('-o install works on one install, not with --batch');
    if (args.merge !== undefined) throw new UsageError('-o install writes the whole CoreDNS install; --merge edits an existing Corefile (use one or the other)');
    const install = await readKubeDnsInstallInput(args.file, { deployment: args.deploymentFile, service: args.serviceFile }, args.name, io);
    const { runInstallOutput } = await import('./install-output.js');
    return runInstallOutput(install, { ...options, ...(args.image === undefined ? {} : { image: args.image }) }, io);
  }
  if (args.batch) {
    if (args.merge !== undefined) throw new UsageError('--merge works on one ConfigMap, not with --batch');
    if (args.deploymentFile !== undefined || args.serviceFile !== undefined) throw new UsageError('--kube-dns-deployment and --kube-dns-service work on one install, not with --batch');
    return runTranslateBatch(options, args.file, io);
  }
  if (args.merge !== undefined && args.file === args.merge) throw new UsageError('--merge FILE and the kube-dns input must be different files');
  const existing = args.merge === undefined ? undefined : await readCorefileSource(args.merge, io);
  const install = await readKubeDnsInstallInput(args.file, { deployment: args.deploymentFile, service: args.serviceFile }, args.name, io);
  const translation = translateKubeDnsInstall(install, options);
  return report(existing === undefined ? translation : merged(existing, translation), output, io);
}

/** The translation merged into the Corefile of `--merge FILE`. */
function merged(existing: CorefileSourceText, translation: TranslationResult): TranslationResult {
  const result = usingCorefile(existing, (corefile) => mergeTranslation(corefile, translation, existing.name));
  return { ...result, coredns: translation.coredns };
}

function report(translation: TranslationResult, output: OutputFormat, io: CliIo): number {
  if (output === 'json') {
    io.stdout.write(`${JSON.stringify({ corefile: translation.corefile ?? null, coredns: translation.coredns, diagnostics: translation.diagnostics }, null, 2)}\n`);
  } else {
    writeDiagnostics(translation, io);
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

function translateOptions(args: TranslateArguments): TranslateOptions {
  return {
    ...(args.coredns === undefined ? {} : { coredns: args.coredns }),
    ...(args.clusterDomain === undefined ? {} : { clusterDomain: args.clusterDomain }),
    ...(args.kubeDnsVersion === undefined ? {} : { kubeDnsVersion: args.kubeDnsVersion }),
    ...(args.clusterDnsIp === undefined ? {} : { clusterDnsIp: args.clusterDnsIp }),
    dropFederations: args.dropFederations,
    force: args.force,
  };
}

function outputFormat(value: string | undefined): OutputFormat {
  if (value === undefined) return 'corefile';
  if ((OUTPUT_FORMATS as readonly string[]).includes(value)) return value as OutputFormat;
  throw new UsageError(`--output must be one of ${OUTPUT_FORMATS.join(', ')}, not '${value}'`);
}

/** `--batch` of the default translator: `{id, ok, corefile?, diagnostics}` per case. */
async function runTranslateBatch(options: TranslateOptions, file: string | undefined, io: CliIo): Promise<number> {
  const { inputError, runBatch } = await import('../batch.js');
  return runBatch(file, io, (batchCase, lineNumber) => {
    const clusterDomain = batchCase.clusterDomain ?? batchCase.dnsDomain ?? options.clusterDomain;
    try {
      const translation = translateKubeDns(batchCase.data, { ...options, ...(clusterDomain === undefined ? {} : { clusterDomain }) });
      return { id: batchCase.id, ok: translation.ok, ...(translation.corefile === undefined ? {} : { corefile: translation.corefile }), diagnostics: translation.diagnostics };
    } catch (error) {
      // The case's own cluster domain, say: its result line says so, the batch goes on.
      const failure = batchItemFailure(error);
      if (failure === undefined) throw error;
      return inputError(batchCase.id, `line ${lineNumber}: ${failure}`);
    }
  });
}
