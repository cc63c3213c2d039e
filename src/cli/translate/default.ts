import { coreDnsReleaseOf } from '../../coredns/resolve-release.js';
import type { ResolvedCoreDnsRelease } from '../../coredns/resolve-release.js';
import type { PlatformBase } from '../../platform/bases.js';
import { resolveTranslateOptions, translateConfigMapWith, translateInstallWith } from '../../translate/translate.js';
import type { TranslateInput, TranslateOptions, TranslationResult } from '../../translate/translate.js';
import { readCorefileSource } from '../corefile-source.js';
import type { CorefileSourceText } from '../corefile-source.js';
import { usingCorefile } from '../errors.js';
import { readKubeDnsInstallInput } from '../input/install.js';
import type { KubeDnsInstall } from '../../kubedns/kube-dns-install.js';
import type { CliIo } from '../io.js';
import type { Reporter } from '../reporter.js';
import { ExitCode, UsageError } from '../usage-error.js';
import type { TranslateArguments } from './arguments.js';

/** The default translator (docs/cli.md): kube-dns semantics to a Corefile for a target CoreDNS. */
export async function runDefaultMode(args: TranslateArguments, io: CliIo, reporter: Reporter): Promise<number> {
  const options = translateOptions(args);
  // Resolved once, before any input is read: with --batch a bad option would otherwise fail every line.
  const input = resolveTranslateOptions(options);
  if (args.image !== undefined && args.output !== 'install') throw new UsageError('--image belongs to -o install');
  if (args.image !== undefined) await (await import('../image-option.js')).checkImageOption('', args.image);
  if (args.output === 'install') {
    if (args.batch) throw new UsageError('-o install works on one install, not with --batch');
    if (args.platform !== undefined) throw new UsageError('--platform P goes with -o coredns-custom');
    if (args.merge !== undefined && args.file === args.merge) throw new UsageError('--merge FILE and the kube-dns input must be different files');
    const existing = args.merge === undefined ? undefined : await readCorefileSource(args.merge, io);
    if (existing?.otherKeys !== undefined && existing.otherKeys.length > 0) {
      throw new UsageError(`-o install --merge ${existing.name}: the install's ConfigMap holds only the Corefile, and this ConfigMap has other keys (${existing.otherKeys.join(', ')}) its Corefile may import; merge with -o configmap instead`);
    }
    const install = await readKubeDnsInstallInput(args.file, { deployment: args.deploymentFile, service: args.serviceFile }, args.name, io);
    const [{ runInstallOutput }, { MERGE_FINDINGS, placeCorefileFindings }] = await Promise.all([import('./install-output.js'), import('../merge-findings.js')]);
    const installOptions = { ...options, ...(args.image === undefined ? {} : { image: args.image }), ...(existing === undefined ? {} : { merge: existing.corefile, mergeFilename: existing.name }) };
    return existing === undefined
      ? runInstallOutput(install, installOptions, io, reporter)
      : usingCorefile(existing, () => runInstallOutput(install, installOptions, io, reporter, (diagnostics) => placeCorefileFindings(existing, diagnostics, MERGE_FINDINGS)));
  }
  if (args.batch) {
    if (args.merge !== undefined) throw new UsageError('--merge works on one ConfigMap, not with --batch');
    if (args.deploymentFile !== undefined || args.serviceFile !== undefined) throw new UsageError('--kube-dns-deployment and --kube-dns-service work on one install, not with --batch');
    return runTranslateBatch(options, input, args.file, io, reporter.level.quiet);
  }
  if ((args.output === 'coredns-custom') !== (args.platform !== undefined)) {
    throw new UsageError(args.output === 'coredns-custom' ? '-o coredns-custom needs --platform P: the base Corefile the overlay is written for (aks, k3s, k3s-legacy)' : '--platform P goes with -o coredns-custom');
  }
  if (args.platform !== undefined && args.merge !== undefined) throw new UsageError('-o coredns-custom writes one overlay; it does not go with --merge');
  if (args.merge !== undefined && args.file === args.merge) throw new UsageError('--merge FILE and the kube-dns input must be different files');
  const existing = args.merge === undefined ? undefined : await readCorefileSource(args.merge, io);
  const install = await readKubeDnsInstallInput(args.file, { deployment: args.deploymentFile, service: args.serviceFile }, args.name, io);
  const translation = translateInstallWith(install, input, options.kubeDnsVersion !== undefined);
  if (args.platform !== undefined) return reportOverlay(translation, args.platform, args, io, reporter);
  return report(existing === undefined ? translation : await merged(existing, translation, install, options), args.output, io, reporter, existing?.configMap);
}

/**
 * The translation merged into the Corefile of `--merge FILE`, with the routing check `-o install
 * --merge` runs: a merged Corefile that routes a checked name differently from kube-dns is
 * refused (`install-merge-routing-differs`; a warning under --force), whatever the output.
 */
async function merged(existing: CorefileSourceText, translation: TranslationResult, install: KubeDnsInstall, options: TranslateOptions): Promise<TranslationResult> {
  const [{ mergeTranslation }, { checkMergedRouting }, { MERGE_FINDINGS, placeCorefileFindings }] = await Promise.all([import('../../translate/merge.js'), import('../../install/merge-check.js'), import('../merge-findings.js')]);
  const merged = usingCorefile(existing, (corefile) => mergeTranslation(corefile, translation, existing.name));
  const result = { ...merged, diagnostics: placeCorefileFindings(existing, merged.diagnostics, MERGE_FINDINGS) };
  return checkMergedRouting(install, options, { ...result, coredns: translation.coredns }, 'Written');
}

/**
 * `configMap`: the ConfigMap `--merge` read, written back with its Corefile replaced for `-o configmap`.
 * The writers of the other outputs (EKS add-on, Helm values, ConfigMap) load only for their `-o`:
 * a translation to a Corefile does not pay for them at start-up (docs/performance.md, "Start-up").
 */
async function report(translation: TranslationResult, output: TranslateArguments['output'], io: CliIo, reporter: Reporter, configMap?: Readonly<Record<string, unknown>>): Promise<number> {
  if (output === 'json') {
    reporter.json({ corefile: translation.corefile ?? null, coredns: translation.coredns, diagnostics: translation.diagnostics });
  } else {
    const eks = output === 'eks-addon' ? await import('../../platform/eks-addon.js') : undefined;
    const writer = output === 'configmap' ? await import('../../configmap/write-configmap.js') : undefined;
    const probes = eks !== undefined && translation.corefile !== undefined ? eks.eksProbeDiagnostics(translation.corefile) : [];
    const helm = output === 'helm-values' && translation.corefile !== undefined ? (await import('../../platform/helm-values.js')).helmValuesFromCorefile(translation.corefile) : undefined;
    reporter.diagnostics([...translation.diagnostics, ...probes, ...(helm?.diagnostics ?? [])]);
    if (helm !== undefined) {
      if (helm.values === undefined) {
        io.stderr.write('translation refused: no Helm values were written (see the errors above)\n');
        return ExitCode.failed;
      }
      io.stdout.write(helm.values);
    } else if (translation.corefile !== undefined) {
      const { corefile } = translation;
      io.stdout.write(
        eks !== undefined
          ? eks.renderEksAddonConfiguration(corefile)
          : writer === undefined
            ? corefile
            : configMap === undefined
              ? writer.renderCoreDnsConfigMap(corefile)
              : writer.renderConfigMapWithCorefile(configMap, corefile),
      );
    }
  }
  if (!translation.ok) {
    if (output !== 'json') io.stderr.write('translation refused: no Corefile was written (see the errors above)\n');
    return ExitCode.failed;
  }
  return ExitCode.ok;
}

/** `-o coredns-custom --platform P`: the translation as the platform's coredns-custom ConfigMap (docs/platforms.md). */
async function reportOverlay(translation: TranslationResult, platform: PlatformBase, args: TranslateArguments, io: CliIo, reporter: Reporter): Promise<number> {
  const [{ overlayFromTranslation }, { renderConfigMap }] = await Promise.all([import('../../platform/overlay-translate.js'), import('../../configmap/write-configmap.js')]);
  const overlay =
    translation.corefile === undefined
      ? undefined
      : overlayFromTranslation(translation.corefile, platform, { coredns: translation.coredns, force: args.force, ...(args.clusterDomain === undefined ? {} : { clusterDomain: args.clusterDomain }) });
  reporter.diagnostics([...translation.diagnostics, ...(overlay?.diagnostics ?? [])]);
  if (!translation.ok || overlay === undefined || !overlay.ok) {
    io.stderr.write('translation refused: no coredns-custom ConfigMap was written (see the errors above)\n');
    return ExitCode.failed;
  }
  io.stdout.write(renderConfigMap({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'coredns-custom', namespace: 'kube-system' }, data: overlay.data }));
  return ExitCode.ok;
}

function translateOptions(args: TranslateArguments): TranslateOptions {
  return {
    ...(args.coredns === undefined ? {} : { coredns: args.coredns }),
    ...(args.clusterDomain === undefined ? {} : { clusterDomain: args.clusterDomain }),
    ...(args.kubeDnsVersion === undefined ? {} : { kubeDnsVersion: args.kubeDnsVersion }),
    ...(args.clusterDnsIp === undefined ? {} : { clusterDnsIp: args.clusterDnsIp }),
    ...(args.repair === undefined ? {} : { repair: args.repair }),
    dropFederations: args.dropFederations,
    force: args.force,
  };
}

/**
 * `--batch` of the default translator: `{id, ok, coredns, clusterDomain?, corefile?, diagnostics}`
 * per case. A case's own `coredns` and cluster domain (`clusterDomain`, or `dnsDomain`) replace the
 * options for that case, and its result says which release and domain it was translated for.
 */
async function runTranslateBatch(options: TranslateOptions, input: TranslateInput, file: string | undefined, io: CliIo, quiet: boolean): Promise<number> {
  const { runBatch } = await import('../batch.js');
  // Each distinct release text is read once, as --coredns is: its notices go with every case that names it.
  const releases = new Map<string, ResolvedCoreDnsRelease>();
  return runBatch(
    file,
    io,
    (batchCase) => {
      const clusterDomain = batchCase.clusterDomain ?? batchCase.dnsDomain;
      const coredns = batchCase.coredns === undefined ? options.coredns : cachedRelease(releases, batchCase.coredns);
      // The options as resolved once, unless the case names its own release or domain.
      const caseInput =
        batchCase.coredns === undefined && clusterDomain === undefined
          ? input
          : resolveTranslateOptions({ ...options, ...(coredns === undefined ? {} : { coredns }), ...(clusterDomain === undefined ? {} : { clusterDomain }) });
      const translation = translateConfigMapWith(batchCase.data, caseInput);
      return {
        id: batchCase.id,
        ok: translation.ok,
        coredns: translation.coredns,
        ...(clusterDomain === undefined ? {} : { clusterDomain }),
        ...(translation.corefile === undefined ? {} : { corefile: translation.corefile }),
        diagnostics: translation.diagnostics,
      };
    },
    undefined,
    { quiet },
  );
}

function cachedRelease(releases: Map<string, ResolvedCoreDnsRelease>, text: string): ResolvedCoreDnsRelease {
  let release = releases.get(text);
  if (release === undefined) {
    release = coreDnsReleaseOf(text);
    if (releases.size < 1024) releases.set(text, release);
  }
  return release;
}
