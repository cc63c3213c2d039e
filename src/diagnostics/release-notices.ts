import { diagnostic } from './diagnostic.js';
import type { Diagnostic } from './diagnostic.js';

/**
 * How a CoreDNS release text was read (a resolved release of src/coredns/resolve-release.ts, seen
 * through the fields this floor needs), as diagnostics of the translator and of lint: the same
 * notices `migrate` gives for `--from` and `--to`.
 *
 * Pure: no Node APIs.
 */
export interface ReleaseReading {
  readonly version: string;
  readonly mapping: { readonly summary: string; readonly image: unknown };
  readonly notices: readonly { readonly severity: 'warning' | 'info'; readonly message: string }[];
}

/**
 * `release-resolved` (info) when the text needed reading — an image reference, a build suffix, a
 * release newer than known — with each of the resolver's notices: `release-assumed` (warning) for
 * an assumption that may not hold (newer than the newest known, an image that is not CoreDNS's).
 * `role` names the option (`coredns`). None for a release written plainly (`1.8.0`, `v1.8.0`).
 */
export function releaseDiagnostics(role: string, reading: ReleaseReading): Diagnostic[] {
  if (reading.mapping.image === undefined && reading.notices.length === 0) return [];
  return [
    diagnostic('release-resolved', { message: `${role}: ${reading.mapping.summary}` }),
    ...reading.notices.map((notice) => diagnostic(notice.severity === 'warning' ? 'release-assumed' : 'release-resolved', { message: `${role}: ${notice.message}` })),
  ];
}
