/**
 * Migrating a Corefile between CoreDNS releases (`migrate`). Stages: migrate-corefile.ts (the
 * public function: refuses a ConfigMap given as the Corefile) → releases.ts (reading the
 * versions) → migrate.ts (planning the edits on the parsed model, spans.ts saying which lines a
 * node owns) → text-edits.ts (applying them to the original text); notices.ts builds and orders
 * the findings. Whether a Corefile is kubeadm's default is `isKubeadmDefaultCorefileFor`
 * (src/kubeadm/cluster-decisions.ts). Pure: no Node APIs.
 */
export { migrateCorefile } from './migrate-corefile.js';
export type { MigrationResult } from './migrate.js';
export type { MigrateOptions } from './options.js';
export type { MigrationAction, MigrationNotice, ReleaseSpan } from './notices.js';
