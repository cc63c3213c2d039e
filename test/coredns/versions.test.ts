import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  COREDNS_RELEASES,
  COREDNS_VERSIONS,
  compareCoreDnsVersions,
  coreDnsRelease,
  isCoreDnsVersion,
  isCoreDnsVersionAtLeast,
  NEWEST_COREDNS_VERSION,
  OLDEST_COREDNS_VERSION,
  parseCoreDnsVersion,
  UnknownCoreDnsVersionError,
} from '../../src/coredns/versions.js';
import { coreDnsFeatures } from '../../src/coredns/features.js';
import {
  KUBERNETES_COREDNS_RELEASES,
  KUBERNETES_DEFAULT_COREFILES,
  kubernetesDefaultCorefileFor,
} from '../../src/coredns/kubernetes-default-corefile.js';
import { Outcomes } from '../support/outcomes.js';

function caught(run: () => unknown): UnknownCoreDnsVersionError {
  try {
    run();
  } catch (error) {
    if (error instanceof UnknownCoreDnsVersionError) return error;
    throw error;
  }
  throw new Error('expected an UnknownCoreDnsVersionError');
}


describe('the known releases', () => {
  it('run from 1.0.0 to 1.14.7, strictly ascending', () => {
    expect(COREDNS_VERSIONS[0]).toBe(OLDEST_COREDNS_VERSION);
    expect(COREDNS_VERSIONS.at(-1)).toBe(NEWEST_COREDNS_VERSION);
    expect(NEWEST_COREDNS_VERSION).toBe('1.14.7');
    for (let index = 1; index < COREDNS_VERSIONS.length; index += 1) {
      expect(compareCoreDnsVersions(COREDNS_VERSIONS[index - 1] ?? '', COREDNS_VERSIONS[index] ?? '')).toBe(-1);
    }
    expect(COREDNS_VERSIONS).toHaveLength(73);
  });

  it('has releases in every minor series 1.0 to 1.14', () => {
    const minors = new Set(COREDNS_VERSIONS.map((version) => version.split('.')[1]));
    expect([...minors]).toEqual(Array.from({ length: 15 }, (_, minor) => String(minor)));
  });

  it('lists the releases corefile-migration skips, with why where that is known', () => {
    for (const version of ['1.6.8', '1.8.1', '1.8.2', '1.11.2'] as const) {
      expect(COREDNS_VERSIONS).toContain(version);
      expect(coreDnsRelease(version).caveat).toBeTruthy();
      expect(coreDnsRelease(version).evidence).toContain('release-notes');
    }
    // 1.8.1 had an entry in older corefile-migration revisions (image digest "todo"), later dropped.
    for (const version of ['1.6.8', '1.8.2', '1.11.2'] as const) expect(coreDnsRelease(version).evidence).not.toContain('corefile-migration');
    expect(coreDnsRelease('1.6.8').caveat).toMatch(/identical content/);
    expect(coreDnsRelease('1.8.2').caveat).toMatch(/not a valid version/);
  });

  it('keeps one evidence record per release, in the same order', () => {
    expect(COREDNS_RELEASES.map((release) => release.version)).toEqual([...COREDNS_VERSIONS]);
    for (const release of COREDNS_RELEASES) expect(release.evidence.length).toBeGreaterThan(0);
    expect(coreDnsRelease('v1.6.2')).toEqual({ version: '1.6.2', evidence: ['corefile-migration', 'kubernetes-default'] });
    expect(coreDnsRelease('1.14.7').evidence).toEqual(['reference-tag']);
  });

  it('leaves out releases that never existed', () => {
    for (const version of ['1.3.2', '1.4.1', '1.5.3', '1.7.2', '1.10.2', '1.14.8']) expect(isCoreDnsVersion(version)).toBe(false);
  });
});

describe('parseCoreDnsVersion', () => {
  it.each([
    ['1.8.0', '1.8.0'],
    ['v1.8.0', '1.8.0'],
    ['  1.14.7\n', '1.14.7'],
    ['1.10.1', '1.10.1'],
    ['v1.0.0', '1.0.0'],
  ])('%j → %s', (text, version) => {
    expect(parseCoreDnsVersion(text)).toBe(version);
  });

  it.each([
    ['1.8', 'incomplete', ['1.8.0', '1.8.1', '1.8.2', '1.8.3', '1.8.4', '1.8.5', '1.8.6', '1.8.7'], "unknown CoreDNS version '1.8': name the patch release, one of 1.8.0, 1.8.1, 1.8.2, 1.8.3, 1.8.4, 1.8.5, 1.8.6, 1.8.7; '1.8' is not taken to mean any of them (known releases: 1.0.0 to 1.14.7)"],
    ['v1.9', 'incomplete', ['1.9.0', '1.9.1', '1.9.2', '1.9.3', '1.9.4'], /name the patch release, one of 1\.9\.0, 1\.9\.1, 1\.9\.2, 1\.9\.3, 1\.9\.4/],
    ['1', 'incomplete', COREDNS_VERSIONS, /one of 1\.0\.0, 1\.0\.1, 1\.0\.2, …, 1\.14\.6, 1\.14\.7/],
    ['1.4.1', 'unreleased', ['1.4.0'], "unknown CoreDNS version '1.4.1': CoreDNS never released it; the only 1.4 release is 1.4.0 (known releases: 1.0.0 to 1.14.7)"],
    ['1.3.2', 'unreleased', ['1.3.0', '1.3.1'], /the 1\.3 releases are 1\.3\.0, 1\.3\.1/],
    ['1.15.0', 'out-of-range', [], "unknown CoreDNS version '1.15.0': newer than 1.14.7, the newest release this package knows; pass a known release (known releases: 1.0.0 to 1.14.7)"],
    ['1.14.8', 'out-of-range', [], /newer than 1\.14\.7/],
    ['2.0.0', 'out-of-range', [], /newer than 1\.14\.7/],
    ['0.9.10', 'out-of-range', [], /releases before 1\.0\.0 are not modelled/],
    ['1.15', 'out-of-range', [], /no known release starts with it/],
    ['', 'syntax', [], "unknown CoreDNS version '': expected MAJOR.MINOR.PATCH such as 1.8.0 or v1.8.0 (known releases: 1.0.0 to 1.14.7)"],
    ['latest', 'syntax', [], /expected MAJOR\.MINOR\.PATCH/],
    ['1.8.0-rc1', 'syntax', [], /expected MAJOR\.MINOR\.PATCH/],
    ['1.8.0+build', 'syntax', [], /expected MAJOR\.MINOR\.PATCH/],
    ['V1.8.0', 'syntax', [], /expected MAJOR\.MINOR\.PATCH/],
    ['01.8.0', 'syntax', [], /expected MAJOR\.MINOR\.PATCH/],
    ['1.08.0', 'syntax', [], /expected MAJOR\.MINOR\.PATCH/],
    ['1.8.0.1', 'syntax', [], /expected MAJOR\.MINOR\.PATCH/],
    ['v 1.8.0', 'syntax', [], /expected MAJOR\.MINOR\.PATCH/],
    ['coredns-1.8.0', 'syntax', [], /expected MAJOR\.MINOR\.PATCH/],
  ] as const)('refuses %j (%s)', (text, reason, candidates, message) => {
    const error = caught(() => parseCoreDnsVersion(text));
    expect(error.name).toBe('UnknownCoreDnsVersionError');
    expect(error.input).toBe(text);
    expect(error.code).toBe(reason);
    expect(error.reason).toBe(error.message);
    expect(error.candidates).toEqual([...candidates]);
    if (typeof message === 'string') expect(error.message).toBe(message);
    else expect(error.message).toMatch(message);
    expect(error.message).toContain('known releases: 1.0.0 to 1.14.7');
  });

  it('round-trips every known release, with or without v', () => {
    for (const version of COREDNS_VERSIONS) {
      expect(parseCoreDnsVersion(version)).toBe(version);
      expect(parseCoreDnsVersion(`v${version}`)).toBe(version);
    }
  });

  it('refuses every complete version that is not in the list, never guessing', () => {
    const outcomes = new Outcomes<'known' | 'unknown'>();
    fc.assert(
      fc.property(fc.nat(2), fc.nat(20), fc.nat(12), (major, minor, patch) => {
        const text = `${major}.${minor}.${patch}`;
        outcomes.add(isCoreDnsVersion(text) ? 'known' : 'unknown');
        if (isCoreDnsVersion(text)) expect(parseCoreDnsVersion(text)).toBe(text);
        else expect(() => parseCoreDnsVersion(text)).toThrow(UnknownCoreDnsVersionError);
      }),
      { numRuns: 500 },
    );
    // Expected: about 60 known releases and 440 other versions in 500 runs.
    outcomes.expectAtLeast({ known: 25, unknown: 300 });
  });
});

describe('ordering', () => {
  it.each([
    ['1.9.4', '1.10.0', -1],
    ['1.10.0', '1.9.4', 1],
    ['v1.8.0', '1.8.0', 0],
    ['1.2.10', '1.2.9', 1],
    ['1.14.7', '1.15.0', -1],
    ['0.9.10', '1.0.0', -1],
  ])('compare(%s, %s) = %i', (a, b, expected) => {
    expect(compareCoreDnsVersions(a, b)).toBe(expected);
  });

  it('refuses incomplete or malformed text', () => {
    expect(caught(() => compareCoreDnsVersions('1.8', '1.8.0')).code).toBe('incomplete');
    expect(caught(() => compareCoreDnsVersions('1.8.0', 'next')).code).toBe('syntax');
  });

  it('agrees with the order of the list (property)', () => {
    const index = fc.nat(COREDNS_VERSIONS.length - 1);
    fc.assert(
      fc.property(index, index, (i, j) => {
        const a = COREDNS_VERSIONS[i] ?? '';
        const b = COREDNS_VERSIONS[j] ?? '';
        expect(compareCoreDnsVersions(a, b)).toBe(Math.sign(i - j));
        expect(isCoreDnsVersionAtLeast(a, b)).toBe(i >= j);
      }),
    );
  });

  it('sorts a shuffled list back into release order (property)', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray([...COREDNS_VERSIONS], { minLength: 2 }), (subset) => {
        const sorted = [...subset].sort(compareCoreDnsVersions);
        expect(sorted).toEqual(COREDNS_VERSIONS.filter((version) => subset.includes(version)));
      }),
    );
  });
});

// ---------------------------------------------------------------------------------------------
// docs/coredns-versions.md: the generated tables must match the code.
// ---------------------------------------------------------------------------------------------

const yes = (value: boolean): string => (value ? 'yes' : '–');

function span(from: string, to: string): string {
  return from === to ? from : `${from}–${to}`;
}

function featureTable(): string {
  const header = [
    'CoreDNS',
    '`proxy`',
    '`forward`',
    '`federation`',
    'kubernetes `upstream`',
    '`fallthrough` zones',
    '`ready`',
    '`loop`',
    '`reload`',
    '`lameduck`',
    '`max_concurrent`',
    'hostname TOs',
    '`https://` TOs',
    '`forward`s per block',
    '15-TO cap',
    'upper-case zone keys',
    'plugin setup',
    '`health` twice on one address',
    'Kubernetes default',
  ];
  const rows: Array<{ from: string; to: string; cells: string[] }> = [];
  for (const version of COREDNS_VERSIONS) {
    const f = coreDnsFeatures(version);
    const cap = f.upstreamLimit.enforcement === 'enforced' ? `yes, ${f.upstreamLimit.counting}` : f.upstreamLimit.enforcement;
    const cells = [
      f.proxy,
      f.forward,
      f.federation,
      f.kubernetesUpstream,
      yes(f.kubernetesFallthroughZones),
      yes(f.ready),
      yes(f.loop),
      yes(f.reload),
      yes(f.healthLameduck),
      yes(f.forwardMaxConcurrent),
      yes(f.forwardHostnameTargets),
      yes(f.forwardHttpsTargets),
      f.multipleForwardPerBlock ? 'several' : 'one',
      cap,
      f.zoneKeyCase,
      f.pluginSetup,
      f.healthListener,
      `\`${kubernetesDefaultCorefileFor(version).id}\``,
    ];
    const last = rows.at(-1);
    if (last !== undefined && last.cells.join('|') === cells.join('|')) last.to = version;
    else rows.push({ from: version, to: version, cells });
  }
  const line = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map((row) => line([span(row.from, row.to), ...row.cells]))].join('\n');
}

function defaultsTable(): string {
  const lines = ['| default | CoreDNS | shipped by Kubernetes | basis |', '| --- | --- | --- | --- |'];
  for (const entry of KUBERNETES_DEFAULT_COREFILES) {
    const kubernetes = entry.kubernetesReleases.length === 0 ? '–' : entry.kubernetesReleases.join(', ');
    lines.push(`| \`${entry.id}\` | ${span(entry.from, entry.to)} | ${kubernetes} | ${entry.basis} |`);
  }
  return lines.join('\n');
}

function kubernetesTable(): string {
  const lines = ['| Kubernetes | CoreDNS | default main block | evidence |', '| --- | --- | --- | --- |'];
  for (const entry of KUBERNETES_COREDNS_RELEASES) {
    lines.push(`| ${entry.kubernetes} | ${entry.coredns} | \`${kubernetesDefaultCorefileFor(entry.coredns).id}\` | ${entry.evidence} |`);
  }
  return lines.join('\n');
}

function releasesTable(): string {
  const lines = ['| release | evidence | note |', '| --- | --- | --- |'];
  for (const release of COREDNS_RELEASES) lines.push(`| ${release.version} | ${release.evidence.join(', ')} | ${release.caveat ?? '–'} |`);
  return lines.join('\n');
}

function generated(markdown: string, name: string): string {
  const start = `<!-- generated:${name} -->\n`;
  const end = `\n<!-- /generated:${name} -->`;
  const from = markdown.indexOf(start);
  const to = markdown.indexOf(end);
  if (from < 0 || to < from) throw new Error(`docs/coredns-versions.md lacks the generated:${name} markers`);
  return markdown.slice(from + start.length, to);
}

describe('docs/coredns-versions.md', () => {
  const markdown = readFileSync(join(import.meta.dirname, '../../docs/coredns-versions.md'), 'utf8');

  it.each([
    ['features', featureTable],
    ['defaults', defaultsTable],
    ['kubernetes', kubernetesTable],
    ['releases', releasesTable],
  ] as const)('the %s table matches the code', (name, render) => {
    if (process.env['PRINT_COREDNS_DOC_TABLES'] === '1') console.log(`<!-- generated:${name} -->\n${render()}\n<!-- /generated:${name} -->`);
    expect(generated(markdown, name)).toBe(render());
  });
});
