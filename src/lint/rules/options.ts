import type { Directive } from '../../corefile/model.js';
import { kubernetesUpstreamAddressesOptionalFrom } from '../../coredns/availability.js';
import { optionSyntax } from '../../coredns/plugin-syntax.js';
import type { SourcePosition } from '../../util/source-position.js';
import type { LintContext, PathText } from '../context.js';
import { holdsPlaceholder, ORIGIN, quote, where } from '../context.js';

/**
 * Options (sub-directives inside `plugin { … }`) the release does not accept (yet, or any more),
 * from the option timelines of src/coredns/availability.ts, and the history of the kubernetes
 * plugin's `upstream` (§2.4). Options without facts are not reported. Codes: `option-removed`,
 * `option-not-yet-added`, `option-deprecated`, `upstream-address-required`,
 * `upstream-addresses-ignored`, `version-caveat`.
 *
 * "§N" is section N of docs/reference/kube-dns-and-coredns.md.
 */
export function checkOption(context: LintContext, plugin: string, option: Directive, label: string): void {
  const { name } = option;
  if (name === 'import' || holdsPlaceholder(name)) return;
  const position = option.position ?? ORIGIN;
  const path = () => where(position, label, plugin, name);
  const v = context.version;
  if (plugin === 'kubernetes' && name === 'upstream') {
    checkKubernetesUpstream(context, option, position, path);
    return;
  }
  const availability = context.option(plugin, name);
  switch (availability.status) {
    case 'removed': {
      const instead = availability.replacement === undefined ? '' : `; use ${availability.replacement} instead`;
      context.report('option-removed', position, path, `option ${quote(name)} of ${plugin} was removed in CoreDNS ${availability.removedIn ?? '?'}: CoreDNS ${v} stops with a parse error${instead}`);
      return;
    }
    case 'not-yet-added':
      context.report('option-not-yet-added', position, path, `option ${quote(name)} of ${plugin} was added in CoreDNS ${availability.since ?? '?'}: CoreDNS ${v} stops with a parse error`);
      return;
    case 'deprecated': {
      const removal = availability.removedIn === undefined ? '' : ` and removed in ${availability.removedIn}`;
      context.report('option-deprecated', position, path, `option ${quote(name)} of ${plugin} is deprecated since CoreDNS ${availability.deprecatedIn ?? '?'}${removal}`);
      return;
    }
    case 'unknown':
      return;
    case 'available':
      if (availability.caveat !== undefined) context.report('version-caveat', position, path, `CoreDNS ${v}, ${plugin} option ${quote(name)}: ${availability.caveat}`);
  }
}

/** The release that refuses kubernetes `upstream`, from its row in the plugin syntax table. */
const UPSTREAM_REMOVED_IN = optionSyntax('kubernetes', 'upstream')?.removedIn ?? '?';

function checkKubernetesUpstream(context: LintContext, option: Directive, position: SourcePosition, path: PathText): void {
  const v = context.version;
  const hasAddresses = option.arguments.length > 0;
  const support = context.features.kubernetesUpstream;
  switch (support) {
    case 'addresses-required':
      if (!hasAddresses) context.report('upstream-address-required', position, path, `a bare 'upstream' needs CoreDNS ${kubernetesUpstreamAddressesOptionalFrom()}; CoreDNS ${v} stops with an argument error`);
      return;
    case 'addresses-optional':
      return;
    case 'arguments-ignored':
    case 'no-op': {
      const effect =
        support === 'no-op'
          ? `has no effect in CoreDNS ${v}: ExternalName targets are always resolved through CoreDNS itself`
          : `is deprecated in CoreDNS ${v}: its presence makes CoreDNS resolve ExternalName targets itself`;
      if (hasAddresses) {
        context.report('upstream-addresses-ignored', position, path, `'upstream ${option.arguments.join(' ')}' ${effect}; the addresses are ignored`);
      } else {
        context.report('option-deprecated', position, path, `'upstream' ${effect}; it is removed in CoreDNS ${UPSTREAM_REMOVED_IN}`);
      }
      return;
    }
    case 'removed':
      context.report('option-removed', position, path, `option 'upstream' of kubernetes was removed in CoreDNS ${UPSTREAM_REMOVED_IN}: CoreDNS ${v} stops with "unknown property 'upstream'"`);
  }
}
