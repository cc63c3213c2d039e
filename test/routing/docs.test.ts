import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'rolldown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../support/commands.js';
import { runExplain } from '../support/commands.js';
import { pointPackageImports } from '../support/entries.js';
import { memoryIo } from '../support/memory-io.js';

/**
 * Executes docs/routing.md: its files (`<!-- file: PATH -->`), its CLI transcripts (`<!-- cli -->`)
 * and its examples (`<!-- example: module|vitest|jest|node-test -->`). The examples import
 * 'kube-dns-to-coredns' and 'kube-dns-to-coredns/routing'; here both are a bundle of src/index.ts and
 * src/routing/index.ts.
 */

const root = join(import.meta.dirname, '../..');
const markdown = readFileSync(join(root, 'docs/routing.md'), 'utf8');

function marked(kind: string): { argument: string; body: string }[] {
  const pattern = new RegExp(`^<!-- ${kind}(?:: ([^ ]+))? -->\\n\`\`\`[a-z]*\\n([\\s\\S]*?)^\`\`\`$`, 'gm');
  return [...markdown.matchAll(pattern)].map((match) => ({ argument: match[1] ?? '', body: match[2] ?? '' }));
}

const files = Object.fromEntries(marked('file').map(({ argument, body }) => [argument, body]));
const examples = new Map(marked('example').map(({ argument, body }) => [argument, body]));
const transcripts = marked('cli').map(({ body }) => body);

let scratch: string;
let bundle: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'routing-docs-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(scratch, path)), { recursive: true });
    writeFileSync(join(scratch, path), content);
  }
  symlinkSync(join(root, 'node_modules'), join(scratch, 'node_modules'), 'dir');
  const entry = join(scratch, 'entry.ts');
  writeFileSync(entry, `export * from ${JSON.stringify(join(root, 'src/index.ts'))};\nexport * from ${JSON.stringify(join(root, 'src/routing/index.ts'))};\n`);
  bundle = join(scratch, 'kube-dns-to-coredns.mjs');
  await build({ input: entry, platform: 'node', logLevel: 'silent', resolve: { extensionAlias: { '.js': ['.ts', '.js'] } }, output: { file: bundle, format: 'esm' } });
}, 60_000);

afterAll(() => {
  if (scratch !== undefined) rmSync(scratch, { recursive: true, force: true });
});

function withPackage(source: string): string {
  return pointPackageImports(source, () => pathToFileURL(bundle).href);
}

function run(command: string, args: readonly string[]) {
  const result = spawnSync(command, args, { cwd: scratch, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

/** Makes the platform repository's CoreDNS ConfigMap hold the hand-written Corefile. */
function breakCoreDnsConfigMap(): () => void {
  const path = join(scratch, 'deploy/coredns.yaml');
  const good = readFileSync(path, 'utf8');
  const corefile = (files['Corefile.by-hand'] ?? '').split('\n').map((line) => (line === '' ? '' : `    ${line}`)).join('\n');
  writeFileSync(path, `${good.slice(0, good.indexOf('  Corefile: |\n'))}  Corefile: |\n${corefile}`);
  return () => writeFileSync(path, good);
}

describe('docs/routing.md', () => {
  it('has the files, transcripts and examples this test expects', () => {
    expect(Object.keys(files).sort()).toEqual(['Corefile.by-hand', 'deploy/coredns.yaml', 'deploy/kube-dns.yaml']);
    expect([...examples.keys()].sort()).toEqual(['jest', 'module', 'node-test', 'vitest']);
    expect(transcripts.length).toBe(3);
  });

  it('shows the CLI output as it is', async () => {
    for (const transcript of transcripts) {
      const [command = '', ...expected] = transcript.split('\n');
      expect(command).toMatch(/^\$ npx kube-dns-to-coredns (check|explain) /);
      const [subcommand, ...args] = command.replace(/^\$ npx kube-dns-to-coredns /, '').split(' ');
      const io = memoryIo({ files });
      await (subcommand === 'check' ? runCheck(args, io) : runExplain(args, io));
      // A terminal shows the result (stdout) followed by the notes (stderr).
      expect(`${io.out()}${io.err()}`, command).toBe(expected.join('\n'));
    }
  });

  it('runs the library example', async () => {
    const path = join(scratch, 'module-example.mjs');
    writeFileSync(path, withPackage(examples.get('module') ?? ''));
    await import(pathToFileURL(path).href);
  });

  it('runs the node:test example with node --test: passes, then fails with the table', () => {
    writeFileSync(join(scratch, 'node-example.test.mjs'), withPackage(examples.get('node-test') ?? ''));
    const passing = run(process.execPath, ['--test', 'node-example.test.mjs']);
    expect(passing.status, passing.output).toBe(0);
    const restore = breakCoreDnsConfigMap();
    try {
      const failing = run(process.execPath, ['--test', 'node-example.test.mjs']);
      expect(failing.status).toBe(1);
      expect(failing.output).toMatch(/RoutingMismatchError/);
      expect(failing.output).toMatch(/kube-dns and the Corefile route 17 of 24 checked names differently/);
      expect(failing.output).toMatch(/NAME +KUBE-DNS +COREDNS/);
    } finally {
      restore();
    }
  });

  it('runs the jest example under a stand-in for jest\'s global test: passes, then fails with the table', () => {
    writeFileSync(join(scratch, 'jest-example.test.mjs'), withPackage(examples.get('jest') ?? ''));
    writeFileSync(
      join(scratch, 'jest-shim.mjs'),
      `const tests = [];
globalThis.test = (name, fn) => tests.push([name, fn]);
await import('./jest-example.test.mjs');
let failed = 0;
for (const [name, fn] of tests) {
  try { await fn(); console.log('PASS ' + name); } catch (error) { failed += 1; console.log('FAIL ' + name + '\\n' + error.name + ': ' + error.message); }
}
if (tests.length === 0) failed = 1;
process.exitCode = failed === 0 ? 0 : 1;
`,
    );
    const passing = run(process.execPath, ['jest-shim.mjs']);
    expect(passing.status, passing.output).toBe(0);
    expect(passing.output).toBe('PASS CoreDNS sends every name where kube-dns did\n');
    const restore = breakCoreDnsConfigMap();
    try {
      const failing = run(process.execPath, ['jest-shim.mjs']);
      expect(failing.status).toBe(1);
      expect(failing.output).toMatch(/^FAIL CoreDNS sends every name where kube-dns did\nRoutingMismatchError: kube-dns and the Corefile route 17 of 24 checked names differently:\n\nNAME +KUBE-DNS +COREDNS\n/);
    } finally {
      restore();
    }
  });

  it('runs the vitest example with vitest', () => {
    writeFileSync(join(scratch, 'vitest-example.test.mjs'), withPackage(examples.get('vitest') ?? ''));
    writeFileSync(join(scratch, 'vitest.config.mjs'), "export default { test: { include: ['vitest-example.test.mjs'] } };\n");
    const result = run(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--root', scratch, '--config', join(scratch, 'vitest.config.mjs')]);
    expect(result.status, result.output).toBe(0);
    expect(result.output).toMatch(/1 passed/);
  });
});
