import type { CoreDnsReleaseInput } from '../coredns/resolve-release.js';

/** What a migration is asked to do (see docs/migrate.md). Pure data. */
export interface MigrateOptions {
  /**
   * The release the Corefile is written for: `1.6.7`, `v1.6.7`, `1.6.7-eksbuild.1`, an image
   * reference (the grammar of `resolveCoreDnsRelease`), or a release that function resolved.
   */
  readonly from: CoreDnsReleaseInput;
  /** The release to migrate to (same forms). */
  readonly to: CoreDnsReleaseInput;
  /** Also replace what is only deprecated in the target release (proxy from 1.4.0, kubernetes upstream …). Default false, as kubeadm. */
  readonly deprecations?: boolean;
  /** Remove `federation` for releases without it (1.7.0+) instead of refusing. */
  readonly dropFederations?: boolean;
  /** Add the defaults corefile-migration and kubeadm add on an upgrade (loop, ready, lameduck 5s, max_concurrent 1000). Default true. */
  readonly newDefaults?: boolean;
  /** Name used in syntax errors. */
  readonly filename?: string;
}
