// Build step: bundles the CLI (dist/bin.js and what it imports) into dist/bundle/, one file per
// lazily loaded command. Node then loads a handful of files instead of ~60 modules per run, which
// saves about 40 ms of start-up (docs/performance.md). The library entry (dist/index.js) stays
// unbundled so that bundlers can tree-shake it.
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'rolldown';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'dist', 'bundle');
rmSync(outDir, { recursive: true, force: true });
await build({
  input: { 'kube-dns-to-coredns': join(root, 'dist', 'bin.js') },
  platform: 'node',
  cwd: root,
  logLevel: 'warn',
  output: { dir: outDir, format: 'esm', entryFileNames: '[name].js', chunkFileNames: '[name]-[hash].js', minify: true },
});
