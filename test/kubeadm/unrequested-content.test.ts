import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { translateLikeKubeadm } from '../../src/kubeadm/kubeadm-translation.js';
import { KUBEADM_PROFILE_IDS, KUBEADM_PROFILES } from '../../src/kubeadm/profiles.js';
import { translateKubeadmPieces } from '../../src/kubeadm/translate-pieces.js';
import { compareWithRequest, onlyPlainValues } from '../../src/kubeadm/unrequested-content.js';

/** What kubeadm's unescaped pasting added to the Corefile, and nothing else. */

function unrequested(profileId: (typeof KUBEADM_PROFILE_IDS)[number], data: Record<string, string>, dnsDomain = 'cluster.local'): readonly string[] {
  const outcome = translateLikeKubeadm(KUBEADM_PROFILES[profileId], data, dnsDomain);
  if (!outcome.ok) throw new Error(`kubeadm ${profileId} failed: ${outcome.error}`);
  return outcome.unrequested;
}

describe('unrequested content in a kubeadm Corefile', () => {
  it('names the server block a stub domain key adds (the issue example), the Corefile staying kubeadm’s', () => {
    const data = { stubDomains: JSON.stringify({ 'evil.com {\n whoami\n}\nx.com': ['1.2.3.4'] }) };
    for (const profileId of KUBEADM_PROFILE_IDS) {
      const outcome = translateLikeKubeadm(KUBEADM_PROFILES[profileId], data);
      expect(outcome.ok && outcome.corefile.includes('\nevil.com {\n whoami\n}\nx.com:53 {\n')).toBe(true);
      expect(outcome.ok && outcome.unrequested).toEqual(["the Corefile holds a server block 'evil.com' (line " + (outcome.ok ? outcome.corefile.split('\n').indexOf('evil.com {') + 1 : 0) + ') that the input did not ask for', expect.stringMatching(/^the Corefile holds a server block 'x\.com:53' \(line \d+\)/)]);
    }
  });

  it('names a plugin an upstream value adds to the main block (profiles without the nameserver check)', () => {
    const data = { upstreamNameservers: JSON.stringify(['8.8.8.8\n        whoami']) };
    expect(unrequested('v1.10', data)).toEqual(["the Corefile holds a plugin 'whoami' (line 11) in server block '.:53' that the input did not ask for"]);
    // v1.15+ refuse the value before pasting it.
    expect(translateLikeKubeadm('v1.15', data).ok).toBe(false);
  });

  it('names a plugin and an option added through a stub nameserver and a federation', () => {
    // kubeadm quoted a value with a line break, but escaped only its quotes: `a\"` ends the quotes.
    const stub = { stubDomains: JSON.stringify({ 'a.com': ['a\\" x\n   whoami\n "'] }) };
    expect(unrequested('v1.12', stub)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^the Corefile holds a plugin 'whoami' \(line \d+\) in server block 'a\.com:53' that the input did not ask for$/)]),
    );
    // A bare `{` opens a block under the forwarder.
    expect(unrequested('v1.14', { stubDomains: JSON.stringify({ 'a.com': ['1.1.1.1', '{', '#'] }) })).toEqual([
      "the Corefile holds a block under 'forward' (line 20) in server block 'a.com:53' that the input did not ask for",
    ]);
    // An empty federation name vanishes from its line: the domain takes the name's place.
    const federation = { federations: JSON.stringify({ fed: 'fed.example.com', '': 'rogue' }) };
    expect(unrequested('v1.17', federation)).toEqual([
      "the Corefile holds an option 'rogue' (line 14) under 'federation' (line 12) in server block '.:53' that the input did not ask for",
    ]);
  });

  it('says when the pasted text broke the Corefile syntax', () => {
    const findings = unrequested('v1.10', { stubDomains: JSON.stringify({ 'a.com': ['1.1.1.1', '}', 'whoami', '{'] }) });
    expect(findings).toEqual([expect.stringMatching(/^the input changed the Corefile's structure so that it no longer parses \(line \d+, column \d+: .+\); CoreDNS would not start with it$/)]);
  });

  it('escapes control characters in the findings', () => {
    // yaml.v2 refused C0 controls in the manifest; a right-to-left override passes.
    const findings = unrequested('v1.10', { stubDomains: JSON.stringify({ '\u202eevil.com {\n whoami\n}\nx.com': ['1.1.1.1'] }) });
    expect(findings[0]).toBe("the Corefile holds a server block '\\u202eevil.com' (line 13) that the input did not ask for");
    expect(findings.every((finding) => !/[\x00-\x1f\u202e]/.test(finding))).toBe(true);
  });

  it('finds nothing in what kubeadm stores for ordinary input, also when values need quotes', () => {
    expect(unrequested('v1.19', { stubDomains: '{"acme.local": ["10.0.0.1", "10.0.0.2:5353"]}', upstreamNameservers: '["8.8.8.8"]' })).toEqual([]);
    // kubeadm quoted a stub nameserver with a space: one token, in its place.
    expect(unrequested('v1.10', { stubDomains: JSON.stringify({ 'a.com': ['1.1.1.1 2.2.2.2'] }) })).toEqual([]);
    // The upstreams were joined raw: two arguments instead of one, but no plugin added.
    expect(unrequested('v1.10', { upstreamNameservers: JSON.stringify(['1.1.1.1 2.2.2.2']) })).toEqual([]);
    expect(unrequested('v1.14', { federations: JSON.stringify({ 'my fed': 'fed.example.com' }) })).toEqual([]);
  });
});

describe('the shortcut for plain values', () => {
  const oracle = join(import.meta.dirname, '../../golden/kubeadm-oracle/cases.jsonl');
  const cases = readFileSync(oracle, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as { id: string; data: Record<string, string> | null; dnsDomain: string });

  it('agrees with the full comparison on every corpus case whose values are plain', () => {
    let plain = 0;
    let compared = 0;
    const disagreements: string[] = [];
    for (const profileId of KUBEADM_PROFILE_IDS) {
      const profile = KUBEADM_PROFILES[profileId];
      for (const oracleCase of cases) {
        const pieces = translateKubeadmPieces(profile, oracleCase.data, oracleCase.dnsDomain);
        const outcome = translateLikeKubeadm(profile, oracleCase.data, oracleCase.dnsDomain);
        if (!pieces.ok || !outcome.ok) continue;
        compared += 1;
        if (!onlyPlainValues(pieces.request, oracleCase.dnsDomain)) continue;
        plain += 1;
        const findings = compareWithRequest(profile, pieces.request, oracleCase.dnsDomain, outcome.corefile);
        if (findings.length > 0) disagreements.push(`${profileId} ${oracleCase.id}: ${findings.join('; ')}`);
      }
    }
    expect(disagreements).toEqual([]);
    expect(plain).toBeGreaterThan(4000);
    expect(compared - plain).toBeGreaterThan(200);
  });

  it('agrees with the full comparison on generated plain configurations', () => {
    const plainCharacter = fc.constantFrom(...'aZ09._:/[]%*@+=~-', 'é', 'ß', 'Ж', '中', '\u0663', '\u0301');
    const plainText = fc.array(plainCharacter, { maxLength: 12 }).map((characters) => characters.join(''));
    const federationName = fc.array(plainCharacter, { minLength: 1, maxLength: 12 }).map((characters) => characters.join(''));
    let checked = 0;
    fc.assert(
      fc.property(
        fc.constantFrom(...KUBEADM_PROFILE_IDS),
        fc.dictionary(plainText, fc.array(plainText, { maxLength: 3 }), { maxKeys: 4 }),
        fc.option(fc.array(plainText, { maxLength: 3 }), { nil: undefined }),
        fc.option(fc.dictionary(federationName, plainText, { maxKeys: 3 }), { nil: undefined }),
        (profileId, stubs, upstreams, federations) => {
          const data: Record<string, string> = { stubDomains: JSON.stringify(stubs) };
          if (upstreams !== undefined) data['upstreamNameservers'] = JSON.stringify(upstreams);
          if (federations !== undefined) data['federations'] = JSON.stringify(federations);
          const profile = KUBEADM_PROFILES[profileId];
          const pieces = translateKubeadmPieces(profile, data);
          const outcome = translateLikeKubeadm(profile, data);
          if (!pieces.ok || !outcome.ok) return;
          checked += 1;
          expect(onlyPlainValues(pieces.request, 'cluster.local')).toBe(true);
          expect(compareWithRequest(profile, pieces.request, 'cluster.local', outcome.corefile)).toEqual([]);
        },
      ),
      { numRuns: 400 },
    );
    expect(checked).toBeGreaterThan(100);
  });

  it('is not taken when a value could break out of its place', () => {
    const profile = KUBEADM_PROFILES['v1.10'];
    for (const value of ['a b', 'a\nb', 'a{', 'a}', 'a"b', 'a#b', 'a,b', 'a\\b', 'a`b', 'a\tb', '(a)', '{$X}', 'a\u2028b']) {
      const pieces = translateKubeadmPieces(profile, { upstreamNameservers: JSON.stringify([value]) });
      expect(pieces.ok && onlyPlainValues(pieces.request, 'cluster.local'), value).toBe(false);
    }
    for (const value of ['\u0085', '\u00a0', '\u3000', '\ufeff', '😀']) {
      const pieces = translateKubeadmPieces(profile, { stubDomains: JSON.stringify({ [`a${value}b`]: ['1.1.1.1'] }) });
      expect(pieces.ok && onlyPlainValues(pieces.request, 'cluster.local'), value).toBe(false);
    }
    const emptyName = translateKubeadmPieces(profile, { federations: JSON.stringify({ '': 'fed.example.com' }) });
    expect(emptyName.ok && onlyPlainValues(emptyName.request, 'cluster.local')).toBe(false);
  });
});
