import { describe, expect, it } from 'vitest';
import { lintCorefile } from '../../src/lint/lint.js';
import { migrateCorefile } from '../../src/migrate/migrate-corefile.js';
import { COREFILE_MIGRATION_CASES } from './corefile-migration-cases.js';

describe("corefile-migration's own migrate cases", () => {
  it.each(COREFILE_MIGRATION_CASES.map((reference) => [reference.title, reference] as const))('%s', (_title, reference) => {
    const result = migrateCorefile(reference.start, { from: reference.from, to: reference.to, deprecations: reference.deprecations });
    if (reference.ours?.refused !== undefined) {
      expect(result.ok).toBe(false);
      expect(result.notices.map((notice) => notice.code)).toContain(reference.ours.refused);
      // A refusal for a start that does not start either: the real releases agree (test/lint/real-coredns.test.ts).
      if (reference.ours.refused === 'migrate-target-refuses') {
        expect(lintCorefile(reference.start, { coredns: reference.from }).diagnostics.some((entry) => entry.severity === 'error')).toBe(true);
      }
      return;
    }
    expect(result.ok).toBe(true);
    expect(result.corefile).toBe(reference.ours?.corefile ?? reference.reference);
  });

  it('agrees with the reference except where a reason is recorded', () => {
    const differing = COREFILE_MIGRATION_CASES.filter((reference) => reference.ours !== undefined);
    expect(differing.every((reference) => reference.ours?.reason !== undefined && reference.ours.reason.length > 20)).toBe(true);
    expect(COREFILE_MIGRATION_CASES.length - differing.length).toBeGreaterThanOrEqual(10);
  });
});
