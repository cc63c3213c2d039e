import { compareNodeCacheReleases } from '../../src/nodelocal/node-cache-releases.js';

/**
 * Release profiles stated as deltas (test/kubedns/kube-dns-versions.test.ts,
 * test/nodelocal/node-cache-releases.test.ts): each row of a test is one change between two
 * adjacent releases, and one law says the profile changes there and nowhere else.
 */

/** Every `1.MINOR.PATCH` from `from` to `to` (minors 14–26, patches 0–20), oldest first; both order like node-cache releases. */
export function grid(from: string, to: string): string[] {
  const versions: string[] = [];
  for (let minor = 14; minor <= 26; minor++) for (let patch = 0; patch <= 20; patch++) versions.push(`1.${minor}.${patch}`);
  return versions.filter((version) => compareNodeCacheReleases(version, from) >= 0 && compareNodeCacheReleases(version, to) <= 0);
}

/** The releases of `versions` whose profile (after `strip`) differs from the one before. */
export function changePoints<P>(versions: readonly string[], profile: (version: string) => P, strip: (profile: P) => unknown): string[] {
  const changes: string[] = [];
  let previous: string | undefined;
  for (const version of versions) {
    const key = JSON.stringify(strip(profile(version)));
    if (previous !== undefined && key !== previous) changes.push(version);
    previous = key;
  }
  return changes;
}
