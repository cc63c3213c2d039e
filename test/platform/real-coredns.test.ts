import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readConfigMap } from '../../src/configmap/read-configmap.js';
import { CorefileSyntaxError } from '../../src/corefile/errors.js';
import { parseCorefile } from '../../src/corefile/parser.js';
import { PLATFORM_BASES } from '../../src/platform/bases.js';
import type { PlatformName } from '../../src/platform/bases.js';
import { lintOverlay } from '../../src/platform/overlay-lint.js';
import { readHelmValues, renderHelmValues } from '../../src/platform/helm-values.js';
import { lintCorefile } from '../../src/lint/lint.js';
import { NotLoopbackSafeError, REAL_COREDNS_RELEASES, SAFE_PLUGINS, realCoreDnsSkip, useRealCoreDnsLab } from '../support/real-coredns.js';
import type { RealCoreDnsRelease } from '../support/real-coredns.js';

/**
 * Every golden overlay (golden/platform) that `lint --platform` calls clean composes into a
 * Corefile the real CoreDNS starts; every one it refuses with an overlay error CoreDNS stops at is
 * refused by the real program too (or, for a text that does not parse, by the Corefile parser,
 * which reads as CoreDNS's does). Skipped with a message when KUBE_DNS_TO_COREDNS_COREDNS_DIR is unset.
 */
const skip = realCoreDnsSkip('test/platform/real-coredns.test.ts');

const root = join(import.meta.dirname, '../../golden/platform');
/** Overlay errors that stop CoreDNS (the others, like zone-captures-kubernetes, are about answers). */
const STOPS = new Set(['overlay-syntax-error', 'overlay-key-folded', 'overlay-override-refused', 'overlay-zone-redefined', 'plugin-repeated', 'forward-once-per-block', 'zone-served-twice']);

interface Case {
  readonly name: string;
  readonly platform: PlatformName;
  readonly coredns: RealCoreDnsRelease;
  readonly text: string;
}

function lintCases(): Case[] {
  const files = readdirSync(root, { recursive: true }).map(String).filter((file) => file.endsWith('.yaml')).sort();
  return files.flatMap((file) => {
    const text = readFileSync(join(root, file), 'utf8');
    const options = /^# options: lint --platform (\S+)(?: --coredns (\S+))?$/m.exec(text);
    if (options === null) return [];
    const coredns = (options[2] ?? '1.14.7') as RealCoreDnsRelease;
    if (!REAL_COREDNS_RELEASES.includes(coredns)) return [];
    return [{ name: file, platform: options[1] as PlatformName, coredns, text }];
  });
}

describe.skipIf(skip !== undefined)('composed golden overlays against real CoreDNS', () => {
  const lab = useRealCoreDnsLab({ concurrency: 4 });

  it('starts what lint calls clean and refuses what lint says CoreDNS stops at', async () => {
    const cases = lintCases();
    expect(cases.length).toBeGreaterThanOrEqual(15);
    const results = await Promise.all(
      cases.map(async (entry) => {
        const base = PLATFORM_BASES[entry.platform];
        const result = lintOverlay({ ...base, corefile: base.corefile() }, readConfigMap(entry.text).data, { coredns: entry.coredns, text: entry.text });
        const stops = result.diagnostics.some((finding) => finding.severity === 'error' && STOPS.has(finding.code));
        let parses = true;
        try {
          parseCorefile(result.composition.text);
        } catch (error) {
          if (!(error instanceof CorefileSyntaxError)) throw error;
          parses = false;
        }
        // A plugin the loopback lab cannot keep on the machine (file reads a zone file that is not there) is not started.
        const startable = parses && !/^\s*file\s/m.test(result.composition.text);
        let verdict;
        try {
          verdict = startable ? await lab().start(result.composition.text, entry.coredns) : undefined;
        } catch (error) {
          // Options the lab does not know to keep on loopback (rewrite's name regex): not started.
          if (!(error instanceof NotLoopbackSafeError)) throw error;
        }
        return { entry, ok: result.ok, stops, parses, verdict };
      }),
    );
    const disagreements = results.flatMap(({ entry, ok, stops, parses, verdict }) => {
      if (verdict === undefined) return !parses && !stops ? [`${entry.name}: does not parse, but lint has no error CoreDNS stops at`] : [];
      if (ok && !verdict.accepted) return [`${entry.name}: lint clean, CoreDNS ${entry.coredns} refuses: ${'reason' in verdict ? verdict.reason : ''}`];
      if (stops && verdict.accepted) return [`${entry.name}: lint says CoreDNS stops, CoreDNS ${entry.coredns} starts`];
      return [];
    });
    expect(disagreements).toEqual([]);
    const started = results.filter(({ verdict }) => verdict !== undefined);
    expect(started.filter(({ verdict }) => verdict?.accepted === true).length).toBeGreaterThanOrEqual(8);
    expect(started.filter(({ verdict }) => verdict?.accepted === false).length).toBeGreaterThanOrEqual(3);
    // The AKS base's templates are started with every AKS case.
    expect(SAFE_PLUGINS.has('template')).toBe(true);
  }, 120_000);

  it('starts the Corefile the Helm chart renders from values lint calls clean, and refuses the ones it says CoreDNS stops at', async () => {
    const files = readdirSync(root, { recursive: true }).map(String).filter((file) => file.endsWith('.yaml') && /^# options: lint(?: --coredns 1\.13\.1)?$/m.test(readFileSync(join(root, file), 'utf8'))).sort();
    const cases = files.flatMap((file) => {
      const values = readHelmValues(readFileSync(join(root, file), 'utf8'));
      return values === undefined ? [] : [{ file, rendered: renderHelmValues(values) }];
    });
    expect(cases.length).toBeGreaterThanOrEqual(5);
    const results = await Promise.all(
      cases.map(async ({ file, rendered }) => {
        const corefile = rendered.corefile ?? '';
        const lint = lintCorefile(corefile);
        const findings = [...rendered.diagnostics, ...lint.diagnostics];
        const stops = findings.some((finding) => finding.severity === 'error' && ['helm-port-missing', 'helm-value-breaks-corefile', 'helm-value-printed-otherwise', 'invalid-server-key', 'argument-invalid'].includes(finding.code));
        const clean = !findings.some((finding) => finding.severity === 'error');
        return { file, stops, clean, verdict: await lab().start(corefile, '1.14.7') };
      }),
    );
    expect(results.filter(({ clean, verdict }) => clean && !verdict.accepted).map(({ file, verdict }) => `${file}: ${'reason' in verdict ? verdict.reason : ''}`)).toEqual([]);
    expect(results.filter(({ stops, verdict }) => stops && verdict.accepted).map(({ file }) => file)).toEqual([]);
    expect(results.filter(({ verdict }) => !verdict.accepted).length).toBeGreaterThanOrEqual(2);
  }, 120_000);
});
