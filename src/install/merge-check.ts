/**
 * What a Corefile merged with `--merge` must still do: route every checked name as kube-dns did.
 * `-o install --merge`, `cutover --merge` and the plain `--merge` (every other output) run the same
 * check, so no output of the translator is a Corefile that routes differently without saying so.
 */
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { Corefile } from '../corefile/model.js';
import type { KubeDnsInstall } from '../kubedns/kube-dns-install.js';
import { checkRouting } from '../routing/check.js';
import type { RoutingCheck, RoutingDifference } from '../routing/check.js';
import { describeDestination } from '../routing/destination.js';
import { displayName } from '../dns/names.js';
import type { TranslateOptions, TranslationResult } from '../translate/translate.js';

/** The options the check reads: the cluster domain and kube-dns version the routing is compared with, and whether a difference is only a warning. */
export type MergeCheckOptions = Pick<TranslateOptions, 'clusterDomain' | 'kubeDnsVersion' | 'force'>;

/** The routing check of a Corefile against the install it replaces, with the install's options. */
export function installRoutingCheck(install: KubeDnsInstall, options: MergeCheckOptions, corefile: Corefile): RoutingCheck {
  return checkRouting({
    kubeDns: install.configMap?.data ?? null,
    corefile,
    ...(options.clusterDomain === undefined ? {} : { clusterDomain: options.clusterDomain }),
    ...(options.kubeDnsVersion === undefined ? {} : { kubeDnsVersion: options.kubeDnsVersion }),
    ...(install.deployment === undefined ? {} : { kubeDnsDeployment: install.deployment }),
  });
}

/**
 * A merged Corefile that routes a checked name differently from kube-dns (a merged Corefile
 * without the kubernetes plugin forwards the cluster domain upstream; one whose `kubernetes` line
 * has no `fallthrough` answers NXDOMAIN for reverse names kube-dns forwarded) is refused with
 * `install-merge-routing-differs`, unless `force`, when it is a warning and the Corefile is
 * written. `written` says what is written anyway (`Installed`, `Written`). The translator's own
 * Corefile routes as kube-dns by construction; `cutover` checks it all the same.
 */
export function checkMergedRouting(install: KubeDnsInstall, options: MergeCheckOptions, merged: TranslationResult, written: string): TranslationResult {
  if (!merged.ok) return merged;
  const check = installRoutingCheck(install, options, merged.model);
  if (check.differences.length === 0) return merged;
  // One name of each kind of difference (the same two routes), the commonest first.
  const kinds = new Map<string, RoutingDifference[]>();
  for (const difference of check.differences) {
    const kind = `${describeDestination(difference.kubeDns.destination)}\n${describeDestination(difference.coreDns.destination)}`;
    kinds.set(kind, [...(kinds.get(kind) ?? []), difference]);
  }
  const firsts = [...kinds.values()].sort((a, b) => b.length - a.length).map((group) => group[0] as RoutingDifference);
  const shown = firsts.slice(0, 3).map((difference) => `${displayName(difference.name)} (kube-dns: ${describeDestination(difference.kubeDns.destination)}; merged: ${describeDestination(difference.coreDns.destination)})`);
  const more = check.differences.length > shown.length ? ` (${check.differences.length - shown.length} more)` : '';
  const entry = diagnostic('install-merge-routing-differs', {
    key: 'Corefile',
    ...(options.force === true ? { severity: 'warning' as const, hint: `${written} anyway (--force): during the overlap and after it, CoreDNS answers these names differently from kube-dns.` } : {}),
    message: `the merged Corefile routes ${check.differences.length} of ${check.names.length} checked names differently from kube-dns, such as ${shown.join(', ')}${more}; \`check\` on the merged Corefile lists them all`,
  });
  return options.force === true ? { ...merged, diagnostics: [...merged.diagnostics, entry] } : refused(merged, entry);
}

/** `merged` refused with `entry`: no Corefile. */
export function refused(merged: TranslationResult, entry: Diagnostic): TranslationResult {
  return { ok: false, corefile: undefined, model: undefined, diagnostics: [...merged.diagnostics, entry], coredns: merged.coredns };
}
