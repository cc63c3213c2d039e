import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCorefile } from '../../src/corefile/parser.js';
import { parseServerKey } from '../../src/corefile/server-key.js';
import { serverBlocks } from '../../src/corefile/model.js';
import { COREDNS_VERSIONS } from '../../src/coredns/versions.js';
import { translateKubeDns } from '../../src/translate/translate.js';
import type { TranslationResult } from '../../src/translate/translate.js';
import { anyKubeDnsInput, kubeDnsData } from '../support/kube-dns-arbitraries.js';
import { Outcomes } from '../support/outcomes.js';

/**
 * Laws of the default translator over random kube-dns ConfigMaps: mostly ones kube-dns accepts (so
 * that most runs check a Corefile), hostile strings included. Each law counts its outcomes and
 * asserts floors, so that it cannot pass on refusals alone.
 */

const version = fc.constantFrom(...COREDNS_VERSIONS);
const config = anyKubeDnsInput();
const dataOf = kubeDnsData;

/** Whether kube-dns itself rejected the ConfigMap (the translator then refuses unless forced). */
function rejectedByKubeDns(translation: TranslationResult): boolean {
  return translation.diagnostics.some((entry) => entry.code === 'kube-dns-would-ignore' || entry.code === 'json-syntax' || entry.code === 'json-type' || entry.code === 'federations-format');
}

describe('default translator laws', () => {
  it('never throws and never emits a Corefile CoreDNS would refuse to parse', () => {
    const outcomes = new Outcomes<'corefile' | 'refused, kube-dns rejected it' | 'refused, kube-dns accepted it' | 'main block gained keys' | 'federation kept' | 'stub inside the cluster domain'>();
    fc.assert(
      fc.property(config, version, fc.boolean(), fc.boolean(), (input, coredns, force, dropFederations) => {
        const translation = translateKubeDns(dataOf(input), { coredns, force, dropFederations });
        if (!translation.ok) {
          outcomes.add(rejectedByKubeDns(translation) ? 'refused, kube-dns rejected it' : 'refused, kube-dns accepted it');
          expect(translation.corefile).toBeUndefined();
          expect(translation.diagnostics.some((entry) => entry.severity === 'error')).toBe(true);
          return;
        }
        outcomes.add('corefile');
        const codes = new Set(translation.diagnostics.map((entry) => entry.code));
        if (codes.has('main-block-key-added')) outcomes.add('main block gained keys');
        if (codes.has('federation-semantics')) outcomes.add('federation kept');
        if (codes.has('stub-under-cluster-domain')) outcomes.add('stub inside the cluster domain');
        const { corefile } = parseCorefile(translation.corefile ?? '');
        for (const block of serverBlocks(corefile)) for (const key of block.keys) parseServerKey(key);
        const forwards = serverBlocks(corefile).flatMap((block) => block.directives).filter((directive) => directive.name === 'forward' || directive.name === 'proxy');
        for (const forward of forwards) expect(forward.arguments.length).toBeGreaterThan(1);
      }),
      { numRuns: 300 },
    );
    // Expected: about 225 Corefiles (about 20 each with a main block that gained keys, a federation,
    // a stub inside the cluster domain), 50 refusals of what kube-dns accepted, 25 of what it
    // rejected. Each floor is far enough below to fail only when the generator changes.
    outcomes.expectAtLeast({
      corefile: 180,
      'refused, kube-dns rejected it': 5,
      'refused, kube-dns accepted it': 15,
      'main block gained keys': 3,
      'federation kept': 3,
      'stub inside the cluster domain': 3,
    });
  });

  it('gives the same bytes whatever the order of keys in the JSON', () => {
    const outcomes = new Outcomes<'same Corefile' | 'both refused' | 'several stubs reordered'>();
    fc.assert(
      fc.property(config, version, (input, coredns) => {
        const forwards = translateKubeDns(dataOf(input), { coredns, force: true, dropFederations: true });
        const backwards = translateKubeDns(dataOf(input, true), { coredns, force: true, dropFederations: true });
        expect(backwards.corefile).toBe(forwards.corefile);
        outcomes.add(forwards.corefile === undefined ? 'both refused' : 'same Corefile');
        if (forwards.corefile !== undefined && new Set(input.stubs.map(([domain]) => domain)).size >= 2) outcomes.add('several stubs reordered');
      }),
      { numRuns: 200 },
    );
    // Expected: about 160 comparisons of real Corefiles (120 with stubs to reorder), 35 of refusals.
    outcomes.expectAtLeast({ 'same Corefile': 130, 'several stubs reordered': 80, 'both refused': 10 });
  });

  it('refuses exactly when an error diagnostic is present', () => {
    const outcomes = new Outcomes<'corefile' | 'refused'>();
    fc.assert(
      fc.property(config, version, (input, coredns) => {
        const translation = translateKubeDns(dataOf(input), { coredns });
        expect(translation.ok).toBe(!translation.diagnostics.some((entry) => entry.severity === 'error'));
        outcomes.add(translation.ok ? 'corefile' : 'refused');
      }),
      { numRuns: 200 },
    );
    // Expected: about 140 Corefiles and 60 refusals.
    outcomes.expectAtLeast({ corefile: 105, refused: 25 });
  });
});
