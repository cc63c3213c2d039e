/**
 * Whether a plugin or a plugin option is usable in a CoreDNS release.
 *
 * Plugins: whether a release's default build has a plugin is read from its plugin.cfg
 * (plugin-cfg.ts, the one table of plugins per release): the first release that compiles it in,
 * the release where it left (gone, or kept as a `deprecated` placeholder that does not load) and
 * the external module it is built from. This module adds only what plugin.cfg cannot say:
 * deprecation announcements, replacements, caveats and the evidence behind them.
 *
 * Options (sub-directives of a plugin block): their timelines are read from the table of plugin
 * arguments and options per release (plugin-syntax.ts); plugin.cfg knows nothing of them.
 * Evidence: "§N" is section N of docs/reference/kube-dns-and-coredns.md; the other keys are those
 * of versions.ts.
 *
 * Pure data and functions: no Node APIs.
 */
import { checkArgument } from '../errors/arguments.js';
import { compiledPlugin, pluginHistory } from './plugin-cfg.js';
import { optionArgumentsAt, optionSyntax, optionsWithSyntax, pluginSyntax } from './plugin-syntax.js';
import type { PluginHistory } from './plugin-cfg.js';
import type { ArgumentShape, Era } from './plugin-syntax.js';
import { COREDNS_RELEASE_SPAN, isCoreDnsVersionAtLeast, NEWEST_COREDNS_VERSION, OLDEST_COREDNS_VERSION, parseCoreDnsVersion } from './versions.js';
import type { CoreDnsVersion } from './versions.js';

/**
 * How a plugin or option stands in one release.
 * - `available` / `deprecated`: usable (a deprecated one still works, but is announced to go);
 * - `not-yet-added`: it appears in a later release (`since`);
 * - `removed`: a Corefile using it fails to load from `removedIn` on;
 * - `unknown`: no facts are recorded for this name (for a plugin: no release's default build has
 *   it, so it is a third-party plugin or a typo), or not for releases this old.
 */
export type AvailabilityStatus = 'available' | 'deprecated' | 'not-yet-added' | 'removed' | 'unknown';

export interface Availability {
  readonly status: AvailabilityStatus;
  /** First release with it (omitted when unknown). For `unknown` on an old release: where it is confirmed from. */
  readonly since?: CoreDnsVersion;
  readonly deprecatedIn?: CoreDnsVersion;
  /** First release without it (for a plugin: gone from plugin.cfg, or kept there only as a placeholder). */
  readonly removedIn?: CoreDnsVersion;
  /** What to use instead once deprecated or removed. */
  readonly replacement?: string;
  /** Set when, in this release, the default build compiles the plugin in from this external module. */
  readonly externalModule?: string;
  /**
   * Set on a `removed` plugin whose name this release's plugin.cfg still keeps, marked
   * `deprecated`: the directive is known, but its setup fails ("plugin/NAME: this plugin has been
   * deprecated") instead of "Unknown directive".
   */
  readonly placeholder?: true;
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

/** What the release notes add to a plugin's plugin.cfg history. */
interface PluginNotes {
  readonly deprecatedIn?: CoreDnsVersion;
  readonly replacement?: string;
  readonly caveats?: readonly CaveatRange[];
  /** Sources beyond plugin.cfg that agree with its history or say more. */
  readonly evidence?: string;
}

const PRE_1_0 = 'predates 1.0.0 (middleware/';

const PLUGIN_CFG_EVIDENCE = 'plugin.cfg at every release tag (docs/coredns-versions.md, "Plugins of each release")';

/**
 * Release-note facts about plugins that plugin.cfg does not carry. Every plugin of every release's
 * default build has an answer whether or not it is listed here.
 */
const PLUGIN_NOTES: Readonly<Record<string, PluginNotes>> = {
  errors: { evidence: 'in the pre-1.0 coredns/deployment Kubernetes template (realworld/corefiles/02, `log stdout` era) and every kubeadm default (kubeadm-translation §7)' },
  health: { evidence: 'notes 1.0.0; pre-1.0 coredns/deployment template (realworld/corefiles/02)' },
  log: { evidence: 'notes 1.0.0 (log stops accepting `stdout`); realworld/corefiles/02' },
  kubernetes: { evidence: 'notes 1.0.0; realworld/corefiles/02' },
  prometheus: { evidence: 'notes 1.0.0 (metrics); `prometheus :9153` in the kubeadm default of CoreDNS 1.0.6' },
  cache: { evidence: `${PRE_1_0}cache); realworld/corefiles/02` },
  proxy: {
    deprecatedIn: '1.4.0',
    replacement: 'forward',
    evidence: '§2.1, §2.2; notes 1.4.0 (to move to an external repository), 1.5.0 (fully deprecated: "Unknown directive")',
  },
  forward: {
    caveats: [
      {
        from: '1.0.5',
        to: '1.0.5',
        caveat: 'plugin.cfg lists it as an external module; whether the released 1.0.5 binary contained it was not checked (§2.1)',
      },
    ],
    evidence: '§2.1, §2.3; notes 1.0.5 ("An external plugin forward was added"), 1.0.6 ("has been included in CoreDNS")',
  },
  federation: {
    caveats: [
      {
        from: '1.6.3',
        to: '1.6.9',
        caveat: 'built from the external repository but still in the default build; its removal in 1.7.0 was announced (notes 1.6.8)',
      },
    ],
    evidence: `§2.1, §2.5; ${PRE_1_0}federation); notes 1.7.0 ("The federation plugin … has been removed"); kubernetes/kubernetes#95161`,
  },
  ready: { evidence: '§2.1; CM adds it as a new default at 1.5.0' },
  loop: { evidence: '§2.1, §2.6; CM adds it as a new default at 1.2.1' },
  reload: { evidence: 'notes 1.1.0 ("A new plugin was added: reload")' },
  loadbalance: { evidence: `${PRE_1_0}loadbalance); kubeadm default since Kubernetes 1.12` },
  hosts: { evidence: `${PRE_1_0}hosts); CM plugin lists from 1.1.4` },
  rewrite: { evidence: `${PRE_1_0}rewrite); notes 1.0.2` },
  autopath: { evidence: `notes 1.0.0; ${PRE_1_0}autopath)` },
  template: { evidence: 'notes 1.0.3 ("A new plugin *template* was added")' },
  bind: { evidence: 'notes 1.0.6 and 1.1.0 extend it (several addresses)' },
  nsid: { evidence: 'notes 1.0.1 ("One new plugin was added: nsid")' },
  route53: { evidence: 'notes 1.0.5 ("A new plugin *route53* was added")' },
  startup: {
    deprecatedIn: '1.0.6',
    replacement: 'on',
    evidence: 'notes 1.0.6 (deprecated, "but working and included"), 1.1.0 (removed)',
  },
  shutdown: {
    deprecatedIn: '1.0.6',
    replacement: 'on',
    evidence: 'notes 1.0.6 (deprecated, "but working and included"), 1.1.0 (removed)',
  },
  k8s_external: {
    evidence: 'added as a new plugin by coredns/coredns#2379 (Dec 2018); kubernetes/kubernetes#73610 (CoreDNS 1.3.1 notes); CM lists it from 1.3.0',
  },
  transfer: {
    evidence: 'notes 1.8.0 (transfer "made a first class citizen", the kubernetes `transfer` option moves to it); CM lists it from 1.8.0',
  },
  file: { evidence: `${PRE_1_0}file); notes 1.0.1` },
  auto: { evidence: `${PRE_1_0}auto)` },
  etcd: { evidence: `${PRE_1_0}etcd)` },
  dnssec: { evidence: `${PRE_1_0}dnssec)` },
  chaos: { evidence: `${PRE_1_0}chaos)` },
  erratic: { evidence: `${PRE_1_0}erratic)` },
  dnstap: { evidence: 'notes 1.0.0 (dnstap fix), 1.0.1' },
  pprof: { evidence: `${PRE_1_0}pprof); plugin/pprof/setup.go read at v1.0.0, v1.2.6, v1.6.5, v1.6.6` },
};

/** The release the release notes announce `plugin` deprecated in (undefined: never, or no notes). */
export function pluginDeprecatedIn(plugin: string): CoreDnsVersion | undefined {
  return Object.hasOwn(PLUGIN_NOTES, plugin) ? PLUGIN_NOTES[plugin]?.deprecatedIn : undefined;
}

const NO_FACTS = 'no version facts are recorded for this name';
const NO_OPTION = `no release from ${COREDNS_RELEASE_SPAN} has an option of this name in`;
const NO_RELEASE = `no CoreDNS release from ${COREDNS_RELEASE_SPAN} has a plugin of this name in its default build (plugin.cfg at every release tag)`;

/** The histories of the plugin names some release has, each worked out on first use (not at load). */
const HISTORIES = new Map<string, PluginHistory>();

function historyOf(name: string): PluginHistory | undefined {
  let history = HISTORIES.get(name);
  if (history === undefined) {
    history = pluginHistory(name);
    // A name no release has is not kept (the map stays bounded by the table).
    if (history.firstRelease === undefined) return undefined;
    HISTORIES.set(name, history);
  }
  return history;
}

/**
 * Whether `plugin` (a Corefile directive name, case-sensitive) is in the default build of
 * `version`, from the plugin.cfg of every release. A name no release's default build has (a
 * third-party plugin, a typo) answers `unknown`.
 *
 * @throws {UnknownCoreDnsVersionError} when `version` is not a known release.
 */
export function coreDnsPluginAvailability(plugin: string, version: string): Availability {
  checkArgument('coreDnsPluginAvailability', 'plugin', plugin, 'string');
  checkArgument('coreDnsPluginAvailability', 'version', version, 'string');
  const parsed = parseCoreDnsVersion(version);
  // Lint and migrate ask this once per directive: the answer of a known plugin is kept per
  // release (bounded: releases × plugin names), frozen since it is shared.
  const byName = memoFor(PLUGIN_MEMO, parsed);
  const known = byName.get(plugin);
  if (known !== undefined) return known;
  const answer = pluginAvailability(plugin, parsed);
  if (answer.status !== 'unknown') byName.set(plugin, Object.freeze(answer));
  return answer;
}

/** Answers per release, then per name (or `plugin option`); see {@link coreDnsPluginAvailability}. */
const PLUGIN_MEMO = new Map<CoreDnsVersion, Map<string, Availability>>();
const OPTION_MEMO = new Map<CoreDnsVersion, Map<string, Availability>>();

function memoFor(memo: Map<CoreDnsVersion, Map<string, Availability>>, version: CoreDnsVersion): Map<string, Availability> {
  let byName = memo.get(version);
  if (byName === undefined) {
    byName = new Map();
    memo.set(version, byName);
  }
  return byName;
}

function pluginAvailability(plugin: string, parsed: CoreDnsVersion): Availability {
  const history = historyOf(plugin);
  const since = history?.firstRelease;
  if (since === undefined) return { status: 'unknown', evidence: NO_RELEASE };
  const notes = Object.hasOwn(PLUGIN_NOTES, plugin) ? PLUGIN_NOTES[plugin] : undefined;
  const evidence = notes?.evidence === undefined ? PLUGIN_CFG_EVIDENCE : `${PLUGIN_CFG_EVIDENCE}; ${notes.evidence}`;
  if (!atLeast(parsed, since)) return { status: 'not-yet-added', since, evidence };
  const removedIn = history?.goneIn;
  const compiled = compiledPlugin(plugin, parsed);
  if (removedIn !== undefined && atLeast(parsed, removedIn)) {
    let removed: Availability = { status: 'removed', since, removedIn, evidence };
    if (notes?.replacement !== undefined) removed = { ...removed, replacement: notes.replacement };
    if (compiled?.placeholder === true) removed = { ...removed, placeholder: true };
    return removed;
  }
  let result: Availability = { status: 'available', since, evidence };
  if (notes?.deprecatedIn !== undefined && atLeast(parsed, notes.deprecatedIn)) {
    result = { ...result, status: 'deprecated', deprecatedIn: notes.deprecatedIn };
    if (notes.replacement !== undefined) result = { ...result, replacement: notes.replacement };
  }
  if (removedIn !== undefined) result = { ...result, removedIn };
  if (compiled?.externalModule !== undefined) result = { ...result, externalModule: compiled.externalModule };
  for (const range of notes?.caveats ?? []) {
    if (inRange(parsed, range)) result = { ...result, caveat: range.caveat };
  }
  return result;
}

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

/**
 * Option timelines, read from the one table of plugin syntax (plugin-syntax.ts), keyed
 * `plugin option`; each made the first time it is asked for (not the whole table when the
 * module loads: a single migration asks for a handful).
 */
const OPTIONS = new Map<string, OptionTimeline>();

function optionTimeline(plugin: string, option: string, key: string): OptionTimeline | undefined {
  let timeline = OPTIONS.get(key);
  if (timeline === undefined) {
    // Only options of the table are kept (bounded); any other name is asked of the table again.
    const facts = optionSyntax(plugin, option);
    if (facts === undefined) return undefined;
    timeline = timelineOf(facts);
    OPTIONS.set(key, timeline);
  }
  return timeline;
}

function timelineOf(facts: NonNullable<ReturnType<typeof optionSyntax>>): OptionTimeline {
  let timeline: OptionTimeline = { since: facts.since, evidence: facts.evidence };
  if (facts.confirmedFrom === true) timeline = { ...timeline, confirmedFrom: true };
  if (facts.deprecatedIn !== undefined) timeline = { ...timeline, deprecatedIn: facts.deprecatedIn };
  if (facts.removedIn !== undefined) timeline = { ...timeline, removedIn: facts.removedIn };
  if (facts.replacement !== undefined) timeline = { ...timeline, replacement: facts.replacement };
  if (facts.caveats !== undefined) timeline = { ...timeline, caveats: facts.caveats };
  return timeline;
}

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
  // Read from the kubernetes entry of the plugin syntax table.
  const upstream = optionSyntax('kubernetes', 'upstream');
  const from = (release: CoreDnsVersion | undefined) => release !== undefined && atLeast(version, release);
  if (from(upstream?.removedIn)) return 'removed';
  if (from(upstream?.ignoredFrom)) return 'no-op';
  if (from(upstream?.deprecatedIn)) return 'arguments-ignored';
  const shape = upstream === undefined ? undefined : optionArgumentsAt(upstream, version);
  return shape !== undefined && shape.min > 0 ? 'addresses-required' : 'addresses-optional';
}

const UPSTREAM_EVIDENCE = '§2.1, §2.4 (plugin/kubernetes/setup.go at v1.2.6/v1.3.1/v1.4.0/v1.5.2/v1.6.0/v1.7.0); notes 1.7.0; CM';

function kubernetesUpstreamAvailability(version: CoreDnsVersion): Availability {
  const support = kubernetesUpstreamSupport(version);
  const upstream = optionSyntax('kubernetes', 'upstream');
  const removedIn = upstream?.removedIn ?? NEWEST_COREDNS_VERSION;
  const deprecatedIn = upstream?.deprecatedIn ?? NEWEST_COREDNS_VERSION;
  const base = { since: OLDEST_COREDNS_VERSION, removedIn, evidence: UPSTREAM_EVIDENCE } as const;
  switch (support) {
    case 'addresses-required':
      return { ...base, status: 'available', caveat: `needs at least one address before ${kubernetesUpstreamAddressesOptionalFrom()}; a bare \`upstream\` is an argument error` };
    case 'addresses-optional':
      return { ...base, status: 'available' };
    case 'arguments-ignored':
      return { ...base, status: 'deprecated', deprecatedIn, caveat: 'arguments are ignored; its presence still enables resolving ExternalName targets through CoreDNS itself' };
    case 'no-op':
      return { ...base, status: 'deprecated', deprecatedIn, caveat: 'accepted but has no effect: CoreDNS always resolves ExternalName targets itself' };
    case 'removed':
      return { status: 'removed', since: OLDEST_COREDNS_VERSION, removedIn, evidence: UPSTREAM_EVIDENCE };
  }
}

/** The first release where a bare kubernetes `upstream` (no addresses) is accepted, from the row's argument eras. */
export function kubernetesUpstreamAddressesOptionalFrom(): CoreDnsVersion {
  const shape = optionSyntax('kubernetes', 'upstream')?.arguments;
  const eras = shape === undefined || 'min' in shape ? [] : (shape as readonly Era<ArgumentShape>[]);
  return eras.find((era) => era.value.min === 0)?.from ?? OLDEST_COREDNS_VERSION;
}

/**
 * Whether `option` is accepted inside a `plugin { … }` block of `version`, from the table of
 * plugin syntax (plugin-syntax.ts; `kubernetes upstream` follows {@link kubernetesUpstreamSupport}).
 * A name the table has no option of answers `unknown` (for a plugin of the table: no release has
 * that option).
 *
 * @throws {UnknownCoreDnsVersionError} when `version` is not a known release.
 */
export function coreDnsOptionAvailability(plugin: string, option: string, version: string): Availability {
  checkArgument('coreDnsOptionAvailability', 'plugin', plugin, 'string');
  checkArgument('coreDnsOptionAvailability', 'option', option, 'string');
  checkArgument('coreDnsOptionAvailability', 'version', version, 'string');
  const parsed = parseCoreDnsVersion(version);
  if (plugin === 'kubernetes' && option === 'upstream') return kubernetesUpstreamAvailability(parsed);
  const key = `${plugin} ${option}`;
  const timeline = optionTimeline(plugin, option, key);
  if (timeline === undefined) return { status: 'unknown', evidence: pluginSyntax(plugin) === undefined ? NO_FACTS : `${NO_OPTION} ${plugin} (${pluginSyntax(plugin)?.evidence ?? ''})` };
  // Kept per release like the plugin answers (bounded by the options table).
  const byName = memoFor(OPTION_MEMO, parsed);
  let answer = byName.get(key);
  if (answer === undefined) {
    answer = Object.freeze(optionAvailability(timeline, parsed));
    byName.set(key, answer);
  }
  return answer;
}

/** `plugin option` pairs {@link coreDnsOptionAvailability} has facts for, sorted. */
export function coreDnsOptionsWithFacts(): readonly string[] {
  return optionsWithSyntax();
}
