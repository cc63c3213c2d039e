/**
 * Whether a plugin or a plugin option is usable in a CoreDNS release.
 *
 * Plugins and options (sub-directives of a plugin block) have hand-written timelines. Evidence:
 * "§N" is section N of docs/reference/kube-dns-and-coredns.md; the other keys are those of
 * versions.ts.
 *
 * Pure data and functions: no Node APIs.
 */
import { isCoreDnsVersionAtLeast, OLDEST_COREDNS_VERSION, parseCoreDnsVersion } from './versions.js';
import type { CoreDnsVersion } from './versions.js';

/**
 * How a plugin or option stands in one release.
 * - `available` / `deprecated`: usable (a deprecated one still works, but is announced to go);
 * - `not-yet-added`: it appears in a later release (`since`);
 * - `removed`: a Corefile using it fails to load from `removedIn` on;
 * - `unknown`: no facts are recorded for this name, or not for releases this old.
 */
export type AvailabilityStatus = 'available' | 'deprecated' | 'not-yet-added' | 'removed' | 'unknown';

export interface Availability {
  readonly status: AvailabilityStatus;
  /** First release with it (omitted when unknown). For `unknown` on an old release: where it is confirmed from. */
  readonly since?: CoreDnsVersion;
  readonly deprecatedIn?: CoreDnsVersion;
  readonly removedIn?: CoreDnsVersion;
  /** What to use instead once deprecated or removed. */
  readonly replacement?: string;
  /** Set when, in this release, the default build compiles the plugin in from this external module. */
  readonly externalModule?: string;
  /** A limitation of this release worth telling a user (arguments ignored, not verified, …). */
  readonly caveat?: string;
  /** Where the facts come from (see the module comment of versions.ts for the keys). */
  readonly evidence: string;
}

/** Whether the plugin/option loads in that release (`available` or `deprecated`). */
export function isUsable(availability: Availability): boolean {
  return availability.status === 'available' || availability.status === 'deprecated';
}

interface CaveatRange {
  readonly from: CoreDnsVersion;
  readonly to: CoreDnsVersion;
  readonly caveat: string;
}

const atLeast = isCoreDnsVersionAtLeast;

function inRange(version: CoreDnsVersion, range: { readonly from: CoreDnsVersion; readonly to: CoreDnsVersion }): boolean {
  return atLeast(version, range.from) && atLeast(range.to, version);
}

// ---------------------------------------------------------------------------------------------
// Plugins
// ---------------------------------------------------------------------------------------------

interface ExternalRange {
  readonly from: CoreDnsVersion;
  readonly to: CoreDnsVersion;
  readonly module: string;
  readonly caveat?: string;
}

interface Timeline {
  /** First release with it in the default build. */
  readonly since: CoreDnsVersion;
  /** `since` is only where it is confirmed from: older releases answer `unknown`, not `not-yet-added`. */
  readonly confirmedFrom?: true;
  readonly deprecatedIn?: CoreDnsVersion;
  readonly removedIn?: CoreDnsVersion;
  readonly replacement?: string;
  readonly external?: ExternalRange;
  readonly caveats?: readonly CaveatRange[];
  readonly evidence: string;
}

const PRE_1_0 = 'predates 1.0.0 (middleware/';

/**
 * Plugins with version facts. Only names listed here get an answer other than `unknown`; the
 * list covers what Kubernetes Corefiles use plus a few plugins with crisp release-note facts.
 */
const PLUGINS: Readonly<Record<string, Timeline>> = {
  errors: {
    since: '1.0.0',
    evidence: 'in the pre-1.0 coredns/deployment Kubernetes template (realworld/corefiles/02, `log stdout` era) and every kubeadm default (kubeadm-translation §7)',
  },
  health: { since: '1.0.0', evidence: 'notes 1.0.0; pre-1.0 coredns/deployment template (realworld/corefiles/02)' },
  log: { since: '1.0.0', evidence: 'notes 1.0.0 (log stops accepting `stdout`); realworld/corefiles/02' },
  kubernetes: { since: '1.0.0', evidence: 'notes 1.0.0; realworld/corefiles/02' },
  prometheus: { since: '1.0.0', evidence: 'notes 1.0.0 (metrics); `prometheus :9153` in the kubeadm default of CoreDNS 1.0.6' },
  cache: { since: '1.0.0', evidence: `${PRE_1_0}cache); realworld/corefiles/02` },
  proxy: {
    since: '1.0.0',
    deprecatedIn: '1.4.0',
    removedIn: '1.5.0',
    replacement: 'forward',
    evidence: '§2.1, §2.2; notes 1.4.0 (to move to an external repository), 1.5.0 (fully deprecated: "Unknown directive")',
  },
  forward: {
    since: '1.0.5',
    external: {
      from: '1.0.5',
      to: '1.0.5',
      module: 'github.com/coredns/forward',
      caveat: 'plugin.cfg lists it as an external module; whether the released 1.0.5 binary contained it was not checked (§2.1)',
    },
    evidence: '§2.1, §2.3; notes 1.0.5 ("An external plugin forward was added"), 1.0.6 ("has been included in CoreDNS")',
  },
  federation: {
    since: '1.0.0',
    removedIn: '1.7.0',
    external: {
      from: '1.6.3',
      to: '1.6.9',
      module: 'github.com/coredns/federation',
      caveat: 'built from the external repository but still in the default build; its removal in 1.7.0 was announced (notes 1.6.8)',
    },
    evidence: `§2.1, §2.5; ${PRE_1_0}federation); notes 1.7.0 ("The federation plugin … has been removed"); kubernetes/kubernetes#95161`,
  },
  ready: { since: '1.5.0', evidence: '§2.1; CM adds it as a new default at 1.5.0' },
  loop: { since: '1.2.1', evidence: '§2.1, §2.6; CM adds it as a new default at 1.2.1' },
  reload: { since: '1.1.0', evidence: 'notes 1.1.0 ("A new plugin was added: reload")' },
  loadbalance: { since: '1.0.0', evidence: `${PRE_1_0}loadbalance); kubeadm default since Kubernetes 1.12` },
  hosts: { since: '1.0.0', evidence: `${PRE_1_0}hosts); CM plugin lists from 1.1.4` },
  rewrite: { since: '1.0.0', evidence: `${PRE_1_0}rewrite); notes 1.0.2` },
  autopath: { since: '1.0.0', evidence: `notes 1.0.0; ${PRE_1_0}autopath)` },
  template: { since: '1.0.3', evidence: 'notes 1.0.3 ("A new plugin *template* was added")' },
  bind: {
    since: '1.0.5',
    confirmedFrom: true,
    evidence: 'notes 1.0.6 extends the existing *bind* (multiple addresses) and 1.1.0; older releases not checked',
  },
  nsid: { since: '1.0.1', evidence: 'notes 1.0.1 ("One new plugin was added: nsid")' },
  route53: { since: '1.0.5', evidence: 'notes 1.0.5 ("A new plugin *route53* was added")' },
  startup: {
    since: '1.0.6',
    confirmedFrom: true,
    deprecatedIn: '1.0.6',
    removedIn: '1.1.0',
    replacement: 'on',
    evidence: 'notes 1.0.6 (deprecated, "but working and included"), 1.1.0 (removed)',
  },
  shutdown: {
    since: '1.0.6',
    confirmedFrom: true,
    deprecatedIn: '1.0.6',
    removedIn: '1.1.0',
    replacement: 'on',
    evidence: 'notes 1.0.6 (deprecated, "but working and included"), 1.1.0 (removed)',
  },
  k8s_external: {
    since: '1.3.0',
    evidence: 'added as a new plugin by coredns/coredns#2379 (Dec 2018); kubernetes/kubernetes#73610 (CoreDNS 1.3.1 notes); CM lists it from 1.3.0',
  },
  transfer: {
    since: '1.8.0',
    confirmedFrom: true,
    evidence: 'notes 1.8.0 (transfer "made a first class citizen", the kubernetes `transfer` option moves to it); CM lists it from 1.8.0; older releases not checked',
  },
  file: { since: '1.0.0', evidence: `${PRE_1_0}file); notes 1.0.1` },
  auto: { since: '1.0.0', evidence: `${PRE_1_0}auto)` },
  etcd: { since: '1.0.0', evidence: `${PRE_1_0}etcd)` },
  dnssec: { since: '1.0.0', evidence: `${PRE_1_0}dnssec)` },
  chaos: { since: '1.0.0', evidence: `${PRE_1_0}chaos)` },
  erratic: { since: '1.0.0', evidence: `${PRE_1_0}erratic)` },
  dnstap: { since: '1.0.0', evidence: 'notes 1.0.0 (dnstap fix), 1.0.1' },
  pprof: { since: '1.0.0', evidence: `${PRE_1_0}pprof); plugin/pprof/setup.go read at v1.0.0, v1.2.6, v1.6.5, v1.6.6` },
};

function pluginAvailability(timeline: Timeline, version: CoreDnsVersion): Availability {
  const evidence = timeline.evidence;
  if (!atLeast(version, timeline.since)) {
    if (timeline.confirmedFrom === true) {
      return { status: 'unknown', since: timeline.since, caveat: `confirmed from ${timeline.since} on; older releases were not checked`, evidence };
    }
    return { status: 'not-yet-added', since: timeline.since, evidence };
  }
  if (timeline.removedIn !== undefined && atLeast(version, timeline.removedIn)) {
    const removed: Availability = { status: 'removed', since: timeline.since, removedIn: timeline.removedIn, evidence };
    return timeline.replacement === undefined ? removed : { ...removed, replacement: timeline.replacement };
  }
  let result: Availability = { status: 'available', since: timeline.since, evidence };
  if (timeline.deprecatedIn !== undefined && atLeast(version, timeline.deprecatedIn)) {
    result = { ...result, status: 'deprecated', deprecatedIn: timeline.deprecatedIn };
    if (timeline.replacement !== undefined) result = { ...result, replacement: timeline.replacement };
  }
  if (timeline.removedIn !== undefined) result = { ...result, removedIn: timeline.removedIn };
  const external = timeline.external;
  if (external !== undefined && atLeast(version, external.from) && atLeast(external.to, version)) {
    result = { ...result, externalModule: external.module };
    if (external.caveat !== undefined) result = { ...result, caveat: external.caveat };
  }
  for (const range of timeline.caveats ?? []) {
    if (atLeast(version, range.from) && atLeast(range.to, version)) result = { ...result, caveat: range.caveat };
  }
  return result;
}

const NO_FACTS = 'no version facts are recorded for this name';

/**
 * Whether `plugin` (a Corefile directive name, case-sensitive) is in the default build of
 * `version`. Names without recorded facts (third-party plugins, typos, and CoreDNS plugins this
 * package does not track) answer `unknown` rather than a guess.
 *
 * @throws {UnknownCoreDnsVersionError} when `version` is not a known release.
 */
export function coreDnsPluginAvailability(plugin: string, version: string): Availability {
  const parsed = parseCoreDnsVersion(version);
  const timeline = Object.hasOwn(PLUGINS, plugin) ? PLUGINS[plugin] : undefined;
  if (timeline === undefined) return { status: 'unknown', evidence: NO_FACTS };
  return pluginAvailability(timeline, parsed);
}

/** Plugin names {@link coreDnsPluginAvailability} has facts for. */
export const COREDNS_PLUGINS_WITH_FACTS: readonly string[] = Object.freeze(Object.keys(PLUGINS).sort());

// ---------------------------------------------------------------------------------------------
// Options
// ---------------------------------------------------------------------------------------------

interface OptionTimeline {
  /** First release that accepts it. */
  readonly since: CoreDnsVersion;
  /** `since` is only where it is confirmed from: older releases answer `unknown`, not `not-yet-added`. */
  readonly confirmedFrom?: true;
  readonly deprecatedIn?: CoreDnsVersion;
  readonly removedIn?: CoreDnsVersion;
  readonly replacement?: string;
  readonly caveats?: readonly CaveatRange[];
  readonly evidence: string;
}

/** Options (sub-directives) with version facts, keyed `plugin option`. */
const OPTIONS: Readonly<Record<string, OptionTimeline>> = {
  'health lameduck': { since: '1.0.5', evidence: 'notes 1.0.5 ("health has gotten a lameduck option")' },
  'kubernetes pods': { since: '1.0.0', evidence: 'notes 1.0.0 (`pods verified` mode); every kubeadm default (`pods insecure`)' },
  'kubernetes ttl': { since: '1.0.0', evidence: 'coredns/coredns#995 (Aug 2017, before 1.0.0); CM default for 1.3.1 (corefile-migration#19)' },
  'kubernetes fallthrough': {
    since: '1.0.0',
    caveats: [{ from: '1.0.0', to: '1.0.2', caveat: 'takes no zones before 1.0.3: a bare `fallthrough` falls through for every zone of the plugin' }],
    evidence: 'notes 1.0.3 ("The fallthrough directive was overhauled and now allows a list of zones")',
  },
  'kubernetes transfer': {
    since: '1.0.6',
    confirmedFrom: true,
    removedIn: '1.8.0',
    replacement: 'the transfer plugin',
    evidence: 'notes 1.0.6 (zone transfers in the kubernetes plugin), 1.8.0 (moved to the transfer plugin); CM removes the option at 1.8.0',
  },
  'forward max_concurrent': {
    since: '1.6.8',
    evidence: 'notes 1.6.8 and 1.6.9 ("plugin/forward: Add max_concurrent option", coredns/coredns#3640; 1.6.9 is identical to 1.6.8); §2.3',
  },
  'forward resolver': { since: '1.14.4', evidence: '§2.3 (hostname TOs and the `resolver` option, `ce0e5a6f3`)' },
};

function optionAvailability(timeline: OptionTimeline, version: CoreDnsVersion): Availability {
  const evidence = timeline.evidence;
  if (!atLeast(version, timeline.since)) {
    if (timeline.confirmedFrom === true) {
      return { status: 'unknown', since: timeline.since, caveat: `confirmed from ${timeline.since} on; older releases were not checked`, evidence };
    }
    return { status: 'not-yet-added', since: timeline.since, evidence };
  }
  if (timeline.removedIn !== undefined && atLeast(version, timeline.removedIn)) {
    const removed: Availability = { status: 'removed', since: timeline.since, removedIn: timeline.removedIn, evidence };
    return timeline.replacement === undefined ? removed : { ...removed, replacement: timeline.replacement };
  }
  let result: Availability = { status: 'available', since: timeline.since, evidence };
  if (timeline.deprecatedIn !== undefined && atLeast(version, timeline.deprecatedIn)) {
    result = { ...result, status: 'deprecated', deprecatedIn: timeline.deprecatedIn };
    if (timeline.replacement !== undefined) result = { ...result, replacement: timeline.replacement };
  }
  if (timeline.removedIn !== undefined) result = { ...result, removedIn: timeline.removedIn };
  for (const range of timeline.caveats ?? []) {
    if (inRange(version, range)) result = { ...result, caveat: range.caveat };
  }
  return result;
}

/**
 * The kubernetes plugin's `upstream` option (resolving ExternalName CNAME targets):
 * - `addresses-required` (1.0.0–1.0.5): `upstream ADDRESS…`; a bare `upstream` is an argument error;
 * - `addresses-optional` (1.0.6–1.3.1): addresses optional, bare = resolve through CoreDNS itself;
 * - `arguments-ignored` (1.4.0–1.5.1): deprecated; arguments ignored, presence enables self-resolution;
 * - `no-op` (1.5.2–1.6.9): accepted and ignored, self-resolution is always on;
 * - `removed` (1.7.0+): `unknown property 'upstream'`, CoreDNS does not start.
 */
export type KubernetesUpstreamSupport = 'addresses-required' | 'addresses-optional' | 'arguments-ignored' | 'no-op' | 'removed';

export function kubernetesUpstreamSupport(version: CoreDnsVersion): KubernetesUpstreamSupport {
  if (atLeast(version, '1.7.0')) return 'removed';
  if (atLeast(version, '1.5.2')) return 'no-op';
  if (atLeast(version, '1.4.0')) return 'arguments-ignored';
  if (atLeast(version, '1.0.6')) return 'addresses-optional';
  return 'addresses-required';
}

const UPSTREAM_EVIDENCE = '§2.1, §2.4 (plugin/kubernetes/setup.go at v1.2.6/v1.3.1/v1.4.0/v1.5.2/v1.6.0/v1.7.0); notes 1.7.0; CM';

function kubernetesUpstreamAvailability(version: CoreDnsVersion): Availability {
  const support = kubernetesUpstreamSupport(version);
  const base = { since: OLDEST_COREDNS_VERSION, removedIn: '1.7.0', evidence: UPSTREAM_EVIDENCE } as const;
  switch (support) {
    case 'addresses-required':
      return { ...base, status: 'available', caveat: 'needs at least one address before 1.0.6; a bare `upstream` is an argument error' };
    case 'addresses-optional':
      return { ...base, status: 'available' };
    case 'arguments-ignored':
      return { ...base, status: 'deprecated', deprecatedIn: '1.4.0', caveat: 'arguments are ignored; its presence still enables resolving ExternalName targets through CoreDNS itself' };
    case 'no-op':
      return { ...base, status: 'deprecated', deprecatedIn: '1.4.0', caveat: 'accepted but has no effect: CoreDNS always resolves ExternalName targets itself' };
    case 'removed':
      return { status: 'removed', since: OLDEST_COREDNS_VERSION, removedIn: '1.7.0', evidence: UPSTREAM_EVIDENCE };
  }
}

/**
 * Whether `option` is accepted inside a `plugin { … }` block of `version`. Covers the options of
 * the Kubernetes defaults and the ones with version facts (`kubernetes upstream` follows
 * {@link kubernetesUpstreamSupport}); others answer `unknown`.
 *
 * @throws {UnknownCoreDnsVersionError} when `version` is not a known release.
 */
export function coreDnsOptionAvailability(plugin: string, option: string, version: string): Availability {
  const parsed = parseCoreDnsVersion(version);
  if (plugin === 'kubernetes' && option === 'upstream') return kubernetesUpstreamAvailability(parsed);
  const key = `${plugin} ${option}`;
  const timeline = Object.hasOwn(OPTIONS, key) ? OPTIONS[key] : undefined;
  if (timeline === undefined) return { status: 'unknown', evidence: NO_FACTS };
  return optionAvailability(timeline, parsed);
}

/** `plugin option` pairs {@link coreDnsOptionAvailability} has facts for. */
export const COREDNS_OPTIONS_WITH_FACTS: readonly string[] = Object.freeze([...Object.keys(OPTIONS), 'kubernetes upstream'].sort());
