import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCorefile } from '../../src/corefile/parser.js';
import { mergeTranslation } from '../../src/translate/merge.js';
import { translateKubeDns } from '../../src/translate/translate.js';

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
    expect(result.corefile).toMatch(/\nb\.corp:53 \{\n {4}errors\n {4}cache 30\n {4}loop\n {4}forward \. 10\.2\.2\.2\n\}\n$/);
    expect(result.diagnostics.map((entry) => entry.code)).toEqual(['merge-upstream-replaced', 'merge-block-updated', 'merge-block-added']);
  });

  it('reports a conflict instead of rewriting a block that also serves other zones', () => {
    const result = merge('.:53 {\n    forward . 10.0.0.1\n}\nacme.local:53 other.local:53 {\n    forward . 10.1.1.1\n}\n', { stubDomains: '{"acme.local": ["10.1.1.2"]}' });
    expect(result.ok).toBe(false);
    expect(result.corefile).toBeUndefined();
    expect(result.diagnostics.map((entry) => entry.code)).toContain('merge-conflict');
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
    fc.assert(
      fc.property(fc.constantFrom(...parseable), data, (existing, input) => {
        const values = { stubDomains: JSON.stringify(input.stubs), upstreamNameservers: JSON.stringify(input.upstreams) };
        const once = merge(existing, values);
        if (!once.ok) return;
        const twice = merge(once.corefile ?? '', values);
        expect(twice.ok).toBe(true);
        expect(twice.corefile).toBe(once.corefile);
        expect(twice.diagnostics.filter((entry) => entry.code.startsWith('merge-'))).toEqual([]);
      }),
      { numRuns: 150 },
    );
  });
});
