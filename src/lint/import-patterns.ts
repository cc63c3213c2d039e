import { firstReleaseWith } from '../coredns/features.js';
import type { CoreDnsFeatures } from '../coredns/features.js';

/**
 * How a release reads the pattern of a file `import` (caddyfile/parse.go `doImport` of the caddy it
 * builds with; `importGlobs` in src/coredns/features.ts says which reading a release has), the words
 * lint's messages use for it. Pure: no Node APIs.
 */

/** Whether the release reads `pattern` as a glob that may match no file (it then imports nothing and logs a warning). */
export function isImportGlob(pattern: string, features: CoreDnsFeatures): boolean {
  return features.importGlobs === 'star-only' ? pattern.includes('*') : /[*?[\]]/.test(pattern);
}

/**
 * Why the release refuses `pattern` itself, before looking for files: from the release the `importGlobs` timeline names, a pattern with more
 * than one `*`, more than one `?`, or both `[` and `]` (caddy counts them in the pattern joined
 * with the Corefile's directory, which lint cannot see: a directory name holding one of them counts
 * too). Undefined when it does not.
 */
export function importPatternProblem(pattern: string, features: CoreDnsFeatures): string | undefined {
  if (features.importGlobs === 'star-only') return undefined;
  const count = (char: string) => pattern.split(char).length - 1;
  if (count('*') > 1 || count('?') > 1 || (pattern.includes('[') && pattern.includes(']'))) {
    return `'${pattern}' has more than one wildcard: CoreDNS ${features.version} stops with "Glob pattern may only contain one wildcard (*), but has others"`;
  }
  return undefined;
}

/** What the release does with a file import lint did not read, for `import-not-checked`. */
export function unreadImportConsequence(pattern: string, features: CoreDnsFeatures): string {
  return isImportGlob(pattern, features)
    ? `is a glob: the files it matches were not linted (one that matches none imports nothing: CoreDNS ${features.version} logs "No files matching import glob pattern")`
    : `names one file, which was not linted: CoreDNS ${features.version} stops unless it exists ("File to import not found")${features.importGlobs === 'star-only' && /[?[\]]/.test(pattern) ? ` — before ${firstReleaseWith((release) => release.importGlobs === 'one-wildcard') ?? 'later releases'} only '*' makes a pattern a glob that may match nothing` : ''}`;
}
