import { YamlDecodeError } from './errors.js';
import { goFloat, goInt, goUint } from './go-values.js';
import type { GoValue } from './go-values.js';

const LONG_TAG_PREFIX = 'tag:yaml.org,2002:';
const NULL_TAG = `${LONG_TAG_PREFIX}null`;
const BOOL_TAG = `${LONG_TAG_PREFIX}bool`;
const STR_TAG = `${LONG_TAG_PREFIX}str`;
const INT_TAG = `${LONG_TAG_PREFIX}int`;
const FLOAT_TAG = `${LONG_TAG_PREFIX}float`;
const TIMESTAMP_TAG = `${LONG_TAG_PREFIX}timestamp`;
export const BINARY_TAG = `${LONG_TAG_PREFIX}binary`;
export const MERGE_TAG = `${LONG_TAG_PREFIX}merge`;

/** yaml.v2's `shortTag`: `tag:yaml.org,2002:x` → `!!x`. */
function shortTag(tag: string): string {
  return tag.startsWith(LONG_TAG_PREFIX) ? `!!${tag.slice(LONG_TAG_PREFIX.length)}` : tag;
}

/** What differs between the yaml.v2 releases (and Go releases) kubeadm used. */
export interface ResolveOptions {
  /** v2.2 knows `!!timestamp` (a timestamp decoded into `interface{}` stays its text anyway). */
  readonly timestamps: boolean;
  /** Go 1.13+ `ParseInt` base 0: `0o` and `0b` prefixes. */
  readonly numberPrefixes: boolean;
}

export interface Resolved {
  readonly tag: string;
  readonly value: GoValue;
  /** A timestamp: yaml.v2 keeps the text when decoding into `interface{}`. */
  readonly isTimestamp?: boolean;
}

/** yaml.v2's `resolveMap`: YAML 1.1 booleans, nulls and the special floats. */
const RESOLVE_MAP = new Map<string, Resolved>();
for (const word of ['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON']) RESOLVE_MAP.set(word, { tag: BOOL_TAG, value: true });
for (const word of ['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF']) RESOLVE_MAP.set(word, { tag: BOOL_TAG, value: false });
for (const word of ['', '~', 'null', 'Null', 'NULL']) RESOLVE_MAP.set(word, { tag: NULL_TAG, value: null });
for (const word of ['.nan', '.NaN', '.NAN']) RESOLVE_MAP.set(word, { tag: FLOAT_TAG, value: goFloat(Number.NaN) });
for (const word of ['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF']) RESOLVE_MAP.set(word, { tag: FLOAT_TAG, value: goFloat(Number.POSITIVE_INFINITY) });
for (const word of ['-.inf', '-.Inf', '-.INF']) RESOLVE_MAP.set(word, { tag: FLOAT_TAG, value: goFloat(Number.NEGATIVE_INFINITY) });

/** yaml.v2's `resolveTable`: the hint its first byte gives. */
function hintOf(text: string): string {
  if (text === '') return 'N';
  const c = text.charCodeAt(0);
  if (c === 0x2b || c === 0x2d) return 'S';
  if (c >= 0x30 && c <= 0x39) return 'D';
  if ('yYnNtTfFoO~'.includes(text[0] ?? '')) return 'M';
  if (c === 0x2e) return '.';
  return '';
}

const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/**
 * Go's `strconv.ParseInt(s, 0, 64)` (`signed`) or `ParseUint(s, 0, 64)` on a string without
 * underscores: optional sign (signed only), `0x` hex, a leading `0` octal, else decimal; with
 * `prefixes` (Go 1.13+) also `0o` octal and `0b` binary. Undefined for a syntax or range error.
 */
function parseGoInteger(text: string, signed: boolean, prefixes: boolean): bigint | undefined {
  let s = text;
  let negative = false;
  if (signed && (s.startsWith('+') || s.startsWith('-'))) {
    negative = s.startsWith('-');
    s = s.slice(1);
  }
  let digits: RegExp;
  let radix: string;
  if (/^0[xX]/.test(s)) {
    digits = /^[0-9a-fA-F]+$/;
    radix = '0x';
    s = s.slice(2);
  } else if (prefixes && /^0[oO]/.test(s)) {
    digits = /^[0-7]+$/;
    radix = '0o';
    s = s.slice(2);
  } else if (prefixes && /^0[bB]/.test(s)) {
    digits = /^[01]+$/;
    radix = '0b';
    s = s.slice(2);
  } else if (s.length > 1 && s.startsWith('0')) {
    digits = /^[0-7]+$/;
    radix = '0o';
    s = s.slice(1);
  } else {
    digits = /^[0-9]+$/;
    radix = '';
  }
  if (!digits.test(s)) return undefined;
  const magnitude = BigInt(`${radix}${s}`);
  const value = negative ? -magnitude : magnitude;
  if (signed ? value < INT64_MIN || value > INT64_MAX : value > UINT64_MAX) return undefined;
  return value;
}

function parseBinary(text: string): bigint | undefined {
  if (!/^[01]+$/.test(text)) return undefined;
  return BigInt(`0b${text}`);
}

/** Go's `strconv.ParseFloat(s, 64)` for the decimal forms yaml.v2 hands it; undefined on error. */
function parseGoFloat(text: string): number | undefined {
  if (!/^[-+]?(\d+(?:\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

/** A date or date-time in one of the layouts yaml.v2 v2.2 accepts (`parseTimestamp`). */
function looksLikeTimestamp(text: string): boolean {
  return (
    /^\d{4}-\d{1,2}-\d{1,2}$/.test(text) ||
    /^\d{4}-\d{1,2}-\d{1,2}[Tt]\d{1,2}:\d{1,2}:\d{1,2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(text) ||
    /^\d{4}-\d{1,2}-\d{1,2} \d{1,2}:\d{1,2}:\d{1,2}(\.\d+)?$/.test(text)
  );
}

function resolveUntyped(tag: string, text: string, go: ResolveOptions): Resolved {
  const hint = hintOf(text);
  if (hint === '' || tag === STR_TAG || tag === BINARY_TAG) return { tag: STR_TAG, value: text };
  const known = RESOLVE_MAP.get(text);
  if (known !== undefined) return known;
  if (hint === '.') {
    const value = parseGoFloat(text);
    if (value !== undefined) return { tag: FLOAT_TAG, value: goFloat(value) };
  } else if (hint === 'D' || hint === 'S') {
    if (go.timestamps && (tag === '' || tag === TIMESTAMP_TAG) && looksLikeTimestamp(text)) return { tag: TIMESTAMP_TAG, value: text, isTimestamp: true };
    const plain = text.replaceAll('_', '');
    const signed = parseGoInteger(plain, true, go.numberPrefixes);
    if (signed !== undefined) return { tag: INT_TAG, value: goInt(signed) };
    const unsigned = parseGoInteger(plain, false, go.numberPrefixes);
    if (unsigned !== undefined) return { tag: INT_TAG, value: goUint(unsigned) };
    if (YAML_STYLE_FLOAT.test(plain)) {
      const value = parseGoFloat(plain);
      if (value !== undefined) return { tag: FLOAT_TAG, value: goFloat(value) };
    }
    if (plain.startsWith('0b')) {
      const value = parseBinary(plain.slice(2));
      if (value !== undefined && value <= INT64_MAX) return { tag: INT_TAG, value: goInt(value) };
      if (value !== undefined && value <= UINT64_MAX) return { tag: INT_TAG, value: goUint(value) };
    } else if (plain.startsWith('-0b')) {
      const value = parseBinary(plain.slice(3));
      if (value !== undefined && value <= -INT64_MIN) return { tag: INT_TAG, value: goInt(-value) };
    }
  }
  return { tag: STR_TAG, value: text };
}

/**
 * yaml.v2's `resolve(tag, in)`: the implicit type of a plain scalar (YAML 1.1 booleans such as
 * `yes`/`off`, nulls, ints in decimal/octal/hex/binary, floats, timestamps), or the check of an
 * explicit standard tag, which fails with `cannot decode !!str `x` as a !!int`. Tags outside the
 * standard set resolve to the text itself.
 */
export function resolveScalar(tag: string, text: string, go: ResolveOptions): Resolved {
  const resolvable =
    tag === '' || tag === STR_TAG || tag === BOOL_TAG || tag === INT_TAG || tag === FLOAT_TAG || tag === NULL_TAG || (go.timestamps && tag === TIMESTAMP_TAG);
  if (!resolvable) return { tag, value: text };
  const resolved = resolveUntyped(tag, text, go);
  // (`!!binary` is not resolvable, so it never gets here.)
  if (tag === '' || tag === resolved.tag || tag === STR_TAG) return resolved;
  const value = resolved.value;
  if (tag === FLOAT_TAG && typeof value === 'object' && value !== null && !Array.isArray(value) && value.kind === 'int') {
    return { tag: FLOAT_TAG, value: goFloat(Number(value.value)) };
  }
  throw new YamlDecodeError(`cannot decode ${shortTag(resolved.tag)} \`${text}\` as a ${shortTag(tag)}`);
}
