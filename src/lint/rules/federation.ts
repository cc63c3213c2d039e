import type { BlockInfo, LintContext } from '../context.js';
import { ORIGIN, placedLabels, quote, where } from '../context.js';

/**
 * `federation` needs the kubernetes plugin of its own block; without it, it answers nothing
 * (§2.5). Code: `federation-without-kubernetes`.
 *
 * "§N" is section N of docs/reference/kube-dns-and-coredns.md.
 */
export function checkFederation(context: LintContext, info: BlockInfo): void {
  if (!info.plugins.has('federation') || info.plugins.has('kubernetes')) return;
  for (const { directive, label } of info.directives.filter((placed) => placed.directive.name === 'federation')) {
    const position = directive.position ?? ORIGIN;
    context.report(
      'federation-without-kubernetes',
      position,
      where(position, placedLabels(info, label), 'federation'),
      `block ${quote(info.label)} has no kubernetes plugin, so federation answers nothing`,
    );
  }
}
