/**
 * A ConfigMap written back as it came in (`migrate -o configmap`, `fmt -o configmap`, `fmt
 * --write`): the diagnostics that say what the write-back left out or what the API server will do
 * with it. The rewriting itself is {@link rewriteConfigMap} (configmap floor).
 *
 * Pure: no Node APIs.
 */
import type { ConfigMapRewrite } from '../configmap/rewrite-configmap.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';

/** `configmap-server-fields-dropped` for what was left out, `configmap-immutable` for an update the API server refuses. */
export function configMapRewriteDiagnostics(rewrite: ConfigMapRewrite): Diagnostic[] {
  const which = rewrite.name === undefined ? 'the ConfigMap' : `ConfigMap ${rewrite.namespace === undefined ? '' : `${rewrite.namespace}/`}${rewrite.name}`;
  const diagnostics: Diagnostic[] = [];
  if (rewrite.dropped.length > 0) {
    diagnostics.push(diagnostic('configmap-server-fields-dropped', { message: `${which} is written without the fields the API server sets: ${rewrite.dropped.join(', ')}` }));
  }
  if (rewrite.immutableConflict) {
    diagnostics.push(
      diagnostic('configmap-immutable', {
        message: `${which} is immutable: true and ${rewrite.changed.map((key) => `'${key}'`).join(', ')} changed: the API server refuses to update it (delete and create it again)`,
      }),
    );
  }
  return diagnostics;
}
