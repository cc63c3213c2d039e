import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { comparableCorefile, corefilesEqual } from '../../src/corefile/compare.js';
import type { Block, Comment, Corefile, Directive, DirectiveList } from '../../src/corefile/model.js';
import { parseCorefile } from '../../src/corefile/parser.js';
import { printCorefile } from '../../src/corefile/printer.js';
import { isDomainName, parseAnyServerKey, parseServerKey } from '../../src/corefile/server-key.js';
import { Outcomes } from '../support/outcomes.js';
import { hostileCorefile, hostileText, representableCorefile } from './support/arbitraries.js';

/**
 * The shortcuts taken for speed in the Corefile model agree with the plain definitions they
 * replace: `corefilesEqual` walks both models instead of comparing their comparable forms, and
 * `isDomainName` / `parseServerKey` encode UTF-8 into scratch space and skip BigInt for short ports.
 */

/** The definition of model equality: the comparable forms serialise the same. */
function equalByDefinition(a: Corefile, b: Corefile): boolean {
  return JSON.stringify(comparableCorefile(a)) === JSON.stringify(comparableCorefile(b));
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A deep copy of `model` with one detail changed: the `choice`-th place (counted over the whole
 * model, wrapping around) gets a flag flipped, trailing spaces on its comment, or a changed word.
 * Some of these changes are invisible to equality (a comment's trailing spaces, a flag where it
 * cannot print), most are not.
 */
function tweaked(model: Corefile, choice: number): Corefile {
  const copy = structuredClone(model) as Mutable<Corefile>;
  const places: (() => void)[] = [];
  const comments = (list: readonly Comment[] | undefined) => {
    for (const comment of list ?? []) {
      const target = comment as Mutable<Comment>;
      places.push(() => (target.blankLineBefore = target.blankLineBefore !== true));
      places.push(() => (target.text = `${target.text} `));
      places.push(() => (target.text = `${target.text}x`));
    }
  };
  const directives = (list: DirectiveList) => {
    comments(list.endComments);
    for (const directive of list.directives) {
      const target = directive as Mutable<Directive>;
      places.push(() => (target.blankLineBefore = target.blankLineBefore !== true));
      places.push(() => (target.arguments = [...target.arguments, 'x']));
      comments(directive.leadingComments);
      if (directive.block !== undefined) {
        const block = directive.block as Mutable<Block>;
        places.push(() => (block.openedOnNewLine = block.openedOnNewLine !== true));
        places.push(() => (block.firstTokenOnOpeningLine = block.firstTokenOnOpeningLine !== true));
        places.push(() => (block.closedOnLastLine = block.closedOnLastLine !== true));
        directives(block);
      }
    }
  };
  for (const item of copy.items) {
    comments(item.leadingComments);
    places.push(() => ((item as Mutable<typeof item>).blankLineBefore = item.blankLineBefore !== true));
    if (item.kind !== 'import') directives(item);
  }
  comments(copy.endComments);
  if (places.length > 0) (places[choice % places.length] as () => void)();
  return copy;
}

describe('corefilesEqual', () => {
  it('agrees with comparing comparable forms, for equal and for different models', () => {
    const outcomes = new Outcomes<'equal' | 'different'>();
    const pair = fc.oneof(
      // Equal in the model sense but built differently (positions, absent versus empty lists…).
      representableCorefile.map((model) => [model, parseCorefile(printCorefile(model)).corefile] as const),
      // Mostly different, sometimes alike.
      fc.tuple(hostileCorefile, hostileCorefile),
      // Often one detail apart: a model against the reparse of a model of the same shape.
      fc.tuple(representableCorefile, representableCorefile).map(([a, b]) => [a, { ...a, items: a.items.map((item, index) => b.items[index] ?? item) }] as const),
      // One detail apart.
      fc.tuple(hostileCorefile, fc.nat()).map(([model, choice]) => [model, tweaked(model, choice)] as const),
      fc.tuple(representableCorefile, fc.nat()).map(([model, choice]) => [parseCorefile(printCorefile(model)).corefile, tweaked(model, choice)] as const),
    );
    fc.assert(
      fc.property(pair, ([a, b]) => {
        const expected = equalByDefinition(a, b);
        outcomes.add(expected ? 'equal' : 'different');
        expect(corefilesEqual(a, b)).toBe(expected);
        expect(corefilesEqual(b, a)).toBe(expected);
      }),
      { numRuns: 1500 },
    );
    // Expected: about 700 equal and 800 different pairs in 1500 runs (seeds 1-4: 656-700 and 800-844); without
    // the first kind of pair (equal, built differently) about 300 fewer equal ones.
    outcomes.expectAtLeast({ equal: 400, different: 400 });
  });
});

/** miekg/dns `IsDomainName` as it was written first: on an array of the name's UTF-8 bytes. */
function referenceIsDomainName(name: string): boolean {
  if (name === '') return false;
  const unescapedDot = name.endsWith('.') && (name.length - 1 - name.slice(0, -1).replace(/\\+$/, '').length) % 2 === 0;
  const bytes: number[] = [];
  for (const char of unescapedDot ? name : `${name}.`) {
    const code = char.codePointAt(0) as number;
    if (code < 0x80) bytes.push(code);
    else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 0x3f));
    else if (code < 0x10000) bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
    else bytes.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 0x3f), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
  }
  const isDigit = (byte: number | undefined) => byte !== undefined && byte >= 0x30 && byte <= 0x39;
  let offset = 0;
  let labelStart = 0;
  let previousWasDot = false;
  let escaping = false;
  for (let index = 0; index < bytes.length; index += 1) {
    const byte = bytes[index];
    if (byte === 0x5c) {
      escaping = !escaping;
      if (offset + 1 > 256) return false;
      if (index + 3 < bytes.length && isDigit(bytes[index + 1]) && isDigit(bytes[index + 2]) && isDigit(bytes[index + 3])) {
        index += 3;
        labelStart += 3;
      } else {
        index += 1;
        labelStart += 1;
      }
      previousWasDot = false;
    } else if (byte === 0x2e) {
      escaping = false;
      if (index === 0 && bytes.length > 1) return false;
      if (previousWasDot) return false;
      previousWasDot = true;
      const labelLength = index - labelStart;
      if (labelLength >= 64) return false;
      offset += 1 + labelLength;
      if (offset > 256) return false;
      labelStart = index + 1;
    } else {
      escaping = false;
      previousWasDot = false;
    }
  }
  return !escaping;
}

const namePiece = fc.constantFrom('a', 'b7', '.', '..', '\\', '\\0', '\\123', '\\.', 'é', '\u07ff', '\u0800', 'ह', '\uffff', '😀', '\ud800', '\udc00', 'x'.repeat(62), 'y'.repeat(64), ':', '-');
const domainLike = fc.oneof(
  fc.array(namePiece, { maxLength: 12 }).map((pieces) => pieces.join('')),
  fc.array(fc.constantFrom('ab', 'é'.repeat(20), 'é'.repeat(32), 'ह'.repeat(21), 'ह'.repeat(21) + 'a', 'z'.repeat(63), '😀'.repeat(16)), { minLength: 1, maxLength: 8 }).map((labels) => labels.join('.')),
  hostileText,
);

describe('isDomainName on scratch UTF-8 bytes (and on the string, for plain ASCII names)', () => {
  it('agrees with the byte-array reading, multi-byte characters and lone surrogates included', () => {
    const outcomes = new Outcomes<'ascii valid' | 'ascii invalid' | 'other valid' | 'other invalid'>();
    fc.assert(
      fc.property(domainLike, (name) => {
        const expected = referenceIsDomainName(name);
        expect(isDomainName(name)).toBe(expected);
        outcomes.add(`${/^[\x00-\x5b\x5d-\x7f]*$/.test(name) ? 'ascii' : 'other'} ${expected ? 'valid' : 'invalid'}`);
      }),
      { numRuns: 5000 },
    );
    outcomes.expectAtLeast({ 'ascii valid': 200, 'ascii invalid': 200, 'other valid': 200, 'other invalid': 200 });
  });
});

describe('server key ports', () => {
  it('are re-printed like Go strconv.Atoi then Itoa, short digit runs included', () => {
    const port = fc.oneof(fc.stringMatching(/^[+-]?[0-9]{1,22}$/), fc.nat(99999).map(String), fc.constantFrom('0', '00', '053', '+53', '-0', '9223372036854775807', '9223372036854775808'));
    const outcomes = new Outcomes<'fits in int64' | 'too long'>();
    fc.assert(
      fc.property(port, (text) => {
        const value = BigInt(text);
        const fits = value <= 2n ** 63n - 1n && value >= -(2n ** 63n);
        outcomes.add(fits ? 'fits in int64' : 'too long');
        const address = parseServerKey(`example.org:${text}`);
        if (fits) expect(address.port).toBe(value.toString());
        else expect(address.zones).toEqual([`example.org:${text}.`]);
      }),
      { numRuns: 3000 },
    );
    // Expected: about 2860 ports that fit in an int64 and 140 that do not, in 3000 runs.
    outcomes.expectAtLeast({ 'fits in int64': 2500, 'too long': 60 });
  });
});

describe('parseServerKey shortcut for plain keys', () => {
  /** What a reading gives, or the error it throws (code and message). */
  const reading = (read: () => unknown) => {
    try {
      return { ok: read() };
    } catch (error) {
      return { error: error instanceof Error ? `${(error as Error & { code?: string }).code ?? ''} ${error.message}` : String(error) };
    }
  };
  it('gives what the general reading gives, for keys it takes and for keys near them', () => {
    const label = fc.oneof(
      fc.stringMatching(/^[a-z][a-z0-9-]{0,8}[a-z0-9]$/),
      fc.constantFrom('a', 'z9', 'x'.repeat(62), 'y'.repeat(63), 'w'.repeat(64), '-a', 'a-', '9a', 'Ab', 'a_b', 'é', '', 'in-addr', 'arpa', '10', '0'),
    );
    const host = fc.oneof(
      fc.array(label, { minLength: 1, maxLength: 5 }).map((labels) => labels.join('.')),
      fc.tuple(fc.array(label, { minLength: 1, maxLength: 4 }), fc.constantFrom('.', '..', '')).map(([labels, end]) => labels.join('.') + end),
      fc.array(fc.constantFrom('abcdefghij'.repeat(6), 'k'), { minLength: 3, maxLength: 6 }).map((labels) => labels.join('.')),
      fc.constantFrom('.', '', '10.0.0.0/8', 'example.org/24'),
    );
    const port = fc.oneof(fc.constant(''), fc.stringMatching(/^:[0-9]{0,7}$/), fc.constantFrom(':053', ':+53', ':-1', ':5x', '::53', ':53:'));
    const scheme = fc.oneof(fc.constant(''), fc.constant(''), fc.constantFrom('dns://', 'tls://', 'grpc://'));
    const dnsPort = fc.constantFrom(undefined, '53', '1053');
    const outcomes = new Outcomes<'plain key' | 'other key, read' | 'other key, refused'>();
    fc.assert(
      fc.property(scheme, host, port, dnsPort, (prefix, name, suffix, defaultPort) => {
        const key = `${prefix}${name}${suffix}`;
        const options = defaultPort === undefined ? {} : { dnsPort: defaultPort };
        const expected = reading(() => parseAnyServerKey(key, options));
        expect(reading(() => parseServerKey(key, options))).toEqual(expected);
        const plain = prefix === '' && /^[a-z0-9.-]*(?::[0-9]{1,5})?$/.test(key) && 'ok' in expected && expected.ok !== undefined && (expected.ok as { warnings: string[] }).warnings.length === 0;
        outcomes.add(plain ? 'plain key' : 'error' in expected ? 'other key, refused' : 'other key, read');
      }),
      { numRuns: 4000 },
    );
    outcomes.expectAtLeast({ 'plain key': 600, 'other key, read': 1000, 'other key, refused': 600 });
  });
});
