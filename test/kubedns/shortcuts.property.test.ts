import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonPathStep } from '../../src/diagnostics/diagnostic.js';
import { validateKubeDnsValues } from '../../src/generated/validate-kube-dns-values.js';
import { parseGoJson, parseGoJsonTree } from '../../src/kubedns/go-json.js';
import type { GoJsonKindCount, GoJsonMember, GoJsonTreeOptions, GoJsonValue } from '../../src/kubedns/go-json.js';
import { kubeDnsRules } from '../../src/kubedns/kube-dns-versions.js';
import { stubNameserverProblem, stubNameserverProblemInFull } from '../../src/kubedns/nameserver-rules.js';
import { plainGoValue, plainlyFollowsSchema } from '../../src/kubedns/read-kube-dns-config.js';
import { PositionCursor, positionAt } from '../../src/util/source-position.js';
import { dnsLabel, hostileString, nameserverText, stubDomainName, translatableStubNameserver } from '../support/kube-dns-arbitraries.js';
import { expectEqual, expectSame } from '../support/hot-expect.js';
import { Outcomes } from '../support/outcomes.js';

/**
 * The shortcuts the kube-dns reader takes for large ConfigMaps agree with the general code they
 * skip: the tree-level schema check, the plain-IPv4 nameserver check, positions by cursor, and
 * JSON path steps without JSON.stringify.
 */

/** Rule sets of every kube-dns behaviour change (port splitting, upstream ports, IP text). */
const rules = fc.constantFrom('1.14.0', '1.14.1', '1.14.2', '1.14.9', '1.15.1', '1.16.9', '1.17.0', '1.26.5', '1.26.6', '1.26.7').map((version) => kubeDnsRules(version));

const octet = fc.oneof(fc.nat(300).map(String), fc.constantFrom('0', '00', '010', '255', '256', '1000'));
const port = fc.oneof(fc.nat(70000).map(String), fc.constantFrom('', '0', '00053', '053', '+53', '-1', '65535', '65536', '999999', 'x'));
const ipv4ish = fc
  .tuple(octet, octet, octet, octet, fc.option(port, { nil: undefined }), fc.constantFrom('.', '.', '.', ':'))
  .map(([a, b, c, d, portText, separator]) => `${a}.${b}.${c}${separator}${d}${portText === undefined ? '' : `:${portText}`}`);

describe('the plain-IPv4 shortcut of the stub nameserver check', () => {
  it('gives the answer of the full check for every kube-dns version', () => {
    const outcomes = new Outcomes<'accepted' | 'refused'>();
    fc.assert(
      fc.property(fc.oneof(ipv4ish, nameserverText, translatableStubNameserver, fc.stringMatching(/^[0-9.:]{0,16}$/)), rules, (nameserver, rule) => {
        const full = stubNameserverProblemInFull(nameserver, rule);
        outcomes.add(full === undefined ? 'accepted' : 'refused');
        expectSame(stubNameserverProblem(nameserver, rule), full);
      }),
      { numRuns: 5000 },
    );
    // Expected in 5000 runs: about 2300 nameservers accepted and 2700 refused.
    outcomes.expectAtLeast({ accepted: 1800, refused: 2200 });
  });
});

/** Go JSON texts of every shape the schema distinguishes, duplicate keys and wrong kinds included. */
const listItem = fc.oneof({ weight: 6, arbitrary: nameserverText }, { weight: 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.integer() }, { weight: 1, arbitrary: fc.constant([]) });
const stringList = fc.oneof({ weight: 8, arbitrary: fc.array(listItem, { maxLength: 4 }) }, { weight: 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.oneof(fc.string(), fc.integer(), fc.constant({})) });
const domainKey = fc.oneof({ weight: 5, arbitrary: stubDomainName }, { weight: 1, arbitrary: fc.constant('a'.repeat(254)) }, { weight: 1, arbitrary: fc.constant(`${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`) });
const stubDomainsText = fc.oneof(
  { weight: 8, arbitrary: fc.array(fc.tuple(domainKey, stringList), { maxLength: 5 }).map((members) => `{${members.map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`).join(', ')}}`) },
  { weight: 1, arbitrary: fc.constantFrom('null', '[]', '"x"', '{"a.b": ["1.2.3.4"], "a.b": 7}', '{"a.b": 7, "a.b": ["1.2.3.4"]}') },
);
const upstreamsText = fc.oneof({ weight: 6, arbitrary: stringList.map((value) => JSON.stringify(value)) }, { weight: 1, arbitrary: fc.constantFrom('null', '{}', '["1.1.1.1","2.2.2.2","3.3.3.3","4.4.4.4"]') });
const federations = fc.dictionary(fc.oneof(dnsLabel, hostileString, fc.constant('a'.repeat(64))), fc.oneof(stubDomainName, fc.constant('a'.repeat(254))), { maxKeys: 3 });

describe('the tree-level shortcut of the schema check', () => {
  it('never accepts what the schema refuses, and accepts most of what it accepts', () => {
    let accepted = 0;
    let shortcut = 0;
    fc.assert(
      fc.property(fc.option(stubDomainsText, { nil: undefined }), fc.option(upstreamsText, { nil: undefined }), fc.option(federations, { nil: undefined }), (stubs, upstreams, federationMap) => {
        const stubTree = stubs === undefined ? undefined : parseGoJson(stubs);
        const upstreamTree = upstreams === undefined ? undefined : parseGoJson(upstreams);
        if (stubTree?.ok === false || upstreamTree?.ok === false) return;
        const document: Record<string, unknown> = {};
        if (stubTree !== undefined) document['stubDomains'] = plainGoValue(stubTree.value);
        if (upstreamTree !== undefined) document['upstreamNameservers'] = plainGoValue(upstreamTree.value);
        if (federationMap !== undefined) document['federations'] = federationMap;
        const valid = validateKubeDnsValues(document);
        const quick = plainlyFollowsSchema(stubTree?.value, upstreamTree?.value, federationMap);
        if (quick) expectSame(valid, true);
        if (valid) accepted += 1;
        if (quick) shortcut += 1;
      }),
      { numRuns: 3000 },
    );
    // The shortcut must be taken for most valid documents, or it saves nothing.
    expect(shortcut).toBeGreaterThan(accepted * 0.8);
    expect(accepted).toBeGreaterThan(200);
  });
});

describe('PositionCursor', () => {
  it('answers like positionAt for any sequence of offsets', () => {
    const text = fc.array(fc.constantFrom('a', 'é', '\n', '\r\n', '😀', '\ud800', '\udc00', '  ', 'xyz'), { maxLength: 40 }).map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(text, fc.array(fc.integer({ min: -2, max: 130 }), { maxLength: 12 }), (source, offsets) => {
        const cursor = new PositionCursor(source);
        for (const offset of offsets) expectEqual(cursor.positionAt(offset), positionAt(source, offset));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('jsonPathStep', () => {
  it('writes a member name as JSON.stringify does', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), stubDomainName, hostileString, fc.constantFrom('\u007f', '\u2028', '😀', '\ud83d', 'a"b', 'a\\b')), (step) => {
        expectSame(jsonPathStep(step), `[${JSON.stringify(step)}]`);
      }),
      { numRuns: 3000 },
    );
  });
});

/**
 * What `parseGoJsonTree(text, options)` must give, derived from the full tree of `parseGoJson`:
 * objects collapsed to one member per key (first key offset, last value), arrays cut after
 * `keepItems` with the rest counted by kind (first index and offset of each kind).
 */
function expectedTree(value: GoJsonValue, options: GoJsonTreeOptions): GoJsonValue {
  if (value.kind === 'object') {
    const members: GoJsonMember[] = [];
    const at = new Map<string, number>();
    for (const member of value.members) {
      const converted = { key: member.key, keyOffset: member.keyOffset, value: expectedTree(member.value, options) };
      const index = options.collapseDuplicateKeys === true ? at.get(member.key) : undefined;
      if (index === undefined) {
        at.set(member.key, members.length);
        members.push(converted);
      } else {
        members[index] = { ...converted, keyOffset: (members[index] as GoJsonMember).keyOffset };
      }
    }
    return { ...value, members };
  }
  if (value.kind !== 'array') return value;
  const keep = options.keepItems ?? Number.POSITIVE_INFINITY;
  const items = value.items.slice(0, keep).map((item) => expectedTree(item, options));
  if (value.items.length <= keep) return { ...value, items };
  const kinds: Partial<Record<GoJsonValue['kind'], GoJsonKindCount>> = {};
  value.items.slice(keep).forEach((item, position) => {
    const counted = kinds[item.kind];
    kinds[item.kind] = counted === undefined ? { count: 1, index: keep + position, offset: item.offset } : { ...counted, count: counted.count + 1 };
  });
  return { ...value, items, omitted: { count: value.items.length - keep, kinds } };
}

describe('parseGoJsonTree (collapsed duplicate keys, long lists counted)', () => {
  const key = fc.constantFrom('a.b', 'c.d', 'e', '', '__proto__', 'é');
  const scalar = fc.oneof(nameserverText, fc.constant(null), fc.integer(), fc.boolean(), fc.double({ noNaN: true, noDefaultInfinity: true }));
  const { value } = fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 4, arbitrary: scalar },
      { weight: 2, arbitrary: fc.array(tie('value'), { maxLength: 9 }) },
      { weight: 2, arbitrary: fc.array(fc.tuple(key, tie('value')), { maxLength: 6 }).map((members) => ({ members })) },
    ),
  }));
  /** JSON text of a generated value; `{members}` becomes an object that may repeat keys. */
  const render = (v: unknown, spaced: boolean): string => {
    const gap = spaced ? ' ' : '';
    if (Array.isArray(v)) return `[${v.map((item) => render(item, spaced)).join(`,${gap}`)}]`;
    if (v !== null && typeof v === 'object' && 'members' in v) {
      return `{${(v as { members: [string, unknown][] }).members.map(([k, item]) => `${JSON.stringify(k)}:${gap}${render(item, spaced)}`).join(`,${gap}`)}}`;
    }
    return JSON.stringify(v);
  };
  /** A text, sometimes broken by one edit so that the syntax check must fail the same way. */
  const text = fc.tuple(value, fc.boolean(), fc.option(fc.tuple(fc.nat(), fc.constantFrom('', ',', ']', '}', '"', 'x', ' ')), { freq: 4 })).map(([v, spaced, edit]) => {
    const rendered = render(v, spaced);
    if (edit === null) return rendered;
    const at = edit[0] % (rendered.length + 1);
    return `${rendered.slice(0, at)}${edit[1]}${rendered.slice(at + 1)}`;
  });
  const options = fc.record({ collapseDuplicateKeys: fc.boolean(), keepItems: fc.nat(4) }, { requiredKeys: ['collapseDuplicateKeys'] }) as fc.Arbitrary<GoJsonTreeOptions>;

  it('equals the full tree, collapsed and cut, and fails exactly where parseGoJson fails', () => {
    let collapsed = 0;
    let cut = 0;
    let failed = 0;
    fc.assert(
      fc.property(text, options, (source, treeOptions) => {
        const full = parseGoJson(source);
        const lean = parseGoJsonTree(source, treeOptions);
        if (!full.ok) {
          failed += 1;
          expectSame(lean.ok, false);
          if (!lean.ok) expectEqual([lean.error.message, lean.error.position.offset], [full.error.message, full.error.position.offset]);
          return;
        }
        expectSame(lean.ok, true);
        if (!lean.ok) return;
        const expected = expectedTree(full.value, treeOptions);
        expectEqual(lean.value, expected);
        const printed = JSON.stringify(expected);
        if (treeOptions.collapseDuplicateKeys && printed.length < JSON.stringify(full.value).length && /"members"/.test(printed)) collapsed += 1;
        if (printed.includes('"omitted"')) cut += 1;
      }),
      { numRuns: 4000 },
    );
    // Each path must have been taken often enough to mean something.
    expect(collapsed).toBeGreaterThan(100);
    expect(cut).toBeGreaterThan(300);
    expect(failed).toBeGreaterThan(300);
  });

  it('without options is parseGoJson', () => {
    let compared = 0;
    fc.assert(
      fc.property(text, (source) => {
        expectEqual(parseGoJsonTree(source, {}), parseGoJson(source));
        compared += 1;
      }),
      { numRuns: 500 },
    );
    expect(compared).toBe(500);
  });
});
