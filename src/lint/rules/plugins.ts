import { isUsable } from '../../coredns/availability.js';
import type { Availability } from '../../coredns/availability.js';
import { NEWEST_COREDNS_VERSION, OLDEST_COREDNS_VERSION } from '../../coredns/versions.js';
import type { SourcePosition } from '../../util/source-position.js';
import { knownPluginNames } from '../build.js';
import type { LintContext, PathText } from '../context.js';
import { quote } from '../context.js';
import { closestNames } from '../suggest.js';

/**
 * Plugin availability: is a directive compiled into the build linted against? CoreDNS refuses a
 * Corefile with a directive its build lacks ("Unknown directive 'NAME'", at parse time, §2.7), so
 * each of these is an error naming where the plugin arrives or left (from the plugin.cfg of every
 * release, src/coredns/plugin-cfg.ts), or, for a name no release has, the closest known names.
 * Codes: `plugin-removed`, `plugin-not-yet-added`, `unknown-directive`, `plugin-deprecated`,
 * `plugin-without-facts` (a custom build's plugin the default builds lack), `version-caveat`.
 *
 * "§N" is section N of docs/reference/kube-dns-and-coredns.md.
 */

const RANGE = `${OLDEST_COREDNS_VERSION} to ${NEWEST_COREDNS_VERSION}`;

/** Reports what the build says about plugin `name`; false when nothing more should be checked. */
export function checkPlugin(context: LintContext, name: string, position: SourcePosition, path: PathText): boolean {
  const { build, version: v } = context;
  const availability = context.plugin(name);
  if (build.custom !== undefined) {
    if (build.custom.has(name)) {
      if (isUsable(availability)) return reportUsable(context, name, availability, position, path);
      const detail =
        availability.status === 'not-yet-added'
          ? `the default build of CoreDNS ${v} lacks it (it arrives in ${availability.since ?? '?'})`
          : availability.status === 'removed'
            ? `the default build of CoreDNS ${v} lacks it (removed in ${availability.removedIn ?? '?'})`
            : `no CoreDNS release from ${RANGE} has it in its default build`;
      context.reportOnce(
        `plugin ${name}`,
        'plugin-without-facts',
        position,
        path,
        `plugin ${quote(name)} comes from your build's plugin list; ${detail}, so this linter has no facts about it: its arguments and options were not checked`,
      );
      return false;
    }
    if (isUsable(availability)) {
      context.report(
        'unknown-directive',
        position,
        path,
        `plugin ${quote(name)} is not in your build's plugin list (the default build of CoreDNS ${v} has it): CoreDNS stops with "Unknown directive '${name}'"`,
      );
      return false;
    }
  }
  switch (availability.status) {
    case 'removed': {
      const instead = availability.replacement === undefined ? 'remove it' : `use ${availability.replacement} instead`;
      const outcome =
        availability.placeholder === true
          ? `CoreDNS ${v} keeps only a placeholder for it and stops with "plugin/${name}: this plugin has been deprecated"`
          : `CoreDNS ${v} stops with "Unknown directive '${name}'"`;
      context.report('plugin-removed', position, path, `plugin ${quote(name)} was removed in CoreDNS ${availability.removedIn ?? '?'}: ${outcome}; ${instead}`);
      return false;
    }
    case 'not-yet-added':
      context.report('plugin-not-yet-added', position, path, `plugin ${quote(name)} was added in CoreDNS ${availability.since ?? '?'}: CoreDNS ${v} stops with "Unknown directive '${name}'"`);
      return false;
    case 'unknown':
      reportUnknown(context, name, position, path);
      return false;
    case 'deprecated':
    case 'available':
      return reportUsable(context, name, availability, position, path);
  }
}

function reportUsable(context: LintContext, name: string, availability: Availability, position: SourcePosition, path: PathText): boolean {
  const v = context.version;
  if (availability.status === 'deprecated') {
    const removal = availability.removedIn === undefined ? '' : ` and removed in ${availability.removedIn}`;
    const instead = availability.replacement === undefined ? '' : `; use ${availability.replacement}`;
    context.report('plugin-deprecated', position, path, `plugin ${quote(name)} is deprecated since CoreDNS ${availability.deprecatedIn ?? '?'}${removal}${instead}`);
  }
  if (availability.caveat !== undefined) context.report('version-caveat', position, path, `CoreDNS ${v}, plugin ${quote(name)}: ${availability.caveat}`);
  return true;
}

/** A name that no release's default build has (and the custom build, if any, does not list). */
function reportUnknown(context: LintContext, name: string, position: SourcePosition, path: PathText): void {
  const { build, version: v } = context;
  // The same unknown name may be written a million times: its suggestions are worked out once.
  // Past the findings listed per code, none is worked out at all.
  const message = () => context.memo(`unknown-directive ${name}`, () => {
    const suggestions = closestNames(name, knownPluginNames(build)).map((candidate) => `${quote(candidate)}${whereAvailable(context, candidate)}`);
    const listed = build.custom === undefined ? '' : ", nor does your build's plugin list";
    const guess = suggestions.length === 0 ? '' : `; did you mean ${suggestions.join(' or ')}?`;
    return `no CoreDNS release from ${RANGE} has a plugin ${quote(name)} in its default build${listed}: CoreDNS ${v} stops with "Unknown directive '${name}'"${guess}`;
    });
  context.report('unknown-directive', position, path, message);
}

/** `''` when the build loads `candidate`, else where it is found (` (CoreDNS 1.7.0 and later)`). */
function whereAvailable(context: LintContext, candidate: string): string {
  if (context.build.loadable.has(candidate)) return '';
  const availability = context.plugin(candidate);
  switch (availability.status) {
    case 'not-yet-added':
      return ` (CoreDNS ${availability.since ?? '?'} and later)`;
    case 'removed':
      return ` (removed in CoreDNS ${availability.removedIn ?? '?'})`;
    case 'available':
    case 'deprecated':
      return " (not in your build's plugin list)";
    case 'unknown':
      return '';
  }
}
