import { ConfigMapInputError } from './config-map-data.js';
import { CONFIGMAP_LINE } from './configmap-line.js';
import { parseDocuments } from './read-configmap.js';

/**
 * Telling a Corefile from a ConfigMap's YAML or JSON, for the functions that take Corefile text:
 * `apiVersion: v1` read as a Corefile is a server block named `apiVersion:` — parsed, linted and
 * migrated as if it were one, without a word.
 */


const CONFIGMAP_KINDS: ReadonlySet<unknown> = new Set(['ConfigMap', 'List', 'ConfigMapList']);

/**
 * Whether `text` is a ConfigMap (or a List of them, or a bare data map with a `Corefile` entry) as
 * kubectl prints it, rather than a Corefile: it has a line only such YAML or JSON has, and it
 * loads as YAML into such an object.
 */
function isConfigMapText(text: string): boolean {
  if (!CONFIGMAP_LINE.test(text)) return false;
  let documents: unknown[];
  try {
    documents = parseDocuments(text, '<input>');
  } catch {
    return false;
  }
  return documents.some((document) => {
    if (typeof document !== 'object' || document === null || Array.isArray(document)) return false;
    const record = document as Record<string, unknown>;
    if (CONFIGMAP_KINDS.has(record['kind'])) return true;
    const data = record['data'];
    return typeof record['Corefile'] === 'string' || (typeof data === 'object' && data !== null && 'Corefile' in data);
  });
}

/**
 * Throws {@link ConfigMapInputError} `configmap-given` when `text`, given to `caller` as a
 * Corefile, is a ConfigMap: the message names `readConfigMap`, which reads its `Corefile` entry.
 */
export function assertCorefileNotConfigMap(text: string, caller: string, filename?: string): void {
  if (!isConfigMapText(text)) return;
  throw new ConfigMapInputError(
    'configmap-given',
    `${caller} takes Corefile text, and this is a ConfigMap's YAML or JSON: read it with readConfigMap(text) and pass its data.Corefile (renderConfigMapWithCorefile writes the result back into the ConfigMap)`,
    filename === undefined ? {} : { filename },
  );
}
