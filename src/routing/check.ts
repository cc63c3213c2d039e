import { checkArgument, checkOptions } from '../errors/arguments.js';
import type { ConfigMapData } from '../configmap/config-map-data.js';
import type { ValueLocator } from '../util/source-position.js';
import type { Corefile } from '../corefile/model.js';
import { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';
import { coreDnsRouting } from './coredns-routing.js';
import type { CoreDnsRouting } from './coredns-routing.js';
import { describeDestination, destinationKey, sameDestination } from './destination.js';
import type { Route } from './destination.js';
import { kubeDnsRoutingOfInput } from './kube-dns-input.js';
import { kubeDnsRouting, kubeDnsRoutingIgnoringUnqualified } from './kube-dns-routing.js';
import type { KubeDnsRouting } from './kube-dns-routing.js';
import { ancestors, canonicalName, compareNames, displayName } from '../dns/names.js';
import { printable } from '../util/printable-text.js';
import type { KubeDnsDeployment } from '../kubedns/kube-dns-install.js';
import { parseCorefile } from '../corefile/parser.js';
import { negativeCachingBlocks } from './negative-caching.js';
import { coreDnsFeatures, firstReleaseWith } from '../coredns/features.js';
import { coreDnsReleaseOf } from '../coredns/resolve-release.js';
import type { KubeDnsQuirk } from '../kubedns/kube-dns-quirks.js';
import type { NegativeCachingBlock } from './negative-caching.js';
import { maxOf } from '../util/lists.js';

/**
 * `check`: does every name still go where it went? Routes a deterministic set of names through the
 * kube-dns model and the CoreDNS model and reports each name whose destination differs.
 *
 * Pure: no Node APIs.
 */

/** The two configurations to compare. */
export interface RoutingInput {
  /**
   * The kube-dns ConfigMap: its `data` map, its YAML or JSON text (as `kubectl get configmap -o
   * yaml|json` prints it; with several ConfigMaps, the one named `kube-dns`; a CoreDNS ConfigMap
   * throws `ConfigMapInputError`, another name or namespace adds a note), or `null` for none.
   */
  readonly kubeDns: ConfigMapData | string | null;
  /** The Corefile, as text or as a parsed model. */
  readonly corefile: string | Corefile;
  /** The cluster domain (default `cluster.local`). */
  readonly clusterDomain?: string;
  /** The kube-dns version whose validation rules apply (default: the newest known). */
  readonly kubeDnsVersion?: string;
  /** The port pods send queries to, i.e. the CoreDNS port the Service targets (default 53). */
  readonly port?: number | string;
  /** More names to compare, besides those derived from both configurations. */
  readonly names?: readonly string[];
  /** The kube-dns Deployment, when not in the `kubeDns` text: its dnsmasq flags route names and decide negative caching. */
  readonly kubeDnsDeployment?: KubeDnsDeployment;
  /**
   * The CoreDNS release the Corefile is for. Before 1.9.4 NXDOMAIN cannot go uncached: a block that
   * keeps it for at most 1 s where kube-dns kept nothing is then reported as unavoidable, not as a
   * failure.
   */
  readonly coredns?: string;
  /**
   * kube-dns quirks the Corefile repairs on purpose (the translator's `repair`): the differences
   * they explain are listed in `repaired` and do not fail the check.
   */
  readonly repairs?: readonly KubeDnsQuirk[];
  /**
   * The Corefile was translated without the ConfigMap's federations (the translator's
   * `dropFederations`): the federation names that differ for that reason are listed in `repaired`
   * and do not fail the check.
   */
  readonly dropFederations?: boolean;
  /**
   * Where the `kubeDns` data's values are written in the file they were read from
   * (`ConfigMapDocument.locate`), for notes that point into it; text given as `kubeDns` is located itself.
   */
  readonly kubeDnsLocate?: ValueLocator;
}

export interface RoutingDifference {
  /** The query name (lower case, no trailing dot; `.` for the root). */
  readonly name: string;
  /**
   * The query type that differs, for a name whose route depends on it (an `--address` zone, a
   * `template` of one type): `AAAA` or `MX`, compared once the A query agrees. Absent: the A query,
   * the one every name is compared with.
   */
  readonly queryType?: string;
  readonly kubeDns: Route;
  readonly coreDns: Route;
}

export interface NxdomainAnswerDifference {
  /** The query name (lower case, no trailing dot; `.` for the root). */
  readonly name: string;
  /** AAAA or MX (absent: A). */
  readonly queryType?: string;
  /** The dnsmasq flag under whose domain kube-dns answered NOERROR; absent when only the Corefile does. */
  readonly address?: string;
  /** True when the Corefile's release cannot rewrite a response code (before CoreDNS 1.11.3). */
  readonly unavoidable?: boolean;
}

/**
 * A name both sides answer from their configuration whose ANY query gets records of other types:
 * dnsmasq's `--address` entries against the Corefile's first matching `template`.
 */
export interface AnyAnswerDifference {
  /** The query name (lower case, no trailing dot; `.` for the root). */
  readonly name: string;
  /** The record types dnsmasq answers ANY with (`['A', 'AAAA']` for `#` alone: both null addresses). */
  readonly kubeDns: readonly string[];
  /** The record types the Corefile answers ANY with. */
  readonly coreDns: readonly string[];
  /**
   * True when no Corefile can do the same: dnsmasq answered both families and a template answers
   * ANY with one template's records (`any-query-one-family`); such a difference does not fail the check.
   */
  readonly unavoidable?: boolean;
}

export interface RoutingCheck {
  /** True when no compared name is routed differently (repairs and unavoidable caching aside). */
  readonly ok: boolean;
  /**
   * The same as `ok`, under its old name.
   *
   * @deprecated Read `ok` (the name every other result uses); `equivalent` goes in the next minor release.
   */
  readonly equivalent: boolean;
  /** The names routed differently, in canonical DNS order. */
  readonly differences: readonly RoutingDifference[];
  /** The names routed differently because of the `repairs` (or `dropFederations`) asked for (each agrees with kube-dns repaired). */
  readonly repaired: readonly RoutingDifference[];
  /**
   * Names without a dot that dnsmasq sent to the servers of a `--server` written for them
   * (`--server=//IP`), or, from 2.86, of one whose domains end in a dot (the quirk
   * `trailing-dot-domains`), while the Corefile sends them where every other name
   * goes: CoreDNS has no zone for names without a dot, so no Corefile can keep that (the translator
   * warns, `deployment-flag-not-translated`). Expected; they do not fail the check.
   */
  readonly unavoidable: readonly RoutingDifference[];
  /**
   * Names forwarded on both sides whose NXDOMAIN one side turns into NOERROR without records and
   * the other does not: dnsmasq 2.86+ does it under the domain of an `--address` with an address
   * (`address`), a Corefile with a `rewrite … rcode … NXDOMAIN NOERROR` rule. Each fails the check
   * unless `unavoidable` (the release, before 1.11.3, has no rcode rewrite).
   */
  readonly nxdomainAnswers: readonly NxdomainAnswerDifference[];
  /** Every name compared, in canonical DNS order. */
  readonly names: readonly string[];
  /** What either model assumed or could not follow (e.g. kube-dns rejected the ConfigMap). */
  readonly notes: readonly string[];
  /**
   * Blocks that cache NXDOMAIN where kube-dns did not (its dnsmasq ran with `--no-negcache`): a
   * name created after a failed lookup stays unknown for up to `seconds`. Checked only when the
   * Deployment is known; each one makes the check fail unless `unavoidable` (the release cannot
   * switch denial caching off, and the block keeps NXDOMAIN for at most 1 s).
   */
  readonly negativeCaching: readonly NegativeCachingBlock[];
  /**
   * Names whose ANY query both sides answer themselves with records of other types, compared where
   * a name's route depends on the query type and for names without a dot (docs/routing.md, "Query
   * types"). Each fails the check unless `unavoidable`.
   */
  readonly anyAnswers: readonly AnyAnswerDifference[];
}

/** Both models of `input`. Throws `ConfigMapInputError` / `CorefileSyntaxError` for unreadable input. */
export function routingModels(input: RoutingInput, build: typeof kubeDnsRouting = kubeDnsRouting): { kubeDns: KubeDnsRouting; coreDns: CoreDnsRouting } {
  const kubeDns = kubeDnsRoutingOfInput(input.kubeDns, {
    ...(input.clusterDomain === undefined ? {} : { clusterDomain: input.clusterDomain }),
    ...(input.kubeDnsVersion === undefined ? {} : { kubeDnsVersion: input.kubeDnsVersion }),
    ...(input.kubeDnsDeployment === undefined ? {} : { deployment: input.kubeDnsDeployment }),
    ...(input.kubeDnsLocate === undefined ? {} : { locate: input.kubeDnsLocate }),
    ...(input.repairs === undefined ? {} : { repairs: input.repairs }),
    ...(input.dropFederations === true ? { dropFederations: true } : {}),
  }, build);
  const coreDns = coreDnsRouting(input.corefile, input.port === undefined ? {} : { port: input.port });
  return { kubeDns, coreDns };
}

/**
 * The query types compared besides A for a name whose route depends on the type: the other address
 * type, and one type no address answers.
 */
const OTHER_QUERY_TYPES: readonly string[] = ['AAAA', 'MX'];

/** A reverse name inside the usual service range, one outside, and the reverse zone of 2001:db8::/32. */
const SAMPLE_REVERSE = ['1.0.96.10.in-addr.arpa', '8.8.8.8.in-addr.arpa', '8.b.d.0.1.0.0.2.ip6.arpa'];
const SAMPLE_OTHER = ['example.com', 'www.example.com', 'example'];

/**
 * The names `check` compares, deterministic for given models: every zone either side routes on
 * (stub domains, the cluster domain, reverse zones, server block zones, plugin zones, forward FROM
 * and except names) and a child `x.<zone>` of each; in the cluster domain
 * `kubernetes.default.svc.<domain>` and a federation-shaped name per federation; a few reverse
 * names; `example.com`, `www.example.com` and the single label `example`; `extra`; and the
 * ancestors up to the root of all but the reverse and `example` samples. Sorted in canonical DNS
 * order.
 */
export function namesToCheck(kubeDns: KubeDnsRouting, coreDns: CoreDnsRouting, extra: readonly string[] = []): string[] {
  checkArgument('namesToCheck', 'kubeDns', kubeDns, 'object');
  checkArgument('namesToCheck', 'coreDns', coreDns, 'object');
  checkArgument('namesToCheck', 'extra', extra, 'array?');
  const names = new Set<string>();
  const addName = (name: string) => {
    if (names.has(name)) return;
    names.add(name);
    // A name's ancestors are all present once the name is: stop at the first one already there.
    for (const ancestor of ancestors(name)) {
      if (names.has(ancestor)) break;
      names.add(ancestor);
    }
  };
  for (const zone of [...kubeDns.zones, ...coreDns.zones]) {
    addName(zone);
    addName(zone === '' ? 'x' : `x.${zone}`);
  }
  const cluster = kubeDns.clusterDomain;
  addName(`kubernetes.default.svc.${cluster}`);
  for (const federation of kubeDns.federations.keys()) addName(`service.namespace.${federation}.svc.${cluster}`);
  for (const name of [...SAMPLE_REVERSE, ...SAMPLE_OTHER]) names.add(name);
  for (const name of extra) addName(canonicalName(name));
  return [...names].sort(compareNames);
}

/**
 * Compares who answers each name under kube-dns and under the Corefile. Returns the differences;
 * an empty `differences` (`ok`) means every compared name goes where it went.
 */
export function checkRouting(input: RoutingInput): RoutingCheck {
  checkArgument('checkRouting', 'input', input, 'object');
  // Parsed once: the CoreDNS model and the caching check both read it.
  const corefile = typeof input.corefile === 'string' ? parseCorefile(input.corefile).corefile : input.corefile;
  const { kubeDns, coreDns } = routingModels({ ...input, corefile, repairs: [], dropFederations: false });
  // kube-dns as repaired, and (dropFederations) also without federations: the translator drops them only where the release has no federation plugin.
  const repairedModels = [
    ...(input.repairs === undefined || input.repairs.length === 0 ? [] : [routingModels({ ...input, corefile, dropFederations: false }).kubeDns]),
    ...(input.dropFederations === true ? [routingModels({ ...input, corefile }).kubeDns] : []),
  ];
  const names = namesToCheck(kubeDns, coreDns, input.names ?? []);
  const differences: RoutingDifference[] = [];
  const repaired: RoutingDifference[] = [];
  const withoutDot: RoutingDifference[] = [];
  // kube-dns as if names without a dot went where the others go: built for the first such name that differs.
  let dotless: KubeDnsRouting | undefined;
  /** A difference goes to `repaired`, to `unavoidable` (a name without a dot, above) or to `differences`. */
  const sort = (difference: RoutingDifference) => {
    const { name, queryType, kubeDns: kubeRoute, coreDns: coreRoute } = difference;
    if (repairedModels.some((model) => sameDestination(model.route(name, queryType).destination, coreRoute.destination))) {
      repaired.push(difference);
      return;
    }
    if (name !== '' && !name.includes('.') && kubeRoute.destination.kind !== 'plugin') {
      dotless ??= routingModels({ ...input, corefile }, kubeDnsRoutingIgnoringUnqualified).kubeDns;
      if (sameDestination(dotless.route(name, queryType).destination, coreRoute.destination)) {
        withoutDot.push(difference);
        return;
      }
    }
    differences.push(difference);
  };
  for (const name of names) {
    const kubeRoute = kubeDns.route(name);
    const coreRoute = coreDns.route(name);
    if (!sameDestination(kubeRoute.destination, coreRoute.destination)) {
      sort({ name, kubeDns: kubeRoute, coreDns: coreRoute });
      continue;
    }
    // The other query types, where either side routes by type (docs/routing.md, "Query types").
    if (!kubeDns.dependsOnType(name) && !coreDns.dependsOnType(name)) continue;
    for (const queryType of OTHER_QUERY_TYPES) {
      const kubeTyped = kubeDns.route(name, queryType);
      const coreTyped = coreDns.route(name, queryType);
      if (sameDestination(kubeTyped.destination, coreTyped.destination)) continue;
      sort({ name, queryType, kubeDns: kubeTyped, coreDns: coreTyped });
    }
  }
  // Checked when the Deployment says what dnsmasq did (docs/routing.md, "Negative caching");
  // without it, what the stock manifest did is a note, not a failure.
  const unavoidable = input.coredns !== undefined && !coreDnsFeatures(coreDnsReleaseOf(input.coredns).version).cacheDisable;
  const negativeCaching =
    kubeDns.cachesNegativeAnswers === false ? negativeCachingBlocks(corefile).map((block): NegativeCachingBlock => (unavoidable && block.seconds <= 1 ? { ...block, unavoidable: true } : block)) : [];
  const stockCaching = kubeDns.cachesNegativeAnswers === undefined && kubeDns.reading.rules.stockManifestNoNegcache ? stockManifestCachingNote(kubeDns.reading.rules.version, negativeCachingBlocks(corefile)) : [];
  const notes = [...new Set([...kubeDns.notes.map((note) => `kube-dns: ${note}`), ...stockCaching, ...coreDns.notes.map((note) => `Corefile: ${note}`)])];
  const nxdomainAnswers = nxdomainDifferences(kubeDns, coreDns, names, input.coredns);
  const apart = new Set([...differences, ...repaired, ...withoutDot].map((difference) => difference.name));
  const anyAnswers = anyAnswerDifferences(kubeDns, coreDns, names.filter((name) => !apart.has(name)));
  const ok =
    differences.length === 0 &&
    negativeCaching.every((block) => block.unavoidable === true) &&
    nxdomainAnswers.every((entry) => entry.unavoidable === true) &&
    anyAnswers.every((entry) => entry.unavoidable === true);
  return { ok, equivalent: ok, differences, repaired, unavoidable: withoutDot, nxdomainAnswers, names, notes, negativeCaching, anyAnswers };
}

/**
 * The names (where the route depends on the type, and without a dot) whose ANY query dnsmasq's
 * addresses and the Corefile's templates answer with records of other types (docs/routing.md,
 * "Query types").
 */
function anyAnswerDifferences(kubeDns: KubeDnsRouting, coreDns: CoreDnsRouting, names: readonly string[]): AnyAnswerDifference[] {
  const found: AnyAnswerDifference[] = [];
  for (const name of names) {
    if (!kubeDns.dependsOnType(name) && !coreDns.dependsOnType(name) && (name === '' || name.includes('.'))) continue;
    const kubeTypes = kubeDns.anyRecordTypes(name);
    const coreTypes = coreDns.anyRecordTypes(name);
    if (kubeTypes === undefined || coreTypes === undefined) continue;
    const kubeSet = [...new Set(kubeTypes)].sort();
    const coreSet = [...new Set(coreTypes)].sort();
    if (kubeSet.join() === coreSet.join()) continue;
    // Both families from dnsmasq, one of them from the first template: what every template does with ANY.
    const unavoidable = kubeSet.join() === 'A,AAAA' && coreSet.length === 1 && kubeSet.includes(coreSet[0] as string);
    found.push({ name, kubeDns: kubeSet, coreDns: coreSet, ...(unavoidable ? { unavoidable: true } : {}) });
  }
  return found;
}

/**
 * The names both sides forward (kube-dns to a server, the Corefile to a forward or the cluster)
 * whose NXDOMAIN only one side turns into NOERROR (docs/routing.md, "NXDOMAIN under an address").
 */
function nxdomainDifferences(kubeDns: KubeDnsRouting, coreDns: CoreDnsRouting, names: readonly string[], coredns: string | undefined): NxdomainAnswerDifference[] {
  const found: NxdomainAnswerDifference[] = [];
  const unavoidable = coredns !== undefined && !coreDnsFeatures(coreDnsReleaseOf(coredns).version).rewriteRcode;
  for (const name of names) {
    const address = kubeDns.nxdomainAsNoData(name);
    const rewritten = coreDns.nxdomainAsNoData(name);
    if ((address !== undefined) === rewritten) continue;
    const typed = kubeDns.dependsOnType(name) || coreDns.dependsOnType(name);
    for (const queryType of typed ? ['A', ...OTHER_QUERY_TYPES] : ['A']) {
      // Only a forwarded answer can be NXDOMAIN from a server: dnsmasq's and template's own answers are not changed.
      if (kubeDns.route(name, queryType).destination.kind === 'plugin' || coreDns.route(name, queryType).destination.kind === 'plugin') continue;
      found.push({ name, ...(queryType === 'A' ? {} : { queryType }), ...(address === undefined ? {} : { address }), ...(unavoidable && address !== undefined ? { unavoidable: true } : {}) });
    }
  }
  return found;
}

/** Where the Corefile caches NXDOMAIN although the stock manifest of kube-dns `version` did not: one note, or none. */
function stockManifestCachingNote(version: string, blocks: readonly NegativeCachingBlock[]): string[] {
  const [first, ...rest] = blocks;
  if (first === undefined) return [];
  const where = `block ${printable(first.keys)} (${first.seconds} s)${rest.length === 0 ? '' : ` and ${rest.length} more block${rest.length === 1 ? '' : 's'}`}`;
  return [
    `kube-dns: no Deployment given: the stock kube-dns ${version} manifest runs dnsmasq with --no-negcache (NXDOMAIN never cached), and this Corefile caches NXDOMAIN in ${where}; give the Deployment (--kube-dns-deployment) to check caching`,
  ];
}

/** Columns padded to their widest cell; cells may span several lines, rows are then separated by a blank line. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const split = [header, ...rows].map((row) => row.map((cell) => cell.split('\n')));
  const widths = header.map((_, column) => maxOf(split.flatMap((row) => (row[column] ?? []).map((line) => line.length))));
  const tall = split.some((row) => row.some((cell) => cell.length > 1));
  const lines: string[] = [];
  for (const [index, row] of split.entries()) {
    if (tall && index > 1) lines.push('');
    const height = maxOf(row.map((cell) => cell.length));
    for (let index = 0; index < height; index += 1) {
      lines.push(
        row
          .map((cell, column) => (cell[index] ?? '').padEnd(column === row.length - 1 ? 0 : (widths[column] ?? 0)))
          .join('  ')
          .trimEnd(),
      );
    }
  }
  return lines.join('\n');
}

/** A route as a two-line cell; each line {@link printable} (names come from the input). */
export function routeCell(route: Route): string {
  return `${printable(describeDestination(route.destination))}\n(${printable(route.via)})`;
}

const MAX_NOTES = 10;
const MAX_NAMES_PER_ROW = 4;

/**
 * At most {@link MAX_NOTES} of `entries`, one line each (`prefix`, the entry in words, `suffix`),
 * then how many more the JSON field `field` of `-o json` lists.
 */
function listedLines<Entry>(entries: readonly Entry[], line: (entry: Entry) => string, prefix: string, suffix: string, field: string): string {
  const shown = entries.slice(0, MAX_NOTES).map((entry) => `${prefix}${line(entry)}${suffix}\n`).join('');
  return entries.length > MAX_NOTES ? `${shown}… and ${entries.length - MAX_NOTES} more (${field} in -o json)\n` : shown;
}

/** The notes, at most {@link MAX_NOTES} of them, as indented lines. */
export function formatNotes(notes: readonly string[]): string {
  if (notes.length === 0) return '';
  const shown = notes.slice(0, MAX_NOTES).map((note) => `  - ${printable(note)}`);
  if (notes.length > MAX_NOTES) shown.push(`  - … and ${notes.length - MAX_NOTES} more`);
  return `Notes:\n${shown.join('\n')}\n`;
}

/**
 * The differences for people: one row per distinct pair of routes (destination and why, on each
 * side), naming the first names that take it (`… N more` for the rest; `differences` has them all).
 */
function formatDifferences(differences: readonly RoutingDifference[]): string {
  const groups = new Map<string, { names: string[]; difference: RoutingDifference }>();
  for (const difference of differences) {
    const key = JSON.stringify([difference.queryType, difference.kubeDns.via, difference.coreDns.via, destinationKey(difference.kubeDns.destination), destinationKey(difference.coreDns.destination)]);
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { names: [difference.name], difference });
    else group.names.push(difference.name);
  }
  const rows = [...groups.values()].map(({ names, difference }) => {
    const cut = names.length > MAX_NAMES_PER_ROW + 1;
    const type = difference.queryType === undefined ? '' : ` (${difference.queryType})`;
    const shown = (cut ? names.slice(0, MAX_NAMES_PER_ROW) : names).map((name) => `${printable(displayName(name))}${type}`);
    if (cut) shown.push(`… ${names.length - MAX_NAMES_PER_ROW} more`);
    return [shown.join('\n'), routeCell(difference.kubeDns), routeCell(difference.coreDns)];
  });
  return formatTable(['NAME', 'KUBE-DNS', 'COREDNS'], rows);
}

/**
 * The result for people: the table of {@link formatDifferences}, or one line saying all names
 * agree; then the notes.
 */
export function formatRoutingCheck(result: RoutingCheck): string {
  checkOptions('formatRoutingCheck', 'result', result, { names: 'array', differences: 'array' }, true);
  const count = result.names.length;
  // A check built by hand (or by an older version) may lack the fields.
  const blocks = result.negativeCaching ?? [];
  const caching = blocks
    .filter((block) => block.unavoidable !== true)
    .map((block) => `kube-dns did not cache NXDOMAIN; this Corefile caches it for ${block.seconds} s in block ${printable(block.keys)}\n`)
    .join('');
  const unavoidable = blocks
    .filter((block) => block.unavoidable === true)
    .map((block) => `expected: kube-dns did not cache NXDOMAIN; this release cannot switch denial caching off, and block ${printable(block.keys)} keeps it for at most ${block.seconds} s\n`)
    .join('');
  const repaired = result.repaired ?? [];
  const dotless = result.unavoidable ?? [];
  const answers = result.nxdomainAnswers ?? [];
  const answerLine = (entry: NxdomainAnswerDifference) =>
    `${printable(displayName(entry.name))}${entry.queryType === undefined ? '' : ` ${entry.queryType}`}: ${
      entry.address === undefined ? 'the Corefile answers a server\'s NXDOMAIN NOERROR without records; kube-dns passed it on' : `kube-dns answered a server's NXDOMAIN NOERROR without records (dnsmasq 2.86+, under ${printable(entry.address)}); the Corefile passes it on`
    }`;
  const lines = (entries: readonly NxdomainAnswerDifference[], prefix: string, suffix: string) => listedLines(entries, answerLine, prefix, suffix, 'nxdomainAnswers');
  const rcodes = lines(answers.filter((entry) => entry.unavoidable !== true), '', '');
  const anyEntries = result.anyAnswers ?? [];
  const anyLine = (entry: AnyAnswerDifference) =>
    `${printable(displayName(entry.name))} ANY: kube-dns answered ${entry.kubeDns.join(' and ') || 'no records'}, the Corefile answers ${entry.coreDns.join(' and ') || 'no records'}`;
  const anyLines = (entries: readonly AnyAnswerDifference[], prefix: string, suffix: string) => listedLines(entries, anyLine, prefix, suffix, 'anyAnswers');
  const anyDiffer = anyLines(anyEntries.filter((entry) => entry.unavoidable !== true), '', '');
  const anyExpected = anyLines(anyEntries.filter((entry) => entry.unavoidable === true), 'expected: ', ' (a template answers ANY with the first template that matches: one family)');
  const rcodesExpected = lines(answers.filter((entry) => entry.unavoidable === true), 'expected: ', ` (this release has no rcode rewrite: ${firstReleaseWith((release) => release.rewriteRcode) ?? 'none'}+)`);
  const expected = `${repaired.length === 0 ? '' : `Repaired on purpose (${repaired.length} name${repaired.length === 1 ? '' : 's'}, expected):\n\n${formatDifferences(repaired)}\n`}${
    dotless.length === 0 ? '' : `Expected (${dotless.length} name${dotless.length === 1 ? '' : 's'} without a dot: dnsmasq sent them to servers it applied to names without a dot ('//' or a domain list with a dot before its last); CoreDNS has no zone for such names):\n\n${formatDifferences(dotless)}\n`
  }${unavoidable}${rcodesExpected}${anyExpected}`;
  const apart = repaired.length + dotless.length;
  if (result.ok) return `kube-dns and the Corefile route all ${count - apart} checked names the same way${apart === 0 ? '' : ` (${count} checked)`}.\n${expected}${formatNotes(result.notes)}`;
  const answered = `${rcodes}${anyDiffer}`;
  if (result.differences.length === 0 && (caching !== '' || answered !== '')) {
    return `kube-dns and the Corefile route all ${count} checked names the same way, but ${caching === '' ? 'answer' : answered === '' ? 'cache' : 'cache and answer'} differently:\n${caching}${answered}${expected}${formatNotes(result.notes)}`;
  }
  return `kube-dns and the Corefile route ${result.differences.length} of ${count} checked names differently:\n\n${formatDifferences(result.differences)}\n${caching}${answered}${expected}${formatNotes(result.notes)}`;
}

/**
 * Thrown by {@link assertSameRouting}; `message` is the table of {@link formatRoutingCheck}. Its
 * category is `refused`: both inputs were read, and the answer is that they route differently.
 */
export class RoutingMismatchError extends KubeDnsToCoreDnsError {
  override readonly name = 'RoutingMismatchError';
  readonly category = 'refused';
  declare readonly code: 'routing-differs';
  readonly check: RoutingCheck;

  constructor(check: RoutingCheck) {
    super('routing-differs', formatRoutingCheck(check));
    this.check = check;
  }
}

/**
 * For unit tests in platform repositories: throws a {@link RoutingMismatchError} (an `Error` whose
 * message is a table of the differing names) unless kube-dns and the Corefile route every checked
 * name the same way. Works with any test runner that fails a test on a thrown error.
 */
export function assertSameRouting(input: RoutingInput): RoutingCheck {
  checkArgument('assertSameRouting', 'input', input, 'object');
  const result = checkRouting(input);
  if (!result.ok) throw new RoutingMismatchError(result);
  return result;
}
