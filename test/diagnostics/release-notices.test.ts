import { describe, expect, it } from 'vitest';
import { coreDnsReleaseOf, resolveCoreDnsRelease, UnresolvedCoreDnsReleaseError } from '../../src/coredns/resolve-release.js';
import { COREDNS_VERSIONS, NEWEST_COREDNS_VERSION } from '../../src/coredns/versions.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { lintCorefile } from '../../src/lint/lint.js';
import { migrateCorefile } from '../../src/migrate/migrate-corefile.js';
import { translateKubeDns } from '../../src/translate/translate.js';

/**
 * One release grammar: `translateKubeDns`, `lintCorefile` and `migrateCorefile` read a CoreDNS
 * release the same way (tags, suffixes, image references, newer than known), and the translator and
 * lint say how they read it with `release-resolved` and `release-assumed`.
 */

const DATA = { stubDomains: '{"acme.local": ["10.0.0.10"]}', upstreamNameservers: '["8.8.8.8"]' };
const COREFILE = '.:53 {\n    errors\n    proxy . 8.8.8.8\n    cache 30\n}\n';
const RELEASE_CODES = new Set(['release-resolved', 'release-assumed']);
const withoutRelease = (diagnostics: readonly Diagnostic[]) => diagnostics.filter((entry) => !RELEASE_CODES.has(entry.code));
const releaseCodes = (diagnostics: readonly Diagnostic[]) => diagnostics.filter((entry) => RELEASE_CODES.has(entry.code)).map((entry) => `${entry.severity} ${entry.code}`);

/** Every known release written five ways that all name it. */
const SPELLINGS = (version: string): readonly string[] => [`v${version}`, `${version}-eksbuild.3`, `v${version}+k3s1`, `registry.k8s.io/coredns/coredns:v${version}`, `coredns/coredns:${version}@sha256:${'ab'.repeat(32)}`];

describe('one release grammar in the library', () => {
  it('translates and lints for the release every spelling names, as for the plain release, with only the notices added', () => {
    let spellings = 0;
    for (const version of COREDNS_VERSIONS.filter((_, index) => index % 6 === 0)) {
      const translation = translateKubeDns(DATA, { coredns: version });
      const lint = lintCorefile(COREFILE, { coredns: version });
      expect(releaseCodes(translation.diagnostics), version).toEqual([]);
      for (const spelling of SPELLINGS(version)) {
        const spelt = translateKubeDns(DATA, { coredns: spelling });
        expect(spelt.coredns, spelling).toBe(version);
        expect(spelt.corefile, spelling).toBe(translation.corefile);
        expect(withoutRelease(spelt.diagnostics), spelling).toEqual(translation.diagnostics);
        const speltLint = lintCorefile(COREFILE, { coredns: spelling });
        expect(withoutRelease(speltLint.diagnostics), spelling).toEqual(lint.diagnostics);
        // `v1.8.0` is read plainly; anything else says how it was read.
        expect(releaseCodes(spelt.diagnostics).length > 0, spelling).toBe(!spelling.startsWith(`v${version}`) || spelling.includes('+'));
        expect(releaseCodes(speltLint.diagnostics), spelling).toEqual(releaseCodes(spelt.diagnostics));
        spellings += 1;
      }
    }
    expect(spellings).toBeGreaterThanOrEqual(60);
  });

  it('reads a release newer than the newest known as the newest, with a warning, as migrate does', () => {
    const translation = translateKubeDns(DATA, { coredns: '1.15.2' });
    expect(translation.ok).toBe(true);
    expect(translation.coredns).toBe(NEWEST_COREDNS_VERSION);
    expect(releaseCodes(translation.diagnostics)).toEqual(['info release-resolved', 'warning release-assumed']);
    expect(translation.diagnostics[1]?.message).toBe(`coredns: CoreDNS 1.15.2 is newer than ${NEWEST_COREDNS_VERSION}, the newest release this package knows; it is treated as ${NEWEST_COREDNS_VERSION}, so anything 1.15.2 added or changed is not taken into account`);
    const lint = lintCorefile(COREFILE, { coredns: '1.15.2' });
    expect(lint.coredns).toBe(NEWEST_COREDNS_VERSION);
    expect(releaseCodes(lint.diagnostics)).toEqual(['info release-resolved', 'warning release-assumed']);
    const migration = migrateCorefile(COREFILE, { from: '1.4.0', to: '1.15.2' });
    expect(migration.notices.map((notice) => notice.code)).toContain('migrate-release-assumed');
  });

  it('refuses what migrate refuses, with the same error', () => {
    for (const text of ['1.8', 'latest', '1.4.1', 'coredns/coredns', '0.9.0', '']) {
      expect(() => translateKubeDns(DATA, { coredns: text }), text).toThrow(UnresolvedCoreDnsReleaseError);
      expect(() => lintCorefile(COREFILE, { coredns: text }), text).toThrow(UnresolvedCoreDnsReleaseError);
      expect(() => migrateCorefile(COREFILE, { from: text, to: '1.8.0' }), text).toThrow(UnresolvedCoreDnsReleaseError);
    }
  });

  it('takes a release resolveCoreDnsRelease resolved as it is, without reading the text again', () => {
    const from = resolveCoreDnsRelease('1.6.7-eksbuild.1');
    const to = resolveCoreDnsRelease('registry.k8s.io/coredns/coredns:v1.8.4');
    if (!from.ok || !to.ok) throw new Error('expected both to resolve');
    expect(coreDnsReleaseOf(to)).toBe(to);
    const migration = migrateCorefile(COREFILE, { from, to });
    expect(migration.from).toBe(from.mapping);
    expect(migration.to).toBe(to.mapping);
    expect(migrateCorefile(COREFILE, { from: '1.6.7-eksbuild.1', to: 'registry.k8s.io/coredns/coredns:v1.8.4' }).notices).toEqual(migration.notices);
    expect(translateKubeDns(DATA, { coredns: to }).diagnostics).toEqual(translateKubeDns(DATA, { coredns: 'registry.k8s.io/coredns/coredns:v1.8.4' }).diagnostics);
    expect(() => coreDnsReleaseOf({ ...to, version: '9.9.9' } as never)).toThrow(UnresolvedCoreDnsReleaseError);
  });
});
