import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'rolldown';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs module shared with scripts/bundle-cli.mjs
import { cliChunkOptions } from '../../scripts/bundle-options.mjs';

/**
 * Start-up of the executable (issue #22; docs/performance.md, "Start-up"), checked without timing
 * anything: which modules a run loads and how many bytes of chunks, so that a command that starts
 * loading what it does not run (the YAML reader for a Corefile, the plugin tables for `--kubeadm`,
 * another command's code, the help text, an output writer of another `-o`, Node's tty and stream
 * modules) fails here, not in a benchmark. The chunks' modules come from the same rolldown build in
 * memory (scripts/bundle-options.mjs), the chunks a run loads from Node's module cache at exit (the
 * code cache turned off, so that Node's `require` loads them), Node's own modules from
 * `process.moduleLoadList`.
 */
const root = join(import.meta.dirname, '../..');
const bundle = join(root, 'dist', 'bundle');
const bin = join(bundle, 'kube-dns-to-coredns.cjs');
const example = join(root, 'examples', 'kube-dns-configmap.yaml');

/** kubeadm 1.18's default Corefile (CoreDNS 1.6.7), as the benchmark migrates it. */
const kubeadm118 = `${readFileSync(join(root, 'golden', 'migrate', 'kubeadm-default-k8s-1.18.txt'), 'utf8').split('\n## ')[0]?.split('\n').slice(1).join('\n').trimEnd()}\n`;

let work: string;
let corefile: string;
let configMap: string;
/** Chunk file name → the modules it holds (paths from the repository's root). */
const modulesOf = new Map<string, readonly string[]>();

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kube-dns-start-up-'));
  corefile = join(work, 'Corefile');
  writeFileSync(corefile, kubeadm118);
  configMap = join(work, 'coredns.yaml');
  writeFileSync(configMap, `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: coredns\n  namespace: kube-system\ndata:\n  Corefile: |\n${kubeadm118.replace(/^(?=.)/gm, '    ')}`);
  writeFileSync(
    join(work, 'record.cjs'),
    "process.on('exit', () => require('node:fs').writeFileSync(process.env.LOADED_CHUNKS, JSON.stringify({ chunks: Object.keys(require.cache), builtins: process.moduleLoadList })));\n",
  );
  if (!existsSync(bin)) return;
  const { output } = await build({ ...cliChunkOptions(root), write: false });
  for (const chunk of output) if (chunk.type === 'chunk') modulesOf.set(chunk.fileName, Object.keys(chunk.modules).map((id) => id.slice(root.length + 1)));
});

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The chunks (name and bytes) and modules a run of the executable with `args` loads, and Node's modules loaded by then. */
function loads(args: readonly string[]): { chunks: readonly string[]; bytes: number; modules: readonly string[]; builtins: readonly string[] } {
  const out = join(work, 'loaded.txt');
  const run = spawnSync(process.execPath, ['-r', join(work, 'record.cjs'), bin, ...args], {
    encoding: 'utf8',
    env: { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1', LOADED_CHUNKS: out },
  });
  expect(run.status, `${args.join(' ')}: ${run.stderr}`).toBeLessThan(2);
  const recorded = JSON.parse(readFileSync(out, 'utf8')) as { chunks: string[]; builtins: string[] };
  const chunks = recorded.chunks.filter((path) => path.startsWith(`${bundle}/`) && path !== bin).map((path) => path.slice(bundle.length + 1));
  const unknown = chunks.filter((chunk) => !modulesOf.has(chunk));
  expect(unknown, 'chunks the in-memory build does not make: rebuild (npm run build)').toEqual([]);
  return {
    chunks,
    bytes: chunks.reduce((sum, chunk) => sum + statSync(join(bundle, chunk)).size, 0),
    modules: chunks.flatMap((chunk) => modulesOf.get(chunk) ?? []),
    builtins: recorded.builtins.filter((entry) => entry.startsWith('NativeModule ')).map((entry) => entry.slice('NativeModule '.length)),
  };
}

const JS_YAML = /^node_modules\/js-yaml\//;
const MAIN_HELP = /^dist\/cli\/help\.js$/;
const PLUGIN_TABLES = /^dist\/coredns\/(?:plugin-syntax|plugin-cfg|availability)\.js$/;
/** A command's module other than `command`'s (the translator is commands/translate.js). */
const otherCommand = (command: string) => new RegExp(`^dist/cli/commands/(?!${command}\\.js$)`);
/** The writers of the translator's other outputs (`-o configmap`, `eks-addon`, `helm-values`, `coredns-custom`, `--merge`). */
const OUTPUT_WRITERS = /^dist\/(?:configmap\/write-configmap|platform\/(?:eks-addon|helm-values|overlay-translate|compose)|translate\/merge)\.js$/;
/**
 * Node's modules no common run needs: its tty module brings net and the streams (a few
 * milliseconds); the CLI writes with write(2) and asks isatty only for `--batch`.
 */
const NODE_STREAMS = ['tty', 'net', 'stream'];

/**
 * Each case: what it runs, what it must load (so that the case cannot pass by loading nothing),
 * what it must never load, and at most how many bytes of chunks in how many files (docs/performance.md
 * gives each case's size when the budget was set; the byte budgets leave a few % for growth).
 */
const CASES: ReadonlyArray<{ readonly name: string; readonly args: () => readonly string[]; readonly loads: RegExp; readonly never: readonly RegExp[]; readonly budget: number; readonly files: number }> = [
  { name: '--version', args: () => ['--version'], loads: /^dist\/cli\/main\.js$/, never: [/^dist\/cli\/commands\//, /^dist\/corefile\/parser\.js$/, PLUGIN_TABLES, JS_YAML], budget: 96_000, files: 1 }, // 98,000 and 2 chunks before the entry chunk took the core modules (92.2 KB)
  {
    name: 'a small migrate',
    args: () => ['migrate', '--from', '1.6.7', '--to', '1.11.3', corefile],
    loads: /^dist\/migrate\/migrate\.js$/,
    never: [JS_YAML, /^dist\/configmap\/(?:read-configmap|not-a-configmap|write-configmap)\.js$/, /^dist\/platform\/(?!input-hints)/, /^dist\/translate\//, /^dist\/kubeadm\/(?!profiles|kubernetes-version)/, /^dist\/cli\/corefile-batch\.js$/, MAIN_HELP, otherCommand('migrate')],
    budget: 297_000, // 299,000 and 13 chunks before the check and migrate chunks (289.1 KB)
    files: 7,
  },
  {
    name: 'a small lint',
    args: () => ['lint', '--coredns', '1.11.3', corefile],
    loads: /^dist\/lint\/lint\.js$/,
    never: [JS_YAML, /^dist\/configmap\/read-configmap\.js$/, /^dist\/migrate\//, /^dist\/translate\//, /^dist\/platform\/(?!input-hints|bases)/, /^dist\/cli\/overlay-source\.js$/, MAIN_HELP, otherCommand('lint')],
    budget: 251_000, // 260,000 and 11 chunks before the check chunk (243.9 KB)
    files: 7,
  },
  {
    name: 'fmt',
    args: () => ['fmt', corefile],
    loads: /^dist\/corefile\/printer\.js$/,
    never: [JS_YAML, /^dist\/lint\/(?!suggest)/, PLUGIN_TABLES, /^dist\/migrate\//, MAIN_HELP, otherCommand('fmt')],
    budget: 136_000, // 150,000 and 5 chunks before (130.6 KB)
    files: 4,
  },
  {
    name: '--kubeadm 1.17 on the example ConfigMap',
    args: () => ['--kubeadm', '1.17', example],
    loads: /^dist\/kubeadm\/kubeadm-translation\.js$/,
    never: [/^dist\/lint\/(?!suggest)/, PLUGIN_TABLES, /^dist\/migrate\//, /^dist\/translate\/(?!.*kubeadm)/, MAIN_HELP, otherCommand('translate')],
    budget: 312_000, // 315,000 and 15 chunks before the YAML and translate-command chunks (302.4 KB in 10; 304.7 KB in 11 with the #18 lows' lazily loaded checks)
    files: 11,
  },
  {
    name: 'the default translator on the example ConfigMap',
    args: () => [example],
    loads: /^dist\/translate\/translate\.js$/,
    never: [/^dist\/migrate\//, /^dist\/kubeadm\/kubeadm-translation\.js$/, OUTPUT_WRITERS, MAIN_HELP, otherCommand('translate')],
    budget: 488_000, // 480,000 before the '/zone/#', --dns-forward-max=0, image-tag and names-without-a-dot rules and this stop's diagnostic codes (484.8 KB; 478.4 KB in 14 chunks, 22 before, with the check, YAML and translate-command chunks; 483.0 KB in 15 with the #18 lows' lazily loaded checks)
    files: 15,
  },
];

describe.skipIf(!existsSync(bin) && process.env['CI'] === undefined)('what a run of the executable loads', () => {
  it.each(CASES)('$name loads what it runs, within its budget', ({ args, loads: needed, never, budget, files }) => {
    const run = loads(args());
    expect(run.modules.some((module) => needed.test(module)), `loads ${needed}`).toBe(true);
    for (const pattern of never) expect(run.modules.filter((module) => pattern.test(module)), `never ${pattern}`).toEqual([]);
    expect(run.builtins.filter((name) => NODE_STREAMS.includes(name)), "Node's tty, net and stream modules").toEqual([]);
    expect(run.builtins, 'the record of Node modules').toContain('fs');
    expect(run.bytes, `bytes of chunks loaded: ${run.chunks.join(' ')}`).toBeLessThanOrEqual(budget);
    // Each chunk is a file read, a compile and a cache to deserialize of its own (docs/performance.md, "Start-up, third pass").
    expect(run.chunks.length, `chunks loaded: ${run.chunks.join(' ')}`).toBeLessThanOrEqual(files);
  });

  it('loads the writer of an output with its -o only', () => {
    const writers = (args: readonly string[]) => loads(args).modules.filter((module) => OUTPUT_WRITERS.test(module));
    expect(writers(['-o', 'configmap', example])).toEqual(['dist/configmap/write-configmap.js']);
    expect(writers(['-o', 'eks-addon', example])).toContain('dist/platform/eks-addon.js');
  });

  it('writes every chunk in ASCII, so that V8 keeps each source as a one-byte string', () => {
    const wide = [...modulesOf.keys()].filter((chunk) => readFileSync(join(bundle, chunk)).some((byte) => byte > 0x7f));
    expect(wide).toEqual([]);
    expect(modulesOf.size).toBeGreaterThan(20);
  });

  it('loads the YAML reader for a Corefile given in a ConfigMap, and the main help for --help only', () => {
    expect(loads(['migrate', '--from', '1.6.7', '--to', '1.11.3', configMap]).modules.filter((module) => JS_YAML.test(module))).not.toEqual([]);
    expect(loads(['--help']).modules.filter((module) => MAIN_HELP.test(module))).toEqual(['dist/cli/help.js']);
  });

  it("uses the build's code cache on this Node: V8 refuses none of the chunks a migrate loads", () => {
    const script = `
      const { readFileSync } = await import('node:fs');
      const { chunkLoader, CLI_CHUNK, codeCacheFile } = await import(${JSON.stringify(pathToFileURL(join(root, 'dist', 'cli', 'launcher.js')).href)});
      const loader = chunkLoader(${JSON.stringify(bundle)}, codeCacheFile(${JSON.stringify(bundle)}));
      const out = { write: () => {}, isTTY: false };
      const io = { stdout: out, stderr: out, readStdin: async () => new Uint8Array(), readFile: async (path) => readFileSync(path), writeOutputFile: async () => {} };
      const status = await loader.require(CLI_CHUNK).main(['migrate', '--from', '1.6.7', '--to', '1.11.3', ${JSON.stringify(corefile)}], io);
      console.log(JSON.stringify({ status, chunks: loader.codeCaches().size, rejected: loader.rejected() }));
    `;
    const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout) as { status: number; chunks: number; rejected: string[] };
    expect(result.status).toBe(0);
    expect(result.chunks).toBeGreaterThan(5);
    expect(result.rejected).toEqual([]);
  });

  it('runs the same when a chunk no longer fits its cache (V8 compiles it anew) and with the cache turned off', () => {
    const copy = join(work, 'bundle');
    cpSync(bundle, copy, { recursive: true });
    const chunk = join(copy, 'cli.cjs');
    writeFileSync(chunk, `${readFileSync(chunk, 'utf8')}\n// edited after the build\n`);
    const args = ['migrate', '--from', '1.6.7', '--to', '1.11.3', corefile];
    const expected = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8' });
    expect(expected.status).toBe(0);
    for (const [executable, env] of [
      [join(copy, 'kube-dns-to-coredns.cjs'), {}],
      [bin, { NODE_DISABLE_COMPILE_CACHE: '1' }],
    ] as const) {
      const run = spawnSync(process.execPath, [executable, ...args], { encoding: 'utf8', env: { ...process.env, ...env } });
      expect({ status: run.status, stdout: run.stdout, stderr: run.stderr }).toEqual({ status: expected.status, stdout: expected.stdout, stderr: expected.stderr });
    }
  });
});
