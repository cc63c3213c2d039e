/**
 * Names without a dot under dnsmasq 2.86+ (docs/kube-dns-deployment.md, "Domains that end in a
 * dot"): a `--server`, `--local` or `--address` whose domain list has a domain ending in a dot before
 * its last also applies to names of one label that no zone of dnsmasq's own holds. The quirk
 * `trailing-dot-domains` is kept by default where CoreDNS can do the same — an NXDOMAIN or an
 * address answered by a template in the main block that matches exactly those names — and
 * reported where it cannot (servers: CoreDNS has no zone for names without a dot).
 *
 * Pure: no Node APIs.
 */
import type { Directive } from '../corefile/model.js';
import type { CoreDnsFeatures } from '../coredns/features.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { KubeDnsQuirk } from '../kubedns/kube-dns-quirks.js';
import type { UnqualifiedNames } from './deployment-flags.js';
import { noDataLines } from '../coredns/template-no-data.js';

/** Characters a regular expression reads specially, escaped to stand for themselves. */
function escapeRegex(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}-]/g, '\\$&');
}

interface Trie {
  end: boolean;
  readonly children: Map<string, Trie>;
}

/**
 * A regular expression (the same in Go's regexp and JavaScript) that matches the lower-case query
 * names of one label (`name.`) except `excluded`: built from the trie of the excluded labels, each
 * position either leaves every excluded label (a character none of them has there, then anything),
 * follows one, or ends where no excluded label ends.
 */
export function singleLabelPattern(excluded: Iterable<string>): string {
  const root: Trie = { end: false, children: new Map() };
  for (const label of excluded) {
    let node = root;
    for (const character of label) {
      let child = node.children.get(character);
      if (child === undefined) {
        child = { end: false, children: new Map() };
        node.children.set(character, child);
      }
      node = child;
    }
    node.end = true;
  }
  // Depth-first with an explicit stack is not needed: labels are at most 63 characters.
  const rest = (node: Trie, first: boolean): string => {
    const characters = [...node.children.keys()].sort();
    const leave = characters.length === 0 ? '[^.]' : `[^.${characters.map(escapeRegex).join('')}]`;
    const branches = [`${leave}[^.]*`, ...characters.map((character) => `${escapeRegex(character)}${rest(node.children.get(character) as Trie, false)}`)];
    const group = branches.length === 1 ? (branches[0] as string) : `(?:${branches.join('|')})`;
    // Ending here is allowed where no excluded label ends (never at the start: the root name has no label).
    return first || node.end ? group : `(?:${group})?`;
  };
  return `^${rest(root, true)}\\.$`;
}

/** One template per type answering every address of it (the first that matches answers an ANY query). */
function answerTemplates(unqualified: UnqualifiedNames & { readonly kind: 'address' }, match: Directive, fallthrough: Directive): Directive[] {
  return unqualified.answers.map(({ type, values }) => ({
    name: 'template',
    arguments: ['IN', type],
    block: { directives: [match, ...values.map((value): Directive => ({ name: 'answer', arguments: [`{{ .Name }} 0 IN ${type} ${value}`] })), fallthrough] },
  }));
}

/** Whether only `#` answers (both null addresses): dnsmasq answers ANY with both, a template with one. */
function nullAddressesOnly(unqualified: UnqualifiedNames): boolean {
  return unqualified.kind === 'address' && unqualified.answers.length === 2 && unqualified.answers.every((answer) => answer.values.length === 1 && (answer.values[0] === '0.0.0.0' || answer.values[0] === '::'));
}

/**
 * `any-query-one-family` where only `#` answers names without a dot: dnsmasq 2.90 answers their ANY
 * query with both null addresses, the main block's first template (A) with 0.0.0.0 alone.
 */
function anyQueryNote(unqualified: UnqualifiedNames, key: string, path: string): Diagnostic[] {
  if (!nullAddressesOnly(unqualified)) return [];
  const first = (unqualified as UnqualifiedNames & { readonly kind: 'address' }).answers[0];
  const record = `${first?.type ?? 'A'} ${first?.values[0] ?? '0.0.0.0'}`;
  return [
    diagnostic('any-query-one-family', {
      key,
      path,
      message: `${unqualified.text}: dnsmasq answered an ANY query for a name without a dot with both null addresses (A 0.0.0.0 and AAAA ::); the Corefile answers it with ${record} only: a template answers ANY with the first template that matches, and none can match ANY alone`,
    }),
  ];
}

/** The templates answering names `pattern` matches as dnsmasq did under `unqualified`; undefined where CoreDNS cannot (servers). */
function templatesFor(unqualified: UnqualifiedNames, pattern: string, zone: string, features: CoreDnsFeatures): Directive[] | undefined {
  if (unqualified.kind === 'servers' || (unqualified.kind === 'address' && unqualified.otherTypes === 'servers')) return undefined;
  const match: Directive = { name: 'match', arguments: [pattern] };
  const fallthrough: Directive = { name: 'fallthrough', arguments: [] };
  if (unqualified.kind === 'nxdomain') return [{ name: 'template', arguments: ['ANY', 'ANY'], block: { directives: [match, { name: 'rcode', arguments: ['NXDOMAIN'] }, fallthrough] } }];
  const directives: Directive[] = answerTemplates(unqualified, match, fallthrough);
  // The other query types: NODATA beside an NXDOMAIN entry (or before dnsmasq 2.86), else REFUSED (dnsmasq 2.86+).
  directives.push({ name: 'template', arguments: ['ANY', 'ANY'], block: { directives: [match, ...noDataLines(zone, features.version, unqualified.otherTypes === 'refused' ? 'REFUSED' : 'NOERROR'), fallthrough] } });
  return directives;
}

/** The entries for names without a dot in effect: all of them, or with `trailing-dot-domains` repaired those written `//`. */
export function unqualifiedInEffect(all: UnqualifiedNames | undefined, written: UnqualifiedNames | undefined, repairs: ReadonlySet<KubeDnsQuirk>): UnqualifiedNames | undefined {
  return repairs.has('trailing-dot-domains') ? written : all;
}

/**
 * The main block's templates for names without a dot (none when nothing applies), and what the
 * translation says about them. `all`: the entries that applied to them, `written`: those written
 * `//` (they stay when `trailing-dot-domains` is repaired). `excluded`: the one-label zones dnsmasq
 * has an entry for (their own entry wins), which the template must leave alone.
 */
export function planUnqualifiedNames(
  all: UnqualifiedNames | undefined,
  written: UnqualifiedNames | undefined,
  excluded: Iterable<string>,
  features: CoreDnsFeatures,
  repairs: ReadonlySet<KubeDnsQuirk>,
  kubeDnsVersion: string,
): { readonly directives: Directive[]; readonly diagnostics: Diagnostic[] } {
  if (all === undefined) return { directives: [], diagnostics: [] };
  const key = 'container dnsmasq';
  const diagnostics: Diagnostic[] = [];
  const what = (entries: UnqualifiedNames) =>
    entries.kind === 'nxdomain' ? 'answered them NXDOMAIN itself' : entries.kind === 'address' ? `answered them with ${entries.answers.flatMap((answer) => answer.values).join(', ')}` : 'sent them to its servers';
  const quirkText = `trailing-dot-domains: the dnsmasq of kube-dns ${kubeDnsVersion} (2.86+, kube-dns 1.22.1+) applied ${all.text} to names without a dot as well (a domain before the last ends in a dot) and ${what(all)}`;
  if (repairs.has('trailing-dot-domains') && all.quirk) {
    diagnostics.push(diagnostic('kube-dns-quirk-repaired', { key, path: `[${all.text}]`, message: `${quirkText}; repaired as asked: they go where every other name goes${written === undefined ? '' : ` but for ${written.text}, written for them`} (check --repair trailing-dot-domains expects the difference)` }));
  }
  const unqualified = unqualifiedInEffect(all, written, repairs);
  if (unqualified === undefined) return { directives: [], diagnostics };
  const path = `[${unqualified.text}]`;
  const said = unqualified.quirk ? quirkText : `dnsmasq applied ${unqualified.text} to names without a dot ('//') and ${what(unqualified)}`;
  const directives = features.template ? templatesFor(unqualified, singleLabelPattern(excluded), '.', features) : undefined;
  if (directives === undefined) {
    const why = features.template ? 'CoreDNS has no zone for names without a dot to forward them elsewhere' : `CoreDNS ${features.version} has no template plugin`;
    // The address's own type is kept where the template can: only its other types are lost then.
    if (unqualified.kind !== 'address' || !features.template) {
      diagnostics.push(diagnostic('deployment-flag-not-translated', { key, path, message: `${said}; not kept: ${why}, so they go where every other name goes${unqualified.kind === 'servers' ? ' (check lists them as expected)' : ''}` }));
      return { directives: [], diagnostics };
    }
  }
  if (directives !== undefined) {
    diagnostics.push(
      unqualified.quirk
        ? diagnostic('kube-dns-quirk-kept', { key, path, message: `${said}; kept: a template of the main block does the same for names of one label (--repair trailing-dot-domains to forward them like other names)` })
        : diagnostic('dnsmasq-option-translated', {
            key,
            path,
            message: `${said}; a template of the main block does the same for names of one label`,
          }),
    );
    diagnostics.push(...anyQueryNote(unqualified, key, path));
    return { directives, diagnostics };
  }
  // An address beside servers for those names: the address is kept, its other types cannot go to those servers.
  const kept = addressOnly(unqualified as UnqualifiedNames & { readonly kind: 'address' }, singleLabelPattern(excluded));
  diagnostics.push(
    diagnostic(unqualified.quirk ? 'kube-dns-quirk-kept' : 'dnsmasq-option-translated', { key, path, message: `${said}; kept: a template of the main block does the same for names of one label` }),
    diagnostic('deployment-flag-not-translated', {
      key,
      path,
      message: `${unqualified.quirk ? 'trailing-dot-domains: ' : ''}dnsmasq sent the other query types of those names to the --server entries that apply to them; not kept: CoreDNS has no zone for names without a dot to forward them elsewhere, so they go where every other name goes (check lists them as expected)`,
    }),
    ...anyQueryNote(unqualified, key, path),
  );
  return { directives: kept, diagnostics };
}

/** The address templates alone (its other types pass on). */
function addressOnly(unqualified: UnqualifiedNames & { readonly kind: 'address' }, pattern: string): Directive[] {
  const match: Directive = { name: 'match', arguments: [pattern] };
  const fallthrough: Directive = { name: 'fallthrough', arguments: [] };
  return answerTemplates(unqualified, match, fallthrough);
}

/**
 * The templates of a one-label `--address` zone's block for its own name (dnsmasq 2.86+): a query
 * of a type its address does not answer goes on past the zone and, as the name has no dot, meets
 * the entries for names without a dot — an NXDOMAIN, another address, or REFUSED. Undefined where
 * CoreDNS cannot do the same (those entries are servers).
 */
export function apexTemplates(unqualified: UnqualifiedNames, zone: string, features: CoreDnsFeatures): Directive[] | undefined {
  return templatesFor(unqualified, `^${escapeRegex(zone)}\\.$`, zone, features);
}

/**
 * Where `apexTemplates` cannot (the entries for names without a dot are an address beside servers):
 * the address's templates alone for the zone's own name; its other types pass on to the block's
 * forward, where dnsmasq sent them to the servers for names without a dot (check lists them as expected).
 */
export function apexAddressTemplates(unqualified: UnqualifiedNames, zone: string): Directive[] | undefined {
  return unqualified.kind === 'address' ? addressOnly(unqualified, `^${escapeRegex(zone)}\\.$`) : undefined;
}
