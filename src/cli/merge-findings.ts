import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { CorefileSourceText } from './corefile-source.js';

/**
 * Placing `--merge FILE`'s findings in FILE (the translator's `--merge`, `-o install --merge`,
 * `cutover --merge`); apart from corefile-source.ts, which every command that reads a Corefile
 * loads, so that only the merges load it.
 */

/** The findings `--merge FILE` makes about the lines it keeps from FILE, placed in FILE by {@link placeCorefileFindings}. */
export const MERGE_FINDINGS: ReadonlySet<string> = new Set(['merge-target-refuses']);

/**
 * The findings of `codes` about the Corefile of `source` (key `Corefile`, a position in its text:
 * `--merge FILE`'s `merge-target-refuses`, at the line the merge kept from FILE) placed in FILE as
 * the translator places its findings in a ConfigMap: a `location` in FILE (inside the YAML for a
 * ConfigMap; at the values that write it for Helm values), `position` still the place in the
 * Corefile text, and the path without that position (`Corefile[.:53] kubernetes > upstream`).
 * Other findings, and those that cannot be placed, are returned as they are.
 */
export function placeCorefileFindings<Entry extends Diagnostic>(source: CorefileSourceText, diagnostics: readonly Entry[], codes: ReadonlySet<string>): Entry[] {
  const concerned = (entry: Entry) => codes.has(entry.code) && entry.key === 'Corefile' && entry.position !== undefined && entry.location === undefined;
  if (!diagnostics.some(concerned)) return [...diagnostics];
  if (source.locateFindings !== undefined) {
    const { locateFindings } = source;
    return diagnostics.map((entry) => (concerned(entry) ? (locateFindings([entry])[0] ?? entry) : entry));
  }
  return diagnostics.map((entry) => {
    const location = concerned(entry) && entry.position !== undefined ? source.locationOf?.(entry.position) : undefined;
    if (location === undefined) return entry;
    const path = entry.path?.replace(/^:\d+:\d+ ?/, '');
    const placed: Record<string, unknown> = {};
    // The fields in the order diagnostic() writes them.
    for (const [field, value] of Object.entries(entry)) {
      if (field === 'path') {
        if (path !== undefined && path !== '') placed['path'] = path;
      } else if (field === 'message') {
        placed['location'] = location;
        placed['message'] = value;
      } else placed[field] = value;
    }
    return placed as unknown as Entry;
  });
}

