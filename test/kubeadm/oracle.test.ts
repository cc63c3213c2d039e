import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { translateLikeKubeadm } from '../../src/kubeadm/kubeadm-translation.js';
import type { KubeadmResult } from '../../src/kubeadm/kubeadm-translation.js';
import { KUBEADM_PROFILE_IDS, KUBEADM_PROFILES } from '../../src/kubeadm/profiles.js';
import { expectEqual } from '../support/hot-expect.js';

/**
 * The reference corpus: kubeadm's own outputs for 2037 inputs per profile
 * (golden/kubeadm-oracle; docs/reference/kubeadm-translation.md §14). Every case must agree exactly.
 */
const oracle = join(import.meta.dirname, '../../golden/kubeadm-oracle');

interface OracleCase {
  readonly id: string;
  readonly data: Record<string, string> | null;
  readonly dnsDomain: string;
}

function readJsonLines<T>(path: string): T[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as T);
}

const cases = readJsonLines<OracleCase>(join(oracle, 'cases.jsonl'));

function asExpected(outcome: KubeadmResult): Record<string, unknown> {
  const warnings = outcome.warnings.length > 0 ? { warnings: outcome.warnings } : {};
  return outcome.ok
    ? { ok: true, corefile: outcome.corefile, ...warnings }
    : { ok: false, stage: outcome.stage, error: outcome.error, ...warnings };
}

describe.each(KUBEADM_PROFILE_IDS)('kubeadm profile %s against the reference corpus', (profileId) => {
  const expected = readJsonLines<Record<string, unknown> & { id: string }>(join(oracle, 'expected', `${profileId}.jsonl`));
  const profile = KUBEADM_PROFILES[profileId];

  it('has one expected line per case, in the same order', () => {
    expect(expected.map((line) => line.id)).toEqual(cases.map((oracleCase) => oracleCase.id));
  });

  it('agrees on every case', () => {
    const disagreements: string[] = [];
    cases.forEach((oracleCase, index) => {
      const { id, ...want } = expected[index] ?? { id: '' };
      const got = asExpected(translateLikeKubeadm(profile, oracleCase.data, oracleCase.dnsDomain));
      try {
        expectEqual(got, want);
      } catch {
        disagreements.push(`${id}: want ${JSON.stringify(want)}\n      got  ${JSON.stringify(got)}`);
      }
    });
    expect(disagreements.slice(0, 5).join('\n'), `${disagreements.length} of ${cases.length} cases disagree`).toBe('');
  });
});
