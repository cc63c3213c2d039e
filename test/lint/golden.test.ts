import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runLint } from '../../src/cli/commands/lint.js';
import { DIAGNOSTIC_CODES } from '../../src/diagnostics/codes.js';
// @ts-expect-error: a plain .mjs module shared with scripts/update-golden.mjs
import { describeRun } from '../../scripts/golden-cases.mjs';
import { memoryIo } from '../support/memory-io.js';

/**
 * One hand-reviewed case per lint code: golden/lint/<code>.Corefile (first line `# coredns: X`
 * when not linted against the newest release) and the exact CLI run in <code>.expected.
 * `UPDATE_LINT_GOLDEN=1 npx vitest run test/lint/golden.test.ts` rewrites the .expected files;
 * review the diff before keeping it.
 */
const root = join(import.meta.dirname, '../..');
const directory = join(root, 'golden', 'lint');
const update = process.env['UPDATE_LINT_GOLDEN'] === '1';
const files = readdirSync(directory).filter((name) => name.endsWith('.Corefile')).sort();
const lintCodes = Object.entries(DIAGNOSTIC_CODES).filter(([, entry]) => entry.area === 'lint').map(([code]) => code);

/** The CLI arguments of a golden case. */
export function goldenLintArgs(text: string, path: string): string[] {
  const version = /^# coredns: (\S+)/.exec(text)?.[1];
  return version === undefined ? [path] : ['--coredns', version, path];
}

async function run(file: string): Promise<string> {
  const path = `golden/lint/${file}`;
  const text = readFileSync(join(root, path), 'utf8');
  const io = memoryIo({ files: { [path]: text } });
  const status = await runLint(goldenLintArgs(text, path), io);
  return (describeRun as (status: number, stdout: string, stderr: string) => string)(status, io.out(), io.err());
}

describe('golden lint cases', () => {
  it.each(files)('%s', async (file) => {
    const actual = await run(file);
    const expectedPath = join(directory, file.replace(/\.Corefile$/, '.expected'));
    if (update) writeFileSync(expectedPath, actual);
    expect(actual).toBe(readFileSync(expectedPath, 'utf8'));
  });

  it('has a case for every lint code, named after it, that emits it with its registered severity', () => {
    const names = files.map((file) => file.slice(0, -'.Corefile'.length));
    for (const code of lintCodes) {
      expect(names, code).toContain(code);
      const expected = readFileSync(join(directory, `${code}.expected`), 'utf8');
      const severity = DIAGNOSTIC_CODES[code as keyof typeof DIAGNOSTIC_CODES].severity;
      expect(expected, code).toMatch(new RegExp(`^${severity} ${code} `, 'm'));
    }
    // …and no case for a code that does not exist.
    for (const name of names) expect(lintCodes, name).toContain(name);
  });
});
