import { keepAddressNoData } from './address-nxdomain.js';
import { checkArgument, checkOptions } from '../errors/arguments.js';
import type { ConfigMapData } from '../configmap/config-map-data.js';
import { locateValueDiagnostics } from '../kubedns/locate-diagnostics.js';
import type { Corefile } from '../corefile/model.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { readKubeDnsConfig } from '../kubedns/read-kube-dns-config.js';
import { readerName } from '../kubedns/kube-dns-versions.js';
import type { KubeDnsReading } from '../kubedns/read-kube-dns-config.js';
import type { CoreDnsVersion } from '../coredns/versions.js';
import { releaseDiagnostics } from '../diagnostics/release-notices.js';
import type { KubeDnsInstall } from '../kubedns/kube-dns-install.js';
import { pushAll } from '../util/lists.js';
import { resolveTranslateOptions, withInstallFacts } from './options.js';
import type { TranslateInput, TranslateOptions } from './options.js';
import { planKubeDnsPod } from './deployment-flags.js';
import type { PodPlan } from './deployment-flags.js';
import { planCorefile } from './plan.js';
import { renderCorefile } from './render.js';
import { checkTranslatedCorefile, printBuiltCorefile } from './self-check.js';

export { resolveTranslateOptions, TranslateOptionsError } from './options.js';
export type { TranslateInput, TranslateOptions, TranslateOptionsErrorCode } from './options.js';

/**
 * The default translator: kube-dns semantics in, a Corefile the target CoreDNS accepts out, every
 * decision explained by a diagnostic (docs/reference/kube-dns-and-coredns.md §6). Where the
 * routing kube-dns did cannot be reproduced, it refuses instead of guessing.
 *
 * The data flows one way through five stages, each its own module (docs/architecture.md, "The
 * translator"): the install is read (src/kubedns), the options resolved once (options.ts), the
 * Pod and then the Corefile planned (deployment-flags.ts with its tables, plan.ts), the model
 * rendered (render.ts) and checked (self-check.ts). No stage calls back into an earlier one.
 */

/**
 * The outcome of {@link translateKubeDns}, discriminated by `ok`: after `if (translation.ok)` the
 * Corefile and its model are there (`string`, `Corefile`); a refused translation has both
 * `undefined` and says why in its diagnostics.
 */
export type TranslationResult =
  | {
      /** A Corefile was produced (warnings allowed). */
      readonly ok: true;
      /** The Corefile. */
      readonly corefile: string;
      /** The Corefile as a model, for tooling that edits it further. */
      readonly model: Corefile;
      readonly diagnostics: readonly Diagnostic[];
      /** The CoreDNS release the Corefile is for. */
      readonly coredns: CoreDnsVersion;
    }
  | {
      /** The translation was refused: at least one diagnostic is an error. */
      readonly ok: false;
      readonly corefile: undefined;
      readonly model: undefined;
      readonly diagnostics: readonly Diagnostic[];
      /** The CoreDNS release the translation was for. */
      readonly coredns: CoreDnsVersion;
    };

/**
 * Translates a kube-dns ConfigMap's data (`null`: there is none) into a Corefile. Without the
 * Deployment, the stock kube-dns manifest is assumed (a `kube-dns-deployment-assumed` diagnostic
 * says so): its dnsmasq ran with `--no-negcache`, so the Corefile does not cache NXDOMAIN.
 */
export function translateKubeDns(data: ConfigMapData | null, options: TranslateOptions = {}): TranslationResult {
  checkArgument('translateKubeDns', 'options', options, 'object?');
  return translateConfigMapWith(data, resolveTranslateOptions(options));
}

/** {@link translateKubeDns} with options resolved by {@link resolveTranslateOptions} (a batch resolves them once). */
export function translateConfigMapWith(data: ConfigMapData | null, input: TranslateInput): TranslationResult {
  return translateReading(data, input, planKubeDnsPod(undefined, input));
}

/**
 * Translates a whole kube-dns install ({@link readKubeDnsInstall}): the ConfigMap, with what the
 * Deployment's container arguments mean (cluster domain, dnsmasq's extra servers, caching,
 * logging) and the Service's cluster IP for the loop check. The install's own diagnostics come
 * first; an error among them refuses the translation unless `force`.
 */
export function translateKubeDnsInstall(install: KubeDnsInstall, options: TranslateOptions = {}): TranslationResult {
  checkOptions('translateKubeDnsInstall', 'install', install, { configMap: 'object?', deployment: 'object?', service: 'object?', diagnostics: 'array' }, true);
  checkArgument('translateKubeDnsInstall', 'options', options, 'object?');
  return translateInstallWith(install, resolveTranslateOptions(options), options.kubeDnsVersion !== undefined);
}

/**
 * {@link translateKubeDnsInstall} with options resolved by {@link resolveTranslateOptions}
 * (`kubeDnsVersionGiven`: the options named a kube-dns release, so the image's tag does not apply).
 */
export function translateInstallWith(install: KubeDnsInstall, resolved: TranslateInput, kubeDnsVersionGiven: boolean): TranslationResult {
  const input = withInstallFacts(resolved, install, kubeDnsVersionGiven);
  const forced = input.force;
  const noConfigMap =
    install.configMap === undefined
      ? [
          diagnostic('kube-dns-configmap-assumed', {
            message: `no kube-dns ConfigMap in the input${install.deployment === undefined && install.service === undefined ? '' : ` (only its ${[install.deployment === undefined ? [] : ['Deployment'], install.service === undefined ? [] : ['Service']].flat().join(' and ')})`}: translated as if it had no data, so no stub domains and the node's resolv.conf upstream`,
          }),
        ]
      : [];
  const installDiagnostics = [...(install.configMap?.diagnostics ?? []), ...install.diagnostics].map((entry) =>
    forced && entry.severity === 'error' ? { ...entry, severity: 'warning' as const } : entry,
  );
  const result = translateReading(install.configMap?.data ?? null, input, planKubeDnsPod(install.deployment, input, install.configMap?.name));
  // Positions inside the ConfigMap's values also point into the file it was read from.
  const diagnostics = locateValueDiagnostics([...installDiagnostics, ...result.diagnostics, ...noConfigMap], install.configMap);
  if (!forced && installDiagnostics.some((entry) => entry.severity === 'error')) {
    return { ok: false, corefile: undefined, model: undefined, diagnostics, coredns: result.coredns };
  }
  return { ...result, diagnostics };
}

/** The stages from the reading of the ConfigMap on: read, plan, render, check. */
function translateReading(data: ConfigMapData | null, input: TranslateInput, pod: PodPlan): TranslationResult {
  const { features, force: forced } = input;
  const coredns = features.version;
  // `let`: released once planned (below), so that a large reading is not kept alongside the model.
  let reading: KubeDnsReading | undefined = readKubeDnsConfig(data, input.kubeDnsVersion === undefined ? {} : { kubeDnsVersion: input.kubeDnsVersion });
  const isValidation = (entry: Diagnostic) => entry.code.startsWith('kube-dns-') && entry.severity === 'error';
  // kube-dns could not parse JSON federations either: the ConfigMap was ignored as a whole, so
  // translating it as written would switch on stub domains that were not in effect.
  const validationErrors = reading.diagnostics.filter((entry) => isValidation(entry) || entry.code === 'federations-json').length;
  const diagnostics: Diagnostic[] = [...releaseDiagnostics('coredns', input.release), ...reading.diagnostics.map((entry): Diagnostic => (forced && isValidation(entry) ? { ...entry, severity: 'warning' } : entry))];
  if (reading.diagnostics.some((entry) => entry.code === 'json-syntax' || entry.code === 'json-type' || entry.code === 'federations-format')) {
    // What kube-dns could not even read cannot be translated, forced or not.
    return { ok: false, corefile: undefined, model: undefined, diagnostics, coredns };
  }
  if (validationErrors > 0) {
    diagnostics.push(
      diagnostic('kube-dns-would-ignore', {
        message: `${readerName(reading.rules)} rejected this ConfigMap (${validationErrors} problem${validationErrors === 1 ? '' : 's'}) and ran without it`,
        ...(forced ? { severity: 'warning', hint: 'Translated anyway (--force): the result does not match what kube-dns did.' } : {}),
      }),
    );
  }
  pushAll(diagnostics, pod.plan.diagnostics);
  const plan = planCorefile(reading.config, pod, input, diagnostics);
  // The entries of a large ConfigMap (a third of the live memory of a 700,000-domain translation)
  // are not needed any more; V8 would keep them to the end of this function otherwise.
  reading = undefined;
  if (plan === undefined) return { ok: false, corefile: undefined, model: undefined, diagnostics, coredns };
  const model = keepAddressNoData(renderCorefile(plan), pod.plan.noDataZones, features, pod.plan.pod.kubeDnsVersion, diagnostics);
  const corefile = printBuiltCorefile(model, 'translated');
  const refusals = checkTranslatedCorefile(corefile, model, features);
  if (refusals.length > 0) {
    pushAll(diagnostics, refusals);
    return { ok: false, corefile: undefined, model: undefined, diagnostics, coredns };
  }
  return { ok: true, corefile, model, diagnostics, coredns };
}
