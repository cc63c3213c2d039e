// Build step: bundles the CLI (dist/bin.js and what it imports) into dist/bundle/, one file per
// lazily loaded command. Node then loads a handful of files instead of ~60 modules per run, which
// saves about 40 ms of start-up (docs/performance.md). The files are CommonJS (`.cjs`): Node
// starts a CommonJS program without its ES module loader, another ~14 ms (median of 31 runs,
// +49 → +34 ms over `node -e 0`). Only the executable is CommonJS; the package's exports, the
// library entry (dist/index.js), stay ES modules and unbundled so that bundlers can tree-shake them.
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
  output: { dir: outDir, format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: '[name]-[hash].cjs', minify: true },
});
