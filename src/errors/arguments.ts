import { KubeDnsToCoreDnsError } from './kube-dns-to-coredns-error.js';

/**
 * The boundary of the library: every exported function checks the shape of its arguments before
 * it reads them, so a call from JavaScript (or with parsed JSON) that the type system did not see
 * fails with an {@link InvalidArgumentError} naming the function and the argument, instead of a
 * plain `TypeError` somewhere deep inside, or a wrong answer (a `Map` read as an empty object).
 */

/** Why an argument is refused: the `code` of an {@link InvalidArgumentError}. */
export type InvalidArgumentCode =
  /** Not of the kind the function takes (a number where a string goes, a `Map` where a plain object goes). */
  | 'wrong-type'
  /** Of the right kind, but a value the function cannot use as it is (text that would end up pasted into output unchecked). */
  | 'invalid-value';

/** An argument of a library call that is not what the function takes. */
export class InvalidArgumentError extends KubeDnsToCoreDnsError {
  override readonly name = 'InvalidArgumentError';
  readonly category = 'input';
  declare readonly code: InvalidArgumentCode;
  /** The function called (`renderCoreDnsConfigMap`). */
  readonly function: string;
  /** The argument, or the field of an options argument (`metadata.name`). */
  readonly argument: string;

  constructor(code: InvalidArgumentCode, fn: string, argument: string, reason: string) {
    super(code, `${fn}: ${argument} ${reason}`);
    this.function = fn;
    this.argument = argument;
  }
}

/**
 * What an argument must be:
 * - `string`, `number`, `boolean`, `function`: that `typeof`;
 * - `object`: an ordinary object (an object literal, parsed JSON, `Object.create(null)`): not an
 *   array, a `Map`, a `Set` or a function;
 * - `array`: an array;
 * - `value`: anything but `undefined` (a value the function checks itself);
 * - a trailing `?`: `undefined` is accepted too; `|` between kinds: any of them.
 */
export type ArgumentKind = string;

/** How a value is named in a message: `a number`, `a Map`, `null`. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') {
    const prototype = Object.getPrototypeOf(value) as { constructor?: { name?: unknown } } | null;
    const name = prototype === null || prototype === Object.prototype ? undefined : prototype.constructor?.name;
    return typeof name === 'string' && name !== '' ? `a ${name}` : 'an object';
  }
  return `a ${typeof value}`;
}

/**
 * Whether `value` is an ordinary object (an object literal, parsed JSON, `Object.create(null)`, also
 * from another realm): not an array, a `Map`, a `Set`, a `Date` or another built-in with its own tag.
 */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && Object.prototype.toString.call(value) === '[object Object]';
}

function fits(value: unknown, kind: string): boolean {
  switch (kind) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'function':
      return typeof value === kind;
    case 'object':
      return isPlainObject(value);
    case 'array':
      return Array.isArray(value);
    case 'value':
      return value !== undefined;
    case 'null':
      return value === null;
    default:
      return false;
  }
}

const WORDS: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  boolean: 'a boolean',
  function: 'a function',
  object: 'a plain object',
  array: 'an array',
  value: 'a value',
  null: 'null',
};

/**
 * Checks one argument of `fn` against `kind` (see {@link ArgumentKind}).
 *
 * @throws {InvalidArgumentError} `wrong-type` when it does not fit.
 */
export function checkArgument(fn: string, argument: string, value: unknown, kind: ArgumentKind): void {
  // The common case first, without parsing `kind`: some of these functions run once per token.
  if (typeof value === kind && kind !== 'object') return;
  // An options object, once per call of the public functions (per line of a batch): without splitting `kind`.
  if (kind === 'object' && isPlainObject(value)) return;
  const optional = kind.endsWith('?');
  if (optional && value === undefined) return;
  const kinds = (optional ? kind.slice(0, -1) : kind).split('|');
  if (kinds.some((each) => fits(value, each))) return;
  const expected = kinds.map((each) => WORDS[each] ?? each).join(' or ');
  throw new InvalidArgumentError('wrong-type', fn, argument, `must be ${expected}${optional ? ' (or left out)' : ''}, got ${describeValue(value)}`);
}

/**
 * Checks the fields of an options object (itself checked as `object?` first, or `object` when
 * `required`): each named field against its kind (write `?` for an optional field). Fields not
 * named are not read by the function and are left alone.
 *
 * @throws {InvalidArgumentError} `wrong-type` for the first field that does not fit.
 */
export function checkOptions(fn: string, argument: string, value: unknown, fields: Readonly<Record<string, ArgumentKind>>, required = false): void {
  checkArgument(fn, argument, value, required ? 'object' : 'object?');
  if (value === undefined) return;
  const record = value as Record<string, unknown>;
  for (const [field, kind] of Object.entries(fields)) checkArgument(fn, `${argument}.${field}`, record[field], kind);
}

/**
 * Checks a Corefile model argument (`parseCorefile`'s result, or one built by hand): an object whose
 * `items` is an array. The items themselves are the model's business (`printCorefile` refuses what
 * it cannot print with `CorefilePrintError`).
 *
 * @throws {InvalidArgumentError} `wrong-type` when it is not.
 */
export function checkCorefileModel(fn: string, argument: string, value: unknown): void {
  checkArgument(fn, argument, value, 'object');
  checkArgument(fn, `${argument}.items`, (value as { items?: unknown }).items, 'array');
}
