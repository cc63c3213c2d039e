import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderKubeadmManifest } from '../../../src/kubeadm/manifest.js';
import { KUBEADM_PROFILES } from '../../../src/kubeadm/profiles.js';
import type { KubeadmProfileId } from '../../../src/kubeadm/profiles.js';
import { translateKubeadmPieces } from '../../../src/kubeadm/translate-pieces.js';
import { decodeYamlV2Manifest, decodeYamlV2ManifestAs, yamlV2ToJson } from '../../../src/kubeadm/yaml-v2/decode-manifest.js';
import { expectLinearGrowth } from '../../support/growth.js';
import { YAML_V2_2017, YAML_V2_2_4, YAML_V2_2_8 } from '../../../src/kubeadm/yaml-v2/dialect.js';

/*
 * The expected yaml.v2 outcomes in these files were checked against gopkg.in/yaml.v2 itself: v2.4.0
 * as shipped by Debian (the lazy simple-key check of v2.2.8), the same with libyaml's eager check
 * restored (v2.2.4), and that with the 2017 scanner differences and line numbering (670d4cfe).
 */

function kubeadmManifest(profileId: KubeadmProfileId, data: Record<string, string>): string {
  const profile = KUBEADM_PROFILES[profileId];
  const translated = translateKubeadmPieces(profile, data, 'cluster.local');
  if (!translated.ok) throw new Error(translated.error);
  return renderKubeadmManifest(profile, translated.pieces, 'cluster.local');
}

function decodeAs(profileId: KubeadmProfileId, data: Record<string, string>) {
  return decodeYamlV2Manifest(kubeadmManifest(profileId, data), KUBEADM_PROFILES[profileId].yamlRelease);
}

/** A manifest shaped like kubeadm's, with `lines` as the literal block's lines. */
function manifestWithCorefile(lines: readonly string[]): string {
  const head = ['', 'apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: coredns', '  namespace: kube-system', 'data:', '  Corefile: |'];
  return [...head, ...lines.map((line) => `    ${line}`), ''].join('\n');
}

/** What the literal block decodes to: the lines, without trailing empty ones, and one final break. */
function clipped(lines: readonly string[]): string {
  const kept = [...lines];
  while (kept.length > 0 && kept[kept.length - 1] === '') kept.pop();
  return kept.length === 0 ? '' : `${kept.join('\n')}\n`;
}

describe('decodeYamlV2Manifest on kubeadm manifests', () => {
  it('reads the Corefile of an ordinary manifest', () => {
    const outcome = decodeAs('v1.17', { stubDomains: '{"a.com": ["1.1.1.1"]}', upstreamNameservers: '["8.8.8.8"]' });
    expect(outcome.ok).toBe(true);
    expect(outcome.ok && outcome.corefile.endsWith('a.com:53 {\n   errors\n   cache 30\n   loop\n   forward . 1.1.1.1\n}\n')).toBe(true);
  });

  it('reports a stale required key where yaml.v2 notices it (E16)', () => {
    // `foo` at column 0 starts a plain scalar that runs to the end; the key check fails there.
    expect(decodeAs('v1.10', { upstreamNameservers: '["8.8.8.8\\nfoo"]' })).toEqual({ ok: false, error: "yaml: line 21: could not find expected ':'" });
    expect(decodeAs('v1.14', { upstreamNameservers: '["8.8.8.8\\nfoo"]' })).toEqual({ ok: false, error: "yaml: line 25: could not find expected ':'" });
  });

  it('reports a parser error when a less indented line closes data: (P00781)', () => {
    expect(decodeAs('v1.10', { stubDomains: '{}', upstreamNameservers: '["1.2.3.4\\n", "8.8.4.4"]' })).toEqual({
      ok: false,
      error: 'yaml: line 18: did not find expected key',
    });
  });

  it('treats CR, NEL, LS and PS in a stub key as line breaks', () => {
    expect(decodeAs('v1.15', { stubDomains: '{"a\\rb": ["1.1.1.1"]}' })).toEqual({ ok: false, error: "yaml: line 32: could not find expected ':'" });
    expect(decodeAs('v1.19', { stubDomains: '{"a\\u2028b": ["1.1.1.1"]}' })).toEqual({ ok: false, error: "yaml: line 36: could not find expected ':'" });
    expect(decodeAs('v1.11', { stubDomains: '{"a\\u0085b": ["1.1.1.1"]}' })).toEqual({ ok: false, error: "yaml: line 27: could not find expected ':'" });
  });

  it('rejects control characters', () => {
    expect(decodeAs('v1.12', { stubDomains: '{"a\\u0001b": ["1.1.1.1"]}' })).toEqual({ ok: false, error: 'yaml: control characters are not allowed' });
  });

  it('rejects a tab at the start of a literal block line', () => {
    expect(decodeAs('v1.10', { upstreamNameservers: '["1.1.1.1\\n", "\\t8.8.8.8"]' })).toEqual({
      ok: false,
      error: 'yaml: line 18: found a tab character where an indentation space is expected',
    });
  });

  it('keeps a line break that stays indented inside the block', () => {
    const outcome = decodeAs('v1.10', { upstreamNameservers: '["8.8.8.8\\n    log"]' });
    expect(outcome.ok && outcome.corefile.includes('    proxy . 8.8.8.8\nlog\n')).toBe(true);
  });

  it('returns the truncated Corefile when the pasted text is still a valid ConfigMap', () => {
    // `  foo: bar` becomes another data key, `foo: bar` an ignored top-level key.
    for (const upstream of ['["8.8.8.8\\n  foo: bar"]', '["8.8.8.8\\nfoo: bar"]']) {
      const outcome = decodeAs('v1.14', { upstreamNameservers: upstream });
      expect(outcome.ok && outcome.corefile.endsWith('    prometheus :9153\n    forward . 8.8.8.8\n')).toBe(true);
    }
    // A second Corefile key wins.
    expect(decodeAs('v1.14', { upstreamNameservers: '["8.8.8.8\\n  Corefile: other"]' })).toEqual({
      ok: true,
      corefile: 'other cache 30 loop reload loadbalance }',
    });
  });

  it('fails (in its own words) when the pasted text changes the kind or drops the Corefile', () => {
    const kind = decodeAs('v1.14', { upstreamNameservers: '["8.8.8.8\\nkind: Secret"]' });
    expect(kind.ok).toBe(false);
    expect(!kind.ok && kind.error.startsWith('decoded manifest is apiVersion "v1" kind "Secret')).toBe(true);
    expect(decodeAs('v1.14', { upstreamNameservers: '["8.8.8.8\\ndata:\\n  x: y"]' })).toEqual({
      ok: false,
      error: 'decoded ConfigMap has no data.Corefile (kubeadm would store a ConfigMap without a Corefile)',
    });
  });

  it('distinguishes v2.2.8 (kubeadm v1.18+) from v2.2.4 where a stale required key is noticed', () => {
    // `{` at column 0 opens a flow mapping that is a required key candidate; v2.2.4 notices its
    // staleness at the next line, v2.2.8 only when the parser reaches it.
    const manifest = kubeadmManifest('v1.19', { stubDomains: '{"a\\r{": ["1.1.1.1"]}' });
    expect(decodeYamlV2Manifest(manifest, 'yaml.v2.2')).toEqual({ ok: false, error: "yaml: line 31: could not find expected ':'" });
    expect(decodeYamlV2Manifest(manifest, 'yaml.v2.2.8')).toEqual({ ok: false, error: "yaml: line 35: could not find expected ':'" });
    expect(decodeYamlV2Manifest(manifestWithCorefile(['.:53 {', '}']), 'yaml.v2.2.8')).toEqual({ ok: true, corefile: '.:53 {\n}\n' });
  });
});

/** Characters a Corefile line may hold without leaving the literal block: no breaks, no controls. */
const LINE_CHARS = ['a', 'z', 'Q', '0', '9', '.', ':', ' ', ' ', '\t', '{', '}', '#', '"', "'", '\\', '-', '|', '>', '[', ',', '*', '&', '!', '%', '@', 'é', '😀', '\ufeff', '\u00a0'];
/** Characters that can start a Corefile's first line (a blank would change the block's indentation). */
const FIRST_CHARS = LINE_CHARS.filter((ch) => ch !== ' ' && ch !== '\t');
/** Characters that, at column 0, cannot continue or silently close the document ('#' would be a comment). */
const COLUMN_ZERO_CHARS = FIRST_CHARS.filter((ch) => ch !== '#');
const BREAKS = ['\n', '\r', '\r\n', '\u0085', '\u2028', '\u2029'];

const line = fc.array(fc.constantFrom(...LINE_CHARS), { maxLength: 30 }).map((chars) => chars.join(''));
const corefileLines = fc
  .tuple(fc.array(fc.constant(''), { maxLength: 2 }), fc.constantFrom(...FIRST_CHARS), line, fc.array(line, { maxLength: 12 }))
  .map(([leading, first, rest, more]) => [...leading, first + rest, ...more]);

describe('decodeYamlV2Manifest: laws', () => {
  it('decodes a literal block of safe lines to the lines with exactly one final break (clip)', () => {
    fc.assert(
      fc.property(corefileLines, (lines) => {
        const manifest = manifestWithCorefile(lines);
        for (const dialect of [YAML_V2_2017, YAML_V2_2_4, YAML_V2_2_8]) {
          expect(decodeYamlV2ManifestAs(manifest, dialect)).toEqual({ ok: true, corefile: clipped(lines) });
        }
      }),
      { numRuns: 300 },
    );
  });

  it('fails or changes the Corefile when a line break followed by text at column 0 is pasted into a line', () => {
    fc.assert(
      fc.property(corefileLines, fc.nat(), fc.nat(), fc.constantFrom(...BREAKS), fc.constantFrom(...COLUMN_ZERO_CHARS), (lines, at, offset, brk, first) => {
        const index = at % lines.length;
        const target = lines[index] ?? '';
        const cut = offset % (target.length + 1);
        const pasted = [...lines];
        pasted[index] = `${target.slice(0, cut)}${brk}${first}${target.slice(cut)}`;
        const manifest = manifestWithCorefile(pasted);
        for (const dialect of [YAML_V2_2017, YAML_V2_2_4, YAML_V2_2_8]) {
          const outcome = decodeYamlV2ManifestAs(manifest, dialect);
          expect(outcome.ok && outcome.corefile === clipped(lines)).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('decodeYamlV2Manifest: size', () => {
  it('handles deeply nested collections without exhausting the stack', () => {
    const depth = 20_000;
    const nested = `a: ${'['.repeat(depth)}${']'.repeat(depth)}\n`;
    const json = yamlV2ToJson(nested, YAML_V2_2_4);
    expect(json.ok && json.json.length).toBe(depth * 2 + 6);
    expect(yamlV2ToJson(`a: ${'['.repeat(depth)}\n`, YAML_V2_2_4)).toEqual({ ok: false, error: 'yaml: line 1: did not find expected node content' });
  });

  it('decodes the manifest of a 2 MiB kube-dns ConfigMap exactly, in linear time', () => {
    const corefileLines = (blockCount: number): string[] => {
      const blocks: string[] = [];
      for (let i = 0; i < blockCount; i += 1) {
        blocks.push(`stub-${i}.corp.example.com:53 {`, '   errors', '   cache 30', '   loop', '   forward . 10.0.0.1 10.0.0.2:5353 10.0.0.3', '}', '');
      }
      return ['.:53 {', '    errors', '}', ...blocks];
    };
    const lines = corefileLines(16_000);
    const manifest = manifestWithCorefile(lines);
    expect(manifest.length).toBeGreaterThan(2_000_000);
    expect(decodeYamlV2Manifest(manifest, 'yaml.v2.2')).toEqual({ ok: true, corefile: clipped(lines) });
    expectLinearGrowth((blockCount) => manifestWithCorefile(corefileLines(blockCount)), (text) => decodeYamlV2Manifest(text, 'yaml.v2.2'), { small: 1_000, large: 16_000 });
  });
});
