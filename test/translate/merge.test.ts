import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCorefile } from '../../src/corefile/parser.js';
import { COREDNS_VERSIONS } from '../../src/coredns/versions.js';
import { lintCorefile } from '../../src/lint/lint.js';
import { mergeTranslation } from '../../src/translate/merge.js';
import { translateKubeDns } from '../../src/translate/translate.js';
import { Outcomes } from '../support/outcomes.js';
import { coreDnsConfigMapYaml } from '../support/kube-dns-manifests.js';

const base = `.:53 {
    errors
    kubernetes cluster.local in-addr.arpa ip6.arpa
    # upstream
    forward . 10.0.0.2 {
        max_concurrent 10
    }
    cache 30
}

acme.local:53 {
    errors
    log
    forward . 10.1.1.1
}
`;

function merge(existing: string, data: Record<string, string>) {
  return mergeTranslation(existing, translateKubeDns(data));
}

describe('mergeTranslation', () => {
  it('updates the upstream and stub forwarding lines in place, keeping options, plugins and comments', () => {
    const result = merge(base, { upstreamNameservers: '["8.8.8.8"]', stubDomains: '{"acme.local": ["10.1.1.2"], "b.corp": ["10.2.2.2"]}' });
    expect(result.ok).toBe(true);
    expect(result.corefile).toContain('    # upstream\n    forward . 8.8.8.8 {\n        max_concurrent 10\n    }\n');
    expect(result.corefile).toContain('acme.local:53 {\n    errors\n    log\n    forward . 10.1.1.2\n}\n');
    expect(result.corefile).toMatch(/\nb\.corp:53 \{\n {4}errors\n {4}cache 30 \{\n {8}disable denial\n {4}\}\n {4}loop\n {4}forward \. 10\.2\.2\.2\n\}\n$/);
    expect(result.corefile).toContain('    cache 30 {\n        disable denial\n    }\n}\n\nacme.local');
    // acme.local went to 10.1.1.1 under the running CoreDNS, to 10.1.1.2 under kube-dns: a warning.
    expect(result.diagnostics.map((entry) => entry.code)).toEqual(['kube-dns-deployment-assumed', 'merge-upstream-replaced', 'merge-stub-server-replaced', 'merge-block-added', 'merge-block-updated']);
    expect(result.diagnostics.find((entry) => entry.code === 'merge-stub-server-replaced')).toMatchObject({
      severity: 'warning',
      path: '[acme.local:53]',
      message: "'forward . 10.1.1.1' becomes 'forward . 10.1.1.2': the running CoreDNS sent 'acme.local' to other servers than kube-dns did",
    });
  });

  it('updates a stub forwarding line that names the same servers (proxy to forward, another order) with an info only', () => {
    const existing = '.:53 {\n    forward . 10.0.0.2\n}\n\nacme.local:53 {\n    forward . 10.1.1.2 10.1.1.1\n}\n';
    const result = merge(existing, { upstreamNameservers: '["10.0.0.2"]', stubDomains: '{"acme.local": ["10.1.1.1", "10.1.1.2"]}' });
    expect(result.ok).toBe(true);
    expect(result.diagnostics.filter((entry) => entry.code.startsWith('merge-')).map((entry) => [entry.code, entry.severity])).toEqual([['merge-block-updated', 'info']]);
  });

  it('refuses a merged Corefile the target refuses, naming migrate: kept parts written for an older release, typos', () => {
    // kubeadm 1.11–1.13's Corefile: kubernetes upstream and proxy, refused by CoreDNS 1.7.0+.
    const kubeadm = '.:53 {\n    errors\n    health\n    kubernetes cluster.local in-addr.arpa ip6.arpa {\n       pods insecure\n       upstream\n       fallthrough in-addr.arpa ip6.arpa\n    }\n    prometheus :9153\n    proxy . /etc/resolv.conf\n    cache 30\n    loop\n    reload\n    loadbalance\n}\n';
    const refused = mergeTranslation(kubeadm, translateKubeDns({ upstreamNameservers: '["8.8.8.8"]' }), 'coredns.yaml');
    expect(refused.ok).toBe(false);
    expect(refused.corefile).toBeUndefined();
    const refusals = refused.diagnostics.filter((entry) => entry.code === 'merge-target-refuses');
    expect(refusals.map((entry) => [entry.severity, entry.path])).toEqual([['error', ':6:8 [.:53] kubernetes > upstream']]);
    expect(refusals[0]?.message).toMatch(/^the merged Corefile fails for CoreDNS 1\.14\.7 \(lint option-removed at \[\.:53\] kubernetes > upstream\): option 'upstream' of kubernetes was removed in CoreDNS 1\.7\.0/);
    expect(refusals[0]?.message).toContain('migrate it first (the migrate command: migrate --from RUNNING --to 1.14.7 coredns.yaml)');
    // The same Corefile suits CoreDNS 1.2.6: merged.
    expect(mergeTranslation(kubeadm, translateKubeDns({ upstreamNameservers: '["8.8.8.8"]' }, { coredns: '1.2.6' })).ok).toBe(true);
    const typo = mergeTranslation('.:53 {\n    errors\n    promethus :9153\n    forward . 10.0.0.2\n}\n', translateKubeDns({}));
    expect(typo.ok).toBe(false);
    expect(typo.diagnostics.find((entry) => entry.code === 'merge-target-refuses')?.message).toContain("did you mean 'prometheus'?");
    // A port no socket takes, an invalid regular expression: Corefiles that never start (a new user's trial).
    for (const [existing, finding] of [
      ['.:99999 {\n    whoami\n}\n', 'port 99999 is outside 0–65535'],
      ['.:53 {\n    rewrite name regex (.* x\n    forward . 10.0.0.2\n}\n', "'(.*' is not a Go regular expression"],
    ] as const) {
      const merged = mergeTranslation(existing, translateKubeDns({}));
      expect(merged.ok, existing).toBe(false);
      expect(merged.diagnostics.find((entry) => entry.code === 'merge-target-refuses')?.message, existing).toContain(finding);
    }
  });

  it('throws an input error naming readConfigMap when given a ConfigMap instead of a Corefile', () => {
    const configMap = coreDnsConfigMapYaml('.:53 {\n    forward . 10.0.0.2\n}\n', { namespace: null });
    for (const text of [configMap, JSON.stringify({ kind: 'ConfigMap', data: { Corefile: '.:53 {\n}\n' } }), 'data:\n  Corefile: ".:53 {}"\n']) {
      expect(() => merge(text, {})).toThrow(expect.objectContaining({ name: 'ConfigMapInputError', code: 'configmap-given', category: 'input', message: expect.stringContaining('readConfigMap(text)') }));
    }
    // A Corefile with a block named like a ConfigMap field is still a Corefile.
    expect(merge('data:53 {\n    forward . 10.0.0.2\n}\n.:53 {\n    forward . 10.0.0.2\n}\n', {}).ok).toBe(true);
  });

  it("switches negative caching off in the existing Corefile's port-53 caches, keeping their other options, as kube-dns's dnsmasq ran", () => {
    const existing = `.:53 {
    kubernetes cluster.local
    forward . 10.0.0.2
    cache 300 {
        success 5000
        denial 100 60
    }
}

other.example:5353 {
    cache 30
    forward . 10.9.9.9
}
`;
    const current = mergeTranslation(existing, translateKubeDns({}, { coredns: '1.14.7' }));
    expect(current.corefile).toContain('    cache 300 {\n        success 5000\n        disable denial\n    }\n');
    // A block on another port was never kube-dns's: its cache is left alone.
    expect(current.corefile).toContain('other.example:5353 {\n    cache 30\n');
    const updates = current.diagnostics.filter((entry) => entry.code === 'merge-block-updated').map((entry) => entry.message);
    expect(updates).toEqual(["'cache 300' gets 'disable denial': kube-dns's dnsmasq never cached NXDOMAIN (--no-negcache)"]);
    // Before 1.9.4 no release switches denial caching off: the shortest TTL it accepts.
    const old = mergeTranslation(existing, translateKubeDns({}, { coredns: '1.8.0' }));
    expect(old.corefile).toContain('    cache 300 {\n        success 5000\n        denial 9984 1\n    }\n');
    // Merging again changes nothing, and kube-dns releases that cached NXDOMAIN leave caches alone.
    expect(mergeTranslation(current.corefile ?? '', translateKubeDns({}, { coredns: '1.14.7' })).corefile).toBe(current.corefile);
    const cached = mergeTranslation(existing, translateKubeDns({}, { coredns: '1.14.7', kubeDnsVersion: '1.14.5' }));
    expect(cached.corefile).toContain('    cache 300 {\n        success 5000\n        denial 100 60\n    }\n');
  });

  it('reports a conflict instead of rewriting a block that also serves other zones', () => {
    const result = merge('.:53 {\n    forward . 10.0.0.1\n}\nacme.local:53 other.local:53 {\n    forward . 10.1.1.1\n}\n', { stubDomains: '{"acme.local": ["10.1.1.2"]}' });
    expect(result.ok).toBe(false);
    expect(result.corefile).toBeUndefined();
    expect(result.diagnostics.map((entry) => entry.code)).toContain('merge-conflict');
  });

  it('gives the zones a stub would capture a copy of the main block without health for CoreDNS 1.1.0–1.6.5', () => {
    // expire: an option every release here has (max_concurrent arrives in 1.6.8: the merge would refuse it for 1.2.6).
    const existing = base.replace('    errors\n    kubernetes', '    errors\n    health\n    kubernetes').replace('max_concurrent 10', 'expire 10s');
    const data = { upstreamNameservers: '["8.8.8.8"]', stubDomains: '{"arpa": ["10.3.3.3"]}' };
    const once = mergeTranslation(existing, translateKubeDns(data, { coredns: '1.2.6' }));
    expect(once.ok).toBe(true);
    // kube-dns 1.26.7's dnsmasq cached no NXDOMAIN; 1.2.6 cannot switch that off: 1 s at most.
    const cache = '    cache 30 {\n        denial 9984 1\n    }\n';
    const copy = `in-addr.arpa:53 ip6.arpa:53 {\n    errors\n    kubernetes cluster.local in-addr.arpa ip6.arpa\n    # upstream\n    forward . 8.8.8.8 {\n        expire 10s\n    }\n${cache}}\n`;
    expect(once.corefile).toContain(`${cache}}\n\n${copy}\nacme.local:53 {`);
    expect(once.corefile).toMatch(/^\.:53 \{\n/);
    expect(once.diagnostics.map((entry) => entry.code).filter((code) => code.startsWith('merge-'))).toEqual(['merge-upstream-replaced', 'merge-block-added', 'merge-block-added', 'merge-block-updated', 'merge-block-updated']);
    expect(lintCorefile(once.corefile ?? '', { coredns: '1.2.6' }).diagnostics.filter((entry) => entry.code === 'health-bound-twice')).toEqual([]);
    // Merging again changes nothing; a new upstream reaches the copy too.
    const twice = mergeTranslation(once.corefile ?? '', translateKubeDns(data, { coredns: '1.2.6' }));
    expect(twice.corefile).toBe(once.corefile);
    const moved = mergeTranslation(once.corefile ?? '', translateKubeDns({ ...data, upstreamNameservers: '["9.9.9.9"]' }, { coredns: '1.2.6' }));
    expect(moved.corefile?.match(/forward \. 9\.9\.9\.9 \{/g)).toHaveLength(2);
    // Releases that start a main block with several keys get the keys added to it, as before.
    expect(mergeTranslation(existing, translateKubeDns(data, { coredns: '1.6.9' })).corefile).toMatch(/^\.:53 in-addr\.arpa:53 ip6\.arpa:53 \{/);
  });

  it('refuses when the translation was refused', () => {
    expect(merge(base, { stubDomains: '{' }).ok).toBe(false);
  });

  const realworld = join(import.meta.dirname, '../../golden/realworld/corefiles');
  // Each real-world Corefile with the newest release it lints clean for: the merge refuses what its target refuses.
  const parseable = readdirSync(realworld)
    .map((file) => readFileSync(join(realworld, file), 'utf8'))
    .flatMap((text) => {
      try {
        parseCorefile(text);
      } catch {
        return [];
      }
      const coredns = [...COREDNS_VERSIONS].reverse().find((version) => !lintCorefile(text, { coredns: version }).diagnostics.some((entry) => entry.severity === 'error'));
      return coredns === undefined ? [] : [{ text, coredns }];
    });
  const data = fc.record({
    stubs: fc.dictionary(fc.constantFrom('acme.local', 'consul.local', 'corp.example', 'local', 'example.com', 'lab.example'), fc.array(fc.ipV4(), { minLength: 1, maxLength: 3 })),
    upstreams: fc.array(fc.ipV4(), { maxLength: 3 }),
  });

  it('is idempotent: merging the result again changes nothing (real-world Corefiles as bases)', () => {
    const outcomes = new Outcomes<'merged' | 'refused'>();
    fc.assert(
      fc.property(fc.constantFrom(...parseable), data, ({ text: existing, coredns }, input) => {
        const values = { stubDomains: JSON.stringify(input.stubs), upstreamNameservers: JSON.stringify(input.upstreams) };
        const once = mergeTranslation(existing, translateKubeDns(values, { coredns }));
        outcomes.add(once.ok ? 'merged' : 'refused');
        if (!once.ok) return; // e.g. a loopback nameserver drawn by fc.ipV4()
        const twice = mergeTranslation(once.corefile ?? '', translateKubeDns(values, { coredns }));
        expect(twice.ok).toBe(true);
        expect(twice.corefile).toBe(once.corefile);
        expect(twice.diagnostics.filter((entry) => entry.code.startsWith('merge-'))).toEqual([]);
      }),
      { numRuns: 150 },
    );
    // Expected: about 147 merges and 3 refusals.
    outcomes.expectAtLeast({ merged: 120 });
  });
});
