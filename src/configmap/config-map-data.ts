/**
 * What every translator takes: a ConfigMap's `data`. Kept apart from the YAML reader so that code
 * which only receives `data` does not load a YAML parser.
 */

/** A ConfigMap's `data`: every value a string. `null` means "there is no ConfigMap at all". */
export type ConfigMapData = Readonly<Record<string, string>>;

/** The input could not be read as a ConfigMap; `message` is ready to print. */
export class ConfigMapInputError extends Error {
  override readonly name = 'ConfigMapInputError';
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(message: string, position?: { line: number; column: number }) {
    super(message);
    this.line = position?.line;
    this.column = position?.column;
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
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new ConfigMapInputError(`data must be an object of strings or null, got ${describe(data)}`);
  }
  for (const [key, value] of Object.entries(data)) {
    if (typeof value !== 'string') {
      throw new ConfigMapInputError(`data key '${key}' must be a string (ConfigMap data values are text), got ${describe(value)}`);
    }
  }
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
