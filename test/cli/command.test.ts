import { describe, expect, it } from 'vitest';
import { CHECK_HELP } from '../../src/cli/commands/check.js';
import { COMPOSE_HELP } from '../../src/cli/commands/compose.js';
import { CUTOVER_HELP } from '../../src/cli/commands/cutover.js';
import { EXPLAIN_HELP } from '../../src/cli/commands/explain.js';
import { FMT_HELP } from '../../src/cli/commands/fmt.js';
import { LINT_HELP } from '../../src/cli/commands/lint.js';
import { MIGRATE_HELP } from '../../src/cli/commands/migrate.js';
import { VERIFY_HELP } from '../../src/cli/commands/verify.js';
import { MAIN_HELP } from '../../src/cli/help.js';
import { main } from '../../src/cli/main.js';
import { defineCommand, parseCommandLine } from '../../src/cli/command.js';
import type { OptionSpecs } from '../../src/cli/command.js';
import { flag, repeated, text } from '../../src/cli/options.js';
import { memoryIo } from '../support/memory-io.js';
import { configMapYaml } from '../support/kube-dns-manifests.js';

/** A command declared for the test: `options`, with or without `-o`. */
const demo = (options: OptionSpecs, outputs = false) =>
  defineCommand({ name: 'demo', help: '', options, ...(outputs ? { outputs: { kinds: ['text', 'json'] as ['text', 'json'] } } : {}), run: async () => 0 });

const KUBE_DNS = 'data:\n  stubDomains: \'{"acme.local": ["10.0.0.1"]}\'\n';
const COREFILE = '.:53 {\n    forward . 8.8.8.8\n}\n';
const FILES = { 'kube-dns.yaml': KUBE_DNS, Corefile: COREFILE };

/** Each command that takes `--output`, with arguments that make it print JSON. */
const COMMANDS: readonly (readonly [string, readonly string[], string])[] = [
  ['(translate)', ['kube-dns.yaml'], MAIN_HELP],
  ['lint', ['lint', 'Corefile'], LINT_HELP],
  ['check', ['check', '--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile'], CHECK_HELP],
  ['explain', ['explain', 'api.acme.local', '--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile'], EXPLAIN_HELP],
];

const COMMANDS_WITH_HELP: readonly (readonly [string, string])[] = [
  ['(translate)', MAIN_HELP],
  ['fmt', FMT_HELP],
  ['lint', LINT_HELP],
  ['migrate', MIGRATE_HELP],
  ['check', CHECK_HELP],
  ['explain', EXPLAIN_HELP],
  ['compose', COMPOSE_HELP],
  ['cutover', CUTOVER_HELP],
  ['verify', VERIFY_HELP],
];

describe('-o is --output, for every command', () => {
  it.each(COMMANDS)('%s accepts -o json, -ojson and --output json alike, and its help says so', async (_, args, help) => {
    const outputs: string[] = [];
    for (const option of [['--output', 'json'], ['-o', 'json'], ['-ojson'], ['--output=json']]) {
      const io = memoryIo({ files: FILES });
      await main([...args, ...option], io);
      expect(io.err(), option.join(' ')).not.toMatch(/Unknown option/);
      outputs.push(io.out());
    }
    expect(() => JSON.parse(outputs[0] ?? '')).not.toThrow();
    expect(new Set(outputs).size).toBe(1);
    expect(help).toContain('-o, --output FORMAT');
  });

  it('is added by the preamble to any command that declares outputs', () => {
    const parsed = parseCommandLine(demo({}, true), ['-o', 'json']);
    expect(parsed.values['output']).toBe('json');
    expect(() => parseCommandLine(demo({ check: flag() }), ['-o', 'json'])).toThrow(/demo: Unknown option '-o'/);
  });

  it('is taken by fmt for its two outputs, corefile and configmap', () => {
    expect(FMT_HELP).toContain('-o, --output FORMAT');
    expect(FMT_HELP).toContain('corefile (default) or configmap');
  });
});

describe('a value option given twice', () => {
  it('is refused, naming both values, instead of keeping the last one silently', async () => {
    const io = memoryIo({ files: FILES });
    expect(await main(['migrate', '--from', '1.3.1', '--from', '1.4.0', '--to', '1.8.0', 'Corefile'], io)).toBe(2);
    expect(io.err()).toContain("migrate: --from is given twice ('1.3.1' and '1.4.0'); give it once");
    expect(io.out()).toBe('');
    const lint = memoryIo({ files: FILES });
    expect(await main(['lint', '--coredns', '1.2.6', '--coredns=1.8.0', 'Corefile'], lint)).toBe(2);
    expect(lint.err()).toContain('lint: --coredns is given twice');
    expect(() => parseCommandLine(demo({}, true), ['-o', 'json', '--output', 'text'])).toThrow(/demo: --output is given twice/);
  });

  it('is fine for a flag and for an option that takes several values', () => {
    expect(parseCommandLine(demo({ check: flag() }), ['--check', '--check']).values['check']).toBe(true);
    expect(parseCommandLine(demo({ name: repeated(), file: text() }), ['--name', 'a', '--name', 'b']).values['name']).toEqual(['a', 'b']);
  });
});

describe('typos', () => {
  it('takes a bare word one edit from a command for that command, not for a FILE', async () => {
    const io = memoryIo({ files: FILES });
    expect(await main(['chek', '--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile'], io)).toBe(2);
    expect(io.err()).toBe("kube-dns-to-coredns: unknown command 'chek'; did you mean 'check'? (to translate a file of that name, give its path: ./chek); see --help\n");
    expect(io.out()).toBe('');
    // A file of that name is translated when given by its path; a word far from every command is a FILE.
    const path = memoryIo({ files: { './chek': KUBE_DNS } });
    expect(await main(['./chek'], path)).toBe(0);
    expect(path.out()).toContain('acme.local:53');
    const far = memoryIo({ files: { kubedns: KUBE_DNS } });
    expect(await main(['kubedns'], far)).toBe(0);
  });

  it.each([
    [['--core-dns', '1.8.0', 'kube-dns.yaml'], "kube-dns-to-coredns: Unknown option '--core-dns'; did you mean '--coredns'?"],
    [['lint', '--core-dns', '1.8.0', 'Corefile'], "kube-dns-to-coredns: lint: Unknown option '--core-dns'; did you mean '--coredns'?"],
    [['check', '--kubedns', 'kube-dns.yaml', '--corefile', 'Corefile'], "kube-dns-to-coredns: check: Unknown option '--kubedns'; did you mean '--kube-dns'?"],
    [['migrate', '--form', '1.6.7', '--to', '1.8.0', 'Corefile'], "kube-dns-to-coredns: migrate: Unknown option '--form'; did you mean '--from'?"],
  ])('suggests the option meant for %j, in a message whose quotes pair up', async (args, start) => {
    const io = memoryIo({ files: FILES });
    expect(await main(args, io)).toBe(2);
    expect(io.err().startsWith(start), io.err()).toBe(true);
    expect(io.err().split("'").length % 2, io.err()).toBe(1);
  });

  it('says how to pass a FILE starting with -, with balanced quotes, when nothing is close', async () => {
    const io = memoryIo({ files: { '-x': KUBE_DNS } });
    expect(await main(['-x'], io)).toBe(2);
    expect(io.err()).toBe("kube-dns-to-coredns: Unknown option '-x' (a FILE whose name starts with '-' goes after '--': -- -x); see --help\n");
    const after = memoryIo({ files: { '-x': KUBE_DNS } });
    expect(await main(['--', '-x'], after)).toBe(0);
  });
});

describe('one word per kind of output', () => {
  it('names a report for people text in every command, the words of 0.1 still accepted', async () => {
    const run = async (args: readonly string[]) => {
      const io = memoryIo({ files: FILES });
      const status = await main(args, io);
      return { status, out: io.out() };
    };
    const check = ['check', '--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile'];
    expect(await run([...check, '-o', 'text'])).toEqual(await run(check));
    expect(await run([...check, '-o', 'table'])).toEqual(await run(check));
    const explain = ['explain', 'api.acme.local', '--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile'];
    expect(await run([...explain, '-o', 'text'])).toEqual(await run([...explain, '-o', 'table']));
    const migrate = ['migrate', '--from', '1.6.7', '--to', '1.8.0', 'Corefile'];
    expect(await run([...migrate, '-o', 'corefile'])).toEqual(await run(migrate));
    expect(await run([...migrate, '-o', 'text'])).toEqual(await run(migrate));
    expect((await run(['lint', '-o', 'text', 'Corefile'])).status).toBe(0);
  });

  it.each([
    [['kube-dns.yaml'], 'corefile, configmap, json, coredns-custom, eks-addon, helm-values, install'],
    [['lint', 'Corefile'], 'text, json'],
    [['migrate', '--from', '1.6.7', '--to', '1.8.0', 'Corefile'], 'corefile, json, configmap, eks-addon'],
    [['check', '--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile'], 'text, json'],
  ])('lists the words of %j when one is wrong', async (args, words) => {
    const io = memoryIo({ files: FILES });
    expect(await main([...args, '-o', 'yaml'], io)).toBe(2);
    expect(io.err()).toContain(`--output must be one of ${words}, not 'yaml'`);
  });
});

describe('--quiet and --verbose', () => {
  const STOCK = configMapYaml({ upstreamNameservers: '["8.8.8.8"]' }, { metadata: 'block' });

  it('-q leaves out the infos of a stock translation and keeps its warnings and the Corefile', async () => {
    const loud = memoryIo({ files: { 'kube-dns.yaml': STOCK } });
    expect(await main(['--coredns', '1.8.0', 'kube-dns.yaml'], loud)).toBe(0);
    expect(loud.err()).toMatch(/^info /m);
    expect(loud.err()).toMatch(/^warning /m);
    for (const option of ['-q', '--quiet']) {
      const quiet = memoryIo({ files: { 'kube-dns.yaml': STOCK } });
      expect(await main([option, '--coredns', '1.8.0', 'kube-dns.yaml'], quiet)).toBe(0);
      expect(quiet.out()).toBe(loud.out());
      expect(quiet.err()).toBe(loud.err().split('\n').filter((line) => !line.startsWith('info ')).join('\n'));
      expect(quiet.err()).toMatch(/^warning /m);
    }
  });

  it('-q leaves out lint infos and its summary; the JSON output is whole', async () => {
    const corefile = '.:53 {\n    proxy . 8.8.8.8\n}\n';
    const loud = memoryIo({ files: { Corefile: corefile } });
    expect(await main(['lint', '--coredns', '1.4.0', 'Corefile'], loud)).toBe(0);
    expect(loud.out()).toMatch(/^info plugin-deprecated/);
    const quiet = memoryIo({ files: { Corefile: corefile } });
    expect(await main(['lint', '-q', '--coredns', '1.4.0', 'Corefile'], quiet)).toBe(0);
    expect(quiet.out() + quiet.err()).toBe('');
    const json = memoryIo({ files: { Corefile: corefile } });
    expect(await main(['lint', '-q', '-o', 'json', '--coredns', '1.4.0', 'Corefile'], json)).toBe(0);
    expect(JSON.parse(json.out()).diagnostics).toHaveLength(1);
  });

  it('--verbose follows each diagnostic with its hint', async () => {
    const io = memoryIo({ files: { 'kube-dns.yaml': STOCK } });
    expect(await main(['--verbose', 'kube-dns.yaml'], io)).toBe(0);
    const lines = io.err().split('\n');
    const assumed = lines.findIndex((line) => line.startsWith('info kube-dns-deployment-assumed'));
    expect(lines[assumed + 1]).toMatch(/^ {2}hint: Give the Deployment too/);
  });

  it('are taken before the command name too, as --out is', async () => {
    const io = memoryIo({ files: FILES });
    expect(await main(['-q', '--out', 'lint.txt', 'lint', 'Corefile'], io)).toBe(0);
    expect(io.written.get('lint.txt')).toBe('');
    expect(io.err()).toBe('');
  });
});

describe('every command', () => {
  it.each(COMMANDS_WITH_HELP)('%s documents -q, --verbose, --out and its output words in its help (every command takes them)', (_, help) => {
    expect(help).toContain('-q, --quiet');
    expect(help).toContain('--verbose');
    expect(help).toContain('--out FILE');
    expect(help).not.toMatch(/\btable \(default\)/);
  });
});
