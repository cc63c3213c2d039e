import { checkArgument, checkOptions } from '../errors/arguments.js';
import type { ConfigMapData } from '../configmap/config-map-data.js';
import type { Corefile, Directive, ServerBlock } from '../corefile/model.js';
import { classifyToken } from '../corefile/printer.js';
import { diagnostic, hasErrors } from '../diagnostics/diagnostic.js';
import { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { isDns1123Subdomain, parseGoIP } from '../dns/go-net.js';
import { readKubeDnsConfig } from '../kubedns/read-kube-dns-config.js';
import { kubeDnsRules } from '../kubedns/kube-dns-versions.js';
import { inetAton } from '../kubedns/dnsmasq-options.js';
import type { FederationEntry, KubeDnsConfig, KubeDnsReading, StubDomainEntry, ValueEntry } from '../kubedns/read-kube-dns-config.js';
import { coreDnsFeatures, noDenialCaching } from '../coredns/features.js';
import type { CoreDnsFeatures, NoDenialCaching } from '../coredns/features.js';
import { coreDnsReleaseOf } from '../coredns/resolve-release.js';
import type { CoreDnsReleaseInput } from '../coredns/resolve-release.js';
import { NEWEST_COREDNS_VERSION } from '../coredns/versions.js';
import { releaseDiagnostics } from '../diagnostics/release-notices.js';
import type { CoreDnsVersion } from '../coredns/versions.js';
import { KUBERNETES_DEFAULT_REVERSE_ZONES, kubernetesDefaultMainBlock } from '../coredns/kubernetes-default-corefile.js';
import type { DefaultDirective } from '../coredns/kubernetes-default-corefile.js';
import { checkTranslatedCorefile, printBuiltCorefile } from './self-check.js';
import { isLoopback, isSameAddress, readForwardTarget } from '../coredns/forward-targets.js';
import type { ForwardTarget } from '../coredns/forward-targets.js';
import { isStrictAncestor, isWithin, normalizeZone } from '../dns/zones.js';
import { HEALTH_DEFAULT_ADDRESS } from '../coredns/listen-addresses.js';
import type { KubeDnsInstall } from '../kubedns/kube-dns-install.js';
import { planDeployment, stockDeploymentPlan } from './deployment-flags.js';
import type { DeploymentPlan, DeploymentServer } from './deployment-flags.js';
import { pushAll } from '../util/lists.js';
import { lintParsedCorefile } from '../lint/lint.js';
import { parseCorefile } from '../corefile/parser.js';

/**
 * The default translator: kube-dns semantics in, a Corefile the target CoreDNS accepts out, every
 * decision explained by a diagnostic (docs/reference/kube-dns-and-coredns.md §6). Where the
 * routing kube-dns did cannot be reproduced, it refuses instead of guessing.
 */

export const DEFAULT_CLUSTER_DOMAIN = 'cluster.local';

export interface TranslateOptions {
  /**
   * Target CoreDNS release (default: the newest the package knows), in the grammar `migrate` reads
   * (`1.8.7`, `v1.8.7-eksbuild.3`, an image reference, newer than known: see
   * {@link resolveCoreDnsRelease}), or a release it resolved. How the text was read is reported as
   * `release-resolved` and `release-assumed` diagnostics.
   */
  readonly coredns?: CoreDnsReleaseInput;
  /** The cluster domain (default `cluster.local`). */
  readonly clusterDomain?: string;
  /** The kube-dns version whose validation rules apply (default: the newest known). */
  readonly kubeDnsVersion?: string;
  /** Translate without the federations when the target has no federation plugin. */
  readonly dropFederations?: boolean;
  /** Translate a ConfigMap kube-dns itself rejected (its errors become warnings). */
  readonly force?: boolean;
  /** The cluster DNS Service IP; a nameserver equal to it is refused (CoreDNS would query itself). */
  readonly clusterDnsIp?: string;
}

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

/** Options that make no sense at all (as opposed to data problems, which are diagnostics). */
export class TranslateOptionsError extends KubeDnsToCoreDnsError {
  override readonly name = 'TranslateOptionsError';
  readonly category = 'input';
  declare readonly code: TranslateOptionsErrorCode;

  constructor(code: TranslateOptionsErrorCode, message: string) {
    super(code, message);
  }
}

/** Which option of {@link translateKubeDns} makes no sense. */
export type TranslateOptionsErrorCode = 'invalid-cluster-domain' | 'invalid-cluster-dns-ip';

/** Port of every server block: the main block's, as in Kubernetes' default. */
const DNS_PORT = '53';
const RESOLV_CONF = '/etc/resolv.conf';

interface PlannedStub {
  readonly zone: string;
  readonly targets: readonly ForwardTarget[];
}

/**
 * Translates a kube-dns ConfigMap's data (`null`: there is none) into a Corefile. Without the
 * Deployment, the stock kube-dns manifest is assumed (a `kube-dns-deployment-assumed` diagnostic
 * says so): its dnsmasq ran with `--no-negcache`, so the Corefile does not cache NXDOMAIN.
 */
export function translateKubeDns(data: ConfigMapData | null, options: TranslateOptions = {}): TranslationResult {
  checkArgument('translateKubeDns', 'options', options, 'object?');
  return translateWithPlan(data, options, (features, kubeDnsVersion) => ({ plan: stockDeploymentPlan(kubeDnsVersion, options.clusterDomain, features), clusterDomain: checkTranslateOptions(options) }));
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
  const clusterDnsIp = options.clusterDnsIp ?? install.service?.clusterIP;
  const imageVersion = options.kubeDnsVersion === undefined ? kubeDnsVersionOfImage(install.deployment?.kubedns?.image) : undefined;
  const effective: TranslateOptions = {
    ...options,
    ...(clusterDnsIp === undefined ? {} : { clusterDnsIp }),
    ...(imageVersion === undefined ? {} : { kubeDnsVersion: imageVersion }),
  };
  const forced = options.force === true;
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
  const { deployment } = install;
  const result = translateWithPlan(install.configMap?.data ?? null, effective, (features, kubeDnsVersion) => {
    const optionDomain = checkTranslateOptions(effective);
    if (deployment === undefined) return { plan: stockDeploymentPlan(kubeDnsVersion, options.clusterDomain, features), clusterDomain: optionDomain };
    const planned = planDeployment(deployment, features, install.configMap?.name);
    const plan =
      imageVersion === undefined
        ? planned
        : {
            ...planned,
            diagnostics: [
              diagnostic('deployment-flag', { key: `container ${deployment.kubedns?.container ?? 'kubedns'}`, path: '[image]', message: `kube-dns ${imageVersion} (the image's tag): the ConfigMap is validated with its rules` }),
              ...planned.diagnostics,
            ],
          };
    if (plan.clusterDomain === undefined || plan.clusterDomain === optionDomain) return { plan, clusterDomain: plan.clusterDomain ?? optionDomain };
    if (options.clusterDomain === undefined) return { plan, clusterDomain: plan.clusterDomain };
    // Points at kubedns's last --domain as written, when there is one.
    const programArguments = deployment.kubedns?.argv.programArguments ?? [];
    const domainIndex = programArguments.findLastIndex((argument) => /^--domain(=|$)/.test(argument));
    const written = domainIndex === -1 ? undefined : deployment.kubedns?.written?.[domainIndex];
    const conflict = diagnostic('cluster-domain-conflict', {
      ...(written === undefined ? {} : { key: written.key, path: written.path }),
      message: `--cluster-domain ${optionDomain}, but the Deployment serves ${plan.clusterDomain}`,
      ...(forced ? { severity: 'warning' as const, hint: `Translated with ${optionDomain} (--force).` } : {}),
    });
    return { plan: { ...plan, diagnostics: [conflict, ...plan.diagnostics] }, clusterDomain: optionDomain };
  });
  const diagnostics = [...installDiagnostics, ...result.diagnostics, ...noConfigMap];
  if (!forced && installDiagnostics.some((entry) => entry.severity === 'error')) {
    return { ok: false, corefile: undefined, model: undefined, diagnostics, coredns: result.coredns };
  }
  return { ...result, diagnostics };
}

/** The kube-dns release an image tag names (`…/k8s-dns-kube-dns-amd64:1.14.13`), when the rules know it. */
function kubeDnsVersionOfImage(image: string | undefined): string | undefined {
  const tag = /:v?(\d+\.\d+\.\d+)$/.exec(image ?? '')?.[1];
  if (tag === undefined) return undefined;
  try {
    return kubeDnsRules(tag).version;
  } catch {
    return undefined;
  }
}

type PlanFor = (features: CoreDnsFeatures, kubeDnsVersion: string) => { readonly plan: DeploymentPlan; readonly clusterDomain: string };

function translateWithPlan(data: ConfigMapData | null, options: TranslateOptions, planFor: PlanFor): TranslationResult {
  const release = coreDnsReleaseOf(options.coredns ?? NEWEST_COREDNS_VERSION);
  const features = coreDnsFeatures(release.version);
  checkTranslateOptions(options);
  // `let`: released once planned (below), so that a large reading is not kept alongside the model.
  let reading: KubeDnsReading | undefined = readKubeDnsConfig(data, options.kubeDnsVersion === undefined ? {} : { kubeDnsVersion: options.kubeDnsVersion });
  const { plan, clusterDomain } = planFor(features, reading.rules.version);
  const isValidation = (entry: Diagnostic) => entry.code.startsWith('kube-dns-') && entry.severity === 'error';
  // kube-dns could not parse JSON federations either: the ConfigMap was ignored as a whole, so
  // translating it as written would switch on stub domains that were not in effect.
  const validationErrors = reading.diagnostics.filter((entry) => isValidation(entry) || entry.code === 'federations-json').length;
  const forced = options.force === true;
  const diagnostics: Diagnostic[] = [...releaseDiagnostics('coredns', release), ...reading.diagnostics.map((entry): Diagnostic => (forced && isValidation(entry) ? { ...entry, severity: 'warning' } : entry))];
  if (reading.diagnostics.some((entry) => entry.code === 'json-syntax' || entry.code === 'json-type' || entry.code === 'federations-format')) {
    // What kube-dns could not even read cannot be translated, forced or not.
    return { ok: false, corefile: undefined, model: undefined, diagnostics, coredns: features.version };
  }
  if (validationErrors > 0) {
    diagnostics.push(
      diagnostic('kube-dns-would-ignore', {
        message: `kube-dns ${reading.rules.version} rejected this ConfigMap (${validationErrors} problem${validationErrors === 1 ? '' : 's'}) and ran without it`,
        ...(forced ? { severity: 'warning', hint: 'Translated anyway (--force): the result does not match what kube-dns did.' } : {}),
      }),
    );
  }
  pushAll(diagnostics, plan.diagnostics);
  const context: Context = { features, clusterDomain, clusterDnsIp: options.clusterDnsIp, diagnostics, plan };
  const planned = planStubs(withDeploymentStubs(reading.config, plan), context);
  const upstreams = planUpstreams(withDeploymentUpstreams(reading.config.upstreamNameservers, plan), reading.config.listedUpstreamNameservers, context);
  const { templates, replacedZones } = planTemplates(plan, planned, context);
  const stubs = replacedZones.size === 0 ? planned : planned.filter((stub) => !replacedZones.has(stub.zone));
  const federation = planFederation(reading.config.federations, options.dropFederations === true, context);
  // Stub and template zones alike: a parent of the cluster's zones would capture them.
  const parents: ZoneOwner[] = [
    ...stubs.map((stub) => ({ zone: stub.zone, key: 'stubDomains', path: `[${JSON.stringify(stub.zone)}]` })),
    ...templates.map((template) => ({ zone: template.zone, key: 'container dnsmasq', path: `[${template.text}]` })),
  ];
  const mainKeys = mainBlockKeys(parents, context);
  const splitMainBlock = needsMainBlockSplit(mainKeys, parents, context);
  // The entries of a large ConfigMap (a third of the live memory of a 700,000-domain translation)
  // are not needed any more; V8 would keep them to the end of this function otherwise.
  reading = undefined;
  if (!features.kubernetesFallthroughZones) {
    report(context, 'reverse-lookups-not-forwarded', '', '', `CoreDNS ${features.version}'s kubernetes plugin cannot fall through for in-addr.arpa and ip6.arpa`);
  }
  if (hasErrors(diagnostics)) return { ok: false, corefile: undefined, model: undefined, diagnostics, coredns: features.version };

  const model = buildCorefile(mainKeys, splitMainBlock, upstreams, federation, stubs, templates, context);
  const corefile = printBuiltCorefile(model, 'translated');
  checkTranslatedCorefile(corefile, model, features);
  // What lint finds the target refuses, the translation refuses too: a value the input carries
  // that the release does not take (--dns-forward-max=99999999999999999999999 as max_concurrent).
  const refusals = lintParsedCorefile(parseCorefile(corefile).corefile, { coredns: features.version }).diagnostics.filter((finding) => finding.severity === 'error');
  if (refusals.length > 0) {
    for (const finding of refusals) {
      diagnostics.push(diagnostic('translation-target-refuses', { message: `CoreDNS ${features.version} would refuse the translated Corefile (lint ${finding.code}${finding.path === undefined ? '' : ` at ${finding.path.replace(/^:\d+:\d+ ?/, '')}`}): ${finding.message}` }));
    }
    return { ok: false, corefile: undefined, model: undefined, diagnostics, coredns: features.version };
  }
  return { ok: true, corefile, model, diagnostics, coredns: features.version };
}

interface Context {
  readonly features: CoreDnsFeatures;
  readonly clusterDomain: string;
  readonly clusterDnsIp: string | undefined;
  readonly diagnostics: Diagnostic[];
  readonly plan: DeploymentPlan;
}

/**
 * Checks the options that make no sense whatever the data (a cluster domain that is no DNS-1123
 * subdomain, a cluster DNS IP that is no IP) and returns the cluster domain in normal form. A
 * caller translating many ConfigMaps with the same options (`--batch`) checks them once, first.
 *
 * @throws {TranslateOptionsError}
 */
export function checkTranslateOptions(options: TranslateOptions): string {
  const clusterDomain = checkClusterDomain(options.clusterDomain ?? DEFAULT_CLUSTER_DOMAIN);
  if (options.clusterDnsIp !== undefined && parseGoIP(options.clusterDnsIp) === undefined) {
    throw new TranslateOptionsError('invalid-cluster-dns-ip', `cluster DNS IP '${options.clusterDnsIp}' is not an IP address`);
  }
  return clusterDomain;
}

function checkClusterDomain(domain: string): string {
  const normalized = domain.endsWith('.') ? domain.slice(0, -1).toLowerCase() : domain.toLowerCase();
  if (!isDns1123Subdomain(normalized)) throw new TranslateOptionsError('invalid-cluster-domain', `cluster domain '${domain}' is not a DNS-1123 subdomain`);
  return normalized;
}

function planStubs(config: KubeDnsConfig, context: Context): PlannedStub[] {
  const planned = new Map<string, PlannedStub>();
  for (const stub of config.stubDomains) {
    const normalized = normalizeZone(stub.domain);
    if ('problem' in normalized) {
      report(context, 'invalid-zone', FROM_DEPLOYMENT.has(stub) ? 'container dnsmasq' : 'stubDomains', stub.path, normalized.problem);
      continue;
    }
    const { zone } = normalized;
    if (normalized.changes.length > 0) report(context, 'zone-normalized', 'stubDomains', stub.path, `'${stub.domain}' becomes '${zone}' (${normalized.changes.join(', ')})`);
    if (planned.has(zone)) {
      report(context, 'duplicate-zone', 'stubDomains', stub.path, `'${stub.domain}' is the zone '${zone}' a second time`);
      continue;
    }
    if (!checkStubPlacement(zone, stub, context)) continue;
    if (stub.nameservers.length === 0) {
      report(context, 'empty-stub-domain', 'stubDomains', stub.path, `'${zone}' has no nameservers; no server block is emitted`);
      continue;
    }
    if (stub.listedNameservers !== undefined) {
      // Only the first nameservers were read (the reader's long-list-not-examined): over the limit whatever they are.
      report(context, 'too-many-nameservers', 'stubDomains', stub.path, `'${zone}' has ${stub.listedNameservers} nameservers; CoreDNS forwards to at most ${context.features.upstreamLimit.max}`);
      continue;
    }
    const reportedBefore = context.diagnostics.length;
    // Sized up front and cut to what was kept (the list lives as long as the translation).
    const targets = new Array<ForwardTarget>(stub.nameservers.length);
    let kept = 0;
    for (const nameserver of stub.nameservers) {
      const target = stubTarget(nameserver, context);
      if (target !== undefined) targets[kept++] = target;
    }
    targets.length = kept;
    if (hasErrorSince(context, reportedBefore)) continue;
    if (targets.length === 0) {
      report(context, 'stub-without-nameservers', 'stubDomains', stub.path, `no nameserver of '${zone}' is left`);
      continue;
    }
    if (targets.length > context.features.upstreamLimit.max) {
      report(context, 'too-many-nameservers', 'stubDomains', stub.path, `'${zone}' has ${targets.length} nameservers; CoreDNS forwards to at most ${context.features.upstreamLimit.max}`);
      continue;
    }
    planned.set(zone, { zone, targets });
  }
  // Deterministic output whatever the key order in the JSON.
  return [...planned.values()].sort((a, b) => (a.zone < b.zone ? -1 : a.zone > b.zone ? 1 : 0));
}

/** Routing checks that depend on where the stub sits relative to the cluster's own zones. */
function checkStubPlacement(zone: string, stub: StubDomainEntry, context: Context): boolean {
  if (zone === context.clusterDomain) {
    report(context, 'stub-equals-cluster-domain', 'stubDomains', stub.path, `'${zone}' is the cluster domain`);
    return false;
  }
  const reverse = KUBERNETES_DEFAULT_REVERSE_ZONES.find((reverseZone) => reverseZone === zone);
  if (reverse !== undefined) {
    report(context, 'stub-equals-reverse-zone', 'stubDomains', stub.path, `'${zone}' is served by the kubernetes plugin`);
    return false;
  }
  if (isWithin(zone, context.clusterDomain)) {
    report(context, 'stub-under-cluster-domain', 'stubDomains', stub.path, `'${zone}' lies inside the cluster domain '${context.clusterDomain}'`);
  }
  return true;
}

function stubTarget(nameserver: ValueEntry, context: Context): ForwardTarget | undefined {
  const target = checkedTarget(nameserver, 'stubDomains', context);
  if (target === undefined) return undefined;
  if (target.kind === 'hostname' && !acceptHostname(target.name, nameserver, 'stubDomains', context)) return undefined;
  return target;
}

/** Whether a hostname target can be emitted for the target CoreDNS; reports either way. */
function acceptHostname(name: string, nameserver: ValueEntry, key: string, context: Context): boolean {
  if (isWithin(name, context.clusterDomain)) {
    report(context, 'cluster-hostname-nameserver', key, nameserver.path, `'${name}' is a name inside the cluster domain`);
    return false;
  }
  if (!context.features.forwardHostnameTargets) {
    report(context, 'hostname-nameserver-dropped', key, nameserver.path, `'${name}' dropped: CoreDNS ${context.features.version} forwards to IP addresses only`);
    return false;
  }
  // CoreDNS 1.14.4+ (plugin/forward/resolve.go) looks the name up at start-up, through the node's resolver, and exits when that fails.
  if (!name.includes('.')) {
    report(context, 'single-label-hostname-nameserver', key, nameserver.path, `'${name}' has one label: CoreDNS ${context.features.version} looks it up through the node's resolver when it starts, where it does not resolve, and exits`);
    return false;
  }
  report(
    context,
    'hostname-nameserver',
    key,
    nameserver.path,
    `'${name}' is resolved once when CoreDNS starts, through the node's resolver; CoreDNS ${context.features.version} exits if it does not resolve then; kube-dns used only its first address`,
  );
  return true;
}

/** Reads a nameserver as a forward target and applies the checks every target needs. */
function checkedTarget(nameserver: ValueEntry, key: string, context: Context): ForwardTarget | undefined {
  const value = context.plan.throughDnsmasq ? asDnsmasqReadIt(nameserver, key, context) : nameserver.value;
  if (value === undefined) return undefined;
  const reading = readForwardTarget(value);
  if (!reading.ok) {
    report(context, reading.code, key, nameserver.path, reading.problem);
    return undefined;
  }
  const { target } = reading;
  if (reading.rewritten && target.kind === 'ip') {
    report(context, 'ip-rewritten', key, nameserver.path, `'${nameserver.value}' is written as '${target.text}'`);
  }
  if (isLoopback(target) || (context.clusterDnsIp !== undefined && isSameAddress(target, context.clusterDnsIp))) {
    report(context, 'loop-nameserver', key, nameserver.path, `'${nameserver.value}' would make CoreDNS forward to itself`);
    return undefined;
  }
  return target;
}

/** IPv4 text with a port or not, for the leading-zero check. */
const DOTTED_IPV4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)(:\d+)?$/;

/**
 * A ConfigMap nameserver as dnsmasq read it (dnsmasq-nanny passes the text through): an IPv4
 * octet with a leading zero is octal there (inet_aton), while kube-dns's Go validation read it as
 * decimal. Undefined (and an error) when dnsmasq refuses the address.
 */
function asDnsmasqReadIt(nameserver: ValueEntry, key: string, context: Context): string | undefined {
  const match = DOTTED_IPV4.exec(nameserver.value);
  if (match === null) return nameserver.value;
  const octets = match.slice(1, 5) as string[];
  if (!octets.some((octet) => octet.length > 1 && octet.startsWith('0'))) return nameserver.value;
  const decimal = octets.map((octet) => String(Number(octet))).join('.');
  const port = match[5] ?? '';
  const dnsmasqAddress = inetAton(octets.join('.'));
  if (dnsmasqAddress === undefined) {
    report(context, 'address-refused-by-dnsmasq', key, nameserver.path, `'${nameserver.value}': Go's validation read ${decimal}, but dnsmasq reads a leading-zero octet as octal and refuses 8 and 9 in one, so kube-dns's dnsmasq did not start`);
    return undefined;
  }
  if (dnsmasqAddress === decimal) return nameserver.value;
  report(context, 'octal-address', key, nameserver.path, `'${nameserver.value}': dnsmasq read ${dnsmasqAddress} (octal), Go's validation ${decimal}; translated to ${dnsmasqAddress}, the server kube-dns's dnsmasq forwarded to`);
  return `${dnsmasqAddress}${port}`;
}

function planUpstreams(nameservers: readonly ValueEntry[] | undefined, listed: number | undefined, context: Context): string[] {
  if (nameservers === undefined || nameservers.length === 0) {
    report(context, 'upstream-resolv-conf', 'upstreamNameservers', '', `forwarding to ${RESOLV_CONF} of the node`);
    return [RESOLV_CONF];
  }
  const { max } = context.features.upstreamLimit;
  if (listed !== undefined) {
    // Only the first ones were read (the reader's long-list-not-examined): over the limit whatever they are.
    report(context, 'too-many-nameservers', 'upstreamNameservers', '', `${listed} upstream nameservers; CoreDNS forwards to at most ${max}`);
    return [];
  }
  const targets = nameservers.flatMap((nameserver) => {
    const target = checkedTarget(nameserver, 'upstreamNameservers', context);
    if (target?.kind === 'hostname' && !acceptHostname(target.name, nameserver, 'upstreamNameservers', context)) return [];
    return target === undefined ? [] : [target.text];
  });
  if (targets.length > max) {
    // Only reachable with --force (kube-dns took at most 3): CoreDNS would refuse the forward line.
    report(context, 'too-many-nameservers', 'upstreamNameservers', '', `${targets.length} upstream nameservers; CoreDNS forwards to at most ${max}`);
    return [];
  }
  if (targets.length === 0 && !hasErrors(context.diagnostics)) {
    report(context, 'no-upstream-left', 'upstreamNameservers', '', `every upstream nameserver was dropped; falling back to ${RESOLV_CONF} would change where names go`);
  }
  return targets;
}

function planFederation(federations: readonly FederationEntry[] | undefined, dropFederations: boolean, context: Context): Directive | undefined {
  if (federations === undefined || federations.length === 0) return undefined;
  if (context.features.federation === 'removed') {
    if (!dropFederations) {
      report(context, 'federation-unsupported', 'federations', '', `CoreDNS ${context.features.version} cannot serve ${federations.length} federation${federations.length === 1 ? '' : 's'}`);
      return undefined;
    }
    report(context, 'federations-dropped', 'federations', '', `dropped ${federations.map((entry) => entry.name).join(', ')}`);
    return undefined;
  }
  for (const entry of federations) {
    for (const token of [entry.name, entry.domain]) {
      const form = classifyToken(token);
      if (form.form === 'unrepresentable') report(context, 'unrepresentable-value', 'federations', entry.path, form.reason);
    }
  }
  report(context, 'federation-semantics', 'federations', '', `federation ${federations.map((entry) => entry.name).join(', ')} translated to the federation plugin`);
  return {
    name: 'federation',
    arguments: [context.clusterDomain],
    block: { directives: federations.map((entry) => ({ name: entry.name, arguments: [entry.domain] })) },
  };
}

/** A zone with a block of its own (a stub domain, a dnsmasq template), and where it was written. */
interface ZoneOwner {
  readonly zone: string;
  readonly key: string;
  readonly path: string;
}

/**
 * The main block's keys. A stub or template zone that is a parent of a zone the kubernetes plugin
 * serves (`--local=/local/` above `cluster.local`) would capture that zone in CoreDNS (longest
 * matching block wins), while dnsmasq still sent it to kubedns (most specific domain wins): serving
 * the zone from the main block restores that.
 */
function mainBlockKeys(parents: readonly ZoneOwner[], context: Context): string[] {
  const keys = [`.:${DNS_PORT}`];
  for (const zone of [context.clusterDomain, ...KUBERNETES_DEFAULT_REVERSE_ZONES]) {
    const parent = parents.find((owner) => isStrictAncestor(owner.zone, zone));
    if (parent !== undefined) {
      keys.push(`${zone}:${DNS_PORT}`);
      // Where health binds once per key, the added zones get a copy of the main block instead (main-block-split).
      const where = context.features.healthListener === 'exclusive' ? 'served by a copy of the main block' : 'added to the main block';
      report(context, 'main-block-key-added', parent.key, parent.path, `'${zone}' ${where} so that '${parent.zone}' does not capture it`);
    }
  }
  return keys;
}

/**
 * Whether the zones added to the main block need a block of their own: CoreDNS 1.1.0–1.6.5 set
 * `health` up once per key, each binding its address, so a main block with several keys does not
 * start there. The copy without `health` answers exactly as the main block would (plugin setup runs
 * per key in those releases anyway, so every other plugin is set up as often as before).
 */
function needsMainBlockSplit(mainKeys: readonly string[], parents: readonly ZoneOwner[], context: Context): boolean {
  if (context.features.healthListener !== 'exclusive' || mainKeys.length < 2) return false;
  const added = mainKeys.slice(1).map((key) => key.slice(0, key.lastIndexOf(':')));
  const parent = parents.find((owner) => added.some((zone) => isStrictAncestor(owner.zone, zone)));
  report(
    context,
    'main-block-split',
    parent?.key ?? 'stubDomains',
    parent?.path ?? '',
    `${added.join(', ')} ${added.length === 1 ? 'is' : 'are'} served by a copy of the main block without health: CoreDNS ${context.features.version} sets health up once per key, and the second listener on ${HEALTH_DEFAULT_ADDRESS} would stop it`,
  );
  return true;
}

function toDirective(source: DefaultDirective): Directive {
  const block = source.block === undefined ? {} : { block: { directives: source.block.map(toDirective) } };
  return { name: source.name, arguments: source.args, ...block };
}

/**
 * The directives every stub block has, shared by all of them: models are read-only (the parser
 * shares its frozen one-word and empty lists the same way), and for a large translation these
 * were a third of the model's objects.
 */
const STUB_ERRORS: Directive = Object.freeze({ name: 'errors', arguments: Object.freeze([]) });
const STUB_CACHE: Directive = Object.freeze({ name: 'cache', arguments: Object.freeze(['30']) });
/**
 * `cache 30 { OPTION }` for kube-dns's dnsmasq with --no-negcache, OPTION from the rule of
 * src/coredns ({@link noDenialCaching}: `disable denial`, or `denial 9984 1` before it exists).
 * One frozen directive per answer of the rule.
 */
const CACHE_WITHOUT_DENIAL = new Map<NoDenialCaching, Directive>();

function cacheWithoutDenial(features: CoreDnsFeatures): Directive {
  const rule = noDenialCaching(features);
  let directive = CACHE_WITHOUT_DENIAL.get(rule);
  if (directive === undefined) {
    directive = Object.freeze({
      name: 'cache',
      arguments: Object.freeze(['30']),
      block: Object.freeze({ directives: Object.freeze([Object.freeze({ name: rule.name, arguments: rule.arguments })]) }),
    });
    CACHE_WITHOUT_DENIAL.set(rule, directive);
  }
  return directive;
}
const LOG: Directive = Object.freeze({ name: 'log', arguments: Object.freeze([]) });

/** The cache and log directives of every block, decided once per translation. */
function sharedDirectives(context: Context): { readonly cache: Directive | undefined; readonly log: Directive | undefined } {
  const { plan } = context;
  const cache = plan.noCache ? undefined : !plan.noNegativeCache ? STUB_CACHE : cacheWithoutDenial(context.features);
  return { cache, log: plan.logQueries ? LOG : undefined };
}

function stubDirectives(shared: { readonly cache: Directive | undefined; readonly log: Directive | undefined }, forward: Directive, loop: boolean): Directive[] {
  const directives: Directive[] = [STUB_ERRORS];
  if (shared.log !== undefined) directives.push(shared.log);
  if (shared.cache !== undefined) directives.push(shared.cache);
  if (loop) directives.push(STUB_LOOP);
  directives.push(forward);
  return directives;
}

/** `policy sequential` (--strict-order) and `max_concurrent N` (--dns-forward-max) on a forward. */
function withForwardOptions(forward: Directive, plan: DeploymentPlan): Directive {
  if (forward.name !== 'forward' || (!plan.strictOrder && plan.maxConcurrent === undefined)) return forward;
  const existing = (forward.block?.directives ?? []).filter((entry) => !(entry.name === 'max_concurrent' && plan.maxConcurrent !== undefined));
  const added: Directive[] = [];
  if (plan.maxConcurrent !== undefined) added.push({ name: 'max_concurrent', arguments: [String(plan.maxConcurrent)] });
  if (plan.strictOrder) added.push({ name: 'policy', arguments: ['sequential'] });
  return { ...forward, block: { directives: [...existing, ...added] } };
}

/** The ConfigMap's stub domains with the Deployment's `--server=/zone/…` servers added (dnsmasq used both). */
/** Stub domains only the Deployment's dnsmasq flags name: their diagnostics point at the container, not at stubDomains. */
const FROM_DEPLOYMENT = new WeakSet<object>();

function withDeploymentStubs(config: KubeDnsConfig, plan: DeploymentPlan): KubeDnsConfig {
  if (plan.stubs.size === 0) return config;
  const remaining = new Map(plan.stubs);
  const entry = (server: DeploymentServer, prefix: string): ValueEntry => ({ value: server.target, path: `${prefix} (${server.text})`, offset: 0 });
  const stubDomains = config.stubDomains.map((stub) => {
    const zone = stub.domain.toLowerCase().replace(/\.$/, '');
    const servers = remaining.get(zone);
    if (servers === undefined) return stub;
    remaining.delete(zone);
    // dnsmasq tries the servers of one domain in the order given (the nanny appends the ConfigMap's): the manifest's first.
    const added = servers.map((server) => entry(server, stub.path));
    const known = new Set(servers.map((server) => server.target));
    return { ...stub, nameservers: [...added, ...stub.nameservers.filter((nameserver) => !known.has(nameserver.value))] };
  });
  for (const [zone, servers] of remaining) {
    const stub = { domain: zone, path: `[${servers.map((server) => server.text).join(' ')}]`, offset: 0, nameservers: servers.map((server, index) => entry(server, `[${JSON.stringify(zone)}][${index}]`)) };
    FROM_DEPLOYMENT.add(stub);
    stubDomains.push(stub);
  }
  return { ...config, stubDomains };
}

/** The ConfigMap's upstreams with the Deployment's `--no-resolv` servers added (the nanny appends the ConfigMap's to the manifest's). */
function withDeploymentUpstreams(nameservers: readonly ValueEntry[] | undefined, plan: DeploymentPlan): readonly ValueEntry[] | undefined {
  if (plan.upstreams === undefined) return nameservers;
  const known = new Set((nameservers ?? []).map((nameserver) => nameserver.value));
  const added = plan.upstreams.filter((server) => !known.has(server.target)).map((server, index) => ({ value: server.target, path: `[${index}] (${server.text})`, offset: 0 }));
  return [...added, ...(nameservers ?? [])];
}

/**
 * One block per `--address=/zone/[ip]` (and `--server=/zone/`): a template answering the address,
 * or NXDOMAIN, as dnsmasq did. An address replaces the stub block of the same zone (dnsmasq
 * answered before forwarding); NXDOMAIN gives way to it (dnsmasq forwarded).
 */
/** A template block for a dnsmasq `--address`/`--local` zone, with the flag as written. */
interface PlannedTemplate {
  readonly zone: string;
  readonly text: string;
  readonly block: ServerBlock;
}

function planTemplates(plan: DeploymentPlan, stubs: readonly PlannedStub[], context: Context): { templates: PlannedTemplate[]; replacedZones: Set<string> } {
  const blocks: PlannedTemplate[] = [];
  const replacedZones = new Set<string>();
  const stubZones = new Set(stubs.map((stub) => stub.zone));
  const taken = new Set([context.clusterDomain, ...KUBERNETES_DEFAULT_REVERSE_ZONES]);
  for (const entry of plan.addresses) {
    const normalized = normalizeZone(entry.zone);
    const where = `[${entry.text}]`;
    if ('problem' in normalized || taken.has(normalized.zone) || isWithin(normalized.zone, context.clusterDomain)) {
      report(context, 'deployment-flag-not-translated', 'container dnsmasq', where, `${entry.text}: '${entry.zone}' is ${'problem' in normalized ? 'not a zone CoreDNS serves' : 'served by the kubernetes plugin or another template'}; not translated`);
      continue;
    }
    if (stubZones.has(normalized.zone)) {
      if (entry.address === undefined) {
        report(context, 'deployment-flag', 'container dnsmasq', where, `dnsmasq forwarded '${normalized.zone}' to its servers all the same: the stub block stays`);
        continue;
      }
      replacedZones.add(normalized.zone);
      report(context, 'deployment-flag', 'container dnsmasq', where, `dnsmasq answered '${normalized.zone}' with ${entry.address} and never used its servers: the template replaces the stub block`);
    }
    taken.add(normalized.zone);
    const answer = entry.address === undefined ? 'NXDOMAIN' : `with ${entry.address}`;
    report(context, 'dnsmasq-option-translated', 'container dnsmasq', where, `${normalized.zone} answered ${answer} by a template block${entry.localOnly === true ? ' (dnsmasq answers from local data only)' : ''}`);
    const type = entry.address === undefined ? undefined : entry.address.includes(':') ? 'AAAA' : 'A';
    const directives: Directive[] =
      entry.address === undefined || type === undefined
        ? [{ name: 'template', arguments: ['ANY', 'ANY'], block: { directives: [{ name: 'rcode', arguments: ['NXDOMAIN'] }] } }]
        : [
            { name: 'template', arguments: ['IN', type], block: { directives: [{ name: 'answer', arguments: [`{{ .Name }} 0 IN ${type} ${entry.address}`] }] } },
            { name: 'template', arguments: ['ANY', 'ANY'], block: { directives: [{ name: 'rcode', arguments: ['NOERROR'] }] } },
          ];
    blocks.push({ zone: normalized.zone, text: entry.text, block: { kind: 'server-block', keys: [`${normalized.zone}:${DNS_PORT}`], directives: [STUB_ERRORS, ...directives] } });
  }
  // Deterministic whatever the order of the flags.
  blocks.sort((a, b) => (a.zone < b.zone ? -1 : a.zone > b.zone ? 1 : 0));
  return { templates: blocks, replacedZones };
}
const STUB_LOOP: Directive = Object.freeze({ name: 'loop', arguments: Object.freeze([]) });

function buildCorefile(
  mainKeys: readonly string[],
  splitMainBlock: boolean,
  upstreams: readonly string[],
  federation: Directive | undefined,
  stubs: readonly PlannedStub[],
  templates: readonly PlannedTemplate[],
  context: Context,
): Corefile {
  const { features } = context;
  const main = kubernetesDefaultMainBlock(features.version, { clusterDomain: context.clusterDomain, upstreams, forwarder: features.preferredForwarder });
  const shared = sharedDirectives(context);
  const directives = main.directives.flatMap((entry) => {
    const converted = toDirective(entry);
    if (entry.name === 'cache') return shared.cache === undefined ? [] : [shared.cache];
    if (entry.name === features.preferredForwarder) return [withForwardOptions(converted, context.plan)];
    if (entry.name === 'errors' && shared.log !== undefined) return [converted, shared.log];
    return entry.name === 'kubernetes' && federation !== undefined ? [converted, federation] : [converted];
  });
  const mainBlocks: ServerBlock[] = splitMainBlock
    ? [
        { kind: 'server-block', keys: mainKeys.slice(0, 1), directives },
        { kind: 'server-block', keys: mainKeys.slice(1), directives: directives.filter((directive) => directive.name !== 'health') },
      ]
    : [{ kind: 'server-block', keys: mainKeys, directives }];
  // Lists are built at their final length: a list grown by push reserves many more slots, and
  // every block of a large translation stays alive to the end.
  const first = mainBlocks.length;
  const items = new Array<ServerBlock>(stubs.length + first + templates.length);
  for (let index = 0; index < first; index += 1) items[index] = mainBlocks[index] as ServerBlock;
  for (let index = 0; index < stubs.length; index += 1) {
    const { zone, targets } = stubs[index] as PlannedStub;
    const destinations = new Array<string>(targets.length + 1);
    destinations[0] = '.';
    for (let target = 0; target < targets.length; target += 1) destinations[target + 1] = (targets[target] as ForwardTarget).text;
    const forward: Directive = withForwardOptions({ name: features.preferredForwarder, arguments: destinations }, context.plan);
    items[index + first] = { kind: 'server-block', keys: [`${zone}:${DNS_PORT}`], directives: stubDirectives(shared, forward, features.loop) };
  }
  for (let index = 0; index < templates.length; index += 1) items[index + first + stubs.length] = (templates[index] as PlannedTemplate).block;
  return { items };
}

/** Whether a diagnostic reported after the first `reportedBefore` is an error (looking only at those). */
function hasErrorSince(context: Context, reportedBefore: number): boolean {
  const { diagnostics } = context;
  for (let index = reportedBefore; index < diagnostics.length; index += 1) if ((diagnostics[index] as Diagnostic).severity === 'error') return true;
  return false;
}

function report(context: Context, code: Parameters<typeof diagnostic>[0], key: string, path: string, message: string): void {
  context.diagnostics.push(diagnostic(code, { key, path, message }));
}
