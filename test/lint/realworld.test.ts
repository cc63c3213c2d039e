import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as library from '../../src/index.js';
// @ts-expect-error: a plain .mjs module shared with scripts/update-golden.mjs
import { REALWORLD_LINT_VERSIONS, realworldLintReport, realworldLintReportPath } from '../../scripts/golden-cases.mjs';

/**
 * Every real-world Corefile (golden/realworld/corefiles) linted against three releases: 1.2.6
 * (Kubernetes 1.13, proxy era), 1.6.7 (Kubernetes 1.18, last with federation and upstream) and
 * the newest. The findings are kept in reviewed golden files (golden/lint/realworld/coredns-X.txt)
 * rather than inline snapshots: they are long, they are read by people checking the linter's
 * judgement file by file, and a diff of them shows exactly which finding a change adds or removes.
 * scripts/update-golden.mjs rewrites them after a deliberate change.
 */
const root = join(import.meta.dirname, '../..');
const versions = REALWORLD_LINT_VERSIONS as string[];
const report = realworldLintReport as (root: string, version: string, library: unknown) => string;
const reportPath = realworldLintReportPath as (root: string, version: string) => string;

describe('real-world Corefiles', () => {
  it.each(versions)('lint against CoreDNS %s as reviewed', (version) => {
    expect(report(root, version, library)).toBe(readFileSync(reportPath(root, version), 'utf8'));
  });
});
