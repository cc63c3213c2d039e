import { renderConfigMapWithCorefile, renderCoreDnsConfigMap } from '../../configmap/write-configmap.js';
import { mergeTranslation } from '../../translate/merge.js';
import { checkTranslateOptions, translateKubeDns, translateKubeDnsInstall } from '../../translate/translate.js';
import type { TranslateOptions, TranslationResult } from '../../translate/translate.js';
import { readCorefileSource } from '../corefile-source.js';
import type { CorefileSourceText } from '../corefile-source.js';
import { batchItemFailure, usingCorefile } from '../errors.js';
import { readKubeDnsInstallInput } from '../input/install.js';
import type { CliIo } from '../io.js';
import type { Reporter } from '../reporter.js';
import { ExitCode, UsageError } from '../usage-error.js';
import type { TranslateArguments } from './arguments.js';

/** The default translator (docs/cli.md): kube-dns semantics to a Corefile for a target CoreDNS. */
export async function runDefaultMode(args: TranslateArguments, io: CliIo, reporter: Reporter): Promise<number> {
  const options = translateOptions(args);
  // Once, before any input is read: with --batch a bad option would otherwise fail every line.
  checkTranslateOptions(options);
  if (args.batch) {
    if (args.merge !== undefined) throw new UsageError('--merge works on one ConfigMap, not with --batch');
    if (args.deploymentFile !== undefined || args.serviceFile !== undefined) throw new UsageError('--kube-dns-deployment and --kube-dns-service work on one install, not with --batch');
    return runTranslateBatch(options, args.file, io);
  }
  if (args.merge !== undefined && args.file === args.merge) throw new UsageError('--merge FILE and the kube-dns input must be different files');
  const existing = args.merge === undefined ? undefined : await readCorefileSource(args.merge, io);
  const install = await readKubeDnsInstallInput(args.file, { deployment: args.deploymentFile, service: args.serviceFile }, args.name, io);
  const translation = translateKubeDnsInstall(install, options);
  return report(existing === undefined ? translation : merged(existing, translation), args.output, io, reporter, existing?.configMap);
}

/** The translation merged into the Corefile of `--merge FILE`. */
function merged(existing: CorefileSourceText, translation: TranslationResult): TranslationResult {
  const result = usingCorefile(existing, (corefile) => mergeTranslation(corefile, translation, existing.name));
  return { ...result, coredns: translation.coredns };
}

/** `configMap`: the ConfigMap `--merge` read, written back with its Corefile replaced for `-o configmap`. */
function report(translation: TranslationResult, output: TranslateArguments['output'], io: CliIo, reporter: Reporter, configMap?: Readonly<Record<string, unknown>>): number {
  if (output === 'json') {
    reporter.json({ corefile: translation.corefile ?? null, coredns: translation.coredns, diagnostics: translation.diagnostics });
  } else {
    reporter.diagnostics(translation.diagnostics);
    if (translation.corefile !== undefined) {
      const { corefile } = translation;
      io.stdout.write(output !== 'configmap' ? corefile : configMap === undefined ? renderCoreDnsConfigMap(corefile) : renderConfigMapWithCorefile(configMap, corefile));
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
