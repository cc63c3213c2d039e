/**
 * What changes in a Corefile from one CoreDNS release to another, as data: the facts `migrate`
 * acts on that the plugin and option tables (plugin-cfg.ts, availability.ts, features.ts) do not
 * carry. Sources: coredns/corefile-migration `migration/versions.go` and `migration/plugins.go`
 * (its per-release plugin/option statuses and the defaults it adds), and CoreDNS's own
 * `plugin/kubernetes/setup.go`, `plugin/forward/setup.go` and `plugin/proxy/upstream.go` read at
 * the release tags named below. docs/migrate.md explains each in prose.
 *
 * Pure data: no Node APIs.
 */
import { pluginDeprecatedIn } from './availability.js';
import { pluginHistory } from './plugin-cfg.js';
import { eraAt, optionSyntax, pluginSyntax } from './plugin-syntax.js';
import { COREDNS_RELEASES, NEWEST_COREDNS_VERSION } from './versions.js';
import type { CoreDnsVersion } from './versions.js';

/** A release the tables must hold (they are data of this package: a missing one is a defect of the tables). */
function releaseOf(version: CoreDnsVersion | undefined): CoreDnsVersion {
  return version ?? NEWEST_COREDNS_VERSION;
}

/** How a kubernetes option changed across releases. */
export interface KubernetesOptionChange {
  readonly option: string;
  /** Announced to go (still works): removed from here on only with `--deprecations`. */
  readonly deprecatedIn: CoreDnsVersion;
  /** From here on it does nothing (or harm): migrate removes or trims it. */
  readonly ineffectiveFrom: CoreDnsVersion;
  /** What happens from `ineffectiveFrom` on. */
  readonly ineffective: string;
  /** What migrate does from `ineffectiveFrom` (with `--deprecations`: from `deprecatedIn`). */
  readonly action: 'remove' | 'keep-first-argument';
  /** From here on CoreDNS refuses to start with it; undefined when it is still accepted. */
  readonly removedIn?: CoreDnsVersion;
}

/**
 * The kubernetes options with a migration record in the plugin syntax table (plugin-syntax.ts),
 * each with its status there: `endpoint` (several addresses deprecated at 1.3.1, only the first
 * used from 1.4.0), `upstream` (setup.go at v1.4.0 and v1.5.0 eats its arguments but its presence
 * still makes the plugin resolve ExternalName targets; at v1.5.2 and v1.6.x it does nothing; v1.7.0
 * no longer knows it) and `resyncperiod` (at v1.6.0–v1.6.9 setup.go skips the option name only, so
 * an argument is read as the next option and CoreDNS refuses to start; gone at v1.7.0).
 */
export const KUBERNETES_OPTION_CHANGES: readonly KubernetesOptionChange[] = Object.freeze(
  Object.entries(pluginSyntax('kubernetes')?.options ?? {}).flatMap(([option, syntax]): KubernetesOptionChange[] => {
    const migration = syntax.migration;
    const deprecatedIn = syntax.deprecatedIn ?? migration?.announcedIn;
    const ineffectiveFrom = migration?.from ?? syntax.ignoredFrom;
    if (migration === undefined || deprecatedIn === undefined || ineffectiveFrom === undefined) return [];
    const change: KubernetesOptionChange = { option, deprecatedIn, ineffectiveFrom, ineffective: migration.effect, action: migration.action };
    return [Object.freeze(syntax.removedIn === undefined ? change : { ...change, removedIn: syntax.removedIn })];
  }),
);

/** The kubernetes `transfer to ADDRESS…` option became the `transfer` plugin here (notes 1.8.0; corefile-migration 1.8.0): the option's removal. */
export const KUBERNETES_TRANSFER_MOVED_IN: CoreDnsVersion = releaseOf(optionSyntax('kubernetes', 'transfer')?.removedIn);

/** `proxy`: deprecated (replace with `--deprecations`), from the plugin's availability (notes 1.4.0). */
export const PROXY_DEPRECATED_IN: CoreDnsVersion = releaseOf(pluginDeprecatedIn('proxy'));

/** `proxy`: removed ("Unknown directive"), from plugin.cfg (notes 1.5.0). */
export const PROXY_REMOVED_IN: CoreDnsVersion = releaseOf(pluginHistory('proxy').goneIn);

/**
 * Several `forward` lines per server block, from the forward row (1.9.4): the first published
 * release whose row allows them, which is what `firstReleaseWith((features) =>
 * features.multipleForwardPerBlock)` answers, read from the row alone (this loads with every
 * command's help: building the feature table of each older release cost start-up time).
 */
export const SEVERAL_FORWARDS_PER_BLOCK_FROM: CoreDnsVersion = releaseOf(
  COREDNS_RELEASES.find((release) => release.unpublished !== true && eraAt(pluginSyntax('forward')?.oncePerBlock ?? [], release.version) === false)?.version,
);

/** `federation`: gone from the default build, from plugin.cfg (notes 1.7.0). */
export const FEDERATION_REMOVED_IN: CoreDnsVersion = releaseOf(pluginHistory('federation').goneIn);

/**
 * proxy's `protocol https_google` (DNS over HTTPS to Google): in plugin/proxy/upstream.go at
 * v1.1.3, gone at v1.2.0 (only `dns` and `grpc` remain). corefile-migration removes the option
 * silently; migrate refuses, since the queries would then go out as plain DNS.
 */
export const PROXY_HTTPS_GOOGLE_REMOVED_IN: CoreDnsVersion = '1.2.0';

/** A plugin or option corefile-migration (and so kubeadm) adds when an upgrade crosses `release`. */
export type NewDefault =
  | {
      readonly kind: 'plugin';
      readonly release: CoreDnsVersion;
      readonly plugin: string;
      /** Added to server blocks holding one of these plugins. */
      readonly blocksWith: readonly string[];
    }
  | {
      readonly kind: 'option';
      readonly release: CoreDnsVersion;
      readonly plugin: string;
      readonly option: string;
      readonly arguments: readonly string[];
    };

/** corefile-migration's new defaults, oldest first: `loop` 1.2.1, `ready` 1.5.0, `lameduck 5s` 1.6.5, `max_concurrent 1000` 1.7.0. */
export const NEW_DEFAULTS: readonly NewDefault[] = Object.freeze([
  { kind: 'plugin', release: '1.2.1', plugin: 'loop', blocksWith: ['forward', 'proxy'] },
  { kind: 'plugin', release: '1.5.0', plugin: 'ready', blocksWith: ['kubernetes'] },
  { kind: 'option', release: '1.6.5', plugin: 'health', option: 'lameduck', arguments: ['5s'] },
  { kind: 'option', release: '1.7.0', plugin: 'forward', option: 'max_concurrent', arguments: ['1000'] },
] as const satisfies readonly NewDefault[]);

/** What a `proxy` option becomes in `forward`. */
export type ProxyOptionMapping =
  /** Kept as written (`except`, `max_fails`). */
  | { readonly kind: 'same' }
  /** Dropped: forward has no equivalent; `why` says what is lost. */
  | { readonly kind: 'drop'; readonly why: string }
  /** Needs reading the arguments (`policy`, `protocol`). */
  | { readonly kind: 'special' };

/**
 * proxy's options (plugin/proxy/upstream.go at v1.4.0) and forward's (plugin/forward/setup.go at
 * v1.5.0: `except`, `max_fails`, `health_check DURATION`, `force_tcp`, `prefer_udp`, `expire`,
 * `tls`, `tls_servername`, `policy random|round_robin|sequential`).
 */
export const PROXY_OPTION_MAPPINGS: Readonly<Record<string, ProxyOptionMapping>> = Object.freeze({
  except: { kind: 'same' },
  max_fails: { kind: 'same' },
  policy: { kind: 'special' },
  protocol: { kind: 'special' },
  fail_timeout: { kind: 'drop', why: 'forward has no fail_timeout: it marks an upstream down after max_fails failed health checks' },
  health_check: {
    kind: 'drop',
    why: "proxy's health_check probes an HTTP path; forward checks upstreams with DNS queries (its own health_check takes only an interval)",
  },
  spray: { kind: 'drop', why: 'forward has no spray: when every upstream is down it picks one at random anyway' },
  ignored_names: { kind: 'drop', why: 'forward has no ignored_names; use except for zones' },
});

/** proxy `policy` names forward has, and the one it renames (`first` is forward's `sequential`). */
export const PROXY_POLICY_TO_FORWARD: Readonly<Record<string, string>> = Object.freeze({
  random: 'random',
  round_robin: 'round_robin',
  first: 'sequential',
});

/** What corefile-migration puts into the server block it makes for a stub `forward` split out of the root block, besides the forward. */
export const SPLIT_STUB_BLOCK_PLUGINS: readonly (readonly string[])[] = Object.freeze([['loop'], ['errors'], ['cache', '30']]);
