import { describe, expect, it } from 'vitest';
import { CHECK_HELP } from '../../src/cli/commands/check.js';
import { EXPLAIN_HELP } from '../../src/cli/commands/explain.js';
import { FMT_HELP } from '../../src/cli/commands/fmt.js';
import { LINT_HELP } from '../../src/cli/commands/lint.js';
import { MAIN_HELP } from '../../src/cli/help.js';
import { main } from '../../src/cli/main.js';
import { parseCommandArgs } from '../../src/cli/parse-command-args.js';
import { memoryIo } from '../support/memory-io.js';

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

  it('is added by the parser helper to any command with an --output option', () => {
    const parsed = parseCommandArgs('demo', ['-o', 'json'], { options: { output: { type: 'string' } } });
    expect(parsed.values.output).toBe('json');
    expect(() => parseCommandArgs('demo', ['-o', 'json'], { options: { check: { type: 'boolean' } } })).toThrow(/demo: Unknown option '-o'/);
  });

  it('is not taken by fmt, which has no --output', () => {
    expect(FMT_HELP).not.toContain('--output');
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
    expect(() => parseCommandArgs('demo', ['-o', 'json', '--output', 'text'], { options: { output: { type: 'string' } } })).toThrow(/demo: --output is given twice/);
  });

  it('is fine for a flag and for an option that takes several values', () => {
    expect(parseCommandArgs('demo', ['--check', '--check'], { options: { check: { type: 'boolean' } } }).values.check).toBe(true);
    expect(parseCommandArgs('demo', ['--name', 'a', '--name', 'b'], { options: { name: { type: 'string', multiple: true } } }).values.name).toEqual(['a', 'b']);
  });
});
