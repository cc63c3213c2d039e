import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
// @ts-expect-error: a plain .mjs module shared with scripts/update-golden.mjs
import { describeRun, goldenCases } from '../../scripts/golden-cases.mjs';
import { DIAGNOSTIC_CODES } from '../../src/diagnostics/codes.js';
import { memoryIo } from '../support/memory-io.js';

/** Hand-reviewed CLI results in golden/translate (written by scripts/update-golden.mjs). */
const root = join(import.meta.dirname, '../..');
type GoldenCase = { name: string; args: string[]; input: string; expected: string };
const cases = goldenCases(root) as GoldenCase[];

describe('golden CLI results', () => {
  it.each(cases.map((goldenCase) => [goldenCase.name, goldenCase] as const))('%s', async (_, goldenCase) => {
    const io = memoryIo({ readFile: (path) => readFileSync(join(root, path)), listDirectory: (path) => listRealDirectory(join(root, path)) });
    const status = await main([...goldenCase.args, relative(root, goldenCase.input)], io);
    const actual = (describeRun as (status: number, stdout: string, stderr: string) => string)(status, io.out(), io.err().replaceAll(`${root}/`, ''));
    expect(actual).toBe(readFileSync(goldenCase.expected, 'utf8'));
  });

  it('has a case for every kube-dns and translator diagnostic code, named after it, that emits it', () => {
    const names = cases.filter((goldenCase) => goldenCase.name.startsWith('codes/')).map((goldenCase) => goldenCase.name.slice('codes/'.length, -'.yaml'.length));
    const translatorCodes = Object.entries(DIAGNOSTIC_CODES).filter(([, entry]) => entry.area !== 'lint' && entry.area !== 'migrate' && entry.area !== 'platform').map(([code]) => code);
    for (const code of translatorCodes) {
      expect(names, code).toContain(code);
      const expected = readFileSync(join(root, 'golden', 'translate', 'codes', `${code}.expected`), 'utf8');
      expect(expected, code).toMatch(new RegExp(`^(error|warning|info) ${code}[ :]`, 'm'));
    }
  });

  it('has a case for every platform diagnostic code, named after it, that emits it', () => {
    const names = cases.filter((goldenCase) => goldenCase.name.startsWith('platform/codes/')).map((goldenCase) => goldenCase.name.slice('platform/codes/'.length, -'.yaml'.length));
    for (const [code] of Object.entries(DIAGNOSTIC_CODES).filter(([, entry]) => entry.area === 'platform')) {
      expect(names, code).toContain(code);
      const expected = readFileSync(join(root, 'golden', 'platform', 'codes', `${code}.expected`), 'utf8');
      expect(expected, code).toMatch(new RegExp(`(^|: )(error|warning|info) ${code}[ :]`, 'm'));
    }
  });
});

/** A real directory's entries, as the CLI's file system lists them. */
function listRealDirectory(path: string): readonly { readonly name: string; readonly kind: 'file' | 'directory' | 'other' }[] {
  return readdirSync(path).map((name) => {
    const info = statSync(join(path, name), { throwIfNoEntry: false });
    return { name, kind: info === undefined ? 'other' : info.isFile() ? 'file' : info.isDirectory() ? 'directory' : 'other' };
  });
}
