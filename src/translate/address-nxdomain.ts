import type { Corefile, Directive, ServerBlock } from '../corefile/model.js';
import { firstReleaseWith } from '../coredns/features.js';
import type { CoreDnsFeatures } from '../coredns/features.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { canonicalName, displayName, isInZone } from '../dns/names.js';

/**
 * dnsmasq 2.86+ turns a server's NXDOMAIN into NOERROR without records for a name under the domain
 * of an `--address` with an address (docs/kube-dns-deployment.md, "NXDOMAIN under an address"):
 * the names it forwards there (a more specific stub domain, kubedns's cluster domain, the other
 * query types of the address) never got NXDOMAIN. On CoreDNS 1.11.3+ each block that forwards such
 * names gets a `rewrite rcode regex … NXDOMAIN NOERROR` rule per domain, limited to the domain's
 * names; older releases cannot rewrite a response code: a warning names what changes.
 *
 * Pure: no Node APIs.
 */
export function keepAddressNoData(
  corefile: Corefile,
  zones: readonly { readonly zone: string; readonly text: string }[],
  features: CoreDnsFeatures,
  kubeDnsVersion: string,
  diagnostics: Diagnostic[],
): Corefile {
  if (zones.length === 0) return corefile;
  const blocks = corefile.items.filter((item): item is ServerBlock => item.kind === 'server-block');
  const zonesOf = new Map(blocks.map((block) => [block, block.keys.map((key) => canonicalName(key.replace(/:\d+$/, '')))]));
  const rules = new Map<ServerBlock, { readonly zone: string; readonly rule: Directive }[]>();
  const seen = new Set<string>();
  for (const { zone, text } of zones) {
    if (seen.has(zone)) continue;
    seen.add(zone);
    const own = blocks.some((block) => (zonesOf.get(block) ?? []).includes(zone));
    // The block serving the domain's names when it has none of its own: the longest key above it.
    let above: ServerBlock | undefined;
    let aboveLength = -1;
    if (!own) {
      for (const block of blocks) for (const key of zonesOf.get(block) ?? []) if (isInZone(zone, key) && key.length > aboveLength) [above, aboveLength] = [block, key.length];
    }
    const forwarding = blocks.filter((block) => forwards(block) && (block === above || (zonesOf.get(block) ?? []).some((key) => isInZone(key, zone))));
    if (forwarding.length === 0) continue;
    const labels = forwarding.map((block) => block.keys.join(' ')).join(', ');
    if (!features.rewriteRcode) {
      diagnostics.push(
        diagnostic('address-nxdomain-not-kept', {
          key: 'container dnsmasq',
          path: `[${text}]`,
          message: `the dnsmasq of kube-dns ${kubeDnsVersion} (2.86+: kube-dns 1.22.1+) answered NOERROR without records where a server answered NXDOMAIN for a name under ${displayName(zone)}; CoreDNS ${features.version} cannot rewrite a response code (rewrite rcode: ${firstReleaseWith((release) => release.rewriteRcode) ?? 'none'}+), so block${forwarding.length === 1 ? '' : 's'} ${labels} pass the NXDOMAIN on`,
        }),
      );
      continue;
    }
    const rule: Directive = { name: 'rewrite', arguments: ['rcode', 'regex', namesUnder(zone), 'NXDOMAIN', 'NOERROR'] };
    for (const block of forwarding) rules.set(block, [...(rules.get(block) ?? []), { zone, rule }]);
    diagnostics.push(
      diagnostic('dnsmasq-option-translated', {
        key: 'container dnsmasq',
        path: `[${text}]`,
        message: `a server's NXDOMAIN for a name under ${displayName(zone)} becomes NOERROR without records, as the dnsmasq of kube-dns ${kubeDnsVersion} (2.86+: kube-dns 1.22.1+) answered it: a rewrite of the response code in block${forwarding.length === 1 ? '' : 's'} ${labels}`,
      }),
    );
  }
  if (rules.size === 0) return corefile;
  return {
    ...corefile,
    items: corefile.items.map((item) => {
      const zoneRules = item.kind === 'server-block' ? rules.get(item) : undefined;
      if (item.kind !== 'server-block' || zoneRules === undefined) return item;
      // In an order of the zones, not of the flags: the same Deployment with its flags in another order
      // gives the same Corefile (the most specific zone first, then by name).
      const added = [...zoneRules].sort(byZone).map(({ rule }) => rule);
      // Before the plugins that answer, after the block's own settings (the plugin order is CoreDNS's anyway).
      const at = item.directives.findIndex((directive) => PLACED_BEFORE.has(directive.name));
      const index = at === -1 ? item.directives.length : at;
      return { ...item, directives: [...item.directives.slice(0, index), ...added, ...item.directives.slice(index)] };
    }),
  };
}

/** Plugins whose answers may be a server's NXDOMAIN (the cluster's, a forward's). */
const FORWARDING = new Set(['forward', 'proxy', 'kubernetes']);
/** The rule goes before the first of these (for the reader: CoreDNS runs plugins in its own order). */
const PLACED_BEFORE = new Set(['cache', 'template', 'hosts', 'federation', 'kubernetes', 'forward', 'proxy']);

function forwards(block: ServerBlock): boolean {
  return block.directives.some((directive) => FORWARDING.has(directive.name));
}

/** A Go (RE2) pattern for the fully qualified names in `zone` (every name for the root). */
function namesUnder(zone: string): string {
  if (zone === '') return '.*';
  return `(^|\\.)${zone.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\.$`;
}

function byZone(a: { readonly zone: string }, b: { readonly zone: string }): number {
  const depth = b.zone.split('.').length - a.zone.split('.').length;
  return depth !== 0 ? depth : a.zone < b.zone ? -1 : a.zone > b.zone ? 1 : 0;
}
