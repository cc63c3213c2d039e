import { assertCorefileNotConfigMap } from '../configmap/not-a-configmap.js';
import { checkArgument } from '../errors/arguments.js';
import { lintCorefileWithImports } from './lint-imports.js';
import type { LintOptions, LintResult } from './lint.js';

/**
 * Lints Corefile text against a CoreDNS release.
 *
 * @throws {CorefileSyntaxError} when CoreDNS could not even parse the text.
 * @throws {UnresolvedCoreDnsReleaseError} when `options.coredns` names no known release.
 * @throws {ConfigMapInputError} `configmap-given` when the text is a ConfigMap's YAML or JSON: read it
 *   with `readConfigMap` and lint its `data.Corefile` (as `migrateCorefile` and `mergeTranslation` ask).
 */
export function lintCorefile(text: string, options: LintOptions = {}): LintResult {
  checkArgument('lintCorefile', 'text', text, 'string');
  checkArgument('lintCorefile', 'options', options, 'object?');
  assertCorefileNotConfigMap(text, 'lintCorefile', options.filename);
  return lintCorefileWithImports(text, options);
}
