/**
 * Stage 1 of a migration: reading `from` and `to` as CoreDNS releases (through
 * {@link resolveCoreDnsRelease}: `v1.6.7`, `1.6.7-eksbuild.1`, image references, newer than known),
 * each mapping and assumption reported as a notice.
 *
 * Pure: no Node APIs.
 */
import { coreDnsReleaseOf } from '../coredns/resolve-release.js';
import type { CoreDnsReleaseInput, CoreDnsReleaseMapping, ResolvedCoreDnsRelease } from '../coredns/resolve-release.js';
import type { CoreDnsVersion } from '../coredns/versions.js';
import { migrationNotice } from './notices.js';
import type { MigrationNotice } from './notices.js';

export interface ResolvedRelease {
  readonly version: CoreDnsVersion;
  readonly mapping: CoreDnsReleaseMapping;
  readonly notices: readonly MigrationNotice[];
}

/**
 * Resolves `text` (the value of `from` or `to`, or a release {@link resolveCoreDnsRelease} resolved
 * already); throws the resolver's error when no release fits.
 *
 * @throws {UnresolvedCoreDnsReleaseError}
 */
export function resolveMigrationRelease(role: 'from' | 'to', text: CoreDnsReleaseInput): ResolvedRelease {
  const result = coreDnsReleaseOf(text);
  // A resolution coreDnsReleaseOf keeps (frozen) is read once per role: a batch names the same
  // releases on every line, and its results share these notices, frozen likewise.
  const shared = Object.isFrozen(result);
  const kept = shared ? READ[role].get(result) : undefined;
  if (kept !== undefined) return kept;
  const read = readRelease(role, result);
  if (shared) {
    for (const notice of read.notices) Object.freeze(notice);
    Object.freeze(read.notices);
    READ[role].set(result, Object.freeze(read));
  }
  return read;
}

const READ = { from: new WeakMap<ResolvedCoreDnsRelease, ResolvedRelease>(), to: new WeakMap<ResolvedCoreDnsRelease, ResolvedRelease>() };

function readRelease(role: 'from' | 'to', result: ResolvedCoreDnsRelease): ResolvedRelease {
  const notices: MigrationNotice[] = [
    migrationNotice('migrate-release-resolved', { action: 'resolved', message: `${role}: ${result.mapping.summary}` }),
  ];
  for (const notice of result.notices) {
    notices.push(
      migrationNotice(notice.severity === 'warning' ? 'migrate-release-assumed' : 'migrate-release-resolved', {
        action: 'resolved',
        message: `${role}: ${notice.message}`,
      }),
    );
  }
  return { version: result.version, mapping: result.mapping, notices };
}
