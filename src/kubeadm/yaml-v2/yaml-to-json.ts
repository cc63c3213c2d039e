import { KubeDnsToCoreDnsError } from '../../errors/kube-dns-to-coredns-error.js';
import { goFormatFloat, goSyntax, goTypeName, isGoMap } from './go-values.js';
import type { GoMap, GoValue } from './go-values.js';

/**
 * ghodss/yaml's `YAMLToJSON` after yaml.v2 succeeded (sigs.k8s.io/yaml from kubeadm v1.14 on, the
 * same code): `convertToJSONableObject` without a target, then encoding/json's `Marshal`.
 *
 * * Map keys become strings: `int` in decimal, `float64` with `strconv.FormatFloat(f, 'g', -1, 32)`
 *   (`.inf`, `-.inf`, `.nan` for the specials), `bool` as `true`/`false`. Any other key (nil from
 *   `~:` or an empty key, a `uint64` beyond the int64 range) fails with
 *   `Unsupported map key of type: …` (the wording of the ghodss/yaml copy kubeadm v1.10 vendored;
 *   Go's `%+#v` of the key and value is reproduced for yaml.v2's value types).
 * * Two keys that become the same string collide; Go's random map order decides which value
 *   survives. Here the later key in the document wins.
 * * `json.Marshal` refuses NaN and ±Inf: `json: unsupported value: NaN`. With several such values
 *   the first in sorted key order is reported, as Go does.
 */
export type JsonValue = null | boolean | string | JsonNumber | JsonValue[] | JsonObject;

export interface JsonNumber {
  readonly json: 'number';
  /** The number as encoding/json writes it. */
  readonly text: string;
  readonly integer: boolean;
}

export interface JsonObject {
  readonly json: 'object';
  readonly fields: Map<string, JsonValue>;
}

/** A failure of the YAML → JSON conversion; `message` is the Go library's error text. */
export class JsonConversionError extends KubeDnsToCoreDnsError {
  override readonly name = 'JsonConversionError';
  readonly category = 'input';
  declare readonly code: 'json-conversion';

  constructor(message: string) {
    super('json-conversion', message);
  }
}

export function isJsonObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && value.json === 'object';
}

export function isJsonNumber(value: JsonValue | undefined): value is JsonNumber {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && value.json === 'number';
}

/** encoding/json's name for the JSON type of a value (as in `cannot unmarshal number into …`). */
export function jsonTypeName(value: JsonValue): string {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'string') return 'string';
  if (Array.isArray(value)) return 'array';
  return value.json;
}

function keyString(key: GoValue, value: GoValue): string {
  if (typeof key === 'string') return key;
  if (typeof key === 'boolean') return key ? 'true' : 'false';
  if (key !== null && !Array.isArray(key) && !isGoMap(key)) {
    if (key.kind === 'int') return key.value.toString();
    if (key.kind === 'float64') {
      const text = goFormatFloat(key.value, 32);
      if (text === '+Inf') return '.inf';
      if (text === '-Inf') return '-.inf';
      if (text === 'NaN') return '.nan';
      return text;
    }
  }
  // reflect.TypeOf(nil) printed with %s.
  const typeName = key === null ? '%!s(<nil>)' : goTypeName(key);
  throw new JsonConversionError(`Unsupported map key of type: ${typeName}, key: ${goSyntax(key)}, value: ${goSyntax(value)}`);
}

/** encoding/json's float format: shortest digits, exponent form below 1e-6 and from 1e21. */
function jsonFloatText(value: number): string {
  if (Object.is(value, -0)) return '-0';
  // JavaScript's shortest form switches to exponents at the same bounds and never pads them.
  return String(value);
}

/** ghodss/yaml's conversion of a yaml.v2 value to JSON (see the module comment). */
export function yamlValueToJson(value: GoValue): JsonValue {
  const converted = convert(value);
  const unsupported = firstUnsupportedFloat(converted);
  if (unsupported !== undefined) throw new JsonConversionError(`json: unsupported value: ${unsupported}`);
  return converted;
}

/** Non-finite floats are carried as numbers whose text is Go's `FormatFloat` until Marshal refuses them. */
const NON_FINITE = new Set(['NaN', '+Inf', '-Inf']);

/** Converts a scalar; collections are handled by {@link convert}. */
function convertScalar(value: Exclude<GoValue, GoValue[] | GoMap>): JsonValue {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (value.kind === 'float64') {
    if (!Number.isFinite(value.value)) return { json: 'number', text: goFormatFloat(value.value, 64), integer: false };
    return { json: 'number', text: jsonFloatText(value.value), integer: Number.isInteger(value.value) };
  }
  return { json: 'number', text: value.value.toString(), integer: true };
}

/**
 * `convertToJSONableObject`, iteratively (deeply nested documents must not exhaust the stack):
 * every collection gets its JSON counterpart, filled in as the walk reaches its elements.
 */
function convert(root: GoValue): JsonValue {
  const toJson = (value: GoValue, pending: Array<readonly [GoValue, (converted: JsonValue) => void]>): JsonValue => {
    if (Array.isArray(value)) {
      const items: JsonValue[] = new Array<JsonValue>(value.length).fill(null);
      value.forEach((item, index) => pending.push([item, (converted) => (items[index] = converted)]));
      return items;
    }
    if (isGoMap(value)) {
      const fields = new Map<string, JsonValue>();
      for (const entry of value.entries.values()) {
        const key = keyString(entry.key, entry.value);
        fields.delete(key);
        fields.set(key, null);
        pending.push([entry.value, (converted) => fields.set(key, converted)]);
      }
      return { json: 'object', fields };
    }
    return convertScalar(value);
  };
  const pending: Array<readonly [GoValue, (converted: JsonValue) => void]> = [];
  const result = toJson(root, pending);
  for (let work = pending.pop(); work !== undefined; work = pending.pop()) {
    const [value, store] = work;
    store(toJson(value, pending));
  }
  return result;
}

/** The first NaN/±Inf json.Marshal would meet (object keys in sorted order), iteratively. */
function firstUnsupportedFloat(root: JsonValue): string | undefined {
  const pending: JsonValue[] = [root];
  for (let value = pending.pop(); value !== undefined; value = pending.pop()) {
    if (Array.isArray(value)) {
      for (let index = value.length - 1; index >= 0; index -= 1) pending.push(value[index] ?? null);
    } else if (isJsonObject(value)) {
      const keys = sortedKeys(value);
      for (let index = keys.length - 1; index >= 0; index -= 1) pending.push(value.fields.get(keys[index] ?? '') ?? null);
    } else if (isJsonNumber(value) && NON_FINITE.has(value.text)) {
      return value.text;
    }
  }
  return undefined;
}

/** Go orders strings by their UTF-8 bytes, which is code point order. */
export function compareCodePoints(a: string, b: string): number {
  const left = a[Symbol.iterator]();
  const right = b[Symbol.iterator]();
  for (;;) {
    const x = left.next();
    const y = right.next();
    if (x.done === true || y.done === true) return (x.done === true ? 0 : 1) - (y.done === true ? 0 : 1);
    const cx = x.value.codePointAt(0) ?? 0;
    const cy = y.value.codePointAt(0) ?? 0;
    if (cx !== cy) return cx - cy;
  }
}

function sortedKeys(object: JsonObject): string[] {
  return [...object.fields.keys()].sort(compareCodePoints);
}

/** encoding/json's string escaping (with its default HTML escaping). */
function encodeString(text: string): string {
  let out = '"';
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (cp < 0x20 || ch === '<' || ch === '>' || ch === '&' || cp === 0x2028 || cp === 0x2029) {
      out += `\\u${cp.toString(16).padStart(4, '0')}`;
    } else if (cp >= 0xd800 && cp <= 0xdfff) out += '\ufffd';
    else out += ch;
  }
  return `${out}"`;
}

/** `json.Marshal` of a converted value: object keys sorted, no whitespace. Iterative. */
export function encodeJson(root: JsonValue): string {
  let out = '';
  // Either a value to write or a literal piece of punctuation.
  const pending: Array<{ readonly value: JsonValue } | { readonly text: string }> = [{ value: root }];
  for (let work = pending.pop(); work !== undefined; work = pending.pop()) {
    if ('text' in work) {
      out += work.text;
      continue;
    }
    const value = work.value;
    if (value === null) out += 'null';
    else if (typeof value === 'boolean') out += value ? 'true' : 'false';
    else if (typeof value === 'string') out += encodeString(value);
    else if (isJsonNumber(value)) out += value.text;
    else {
      const parts: Array<{ readonly value: JsonValue } | { readonly text: string }> = [];
      if (Array.isArray(value)) {
        out += '[';
        value.forEach((item, index) => parts.push(...(index > 0 ? [{ text: ',' }] : []), { value: item }));
        parts.push({ text: ']' });
      } else {
        out += '{';
        sortedKeys(value).forEach((key, index) => {
          parts.push({ text: `${index > 0 ? ',' : ''}${encodeString(key)}:` }, { value: value.fields.get(key) ?? null });
        });
        parts.push({ text: '}' });
      }
      for (let index = parts.length - 1; index >= 0; index -= 1) pending.push(parts[index] as (typeof parts)[number]);
    }
  }
  return out;
}
