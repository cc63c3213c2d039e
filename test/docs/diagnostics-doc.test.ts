import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { DIAGNOSTIC_CODES } from '../../src/diagnostics/codes.js';
// @ts-expect-error: a plain .mjs module shared with the doc generator
import { renderDiagnosticsDoc } from '../../scripts/diagnostics-doc.mjs';

it('docs/diagnostics.md lists every code with its golden example (run `node scripts/diagnostics-doc.mjs --write`)', () => {
  const current = readFileSync(join(import.meta.dirname, '../../docs/diagnostics.md'), 'utf8');
  expect(current).toBe((renderDiagnosticsDoc as (codes: typeof DIAGNOSTIC_CODES) => string)(DIAGNOSTIC_CODES));
});
