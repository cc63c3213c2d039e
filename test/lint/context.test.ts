import { describe, expect, it } from 'vitest';
import { lintCorefile } from '../../src/lint/lint.js';
import { FINDINGS_LISTED_PER_CODE } from '../../src/lint/context.js';

/** A main block with `count` copies of `line`. */
function repeated(line: string, count: number): string {
  return `.:53 {\n    errors\n${`    ${line}\n`.repeat(count)}}\n`;
}

describe('findings per code', () => {
  it('lists the first ones of a code and counts the rest in one finding with their worst severity', () => {
    const result = lintCorefile(repeated('whoamii', FINDINGS_LISTED_PER_CODE + 5));
    const codes = result.diagnostics.map((entry) => entry.code);
    expect(codes.filter((code) => code === 'unknown-directive')).toHaveLength(FINDINGS_LISTED_PER_CODE);
    expect(result.diagnostics.at(-1)).toMatchObject({ code: 'findings-not-listed', severity: 'error', message: expect.stringMatching(/^5 more unknown-directive findings are not listed \(1,005 in all/) });
    expect(result.ok).toBe(false);
  });

  it('lists everything up to the limit', () => {
    const result = lintCorefile(repeated('whoamii', FINDINGS_LISTED_PER_CODE));
    expect(result.diagnostics.map((entry) => entry.code)).toEqual(Array(FINDINGS_LISTED_PER_CODE).fill('unknown-directive'));
  });
});
