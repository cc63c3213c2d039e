import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module shared with `npm run api`
import { API_REPORT_PATH, extractApiReport, RUNTIME_EXPORTS_PATH, runtimeExportsReport } from '../../scripts/api-report.mjs';

/**
 * The public API is what api/ records: api-extractor's report of the declarations the built entry
 * point (dist/index.d.ts) exports, and the names dist/index.js exports at run time. A change to
 * either is deliberate and reviewed: `npm run api` rewrites the files, the diff shows the change.
 * Runs on the build (`npm test` builds first).
 */
interface Extracted {
  readonly report: string;
  readonly messages: readonly { readonly id: string; readonly level: string; readonly text: string }[];
  readonly errors: number;
}

const UPDATE = 'the public API changed: review the change, then run `npm run api` and commit api/';

let extracted: Extracted;

beforeAll(() => {
  extracted = (extractApiReport as (options: { write: boolean }) => Extracted)({ write: false });
}, 60_000);

/** The names the report declares: `export <kind> Name`. */
function declaredNames(report: string): string[] {
  return [...report.matchAll(/^export (?:declare )?(?:abstract )?(?:class|const|function|interface|type|enum|namespace) (\w+)/gm)].map((match) => match[1] ?? '');
}

describe('the public API', () => {
  it('exports every type its exported signatures use (no ae-forgotten-export)', () => {
    expect(extracted.messages.filter((message) => message.id === 'ae-forgotten-export').map((message) => message.text)).toEqual([]);
  });

  it('is analysed without errors', () => {
    expect(extracted.messages.filter((message) => message.level === 'error').map((message) => message.text)).toEqual([]);
    expect(extracted.errors).toBe(0);
  });

  it('declares what api/kube-dns-to-coredns.api.md records', () => {
    expect(declaredNames(extracted.report).length).toBeGreaterThan(100);
    expect(extracted.report, UPDATE).toBe(readFileSync(API_REPORT_PATH as string, 'utf8'));
  });

  it('exports at run time what api/kube-dns-to-coredns.runtime.txt records', async () => {
    const runtime = await (runtimeExportsReport as () => Promise<string>)();
    expect(runtime.split('\n').filter((line) => /^\w+ (function|object|string|number)$/.test(line)).length).toBeGreaterThan(50);
    expect(runtime, UPDATE).toBe(readFileSync(RUNTIME_EXPORTS_PATH as string, 'utf8'));
  });

  it('has every run-time export in the report, and nothing else besides types', async () => {
    const runtime = (await (runtimeExportsReport as () => Promise<string>)())
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map((line) => line.split(' ')[0]);
    const values = [...extracted.report.matchAll(/^export (?:declare )?(?:abstract )?(?:class|const|function) (\w+)/gm)].map((match) => match[1]);
    expect([...new Set(values)].sort()).toEqual(runtime);
  });

  it('is listed in docs/library.md, name by name', () => {
    const library = readFileSync(join(import.meta.dirname, '../../docs/library.md'), 'utf8');
    const names = [...new Set(declaredNames(extracted.report))];
    expect(names.filter((name) => !new RegExp(`\`${name}\``).test(library))).toEqual([]);
  });
});
