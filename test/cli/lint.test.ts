import { KubeDnsToCoreDnsError } from '../../src/errors/kube-dns-to-coredns-error.js';
import { describe, expect, it } from 'vitest';
import { LINT_HELP } from '../../src/cli/commands/lint.js';
import { runLint } from '../support/commands.js';
import { main } from '../../src/cli/main.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { memoryIo } from '../support/memory-io.js';
import { coreDnsConfigMapYaml } from '../support/kube-dns-manifests.js';

const clean = '.:53 {\n    errors\n    forward . 8.8.8.8\n}\n';
const broken = '.:53 {\n    errors\n    proxy . 8.8.8.8\n    whoami\n}\n';
const external = '.:53 {\n    errors\n    alias\n    forward . 8.8.8.8\n}\n';
const pluginCfg = '# a custom build\nerrors:errors\nalias:github.com/serverwentdown/alias\nforward:forward\n';

const configMap = coreDnsConfigMapYaml('.:53 {\n    errors\n    proxy . 8.8.8.8\n}\n');

describe('kube-dns-to-coredns lint', () => {
  it('prints nothing on stdout and exits 0 for a clean Corefile', async () => {
    const io = memoryIo({ files: { Corefile: clean } });
    expect(await runLint(['Corefile'], io)).toBe(0);
    expect(io.out()).toBe('');
    expect(io.err()).toBe('Corefile: no findings (CoreDNS 1.14.7)\n');
  });

  it('prints findings on stdout, a summary on stderr, and exits 1 on errors', async () => {
    const io = memoryIo({ files: { Corefile: broken } });
    expect(await runLint(['Corefile'], io)).toBe(1);
    expect(io.out()).toBe(
      `error plugin-removed Corefile:3:5 [.:53] proxy: plugin 'proxy' was removed in CoreDNS 1.5.0: CoreDNS 1.14.7 stops with "Unknown directive 'proxy'"; use forward instead\n`,
    );
    expect(io.err()).toBe('Corefile: 1 error, 0 warnings, 0 infos (CoreDNS 1.14.7)\n');
  });

  it('refuses an external plugin for the default build, and lints against a custom build with --plugin-cfg or --plugins', async () => {
    const plain = memoryIo({ files: { Corefile: external } });
    expect(await runLint(['Corefile'], plain)).toBe(1);
    expect(plain.out()).toMatch(/^error unknown-directive Corefile:3:5 \[\.:53\] alias: /);
    for (const args of [['--plugin-cfg', 'plugin.cfg'], ['--plugins', 'errors,alias,forward'], ['--plugins', ' errors , alias,forward ']]) {
      const io = memoryIo({ files: { Corefile: external, 'plugin.cfg': pluginCfg } });
      expect(await runLint([...args, 'Corefile'], io), args.join(' ')).toBe(0);
      expect(io.out()).toMatch(/^info plugin-without-facts Corefile:3:5 \[\.:53\] alias: plugin 'alias' comes from your build's plugin list; /);
      expect(io.err()).toBe('Corefile: 0 errors, 0 warnings, 1 info (CoreDNS 1.14.7)\n');
    }
    // A plugin of the default build that the custom build leaves out is an error.
    const without = memoryIo({ files: { Corefile: external } });
    expect(await runLint(['--plugins', 'alias,forward', 'Corefile'], without)).toBe(1);
    expect(without.out()).toMatch(/^error unknown-directive Corefile:2:5 \[\.:53\] errors: plugin 'errors' is not in your build's plugin list/);
  });

  it('lints against the release given by --coredns (v prefix allowed)', async () => {
    const io = memoryIo({ files: { Corefile: broken } });
    expect(await runLint(['--coredns', 'v1.4.0', 'Corefile'], io)).toBe(0);
    expect(io.out()).toMatch(/^info plugin-deprecated Corefile:3:5 \[\.:53\] proxy: /);
    expect(io.err()).toBe('Corefile: 0 errors, 0 warnings, 1 info (CoreDNS 1.4.0)\n');
  });

  it('reads standard input and CoreDNS ConfigMaps', async () => {
    for (const args of [[], ['-']]) {
      const io = memoryIo({ stdin: configMap });
      expect(await runLint(args, io)).toBe(1);
      expect(io.out()).toMatch(/^error plugin-removed Corefile:3:5 /);
      expect(io.err()).toBe('<stdin>: 1 error, 0 warnings, 0 infos (CoreDNS 1.14.7)\n');
    }
  });

  it('says that the other data keys of a ConfigMap are not linted (first, as infos)', async () => {
    const withKeys = `${configMap}  NodeHosts: |\n    10.0.0.1 node1\n  extra.server: |\n    acme.local:53 {\n        proxy . 10.0.0.1\n    }\n`;
    const io = memoryIo({ stdin: withKeys });
    expect(await runLint([], io)).toBe(1);
    expect(io.out().split('\n').slice(0, 2)).toEqual([
      "info configmap-key-not-checked NodeHosts: data key 'NodeHosts' of the ConfigMap was not linted: only 'Corefile' is read",
      "info configmap-key-not-checked extra.server: data key 'extra.server' of the ConfigMap was not linted: only 'Corefile' is read; if it holds Corefile text (imported as a file), lint it on its own",
    ]);
    expect(io.err()).toBe('<stdin>: 1 error, 0 warnings, 2 infos (CoreDNS 1.14.7)\n');
  });

  it('writes JSON with --output json', async () => {
    const io = memoryIo({ files: { Corefile: broken } });
    expect(await runLint(['--output', 'json', '--coredns', '1.6.7', 'Corefile'], io)).toBe(1);
    const report = JSON.parse(io.out()) as { file: string; coredns: string; ok: boolean; diagnostics: { code: string; severity: string; key: string; path: string; position: { line: number; column: number }; hint: string }[] };
    expect(report).toMatchObject({ file: 'Corefile', coredns: '1.6.7', ok: false });
    expect(report.diagnostics[0]).toMatchObject({ code: 'plugin-removed', severity: 'error', key: 'Corefile', path: ':3:5 [.:53] proxy', position: { line: 3, column: 5 } });
    expect(report.diagnostics[0]?.hint).not.toBe('');
    expect(io.err()).toBe('');
  });

  it('exits 2 with FILE:LINE:COL on a syntax error, pointing into a ConfigMap when it can', async () => {
    const io = memoryIo({ files: { Corefile: '. {\n    whoami }\n' } });
    expect(await main(['lint', 'Corefile'], io)).toBe(2);
    expect(io.err()).toBe("Corefile:2:12: Unexpected '}' because no matching opening brace\n");
    expect(io.out()).toBe('');
    const yaml = memoryIo({ files: { 'cm.yaml': configMap.replace('proxy . 8.8.8.8', 'proxy . 8.8.8.8 }') } });
    expect(await main(['lint', 'cm.yaml'], yaml)).toBe(2);
    expect(yaml.err()).toMatch(/^cm\.yaml:10:\d+: /);
  });

  it('places findings on Helm values at the values path and its line in the file, in text and JSON (#21)', async () => {
    const values = 'servers:\n- zones:\n  - zone: .\n  port: 53\n  plugins:\n  - name: cache\n    parameters: "0"\n  - name: forward\n    parameters: ". 10.0.0.1 {"\n';
    const text = memoryIo({ files: { 'values.yaml': values } });
    expect(await runLint(['values.yaml'], text)).toBe(1);
    expect(text.out().split('\n').filter((line) => line !== '')).toEqual([
      `error helm-value-breaks-corefile values.yaml:9:5 servers[0].plugins[1].parameters: ". 10.0.0.1 {" is pasted into the Corefile as it is: its brace opens or closes a block, so CoreDNS reads something else than 'forward' with these parameters`,
      // The server's closing brace is the template's: placed at the server.
      "warning syntax-warning values.yaml:2:3 servers[0]: this server block has no closing '}': the nested block's '}' ends it",
      "error argument-invalid values.yaml:7:18 servers[0].plugins[0].parameters [.:53] cache: plugin 'cache': 0 is outside [1, …]: CoreDNS 1.14.7 does not start",
    ]);
    const json = memoryIo({ files: { 'values.yaml': values } });
    expect(await runLint(['values.yaml', '-o', 'json'], json)).toBe(1);
    const cache = (JSON.parse(json.out()) as { diagnostics: Record<string, unknown>[] }).diagnostics.find((entry) => entry['code'] === 'argument-invalid');
    expect(cache).toEqual({
      code: 'argument-invalid',
      severity: 'error',
      key: 'servers[0].plugins[0].parameters',
      path: ' [.:53] cache',
      position: { line: 1, column: 1 },
      location: { filename: 'values.yaml', line: 7, column: 18, exact: true },
      message: "plugin 'cache': 0 is outside [1, …]: CoreDNS 1.14.7 does not start",
      hint: expect.any(String),
    });
  });

  it('refuses bad usage and unreadable input with exit status 2', async () => {
    const cases: [string[], RegExp][] = [
      [['--coredns', '1.4.1', 'Corefile'], /cannot resolve a CoreDNS release from '1\.4\.1'/],
      [['--coredns', '1.8', 'Corefile'], /name the patch release/],
      [['--output', 'yaml', 'Corefile'], /--output must be one of text, json/],
      [['--fix', 'Corefile'], /Unknown option '--fix'/],
      [['a', 'b'], /expected at most one FILE/],
      [['missing'], /missing: cannot read: no such file/],
      [['--plugin-cfg', 'none.cfg', 'Corefile'], /none\.cfg: cannot read: no such file/],
      [['--plugin-cfg', 'bad.cfg', 'Corefile'], /bad\.cfg:2: expected NAME:PACKAGE, got 'forward'/],
      [['--plugin-cfg', 'empty.cfg', 'Corefile'], /--plugin-cfg empty\.cfg names no plugin/],
      [['--plugin-cfg', '-', 'Corefile'], /--plugin-cfg needs a file/],
      [['--plugin-cfg', 'bad.cfg', '--plugins', 'errors', 'Corefile'], /give --plugin-cfg or --plugins, not both/],
      [['--plugins', 'errors,,forward', 'Corefile'], /--plugins takes comma-separated directive names; '' is not one/],
      [['--plugins', 'errors forward', 'Corefile'], /'errors forward' is not one/],
    ];
    for (const [args, message] of cases) {
      const io = memoryIo({ files: { Corefile: clean, 'bad.cfg': 'errors:errors\nforward\n', 'empty.cfg': '# nothing\nreverse:deprecated\n' } });
      const error = await runLint(args, io).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      // The CLI's own usage errors, or the library's input errors, which main() maps to exit 2 alike.
      if (error instanceof UsageError) expect(error.exitCode, args.join(' ')).toBe(2);
      else expect(error instanceof KubeDnsToCoreDnsError && error.category === 'input', args.join(' ')).toBe(true);
      expect((error as Error).message).toMatch(message);
    }
  });

  it('prints help with examples', async () => {
    const io = memoryIo();
    expect(await runLint(['--help'], io)).toBe(0);
    expect(io.out()).toBe(LINT_HELP);
    expect(LINT_HELP).toContain('Examples:');
    expect(LINT_HELP).toContain('--coredns VERSION');
    expect(LINT_HELP).toContain('--plugin-cfg FILE');
    expect(LINT_HELP).toContain('--plugins LIST');
  });
});

describe('kube-dns-to-coredns lint FILE reads the files it imports next to FILE', () => {
  const corefile = '.:53 {\n    errors\n    import conf.d/*.conf\n    import missing/*.conf\n}\nimport zones.server\n';

  it('lints them where they are written and says what the release does with an import of nothing', async () => {
    const io = memoryIo({ files: { 'etc/Corefile': corefile, 'etc/conf.d/a.conf': 'proxy . 10.0.0.1\n', 'etc/conf.d/sub/x.conf': 'whoami\n', 'etc/zones.server': 'acme.local {\n    forward . 10.0.0.2\n}\n' } });
    expect(await runLint(['etc/Corefile'], io)).toBe(1);
    expect(io.out()).toBe(
      [
        `info import-matches-nothing Corefile:4:5 import: no file matches 'missing/*.conf': CoreDNS 1.14.7 imports nothing and logs "No files matching import glob pattern: missing/*.conf"`,
        `error plugin-removed conf.d/a.conf:1:1 [.:53] proxy: plugin 'proxy' was removed in CoreDNS 1.5.0: CoreDNS 1.14.7 stops with "Unknown directive 'proxy'"; use forward instead`,
        '',
      ].join('\n'),
    );
    // A named file that is not there stops CoreDNS.
    const missing = memoryIo({ files: { Corefile: '.:53 {\n    import nonexist\n}\n' } });
    expect(await runLint(['Corefile'], missing)).toBe(1);
    expect(missing.out()).toBe(`error import-refused Corefile:2:5 import: no file 'nonexist': CoreDNS 1.14.7 stops with "File to import not found: nonexist"\n`);
  });

  it('reads nothing outside FILE’s directory, and says why an import was not read', async () => {
    const io = memoryIo({ files: { 'etc/Corefile': '.:53 {\n    import ../secret.conf\n    import /etc/coredns/custom/*.override\n}\n', 'secret.conf': 'whoami\n' } });
    expect(await runLint(['etc/Corefile'], io)).toBe(0);
    expect(io.out()).toBe(
      [
        `info import-not-checked Corefile:2:5 [.:53] import: '../secret.conf' names one file, which was not linted: CoreDNS 1.14.7 stops unless it exists ("File to import not found"); not read: it lies outside the directory of etc/Corefile, where lint reads imports`,
        `info import-not-checked Corefile:3:5 [.:53] import: '/etc/coredns/custom/*.override' is a glob: the files it matches were not linted (one that matches none imports nothing: CoreDNS 1.14.7 logs "No files matching import glob pattern"); not read: an absolute path names a file of the machine CoreDNS runs on; lint reads imports only next to etc/Corefile`,
        '',
      ].join('\n'),
    );
    const stdin = memoryIo({ stdin: '.:53 {\n    import nonexist\n}\n' });
    expect(await runLint([], stdin)).toBe(0);
    expect(stdin.out()).toMatch(/; not read: standard input has no directory to read imports from: give the Corefile as FILE\n$/);
  });
});
