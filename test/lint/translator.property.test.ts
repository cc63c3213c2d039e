import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/diagnostics/diagnostic.js';
import { lintCorefile } from '../../src/lint/index.js';
import { COREDNS_VERSIONS } from '../../src/coredns/versions.js';
import { translateKubeDns } from '../../src/translate/translate.js';
import { anyKubeDnsInput, kubeDnsData } from '../support/kube-dns-arbitraries.js';
import type { KubeDnsInput } from '../support/kube-dns-arbitraries.js';
import { Outcomes } from '../support/outcomes.js';

/**
 * The default translator's outputs as a test subject: whatever kube-dns ConfigMap it accepts, the
 * Corefile it writes must lint clean for the release it targets. The only findings allowed are the
 * ones the translator documents itself:
 * - `destination-hostname` (warning): a hostname nameserver kept for CoreDNS ≥ 1.14.4, which the
 *   translator reports as `hostname-nameserver`;
 * - `resolv-conf-loop-risk` (info): no upstreamNameservers ⇒ `forward . /etc/resolv.conf` beside
 *   `loop`, which the translator reports as `upstream-resolv-conf`;
 * - `option-deprecated` (info): the bare kubernetes `upstream` kept on CoreDNS 1.4.0 as kubeadm did;
 * - `version-caveat` (info): federation on 1.6.3–1.6.9 (built from the external repository), which
 *   the translator reports as `federation-semantics`.
 */
const EXPECTED = new Set(['destination-hostname', 'resolv-conf-loop-risk', 'option-deprecated', 'version-caveat']);

const config = anyKubeDnsInput(17);
const dataOf = (input: KubeDnsInput) => kubeDnsData(input);

describe('the default translator lints clean', () => {
  it('for any ConfigMap it accepts, the Corefile has no error and only the documented findings', () => {
    const outcomes = new Outcomes<'linted' | 'refused' | 'main block gained keys' | 'main block split' | 'documented finding'>();
    fc.assert(
      fc.property(config, fc.constantFrom(...COREDNS_VERSIONS), fc.boolean(), fc.boolean(), fc.option(fc.constantFrom('cluster.local', 'k8s.internal', 'local'), { nil: undefined }), (input, coredns, force, dropFederations, clusterDomain) => {
        const translation = translateKubeDns(dataOf(input), { coredns, force, dropFederations, ...(clusterDomain === undefined ? {} : { clusterDomain }) });
        if (translation.corefile === undefined) {
          outcomes.add('refused');
          return;
        }
        outcomes.add('linted');
        const codes = new Set(translation.diagnostics.map((entry) => entry.code));
        if (codes.has('main-block-key-added')) outcomes.add('main block gained keys');
        if (codes.has('main-block-split')) outcomes.add('main block split');
        const result = lintCorefile(translation.corefile, { coredns });
        if (result.diagnostics.length > 0) outcomes.add('documented finding');
        const unexpected = result.diagnostics.filter((entry) => entry.severity === 'error' || !EXPECTED.has(entry.code));
        expect(unexpected.map(formatDiagnostic), `CoreDNS ${coredns}:\n${translation.corefile}`).toEqual([]);
      }),
      { numRuns: 400 },
    );
    // Expected: about 295 Corefiles linted (about 30 whose main block gained keys, 10 split, 100
    // with a documented finding) and 105 refusals.
    outcomes.expectAtLeast({ linted: 240, refused: 40, 'main block gained keys': 8, 'main block split': 1, 'documented finding': 50 });
  });

  it('lints the documented findings where the translator documents them', () => {
    const plain = translateKubeDns({ stubDomains: '{"acme.local": ["ns.acme.example"]}' }, { coredns: '1.14.7' });
    const codes = lintCorefile(plain.corefile ?? '', { coredns: '1.14.7' }).diagnostics.map((entry) => entry.code);
    expect(codes).toEqual(['resolv-conf-loop-risk', 'destination-hostname']);
  });
});
