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

/**
 * The main block's templates for names without a dot (none when repaired or nothing applies), and
 * what the translation says about them. `excluded`: the one-label zones dnsmasq has an entry for
 * (their own entry wins over the quirk), which the template must leave alone.
 */
export function planUnqualifiedNames(
  unqualified: UnqualifiedNames | undefined,
  excluded: Iterable<string>,
  features: CoreDnsFeatures,
  repairs: ReadonlySet<KubeDnsQuirk>,
  kubeDnsVersion: string,
): { readonly directives: Directive[]; readonly diagnostics: Diagnostic[] } {
  if (unqualified === undefined) return { directives: [], diagnostics: [] };
  const key = 'container dnsmasq';
  const path = `[${unqualified.text}]`;
  const what = unqualified.kind === 'nxdomain' ? 'answered them NXDOMAIN itself' : unqualified.kind === 'address' ? `answered them with ${unqualified.address}` : 'sent them to its servers';
  const quirk = `trailing-dot-domains: the dnsmasq of kube-dns ${kubeDnsVersion} (2.86+, kube-dns 1.22.1+) applied ${unqualified.text} to names without a dot as well (a domain before the last ends in a dot) and ${what}`;
  if (repairs.has('trailing-dot-domains')) {
    return { directives: [], diagnostics: [diagnostic('kube-dns-quirk-repaired', { key, path, message: `${quirk}; repaired as asked: they go where every other name goes (check --repair trailing-dot-domains expects the difference)` })] };
  }
  if (unqualified.kind === 'servers' || !features.template) {
    const why = unqualified.kind === 'servers' ? 'CoreDNS has no zone for names without a dot to forward them elsewhere' : `CoreDNS ${features.version} has no template plugin`;
    return { directives: [], diagnostics: [diagnostic('deployment-flag-not-translated', { key, path, message: `${quirk}; not kept: ${why}, so they go where every other name goes` })] };
  }
  const match: Directive = { name: 'match', arguments: [singleLabelPattern(excluded)] };
  const fallthrough: Directive = { name: 'fallthrough', arguments: [] };
  const type = unqualified.kind === 'address' && unqualified.address.includes(':') ? 'AAAA' : 'A';
  const directives: Directive[] =
    unqualified.kind === 'nxdomain'
      ? [{ name: 'template', arguments: ['ANY', 'ANY'], block: { directives: [match, { name: 'rcode', arguments: ['NXDOMAIN'] }, fallthrough] } }]
      : [{ name: 'template', arguments: ['IN', type], block: { directives: [match, { name: 'answer', arguments: [`{{ .Name }} 0 IN ${type} ${unqualified.address}`] }, fallthrough] } }];
  // The other query types: NODATA beside an NXDOMAIN entry; else where every other name goes (dnsmasq 2.86+), as without a template.
  if (unqualified.kind === 'address' && unqualified.otherTypes === 'nodata') directives.push({ name: 'template', arguments: ['ANY', 'ANY'], block: { directives: [match, ...noDataLines('.', features.version), fallthrough] } });
  const diagnostics = [diagnostic('kube-dns-quirk-kept', { key, path, message: `${quirk}; kept: a template of the main block does the same for names of one label (--repair trailing-dot-domains to forward them like other names)` })];
  if (unqualified.kind === 'address' && unqualified.otherTypes === 'servers') {
    diagnostics.push(diagnostic('deployment-flag-not-translated', { key, path, message: `trailing-dot-domains: dnsmasq sent the other query types of those names to the --server entries that apply to them; not kept: CoreDNS has no zone for names without a dot to forward them elsewhere, so they go where every other name goes` }));
  }
  return { directives, diagnostics };
}

/**
 * The templates of a one-label `--address` zone's block for its own name (dnsmasq 2.86+): a query
 * of a type its address does not answer goes on past the zone and, as the name has no dot, meets
 * the entries for names without a dot — an NXDOMAIN, or another address. Undefined where CoreDNS
 * cannot do the same (those entries are servers).
 */
export function apexTemplates(unqualified: UnqualifiedNames, zone: string, features: CoreDnsFeatures): Directive[] | undefined {
  if (unqualified.kind === 'servers' || (unqualified.kind === 'address' && unqualified.otherTypes === 'servers')) return undefined;
  const match: Directive = { name: 'match', arguments: [`^${escapeRegex(zone)}\\.$`] };
  const fallthrough: Directive = { name: 'fallthrough', arguments: [] };
  if (unqualified.kind === 'nxdomain') return [{ name: 'template', arguments: ['ANY', 'ANY'], block: { directives: [match, { name: 'rcode', arguments: ['NXDOMAIN'] }, fallthrough] } }];
  const type = unqualified.address.includes(':') ? 'AAAA' : 'A';
  const directives: Directive[] = [{ name: 'template', arguments: ['IN', type], block: { directives: [match, { name: 'answer', arguments: [`{{ .Name }} 0 IN ${type} ${unqualified.address}`] }, fallthrough] } }];
  if (unqualified.otherTypes === 'nodata') directives.push({ name: 'template', arguments: ['ANY', 'ANY'], block: { directives: [match, ...noDataLines(zone, features.version), fallthrough] } });
  return directives;
}
