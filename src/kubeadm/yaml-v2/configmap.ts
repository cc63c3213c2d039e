import type { GoValue } from './go-values.js';
import { JsonConversionError, compareCodePoints, isJsonNumber, isJsonObject, jsonTypeName, yamlValueToJson } from './yaml-to-json.js';
import type { JsonObject, JsonValue } from './yaml-to-json.js';

/**
 * The step after yaml.v2 in kubeadm's `DecodeInto(UniversalDecoder(), manifest, &v1.ConfigMap{})`:
 * apimachinery's YAML serializer converts the document to JSON ({@link yamlValueToJson}), reads
 * `apiVersion`/`kind` from it, and unmarshals the JSON into the ConfigMap. For kubeadm's own
 * manifest nothing can fail here; a manifest whose structure was changed by pasted text (an
 * upstream nameserver such as `8.8.8.8\nkind: Secret`) can.
 *
 * Verified: the YAML → JSON conversion and its messages (ghodss/yaml, encoding/json).
 * NOT verified: which of apimachinery's checks fires first and its exact messages for a wrong
 * kind, a wrongly typed field or a missing `Corefile`. No reference output exists for them
 * (docs/reference/kubeadm-translation.md §13); the messages below describe the problem in this
 * library's own words and are marked where they are produced.
 */
export type ConfigMapCorefileResult = { readonly ok: true; readonly corefile: string } | { readonly ok: false; readonly error: string };

/** NOT kubeadm's verified wording (see the module comment). */
function typeProblem(path: string, expected: string, value: JsonValue): string {
  return `decoded ConfigMap field ${path} must be ${expected}, not JSON ${jsonTypeName(value)}`;
}

type FieldCheck = (path: string, value: JsonValue | undefined) => string | undefined;

const checkString: FieldCheck = (path, value) =>
  value === undefined || value === null || typeof value === 'string' ? undefined : typeProblem(path, 'a string', value);

const checkBoolean: FieldCheck = (path, value) =>
  value === undefined || value === null || typeof value === 'boolean' ? undefined : typeProblem(path, 'a boolean', value);

const checkInteger: FieldCheck = (path, value) =>
  value === undefined || value === null || (isJsonNumber(value) && value.integer) ? undefined : typeProblem(path, 'an integer', value);

const checkObject: FieldCheck = (path, value) =>
  value === undefined || value === null || isJsonObject(value) ? undefined : typeProblem(path, 'an object', value);

/** `map[string]string` (a JSON null value is accepted and becomes ""). */
const checkStringMap: FieldCheck = (path, value) => {
  if (value === undefined || value === null) return undefined;
  if (!isJsonObject(value)) return typeProblem(path, 'an object of strings', value);
  for (const [key, item] of value.fields) {
    const problem = checkString(`${path}[${JSON.stringify(key)}]`, item);
    if (problem !== undefined) return problem;
  }
  return undefined;
};

function arrayOf(item: FieldCheck): FieldCheck {
  return (path, value) => {
    if (value === undefined || value === null) return undefined;
    if (!Array.isArray(value)) return typeProblem(path, 'an array', value);
    for (const [index, element] of value.entries()) {
      const problem = item(`${path}[${index}]`, element);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}

/** The typed fields of `metadata` (v1.ObjectMeta) that a pasted top-level `metadata:` could set. */
const METADATA_FIELDS: ReadonlyArray<readonly [string, FieldCheck]> = [
  ['name', checkString],
  ['generateName', checkString],
  ['namespace', checkString],
  ['selfLink', checkString],
  ['uid', checkString],
  ['resourceVersion', checkString],
  ['generation', checkInteger],
  ['creationTimestamp', checkString],
  ['deletionTimestamp', checkString],
  ['deletionGracePeriodSeconds', checkInteger],
  ['labels', checkStringMap],
  ['annotations', checkStringMap],
  ['ownerReferences', arrayOf(checkObject)],
  ['initializers', checkObject],
  ['finalizers', arrayOf(checkString)],
  ['clusterName', checkString],
  ['managedFields', arrayOf(checkObject)],
];

const checkMetadata: FieldCheck = (path, value) => {
  if (value === undefined || value === null) return undefined;
  if (!isJsonObject(value)) return typeProblem(path, 'an object', value);
  for (const [name, check] of METADATA_FIELDS) {
    const problem = check(`${path}.${name}`, value.fields.get(name));
    if (problem !== undefined) return problem;
  }
  return undefined;
};

/** v1.ConfigMap's fields, matched case-sensitively as apimachinery's json-iterator does. */
const CONFIGMAP_FIELDS: ReadonlyArray<readonly [string, FieldCheck]> = [
  ['apiVersion', checkString],
  ['kind', checkString],
  ['metadata', checkMetadata],
  ['data', checkStringMap],
  ['binaryData', checkStringMap],
  ['immutable', checkBoolean],
];

/**
 * apimachinery's `SimpleMetaFactory.Interpret`: encoding/json into `{apiVersion, kind string}`,
 * which also matches keys that differ in case; of several matching keys the last one (in the sorted
 * order json.Marshal wrote them) wins.
 */
function interpretTypeField(root: JsonObject, field: 'apiVersion' | 'kind'): { readonly value: string } | { readonly error: string } {
  let result = '';
  const keys = [...root.fields.keys()].filter((key) => key.toLowerCase() === field.toLowerCase()).sort(compareCodePoints);
  for (const key of keys) {
    const value = root.fields.get(key) ?? null;
    if (value === null) continue;
    if (typeof value !== 'string') {
      // encoding/json's wording; the "couldn't get version/kind" prefix is apimachinery's.
      return { error: `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonTypeName(value)} into Go struct field .${field} of type string` };
    }
    result = value;
  }
  return { value: result };
}

/**
 * From the value yaml.v2 decoded (undefined for an empty stream) to what kubeadm stored as
 * `data.Corefile`, or the error the conversion into a ConfigMap stops with (see the module comment
 * for what is verified).
 */
export function corefileFromDocument(document: GoValue | undefined): ConfigMapCorefileResult {
  let json: JsonValue;
  try {
    json = document === undefined ? null : yamlValueToJson(document);
  } catch (error) {
    if (error instanceof JsonConversionError) return { ok: false, error: error.message };
    throw error;
  }
  if (!isJsonObject(json)) {
    // NOT kubeadm's verified wording.
    return { ok: false, error: `decoded manifest is JSON ${jsonTypeName(json)}, not a ConfigMap object` };
  }
  const apiVersion = interpretTypeField(json, 'apiVersion');
  if ('error' in apiVersion) return { ok: false, error: apiVersion.error };
  const kind = interpretTypeField(json, 'kind');
  if ('error' in kind) return { ok: false, error: kind.error };
  // Empty values are defaulted from the target type, a v1 ConfigMap.
  const version = apiVersion.value === '' ? 'v1' : apiVersion.value;
  const kindName = kind.value === '' ? 'ConfigMap' : kind.value;
  if (version !== 'v1' || kindName !== 'ConfigMap') {
    // NOT kubeadm's verified wording: apimachinery either finds no such kind in its scheme or
    // cannot convert the decoded object into a *v1.ConfigMap.
    return { ok: false, error: `decoded manifest is apiVersion ${JSON.stringify(version)} kind ${JSON.stringify(kindName)}, not a v1 ConfigMap` };
  }
  for (const [name, check] of CONFIGMAP_FIELDS) {
    const problem = check(name, json.fields.get(name));
    // NOT kubeadm's verified wording (json-iterator's messages quote the JSON around the problem).
    if (problem !== undefined) return { ok: false, error: problem };
  }
  const data = json.fields.get('data');
  const corefile = isJsonObject(data) ? data.fields.get('Corefile') : undefined;
  if (corefile === undefined) {
    // NOT an error kubeadm reports: it would create the ConfigMap without a Corefile, which
    // CoreDNS cannot start with. There is no Corefile to return, so it is reported here.
    return { ok: false, error: 'decoded ConfigMap has no data.Corefile (kubeadm would store a ConfigMap without a Corefile)' };
  }
  // A JSON null becomes the empty string in a map[string]string.
  return { ok: true, corefile: typeof corefile === 'string' ? corefile : '' };
}
