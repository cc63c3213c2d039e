import { assertCorefileNotConfigMap } from '../configmap/not-a-configmap.js';
import { checkArgument } from '../errors/arguments.js';
import { migrateCorefileText } from './migrate.js';
import type { MigrationResult } from './migrate.js';
import type { MigrateOptions } from './options.js';

/**
 * Migrates `corefile` from `options.from` to `options.to`.
 *
 * @throws {UnresolvedCoreDnsReleaseError} when `from` or `to` names no known release.
 * @throws {CorefileSyntaxError} when the Corefile does not parse.
 * @throws {ConfigMapInputError} (`configmap-given`) when `corefile` is a ConfigMap's YAML or JSON:
 *   pass its `Corefile` entry (`readConfigMap(text).data.Corefile`).
 */
export function migrateCorefile(corefile: string, options: MigrateOptions): MigrationResult {
  checkArgument('migrateCorefile', 'corefile', corefile, 'string');
  checkArgument('migrateCorefile', 'options', options, 'object');
  assertCorefileNotConfigMap(corefile, 'migrateCorefile', options.filename);
  return migrateCorefileText(corefile, options);
}
