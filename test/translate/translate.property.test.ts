import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCorefile } from '../../src/corefile/parser.js';
import { parseServerKey } from '../../src/corefile/server-key.js';
import { serverBlocks } from '../../src/corefile/model.js';
import { COREDNS_VERSIONS } from '../../src/coredns/versions.js';
import { translateKubeDns } from '../../src/translate/translate.js';
import { kubeDnsData, kubeDnsInput } from '../support/kube-dns-arbitraries.js';

/** Laws of the default translator over random kube-dns ConfigMaps, hostile strings included. */

const version = fc.constantFrom(...COREDNS_VERSIONS);
const config = kubeDnsInput();
const dataOf = kubeDnsData;

describe('default translator laws', () => {
  it('never throws and never emits a Corefile CoreDNS would refuse to parse', () => {
    fc.assert(
      fc.property(config, version, fc.boolean(), fc.boolean(), (input, coredns, force, dropFederations) => {
        const translation = translateKubeDns(dataOf(input), { coredns, force, dropFederations });
        if (!translation.ok) {
          expect(translation.corefile).toBeUndefined();
          expect(translation.diagnostics.some((entry) => entry.severity === 'error')).toBe(true);
          return;
        }
        const { corefile } = parseCorefile(translation.corefile ?? '');
        for (const block of serverBlocks(corefile)) for (const key of block.keys) parseServerKey(key);
        const forwards = serverBlocks(corefile).flatMap((block) => block.directives).filter((directive) => directive.name === 'forward' || directive.name === 'proxy');
        for (const forward of forwards) expect(forward.arguments.length).toBeGreaterThan(1);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same bytes whatever the order of keys in the JSON', () => {
    fc.assert(
      fc.property(config, version, (input, coredns) => {
        const forwards = translateKubeDns(dataOf(input), { coredns, force: true, dropFederations: true });
        const backwards = translateKubeDns(dataOf(input, true), { coredns, force: true, dropFederations: true });
        expect(backwards.corefile).toBe(forwards.corefile);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses exactly when an error diagnostic is present', () => {
    fc.assert(
      fc.property(config, version, (input, coredns) => {
        const translation = translateKubeDns(dataOf(input), { coredns });
        expect(translation.ok).toBe(!translation.diagnostics.some((entry) => entry.severity === 'error'));
      }),
      { numRuns: 200 },
    );
  });
});
