import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runFmt } from '../support/commands.js';
import { main } from '../../src/cli/main.js';
import { memoryIo } from '../support/memory-io.js';

const messy = '.:53 {\n  errors\n\tforward . 8.8.8.8 { # upstream\n  force_tcp\n}\n}\n';
const canonical = '.:53 {\n    errors\n    forward . 8.8.8.8 { # upstream\n        force_tcp\n    }\n}\n';

const configMap = `apiVersion: v1
kind: ConfigMap
metadata:
  name: coredns
  namespace: kube-system
data:
  Corefile: |
    .:53 {
      errors
        cache 30
    }
`;

describe('kube-dns-to-coredns fmt', () => {
  it('prints the canonical form of a Corefile file, or of standard input', async () => {
    const io = memoryIo({ files: { Corefile: messy } });
    expect(await runFmt(['Corefile'], io)).toBe(0);
    expect(io.out()).toBe(canonical);
    expect(io.err()).toBe('');
    for (const args of [['-'], []]) {
      const stdin = memoryIo({ stdin: messy });
      expect(await runFmt(args, stdin)).toBe(0);
      expect(stdin.out()).toBe(canonical);
    }
  });

  it('is wired into the main CLI', async () => {
    const io = memoryIo({ stdin: messy });
    expect(await main(['fmt'], io)).toBe(0);
    expect(io.out()).toBe(canonical);
  });

  it('--check prints the name of a non-canonical input and exits 1, nothing and 0 for a canonical one', async () => {
    const dirty = memoryIo({ stdin: messy });
    expect(await runFmt(['--check'], dirty)).toBe(1);
    expect([dirty.out(), dirty.err()]).toEqual(['<stdin>\n', '']);
    const clean = memoryIo({ stdin: canonical });
    expect(await runFmt(['--check', '-'], clean)).toBe(0);
    expect([clean.out(), clean.err()]).toEqual(['', '']);
    const crlf = memoryIo({ files: { Corefile: canonical.replaceAll('\n', '\r\n') } });
    expect(await runFmt(['--check', 'Corefile'], crlf)).toBe(1);
    expect(crlf.out()).toBe('Corefile\n');
  });

  it('--check takes several files, lists each that is not canonical, one per line, and checks them all', async () => {
    const files = { 'a/Corefile': messy, 'b/Corefile': canonical, 'c/Corefile': messy, 'cm.yaml': configMap };
    const io = memoryIo({ files });
    expect(await main(['fmt', '--check', 'a/Corefile', 'b/Corefile', 'c/Corefile', 'cm.yaml'], io)).toBe(1);
    expect(io.out()).toBe('a/Corefile\nc/Corefile\ncm.yaml\n');
    expect(io.err()).toBe('');
    const allClean = memoryIo({ files });
    expect(await main(['fmt', '--check', 'b/Corefile', 'b/Corefile'], allClean)).toBe(0);
    expect(allClean.out()).toBe('');
  });

  it('--check goes on past unreadable files and syntax errors; the worst status wins', async () => {
    const io = memoryIo({ files: { dirty: messy, 'bad.cf': '. {\n' } });
    expect(await main(['fmt', '--check', 'missing', 'bad.cf', 'dirty'], io)).toBe(2);
    expect(io.out()).toBe('dirty\n');
    expect(io.err()).toBe("kube-dns-to-coredns: missing: cannot read: no such file\nbad.cf:1:3: Syntax error: Unexpected token '{', expecting '}'\n");
  });

  it('--check escapes control characters in the names it lists, one name per line', async () => {
    const io = memoryIo({ files: { 'evil\nCorefile': messy } });
    expect(await main(['fmt', '--check', 'evil\nCorefile'], io)).toBe(1);
    expect(io.out()).toBe('evil\\nCorefile\n');
  });

  it('formats one file only: several without --check are a usage error, and so is - twice', async () => {
    const io = memoryIo({ files: { a: messy, b: messy } });
    expect(await main(['fmt', 'a', 'b'], io)).toBe(2);
    expect(io.out()).toBe('');
    expect(io.err()).toBe("kube-dns-to-coredns: fmt: formatting prints one Corefile, got 2 FILEs; give one FILE, or --check to check several\n");
    const twice = memoryIo({ stdin: messy });
    expect(await main(['fmt', '--check', '-', '-'], twice)).toBe(2);
    expect(twice.err()).toBe("kube-dns-to-coredns: fmt: standard input ('-') can be read only once\n");
  });

  it('reports syntax errors as FILE:LINE:COL: message with exit 2', async () => {
    const io = memoryIo({ files: { 'bad.cf': '. {\n    whoami }\n' } });
    expect(await main(['fmt', 'bad.cf'], io)).toBe(2);
    expect(io.err()).toBe("bad.cf:2:12: Unexpected '}' because no matching opening brace\n");
    expect(io.out()).toBe('');
    const check = memoryIo({ stdin: '. {\n' });
    expect(await main(['fmt', '--check'], check)).toBe(2);
    expect(check.err()).toBe("<stdin>:1:3: Syntax error: Unexpected token '{', expecting '}'\n");
  });

  it('prints warnings on stderr, positioned, and still formats', async () => {
    const io = memoryIo({ stdin: 'a.org\nwhoami\n' });
    expect(await runFmt([], io)).toBe(0);
    expect(io.out()).toBe('a.org {\n    whoami\n}\n');
    expect(io.err()).toBe('<stdin>:2:1: warning: this server block has no braces: every following line belongs to it, up to a line starting with }\n');
  });

  it('lists at most 1,000 warnings of one kind, and counts the rest in one line', async () => {
    // 3,000 levels on one line: a '}' after tokens at every level (2 million levels, 12 MB, wrote 231 MB of warnings).
    const corefile = `.:53 {\n    a${' { a'.repeat(3000)}${' }'.repeat(3000)}\n}\na.org\nwhoami\n`;
    const io = memoryIo({ files: { Corefile: corefile } });
    expect(await runFmt(['Corefile'], io)).toBe(0);
    const lines = io.err().trimEnd().split('\n');
    expect(lines.filter((line) => line.endsWith("warning: this '}' shares a line with other tokens: plugins read it as one more argument"))).toHaveLength(1000);
    expect(lines.slice(-2)).toEqual([
      'Corefile:5:1: warning: this server block has no braces: every following line belongs to it, up to a line starting with }',
      'Corefile: warning: 2,000 more closing-brace-after-tokens warnings are not listed (3,000 in all; the first 1,000 are)',
    ]);
    expect(lines).toHaveLength(1002);
  });

  it('formats the Corefile entry of a CoreDNS ConfigMap (YAML or JSON)', async () => {
    const yaml = memoryIo({ files: { 'cm.yaml': configMap } });
    expect(await runFmt(['cm.yaml'], yaml)).toBe(0);
    expect(yaml.out()).toBe('.:53 {\n    errors\n    cache 30\n}\n');
    const json = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'coredns' }, data: { Corefile: canonical } }, null, 2);
    const jsonIo = memoryIo({ stdin: json });
    expect(await runFmt(['--check'], jsonIo)).toBe(0);
    const list = memoryIo({
      stdin: `${configMap}---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: other\ndata:\n  Corefile: ". {}"\n`,
    });
    expect(await runFmt([], list)).toBe(0);
    expect(list.out()).toBe('.:53 {\n    errors\n    cache 30\n}\n');
  });

  it('points syntax errors in a ConfigMap’s Corefile at the YAML file’s lines', async () => {
    const broken = configMap.replace('cache 30\n', 'cache 30 }\n');
    const io = memoryIo({ files: { 'cm.yaml': broken } });
    expect(await main(['fmt', 'cm.yaml'], io)).toBe(2);
    expect(io.err()).toBe("cm.yaml:10:18: Unexpected '}' because no matching opening brace\n");
    const json = memoryIo({ stdin: JSON.stringify({ kind: 'ConfigMap', data: { Corefile: '. {\n  x }\n' } }) });
    expect(await main(['fmt'], json)).toBe(2);
    expect(json.err()).toBe("<stdin>: data.Corefile line 2, column 5: Unexpected '}' because no matching opening brace\n");
  });

  it('refuses a ConfigMap without a Corefile entry, and bad YAML, as usage errors', async () => {
    const kubeDns = memoryIo({ stdin: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kube-dns\ndata:\n  stubDomains: "{}"\n' });
    await expect(runFmt([], kubeDns)).rejects.toThrow("<stdin>: ConfigMap 'kube-dns' has no 'Corefile' entry (keys: stubDomains)");
    const viaMain = memoryIo({ stdin: 'kind: ConfigMap\ndata:\n  Corefile: [\n' });
    expect(await main(['fmt'], viaMain)).toBe(2);
    expect(viaMain.err()).toMatch(/^kube-dns-to-coredns: <stdin>:\d+:\d+: not valid YAML or JSON/);
  });

  it('exits 2 for unreadable or undecodable input and bad usage', async () => {
    const missing = memoryIo();
    expect(await main(['fmt', 'nope.cf'], missing)).toBe(2);
    expect(missing.err()).toBe('kube-dns-to-coredns: nope.cf: cannot read: no such file\n');
    const binary = memoryIo({ files: { 'x.cf': new Uint8Array([0x2e, 0x20, 0x7b, 0xff, 0x0a]) } });
    expect(await main(['fmt', 'x.cf'], binary)).toBe(2);
    expect(binary.err()).toBe('kube-dns-to-coredns: x.cf:1:4: not UTF-8 text: byte 0xff at byte offset 3\n');
    const usage = memoryIo();
    expect(await main(['fmt', '--frobnicate'], usage)).toBe(2);
    expect(usage.err()).toMatch(/^kube-dns-to-coredns: fmt: Unknown option '--frobnicate'/);
    expect(await main(['fmt', 'a', 'b'], memoryIo())).toBe(2);
  });

  it('has --help with examples', async () => {
    const io = memoryIo();
    expect(await runFmt(['--help'], io)).toBe(0);
    expect(io.out()).toMatch(/^Usage: kube-dns-to-coredns fmt \[-o corefile\|configmap\] \[FILE\|-\]\n {7}kube-dns-to-coredns fmt --check \[FILE\|-\]\.\.\.\n {7}kube-dns-to-coredns fmt --write FILE\.\.\./);
    expect(io.out()).toContain('Examples:');
  });

  it('treats every real-world Corefile as a Corefile, never as a ConfigMap', async () => {
    const directory = join(import.meta.dirname, '../../golden/realworld/corefiles');
    for (const file of readdirSync(directory)) {
      const io = memoryIo({ files: { [file]: readFileSync(join(directory, file)) } });
      const status = await main(['fmt', file], io);
      expect([0, 2], file).toContain(status);
      if (status === 2) expect(io.err(), file).toMatch(new RegExp(`^${file.replaceAll('.', '\\.')}:\\d+:\\d+: `));
    }
  });
  describe('ConfigMaps out as they came in', () => {
    // What kubectl prints on a k3s server (abridged), with its Corefile indented by two spaces.
    const k3s = readFileSync(join(import.meta.dirname, '../../golden/platform/codes/configmap-server-fields-dropped.yaml'), 'utf8');
    const formatted = '.:53 {\n    errors\n    hosts /etc/coredns/NodeHosts {\n        ttl 60\n        reload 15s\n        fallthrough\n    }\n    forward . /etc/resolv.conf\n}\n';
    const dropped = 'metadata.annotations.kubectl.kubernetes.io/last-applied-configuration, metadata.creationTimestamp, metadata.managedFields, metadata.resourceVersion, metadata.uid';

    it('-o configmap prints the ConfigMap with the Corefile formatted, its keys, labels and annotations kept', async () => {
      const io = memoryIo({ files: { 'coredns.yaml': k3s } });
      expect(await main(['fmt', '-o', 'configmap', 'coredns.yaml'], io)).toBe(0);
      expect(io.out()).toBe(
        [
          'apiVersion: v1',
          'data:',
          '  Corefile: |',
          ...formatted.trimEnd().split('\n').map((line) => `    ${line}`),
          '  NodeHosts: |',
          '    172.18.0.2 k3d-server-0',
          'kind: ConfigMap',
          'metadata:',
          '  annotations:',
          '    objectset.rio.cattle.io/owner-gvk: k3s.cattle.io/v1, Kind=Addon',
          '  labels:',
          '    objectset.rio.cattle.io/hash: bce283298811743a0386ab510f2f67ef74240c57',
          '  name: coredns',
          '  namespace: kube-system',
          '',
        ].join('\n'),
      );
      expect(io.err()).toBe(`info configmap-server-fields-dropped: ConfigMap kube-system/coredns is written without the fields the API server sets: ${dropped}\n`);
      // A bare Corefile becomes the kube-system/coredns ConfigMap.
      const bare = memoryIo({ files: { Corefile: messy } });
      expect(await main(['fmt', '-o', 'configmap', 'Corefile'], bare)).toBe(0);
      expect(bare.out()).toBe(`apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: coredns\n  namespace: kube-system\ndata:\n  Corefile: |\n${canonical.trimEnd().split('\n').map((line) => `    ${line}`).join('\n')}\n`);
    });

    it('--write rewrites each FILE that is not canonical in place, as it came in, and leaves the others alone', async () => {
      const io = memoryIo({ files: { 'coredns.yaml': k3s, Corefile: messy, 'done.cf': canonical } });
      expect(await main(['fmt', '--write', 'coredns.yaml', 'Corefile', 'done.cf'], io)).toBe(0);
      expect(io.out()).toBe('');
      expect([...io.written.keys()]).toEqual(['coredns.yaml', 'Corefile']);
      expect(io.written.get('Corefile')).toBe(canonical);
      const configMapWritten = io.written.get('coredns.yaml') ?? '';
      expect(configMapWritten).toContain(`  Corefile: |\n${formatted.trimEnd().split('\n').map((line) => `    ${line}`).join('\n')}\n  NodeHosts: |\n`);
      expect(configMapWritten).toContain('objectset.rio.cattle.io/hash: bce283298811743a0386ab510f2f67ef74240c57');
      expect(configMapWritten).not.toContain('resourceVersion');
      expect(io.err()).toBe(`info configmap-server-fields-dropped: coredns.yaml: ConfigMap kube-system/coredns is written without the fields the API server sets: ${dropped}\n`);
    });

    it('--write goes on after a FILE it cannot read, write or parse, and exits with the worst status; nothing half-written', async () => {
      const io = memoryIo({ files: { 'bad.cf': '. {\n', '/unwritable/Corefile': messy, Corefile: messy } });
      expect(await main(['fmt', '--write', 'bad.cf', '/unwritable/Corefile', 'missing.cf', 'Corefile'], io)).toBe(2);
      expect([...io.written.keys()]).toEqual(['Corefile']);
      expect(io.err()).toMatch(/^bad\.cf:\d+:\d+: .*\nkube-dns-to-coredns: \/unwritable\/Corefile: cannot write: EACCES: permission denied\nkube-dns-to-coredns: missing\.cf: cannot read: no such file\n$/);
    });

    it('refuses --write with standard input, with --check, with -o or with --out, and an unknown -o', async () => {
      for (const [args, message] of [
        [['--write'], 'fmt: --write needs a FILE to rewrite'],
        [['--write', '-'], "fmt: --write rewrites files; standard input ('-') cannot be written back"],
        [['--write', '--check', 'a'], 'fmt: --check and --write do not go together'],
        [['--write', '-o', 'configmap', 'a'], 'fmt: -o does not go with --write'],
        // --out FILE would be written empty (--write prints nothing) while FILE is rewritten.
        [['--write', '--out', 'elsewhere', 'a'], 'fmt: --out does not go with --write, which rewrites each FILE in place'],
        [['-o', 'yaml', 'a'], "fmt: --output must be one of corefile, configmap, not 'yaml'"],
      ] as const) {
        const io = memoryIo();
        expect(await main(['fmt', ...args], io), args.join(' ')).toBe(2);
        expect(io.err()).toContain(message);
      }
    });
  });
});
