import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resolveCoreDnsRelease, UnresolvedCoreDnsReleaseError } from '../../src/coredns/resolve-release.js';
import type { CoreDnsReleaseNoticeCode, CoreDnsReleaseResult, UnresolvedCoreDnsReleaseCode } from '../../src/coredns/resolve-release.js';
import { COREDNS_VERSIONS, NEWEST_COREDNS_VERSION } from '../../src/coredns/versions.js';
import { KubeDnsToCoreDnsError } from '../../src/errors/kube-dns-to-coredns-error.js';
import { Outcomes } from '../support/outcomes.js';

function resolved(text: string): Extract<CoreDnsReleaseResult, { ok: true }> {
  const result = resolveCoreDnsRelease(text);
  if (!result.ok) throw new Error(`expected '${text}' to resolve, got: ${result.error.message}`);
  return result;
}

function refused(text: string): UnresolvedCoreDnsReleaseError {
  const result = resolveCoreDnsRelease(text);
  if (result.ok) throw new Error(`expected '${text}' to be refused, got ${result.version}`);
  return result.error;
}

const codes = (result: Extract<CoreDnsReleaseResult, { ok: true }>): CoreDnsReleaseNoticeCode[] => result.notices.map((notice) => notice.code);

describe('resolveCoreDnsRelease: version text found in clusters', () => {
  // text → release, notice codes
  const accepted: [string, string, CoreDnsReleaseNoticeCode[]][] = [
    ['1.6.7', '1.6.7', []],
    ['v1.6.7', '1.6.7', []],
    ['  v1.6.7\n', '1.6.7', []],
    ['1.6.7-eksbuild.1', '1.6.7', ['build-suffix']],
    ['v1.8.7-eksbuild.3', '1.8.7', ['build-suffix']],
    ['v1.6.2-100', '1.6.2', ['build-suffix']],
    ['1.8.4+k3s1', '1.8.4', ['build-suffix']],
    ['registry.k8s.io/coredns/coredns:v1.8.0', '1.8.0', []],
    ['registry.k8s.io/coredns/coredns:v1.10.1', '1.10.1', []],
    ['coredns/coredns:1.6.2', '1.6.2', []],
    ['k8s.gcr.io/coredns:1.6.7', '1.6.7', []],
    ['coredns/coredns:1.14.7', '1.14.7', []],
    ['coredns:1.2.6', '1.2.6', []],
    ['602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/coredns:v1.8.7-eksbuild.3', '1.8.7', ['build-suffix']],
    ['localhost:5000/coredns/coredns:1.9.4', '1.9.4', []],
    ['docker.io/rancher/mirrored-coredns-coredns:1.10.1', '1.10.1', []],
    [`registry.k8s.io/coredns/coredns:v1.11.1@sha256:${'a1'.repeat(32)}`, '1.11.1', ['digest-not-checked']],
    ['quay.io/example/dns-server:1.8.0', '1.8.0', ['image-not-coredns']],
    ['1.14.8', NEWEST_COREDNS_VERSION, ['newer-than-known']],
    ['v1.15.0-eksbuild.1', NEWEST_COREDNS_VERSION, ['build-suffix', 'newer-than-known']],
    ['coredns/coredns:2.0.0', NEWEST_COREDNS_VERSION, ['newer-than-known']],
  ];

  it.each(accepted)('%j → CoreDNS %s', (text, version, noticeCodes) => {
    const result = resolved(text);
    expect(result.version).toBe(version);
    expect(result.mapping.version).toBe(version);
    expect(result.mapping.input).toBe(text);
    expect(codes(result)).toEqual(noticeCodes);
    expect(result.mapping.summary).toContain(`→ CoreDNS ${version}`);
  });

  it('reports each step of the mapping', () => {
    const eks = resolved('602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/coredns:v1.8.7-eksbuild.3');
    expect(eks.mapping).toMatchObject({
      image: { name: '602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/coredns', tag: 'v1.8.7-eksbuild.3', digest: undefined },
      versionText: 'v1.8.7-eksbuild.3',
      base: '1.8.7',
      suffix: '-eksbuild.3',
    });
    expect(eks.notices[0]).toMatchObject({ severity: 'info' });
    expect(eks.notices[0]?.message).toContain("the build suffix '-eksbuild.3' was dropped");

    const plain = resolved(' v1.6.7 ');
    expect(plain.mapping).toMatchObject({ image: undefined, versionText: 'v1.6.7', base: '1.6.7', suffix: undefined, summary: "'v1.6.7' → CoreDNS 1.6.7" });

    const newer = resolved('1.15.2');
    expect(newer.mapping.base).toBe('1.15.2');
    expect(newer.notices).toEqual([
      expect.objectContaining({ code: 'newer-than-known', severity: 'warning', message: expect.stringContaining(`treated as ${NEWEST_COREDNS_VERSION}`) }),
    ]);
  });

  // text → refusal code, candidates
  const refusedTexts: [string, UnresolvedCoreDnsReleaseCode, string[]][] = [
    ['docker.io/coredns/coredns:latest', 'no-release-tag', []],
    ['latest', 'no-release-tag', []],
    [`coredns/coredns@sha256:${'0f'.repeat(32)}`, 'no-release-tag', []],
    ['registry.k8s.io/coredns/coredns', 'no-release-tag', []],
    ['coredns/coredns:main', 'no-release-tag', []],
    ['1.8', 'incomplete', ['1.8.0', '1.8.1', '1.8.2', '1.8.3', '1.8.4', '1.8.5', '1.8.6', '1.8.7']],
    ['coredns/coredns:v1.10', 'incomplete', ['1.10.0', '1.10.1']],
    ['1.15', 'incomplete', []],
    ['1.4.1', 'unreleased', ['1.4.0', '1.5.0']],
    ['v1.10.2-eksbuild.1', 'unreleased', ['1.10.1', '1.11.0']],
    ['0.9.10', 'too-old', []],
    ['', 'syntax', []],
    ['   ', 'syntax', []],
    ['one.eight', 'syntax', []],
    ['01.8.0', 'syntax', []],
    ['V1.8.0', 'syntax', []],
    ['1.8.0-', 'syntax', []],
    ['Registry.K8s.io/CoreDNS/coredns:v1.8.0', 'syntax', []],
    ['coredns/coredns:v1.8.0@sha256:short', 'syntax', []],
    ['coredns/coredns:1.8.4+k3s1', 'syntax', []],
  ];

  it.each(refusedTexts)('%j is refused as %s', (text, code, candidates) => {
    const error = refused(text);
    expect(error).toBeInstanceOf(KubeDnsToCoreDnsError);
    expect(error.category).toBe('input');
    expect(error.code).toBe(code);
    expect(error.input).toBe(text);
    expect(error.candidates).toEqual(candidates);
    expect(error.message).toMatch(/\(known releases: 1\.0\.0 to 1\.14\.7\)$/);
  });

  it('says why in words', () => {
    expect(refused('docker.io/coredns/coredns:latest').message).toContain("'latest' names no release");
    expect(refused(`coredns/coredns@sha256:${'0f'.repeat(32)}`).message).toContain('a digest names no release');
    expect(refused('1.4.1').message).toContain('CoreDNS never released 1.4.1; the nearest releases are 1.4.0 and 1.5.0');
    expect(refused('1.8').message).toContain('the rules differ between patch releases');
    const long = refused(`coredns/coredns:v1.8.0${'-x'.repeat(600)}`);
    expect(long.code).toBe('syntax');
    expect(long.message).toContain('1222 characters long; no version or image reference is longer than 1024');
    expect(long.message.length).toBeLessThan(300);
  });
});

describe('resolveCoreDnsRelease: every known release, however it is written', () => {
  const pathComponent = fc.stringMatching(/^[a-z0-9]{1,6}(?:[-._][a-z0-9]{1,4})?$/);
  const registry = fc.oneof(
    fc.constant(''),
    fc.constantFrom('registry.k8s.io/', 'k8s.gcr.io/', 'docker.io/', 'localhost:5000/', '602401143452.dkr.ecr.eu-west-1.amazonaws.com/', '[::1]:5000/'),
  );
  const suffix = fc.oneof(
    fc.constant(''),
    fc.constantFrom('-eksbuild.1', '-100', '+k3s1', '-gke.0'),
    fc.tuple(fc.constantFrom('-', '+'), fc.stringMatching(/^[0-9A-Za-z][0-9A-Za-z._-]{0,12}$/)).map(([sign, rest]) => `${sign}${rest}`),
  );
  const space = fc.constantFrom('', ' ', '\t', '\n', '  ');
  const digest = fc.oneof(fc.constant(''), fc.stringMatching(/^[0-9a-f]{64}$/).map((hex) => `@sha256:${hex}`));

  it('resolves to that release, with a notice for each assumption', () => {
    const outcomes = new Outcomes<'plain' | 'suffix' | 'image' | 'image+digest'>();
    fc.assert(
      fc.property(
        fc.constantFrom(...COREDNS_VERSIONS),
        fc.boolean(),
        suffix,
        fc.option(fc.tuple(registry, fc.array(pathComponent, { maxLength: 2 }), digest), { nil: undefined, freq: 2 }),
        space,
        space,
        (version, withV, anySuffix, image, before, after) => {
          // An image tag has no `+` (the reference grammar allows word characters, `.` and `-`).
          const buildSuffix = image === undefined ? anySuffix : anySuffix.replaceAll('+', '-');
          const tag = `${withV ? 'v' : ''}${version}${buildSuffix}`;
          const [host, path, imageDigest] = image ?? ['', [], ''];
          const text = image === undefined ? `${before}${tag}${after}` : `${before}${host}${[...path, 'coredns'].join('/')}:${tag}${imageDigest}${after}`;
          const result = resolveCoreDnsRelease(text);
          expect(result.ok, text).toBe(true);
          if (!result.ok) return;
          expect(result.version).toBe(version);
          expect(result.mapping.suffix).toBe(buildSuffix === '' ? undefined : buildSuffix);
          const expected: CoreDnsReleaseNoticeCode[] = [];
          if (imageDigest !== '') expected.push('digest-not-checked');
          if (buildSuffix !== '') expected.push('build-suffix');
          expect(codes(result)).toEqual(expected);
          outcomes.add(image === undefined ? (buildSuffix === '' ? 'plain' : 'suffix') : imageDigest === '' ? 'image' : 'image+digest');
        },
      ),
      { numRuns: 600 },
    );
    outcomes.expectAtLeast({ plain: 30, suffix: 60, image: 60, 'image+digest': 30 });
  });

  it('maps every release newer than the table to the newest known, with a warning', () => {
    const outcomes = new Outcomes<'newer patch' | 'newer minor' | 'newer major'>();
    fc.assert(
      fc.property(fc.integer({ min: 8, max: 999 }), fc.integer({ min: 15, max: 999 }), fc.integer({ min: 2, max: 99 }), fc.nat(3), suffix, (patch, minor, major, shape, buildSuffix) => {
        const [text, outcome] =
          shape === 0 ? [`1.14.${patch}`, 'newer patch' as const] : shape === 1 ? [`1.${minor}.${patch % 10}`, 'newer minor' as const] : [`${major}.0.${patch % 5}`, 'newer major' as const];
        const result = resolveCoreDnsRelease(`v${text}${buildSuffix}`);
        expect(result.ok).toBe(true);
        if (!result.ok) return;
        expect(result.version).toBe(NEWEST_COREDNS_VERSION);
        expect(result.mapping.base).toBe(text);
        expect(codes(result)).toContain('newer-than-known');
        outcomes.add(outcome);
      }),
      { numRuns: 300 },
    );
    outcomes.expectAtLeast({ 'newer patch': 30, 'newer minor': 30, 'newer major': 30 });
  });
});
