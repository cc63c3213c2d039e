import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DIAGNOSTIC_CODES } from '../../src/diagnostics/codes.js';

/**
 * One hand-reviewed case per lint code: golden/lint/<code>.Corefile (first line `# coredns: X`
 * when not linted against the newest release) and the exact CLI run in <code>.expected. The runs
 * are compared with the other golden CLI cases (test/cli/golden.test.ts); after a deliberate
 * change, scripts/update-golden.mjs rewrites them for review.
 */
const directory = join(import.meta.dirname, '../../golden/lint');
const names = readdirSync(directory)
  .filter((name) => name.endsWith('.Corefile'))
  .map((file) => file.slice(0, -'.Corefile'.length));
const lintCodes = Object.entries(DIAGNOSTIC_CODES)
  .filter(([, entry]) => entry.area === 'lint')
  .map(([code]) => code);

describe('golden lint cases', () => {
  it('has a case for every lint code, named after it, that emits it with its registered severity', () => {
    for (const code of lintCodes) {
      expect(names, code).toContain(code);
      const expected = readFileSync(join(directory, `${code}.expected`), 'utf8');
      const severity = DIAGNOSTIC_CODES[code as keyof typeof DIAGNOSTIC_CODES].severity;
      expect(expected, code).toMatch(new RegExp(`^${severity} ${code} `, 'm'));
    }
  });

  it('has no case for a code that does not exist', () => {
    for (const name of names) expect(lintCodes, name).toContain(name);
  });
});
