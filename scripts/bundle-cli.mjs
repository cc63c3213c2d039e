// Build step: bundles the CLI into dist/bundle/ and records V8's code cache of its chunks.
//
//  - dist/bundle/cli.cjs and its chunks: the CLI (dist/cli/executable.js and what it imports), one
//    chunk per lazily loaded part, so that a command loads only the code it runs (docs/performance.md,
//    "Start-up"; test/cli/start-up.test.ts holds each command to its list). CommonJS (`.cjs`): Node
//    starts a CommonJS program without its ES module loader (~14 ms).
//  - dist/bundle/kube-dns-to-coredns.cjs: the executable (dist/bin.js, src/cli/launcher.ts), which
//    loads those chunks.
//  - dist/bundle/code-cache/NODE_VERSION-ARCH.bin: the code cache of each chunk, recorded after
//    typical commands ran in this process (the functions they ran are compiled then, and kept in the
//    cache), all in one file; the executable uses it when it runs on the same Node, V8 checking that
//    each chunk's cache fits.
//
// Only the executable is bundled; the package's exports, the library entry (dist/index.js), stay ES
// modules and unbundled so that bundlers can tree-shake them.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'rolldown';
import { cliChunkOptions } from './bundle-options.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'dist', 'bundle');
rmSync(outDir, { recursive: true, force: true });
await build(cliChunkOptions(root));
await build({
  platform: 'node',
  cwd: root,
  logLevel: 'warn',
  input: { 'kube-dns-to-coredns': join(root, 'dist', 'bin.js') },
  output: { dir: outDir, format: 'cjs', entryFileNames: '[name].cjs', minify: true },
});

// ── the code cache ───────────────────────────────────────────────────────────────────────────
// The runs: each command on a small input of this repository, and each command's --help.

const { chunkLoader, CLI_CHUNK, codeCacheFile, packCodeCaches } = await import(pathToFileURL(join(root, 'dist', 'cli', 'launcher.js')).href);
const kubeadm118 = `${readFileSync(join(root, 'golden', 'migrate', 'kubeadm-default-k8s-1.18.txt'), 'utf8').split('\n## ')[0].split('\n').slice(1).join('\n').trimEnd()}\n`;
const stubBlock = 'team.example.org:53 {\n    errors\n    cache 30\n    forward . 10.0.0.53\n}\n';
const fleetLine = (fields) => `${JSON.stringify({ id: 'a', corefile: kubeadm118, ...fields })}\n${JSON.stringify({ id: 'b', corefile: kubeadm118 + stubBlock, ...fields })}\n`;
const files = new Map([
  ['Corefile', kubeadm118],
  ['fleet.jsonl', fleetLine({ from: '1.6.7', to: '1.11.3' })],
  ['fleet-lint.jsonl', fleetLine({ coredns: '1.11.3' })],
]);
const example = join(root, 'examples', 'kube-dns-configmap.yaml');
const discard = { write: () => {}, isTTY: false };
const io = {
  stdout: discard,
  stderr: discard,
  readStdin: async () => new Uint8Array(),
  readFile: async (path) => (files.has(path) ? new TextEncoder().encode(files.get(path)) : readFileSync(path)),
  writeOutputFile: async () => {},
};
const runs = [
  ['--version'],
  ['--help'],
  ...['fmt', 'lint', 'migrate', 'check', 'explain', 'compose', 'cutover', 'verify'].map((command) => [command, '--help']),
  ['migrate', '--from', '1.6.7', '--to', '1.11.3', 'Corefile'],
  ['lint', '--coredns', '1.11.3', 'Corefile'],
  ['fmt', 'Corefile'],
  ['migrate', '--batch', 'fleet.jsonl'],
  ['lint', '--batch', 'fleet-lint.jsonl'],
  [example],
  ['--kubeadm', '1.17', example],
  ['check', '--kube-dns', example, '--corefile', 'Corefile'],
];
const loader = chunkLoader(outDir, undefined);
const { main } = loader.require(CLI_CHUNK);
for (const argv of runs) {
  const status = await main(argv, io);
  if (status > 1) throw new Error(`bundle-cli: the code-cache run \`${argv.join(' ')}\` exited ${status}`);
}
const cacheFile = codeCacheFile(outDir);
mkdirSync(dirname(cacheFile), { recursive: true });
writeFileSync(cacheFile, packCodeCaches(loader.codeCaches()));
