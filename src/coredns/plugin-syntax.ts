/**
 * The arguments and options of CoreDNS plugins, per release: the one table that `lint`, the
 * option facts of availability.ts and anything else asking "does release X accept this line?"
 * read. Facts come from each plugin's setup code (`plugin/NAME/setup.go`, and the files it parses
 * with) at the release tags where it changed, in coredns/coredns; docs/coredns-versions.md
 * ("Plugin arguments and options per release") lists them with their source.
 *
 * How CoreDNS reads a plugin (Caddy's dispenser), which the shapes below model:
 * - a plugin's setup sees every line of that plugin in the block; a setup that counts its lines
 *   refuses a second one with "this plugin can only be used once per Server Block"
 *   ({@link PluginSyntax.oncePerBlock});
 * - the arguments of the plugin line, then the lines of its `{ … }` block: the first word names an
 *   option, the rest are its arguments. An unknown option stops CoreDNS ("unknown property",
 *   "Wrong argument count", "Unknown field", depending on the plugin). An option that reads exactly
 *   one argument leaves the next word to be read as an option, so an extra argument stops CoreDNS
 *   too;
 * - a plugin without block parsing in a release refuses any block.
 *
 * Ranges: every era (`from`) holds until the next era of the same list; options have `since` and
 * optionally `removedIn`. Versions are those of versions.ts.
 *
 * Pure data and functions: no Node APIs.
 */
import { isGoIP, splitHostPort } from '../dns/go-net.js';
import { judgeGoRegexp } from '../dns/go-regexp.js';
import type { GoRegexpOptions } from '../dns/go-regexp.js';
import { valueAt } from '../util/release-profile.js';
import type { Era as ReleaseEra } from '../util/release-profile.js';
import { compareCoreDnsVersions, isCoreDnsVersionAtLeast, parseCoreDnsVersion } from './versions.js';
import type { CoreDnsVersion } from './versions.js';

/** What one argument must be for the release to accept it. */
export type ArgumentSpec =
  | { readonly kind: 'any' }
  /**
   * A Go duration (`time.ParseDuration`): `30s`, `1m30s`, `0`; `min` in seconds when the release
   * refuses less (`orZero`: except 0).
   */
  | { readonly kind: 'duration'; readonly min?: number; readonly orZero?: true }
  /**
   * A Go integer (`strconv.Atoi`) in [`min`, `max`]; with `orOther`, a word that is no integer is
   * accepted too (read as something else, e.g. cache's optional TTL before its zones); `unsigned`:
   * read with `strconv.ParseUint`, which takes no sign (`+5` is refused).
   */
  | { readonly kind: 'integer'; readonly min?: number; readonly max?: number; readonly orOther?: true; readonly unsigned?: true }
  /** A Go float (`strconv.ParseFloat`) of at least `min`. */
  | { readonly kind: 'number'; readonly min?: number }
  /** One of the words (compared as written unless `caseInsensitive`). */
  | { readonly kind: 'enum'; readonly values: readonly string[]; readonly caseInsensitive?: true }
  /** `host:port` as Go's net.SplitHostPort reads it. */
  | { readonly kind: 'host-port' }
  /** An IP address. */
  | { readonly kind: 'ip' }
  /** A percentage `N%` with N in [`min`, `max`]. */
  | { readonly kind: 'percent'; readonly min: number; readonly max: number }
  /**
   * A network as Go's `net.ParseCIDR` reads it (`10.0.0.0/8`, `fd00::/8`); `bareIp`: an address
   * alone is read as its /32 or /128 (acl's normalize); `wildcard`: `*` is accepted too.
   */
  | { readonly kind: 'cidr'; readonly bareIp?: true; readonly wildcard?: true }
  /**
   * A pattern Go's `regexp.Compile` accepts, in the syntax of the Go release the CoreDNS release
   * was built with ({@link GO_REGEXP_SYNTAX}); `lowerCased`: the setup lower-cases it first.
   */
  | { readonly kind: 'go-regexp'; readonly syntax: GoRegexpOptions; readonly lowerCased?: true };

/** How many arguments a line takes and what each must be. */
export interface ArgumentShape {
  readonly min: number;
  /** Omitted: no upper bound. */
  readonly max?: number;
  /** Specs of the first arguments, in order. */
  readonly positions?: readonly ArgumentSpec[];
  /** Spec of every argument after {@link positions}. */
  readonly rest?: ArgumentSpec;
  /**
   * When the first argument is one of these words, the arguments (that word included) must also
   * fit its shape (loadbalance from 1.10.1: `round_robin` alone, `weighted FILE`).
   */
  readonly cases?: Readonly<Record<string, ArgumentShape>>;
  /**
   * The arguments are sections, each a section word (a key of `specs`; `caseInsensitive`) followed
   * by at least one argument fitting that word's spec (acl's `type A AAAA net 10.0.0.0/8`).
   */
  readonly sections?: { readonly specs: Readonly<Record<string, ArgumentSpec>>; readonly caseInsensitive?: true };
}

/** One era of a CoreDNS timeline: it holds from `from` until the next era's `from` (src/util/release-profile.ts). */
export type Era<T> = ReleaseEra<T, CoreDnsVersion>;

/**
 * Whether a second line of a plugin in one block stops CoreDNS: `true` (refused with "this plugin
 * can only be used once per Server Block"), `false` (allowed), or `unverified` (the outcome was not
 * checked for those releases: do not rely on it).
 */
export type OncePerBlock = boolean | 'unverified';

export interface OptionSyntax {
  /** First release that accepts it. */
  readonly since: CoreDnsVersion;
  /** `since` is only where it is confirmed from: older releases answer "unknown", not "not yet added". */
  readonly confirmedFrom?: true;
  readonly deprecatedIn?: CoreDnsVersion;
  /** From this release on it is accepted and has no effect. */
  readonly ignoredFrom?: CoreDnsVersion;
  /** First release that refuses it. */
  readonly removedIn?: CoreDnsVersion;
  readonly replacement?: string;
  /** Its arguments (one shape, or eras). */
  readonly arguments: ArgumentShape | readonly Era<ArgumentShape>[];
  /** Refused when given twice in one block, from this release on. */
  readonly onceFrom?: CoreDnsVersion;
  /**
   * Something it needs from a release on, that the setup checks: another option of the same
   * block, or a word among the plugin line's arguments.
   */
  readonly requires?: { readonly from: CoreDnsVersion; readonly option?: string; readonly pluginArgument?: string; readonly what: string };
  /** Limitations worth telling a user, per range. */
  readonly caveats?: readonly { readonly from: CoreDnsVersion; readonly to: CoreDnsVersion; readonly caveat: string }[];
  /** What `migrate` does with it once it stops working as written (kept beside its status, as corefile-migration does). */
  readonly migration?: OptionMigration;
  /** Upstream file and release the facts were read from (plus release notes, where they say more). */
  readonly evidence: string;
}

/** How `migrate` treats an option that stops working as written. */
export interface OptionMigration {
  /** From here on it does nothing (or harm) and migrate acts; omitted: the option's `ignoredFrom`. */
  readonly from?: CoreDnsVersion;
  /** What happens from then on. */
  readonly effect: string;
  /** What migrate does from then (with `--deprecations`: from the deprecation). */
  readonly action: 'remove' | 'keep-first-argument';
  /**
   * Where corefile-migration announces it deprecated, for an option whose row has no
   * `deprecatedIn` (lint does not report it: it still works the same).
   */
  readonly announcedIn?: CoreDnsVersion;
}

/**
 * How the lines of a plugin's block are read in an era:
 * - `options`: each line is an option of {@link PluginSyntax.options};
 * - `none`: the release does not read a block; any block stops CoreDNS;
 * - `ignored`: the release never reads the block's lines: CoreDNS starts, they have no effect;
 * - `hosts-entries`: options; any other line before a `fallthrough` is a host entry (`IP NAME…`;
 *   one that does not start with an IP address is dropped), after it an unknown property;
 * - `lenient`: options; any other line is passed over (CoreDNS starts, the line does nothing);
 * - `name-pairs`: options, and any other line is `NAME DOMAIN` (federation);
 * - `unchecked`: read in a way this table does not model (lines are not judged).
 */
export type BlockReading = 'options' | 'none' | 'ignored' | 'lenient' | 'hosts-entries' | 'name-pairs' | 'unchecked';

export interface PluginSyntax {
  /** Arguments of the plugin line. `unchecked`: checked elsewhere (forward/proxy/grpc destinations). */
  readonly arguments: readonly Era<ArgumentShape | 'unchecked'>[];
  readonly block: readonly Era<BlockReading>[];
  /** Eras where a second line of the plugin in one block stops CoreDNS (`true`) or is allowed. */
  readonly oncePerBlock: readonly Era<OncePerBlock>[];
  readonly options: Readonly<Record<string, OptionSyntax>>;
  /**
   * A line with fewer than two arguments takes the tokens of its block as further arguments
   * (rewrite's `rewrite stop { name regex … }`).
   */
  readonly blockExtendsArguments?: true;
  /** Option names are read case-insensitively (acl's `ALLOW`, `Block`). */
  readonly caseInsensitiveOptions?: true;
  /** Options the plugin's block must hold, from a release on. */
  readonly requiredOptions?: readonly { readonly from: CoreDnsVersion; readonly option: string; readonly message: string }[];
  /**
   * Lines of which the block must hold at least one (eras; an empty list: none needed), unless the
   * option `unless.option` is given with another value than `unless.value` (its last line counts,
   * as each line overwrites the one before): template before 1.5.1 refuses a block that answers
   * NOERROR with no record in the sections its setup counts.
   */
  readonly requiredOneOf?: {
    readonly eras: readonly Era<readonly string[]>[];
    readonly unless: { readonly option: string; readonly value: string };
    readonly message: string;
  };
  /** A plugin that must be in the same block, from a release on (checked at start-up). */
  readonly requiresPlugin?: { readonly from: CoreDnsVersion; readonly plugin: string; readonly message: string };
  /** The upstream files the facts come from. */
  readonly evidence: string;
}

// ---------------------------------------------------------------------------------------------
// Shorthands (data only)
// ---------------------------------------------------------------------------------------------

const ANY: ArgumentSpec = { kind: 'any' };
const DURATION: ArgumentSpec = { kind: 'duration' };
const INTEGER: ArgumentSpec = { kind: 'integer' };
const NON_NEGATIVE: ArgumentSpec = { kind: 'integer', min: 0 };
const POSITIVE: ArgumentSpec = { kind: 'integer', min: 1 };
const HOST_PORT: ArgumentSpec = { kind: 'host-port' };
const NONE: ArgumentShape = { min: 0, max: 0 };
const ONE_OR_MORE: ArgumentShape = { min: 1 };
const ANY_COUNT: ArgumentShape = { min: 0 };
const one = (spec: ArgumentSpec): ArgumentShape => ({ min: 1, max: 1, positions: [spec] });
const always = <T>(value: T): readonly Era<T>[] => [{ from: '1.0.0', value }];
const POLICY: ArgumentShape = one({ kind: 'enum', values: ['random', 'round_robin', 'sequential'] });
/**
 * The query classes miekg/dns's `StringToClass` knows (the same in every release's dns library),
 * written as it is: upper case only.
 */
const DNS_CLASS: ArgumentSpec = { kind: 'enum', values: ['IN', 'CS', 'CH', 'HS', 'NONE', 'ANY'] };
/**
 * The record types miekg/dns's `StringToType` knows, as written (upper case, and its `None`,
 * `Reserved`, `NSAP-PTR`), by the dns library each release builds with (the Makefile builds 1.0.0–1.4.0
 * with the library's master of the day, all before v1.1.27; go.mod from 1.5.0): the `TypeToString`
 * map of ztypes.go gains APL in v1.1.27 (CoreDNS 1.6.7), HTTPS and SVCB in v1.1.34 (1.8.0), ZONEMD in
 * v1.1.42 (1.8.4), AMTRELAY and IPSECKEY in v1.1.55 (1.11.0), NXNAME in v1.1.62 (1.11.4), RESINFO in
 * v1.1.64 (1.12.1); none is removed. Checked with the real 1.2.6 and 1.6.9 (`SVCB` refused) and 1.8.0.
 */
const DNS_TYPES_1_0: readonly string[] = [
  'A', 'AAAA', 'AFSDB', 'ANY', 'ATMA', 'AVC', 'AXFR', 'CAA', 'CDNSKEY', 'CDS', 'CERT', 'CNAME', 'CSYNC', 'DHCID', 'DLV', 'DNAME', 'DNSKEY',
  'DS', 'EID', 'EUI48', 'EUI64', 'GID', 'GPOS', 'HINFO', 'HIP', 'ISDN', 'IXFR', 'KEY', 'KX', 'L32', 'L64', 'LOC', 'LP', 'MAILA', 'MAILB',
  'MB', 'MD', 'MF', 'MG', 'MINFO', 'MR', 'MX', 'NAPTR', 'NID', 'NIMLOC', 'NINFO', 'NS', 'NSAP-PTR', 'NSEC', 'NSEC3', 'NSEC3PARAM', 'NULL', 'NXT',
  'None', 'OPENPGPKEY', 'OPT', 'PTR', 'PX', 'RKEY', 'RP', 'RRSIG', 'RT', 'Reserved', 'SIG', 'SMIMEA', 'SOA', 'SPF', 'SRV', 'SSHFP', 'TA',
  'TALINK', 'TKEY', 'TLSA', 'TSIG', 'TXT', 'UID', 'UINFO', 'UNSPEC', 'URI', 'X25',
];
const DNS_TYPES_ADDED: readonly Era<readonly string[]>[] = [
  { from: '1.6.7', value: ['APL'] },
  { from: '1.8.0', value: ['HTTPS', 'SVCB'] },
  { from: '1.8.4', value: ['ZONEMD'] },
  { from: '1.11.0', value: ['AMTRELAY', 'IPSECKEY'] },
  { from: '1.11.4', value: ['NXNAME'] },
  { from: '1.12.1', value: ['RESINFO'] },
];
/** The record types of each release, as eras. */
const DNS_TYPE_ERAS: readonly Era<readonly string[]>[] = [
  { from: '1.0.0', value: DNS_TYPES_1_0 },
  ...DNS_TYPES_ADDED.map((added, index) => ({ from: added.from, value: [...DNS_TYPES_1_0, ...DNS_TYPES_ADDED.slice(0, index + 1).flatMap((era) => era.value)] })),
];
/** Every record type name of any release (acl's type sections, which are not judged per release). */
const DNS_TYPES: readonly string[] = DNS_TYPE_ERAS.at(-1)?.value ?? DNS_TYPES_1_0;
/** The record types `version`'s dns library knows. */
function dnsTypesAt(version: CoreDnsVersion): readonly string[] {
  return eraAt(DNS_TYPE_ERAS, version) ?? DNS_TYPES_1_0;
}
/**
 * The response codes template's `rcode` takes: a key of miekg/dns's `StringToRcode` map, looked up
 * as written (upper case only, no numbers), by the dns library each release builds with (the
 * Makefile's pinned checkout before 1.5.0, go.mod after). v1.0.x spells NOTIMP `NOTIMPL`
 * (CoreDNS 1.0.3–1.2.6 build with v1.0.3–v1.0.15); v1.1.0 renames it NOTIMP and keeps `NOTIMPL`
 * as an alias (CoreDNS 1.3.0 builds with v1.1.1); v1.1.66 adds DSOTYPENI (CoreDNS 1.12.2).
 * BADVERS is no key (it shares 16 with BADSIG).
 */
const RCODE_NAMES_V1_0: readonly string[] = [
  'NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMPL', 'REFUSED', 'YXDOMAIN', 'YXRRSET', 'NXRRSET', 'NOTAUTH', 'NOTZONE',
  'BADSIG', 'BADKEY', 'BADTIME', 'BADMODE', 'BADNAME', 'BADALG', 'BADTRUNC', 'BADCOOKIE',
];
const RCODE_NAMES_V1_1: readonly string[] = [...RCODE_NAMES_V1_0, 'NOTIMP'];
const TEMPLATE_RCODE: readonly Era<ArgumentShape>[] = [
  { from: '1.0.3', value: one({ kind: 'enum', values: RCODE_NAMES_V1_0 }) },
  { from: '1.3.0', value: one({ kind: 'enum', values: RCODE_NAMES_V1_1 }) },
  { from: '1.12.2', value: one({ kind: 'enum', values: [...RCODE_NAMES_V1_1, 'DSOTYPENI'] }) },
];
const TEMPLATE_RCODE_EVIDENCE = `${setup('template', 'every tag from v1.0.3 to v1.14.7 (dns.StringToRcode[word], "unknown rcode")')}; miekg/dns msg.go and reverse.go at v1.0.3–v1.0.15, v1.1.0, v1.1.1, v1.1.66, v1.1.72; Makefile (checkout of miekg/dns) at v1.0.3–v1.4.0, go.mod from v1.5.0`;

/** acl's `type …` and `net …` sections (1.6.4+): types as above or `*`, networks (an address alone is its /32 or /128) or `*`. */
const ACL_SECTIONS: ArgumentShape = {
  min: 0,
  sections: { caseInsensitive: true, specs: { type: { kind: 'enum', values: [...DNS_TYPES, '*'] }, net: { kind: 'cidr', bareIp: true, wildcard: true } } },
};
/** A listener address or none: `health`, `ready`, `prometheus`. */
const OPTIONAL_LISTENER: ArgumentShape = { min: 0, max: 1, positions: [HOST_PORT] };

/**
 * The regular-expression syntax of the Go release each CoreDNS release is built with (`.go-version`
 * at the tag; the Dockerfile/Makefile before it): `(?<name>…)` groups from Go 1.22 (CoreDNS 1.11.4
 * is built with Go 1.23.2, 1.11.3 with 1.21.8), `\p{…}` aliases such as `\p{Letter}` from Go 1.25
 * (CoreDNS 1.12.4, Go 1.25.0). golang/go regexp/syntax/parse.go at go1.21, go1.22, go1.25.
 */
const GO_REGEXP_SYNTAX: readonly Era<GoRegexpOptions>[] = [
  { from: '1.0.0', value: {} },
  { from: '1.11.4', value: { angleNamedGroups: true } },
  { from: '1.12.4', value: { angleNamedGroups: true, lenientClassNames: true } },
];

/** The Go regexp syntax `version` compiles patterns with. */
function goRegexpSyntaxAt(version: CoreDnsVersion): GoRegexpOptions {
  return eraAt(GO_REGEXP_SYNTAX, version) ?? {};
}

/**
 * Eras of a shape that holds Go regular expressions: each era of `shapes` (given the regexp spec
 * of the time) crossed with the eras of {@link GO_REGEXP_SYNTAX}.
 */
function withGoRegexp(shapes: readonly Era<(regexp: ArgumentSpec) => ArgumentShape>[], lowerCased?: true): readonly Era<ArgumentShape>[] {
  const first = shapes[0]?.from ?? '1.0.0';
  const starts = [...new Set([...shapes.map((era) => era.from), ...GO_REGEXP_SYNTAX.map((era) => era.from).filter((from) => compareCoreDnsVersions(from, first) > 0)])];
  starts.sort(compareCoreDnsVersions);
  return starts.map((from) => {
    const build = eraAt(shapes, from) as (regexp: ArgumentSpec) => ArgumentShape;
    const syntax = goRegexpSyntaxAt(from);
    return { from, value: build(lowerCased === true ? { kind: 'go-regexp', syntax, lowerCased } : { kind: 'go-regexp', syntax }) };
  });
}

function setup(plugin: string, releases: string): string {
  return `plugin/${plugin}/setup.go at ${releases}`;
}

// ---------------------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------------------

const FORWARD_EVIDENCE = setup('forward', 'v1.0.6, v1.1.2, v1.2.0, v1.6.8, v1.6.9, v1.9.2, v1.9.4, v1.11.4, v1.12.1, v1.13.0, v1.13.2, v1.14.1, v1.14.3, v1.14.4, v1.14.5, v1.14.6, v1.14.7');
const KUBERNETES_EVIDENCE = setup('kubernetes', 'v1.0.0, v1.0.6, v1.1.3, v1.2.3, v1.2.6, v1.3.0, v1.5.0, v1.6.0, v1.6.9, v1.7.0, v1.8.0, v1.12.2, v1.12.3, v1.14.0, v1.14.7');
const CACHE_EVIDENCE = setup('cache', 'v1.0.0, v1.2.6, v1.6.6, v1.8.0, v1.9.4, v1.10.1, v1.14.4, v1.14.7');

/**
 * The table: one row per plugin, each made the first time it is read ({@link pluginSyntax}), not
 * when the module loads: a single `migrate` or `lint` reads the rows of the plugins its Corefile
 * uses (docs/performance.md, "Start-up").
 */
const ROWS: Readonly<Record<string, () => PluginSyntax>> = {
  kubernetes: () => ({
    arguments: always(ANY_COUNT),
    block: always('options'),
    oncePerBlock: [{ from: '1.0.0', value: false }, { from: '1.0.6', value: true }],
    options: {
      endpoint_pod_names: { since: '1.0.0', arguments: NONE, evidence: KUBERNETES_EVIDENCE },
      pods: { since: '1.0.0', arguments: one({ kind: 'enum', values: ['disabled', 'insecure', 'verified'] }), evidence: `${KUBERNETES_EVIDENCE}; notes 1.0.0 (\`pods verified\`)` },
      namespaces: { since: '1.0.0', arguments: ONE_OR_MORE, evidence: KUBERNETES_EVIDENCE },
      endpoint: {
        since: '1.0.0',
        arguments: ONE_OR_MORE,
        // Several addresses deprecated at 1.3.1, only the first used from 1.4.0 (corefile-migration keeps the first argument).
        migration: { announcedIn: '1.3.1', from: '1.4.0', effect: 'only the first address is used', action: 'keep-first-argument' },
        evidence: KUBERNETES_EVIDENCE,
      },
      tls: { since: '1.0.0', arguments: { min: 3, max: 3 }, evidence: KUBERNETES_EVIDENCE },
      labels: { since: '1.0.0', arguments: ONE_OR_MORE, evidence: KUBERNETES_EVIDENCE },
      namespace_labels: { since: '1.5.0', arguments: ONE_OR_MORE, evidence: KUBERNETES_EVIDENCE },
      fallthrough: {
        since: '1.0.0',
        arguments: ANY_COUNT,
        caveats: [{ from: '1.0.0', to: '1.0.2', caveat: 'takes no zones before 1.0.3: a bare `fallthrough` falls through for every zone of the plugin' }],
        evidence: `${KUBERNETES_EVIDENCE}; notes 1.0.3 ("The fallthrough directive was overhauled and now allows a list of zones")`,
      },
      ttl: {
        since: '1.0.0',
        arguments: [
          // Words after the first are not read.
          { from: '1.0.0', value: { min: 1, positions: [{ kind: 'integer', min: 5, max: 3600 }] } },
          { from: '1.3.0', value: { min: 1, positions: [{ kind: 'integer', min: 0, max: 3600 }] } },
        ],
        evidence: `${KUBERNETES_EVIDENCE} ("ttl must be in range [5, 3600]" until 1.2.6, [0, 3600] from 1.3.0); coredns/coredns#995`,
      },
      resyncperiod: {
        since: '1.0.0',
        removedIn: '1.7.0',
        arguments: [
          { from: '1.0.0', value: one(DURATION) },
          // 1.6.x skips the line's arguments unread: the next word is read as an option.
          { from: '1.6.0', value: NONE },
        ],
        ignoredFrom: '1.6.0',
        // corefile-migration: deprecated 1.5.0, ignored 1.6.0, removed 1.7.0.
        migration: { announcedIn: '1.5.0', effect: 'ignored, and an argument after it is read as the next option, so CoreDNS refuses to start', action: 'remove' },
        evidence: `${KUBERNETES_EVIDENCE} (a duration until 1.5.2; from 1.6.0 \`continue\` without reading its argument; gone in 1.7.0)`,
      },
      noendpoints: { since: '1.0.6', arguments: NONE, evidence: KUBERNETES_EVIDENCE },
      transfer: {
        since: '1.0.6',
        confirmedFrom: true,
        removedIn: '1.8.0',
        replacement: 'the transfer plugin',
        arguments: { min: 2, positions: [{ kind: 'enum', values: ['to'] }] },
        evidence: `${KUBERNETES_EVIDENCE}; notes 1.0.6 (zone transfers in the kubernetes plugin), 1.8.0 (moved to the transfer plugin)`,
      },
      ignore: { since: '1.1.3', arguments: { min: 0, positions: [{ kind: 'enum', values: ['empty_service'] }] }, evidence: KUBERNETES_EVIDENCE },
      kubeconfig: {
        since: '1.2.3',
        arguments: [
          { from: '1.2.3', value: { min: 2, max: 2 } },
          { from: '1.7.0', value: { min: 1, max: 2 } },
        ],
        evidence: KUBERNETES_EVIDENCE,
      },
      upstream: {
        since: '1.0.0',
        deprecatedIn: '1.4.0',
        ignoredFrom: '1.5.2',
        removedIn: '1.7.0',
        arguments: [
          { from: '1.0.0', value: ONE_OR_MORE },
          { from: '1.0.6', value: ANY_COUNT },
        ],
        // corefile-migration: deprecated 1.4.0, ignored 1.5.0, removed 1.7.0; setup.go still honours its presence until 1.5.1.
        migration: { effect: 'accepted but has no effect (CoreDNS always resolves ExternalName targets itself)', action: 'remove' },
        evidence: `${KUBERNETES_EVIDENCE}; notes 1.7.0; see kubernetesUpstreamSupport in availability.ts`,
      },
      multicluster: { since: '1.12.2', arguments: ANY_COUNT, evidence: KUBERNETES_EVIDENCE },
      startup_timeout: { since: '1.12.3', arguments: { min: 1, positions: [DURATION] }, evidence: KUBERNETES_EVIDENCE },
      apiserver_qps: { since: '1.14.0', arguments: one({ kind: 'number', min: 0 }), evidence: KUBERNETES_EVIDENCE },
      apiserver_burst: { since: '1.14.0', arguments: one(NON_NEGATIVE), evidence: KUBERNETES_EVIDENCE },
      apiserver_max_inflight: { since: '1.14.0', arguments: one(NON_NEGATIVE), evidence: KUBERNETES_EVIDENCE },
      zonal: { since: '1.14.7', arguments: NONE, evidence: KUBERNETES_EVIDENCE },
    },
    evidence: KUBERNETES_EVIDENCE,
  }),

  forward: () => ({
    arguments: always('unchecked'),
    block: always('options'),
    // 1.0.5–1.0.6: a second forward was not checked; plugin.ErrOnce from 1.1.0 (notes 1.1.0); several, chained by FROM, from 1.9.4 (docs/reference/kube-dns-and-coredns.md §2.3, `513f27b9a`).
    oncePerBlock: [{ from: '1.0.0', value: 'unverified' }, { from: '1.1.0', value: true }, { from: '1.9.4', value: false }],
    options: {
      except: { since: '1.0.5', arguments: ONE_OR_MORE, evidence: FORWARD_EVIDENCE },
      max_fails: { since: '1.0.5', arguments: one(NON_NEGATIVE), evidence: FORWARD_EVIDENCE },
      health_check: {
        since: '1.0.5',
        arguments: [
          { from: '1.0.5', value: one({ kind: 'duration', min: 0 }) },
          { from: '1.6.8', value: { min: 1, max: 2, positions: [{ kind: 'duration', min: 0 }, { kind: 'enum', values: ['no_rec'] }] } },
          { from: '1.9.2', value: { min: 1, max: 4, positions: [{ kind: 'duration', min: 0 }] } },
        ],
        evidence: `${FORWARD_EVIDENCE} (\`no_rec\` 1.6.8, \`domain NAME\` 1.9.2)`,
      },
      force_tcp: { since: '1.0.5', arguments: NONE, evidence: FORWARD_EVIDENCE },
      prefer_udp: { since: '1.2.0', arguments: NONE, evidence: FORWARD_EVIDENCE },
      tls: { since: '1.0.5', arguments: { min: 0, max: 3 }, evidence: FORWARD_EVIDENCE },
      tls_servername: { since: '1.0.5', arguments: one(ANY), evidence: FORWARD_EVIDENCE },
      expire: { since: '1.0.5', arguments: one({ kind: 'duration', min: 0 }), evidence: FORWARD_EVIDENCE },
      policy: {
        since: '1.0.5',
        arguments: [
          { from: '1.0.5', value: one({ kind: 'enum', values: ['random', 'round_robin'] }) },
          { from: '1.1.2', value: POLICY },
        ],
        evidence: `${FORWARD_EVIDENCE} (\`sequential\` from 1.1.2)`,
      },
      max_concurrent: {
        since: '1.6.8',
        arguments: one(NON_NEGATIVE),
        evidence: `${FORWARD_EVIDENCE}; notes 1.6.8 ("plugin/forward: Add max_concurrent option", coredns/coredns#3640)`,
      },
      next: { since: '1.11.4', arguments: ONE_OR_MORE, evidence: FORWARD_EVIDENCE },
      failfast_all_unhealthy_upstreams: { since: '1.12.1', arguments: NONE, evidence: FORWARD_EVIDENCE },
      failover: { since: '1.13.0', arguments: ONE_OR_MORE, evidence: FORWARD_EVIDENCE },
      max_connect_attempts: { since: '1.13.2', arguments: one(NON_NEGATIVE), evidence: FORWARD_EVIDENCE },
      max_idle_conns: { since: '1.14.1', arguments: one(NON_NEGATIVE), evidence: FORWARD_EVIDENCE },
      max_age: { since: '1.14.3', arguments: one({ kind: 'duration', min: 0 }), evidence: FORWARD_EVIDENCE },
      next_on_nodata: { since: '1.14.4', arguments: NONE, evidence: FORWARD_EVIDENCE },
      resolver: { since: '1.14.4', arguments: ONE_OR_MORE, evidence: `${FORWARD_EVIDENCE} (hostname TOs and the \`resolver\` option)` },
      read_timeout: { since: '1.14.5', arguments: one({ kind: 'duration', min: 0 }), evidence: FORWARD_EVIDENCE },
      doh_method: { since: '1.14.5', arguments: one(ANY), evidence: FORWARD_EVIDENCE },
      source_address: { since: '1.14.6', arguments: one({ kind: 'ip' }), evidence: FORWARD_EVIDENCE },
    },
    evidence: FORWARD_EVIDENCE,
  }),

  proxy: () => ({
    arguments: always('unchecked'),
    block: always('options'),
    oncePerBlock: always(false),
    options: {
      policy: { since: '1.0.0', arguments: one({ kind: 'enum', values: ['random', 'least_conn', 'round_robin', 'first', 'sequential'] }), evidence: 'plugin/proxy/upstream.go at v1.2.6; plugin/pkg/healthcheck/policy.go at v1.2.6' },
      fail_timeout: { since: '1.0.0', arguments: one(DURATION), evidence: 'plugin/proxy/upstream.go at v1.2.6' },
      max_fails: { since: '1.0.0', arguments: one(INTEGER), evidence: 'plugin/proxy/upstream.go at v1.2.6' },
      health_check: { since: '1.0.0', arguments: { min: 1, max: 2, positions: [ANY, DURATION] }, evidence: 'plugin/proxy/upstream.go at v1.2.6' },
      except: { since: '1.0.0', arguments: ONE_OR_MORE, evidence: 'plugin/proxy/upstream.go at v1.2.6' },
      spray: { since: '1.0.0', arguments: NONE, evidence: 'plugin/proxy/upstream.go at v1.2.6' },
      protocol: { since: '1.0.0', arguments: { min: 1, max: 3, positions: [{ kind: 'enum', values: ['dns', 'grpc', 'https_google'] }] }, evidence: 'plugin/proxy/upstream.go at v1.0.0, v1.2.0 (https_google gone), v1.2.6' },
    },
    evidence: 'plugin/proxy/upstream.go and setup.go at v1.0.0, v1.2.0, v1.2.6, v1.4.0',
  }),

  cache: () => ({
    // `cache [TTL] [ZONES…]`: a first argument that is an integer is the TTL and must be positive.
    arguments: always({ min: 0, positions: [{ kind: 'integer', min: 1, orOther: true }] }),
    block: always('options'),
    oncePerBlock: [{ from: '1.0.0', value: false }, { from: '1.1.0', value: true }],
    options: {
      // CAPACITY [TTL [MINTTL]]: the minimum TTL from 1.2.3; words after those are not read.
      success: {
        since: '1.0.0',
        arguments: [
          { from: '1.0.0', value: { min: 1, positions: [INTEGER, POSITIVE] } },
          { from: '1.2.3', value: { min: 1, positions: [INTEGER, POSITIVE, NON_NEGATIVE] } },
        ],
        evidence: `${CACHE_EVIDENCE}, v1.2.3 (minimum TTL)`,
      },
      denial: {
        since: '1.0.0',
        arguments: [
          { from: '1.0.0', value: { min: 1, positions: [INTEGER, POSITIVE] } },
          { from: '1.2.3', value: { min: 1, positions: [INTEGER, POSITIVE, NON_NEGATIVE] } },
        ],
        evidence: `${CACHE_EVIDENCE}, v1.2.3 (minimum TTL)`,
      },
      prefetch: { since: '1.0.0', arguments: { min: 1, max: 3, positions: [NON_NEGATIVE, DURATION, { kind: 'percent', min: 10, max: 90 }] }, evidence: CACHE_EVIDENCE },
      serve_stale: {
        since: '1.6.6',
        arguments: [
          { from: '1.6.6', value: { min: 0, max: 1, positions: [{ kind: 'duration', min: 0 }] } },
          { from: '1.9.4', value: { min: 0, max: 2, positions: [{ kind: 'duration', min: 0 }, { kind: 'enum', values: ['immediate', 'verify'], caseInsensitive: true }] } },
          { from: '1.14.4', value: { min: 0, max: 3, positions: [{ kind: 'duration', min: 0 }, { kind: 'enum', values: ['immediate', 'verify'], caseInsensitive: true }] } },
          { from: '1.14.7', value: { min: 0, max: 5, positions: [{ kind: 'duration', min: 0 }, { kind: 'enum', values: ['immediate', 'verify'], caseInsensitive: true }] } },
        ],
        evidence: CACHE_EVIDENCE,
      },
      servfail: { since: '1.9.4', arguments: one({ kind: 'duration', min: 0 }), evidence: CACHE_EVIDENCE },
      disable: { since: '1.9.4', arguments: { min: 1, positions: [{ kind: 'enum', values: ['success', 'denial'] }] }, evidence: CACHE_EVIDENCE },
      keepttl: { since: '1.10.1', arguments: NONE, evidence: CACHE_EVIDENCE },
      serve_stale_policy: { since: '1.14.7', arguments: one({ kind: 'enum', values: ['prefer_positive'], caseInsensitive: true }), onceFrom: '1.14.7', evidence: CACHE_EVIDENCE },
    },
    evidence: CACHE_EVIDENCE,
  }),

  errors: () => ({
    arguments: always({ min: 0, max: 1, positions: [{ kind: 'enum', values: ['stdout'] }] }),
    block: [{ from: '1.0.0', value: 'none' }, { from: '1.2.6', value: 'options' }],
    oncePerBlock: [{ from: '1.0.0', value: false }, { from: '1.1.0', value: true }],
    options: {
      consolidate: {
        since: '1.2.6',
        // `consolidate DURATION REGEXP …`: the pattern is compiled with regexp.Compile.
        arguments: withGoRegexp([
          { from: '1.2.6', value: (regexp) => ({ min: 2, max: 2, positions: [DURATION, regexp] }) },
          { from: '1.9.3', value: (regexp) => ({ min: 2, max: 3, positions: [DURATION, regexp] }) },
          { from: '1.14.0', value: (regexp) => ({ min: 2, max: 4, positions: [DURATION, regexp] }) },
        ]),
        evidence: setup('errors', 'v1.2.6 (coredns/coredns#2192), v1.9.3 (log level), v1.14.0 (show_first)'),
      },
      stacktrace: { since: '1.9.3', arguments: NONE, evidence: setup('errors', 'v1.9.3') },
    },
    evidence: setup('errors', 'v1.0.0, v1.1.0, v1.2.6, v1.9.3, v1.14.0'),
  }),

  health: () => ({
    arguments: always(OPTIONAL_LISTENER),
    block: always('options'),
    oncePerBlock: always(false),
    options: {
      lameduck: { since: '1.0.5', arguments: one(DURATION), evidence: `${setup('health', 'v1.0.5, v1.2.6, v1.14.7')}; notes 1.0.5` },
    },
    evidence: setup('health', 'v1.0.0, v1.0.5, v1.2.6, v1.6.9, v1.14.7'),
  }),

  ready: () => ({
    arguments: always(OPTIONAL_LISTENER),
    // 1.14.3 reads `monitor` and passes over any other line.
    block: [{ from: '1.0.0', value: 'none' }, { from: '1.12.2', value: 'options' }, { from: '1.14.3', value: 'lenient' }, { from: '1.14.4', value: 'options' }],
    oncePerBlock: [{ from: '1.0.0', value: false }, { from: '1.5.0', value: true }],
    options: {
      monitor: { since: '1.12.2', arguments: one({ kind: 'enum', values: ['until-ready', 'continuously'] }), evidence: setup('ready', 'v1.12.2, v1.14.7') },
    },
    evidence: setup('ready', 'v1.5.0, v1.6.9, v1.12.2, v1.14.3, v1.14.4, v1.14.7'),
  }),

  loop: () => ({
    arguments: always(NONE),
    block: always('none'),
    oncePerBlock: [{ from: '1.0.0', value: false }, { from: '1.2.1', value: true }],
    options: {},
    evidence: setup('loop', 'v1.2.1, v1.6.9, v1.14.7'),
  }),

  reload: () => ({
    arguments: [
      { from: '1.0.0', value: { min: 0, max: 2, positions: [{ kind: 'duration', min: 2 }, { kind: 'duration', min: 1 }] } },
      { from: '1.14.2', value: { min: 0, max: 2, positions: [{ kind: 'duration', min: 2 }, { kind: 'duration', min: 1, orZero: true }] } },
    ],
    // Setup reads the first line's arguments only: a block, or a second line, is never read.
    block: always('ignored'),
    oncePerBlock: always(false),
    options: {},
    evidence: `${setup('reload', 'v1.2.6, v1.6.9, v1.8.0, v1.14.1, v1.14.2, v1.14.7')} (interval at least 2s; jitter at least 1s, or 0 from 1.14.2)`,
  }),

  loadbalance: () => ({
    arguments: [
      // Until 1.1.x setup only loops over the tokens of its lines: any arguments, any block.
      { from: '1.0.0', value: ANY_COUNT },
      { from: '1.2.0', value: { min: 0, max: 1, positions: [{ kind: 'enum', values: ['round_robin'] }] } },
      {
        from: '1.10.1',
        value: {
          min: 0,
          max: 2,
          positions: [{ kind: 'enum', values: ['round_robin', 'weighted'] }],
          // "unknown property for round_robin"; "missing weight file argument".
          cases: { round_robin: { min: 1, max: 1 }, weighted: { min: 2, max: 2 } },
        },
      },
    ],
    // Until 1.12.3 setup returns after the plugin line (the `weighted` policy of 1.10.1 reads its own block).
    block: [{ from: '1.0.0', value: 'ignored' }, { from: '1.12.4', value: 'options' }],
    oncePerBlock: always(false),
    options: {
      reload: { since: '1.12.4', arguments: one(DURATION), requires: { from: '1.12.4', pluginArgument: 'weighted', what: 'the `weighted` policy' }, evidence: setup('loadbalance', 'v1.10.1 (weighted only), v1.12.4') },
      prefer: { since: '1.12.4', arguments: ANY_COUNT, evidence: setup('loadbalance', 'v1.12.4') },
    },
    evidence: setup('loadbalance', 'v1.1.0, v1.2.0, v1.2.6, v1.10.1, v1.12.4, v1.14.7'),
  }),

  prometheus: () => ({
    arguments: always(OPTIONAL_LISTENER),
    block: [{ from: '1.0.0', value: 'none' }, { from: '1.14.3', value: 'options' }],
    oncePerBlock: always(true),
    options: {
      runtime_metrics: { since: '1.14.3', arguments: NONE, evidence: 'plugin/metrics/setup.go at v1.14.3' },
      tls: { since: '1.14.3', arguments: one(ANY), onceFrom: '1.14.3', evidence: 'plugin/metrics/setup.go at v1.14.3' },
    },
    evidence: 'plugin/metrics/setup.go at v1.0.0, v1.2.6, v1.6.9, v1.14.3, v1.14.7',
  }),

  log: () => ({
    arguments: always(ANY_COUNT),
    block: always('options'),
    oncePerBlock: always(false),
    options: {
      class: { since: '1.0.0', arguments: { min: 1, rest: { kind: 'enum', values: ['all', 'denial', 'error', 'success'] } }, evidence: setup('log', 'v1.0.0, v1.2.6, v1.6.9, v1.14.7') },
    },
    evidence: setup('log', 'v1.0.0, v1.2.6, v1.6.9, v1.14.7'),
  }),

  hosts: () => ({
    arguments: always(ANY_COUNT),
    block: always('hosts-entries'),
    oncePerBlock: [{ from: '1.0.0', value: false }, { from: '1.1.0', value: true }],
    options: {
      fallthrough: { since: '1.0.0', arguments: ANY_COUNT, evidence: setup('hosts', 'v1.0.0') },
      no_reverse: { since: '1.4.0', arguments: ANY_COUNT, evidence: setup('hosts', 'v1.4.0') },
      reload: { since: '1.4.0', arguments: one({ kind: 'duration', min: 0 }), evidence: setup('hosts', 'v1.4.0, v1.14.7') },
      ttl: { since: '1.4.0', arguments: { min: 1, positions: [{ kind: 'integer', min: 1, max: 65535 }] }, evidence: setup('hosts', 'v1.4.0, v1.6.9') },
      fallthrough_unsupported: {
        since: '1.14.7',
        arguments: NONE,
        requires: { from: '1.14.7', option: 'fallthrough', what: '`fallthrough` ("fallthrough_unsupported requires fallthrough")' },
        evidence: setup('hosts', 'v1.14.7'),
      },
    },
    evidence: setup('hosts', 'v1.0.0, v1.1.0, v1.4.0, v1.6.9, v1.14.7'),
  }),

  rewrite: () => ({
    arguments: [
      { from: '1.0.0', value: { min: 2, positions: [{ kind: 'enum', caseInsensitive: true, values: ['continue', 'stop', 'name', 'class', 'type', 'edns0'] }] } },
      { from: '1.2.3', value: { min: 2, positions: [{ kind: 'enum', caseInsensitive: true, values: ['continue', 'stop', 'name', 'class', 'type', 'edns0', 'ttl'] }] } },
      { from: '1.11.0', value: { min: 2, positions: [{ kind: 'enum', caseInsensitive: true, values: ['continue', 'stop', 'name', 'class', 'type', 'edns0', 'ttl', 'cname'] }] } },
      { from: '1.11.3', value: { min: 2, positions: [{ kind: 'enum', caseInsensitive: true, values: ['continue', 'stop', 'name', 'class', 'type', 'edns0', 'ttl', 'cname', 'rcode'] }] } },
    ],
    block: always('unchecked'),
    blockExtendsArguments: true,
    oncePerBlock: always(false),
    options: {},
    evidence: 'plugin/rewrite/setup.go and rewrite.go at v1.0.0, v1.2.3 (ttl), v1.11.0 (cname), v1.11.3 (rcode, coredns#6204), v1.14.7 (fields of the top-level forms only); class.go, type.go (StringToClass, StringToType of the upper-cased word, exactly two words) at v1.0.0–v1.14.7, rcode.go at v1.11.3, v1.14.7 (rewriteWordProblem)',
  }),

  template: () => ({
    // `template CLASS TYPE [ZONES…]`: "invalid query class", "invalid RR class" (for the type) in every release.
    arguments: DNS_TYPE_ERAS.map((era) => ({ from: era.from, value: { min: 2, positions: [DNS_CLASS, { kind: 'enum', values: era.value }] } })),
    block: always('options'),
    oncePerBlock: always(false),
    options: {
      // Every argument is compiled with regexp.Compile ("could not parse regex: …").
      match: { since: '1.0.3', arguments: withGoRegexp([{ from: '1.0.3', value: (regexp) => ({ min: 1, rest: regexp }) }]), evidence: setup('template', 'v1.0.3, v1.14.7 (regexp.Compile of each argument)') },
      answer: { since: '1.0.3', arguments: ONE_OR_MORE, evidence: setup('template', 'v1.0.3') },
      additional: { since: '1.0.3', arguments: ONE_OR_MORE, evidence: setup('template', 'v1.0.3') },
      authority: { since: '1.0.3', arguments: ONE_OR_MORE, evidence: setup('template', 'v1.0.3') },
      rcode: { since: '1.0.3', arguments: TEMPLATE_RCODE, evidence: TEMPLATE_RCODE_EVIDENCE },
      fallthrough: { since: '1.0.3', arguments: ANY_COUNT, evidence: setup('template', 'v1.0.3') },
      upstream: { since: '1.0.6', arguments: ANY_COUNT, evidence: setup('template', 'v1.0.6, v1.14.7') },
      // `ederror CODE [REASON]`: the code is read with strconv.ParseUint(…, 10, 16) at every tag from 1.10.1.
      ederror: {
        since: '1.10.1',
        arguments: { min: 1, max: 2, positions: [{ kind: 'integer', min: 0, max: 65535, unsigned: true }] },
        evidence: setup('template', 'v1.10.1, v1.11.0, v1.12.0, v1.13.0, v1.14.0, v1.14.7'),
      },
    },
    // A template answering NOERROR (rcode's default) must have a record in a section the setup counts:
    // answer or additional up to 1.1.2, answer or authority from 1.1.3 (coredns/coredns#1816, which meant
    // authority all along), none from 1.5.1 (coredns/coredns#2855: an empty NOERROR answer, NODATA, is allowed).
    requiredOneOf: {
      eras: [
        { from: '1.0.3', value: ['answer', 'additional'] },
        { from: '1.1.3', value: ['answer', 'authority'] },
        { from: '1.5.1', value: [] },
      ],
      unless: { option: 'rcode', value: 'NOERROR' },
      message: 'no answer section for template found',
    },
    evidence: `${setup('template', 'v1.0.3, v1.0.6, v1.1.3, v1.2.0, v1.5.0, v1.5.1, v1.8.0, v1.10.1, v1.14.7')}; miekg/dns StringToClass, StringToType (ztypes.go) at v1.0.3, v1.1.27, v1.1.34, v1.1.42, v1.1.55, v1.1.62, v1.1.64, v1.1.72 (types per release)`,
  }),

  federation: () => ({
    arguments: always(ANY_COUNT),
    block: always('name-pairs'),
    oncePerBlock: always(false),
    options: {
      upstream: { since: '1.0.0', confirmedFrom: true, arguments: ANY_COUNT, evidence: setup('federation', 'v1.2.3, v1.2.6') },
    },
    evidence: `${setup('federation', 'v1.0.0, v1.2.6')}; github.com/coredns/federation at v1.6.9`,
  }),

  k8s_external: () => ({
    arguments: always(ANY_COUNT),
    block: always('options'),
    oncePerBlock: always(false),
    options: {
      ttl: { since: '1.3.0', arguments: { min: 1, positions: [{ kind: 'integer', min: 0, max: 3600 }] }, evidence: setup('k8s_external', 'v1.3.0') },
      apex: { since: '1.3.0', arguments: ONE_OR_MORE, evidence: setup('k8s_external', 'v1.3.0') },
      headless: { since: '1.9.4', arguments: ANY_COUNT, evidence: setup('k8s_external', 'v1.9.4') },
      fallthrough: { since: '1.11.0', arguments: ANY_COUNT, evidence: setup('k8s_external', 'v1.11.0') },
    },
    requiresPlugin: { from: '1.11.0', plugin: 'kubernetes', message: 'kubernetes plugin not loaded' },
    evidence: `${setup('k8s_external', 'v1.3.0, v1.9.4, v1.10.1, v1.11.0, v1.14.7')} (without kubernetes: ignored until 1.10.1, "kubernetes plugin not loaded" from 1.11.0, coredns/coredns#5959)`,
  }),

  transfer: () => ({
    arguments: always(ANY_COUNT),
    block: always('options'),
    oncePerBlock: always(false),
    options: {
      to: { since: '1.6.5', arguments: ONE_OR_MORE, evidence: setup('transfer', 'v1.6.5, v1.8.0') },
      source: { since: '1.14.5', arguments: one({ kind: 'ip' }), onceFrom: '1.14.5', evidence: setup('transfer', 'v1.14.5') },
    },
    requiredOptions: [{ from: '1.6.5', option: 'to', message: "'to' is required" }],
    evidence: `${setup('transfer', 'v1.6.5, v1.8.0, v1.14.5')} ("'to' is required")`,
  }),

  autopath: () => ({
    arguments: always(ONE_OR_MORE),
    block: always('none'),
    oncePerBlock: always(false),
    options: {},
    evidence: setup('autopath', 'v1.0.0, v1.6.9, v1.14.7'),
  }),

  bind: () => ({
    // Before 1.8.4 every argument is an IP address (net.ParseIP: "not a valid IP address"); from
    // 1.8.4 an interface name of the machine too ("not a valid IP address or interface name"),
    // which lint cannot see: src/lint/rules/syntax.ts warns about those.
    arguments: [
      { from: '1.0.0', value: { min: 1, rest: { kind: 'ip' } } },
      { from: '1.8.4', value: ONE_OR_MORE },
    ],
    block: [{ from: '1.0.0', value: 'none' }, { from: '1.8.4', value: 'options' }],
    oncePerBlock: always(false),
    options: {
      except: { since: '1.8.4', arguments: ONE_OR_MORE, evidence: setup('bind', 'v1.8.4') },
    },
    evidence: setup('bind', 'v1.0.0, v1.1.0, v1.8.0, v1.8.4, v1.9.2, v1.11.4, v1.14.7'),
  }),

  acl: () => ({
    arguments: always(ANY_COUNT),
    block: always('options'),
    oncePerBlock: always(false),
    // The action is lower-cased before it is compared; without sections it matches every type and network.
    caseInsensitiveOptions: true,
    options: {
      allow: { since: '1.6.4', arguments: ACL_SECTIONS, evidence: setup('acl', 'v1.6.4, v1.8.0, v1.14.7') },
      block: { since: '1.6.4', arguments: ACL_SECTIONS, evidence: setup('acl', 'v1.6.4, v1.8.0, v1.14.7') },
      filter: { since: '1.8.2', arguments: ACL_SECTIONS, evidence: setup('acl', 'v1.8.2') },
      drop: { since: '1.10.1', arguments: ACL_SECTIONS, evidence: setup('acl', 'v1.10.1') },
    },
    evidence: setup('acl', 'v1.6.4, v1.7.0, v1.8.0, v1.8.2, v1.10.1, v1.12.2, v1.14.7'),
  }),

  file: () => ({
    arguments: always(ONE_OR_MORE),
    block: always('options'),
    oncePerBlock: always(false),
    options: {
      transfer: { since: '1.0.0', removedIn: '1.8.0', replacement: 'the transfer plugin', arguments: { min: 2 }, evidence: setup('file', 'v1.0.0, v1.8.0') },
      no_reload: { since: '1.0.0', removedIn: '1.5.0', arguments: ANY_COUNT, evidence: setup('file', 'v1.0.0, v1.5.0') },
      reload: { since: '1.2.3', arguments: { min: 1, positions: [DURATION] }, evidence: setup('file', 'v1.2.3') },
      upstream: { since: '1.0.0', arguments: ANY_COUNT, evidence: setup('file', 'v1.0.0, v1.14.7') },
      fallthrough: { since: '1.12.2', arguments: ANY_COUNT, evidence: setup('file', 'v1.12.2') },
      reload_by_mtime: { since: '1.14.4', arguments: ANY_COUNT, evidence: setup('file', 'v1.14.4') },
    },
    evidence: setup('file', 'v1.0.0, v1.2.3, v1.5.0, v1.8.0, v1.12.2, v1.14.4'),
  }),

  etcd: () => ({
    arguments: always(ANY_COUNT),
    block: always('options'),
    oncePerBlock: always(false),
    options: {
      stubzones: { since: '1.0.0', arguments: ANY_COUNT, evidence: setup('etcd', 'v1.0.0') },
      fallthrough: { since: '1.0.0', arguments: ANY_COUNT, evidence: setup('etcd', 'v1.0.0') },
      debug: { since: '1.0.0', arguments: ANY_COUNT, evidence: setup('etcd', 'v1.0.0') },
      path: { since: '1.0.0', arguments: ONE_OR_MORE, evidence: setup('etcd', 'v1.0.0') },
      endpoint: { since: '1.0.0', arguments: ONE_OR_MORE, evidence: setup('etcd', 'v1.0.0') },
      upstream: { since: '1.0.0', arguments: ANY_COUNT, evidence: setup('etcd', 'v1.0.0') },
      tls: { since: '1.0.0', arguments: { min: 0, max: 3 }, evidence: setup('etcd', 'v1.0.0') },
      credentials: { since: '1.4.0', arguments: { min: 2 }, evidence: setup('etcd', 'v1.4.0') },
      'min-lease-ttl': { since: '1.12.4', arguments: one(ANY), evidence: setup('etcd', 'v1.12.4') },
      'max-lease-ttl': { since: '1.12.4', arguments: one(ANY), evidence: setup('etcd', 'v1.12.4') },
    },
    evidence: setup('etcd', 'v1.0.0, v1.4.0, v1.12.4'),
  }),

  grpc: () => ({
    arguments: always('unchecked'),
    block: always('options'),
    oncePerBlock: [{ from: '1.0.0', value: false }, { from: '1.5.0', value: true }],
    options: {
      except: { since: '1.5.0', arguments: ONE_OR_MORE, evidence: setup('grpc', 'v1.5.0') },
      tls: { since: '1.5.0', arguments: { min: 0, max: 3 }, evidence: setup('grpc', 'v1.5.0') },
      tls_servername: { since: '1.5.0', arguments: one(ANY), evidence: setup('grpc', 'v1.5.0') },
      policy: { since: '1.5.0', arguments: POLICY, evidence: setup('grpc', 'v1.5.0') },
      fallthrough: { since: '1.12.3', arguments: ANY_COUNT, evidence: setup('grpc', 'v1.12.3') },
    },
    evidence: setup('grpc', 'v1.5.0, v1.6.9, v1.12.3, v1.14.7'),
  }),
};

// ---------------------------------------------------------------------------------------------
// Reading the table
// ---------------------------------------------------------------------------------------------

/** The value of the era `version` falls in (undefined before the first era). */
export function eraAt<T>(eras: readonly Era<T>[], version: CoreDnsVersion): T | undefined {
  return valueAt(eras, version, compareCoreDnsVersions);
}

/**
 * The lines of which `block` (a plugin's block; undefined: none) must hold one for `version` to start,
 * or undefined when it needs none: the {@link PluginSyntax.requiredOneOf} rule of `plugin`.
 */
export function missingRequiredLines(plugin: string, block: readonly { readonly name: string; readonly arguments: readonly string[] }[] | undefined, version: CoreDnsVersion): readonly string[] | undefined {
  const rule = pluginSyntax(plugin)?.requiredOneOf;
  if (rule === undefined) return undefined;
  const needed = eraAt(rule.eras, version) ?? [];
  if (needed.length === 0) return undefined;
  const lines = block ?? [];
  if (lines.some((line) => needed.includes(line.name))) return undefined;
  const last = lines.findLast((line) => line.name === rule.unless.option);
  if (last !== undefined && last.arguments[0] !== rule.unless.value) return undefined;
  return needed;
}

/** The rows made so far (each made once: the table is read-only). */
const MADE = new Map<string, PluginSyntax>();

/** The syntax facts of `plugin`, or undefined when the table does not model it. */
export function pluginSyntax(plugin: string): PluginSyntax | undefined {
  let syntax = MADE.get(plugin);
  if (syntax === undefined) {
    if (!Object.hasOwn(ROWS, plugin)) return undefined;
    syntax = (ROWS[plugin] as () => PluginSyntax)();
    MADE.set(plugin, syntax);
  }
  return syntax;
}

/** The plugins the table models, in its order. */
export const SYNTAX_PLUGINS: readonly string[] = Object.freeze(Object.keys(ROWS));

/** The whole table (every row made): for reading all of it, as tests and {@link syntaxRulesAt} do. */
export function pluginSyntaxTable(): Readonly<Record<string, PluginSyntax>> {
  return Object.fromEntries(SYNTAX_PLUGINS.map((plugin) => [plugin, pluginSyntax(plugin) as PluginSyntax]));
}

/** The facts of one option, or undefined. */
export function optionSyntax(plugin: string, option: string): OptionSyntax | undefined {
  const syntax = pluginSyntax(plugin);
  if (syntax === undefined || !Object.hasOwn(syntax.options, option)) return undefined;
  return syntax.options[option];
}

/** The argument shape of an option in `version` (whether or not the option exists then). */
export function optionArgumentsAt(option: OptionSyntax, version: CoreDnsVersion): ArgumentShape | undefined {
  const shape = option.arguments;
  return 'min' in shape ? shape : eraAt(shape as readonly Era<ArgumentShape>[], version);
}

/** Every `plugin option` pair of the table, sorted (made on first use: it reads every row). */
export function optionsWithSyntax(): readonly string[] {
  optionPairs ??= Object.freeze(
    Object.entries(pluginSyntaxTable())
      .flatMap(([plugin, syntax]) => Object.keys(syntax.options).map((option) => `${plugin} ${option}`))
      .sort(),
  );
  return optionPairs;
}

let optionPairs: readonly string[] | undefined;

/**
 * Everything the table says about `version`, as one JSON text: two releases with the same text
 * accept the same plugin lines and options.
 */
export function syntaxRulesAt(version: string): string {
  const v = parseCoreDnsVersion(version);
  const atLeast = (from: CoreDnsVersion | undefined) => from !== undefined && isCoreDnsVersionAtLeast(v, from);
  const plugins = Object.entries(pluginSyntaxTable()).map(([plugin, syntax]) => ({
    plugin,
    arguments: eraAt(syntax.arguments, v),
    block: eraAt(syntax.block, v),
    once: eraAt(syntax.oncePerBlock, v),
    requires: atLeast(syntax.requiresPlugin?.from) ? syntax.requiresPlugin?.plugin : undefined,
    required: (syntax.requiredOptions ?? []).filter((entry) => atLeast(entry.from)).map((entry) => entry.option),
    requiredOneOf: syntax.requiredOneOf === undefined ? undefined : eraAt(syntax.requiredOneOf.eras, v),
    extends: syntax.blockExtendsArguments,
    options: Object.entries(syntax.options)
      .filter(([, option]) => atLeast(option.since) && !atLeast(option.removedIn))
      .map(([name, option]) => ({ name, arguments: optionArgumentsAt(option, v), once: atLeast(option.onceFrom), ignored: atLeast(option.ignoredFrom) })),
  }));
  return JSON.stringify(plugins);
}

// ---------------------------------------------------------------------------------------------
// Judging arguments
// ---------------------------------------------------------------------------------------------

const DURATION_UNITS: Readonly<Record<string, number>> = { ns: 1e-9, us: 1e-6, 'µs': 1e-6, 'μs': 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 };

/**
 * A Go duration (`time.ParseDuration`) in seconds, or undefined when Go refuses it: an optional
 * sign, then one or more `NUMBER UNIT` (`1h30m`, `1.5s`), or a bare `0`.
 */
export function parseGoDuration(text: string): number | undefined {
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    if (rest.startsWith('-')) sign = -1;
    rest = rest.slice(1);
  }
  if (rest === '0') return 0;
  if (rest === '') return undefined;
  let total = 0;
  const part = /^([0-9]*(?:\.[0-9]*)?)(ns|us|µs|μs|ms|s|m|h)/;
  while (rest !== '') {
    const match = part.exec(rest);
    if (match === null) return undefined;
    const [whole = '', number = '', unit = ''] = match;
    if (number === '' || number === '.') return undefined;
    total += Number(number) * (DURATION_UNITS[unit] ?? 0);
    rest = rest.slice(whole.length);
  }
  return sign * total;
}

/** A Go `strconv.Atoi` integer, or undefined. */
export function parseGoInteger(text: string): number | undefined {
  if (!/^[+-]?[0-9]+$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** One regular expression of a rewrite rule that the release refuses to compile. */
export interface RewriteRegexpProblem {
  /** Index of the offending argument among the rule's arguments. */
  readonly index: number;
  readonly problem: string;
}

/**
 * The first regular expression of a `rewrite` rule (its arguments after an optional
 * `continue`/`stop`) that `version` refuses, as the rule's setup reads it: `name regex FROM TO`
 * (1.0.2) and its `answer name FROM TO` (1.0.2) / `answer value FROM TO` (1.8.4) rules compile FROM
 * and, from 1.2.5, refuse a TO that uses more `{N}` than FROM has groups; an exact `name FROM TO`
 * compiles the lower-cased, fully qualified TO as a pattern and checks FROM's `{N}` against it
 * (1.2.5); `ttl regex FROM TTL` (1.2.3), `rcode regex FROM RCODE` (1.11.3) and `cname regex FROM
 * TO` (1.13.2, lower-cased first) compile FROM. plugin/rewrite/name.go, ttl.go, rcode.go,
 * cname_target.go at v1.0.2, v1.2.3, v1.2.5, v1.8.4, v1.11.3, v1.13.2, v1.14.7.
 */
export function rewriteRegexpProblem(args: readonly string[], version: CoreDnsVersion): RewriteRegexpProblem | undefined {
  const syntax = goRegexpSyntaxAt(version);
  const at = (from: string) => isCoreDnsVersionAtLeast(version, from as CoreDnsVersion);
  const start = args[0] !== undefined && ['continue', 'stop'].includes(args[0].toLowerCase()) ? 1 : 0;
  const rule = args[start]?.toLowerCase();
  const rest = args.slice(start + 1);
  const judge = (offset: number, pattern: string, to: string | undefined): RewriteRegexpProblem | undefined => {
    const verdict = judgeGoRegexp(pattern, syntax);
    const index = start + 1 + offset;
    if (!verdict.ok) return { index, problem: `'${args[index]}' is not a Go regular expression (${verdict.error})` };
    const used = to === undefined || !at('1.2.5') ? 0 : subexpressionsUsed(to);
    if (used > verdict.groups) return { index, problem: `${to} uses ${used} of the groups {0}…{100}, more than the ${verdict.groups} of '${args[index]}'` };
    return undefined;
  };
  const regexAt = (offset: number) => rest[offset]?.toLowerCase() === 'regex' && rest.length >= offset + 2;
  switch (rule) {
    case 'name': {
      if (regexAt(0) && at('1.0.2') && rest.length >= 3) {
        const question = judge(1, rest[1] as string, rest[2]);
        if (question !== undefined) return question;
        for (let index = 3; index + 3 < rest.length; index += 1) {
          const kind = rest[index + 1];
          if (rest[index] !== 'answer' || !(kind === 'name' || (kind === 'value' && at('1.8.4')))) continue;
          const answer = judge(index + 2, rest[index + 2] as string, rest[index + 3]);
          if (answer !== undefined) return answer;
        }
        return undefined;
      }
      const exact = rest.length === 2 ? 0 : rest.length >= 3 && rest[0]?.toLowerCase() === 'exact' ? 1 : undefined;
      if (exact === undefined || !at('1.2.5')) return undefined;
      const to = fullyQualifiedLower(rest[exact + 1] as string);
      const verdict = judgeGoRegexp(to, syntax);
      const index = start + 1 + exact + 1;
      if (!verdict.ok) return { index, problem: `'${args[index]}' is compiled as a Go regular expression and is not one (${verdict.error})` };
      const used = subexpressionsUsed(fullyQualifiedLower(rest[exact] as string));
      return used > verdict.groups ? { index: index - 1, problem: `'${args[index - 1]}' uses ${used} of the groups {0}…{100}, more than the ${verdict.groups} of '${args[index]}'` } : undefined;
    }
    case 'ttl':
      return regexAt(0) && at('1.2.3') ? judge(1, rest[1] as string, undefined) : undefined;
    case 'rcode':
      return regexAt(0) && at('1.11.3') ? judge(1, rest[1] as string, undefined) : undefined;
    case 'cname':
      return regexAt(0) && at('1.13.2') && rest.length >= 3 ? judge(1, (rest[1] as string).toLowerCase(), undefined) : undefined;
    default:
      return undefined;
  }
}

/** A word of a rewrite rule that the release refuses, or a rule with the wrong number of words. */
export interface RewriteWordProblem {
  /** Index of the offending argument among the rule's arguments (the rule type's for a count problem). */
  readonly index: number;
  readonly kind: 'count' | 'invalid';
  readonly problem: string;
}

/**
 * The rule types a release's rewrite knows after `continue`/`stop` (read as the first word is:
 * lower-cased), from the table's first-argument words.
 */
function rewriteRuleTypes(version: CoreDnsVersion): readonly string[] {
  const shape = eraAt(pluginSyntax('rewrite')?.arguments ?? [], version);
  const first = shape === undefined || shape === 'unchecked' ? undefined : shape.positions?.[0];
  return first?.kind === 'enum' ? first.values.filter((word) => word !== 'continue' && word !== 'stop') : [];
}

/**
 * The words of a `rewrite` rule as its setup reads them (plugin/rewrite/rewrite.go, class.go,
 * type.go, rcode.go at every tag from v1.0.0, rcode from v1.11.3): after an optional
 * `continue`/`stop` the rule type, lower-cased; `class FROM TO` and `type FROM TO` take exactly two
 * words, each upper-cased and looked up in miekg/dns's `StringToClass` / `StringToType` ("invalid
 * class", "invalid type"); `rcode [MATCH] NAME FROM TO` takes a response code as a number from 0 to
 * 23 or a `StringToRcode` name (upper-cased), and MATCH one of exact, prefix, suffix, substring,
 * regex. Undefined when the words fit (or are not this function's: other rule types).
 */
export function rewriteWordProblem(args: readonly string[], version: CoreDnsVersion): RewriteWordProblem | undefined {
  const first = args[0]?.toLowerCase();
  const start = first === 'continue' || first === 'stop' ? 1 : 0;
  const ruleType = args[start]?.toLowerCase();
  if (ruleType === undefined) return start === 1 ? { index: 0, kind: 'count', problem: `a ${first} rule must begin with a rule type` } : undefined;
  if (start === 1 && !rewriteRuleTypes(version).includes(ruleType)) {
    return { index: start, kind: 'invalid', problem: `'${args[start]}' is no rule type of this release ("invalid rule type"; it has ${rewriteRuleTypes(version).join(', ')})` };
  }
  const rest = args.slice(start + 1);
  const at = (offset: number) => start + 1 + offset;
  switch (ruleType) {
    case 'class':
    case 'type': {
      if (rest.length !== 2) return { index: start, kind: 'count', problem: `${ruleType} rules must have exactly two arguments, not ${rest.length}` };
      const known = ruleType === 'class' ? DNS_CLASS_WORDS : new Set(dnsTypesAt(version).filter((name) => name === name.toUpperCase()));
      for (let offset = 0; offset < 2; offset += 1) {
        const word = (rest[offset] as string).toUpperCase();
        if (!known.has(word)) return { index: at(offset), kind: 'invalid', problem: `invalid ${ruleType} "${word}" (${ruleType === 'class' ? 'a class is one of IN, CS, CH, HS, NONE, ANY' : 'a type is a record type name such as A, AAAA, SRV, TXT'}, in any case)` };
      }
      return undefined;
    }
    case 'rcode': {
      if (!isCoreDnsVersionAtLeast(version, '1.11.3')) return undefined;
      if (rest.length < 3) return { index: start, kind: 'count', problem: `too few (${rest.length}) arguments for a rcode rule: it takes [MATCH] NAME FROM TO` };
      if (rest.length > 4) return { index: start, kind: 'count', problem: `${rest.length} arguments for a rcode rule, more than its [MATCH] NAME FROM TO` };
      const codes = rest.length === 3 ? 1 : 2;
      const names = new Set(rcodeNames(version));
      const validCode = (word: string) => (/^[0-9]+$/.test(word) && Number(word) <= 23) || names.has(word.toUpperCase());
      for (const [offset, role] of [[codes, 'matching'], [codes + 1, 'replacement']] as const) {
        const word = rest[offset] as string;
        if (!validCode(word)) return { index: at(offset), kind: 'invalid', problem: `invalid ${role} RCODE '${word}' for a rcode rule (a number from 0 to 23 or a name such as NXDOMAIN, SERVFAIL, REFUSED, in any case)` };
      }
      if (rest.length === 4 && !['exact', 'prefix', 'suffix', 'substring', 'regex'].includes((rest[0] as string).toLowerCase())) {
        return { index: at(0), kind: 'invalid', problem: `'${rest[0]}': a rcode rule supports only exact, prefix, suffix, substring, and regex name matching` };
      }
      return undefined;
    }
    default:
      return undefined;
  }
}

/** The response code names of the release's dns library (as template's `rcode` reads them). */
function rcodeNames(version: CoreDnsVersion): readonly string[] {
  const shape = eraAt(TEMPLATE_RCODE, version);
  const spec = shape?.positions?.[0];
  return spec?.kind === 'enum' ? spec.values : [];
}

/** `StringToClass` keys, as an upper-cased word is looked up. */
const DNS_CLASS_WORDS: ReadonlySet<string> = new Set(DNS_CLASS.kind === 'enum' ? DNS_CLASS.values : []);

/** How many of `{0}` … `{100}` the text holds (rewrite's getSubExprUsage). */
function subexpressionsUsed(text: string): number {
  if (!text.includes('{')) return 0;
  let count = 0;
  for (let index = 0; index <= 100; index += 1) if (text.includes(`{${index}}`)) count += 1;
  return count;
}

/** plugin.Name(…).Normalize(): lower case, fully qualified. */
function fullyQualifiedLower(name: string): string {
  const lower = name.toLowerCase();
  return lower.endsWith('.') ? lower : `${lower}.`;
}

/** Why `argument` does not fit `spec` (undefined when it does). */
export function argumentProblem(argument: string, spec: ArgumentSpec): string | undefined {
  switch (spec.kind) {
    case 'any':
      return undefined;
    case 'duration': {
      const seconds = parseGoDuration(argument);
      if (seconds === undefined) return `'${argument}' is not a duration (e.g. 30s, 5m)`;
      if (spec.orZero === true && seconds === 0) return undefined;
      if (spec.min !== undefined && seconds < spec.min) return spec.min === 0 ? `'${argument}' is negative` : `'${argument}' is less than ${spec.min}s`;
      return undefined;
    }
    case 'integer': {
      const value = spec.unsigned === true && /^[+-]/.test(argument) ? undefined : parseGoInteger(argument);
      if (value === undefined) return spec.orOther === true ? undefined : `'${argument}' is not an integer`;
      if ((spec.min !== undefined && value < spec.min) || (spec.max !== undefined && value > spec.max)) {
        return `${value} is outside [${spec.min ?? '…'}, ${spec.max ?? '…'}]`;
      }
      return undefined;
    }
    case 'enum': {
      const written = spec.caseInsensitive === true ? argument.toLowerCase() : argument;
      return spec.values.includes(written) ? undefined : `'${argument}' is not one of ${spec.values.join(', ')}`;
    }
    case 'number':
      if (!/^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/.test(argument) && !/^[+-]?(?:inf|infinity|nan)$/i.test(argument)) return `'${argument}' is not a number`;
      return spec.min !== undefined && Number(argument) < spec.min ? `${argument} is less than ${spec.min}` : undefined;
    case 'host-port':
      return splitHostPort(argument) === undefined ? `'${argument}' is not HOST:PORT` : undefined;
    case 'ip':
      return isGoIP(argument) ? undefined : `'${argument}' is not an IP address`;
    case 'percent': {
      if (!argument.endsWith('%')) return `'${argument}' does not end with %`;
      const value = parseGoInteger(argument.slice(0, -1));
      if (value === undefined) return `'${argument}' is not a percentage`;
      return value < spec.min || value > spec.max ? `${value}% is outside [${spec.min}, ${spec.max}]` : undefined;
    }
    case 'go-regexp': {
      const verdict = judgeGoRegexp(spec.lowerCased === true ? argument.toLowerCase() : argument, spec.syntax);
      return verdict.ok ? undefined : `'${argument}' is not a Go regular expression (${verdict.error})`;
    }
    case 'cidr':
      if (spec.wildcard === true && argument === '*') return undefined;
      return isGoCidr(spec.bareIp === true && !argument.includes('/') ? `${argument}/${argument.includes(':') ? 128 : 32}` : argument) ? undefined : `'${argument}' is not a network in CIDR notation`;
  }
}

/** Go's `net.ParseCIDR`: an IP address without a zone, `/`, a decimal prefix length of at most its bits. */
function isGoCidr(text: string): boolean {
  const slash = text.indexOf('/');
  if (slash < 0) return false;
  const address = text.slice(0, slash);
  const prefix = text.slice(slash + 1);
  if (address.includes('%') || !isGoIP(address) || !/^[0-9]{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (address.includes(':') ? 128 : 32);
}

/** What is wrong with `args` for `shape`: a count problem or one argument's problem. */
export type ArgumentVerdict =
  | { readonly kind: 'ok' }
  | { readonly kind: 'count'; readonly expected: string }
  | { readonly kind: 'invalid'; readonly index: number; readonly problem: string };

export function judgeArguments(args: readonly string[], shape: ArgumentShape): ArgumentVerdict {
  if (args.length < shape.min || (shape.max !== undefined && args.length > shape.max)) {
    const expected =
      shape.max === undefined ? `at least ${shape.min}` : shape.min === shape.max ? `exactly ${shape.min}` : `${shape.min} to ${shape.max}`;
    return { kind: 'count', expected };
  }
  const positions = shape.positions;
  const fixed = positions?.length ?? 0;
  for (let index = 0; index < args.length; index += 1) {
    const spec = positions?.[index] ?? (index >= fixed ? shape.rest : undefined);
    if (spec === undefined) continue;
    const problem = argumentProblem(args[index] as string, spec);
    if (problem !== undefined) return { kind: 'invalid', index, problem };
  }
  const first = args[0];
  if (shape.cases !== undefined && first !== undefined && Object.hasOwn(shape.cases, first)) {
    const verdict = judgeArguments(args, shape.cases[first] as ArgumentShape);
    if (verdict.kind === 'count') return { kind: 'count', expected: `${verdict.expected} (with ${first})` };
    if (verdict.kind !== 'ok') return verdict;
  }
  return shape.sections === undefined ? ARGUMENTS_OK : judgeSections(args, shape.sections);
}

/** The verdict for arguments that pass (shared: most do). */
const ARGUMENTS_OK: ArgumentVerdict = Object.freeze({ kind: 'ok' });

function judgeSections(args: readonly string[], sections: NonNullable<ArgumentShape['sections']>): ArgumentVerdict {
  const words = Object.keys(sections.specs);
  const sectionOf = (argument: string): string | undefined => {
    const word = sections.caseInsensitive === true ? argument.toLowerCase() : argument;
    return words.includes(word) ? word : undefined;
  };
  let current: string | undefined;
  let tokens = 0;
  for (const [index, argument] of args.entries()) {
    const section = sectionOf(argument);
    if (section !== undefined) {
      if (current !== undefined && tokens === 0) return { kind: 'invalid', index: index - 1, problem: `no argument after '${args[index - 1] ?? ''}'` };
      current = section;
      tokens = 0;
      continue;
    }
    if (current === undefined) return { kind: 'invalid', index, problem: `'${argument}' is not one of ${words.join(', ')}` };
    const problem = argumentProblem(argument, sections.specs[current] as ArgumentSpec);
    if (problem !== undefined) return { kind: 'invalid', index, problem };
    tokens += 1;
  }
  if (current !== undefined && tokens === 0) return { kind: 'invalid', index: args.length - 1, problem: `no argument after '${args[args.length - 1] ?? ''}'` };
  return { kind: 'ok' };
}
