/**
 * Migrating a Corefile between CoreDNS releases (`migrate`). Stages: releases.ts (reading the
 * versions) → migrate.ts (planning the edits on the parsed model) → text-edits.ts (applying them
 * to the original text); kubeadm-default.ts answers whether a Corefile is kubeadm's default.
 * Pure: no Node APIs.
 */
export { migrateCorefile } from './migrate.js';
export type { MigrateOptions, MigrationResult } from './migrate.js';
export type { MigrationAction, MigrationNotice, ReleaseSpan } from './notices.js';
