import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  GO_JSON_MAX_DEPTH,
  GoJsonError,
  type GoJsonResult,
  type GoJsonValue,
  decodeGoJson,
  decodeGoJsonValue,
  goIsPrintLatin1,
  goMap,
  goQuoteChar,
  goSlice,
  goString,
  goTypeName,
  parseGoJson,
} from '../../src/kubedns/go-json.js';

import { Outcomes } from '../support/outcomes.js';
import { InternalError } from '../../src/errors/internal-error.js';

// ---------------------------------------------------------------------------------------------
// helpers
// ---------------------------------------------------------------------------------------------

// Most tests decode into the three Go types kubeadm decoded the kube-dns values into
// (src/kubedns/kube-dns-values.ts), a map of lists, a list and a map of strings.
const MAP_OF_STRING_LISTS = goMap(goSlice(goString));
const STRING_LIST = goSlice(goString);
const MAP_OF_STRINGS = goMap(goString);
const decodeMapOfStringLists = (text: string) => decodeGoJson(text, MAP_OF_STRING_LISTS);
const decodeStringList = (text: string) => decodeGoJson(text, STRING_LIST);
const decodeMapOfStrings = (text: string) => decodeGoJson(text, MAP_OF_STRINGS);

/** The error of a result that must have failed. */
function errorOf<T>(r: GoJsonResult<T>): GoJsonError {
  if (r.ok) throw new Error(`expected an error, got ${JSON.stringify(r.value, mapReplacer)}`);
  return r.error;
}

/** The value of a result that must have succeeded. */
function valueOf<T>(r: GoJsonResult<T>): T {
  if (!r.ok) throw new Error(`expected a value, got error: ${r.error.message}`);
  return r.value;
}

function mapReplacer(_key: string, v: unknown): unknown {
  return v instanceof Map ? [...(v as Map<unknown, unknown>).entries()] : v;
}

/**
 * What `JSON.parse` would build from the same text (last duplicate wins). Own properties are
 * defined, so a `__proto__` key behaves as in `JSON.parse`.
 */
function toJs(v: GoJsonValue): unknown {
  switch (v.kind) {
    case 'null':
      return null;
    case 'bool':
    case 'number':
    case 'string':
      return v.value;
    case 'array':
      return v.items.map(toJs);
    case 'object': {
      const o: Record<string, unknown> = {};
      for (const m of v.members) {
        Object.defineProperty(o, m.key, { value: toJs(m.value), enumerable: true, writable: true, configurable: true });
      }
      return o;
    }
  }
}

function parseToJs(text: string): unknown {
  return toJs(valueOf(parseGoJson(text)));
}

/** True when `s` has a lone surrogate code unit. */
function hasLoneSurrogate(s: string): boolean {
  return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(s);
}

function jsonParseOk(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Replaces lone surrogates by U+FFFD in every string of a JSON.parse result (keys too). */
function fixSurrogates(v: unknown): unknown {
  const fix = (s: string): string =>
    s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
  if (typeof v === 'string') return fix(v);
  if (Array.isArray(v)) return v.map(fixSurrogates);
  if (v !== null && typeof v === 'object') {
    const o: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) {
      Object.defineProperty(o, fix(k), { value: fixSurrogates(x), enumerable: true, writable: true, configurable: true });
    }
    return o;
  }
  return v;
}

/** Tokens of a JSON value, for re-joining with arbitrary whitespace. */
function tokensOf(v: unknown, out: string[] = []): string[] {
  if (Array.isArray(v)) {
    out.push('[');
    v.forEach((x, k) => {
      if (k > 0) out.push(',');
      tokensOf(x, out);
    });
    out.push(']');
  } else if (v !== null && typeof v === 'object') {
    out.push('{');
    Object.entries(v).forEach(([key, x], k) => {
      if (k > 0) out.push(',');
      out.push(JSON.stringify(key), ':');
      tokensOf(x, out);
    });
    out.push('}');
  } else {
    out.push(JSON.stringify(v));
  }
  return out;
}

const wsChar = fc.constantFrom(' ', '\t', '\r', '\n');
const ws = fc.string({ unit: wsChar, maxLength: 3 });
const ws1 = fc.string({ unit: wsChar, minLength: 1, maxLength: 3 });

/** Joins tokens with the given separators (one before each token and one at the end; cycled). */
function interleave(tokens: readonly string[], seps: readonly string[]): string {
  let s = '';
  for (let k = 0; k < tokens.length; k++) s += (seps[k % Math.max(seps.length, 1)] ?? '') + tokens[k];
  return s + (seps[tokens.length % Math.max(seps.length, 1)] ?? '');
}

function decodeAll(text: string): unknown[] {
  const show = (r: GoJsonResult<unknown>): unknown =>
    r.ok ? { ok: true, value: JSON.stringify(r.value, mapReplacer) } : { ok: false, kind: r.error.code, message: r.error.message };
  return [show(decodeMapOfStringLists(text)), show(decodeStringList(text)), show(decodeMapOfStrings(text))];
}

// ---------------------------------------------------------------------------------------------
// quoteChar
// ---------------------------------------------------------------------------------------------

describe('goQuoteChar (Go quoteChar = strconv.Quote of the byte as a rune)', () => {
  it.each([
    [0x00, "'\\x00'"],
    [0x01, "'\\x01'"],
    [0x07, "'\\a'"],
    [0x08, "'\\b'"],
    [0x09, "'\\t'"],
    [0x0a, "'\\n'"],
    [0x0b, "'\\v'"],
    [0x0c, "'\\f'"],
    [0x0d, "'\\r'"],
    [0x1b, "'\\x1b'"],
    [0x1f, "'\\x1f'"],
    [0x20, "' '"],
    [0x22, "'\"'"],
    [0x27, "'\\''"],
    [0x41, "'A'"],
    [0x5c, "'\\\\'"],
    [0x7e, "'~'"],
    [0x7f, "'\\x7f'"],
    [0x80, "'\\u0080'"],
    [0x85, "'\\u0085'"],
    [0x9f, "'\\u009f'"],
    [0xa0, "'\\u00a0'"],
    [0xa1, "'¡'"],
    [0xac, "'¬'"],
    [0xad, "'\\u00ad'"],
    [0xae, "'®'"],
    [0xc3, "'Ã'"],
    [0xe2, "'â'"],
    [0xef, "'ï'"],
    [0xf0, "'ð'"],
    [0xff, "'ÿ'"],
  ])('byte 0x%s', (byte, want) => {
    expect(goQuoteChar(byte)).toBe(want);
  });

  it('IsPrint on U+0000–U+00FF is exactly 0x20–0x7E and 0xA1–0xFF without 0xAD', () => {
    const printable = [];
    for (let b = 0; b < 256; b++) if (goIsPrintLatin1(b)) printable.push(b);
    expect(printable.length).toBe(95 + 94);
    expect(printable.includes(0xad)).toBe(false);
    expect(printable.includes(0xa0)).toBe(false);
  });

  it('every byte is quoted in one of the forms strconv.Quote uses', () => {
    for (let b = 0; b < 256; b++) {
      const q = goQuoteChar(b);
      expect(q.startsWith("'") && q.endsWith("'")).toBe(true);
      const inner = q.slice(1, -1);
      if (b === 0x27 || b === 0x5c) expect(inner).toBe('\\' + String.fromCharCode(b));
      else if (b === 0x22 || goIsPrintLatin1(b)) expect(inner).toBe(String.fromCharCode(b));
      else if ('\x07\b\f\n\r\t\v'.includes(String.fromCharCode(b))) expect(inner).toMatch(/^\\[abfnrtv]$/);
      else if (b < 0x80) expect(inner).toBe(`\\x${b.toString(16).padStart(2, '0')}`);
      else expect(inner).toBe(`\\u00${b.toString(16)}`);
    }
  });

  it('rejects non-bytes', () => {
    expect(() => goQuoteChar(256)).toThrow(expect.objectContaining({ name: 'InternalError', category: 'internal' }));
    expect(() => goQuoteChar(-1)).toThrow(InternalError);
    expect(() => goQuoteChar(1.5)).toThrow(InternalError);
  });
});

// ---------------------------------------------------------------------------------------------
// syntax errors
// ---------------------------------------------------------------------------------------------

const END = 'unexpected end of JSON input';

/** [input, Go's message, offset of the offending character (input length at the end)] */
const syntaxCases: readonly (readonly [string, string, number])[] = [
  // the end of the input where a space would be fine
  ['', END, 0],
  [' \t\r\n', END, 4],
  ['{', END, 1],
  ['[', END, 1],
  ['[ ', END, 2],
  ['{"a"', END, 4],
  ['{"a":', END, 5],
  ['{"a":1', END, 6],
  ['{"a":1,', END, 7],
  ['{"a":1, ', END, 8],
  ['[1', END, 2],
  ['[1,', END, 3],
  ['"abc', END, 4],
  ['["a\\"', END, 5],
  ['[[]', END, 3],
  // the end of the input where Go's implied trailing space is wrong
  ['t', "invalid character ' ' in literal true (expecting 'r')", 1],
  ['tru', "invalid character ' ' in literal true (expecting 'e')", 3],
  ['fals', "invalid character ' ' in literal false (expecting 'e')", 4],
  ['n', "invalid character ' ' in literal null (expecting 'u')", 1],
  ['nul', "invalid character ' ' in literal null (expecting 'l')", 3],
  ['[tru', "invalid character ' ' in literal true (expecting 'e')", 4],
  ['-', "invalid character ' ' in numeric literal", 1],
  ['1.', "invalid character ' ' after decimal point in numeric literal", 2],
  ['1e', "invalid character ' ' in exponent of numeric literal", 2],
  ['1E+', "invalid character ' ' in exponent of numeric literal", 3],
  ['[1e-', "invalid character ' ' in exponent of numeric literal", 4],
  ['"\\', "invalid character ' ' in string escape code", 2],
  ['"\\u', "invalid character ' ' in \\u hexadecimal character escape", 3],
  ['"\\u12', "invalid character ' ' in \\u hexadecimal character escape", 5],
  // looking for beginning of value
  ['x', "invalid character 'x' looking for beginning of value", 0],
  ['[1,]', "invalid character ']' looking for beginning of value", 3],
  ['{"a":}', "invalid character '}' looking for beginning of value", 5],
  ['[,1]', "invalid character ',' looking for beginning of value", 1],
  [']', "invalid character ']' looking for beginning of value", 0],
  ["['8.8.8.8']", "invalid character '\\'' looking for beginning of value", 1],
  ['.5', "invalid character '.' looking for beginning of value", 0],
  ['+1', "invalid character '+' looking for beginning of value", 0],
  ['True', "invalid character 'T' looking for beginning of value", 0],
  ['NaN', "invalid character 'N' looking for beginning of value", 0],
  ['undefined', "invalid character 'u' looking for beginning of value", 0],
  ['\\', "invalid character '\\\\' looking for beginning of value", 0],
  ['Fed=a b.com', "invalid character 'F' looking for beginning of value", 0],
  ['a.b=f.io.', "invalid character 'a' looking for beginning of value", 0],
  ['=x', "invalid character '=' looking for beginning of value", 0],
  // looking for beginning of object key string
  ['{"a":1,}', "invalid character '}' looking for beginning of object key string", 7],
  ['{,}', "invalid character ',' looking for beginning of object key string", 1],
  ["{'a':1}", "invalid character '\\'' looking for beginning of object key string", 1],
  ['{a:1}', "invalid character 'a' looking for beginning of object key string", 1],
  ['{1:2}', "invalid character '1' looking for beginning of object key string", 1],
  ['{"a":1, ]', "invalid character ']' looking for beginning of object key string", 8],
  // after object key
  ['{"a" 1}', "invalid character '1' after object key", 5],
  ['{"a",1}', "invalid character ',' after object key", 4],
  ['{"a"=["x"]}', "invalid character '=' after object key", 4],
  ['{"a"}', "invalid character '}' after object key", 4],
  ['{"a" ["x"]}', "invalid character '[' after object key", 5],
  // after object key:value pair
  ['{"a":1 "b":2}', "invalid character '\"' after object key:value pair", 7],
  ['{"a":1]', "invalid character ']' after object key:value pair", 6],
  ['{"a":[]:', "invalid character ':' after object key:value pair", 7],
  // after array element
  ['[1 2]', "invalid character '2' after array element", 3],
  ['[1}', "invalid character '}' after array element", 2],
  ['["a" "b"]', "invalid character '\"' after array element", 5],
  ['["a""b"]', "invalid character '\"' after array element", 4],
  ['{"a.com": [1.1.1.1]}', "invalid character '.' after array element", 14],
  ['[01]', "invalid character '1' after array element", 2],
  ['[1:2]', "invalid character ':' after array element", 2],
  // after top-level value
  ['1 2', "invalid character '2' after top-level value", 2],
  ['{}}', "invalid character '}' after top-level value", 2],
  ['01', "invalid character '1' after top-level value", 1],
  ['-01', "invalid character '1' after top-level value", 2],
  ['truex', "invalid character 'x' after top-level value", 4],
  ['{"a": ["1.2.3.4"]} x', "invalid character 'x' after top-level value", 19],
  ['1.5.3', "invalid character '.' after top-level value", 3],
  ['"a""b"', "invalid character '\"' after top-level value", 3],
  ['[] []', "invalid character '[' after top-level value", 3],
  // in string literal (control characters)
  ['"a\tb"', "invalid character '\\t' in string literal", 2],
  ['["a\nb"]', "invalid character '\\n' in string literal", 3],
  ['"\r"', "invalid character '\\r' in string literal", 1],
  ['"\u0000"', "invalid character '\\x00' in string literal", 1],
  ['"\u0001"', "invalid character '\\x01' in string literal", 1],
  ['"\u001f"', "invalid character '\\x1f' in string literal", 1],
  ['{"a\u0007": []}', "invalid character '\\a' in string literal", 3],
  // in string escape code
  ['"\\x41"', "invalid character 'x' in string escape code", 2],
  ['"\\U0041"', "invalid character 'U' in string escape code", 2],
  ['"\\\'"', "invalid character '\\'' in string escape code", 2],
  ['"\\ "', "invalid character ' ' in string escape code", 2],
  ['"\\a"', "invalid character 'a' in string escape code", 2],
  ['"\\é"', "invalid character 'Ã' in string escape code", 2],
  // in \u hexadecimal character escape
  ['"\\u00g0"', "invalid character 'g' in \\u hexadecimal character escape", 5],
  ['"\\u12"', "invalid character '\"' in \\u hexadecimal character escape", 5],
  ['"\\uZZZZ"', "invalid character 'Z' in \\u hexadecimal character escape", 3],
  // in numeric literal
  ['-x', "invalid character 'x' in numeric literal", 1],
  ['-.5', "invalid character '.' in numeric literal", 1],
  ['[-]', "invalid character ']' in numeric literal", 2],
  ['- 1', "invalid character ' ' in numeric literal", 1],
  ['-Infinity', "invalid character 'I' in numeric literal", 1],
  // after decimal point in numeric literal
  ['1.x', "invalid character 'x' after decimal point in numeric literal", 2],
  ['1.e5', "invalid character 'e' after decimal point in numeric literal", 2],
  ['[1.]', "invalid character ']' after decimal point in numeric literal", 3],
  // in exponent of numeric literal
  ['1ex', "invalid character 'x' in exponent of numeric literal", 2],
  ['1e+x', "invalid character 'x' in exponent of numeric literal", 3],
  ['1e+-1', "invalid character '-' in exponent of numeric literal", 3],
  ['[1E]', "invalid character ']' in exponent of numeric literal", 3],
  // in literal …
  ['tx', "invalid character 'x' in literal true (expecting 'r')", 1],
  ['trx', "invalid character 'x' in literal true (expecting 'u')", 2],
  ['trUe', "invalid character 'U' in literal true (expecting 'u')", 2],
  ['[tr ue]', "invalid character ' ' in literal true (expecting 'u')", 3],
  ['fx', "invalid character 'x' in literal false (expecting 'a')", 1],
  ['fe', "invalid character 'e' in literal false (expecting 'a')", 1],
  ['faLse', "invalid character 'L' in literal false (expecting 'l')", 2],
  ['falze', "invalid character 'z' in literal false (expecting 's')", 3],
  ['falsy', "invalid character 'y' in literal false (expecting 'e')", 4],
  ['nil', "invalid character 'i' in literal null (expecting 'u')", 1],
  ['nuLL', "invalid character 'L' in literal null (expecting 'l')", 2],
  ['nulL', "invalid character 'L' in literal null (expecting 'l')", 3],
  ['foo.com=1.2.3.4', "invalid character 'o' in literal false (expecting 'a')", 1],
  // non-ASCII and control bytes outside strings: the UTF-8 lead byte is reported
  ['“a”', "invalid character 'â' looking for beginning of value", 0],
  ['\ufeff{}', "invalid character 'ï' looking for beginning of value", 0],
  ['\u00a0[]', "invalid character 'Â' looking for beginning of value", 0],
  ['é', "invalid character 'Ã' looking for beginning of value", 0],
  ['😀', "invalid character 'ð' looking for beginning of value", 0],
  ['\ud800', "invalid character 'ï' looking for beginning of value", 0],
  ['\udc00', "invalid character 'ï' looking for beginning of value", 0],
  ['[1,\u3000]', "invalid character 'ã' looking for beginning of value", 3],
  ['["a"\u0085]', "invalid character 'Â' after array element", 4],
  ['{"a":1}\u2028', "invalid character 'â' after top-level value", 7],
  ['\u000b[]', "invalid character '\\v' looking for beginning of value", 0],
  ['\u000c[]', "invalid character '\\f' looking for beginning of value", 0],
  ['\u0000', "invalid character '\\x00' looking for beginning of value", 0],
  ['\u007f', "invalid character '\\x7f' looking for beginning of value", 0],
  ['[1\u0007]', "invalid character '\\a' after array element", 2],
  ['\b', "invalid character '\\b' looking for beginning of value", 0],
  // a syntax error anywhere wins over type errors before it
  ['{"a": 1, "b": [1.1.1.1]}', "invalid character '.' after array element", 18],
  ['[1, 2] garbage', "invalid character 'g' after top-level value", 7],
];

describe('syntax errors', () => {
  it.each(syntaxCases)('%j → %s', (text, message, offset) => {
    const e = errorOf(parseGoJson(text));
    expect(e).toBeInstanceOf(GoJsonError);
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('GoJsonError');
    expect(e.code).toBe('syntax');
    expect(e.message).toBe(message);
    expect(e.position.offset).toBe(offset);
    // every typed decoder reports the same syntax error
    const results: GoJsonResult<unknown>[] = [decodeMapOfStringLists(text), decodeStringList(text), decodeMapOfStrings(text)];
    for (const r of results) {
      expect(errorOf(r).message).toBe(message);
      expect(errorOf(r).code).toBe('syntax');
    }
  });

  it('carries the position of the offset: line and column (code points) in the decoded text', () => {
    const syntax = errorOf(decodeMapOfStringLists('{\n  "a.com": ["1.1.1.1",]\n}'));
    expect(syntax.message).toBe("invalid character ']' looking for beginning of value");
    expect(syntax.reason).toBe(syntax.message);
    expect(syntax).toMatchObject({ code: 'syntax', category: 'input', filename: undefined, position: { line: 2, column: 23, offset: 24 } });
    // A type error: 😀 is two UTF-16 units, one column.
    const type = errorOf(decodeStringList('["😀", 1]'));
    expect(type).toMatchObject({ code: 'type', position: { line: 1, column: 7, offset: 7 } });
  });

  it('whatever JSON.parse rejects in this table, it rejects too (sanity check of the table)', () => {
    for (const [text] of syntaxCases) expect(jsonParseOk(text)).toBe(false);
  });
});

describe('nesting depth', () => {
  it(`accepts ${GO_JSON_MAX_DEPTH} nested arrays and objects`, () => {
    const arrays = '['.repeat(GO_JSON_MAX_DEPTH) + ']'.repeat(GO_JSON_MAX_DEPTH);
    expect(parseGoJson(arrays).ok).toBe(true);
    const objects = '{"a":'.repeat(GO_JSON_MAX_DEPTH - 1) + '{}' + '}'.repeat(GO_JSON_MAX_DEPTH - 1);
    expect(parseGoJson(objects).ok).toBe(true);
  });

  it('rejects the next level at its bracket: exceeded max depth', () => {
    const e = errorOf(parseGoJson('['.repeat(GO_JSON_MAX_DEPTH + 1) + ']'.repeat(GO_JSON_MAX_DEPTH + 1)));
    expect(e.message).toBe("invalid character '[' exceeded max depth");
    expect(e.position.offset).toBe(GO_JSON_MAX_DEPTH);
    const o = errorOf(parseGoJson('{"a":'.repeat(GO_JSON_MAX_DEPTH + 1)));
    expect(o.message).toBe("invalid character '{' exceeded max depth");
    expect(o.position.offset).toBe(5 * GO_JSON_MAX_DEPTH);
  });

  it('100k open brackets: no stack overflow', () => {
    const e = errorOf(decodeMapOfStringLists('['.repeat(100_000)));
    expect(e.message).toBe("invalid character '[' exceeded max depth");
    // within the limit but never closed
    expect(errorOf(parseGoJson('['.repeat(GO_JSON_MAX_DEPTH))).message).toBe(END);
  });

  it('deep but valid input decodes to a type error without recursing into it', () => {
    const depth = GO_JSON_MAX_DEPTH - 1;
    const text = '{"a":' + '['.repeat(depth) + ']'.repeat(depth) + '}';
    const e = errorOf(decodeMapOfStringLists(text));
    expect(e.message).toBe('json: cannot unmarshal array into Go value of type string');
    expect(e.position.offset).toBe(6);
  });
});

// ---------------------------------------------------------------------------------------------
// type errors
// ---------------------------------------------------------------------------------------------

type Decoder = (text: string) => GoJsonResult<unknown>;
const decoders: Record<'mapOfLists' | 'list' | 'map', Decoder> = {
  mapOfLists: decodeMapOfStringLists,
  list: decodeStringList,
  map: decodeMapOfStrings,
};

/** [decoder, input, Go's message, offset of the offending value] */
const typeCases: readonly (readonly ['mapOfLists' | 'list' | 'map', string, string, number])[] = [
  ['mapOfLists', '"x"', 'json: cannot unmarshal string into Go value of type map[string][]string', 0],
  ['mapOfLists', ' 1', 'json: cannot unmarshal number into Go value of type map[string][]string', 1],
  ['mapOfLists', 'true', 'json: cannot unmarshal bool into Go value of type map[string][]string', 0],
  ['mapOfLists', '[]', 'json: cannot unmarshal array into Go value of type map[string][]string', 0],
  ['mapOfLists', '{"a.com": "1.1.1.1"}', 'json: cannot unmarshal string into Go value of type []string', 10],
  ['mapOfLists', '{"a":1}', 'json: cannot unmarshal number into Go value of type []string', 5],
  ['mapOfLists', '{"a":{}}', 'json: cannot unmarshal object into Go value of type []string', 5],
  ['mapOfLists', '{"a":false}', 'json: cannot unmarshal bool into Go value of type []string', 5],
  ['mapOfLists', '{"a":[1]}', 'json: cannot unmarshal number into Go value of type string', 6],
  ['mapOfLists', '{"a":[["x"]]}', 'json: cannot unmarshal array into Go value of type string', 6],
  ['mapOfLists', '{"a":[{}]}', 'json: cannot unmarshal object into Go value of type string', 6],
  ['mapOfLists', '{"a":["x",true]}', 'json: cannot unmarshal bool into Go value of type string', 10],
  // the first type error in document order is reported
  ['mapOfLists', '{"a":[1],"b":"x"}', 'json: cannot unmarshal number into Go value of type string', 6],
  ['mapOfLists', '{"a":"x","b":[1]}', 'json: cannot unmarshal string into Go value of type []string', 5],
  ['mapOfLists', '{"a":null,"b":[null,2],"c":3}', 'json: cannot unmarshal number into Go value of type string', 20],
  // a later duplicate does not undo an earlier type error
  ['mapOfLists', '{"a":1,"a":["x"]}', 'json: cannot unmarshal number into Go value of type []string', 5],
  ['list', '{}', 'json: cannot unmarshal object into Go value of type []string', 0],
  ['list', '"8.8.8.8"', 'json: cannot unmarshal string into Go value of type []string', 0],
  ['list', '8', 'json: cannot unmarshal number into Go value of type []string', 0],
  ['list', 'false', 'json: cannot unmarshal bool into Go value of type []string', 0],
  ['list', '[1]', 'json: cannot unmarshal number into Go value of type string', 1],
  ['list', '[true]', 'json: cannot unmarshal bool into Go value of type string', 1],
  ['list', '[["8.8.8.8"]]', 'json: cannot unmarshal array into Go value of type string', 1],
  ['list', '[null, {"a":1}, 2]', 'json: cannot unmarshal object into Go value of type string', 7],
  ['map', '{"a": 1}', 'json: cannot unmarshal number into Go value of type string', 6],
  ['map', '{"a":["x"]}', 'json: cannot unmarshal array into Go value of type string', 5],
  ['map', '{"a":{}}', 'json: cannot unmarshal object into Go value of type string', 5],
  ['map', '{"a":false}', 'json: cannot unmarshal bool into Go value of type string', 5],
  ['map', '[]', 'json: cannot unmarshal array into Go value of type map[string]string', 0],
  ['map', '"x"', 'json: cannot unmarshal string into Go value of type map[string]string', 0],
  ['map', '-1.5e3', 'json: cannot unmarshal number into Go value of type map[string]string', 0],
];

describe('type errors', () => {
  it.each(typeCases)('%s %j → %s', (which, text, message, offset) => {
    const e = errorOf(decoders[which](text));
    expect(e.code).toBe('type');
    expect(e.message).toBe(message);
    expect(e.position.offset).toBe(offset);
  });

  it('names Go types like reflect.Type.String()', () => {
    expect(goTypeName(MAP_OF_STRING_LISTS)).toBe('map[string][]string');
    expect(goTypeName(STRING_LIST)).toBe('[]string');
    expect(goTypeName(MAP_OF_STRINGS)).toBe('map[string]string');
    expect(goTypeName(goString)).toBe('string');
    expect(goTypeName(goSlice(goMap(goSlice(goString))))).toBe('[]map[string][]string');
  });

  it('decodes other Go types generically', () => {
    const t = goSlice(goMap(goString));
    expect(valueOf(decodeGoJson('[{"a":"b"},null]', t))).toEqual([new Map([['a', 'b']]), null]);
    expect(errorOf(decodeGoJson('[{"a":1}]', t)).message).toBe('json: cannot unmarshal number into Go value of type string');
    expect(valueOf(decodeGoJson('"x"', goString))).toBe('x');
    expect(valueOf(decodeGoJson('null', goString))).toBe('');
  });
});

// ---------------------------------------------------------------------------------------------
// decoded values
// ---------------------------------------------------------------------------------------------

describe('decoded values', () => {
  it('map[string][]string: null, empty, null lists and null elements', () => {
    expect(valueOf(decodeMapOfStringLists('null'))).toBeNull();
    expect(valueOf(decodeMapOfStringLists(' null\n'))).toBeNull();
    expect(valueOf(decodeMapOfStringLists('{}'))).toEqual(new Map());
    expect(valueOf(decodeMapOfStringLists('{"a":null}'))).toEqual(new Map([['a', null]]));
    expect(valueOf(decodeMapOfStringLists('{"a":[]}'))).toEqual(new Map([['a', []]]));
    expect(valueOf(decodeMapOfStringLists('{"a":["x",null]}'))).toEqual(new Map([['a', ['x', '']]]));
    expect(valueOf(decodeMapOfStringLists(' {"foo.com" : ["1.2.3.4:5300","3.3.3.3"], "my.cluster.local" : ["2.3.4.5"]}'))).toEqual(
      new Map([
        ['foo.com', ['1.2.3.4:5300', '3.3.3.3']],
        ['my.cluster.local', ['2.3.4.5']],
      ]),
    );
  });

  it('[]string', () => {
    expect(valueOf(decodeStringList('null'))).toBeNull();
    expect(valueOf(decodeStringList('[]'))).toEqual([]);
    expect(valueOf(decodeStringList('["8.8.8.8", null]'))).toEqual(['8.8.8.8', '']);
    expect(valueOf(decodeStringList('\t["8.8.8.8", "8.8.4.4"]\n'))).toEqual(['8.8.8.8', '8.8.4.4']);
  });

  it('map[string]string', () => {
    expect(valueOf(decodeMapOfStrings('null'))).toBeNull();
    expect(valueOf(decodeMapOfStrings('{}'))).toEqual(new Map());
    expect(valueOf(decodeMapOfStrings('{"a":null,"b":"x"}'))).toEqual(
      new Map([
        ['a', ''],
        ['b', 'x'],
      ]),
    );
  });

  it('duplicate keys: first position, last value (also a later null)', () => {
    const stub = valueOf(decodeMapOfStringLists('{"a":["1"],"b":["2"],"a":["3","4"]}'));
    expect([...(stub ?? new Map()).entries()]).toEqual([
      ['a', ['3', '4']],
      ['b', ['2']],
    ]);
    const nulled = valueOf(decodeMapOfStringLists('{"a":["1"],"b":["2"],"a":null}'));
    expect([...(nulled ?? new Map()).entries()]).toEqual([
      ['a', null],
      ['b', ['2']],
    ]);
    const fed = valueOf(decodeMapOfStrings('{"z":"1","y":"2","z":null}'));
    expect([...(fed ?? new Map()).entries()]).toEqual([
      ['z', ''],
      ['y', '2'],
    ]);
  });

  it('escapes', () => {
    expect(valueOf(decodeStringList('["\\"\\\\\\/\\b\\f\\n\\r\\t\\u0041\\u00e9\\u20AC"]'))).toEqual([
      '"\\/\b\f\n\r\tAé€',
    ]);
    expect(valueOf(decodeMapOfStringLists('{"\\u0061.com":["x"]}'))).toEqual(new Map([['a.com', ['x']]]));
    // DEL and non-ASCII are fine inside strings
    expect(valueOf(decodeStringList('["\u007f", "é😀\u2028"]'))).toEqual(['\u007f', 'é😀\u2028']);
  });

  it.each([
    ['\\ud83d\\ude00', '😀'],
    ['\\uD83D\\uDE00', '😀'],
    ['\\ud83d', '\ufffd'],
    ['\\ude00', '\ufffd'],
    ['\\ud83dx', '\ufffdx'],
    ['\\ud83d\\u0041', '\ufffdA'],
    ['\\ud83d\\ud83d\\ude00', '\ufffd😀'],
    ['\\ude00\\ud83d', '\ufffd\ufffd'],
    ['\\ude00\\ude00', '\ufffd\ufffd'],
    ['\\ud83d\\n', '\ufffd\n'],
    // lone surrogates in the text itself (invalid UTF-8 for Go)
    ['a\ud800b', 'a\ufffdb'],
    ['\udc00', '\ufffd'],
    ['\ud83d\ude00', '😀'],
    ['\ud83d', '\ufffd'],
    ['\\ud83d\ude00', '\ufffd\ufffd'],
    ['\ud83d\\ude00', '\ufffd\ufffd'],
    ['\ude00\ud83d', '\ufffd\ufffd'],
  ])('surrogates: "%s"', (body, want) => {
    expect(valueOf(decodeStringList(`["${body}"]`))).toEqual([want]);
  });

  it('value tree: members in source order with duplicates, spans and key offsets', () => {
    const text = ' {"a" : [1, -2.5e3, true, null], "b":"x", "a": {}} ';
    const root = valueOf(parseGoJson(text));
    expect(root.kind).toBe('object');
    if (root.kind !== 'object') return;
    expect(root.offset).toBe(1);
    expect(root.end).toBe(text.length - 1);
    expect(root.members.map((m) => m.key)).toEqual(['a', 'b', 'a']);
    for (const m of root.members) {
      expect(text.charAt(m.keyOffset)).toBe('"');
      expect(JSON.parse(text.slice(m.keyOffset, m.keyOffset + m.key.length + 2))).toBe(m.key);
      expect(JSON.parse(text.slice(m.value.offset, m.value.end))).toEqual(toJs(m.value));
    }
    const first = root.members[0]?.value;
    expect(first?.kind).toBe('array');
    if (first?.kind !== 'array') return;
    expect(first.items.map((v) => text.slice(v.offset, v.end))).toEqual(['1', '-2.5e3', 'true', 'null']);
    const num = first.items[1];
    expect(num).toMatchObject({ kind: 'number', raw: '-2.5e3', value: -2500 });
  });
});

// ---------------------------------------------------------------------------------------------
// speed
// ---------------------------------------------------------------------------------------------

describe('large inputs (timings: npm run bench)', () => {
  it('decodes a 1 MiB map[string][]string text with ~16,000 keys', () => {
    const parts: string[] = [];
    let size = 2;
    for (let k = 0; size < 1024 * 1024; k++) {
      const ips = `"10.${k % 256}.${(k >> 8) % 256}.1:53", "10.0.0.${k % 256}"`;
      const entry = `${k === 0 ? '' : ','}\n  "zone-${k}.svc.example.com": [${ips}]`;
      parts.push(entry);
      size += entry.length;
    }
    const text = `{${parts.join('')}\n}`;
    expect(parts.length).toBeGreaterThan(15_000);
    expect(valueOf(decodeMapOfStringLists(text))?.size).toBe(parts.length);
  });

  it('decodes long strings with many escapes', () => {
    const body = '\\u0041\\n\\ud83d\\ude00x'.repeat(50_000);
    const r = valueOf(decodeStringList(`["${body}"]`));
    expect(r?.[0]).toBe('A\n😀x'.repeat(50_000));
  });
});

// ---------------------------------------------------------------------------------------------
// properties
// ---------------------------------------------------------------------------------------------

describe('properties', () => {
  it('(a) agrees with JSON.parse on every JSON text from fc.json() (ASCII and full Unicode)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.json({ stringUnit: 'binary' }), fc.json({ stringUnit: 'grapheme' })), (text) => {
        expect(parseToJs(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });

  it('(a) agrees with JSON.parse on fc.jsonValue() serialised, pretty-printed and compact', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), fc.boolean(), (v, pretty) => {
        const text = pretty ? JSON.stringify(v, null, '\t') : JSON.stringify(v);
        expect(parseToJs(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });

  it('(a) agrees with JSON.parse on objects with duplicate keys (last wins)', () => {
    const key = fc.constantFrom('a', 'b', 'c', '', '__proto__', 'é', '1', '0');
    const leaf = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constant(null));
    fc.assert(
      fc.property(fc.array(fc.tuple(key, leaf), { maxLength: 12 }), (entries) => {
        const text = `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
        expect(parseToJs(text)).toEqual(JSON.parse(text));
      }),
      { numRuns: 300 },
    );
  });

  it('(b) whitespace between tokens never changes the value or any typed result', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), fc.array(ws, { minLength: 1, maxLength: 20 }), (v, seps) => {
        const compact = JSON.stringify(v);
        const spaced = interleave(tokensOf(v), seps);
        expect(parseToJs(spaced)).toEqual(JSON.parse(compact));
        expect(decodeAll(spaced)).toEqual(decodeAll(compact));
      }),
      { numRuns: 400 },
    );
  });

  it('(b) stub-domain-shaped inputs (map of lists): typed results are whitespace-invariant', () => {
    const list = fc.oneof(fc.constant(null), fc.array(fc.oneof(fc.string(), fc.constant(null), fc.integer()), { maxLength: 3 }));
    const shape = fc.oneof(fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(list, fc.string())), list);
    fc.assert(
      fc.property(shape, fc.array(ws, { minLength: 1, maxLength: 20 }), (v, seps) => {
        expect(decodeAll(interleave(tokensOf(v), seps))).toEqual(decodeAll(JSON.stringify(v)));
      }),
      { numRuns: 300 },
    );
  });

  it('(b) on token sequences separated by whitespace, the kind of whitespace never changes an error', () => {
    const token = fc.constantFrom('{', '}', '[', ']', ',', ':', '"a"', '"b"', '1', '-2.5', 'true', 'false', 'null', '"\\u0041"');
    const seps = fc.array(ws1, { minLength: 1, maxLength: 13 });
    const outcomes = new Outcomes<'parsed' | 'error'>();
    fc.assert(
      fc.property(fc.array(token, { maxLength: 12 }), seps, seps, (tokens, s1, s2) => {
        const a = parseGoJson(interleave(tokens, s1));
        const b = parseGoJson(interleave(tokens, s2));
        outcomes.add(a.ok ? 'parsed' : 'error');
        expect(a.ok).toBe(b.ok);
        if (!a.ok && !b.ok) expect(a.error.message).toBe(b.error.message);
        if (a.ok && b.ok) expect(toJs(a.value)).toEqual(toJs(b.value));
      }),
      { numRuns: 500 },
    );
    // Expected: about 30 texts that parse (their values compared) and 470 errors in 500 runs.
    outcomes.expectAtLeast({ parsed: 8, error: 350 });
  });

  it('(c) accepts exactly what JSON.parse accepts, and then agrees on the value', () => {
    const piece = fc.constantFrom(
      '{', '}', '[', ']', ',', ':', '"', '1', '0', '-', '+', '.', 'e', 'E', 'true', 'false', 'null', 'tru',
      '\\', 'u', '\\u', 'a', 'x', '00e9', 'D83D', 'DE00', ' ', '\n', '\t', '\r', '\u000b', '\u0001', '\u007f',
      'é', '😀', '\ud83d', '\ude00', '"a"', '"\\ud83d"', '"\\ude00"', '\\ud83d', '\\ude00', '\\n', '\\"', '/',
      '\u00a0', '\ufeff', '\u2028',
    );
    const outcomes = new Outcomes<'parsed, value compared' | 'parsed, lone surrogate' | 'error'>();
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (pieces) => {
        const text = pieces.join('');
        const r = parseGoJson(text);
        expect(r.ok).toBe(jsonParseOk(text));
        outcomes.add(!r.ok ? 'error' : hasLoneSurrogate(text) ? 'parsed, lone surrogate' : 'parsed, value compared');
        if (r.ok && !hasLoneSurrogate(text)) {
          // Go turns lone surrogate escapes into U+FFFD and pairs what JSON.parse pairs.
          expect(toJs(r.value)).toEqual(fixSurrogates(JSON.parse(text)));
        }
      }),
      { numRuns: 3000 },
    );
    // Expected: about 55 texts that parse (their values compared) and 2945 errors in 3000 runs.
    outcomes.expectAtLeast({ 'parsed, value compared': 20, error: 2500 });
  });

  it('(c) also on mutations of valid JSON texts', () => {
    const outcomes = new Outcomes<'parsed' | 'error'>();
    fc.assert(
      fc.property(
        fc.json({ maxDepth: 3 }),
        fc.nat(),
        fc.constantFrom('', ',', ']', '}', '"', '\\', '1', '.', ' ', 'e', '-', '{', '[', ':', 'n', '\u0001'),
        fc.nat({ max: 2 }),
        (text, at, insert, del) => {
          const k = text.length === 0 ? 0 : at % (text.length + 1);
          const mutated = text.slice(0, k) + insert + text.slice(k + del);
          const ok = jsonParseOk(mutated);
          outcomes.add(ok ? 'parsed' : 'error');
          expect(parseGoJson(mutated).ok).toBe(ok);
        },
      ),
      { numRuns: 2000 },
    );
    // Expected: about 440 mutated texts that still parse and 1560 errors in 2000 runs.
    outcomes.expectAtLeast({ parsed: 330, error: 1200 });
  });

  it('decoded strings are always well-formed UTF-16 (Go yields valid UTF-8)', () => {
    const piece = fc.constantFrom('a', '\ud83d', '\ude00', '\\ud83d', '\\ude00', '\\u0041', '😀', '\\n');
    fc.assert(
      fc.property(fc.array(fc.array(piece, { maxLength: 8 }).map((p) => p.join('')), { maxLength: 4 }), (bodies) => {
        const list = valueOf(decodeStringList(`[${bodies.map((b) => `"${b}"`).join(',')}]`)) ?? [];
        expect(list.length).toBe(bodies.length);
        for (const s of list) expect(hasLoneSurrogate(s)).toBe(false);
      }),
    );
  });

  it('(d) typed maps: first-appearance key order, last value per key', () => {
    const key = fc.constantFrom('a.com', 'b.com', 'c.com', '', 'é.com', '😀');
    const list = fc.oneof(fc.constant(null), fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.constant(null)), { maxLength: 3 }));
    fc.assert(
      fc.property(fc.array(fc.tuple(key, list), { maxLength: 10 }), (entries) => {
        const text = `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(', ')}}`;
        const got = valueOf(decodeMapOfStringLists(text));
        expect(got).not.toBeNull();
        const order = [...new Set(entries.map(([k]) => k))];
        expect([...(got ?? new Map()).keys()]).toEqual(order);
        for (const k of order) {
          const last = entries.filter(([x]) => x === k).at(-1)?.[1];
          expect(got?.get(k)).toEqual(last === null || last === undefined ? null : last.map((s) => s ?? ''));
        }
      }),
      { numRuns: 300 },
    );
    const value = fc.oneof(fc.string({ maxLength: 5 }), fc.constant(null));
    fc.assert(
      fc.property(fc.array(fc.tuple(key, value), { maxLength: 10 }), (entries) => {
        const text = `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`;
        const got = valueOf(decodeMapOfStrings(text)) ?? new Map<string, string>();
        const want = new Map<string, string>();
        for (const [k, v] of entries) want.set(k, v ?? '');
        expect([...got.entries()]).toEqual([...want.entries()]);
      }),
      { numRuns: 300 },
    );
  });

  it('one-pass typed decoding equals parsing to a tree and then decoding the tree', () => {
    const piece = fc.constantFrom('{', '}', '[', ']', ',', ':', '"a"', '"b"', '1', 'true', 'null', ' ', '"', 'x');
    const text = fc.oneof(
      fc.json({ maxDepth: 4 }),
      fc.array(piece, { maxLength: 14 }).map((p) => p.join('')),
      fc
        .dictionary(fc.string({ maxLength: 3 }), fc.oneof(fc.array(fc.oneof(fc.string(), fc.constant(null))), fc.jsonValue({ maxDepth: 2 })))
        .map((v) => JSON.stringify(v)),
    );
    const types = [MAP_OF_STRING_LISTS, STRING_LIST, MAP_OF_STRINGS, goString, goSlice(goMap(goSlice(goString)))];
    const show = (r: GoJsonResult<unknown>): unknown =>
      r.ok
        ? { value: JSON.stringify(r.value, mapReplacer) }
        : { kind: r.error.code, message: r.error.message, offset: r.error.position.offset };
    fc.assert(
      fc.property(text, (t) => {
        const tree = parseGoJson(t);
        for (const type of types) {
          const twoStep: GoJsonResult<unknown> = tree.ok ? decodeGoJsonValue(tree.value, type, t) : tree;
          expect(show(decodeGoJson(t, type))).toEqual(show(twoStep));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('typed decoders agree with JSON.parse on well-typed input', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 8 }), { maxLength: 5 }), (list) => {
        expect(valueOf(decodeStringList(JSON.stringify(list)))).toEqual(list);
      }),
    );
  });
});
