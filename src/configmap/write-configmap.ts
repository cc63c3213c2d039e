import { CORE_SCHEMA, DEFAULT_SCALAR_STYLE_RULES, dump, load, SCALAR_STYLE, YAML11_SCHEMA } from 'js-yaml';
import type { ScalarLayout } from 'js-yaml';
import { loadYamlDocuments } from './yaml-documents.js';
import { ConfigMapInputError, describe as describeValue } from './config-map-data.js';
import { isDns1123Label, isDns1123Subdomain } from '../dns/go-net.js';
import { checkArgument, checkOptions, InvalidArgumentError } from '../errors/arguments.js';

/** `kube-system/coredns`, the ConfigMap the CoreDNS Deployment of Kubernetes mounts. */
const COREDNS_CONFIGMAP = { name: 'coredns', namespace: 'kube-system' } as const;

/**
 * A CoreDNS ConfigMap holding `corefile`, ready for `kubectl apply -f -`. The Corefile is written
 * as a literal block (readable, diffable); should a line defeat that (leading spaces on the first
 * line, characters YAML cannot hold raw), a double-quoted scalar is used instead. Either way the
 * result is checked to load back to exactly `corefile`.
 */
export function renderCoreDnsConfigMap(corefile: string, metadata: { name: string; namespace: string } = COREDNS_CONFIGMAP): string {
  checkArgument('renderCoreDnsConfigMap', 'corefile', corefile, 'string');
  checkOptions('renderCoreDnsConfigMap', 'metadata', metadata, { name: 'string', namespace: 'string' });
  // Pasted into the YAML as they are: only names Kubernetes accepts, so no field can be injected.
  if (!isDns1123Subdomain(metadata.name)) throw new InvalidArgumentError('invalid-value', 'renderCoreDnsConfigMap', 'metadata.name', `'${metadata.name}' is not a ConfigMap name (a DNS-1123 subdomain: lower-case letters, digits, '-' and '.')`);
  if (!isDns1123Label(metadata.namespace)) throw new InvalidArgumentError('invalid-value', 'renderCoreDnsConfigMap', 'metadata.namespace', `'${metadata.namespace}' is not a namespace name (a DNS-1123 label: lower-case letters, digits and '-')`);
  const header = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', `  name: ${metadata.name}`, `  namespace: ${metadata.namespace}`, 'data:'];
  const literal = `${[...header, '  Corefile: |', ...corefile.replace(/\n$/, '').split('\n').map((line) => (line === '' ? '' : `    ${line}`))].join('\n')}\n`;
  if (loadsBackTo(literal, corefile)) return literal;
  const quoted = `${[...header, `  Corefile: ${JSON.stringify(corefile)}`].join('\n')}\n`;
  if (loadsBackTo(quoted, corefile)) return quoted;
  throw new InvalidArgumentError('invalid-value', 'renderCoreDnsConfigMap', 'corefile', 'cannot be written into a ConfigMap that loads back to the same text');
}

function loadsBackTo(yaml: string, corefile: string): boolean {
  try {
    const document = load(yaml, { maxAliases: 0 }) as { data?: { Corefile?: unknown } };
    return document.data?.Corefile === corefile;
  } catch {
    return false;
  }
}

/**
 * Metadata the API server sets on every object, which a manifest for `kubectl apply` must not
 * carry (a stale `resourceVersion` makes the update conflict; `uid`, `managedFields` and the
 * timestamps are the server's bookkeeping). Kubernetes core/v1 ObjectMeta.
 */
const SERVER_SET_METADATA: ReadonlySet<string> = new Set(['resourceVersion', 'uid', 'managedFields', 'creationTimestamp', 'selfLink', 'generation', 'deletionTimestamp', 'deletionGracePeriodSeconds']);
/** The annotation `kubectl apply` writes: the previous manifest, which the new one replaces. */
const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

/**
 * A ConfigMap as it came in (a parsed `kubectl get -o yaml|json` object, e.g.
 * `readConfigMap(text).object`) with its data key `key` (default `Corefile`) set to `corefile`:
 * every other field kept — other data keys (k3s `NodeHosts`, AKS `*.server`), `binaryData`,
 * labels, annotations, owner references, key order — and only what the API server set dropped
 * (`resourceVersion`, `uid`, `managedFields`, `creationTimestamp`, `selfLink`, `generation`, the
 * deletion fields, the `kubectl.kubernetes.io/last-applied-configuration` annotation), so the
 * result can go to `kubectl apply -f -`. A missing `apiVersion`/`kind` is added. The argument is
 * not changed. Throws {@link ConfigMapInputError} when `configMap` is not an object or its `data`
 * or `metadata` is not a mapping.
 */
export function configMapWithCorefile(configMap: Readonly<Record<string, unknown>>, corefile: string, key = 'Corefile'): Record<string, unknown> {
  if (!isRecord(configMap)) throw new ConfigMapInputError('no-configmap', `a ConfigMap must be an object, got ${describeValue(configMap)}`);
  if (typeof corefile !== 'string') throw new ConfigMapInputError('value-not-string', `the Corefile must be a string, got ${describeValue(corefile)}`);
  const { data, metadata } = configMap;
  if (data !== undefined && data !== null && !isRecord(data)) throw new ConfigMapInputError('data-not-mapping', `data must be a mapping of strings, got ${describeValue(data)}`);
  if (metadata !== undefined && metadata !== null && !isRecord(metadata)) throw new ConfigMapInputError('misplaced-fields', `metadata must be a mapping, got ${describeValue(metadata)}`);
  const result: Record<string, unknown> = {};
  if (configMap['apiVersion'] === undefined) result['apiVersion'] = 'v1';
  if (configMap['kind'] === undefined) result['kind'] = 'ConfigMap';
  for (const [field, value] of Object.entries(configMap)) {
    if (field === 'metadata') {
      if (isRecord(value)) result[field] = clientMetadata(value);
    } else if (field !== 'data') {
      result[field] = value;
    }
    // data goes where it was; a ConfigMap without data gets it last.
    if (field === 'data' || (field === 'metadata' && !('data' in configMap))) result['data'] = { ...(isRecord(data) ? data : {}), [key]: corefile };
  }
  if (!('data' in result)) result['data'] = { [key]: corefile };
  return result;
}

/**
 * {@link configMapWithCorefile} written for `kubectl apply -f -`: YAML, the Corefile and other
 * multi-line values as literal blocks, or (`json: true`, for a ConfigMap that came as JSON) JSON
 * with kubectl's 4-space indentation. A plain scalar that YAML 1.1 (which kubectl reads) or YAML
 * 1.2 would read as anything but its string (`yes`, `on`, `0x1F`, `1e3`, `null`) is double-quoted.
 * Checked to load back to the same object under both.
 */
export function renderConfigMapWithCorefile(configMap: Readonly<Record<string, unknown>>, corefile: string, key = 'Corefile', options: { readonly json?: boolean } = {}): string {
  return renderConfigMap(configMapWithCorefile(configMap, corefile, key), options);
}

/** A ConfigMap object written as {@link renderConfigMapWithCorefile} writes its result (YAML, or JSON with `json: true`). */
export function renderConfigMap(object: Readonly<Record<string, unknown>>, options: { readonly json?: boolean } = {}): string {
  const asJson = `${JSON.stringify(object, null, 4)}\n`;
  if (options.json === true) return asJson;
  let yaml: string;
  try {
    const { fallbackToDoubleQuoted, ...rules } = DEFAULT_SCALAR_STYLE_RULES;
    // A value the input shared through an alias is written once, with an anchor (`&ref_0`), as the
    // input wrote it: written out in full, 10 lines of aliases can be megabytes.
    yaml = dump(object, { lineWidth: -1, quoteStyle: 'double', scalarStyleRules: [...Object.values(rules), quoteWhatReadsOtherwise(), fallbackToDoubleQuoted] });
  } catch (error) {
    throw new ConfigMapInputError('value-not-string', `the ConfigMap cannot be written as YAML: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!READERS.every((schema) => `${JSON.stringify(loadYamlDocuments(yaml, { schema, filename: 'the written ConfigMap' })[0], null, 4)}\n` === asJson)) {
    throw new ConfigMapInputError('value-not-string', 'the ConfigMap cannot be written as YAML that loads back to it (a value YAML cannot hold)');
  }
  return yaml;
}

/**
 * The fields {@link configMapWithCorefile} leaves out of `configMap`, as paths
 * (`metadata.resourceVersion`, `metadata.annotations.kubectl.kubernetes.io/last-applied-configuration`),
 * in the order they are written: for saying what the write-back dropped.
 */
export function serverSetFields(configMap: Readonly<Record<string, unknown>>): string[] {
  const metadata = isRecord(configMap) ? configMap['metadata'] : undefined;
  if (!isRecord(metadata)) return [];
  return Object.entries(metadata).flatMap(([field, value]) => {
    if (SERVER_SET_METADATA.has(field)) return [`metadata.${field}`];
    return field === 'annotations' && isRecord(value) && LAST_APPLIED in value ? [`metadata.annotations.${LAST_APPLIED}`] : [];
  });
}

/** How kubectl (YAML 1.1) and this package (YAML 1.2 core schema) read a ConfigMap's YAML. */
const READERS = [YAML11_SCHEMA, CORE_SCHEMA];

/**
 * A styling rule that double-quotes a plain string scalar that either reader would read as
 * something else than that string. Each text is read once per rule: values an alias repeats (an
 * anchored list under an annotation, written out in full) cost one YAML load, not one per copy.
 */
function quoteWhatReadsOtherwise(): (layout: ScalarLayout) => void {
  const readsOtherwise = new Map<string, boolean>();
  return (layout) => {
    // Only strings: a boolean or a number is meant to read as one.
    if (layout.style !== SCALAR_STYLE.PLAIN || layout.node.tag !== 'tag:yaml.org,2002:str') return;
    const text = layout.node.value;
    let quote = readsOtherwise.get(text);
    if (quote === undefined) {
      quote = READERS.some((schema) => readsAs(text, schema) !== text);
      readsOtherwise.set(text, quote);
    }
    if (quote) layout.style = SCALAR_STYLE.DOUBLE_QUOTED;
  };
}

function readsAs(text: string, schema: typeof CORE_SCHEMA): unknown {
  try {
    return load(text, { schema, maxAliases: 0 });
  } catch {
    return undefined;
  }
}

function clientMetadata(metadata: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(metadata)) {
    if (SERVER_SET_METADATA.has(field)) continue;
    if (field === 'annotations' && isRecord(value) && LAST_APPLIED in value) {
      const { [LAST_APPLIED]: _lastApplied, ...annotations } = value;
      if (Object.keys(annotations).length > 0) kept[field] = annotations;
      continue;
    }
    kept[field] = value;
  }
  return kept;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
