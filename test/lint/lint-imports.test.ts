import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/diagnostics/diagnostic.js';
import { lintCorefile } from '../../src/lint/index.js';
import type { ImportReader } from '../../src/lint/import-reader.js';
import { goMatch } from '../../src/platform/compose.js';

/** A reader over a few files (paths relative to the Corefile's directory), globbing the last path element as Go does. */
function filesReader(files: Readonly<Record<string, string>>, directories: readonly string[] = []): ImportReader {
  return (path) => {
    if (path.startsWith('/') || path.startsWith('..')) return { unresolved: 'outside the directory of the Corefile' };
    const slash = path.lastIndexOf('/');
    const directory = slash < 0 ? '' : path.slice(0, slash + 1);
    const last = path.slice(slash + 1);
    const names = [...Object.keys(files), ...directories].filter((name) => name.startsWith(directory) && !name.slice(directory.length).includes('/') && goMatch(last, name.slice(directory.length))).sort();
    return { files: names.map((name) => (directories.includes(name) ? { name, directory: true as const } : { name, text: files[name] as string })) };
  };
}

const lines = (text: string, coredns: string, reader: ImportReader) => lintCorefile(text, { coredns, imports: reader }).diagnostics.map(formatDiagnostic);

describe('lint with the imported files read', () => {
  it('lints what the files bring in, where they are written', () => {
    const corefile = '.:53 {\n    errors\n    import conf.d/*.conf\n}\nimport zones/extra.server\n';
    const reader = filesReader({ 'conf.d/a.conf': 'forward . 10.0.0.1\n', 'conf.d/b.conf': 'proxy . 10.0.0.2\n', 'zones/extra.server': 'extra.local {\n    forwrd . 10.0.0.3\n}\n' });
    expect(lines(corefile, '1.14.7', reader)).toEqual([
      "error plugin-removed conf.d/b.conf:1:1 [.:53] proxy: plugin 'proxy' was removed in CoreDNS 1.5.0: CoreDNS 1.14.7 stops with \"Unknown directive 'proxy'\"; use forward instead",
      "error unknown-directive zones/extra.server:2:5 [extra.local] forwrd: no CoreDNS release from 1.0.0 to 1.14.7 has a plugin 'forwrd' in its default build: CoreDNS 1.14.7 stops with \"Unknown directive 'forwrd'\"; did you mean 'forward'?",
    ]);
  });

  it('says what each release does with an import of nothing (checked with the real 1.2.6, 1.6.9, 1.8.0, 1.14.7)', () => {
    const reader = filesReader({});
    const block = (pattern: string) => `.:53 {\n    whoami\n    import ${pattern}\n}\n`;
    for (const release of ['1.2.6', '1.6.9', '1.8.0', '1.14.7']) {
      // A plain path that is not there: CoreDNS stops.
      expect(lintCorefile(block('nonexist'), { coredns: release, imports: reader }).diagnostics.map((entry) => `${entry.severity} ${entry.code}`), release).toEqual(['error import-refused']);
      // A glob matching nothing: CoreDNS starts, importing nothing.
      for (const glob of ['missing/*.conf', 'miss?ng.conf']) expect(lintCorefile(block(glob), { coredns: release, imports: reader }).ok, `${glob} @${release}`).toBe(true);
      // More than one wildcard: CoreDNS stops (the real releases say so before looking for files).
      expect(lintCorefile(block('*.c*'), { coredns: release }).diagnostics.map((entry) => entry.code)).toEqual(['import-refused']);
    }
    expect(lines(block('nonexist'), '1.14.7', reader)).toEqual(["error import-refused Corefile:3:5 import: no file 'nonexist': CoreDNS 1.14.7 stops with \"File to import not found: nonexist\""]);
    expect(lines(block('missing/*.conf'), '1.14.7', reader)).toEqual(['info import-matches-nothing Corefile:3:5 import: no file matches \'missing/*.conf\': CoreDNS 1.14.7 imports nothing and logs "No files matching import glob pattern: missing/*.conf"']);
    // Before 1.2.3 (caddy before v0.10.13) only '*' makes a glob: '?' matching nothing stops CoreDNS; several wildcards are no error.
    expect(lintCorefile(block('miss?ng.conf'), { coredns: '1.2.2', imports: reader }).diagnostics.map((entry) => entry.code)).toEqual(['import-refused']);
    expect(lintCorefile(block('*.c*'), { coredns: '1.2.2' }).diagnostics.map((entry) => entry.code)).toEqual(['import-not-checked']);
  });

  it('without a reader, says what the release does with the pattern', () => {
    const messages = (pattern: string, coredns: string) => lintCorefile(`.:53 {\n    import ${pattern}\n}\n`, { coredns }).diagnostics.map((entry) => entry.message);
    expect(messages('nonexist', '1.14.7')).toEqual(['\'nonexist\' names one file, which was not linted: CoreDNS 1.14.7 stops unless it exists ("File to import not found")']);
    expect(messages('conf.d/*.conf', '1.14.7')[0]).toMatch(/^'conf\.d\/\*\.conf' is a glob: the files it matches were not linted \(one that matches none imports nothing/);
  });

  it('refuses a directory, a cycle and an imported file that does not parse; leaves what the reader cannot tell about', () => {
    const block = (pattern: string) => `.:53 {\n    import ${pattern}\n}\n`;
    expect(lines(block('conf.d'), '1.14.7', filesReader({}, ['conf.d']))).toEqual(['error import-refused Corefile:2:5 import: CoreDNS 1.14.7 stops with "Could not import conf.d: is a directory"']);
    const cycle = lintCorefile(block('a.conf'), { coredns: '1.14.7', imports: filesReader({ 'a.conf': 'import b.conf\n', 'b.conf': 'import a.conf\n' }) });
    expect(cycle.diagnostics.map((entry) => `${entry.code} ${entry.key}`)).toEqual(['import-refused b.conf']);
    const broken = lintCorefile(block('a.conf'), { coredns: '1.14.7', imports: filesReader({ 'a.conf': 'errors\nforward . "10.0.0.1\n' }) });
    expect(broken.ok).toBe(false);
    expect(broken.diagnostics.map((entry) => `${entry.code} ${entry.key}:${entry.position?.line}`)).toEqual(['import-refused a.conf:2']);
    const outside = lintCorefile(block('/etc/coredns/custom/*.override'), { coredns: '1.14.7', imports: filesReader({}) });
    expect(outside.diagnostics.map((entry) => entry.message)).toEqual([expect.stringMatching(/is a glob: .*; not read: outside the directory of the Corefile$/)]);
    // A snippet import is the snippet's, and an import written in a snippet is read where it lands.
    const snippet = lintCorefile('(common) {\n    errors\n}\n.:53 {\n    import common\n}\n', { coredns: '1.14.7', imports: filesReader({}) });
    expect(snippet.diagnostics).toEqual([]);
  });
});
