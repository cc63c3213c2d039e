import { CORE_SCHEMA, DEFAULT_SCALAR_STYLE_RULES, dump, load, SCALAR_STYLE, YAML11_SCHEMA } from 'js-yaml';
import type { ScalarLayout } from 'js-yaml';
import { readConfigMapObject } from './read-configmap.js';
import type { ReadConfigMapOptions } from './read-configmap.js';

/**
 * Writing a ConfigMap back as it came in: the same object with some data keys replaced, ready
 * for `kubectl apply -f -` — for `migrate -o configmap`, `fmt -o configmap`, `--merge -o
 * configmap`. Labels, annotations, other data keys, `binaryData` and `immutable` are kept; the
 * fields the API server sets are dropped, since applying them back fails (a stale
 * `resourceVersion` is a conflict) or means nothing.
 */

/** `metadata` fields the API server sets: not written back. */
export const SERVER_SET_METADATA: readonly string[] = [
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'selfLink',
  'managedFields',
];

/** Annotations a client or the server writes about the object itself, not for the object: not written back. */
const SERVER_SET_ANNOTATIONS: readonly string[] = ['kubectl.kubernetes.io/last-applied-configuration'];

export interface ConfigMapRewrite {
  /** The ConfigMap as YAML, or as JSON (4-space indented, as `kubectl -o json` prints) when it came as JSON; ends with a line feed. */
  readonly text: string;
  /** `metadata.name` of the ConfigMap written. */
  readonly name: string | undefined;
  /** `metadata.namespace` of the ConfigMap written. */
  readonly namespace: string | undefined;
  /** The server-set fields left out, as paths (`metadata.resourceVersion`, `metadata.annotations.kubectl.kubernetes.io/last-applied-configuration`). */
  readonly dropped: readonly string[];
  /** The data keys whose value changed (added or replaced), in the order of `replacements`. */
  readonly changed: readonly string[];
  /**
   * `immutable: true` is set and a data key changed: the API server refuses such an update
   * (the ConfigMap must be deleted and created again).
   */
  readonly immutableConflict: boolean;
}

export interface RewriteConfigMapOptions extends ReadConfigMapOptions {
  /** Name and namespace for a bare data map, which has none. Default `kube-system/coredns`. */
  readonly defaultMetadata?: { readonly name: string; readonly namespace: string };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The ConfigMap that `text` holds (read as {@link readConfigMapObject} reads it: the one named, or
 * preferred, among several), with each key of `replacements` set in its `data` — in place when
 * the key exists, appended otherwise — and everything else kept except the server-set fields.
 * A bare data map becomes a whole ConfigMap named after `defaultMetadata`. Throws
 * {@link ConfigMapInputError} when `text` is not a ConfigMap.
 */
export function rewriteConfigMap(text: string, replacements: Readonly<Record<string, string>>, options: RewriteConfigMapOptions = {}): ConfigMapRewrite {
  const { document, object, json } = readConfigMapObject(text, options);
  const dropped: string[] = [];
  const base: Record<string, unknown> =
    object === undefined
      ? { apiVersion: 'v1', kind: 'ConfigMap', metadata: { ...(options.defaultMetadata ?? { name: 'coredns', namespace: 'kube-system' }) }, data: { ...document.data } }
      : { ...object };
  // Items of the API's ConfigMapList carry neither; kubectl apply needs both.
  const written: Record<string, unknown> = { ...('apiVersion' in base ? {} : { apiVersion: 'v1' }), ...('kind' in base ? {} : { kind: 'ConfigMap' }), ...base };
  const metadata = isRecord(written['metadata']) ? { ...written['metadata'] } : {};
  for (const field of SERVER_SET_METADATA) {
    if (field in metadata) {
      delete metadata[field];
      dropped.push(`metadata.${field}`);
    }
  }
  if (isRecord(metadata['annotations'])) {
    const annotations = { ...metadata['annotations'] };
    for (const annotation of SERVER_SET_ANNOTATIONS) {
      if (annotation in annotations) {
        delete annotations[annotation];
        dropped.push(`metadata.annotations.${annotation}`);
      }
    }
    if (Object.keys(annotations).length === 0) delete metadata['annotations'];
    else metadata['annotations'] = annotations;
  }
  written['metadata'] = metadata;
  // No prototype: a data key named __proto__ is a key like any other.
  const data = Object.assign(Object.create(null) as Record<string, string>, document.data);
  const changed = Object.entries(replacements)
    .filter(([key, value]) => data[key] !== value)
    .map(([key]) => key);
  Object.assign(data, replacements);
  written['data'] = data;
  const name = typeof metadata['name'] === 'string' ? metadata['name'] : undefined;
  const namespace = typeof metadata['namespace'] === 'string' ? metadata['namespace'] : undefined;
  return { text: serialize(written, json), name, namespace, dropped, changed, immutableConflict: written['immutable'] === true && changed.length > 0 };
}

/**
 * YAML as kubectl reads it (YAML 1.1) and as this package reads it (the YAML 1.2 core schema): a
 * plain scalar either would read as something else than its string (`yes`, `on`, `0x1F`, `1e3`,
 * `null`) is double-quoted; multi-line values are literal blocks; no line folding. Checked to load
 * back to the same object under both; JSON when the input was JSON, or should that check fail (JSON
 * is YAML too).
 */
function serialize(object: Record<string, unknown>, json: boolean): string {
  const asJson = `${JSON.stringify(object, null, 4)}\n`;
  if (json) return asJson;
  const { fallbackToDoubleQuoted, ...rules } = DEFAULT_SCALAR_STYLE_RULES;
  const yaml = dump(object, { lineWidth: -1, quoteStyle: 'double', scalarStyleRules: [...Object.values(rules), quoteWhatReadsOtherwise, fallbackToDoubleQuoted] });
  return loadsBackTo(yaml, asJson) ? yaml : asJson;
}

const READERS = [YAML11_SCHEMA, CORE_SCHEMA];

function quoteWhatReadsOtherwise(layout: ScalarLayout): void {
  // Only strings: a boolean or a number is meant to read as one.
  if (layout.style !== SCALAR_STYLE.PLAIN || layout.node.tag !== 'tag:yaml.org,2002:str') return;
  const text = layout.node.value;
  if (READERS.some((schema) => readsAs(text, schema) !== text)) layout.style = SCALAR_STYLE.DOUBLE_QUOTED;
}

function readsAs(text: string, schema: typeof CORE_SCHEMA): unknown {
  try {
    return load(text, { schema, maxAliases: 0 });
  } catch {
    return undefined;
  }
}

function loadsBackTo(yaml: string, json: string): boolean {
  try {
    return READERS.every((schema) => `${JSON.stringify(load(yaml, { schema, maxAliases: 0 }), null, 4)}\n` === json);
  } catch {
    return false;
  }
}
