import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module shared with `npm run api`
import { API_ENTRIES, apiReportPath, extractApiReport, runtimeExportsPath, runtimeExportsReport } from '../../scripts/api-report.mjs';

/**
 * The public API is what api/ records, one pair of files per entry point (package.json `exports`):
 * api-extractor's report of the declarations the built entry (its .d.ts in dist/) exports, and the
 * names its .js exports at run time. A change to either is deliberate and reviewed: `npm run api`
 * rewrites the files, the diff shows the change. Runs on the build (`npm test` builds first).
 */
interface Extracted {
  readonly report: string;
  readonly messages: readonly { readonly id: string; readonly level: string; readonly text: string }[];
  readonly errors: number;
}

interface ApiEntry {
  readonly entry: string;
  readonly module: string;
  readonly report: string;
}

const entries = API_ENTRIES as readonly ApiEntry[];
const UPDATE = 'the public API changed: review the change, then run `npm run api` and commit api/';
/** A floor on each entry's size, so that an empty build cannot pass: declarations, run-time values. */
const FLOORS: Readonly<Record<string, readonly [number, number]>> = {
  'kube-dns-to-coredns': [150, 50],
  'kube-dns-to-coredns/corefile': [30, 10],
  'kube-dns-to-coredns/routing': [40, 10],
  'kube-dns-to-coredns/releases': [25, 15],
  'kube-dns-to-coredns/platform': [20, 10],
};

const extracted = new Map<string, Extracted>();

beforeAll(() => {
  for (const entry of entries) extracted.set(entry.entry, (extractApiReport as (options: { write: boolean; entry: ApiEntry }) => Extracted)({ write: false, entry }));
}, 120_000);

/** The names the report declares: `export <kind> Name`. */
function declaredNames(report: string): string[] {
  return [...report.matchAll(/^export (?:declare )?(?:abstract )?(?:class|const|function|interface|type|enum|namespace) (\w+)/gm)].map((match) => match[1] ?? '');
}

async function runtimeNames(entry: ApiEntry): Promise<string[]> {
  return (await (runtimeExportsReport as (entry: ApiEntry) => Promise<string>)(entry))
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => line.split(' ')[0] ?? '');
}

it('has one entry per package.json export besides package.json itself', () => {
  const manifest = JSON.parse(readFileSync(join(import.meta.dirname, '../../package.json'), 'utf8')) as { exports: Record<string, unknown> };
  const subpaths = Object.keys(manifest.exports).filter((key) => key !== './package.json');
  expect(subpaths.map((key) => (key === '.' ? 'kube-dns-to-coredns' : `kube-dns-to-coredns/${key.slice(2)}`))).toEqual(entries.map((entry) => entry.entry));
});

describe.each(entries.map((entry) => [entry.entry, entry] as const))('the public API of %s', (name, entry) => {
  const result = (): Extracted => extracted.get(name) as Extracted;

  it('exports every type its exported signatures use (no ae-forgotten-export)', () => {
    expect(result().messages.filter((message) => message.id === 'ae-forgotten-export').map((message) => message.text)).toEqual([]);
  });

  it('is analysed without errors', () => {
    expect(result().messages.filter((message) => message.level === 'error').map((message) => message.text)).toEqual([]);
    expect(result().errors).toBe(0);
  });

  it('declares what its report in api/ records', () => {
    expect(declaredNames(result().report).length).toBeGreaterThan(FLOORS[name]?.[0] ?? 0);
    expect(result().report, UPDATE).toBe(readFileSync((apiReportPath as (entry: ApiEntry) => string)(entry), 'utf8'));
  });

  it('exports at run time what its runtime list in api/ records', async () => {
    const runtime = await (runtimeExportsReport as (entry: ApiEntry) => Promise<string>)(entry);
    expect(runtime.split('\n').filter((line) => /^\w+ (function|object|string|number)$/.test(line)).length).toBeGreaterThan(FLOORS[name]?.[1] ?? 0);
    expect(runtime, UPDATE).toBe(readFileSync((runtimeExportsPath as (entry: ApiEntry) => string)(entry), 'utf8'));
  });

  it('has every run-time export in the report, and nothing else besides types', async () => {
    const values = [...result().report.matchAll(/^export (?:declare )?(?:abstract )?(?:class|const|function) (\w+)/gm)].map((match) => match[1]);
    expect([...new Set(values)].sort()).toEqual(await runtimeNames(entry));
  });

  it('is listed in docs/library.md, name by name', () => {
    const library = readFileSync(join(import.meta.dirname, '../../docs/library.md'), 'utf8');
    const names = [...new Set(declaredNames(result().report))];
    expect(names.filter((each) => !new RegExp(`\`${each}\``).test(library))).toEqual([]);
  });
});

it('keeps the main entry small: operations and errors, the models and release facts in their subpaths', async () => {
  const main = await runtimeNames(entries[0] as ApiEntry);
  for (const moved of ['parseCorefile', 'printCorefile', 'coreDnsRouting', 'kubeDnsRouting', 'parseCoreDnsVersion', 'coreDnsPluginAvailability', 'nodeCacheProfile']) expect(main).not.toContain(moved);
  for (const kept of ['translateKubeDns', 'lintCorefile', 'migrateCorefile', 'checkRouting', 'KubeDnsToCoreDnsError', 'CorefileSyntaxError', 'InvalidArgumentError']) expect(main).toContain(kept);
  // Every error class of a subpath is the main entry's too: one `catch` for all.
  for (const entry of entries.slice(1)) {
    const errors = (await runtimeNames(entry)).filter((each) => each.endsWith('Error'));
    expect(errors.filter((each) => !main.includes(each)), entry.entry).toEqual([]);
  }
});
