import { describe, expect, it } from 'vitest';
import { LINT_HELP, runLint } from '../../src/cli/commands/lint.js';
import { main } from '../../src/cli/main.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { memoryIo } from '../support/memory-io.js';

const clean = '.:53 {\n    errors\n    forward . 8.8.8.8\n}\n';
const broken = '.:53 {\n    errors\n    proxy . 8.8.8.8\n    whoami\n}\n';

const configMap = `apiVersion: v1
kind: ConfigMap
metadata:
  name: coredns
  namespace: kube-system
data:
  Corefile: |
    .:53 {
        errors
        proxy . 8.8.8.8
    }
`;

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
      `error plugin-removed Corefile:3:5 [.:53] proxy: plugin 'proxy' was removed in CoreDNS 1.5.0: CoreDNS 1.14.7 stops with "Unknown directive 'proxy'"; use forward instead\n` +
        `info plugin-without-facts Corefile:4:5 [.:53] whoami: no version facts are recorded for plugin 'whoami': if CoreDNS 1.14.7 (or your build) lacks it, CoreDNS stops with "Unknown directive 'whoami'"\n`,
    );
    expect(io.err()).toBe('Corefile: 1 error, 0 warnings, 1 info (CoreDNS 1.14.7)\n');
  });

  it('lints against the release given by --coredns (v prefix allowed)', async () => {
    const io = memoryIo({ files: { Corefile: broken } });
    expect(await runLint(['--coredns', 'v1.4.0', 'Corefile'], io)).toBe(0);
    expect(io.out()).toMatch(/^info plugin-deprecated Corefile:3:5 \[\.:53\] proxy: /);
    expect(io.err()).toBe('Corefile: 0 errors, 0 warnings, 2 infos (CoreDNS 1.4.0)\n');
  });

  it('reads standard input and CoreDNS ConfigMaps', async () => {
    for (const args of [[], ['-']]) {
      const io = memoryIo({ stdin: configMap });
      expect(await runLint(args, io)).toBe(1);
      expect(io.out()).toMatch(/^error plugin-removed Corefile:3:5 /);
      expect(io.err()).toBe('<stdin>: 1 error, 0 warnings, 0 infos (CoreDNS 1.14.7)\n');
    }
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

  it('refuses bad usage and unreadable input with exit status 2', async () => {
    const cases: [string[], RegExp][] = [
      [['--coredns', '1.4.1', 'Corefile'], /unknown CoreDNS version '1\.4\.1'/],
      [['--coredns', '1.8', 'Corefile'], /name the patch release/],
      [['--output', 'yaml', 'Corefile'], /--output must be one of text, json/],
      [['--fix', 'Corefile'], /Unknown option '--fix'/],
      [['a', 'b'], /expected at most one FILE/],
      [['missing'], /missing: cannot read: no such file/],
    ];
    for (const [args, message] of cases) {
      const io = memoryIo({ files: { Corefile: clean } });
      const error = await runLint(args, io).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error, args.join(' ')).toBeInstanceOf(UsageError);
      expect((error as UsageError).exitCode).toBe(2);
      expect((error as UsageError).message).toMatch(message);
    }
  });

  it('prints help with examples', async () => {
    const io = memoryIo();
    expect(await runLint(['--help'], io)).toBe(0);
    expect(io.out()).toBe(LINT_HELP);
    expect(LINT_HELP).toContain('Examples:');
    expect(LINT_HELP).toContain('--coredns VERSION');
  });
});
