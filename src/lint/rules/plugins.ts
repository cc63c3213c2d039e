import { coreDnsPluginAvailability } from '../../coredns/availability.js';
import type { SourcePosition } from '../../util/source-position.js';
import type { LintContext } from '../context.js';
import { quote } from '../context.js';

/**
 * Plugin availability: what the release's version facts say about a directive (a directive the
 * release lacks stops CoreDNS with "Unknown directive", §2.7). Codes: `plugin-removed`,
 * `plugin-not-yet-added`, `plugin-without-facts`, `plugin-deprecated`, `version-caveat`.
 *
 * "§N" is section N of docs/reference/kube-dns-and-coredns.md.
 */

/** Reports what the release says about plugin `name`; false when nothing more should be checked. */
export function checkPlugin(context: LintContext, name: string, position: SourcePosition, path: string): boolean {
  const v = context.version;
  const availability = coreDnsPluginAvailability(name, v);
  switch (availability.status) {
    case 'removed': {
      const instead = availability.replacement === undefined ? 'remove it' : `use ${availability.replacement} instead`;
      context.report('plugin-removed', position, path, `plugin ${quote(name)} was removed in CoreDNS ${availability.removedIn ?? '?'}: CoreDNS ${v} stops with "Unknown directive '${name}'"; ${instead}`);
      return false;
    }
    case 'not-yet-added':
      context.report('plugin-not-yet-added', position, path, `plugin ${quote(name)} was added in CoreDNS ${availability.since ?? '?'}: CoreDNS ${v} stops with "Unknown directive '${name}'"`);
      return false;
    case 'unknown': {
      const detail =
        availability.since === undefined
          ? `no version facts are recorded for plugin ${quote(name)}`
          : `plugin ${quote(name)} is confirmed in CoreDNS ${availability.since} and later only; ${v} was not checked`;
      context.reportOnce(`plugin ${name}`, 'plugin-without-facts', position, path, `${detail}: if CoreDNS ${v} (or your build) lacks it, CoreDNS stops with "Unknown directive '${name}'"`);
      return false;
    }
    case 'deprecated': {
      const removal = availability.removedIn === undefined ? '' : ` and removed in ${availability.removedIn}`;
      const instead = availability.replacement === undefined ? '' : `; use ${availability.replacement}`;
      context.report('plugin-deprecated', position, path, `plugin ${quote(name)} is deprecated since CoreDNS ${availability.deprecatedIn ?? '?'}${removal}${instead}`);
      break;
    }
    case 'available':
      break;
  }
  if (availability.caveat !== undefined) context.report('version-caveat', position, path, `CoreDNS ${v}, plugin ${quote(name)}: ${availability.caveat}`);
  return true;
}
