import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/diagnostics/diagnostic.js';
import { PLATFORM_BASES } from '../../src/platform/bases.js';
import type { PlatformName } from '../../src/platform/bases.js';
import { composeOverlay } from '../../src/platform/compose.js';
import { lintOverlay } from '../../src/platform/overlay-lint.js';
import { overlayFromTranslation } from '../../src/platform/overlay-translate.js';
import { checkRouting, formatRoutingCheck } from '../../src/routing/check.js';
import { translateKubeDns } from '../../src/translate/translate.js';
import { kubeDnsData, validKubeDnsInput } from '../support/kube-dns-arbitraries.js';
import { Outcomes } from '../support/outcomes.js';

/** Names the AKS base answers itself: compared too. */
const AKS_NAMES = ['a.b.c.d.vm.internal.cloudapp.net', 'vm.internal.cloudapp.net', 'x.reddog.microsoft.com', 'reddog.microsoft.com'];

function overlayFor(platform: PlatformName, data: Record<string, string>, coredns = '1.14.7') {
  const translation = translateKubeDns(data, { coredns, dropFederations: true });
  if (!translation.ok || translation.corefile === undefined) return undefined;
  const base = PLATFORM_BASES[platform];
  const overlay = overlayFromTranslation(translation.corefile, base, { coredns });
  return { overlay, composed: composeOverlay(base.corefile(), overlay.data), base };
}

describe('overlayFromTranslation', () => {
  it('writes stub domains as .server keys and the upstream as an override where the base lets it work (k3s)', () => {
    const result = overlayFor('k3s', { stubDomains: '{"acme.local": ["10.0.0.1"]}', upstreamNameservers: '["8.8.8.8"]' });
    expect(Object.keys(result?.overlay.data ?? {})).toEqual(['acme.local.server', 'kube-dns.override']);
    expect(result?.overlay.data['kube-dns.override']).toBe('forward . 8.8.8.8 {\n    max_concurrent 1000\n}\n');
    expect(result?.overlay.ok).toBe(true);
    expect(result?.overlay.diagnostics.map(formatDiagnostic)).toEqual([
      "warning platform-base-must-change coredns-custom: the translation caches with 'cache 30 { disable denial }', the k3s base with 'cache 30', and cache can be given once per block: the base's caching stays (NXDOMAIN answers are cached up to 30 s where kube-dns's dnsmasq ran with --no-negcache)",
    ]);
  });

  it('says the base must change where the upstream cannot be overridden (AKS, old k3s, CoreDNS before 1.9.4), and applies the AKS opt-out', () => {
    const data = { upstreamNameservers: '["8.8.8.8"]' };
    for (const [platform, coredns] of [['aks', '1.14.7'], ['k3s-legacy', '1.14.7'], ['k3s', '1.8.0']] as const) {
      const result = overlayFor(platform, data, coredns);
      expect(result?.overlay.ok, platform).toBe(false);
      expect(result?.overlay.diagnostics.filter((entry) => entry.severity === 'error').map((entry) => entry.code)).toEqual(['platform-base-must-change']);
    }
    const aks = overlayFor('aks', {});
    expect(aks?.overlay.ok).toBe(true);
    expect(aks?.overlay.data['aks-search-domains.server']).toContain('reddog.microsoft.com:53 {');
    expect(aks?.overlay.diagnostics.map((entry) => entry.code)).toContain('platform-base-answers');
  });

  it('names the stub domain above the cluster domain when that makes the main block serve more keys than the base can', () => {
    const result = overlayFor('k3s', { stubDomains: '{"local": ["10.0.0.2"], "acme.example": ["10.0.0.3"]}' });
    expect(result?.overlay.ok).toBe(false);
    expect(result?.overlay.diagnostics.filter((entry) => entry.severity === 'error').map((entry) => entry.message)).toEqual([
      "the translation's main block also serves cluster.local:53 because the stub domain 'local' is a parent of cluster.local, whose names kube-dns answered itself: an overlay cannot add keys to the k3s base's .:53 block",
    ]);
  });

  it('law: base + the overlay written for it routes like kube-dns, and lint finds no error in it', () => {
    const outcomes = new Outcomes<'k3s' | 'aks' | 'base must change' | 'refused' | 'with stubs'>();
    fc.assert(
      // Federations aside: CoreDNS 1.14.7 has no federation plugin (the translator drops them with a diagnostic).
      // On AKS an upstream always ends in 'base must change' (checked on its own above): half the AKS runs
      // drop it, so that the composed Corefile is routed and linted on AKS about as often as on k3s.
      fc.property(validKubeDnsInput(), fc.constantFrom('k3s' as const, 'aks' as const), fc.boolean(), (generated, platform, keepUpstream) => {
        const data = kubeDnsData({ ...generated, federations: undefined, ...(platform === 'aks' && !keepUpstream ? { upstreams: undefined } : {}) });
        const result = overlayFor(platform, data);
        if (result === undefined) {
          outcomes.add('refused');
          return;
        }
        if (!result.overlay.ok) {
          // Only the upstream can be out of reach (where the base's forward comes first), or a stub above the
          // cluster domain, which the translator answers by adding cluster.local to the main block's keys.
          for (const entry of result.overlay.diagnostics.filter((finding) => finding.severity === 'error')) {
            expect(entry.message).toMatch(/^the upstream .* cannot be set through coredns-custom on AKS|^the translation's main block also serves /);
          }
          outcomes.add('base must change');
          return;
        }
        const check = checkRouting({ kubeDns: data, corefile: result.composed.text, names: platform === 'aks' ? AKS_NAMES : [] });
        expect(check.ok, `${platform}\n${JSON.stringify(result.overlay.data, null, 1)}\n${formatRoutingCheck(check)}`).toBe(true);
        const lint = lintOverlay({ ...result.base, corefile: result.base.corefile() }, result.overlay.data);
        expect(lint.diagnostics.filter((entry) => entry.severity === 'error').map(formatDiagnostic)).toEqual([]);
        outcomes.add(platform);
        if (Object.keys(result.overlay.data).some((key) => key.endsWith('.server') && !key.startsWith('aks-'))) outcomes.add('with stubs');
      }),
      // Each run routes and lints a composed Corefile: 80 runs keep the file near two seconds.
      { numRuns: 80 },
    );
    // Over 32 seeds (80 runs each): k3s 26–39 (mean 32), aks 15–29 (22), base must change 13–28 (19),
    // with stubs 35–50 (43); each floor is about 4 standard deviations under the mean.
    outcomes.expectAtLeast({ k3s: 16, aks: 8, 'base must change': 6, 'with stubs': 24 });
  });
});
