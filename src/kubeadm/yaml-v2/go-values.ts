import { InternalError } from '../../errors/internal-error.js';

/**
 * The Go values yaml.v2 produces when it decodes into `interface{}`, and the bits of Go's `fmt`
 * needed to print them in error messages.
 *
 * Strings, booleans and nil are JavaScript primitives; numbers keep their Go type (`int` and
 * `uint64` as bigint, `float64` as number); a sequence is an array; a mapping is a
 * {@link GoMap} (`map[interface{}]interface{}`).
 */
export type GoValue = null | boolean | string | GoInt | GoUint | GoFloat | GoValue[] | GoMap;

export interface GoInt {
  readonly kind: 'int';
  readonly value: bigint;
}

export interface GoUint {
  readonly kind: 'uint64';
  readonly value: bigint;
}

export interface GoFloat {
  readonly kind: 'float64';
  readonly value: number;
}

/**
 * A `map[interface{}]interface{}`. Entries are keyed by Go equality ({@link goMapKeyIdentity});
 * insertion order is kept only to make the (in Go random) iteration order deterministic here.
 */
export interface GoMap {
  readonly kind: 'map';
  readonly entries: Map<string, { readonly key: GoValue; readonly value: GoValue }>;
}

export function goInt(value: bigint): GoInt {
  return { kind: 'int', value };
}

export function goUint(value: bigint): GoUint {
  return { kind: 'uint64', value };
}

export function goFloat(value: number): GoFloat {
  return { kind: 'float64', value };
}

export function isGoMap(value: GoValue): value is GoMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && value.kind === 'map';
}

let nanKeyCounter = 0;

/**
 * Identity of a hashable Go value as a map key: equal Go values (same dynamic type, equal value)
 * share it. NaN is never equal to itself, so every NaN key is a new entry, as in Go.
 */
export function goMapKeyIdentity(key: GoValue): string {
  if (key === null) return 'nil';
  if (typeof key === 'boolean') return key ? 'bool:true' : 'bool:false';
  if (typeof key === 'string') return `string:${key}`;
  if (Array.isArray(key)) throw new InternalError('unhashable Go value');
  switch (key.kind) {
    case 'int':
      return `int:${key.value}`;
    case 'uint64':
      return `uint64:${key.value}`;
    case 'float64':
      if (Number.isNaN(key.value)) {
        nanKeyCounter += 1;
        return `float64:NaN#${nanKeyCounter}`;
      }
      return `float64:${key.value === 0 ? 0 : key.value}`;
    default:
      throw new InternalError('unhashable Go value');
  }
}

/** Go's name of the dynamic type (`reflect.TypeOf(v).String()`). */
export function goTypeName(value: GoValue): string {
  if (value === null) return '<nil>';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'string') return 'string';
  if (Array.isArray(value)) return '[]interface {}';
  switch (value.kind) {
    case 'int':
      return 'int';
    case 'uint64':
      return 'uint64';
    case 'float64':
      return 'float64';
    default:
      return 'map[interface {}]interface {}';
  }
}

/** `strconv.Quote` for the printable-or-escaped forms Go uses. */
function goQuote(text: string): string {
  let out = '"';
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (cp === 0x07) out += '\\a';
    else if (cp === 0x08) out += '\\b';
    else if (cp === 0x0c) out += '\\f';
    else if (cp === 0x0b) out += '\\v';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else if ((cp >= 0x80 && cp < 0xa0) || cp === 0xad || cp === 0x2028 || cp === 0x2029 || cp === 0xfeff || cp === 0xfffe || cp === 0xffff) {
      out += cp > 0xffff ? `\\U${cp.toString(16).padStart(8, '0')}` : `\\u${cp.toString(16).padStart(4, '0')}`;
    } else out += ch;
  }
  return `${out}"`;
}

/** `strconv.FormatFloat(f, 'g', -1, bits)`: shortest representation, Go's exponent style. */
export function goFormatFloat(value: number, bits: 32 | 64): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  const v = bits === 32 ? Math.fround(value) : value;
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  // Shortest digits that round-trip at the given precision.
  let digits = '';
  let exponent = 0;
  for (let precision = 1; precision <= 17; precision += 1) {
    const candidate = v.toExponential(precision - 1);
    const parsed = Number(candidate);
    if ((bits === 32 ? Math.fround(parsed) : parsed) === v) {
      const [mantissa = '', exp = '0'] = candidate.split('e');
      digits = mantissa.replace('-', '').replace('.', '');
      exponent = Number(exp);
      break;
    }
  }
  const sign = v < 0 ? '-' : '';
  // Shortest %g switches to the exponent form below 1e-4 and from 1e+06 on (eprec = 6).
  if (exponent < -4 || exponent >= 6) {
    const mantissa = digits.length > 1 ? `${digits[0] ?? ''}.${digits.slice(1)}` : digits;
    const expSign = exponent < 0 ? '-' : '+';
    const expDigits = String(Math.abs(exponent)).padStart(2, '0');
    return `${sign}${mantissa}e${expSign}${expDigits}`;
  }
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  if (digits.length <= exponent + 1) return `${sign}${digits}${'0'.repeat(exponent + 1 - digits.length)}`;
  return `${sign}${digits.slice(0, exponent + 1)}.${digits.slice(exponent + 1)}`;
}

/**
 * The order fmt prints the keys of a `map[interface{}]interface{}` in (Go's internal/fmtsort): nil
 * first, then by dynamic type, then by value. fmtsort orders the types by the address of their type
 * descriptors, which the Go linker lays out by name; that is assumed here (it matches `int` before
 * `string`, the one pair observed).
 */
function compareKeysLikeFmt(a: GoValue, b: GoValue): number {
  if (a === null || b === null) return (a === null ? 0 : 1) - (b === null ? 0 : 1);
  const typeA = goTypeName(a);
  const typeB = goTypeName(b);
  if (typeA !== typeB) return typeA < typeB ? -1 : 1;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b) && a.kind !== 'map' && b.kind !== 'map') {
    return a.value < b.value ? -1 : a.value > b.value ? 1 : 0;
  }
  return 0;
}

/**
 * Go's `%#v` (and `%+#v`) of a value held in an `interface{}`, as far as yaml.v2's values go.
 * Iterative (deeply nested values must not exhaust the stack).
 */
export function goSyntax(root: GoValue): string {
  const render = (value: GoValue, nested: boolean): string | undefined => {
    if (value === null) return nested ? 'interface {}(nil)' : '<nil>';
    if (typeof value === 'boolean') return String(value);
    if (typeof value === 'string') return goQuote(value);
    if (Array.isArray(value) || value.kind === 'map') return undefined;
    if (value.kind === 'int') return String(value.value);
    if (value.kind === 'uint64') return `0x${value.value.toString(16)}`;
    return goFormatFloat(value.value, 64);
  };
  // Post-order over the collections: each one's text is built once its elements have theirs.
  const done = new Map<GoValue[] | GoMap, string>();
  const text = (value: GoValue, nested: boolean): string => render(value, nested) ?? done.get(value as GoValue[] | GoMap) ?? '';
  const pending: Array<{ readonly value: GoValue[] | GoMap; expanded: boolean }> = [];
  const push = (value: GoValue): void => {
    if (render(value, true) === undefined) pending.push({ value: value as GoValue[] | GoMap, expanded: false });
  };
  push(root);
  for (let top = pending[pending.length - 1]; top !== undefined; top = pending[pending.length - 1]) {
    if (!top.expanded) {
      top.expanded = true;
      if (Array.isArray(top.value)) top.value.forEach(push);
      else for (const { key, value } of top.value.entries.values()) (push(key), push(value));
      continue;
    }
    pending.pop();
    const value = top.value;
    if (Array.isArray(value)) {
      done.set(value, `[]interface {}{${value.map((item) => text(item, true)).join(', ')}}`);
    } else {
      const entries = [...value.entries.values()].sort((a, b) => compareKeysLikeFmt(a.key, b.key));
      done.set(value, `map[interface {}]interface {}{${entries.map(({ key, value: item }) => `${text(key, true)}:${text(item, true)}`).join(', ')}}`);
    }
  }
  return text(root, false);
}
