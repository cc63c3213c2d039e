/**
 * A ConfigMap written back as it came in (`migrate -o configmap`, `fmt -o configmap`, `fmt
 * --write`), on top of the configmap floor's write-back ({@link configMapWithCorefile},
 * {@link renderConfigMapWithCorefile}): the text, and the diagnostics that say what the write-back
 * left out and what the API server will do with it.
 *
 * Pure: no Node APIs.
 */
import { configMapWithCorefile, renderConfigMapWithCorefile, renderCoreDnsConfigMap, serverSetFields } from '../configmap/write-configmap.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';

export interface ConfigMapWriteBack {
  /** The ConfigMap for `kubectl apply -f -` (YAML, or JSON when it came as JSON). */
  readonly text: string;
  /** `configmap-server-fields-dropped`, `configmap-immutable`: what the write-back means. */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * `configMap` (as `readConfigMap(text).object` gives it; undefined for a bare Corefile or a bare
 * data map, which become the `kube-system/coredns` ConfigMap) with its `Corefile` replaced.
 */
export function writeBackConfigMap(configMap: Readonly<Record<string, unknown>> | undefined, corefile: string, options: { readonly json?: boolean } = {}): ConfigMapWriteBack {
  if (configMap === undefined) return { text: renderCoreDnsConfigMap(corefile), diagnostics: [] };
  const written = configMapWithCorefile(configMap, corefile);
  const metadata = written['metadata'] as Record<string, unknown> | undefined;
  const name = typeof metadata?.['name'] === 'string' ? metadata['name'] : undefined;
  const namespace = typeof metadata?.['namespace'] === 'string' ? metadata['namespace'] : undefined;
  const which = name === undefined ? 'the ConfigMap' : `ConfigMap ${namespace === undefined ? '' : `${namespace}/`}${name}`;
  const diagnostics: Diagnostic[] = [];
  const dropped = serverSetFields(configMap);
  if (dropped.length > 0) diagnostics.push(diagnostic('configmap-server-fields-dropped', { message: `${which} is written without the fields the API server sets: ${dropped.join(', ')}` }));
  const before = configMap['data'] as Readonly<Record<string, unknown>> | undefined;
  if (configMap['immutable'] === true && before?.['Corefile'] !== corefile) {
    diagnostics.push(diagnostic('configmap-immutable', { message: `${which} is immutable: true and 'Corefile' changed: the API server refuses to update it (delete and create it again)` }));
  }
  return { text: renderConfigMapWithCorefile(configMap, corefile, 'Corefile', options), diagnostics };
}
