import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCorefile } from '../../src/corefile/parser.js';
import { lintCorefile } from '../../src/lint/lint.js';
import { mergeTranslation } from '../../src/translate/merge.js';
import { translateKubeDns } from '../../src/translate/translate.js';
import { Outcomes } from '../support/outcomes.js';

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
    expect(result.diagnostics.map((entry) => entry.code)).toEqual(['kube-dns-deployment-assumed', 'merge-upstream-replaced', 'merge-block-updated', 'merge-block-added', 'merge-block-updated']);
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
    const existing = base.replace('    errors\n    kubernetes', '    errors\n    health\n    kubernetes');
    const data = { upstreamNameservers: '["8.8.8.8"]', stubDomains: '{"arpa": ["10.3.3.3"]}' };
    const once = mergeTranslation(existing, translateKubeDns(data, { coredns: '1.2.6' }));
    expect(once.ok).toBe(true);
    // kube-dns 1.26.7's dnsmasq cached no NXDOMAIN; 1.2.6 cannot switch that off: 1 s at most.
    const cache = '    cache 30 {\n        denial 9984 1\n    }\n';
    const copy = `in-addr.arpa:53 ip6.arpa:53 {\n    errors\n    kubernetes cluster.local in-addr.arpa ip6.arpa\n    # upstream\n    forward . 8.8.8.8 {\n        max_concurrent 10\n    }\n${cache}}\n`;
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
  const parseable = readdirSync(realworld)
    .map((file) => readFileSync(join(realworld, file), 'utf8'))
    .filter((text) => {
      try {
        parseCorefile(text);
        return true;
      } catch {
        return false;
      }
    });
  const data = fc.record({
    stubs: fc.dictionary(fc.constantFrom('acme.local', 'consul.local', 'corp.example', 'local', 'example.com', 'lab.example'), fc.array(fc.ipV4(), { minLength: 1, maxLength: 3 })),
    upstreams: fc.array(fc.ipV4(), { maxLength: 3 }),
  });

  it('is idempotent: merging the result again changes nothing (real-world Corefiles as bases)', () => {
    const outcomes = new Outcomes<'merged' | 'refused'>();
    fc.assert(
      fc.property(fc.constantFrom(...parseable), data, (existing, input) => {
        const values = { stubDomains: JSON.stringify(input.stubs), upstreamNameservers: JSON.stringify(input.upstreams) };
        const once = merge(existing, values);
        outcomes.add(once.ok ? 'merged' : 'refused');
        if (!once.ok) return; // e.g. a loopback nameserver drawn by fc.ipV4()
        const twice = merge(once.corefile ?? '', values);
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
