import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { goTypeName } from '../../src/kubedns/go-json.js';
import type { GoJsonResult } from '../../src/kubedns/go-json.js';
import {
  decodeFederations,
  decodeStubDomains,
  decodeUpstreamNameservers,
  FEDERATIONS_TYPE,
  STUB_DOMAINS_TYPE,
  UPSTREAM_NAMESERVERS_TYPE,
} from '../../src/kubedns/kube-dns-values.js';

/**
 * The three kube-dns values decoded like kubeadm: into the Go types kubeadm declared, and with
 * exactly kubeadm's results on its reference corpus. Go's decoding itself is tested in
 * go-json.test.ts.
 */

/** The value of a result that must have succeeded. */
function valueOf<T>(r: GoJsonResult<T>): T {
  if (!r.ok) throw new Error(`expected a value, got error: ${r.error.message}`);
  return r.value;
}

type Decoder = (text: string) => GoJsonResult<unknown>;

describe('the Go types of the kube-dns values', () => {
  it('are the ones kubeadm decoded into', () => {
    expect(goTypeName(STUB_DOMAINS_TYPE)).toBe('map[string][]string');
    expect(goTypeName(UPSTREAM_NAMESERVERS_TYPE)).toBe('[]string');
    expect(goTypeName(FEDERATIONS_TYPE)).toBe('map[string]string');
  });

  it.each([
    ['stubDomains', decodeStubDomains, 'map[string][]string'],
    ['upstreamNameservers', decodeUpstreamNameservers, '[]string'],
    ['federations', decodeFederations, 'map[string]string'],
  ] as const)('%s: a value of the wrong kind names %s', (_key, decode: Decoder, type) => {
    const result = decode('true');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toBe(`json: cannot unmarshal bool into Go value of type ${type}`);
  });

  it('decode to Maps in first-appearance order, arrays, and null for Go nil', () => {
    expect([...(valueOf(decodeStubDomains('{"b.com": ["1.1.1.1"], "a.com": null, "b.com": ["2.2.2.2", null]}')) ?? [])]).toEqual([
      ['b.com', ['2.2.2.2', '']],
      ['a.com', null],
    ]);
    expect(valueOf(decodeStubDomains('null'))).toBeNull();
    expect(valueOf(decodeUpstreamNameservers('["8.8.8.8", null]'))).toEqual(['8.8.8.8', '']);
    expect(valueOf(decodeUpstreamNameservers('null'))).toBeNull();
    expect([...(valueOf(decodeFederations('{"corp": "corp.example.com", "x": null}')) ?? [])]).toEqual([
      ['corp', 'corp.example.com'],
      ['x', ''],
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// the kubeadm reference corpus
// ---------------------------------------------------------------------------------------------

const ORACLE = join(import.meta.dirname, '../../golden/kubeadm-oracle');
const PROFILES = ['v1.10', 'v1.11', 'v1.12', 'v1.14', 'v1.15', 'v1.16', 'v1.17', 'v1.19'] as const;

interface Case {
  readonly id: string;
  readonly data: Record<string, string> | null;
}
interface Expected {
  readonly id: string;
  readonly ok: boolean;
  readonly stage?: string;
  readonly error?: string;
  readonly corefile?: string;
}

function readJsonl<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);
}

const PREFIX_QUOTED = "failed to parse JSON from 'kube-dns ConfigMap: ";
const PREFIX_FED = 'failed to parse JSON from kube-dns ConfigMap: ';

/** kubeadm's decode order; the first failing key's error is what kubeadm reports. */
function firstJsonError(data: Record<string, string> | null, withFederations: boolean): string | undefined {
  const d = data ?? {};
  const steps: [string, Decoder, string][] = [
    ['stubDomains', decodeStubDomains, PREFIX_QUOTED],
    ['upstreamNameservers', decodeUpstreamNameservers, PREFIX_QUOTED],
  ];
  if (withFederations) steps.push(['federations', decodeFederations, PREFIX_FED]);
  for (const [key, decode, prefix] of steps) {
    const text = d[key];
    if (!Object.hasOwn(d, key) || text === undefined) continue;
    const r = decode(text);
    if (!r.ok) return prefix + r.error.message;
  }
  return undefined;
}

describe('kubeadm reference corpus', () => {
  const cases = readJsonl<Case>(`${ORACLE}/cases.jsonl`);
  const load = (p: string): Expected[] => {
    const ex = readJsonl<Expected>(`${ORACLE}/expected/${p}.jsonl`);
    expect(ex.map((e) => e.id)).toEqual(cases.map((c) => c.id));
    return ex;
  };

  it('v1.10: every translate error is our JSON error of the first failing key, and nothing else fails', () => {
    const expected = load('v1.10');
    let translateErrors = 0;
    let typeErrors = 0;
    const mismatches: string[] = [];
    cases.forEach((c, k) => {
      const e = expected[k];
      if (e === undefined) throw new Error('missing line');
      const want = !e.ok && e.stage === 'translate' ? e.error : undefined;
      if (want !== undefined) {
        translateErrors++;
        if (want.includes('json: cannot unmarshal')) typeErrors++;
      }
      const got = firstJsonError(c.data, true);
      if (got !== want) mismatches.push(`${c.id}: got ${String(got)}, want ${String(want)}`);
    });
    expect(mismatches).toEqual([]);
    expect(cases.length).toBe(2037);
    expect(translateErrors).toBe(190);
    expect(typeErrors).toBe(62);
  });

  it('all profiles: every JSON error kubeadm reports is reproduced (v1.19 skips federations)', () => {
    let checked = 0;
    for (const p of PROFILES) {
      const expected = load(p);
      cases.forEach((c, k) => {
        const e = expected[k];
        if (e?.ok !== false || e.stage !== 'translate' || e.error === undefined) return;
        if (!e.error.startsWith('failed to parse JSON from ')) return;
        checked++;
        expect(`${c.id} ${String(firstJsonError(c.data, p !== 'v1.19'))}`).toBe(`${c.id} ${e.error}`);
      });
    }
    expect(checked).toBe(190 * 4 + 134 * 3 + 96);
  });

  it('v1.10 Corefiles: stub keys in first-appearance order, upstream list and federation lines as decoded', () => {
    const expected = load('v1.10');
    let stubChecked = 0;
    let upstreamChecked = 0;
    let fedChecked = 0;
    const plain = (s: string): boolean => !/[\s"\u0000-\u001f\u0085\u2028\u2029]/.test(s);
    cases.forEach((c, k) => {
      const e = expected[k];
      if (e?.ok !== true || e.corefile === undefined) return;
      const cf = e.corefile;
      const d = c.data ?? {};
      if (d.stubDomains !== undefined) {
        const keys = [...(valueOf(decodeStubDomains(d.stubDomains)) ?? new Map<string, unknown>()).keys()];
        if (keys.every(plain)) {
          const afterRoot = cf.slice(cf.indexOf('\n}\n') + 3);
          const heads = afterRoot
            .split('\n')
            .filter((l) => l.endsWith(':53 {'))
            .map((l) => l.slice(0, -':53 {'.length));
          expect(heads, c.id).toEqual(keys);
          stubChecked++;
        }
      }
      if (d.upstreamNameservers !== undefined) {
        const list = valueOf(decodeUpstreamNameservers(d.upstreamNameservers)) ?? [];
        if (list.every(plain)) {
          expect(cf, c.id).toContain(`    proxy . ${list.join(' ')}\n`);
          upstreamChecked++;
        }
      }
      if (d.federations !== undefined) {
        const fed = valueOf(decodeFederations(d.federations)) ?? new Map<string, string>();
        if ([...fed].every(([a, b]) => plain(a) && plain(b))) {
          const start = cf.indexOf('    federation ');
          const block = cf.slice(cf.indexOf('\n', start) + 1, cf.indexOf('\n    }\n', start) + 1);
          expect(block, c.id).toBe([...fed].map(([a, b]) => `       ${a} ${b}\n`).join(''));
          fedChecked++;
        }
      }
    });
    expect(stubChecked).toBeGreaterThan(1000);
    expect(upstreamChecked).toBeGreaterThan(800);
    expect(fedChecked).toBeGreaterThan(100);
  });
});
