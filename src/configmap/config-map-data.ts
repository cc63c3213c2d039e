import { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';
import type { ErrorLocation } from '../errors/kube-dns-to-coredns-error.js';
import { describeValue, isPlainObject } from '../errors/arguments.js';

/**
 * What every translator takes: a ConfigMap's `data`. Kept apart from the YAML reader so that code
 * which only receives `data` does not load a YAML parser.
 */

/** A ConfigMap's `data`: every value a string. `null` means "there is no ConfigMap at all". */
export type ConfigMapData = Readonly<Record<string, string>>;

/** Why a text or a `data` value is not a ConfigMap this package can read. */
export type ConfigMapInputErrorCode =
  /** The text is neither YAML nor JSON. */
  | 'not-yaml'
  /** YAML aliases that expand past what kubectl's reader accepts (docs/performance.md#yaml-aliases). */
  | 'excessive-aliasing'
  /** A YAML alias inside the node it names (kubectl: "anchor 'a' value contains itself"). */
  | 'recursive-alias'
  /** The text holds no ConfigMap (nor a bare data map). */
  | 'no-configmap'
  /** The text holds no ConfigMap of the name asked for. */
  | 'configmap-not-found'
  /** The text holds several ConfigMaps and none of them is preferred. */
  | 'several-configmaps'
  /** Fields a ConfigMap does not have at its top level, or under `metadata` (lost or extra indentation, typically). */
  | 'misplaced-fields'
  /** `data` is not a mapping (an object). */
  | 'data-not-mapping'
  /** A data value is not a string. */
  | 'value-not-string'
  /** `binaryData` is not a mapping of base64 strings (the API server refuses it: "illegal base64 data"). */
  | 'binary-data-not-base64'
  /** A CoreDNS ConfigMap where the kube-dns one was expected. */
  | 'coredns-configmap'
  /** A ConfigMap's YAML or JSON where Corefile text was expected (`migrateCorefile`, `mergeTranslation`). */
  | 'configmap-given';

/**
 * The input could not be read as a ConfigMap. `message` is ready to print: `FILE:LINE:COL: reason`
 * when the place is known, `FILE: reason` otherwise (just `reason` for a `data` argument).
 */
export class ConfigMapInputError extends KubeDnsToCoreDnsError {
  override readonly name = 'ConfigMapInputError';
  readonly category = 'input';
  declare readonly code: ConfigMapInputErrorCode;

  constructor(code: ConfigMapInputErrorCode, reason: string, location: ErrorLocation = {}) {
    super(code, reason, location);
  }
}

/**
 * Checks a `data` argument from a caller the type system may not cover (JavaScript, parsed JSON):
 * `null`, or an object whose values are all strings, as the Kubernetes API stores them. Throws
 * {@link ConfigMapInputError} naming the first offending key, instead of failing somewhere deep
 * inside a translation.
 */
export function assertConfigMapData(data: unknown): asserts data is ConfigMapData | null {
  if (data === null) return;
  // A Map (or another built-in) has no own string keys: it would read as empty, so it is refused.
  if (!isPlainObject(data)) {
    throw new ConfigMapInputError('data-not-mapping', `data must be an object of strings or null, got ${describeValue(data)}`);
  }
  for (const [key, value] of Object.entries(data)) {
    if (typeof value !== 'string') {
      throw new ConfigMapInputError('value-not-string', `data key '${key}' must be a string (ConfigMap data values are text), got ${describeValue(value)}`);
    }
  }
}

/** How a wrong-typed argument is named in an error: `null`, `an array`, `an object`, `a number`… */
export function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
