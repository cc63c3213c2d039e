// How scripts/bundle-cli.mjs bundles the CLI's chunks (dist/bundle/cli.cjs and the chunks it loads):
// shared with test/cli/start-up.test.ts, which rebuilds the same chunks in memory to know which
// modules each file it sees loaded holds.
import { join } from 'node:path';

/** rolldown's options for the CLI's chunks, `root` being the repository. */
export function cliChunkOptions(root) {
  return {
    platform: 'node',
    cwd: root,
    logLevel: 'warn',
    input: { cli: join(root, 'dist', 'cli', 'executable.js') },
    output: { dir: join(root, 'dist', 'bundle'), format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: '[name]-[hash].cjs', minify: true },
  };
}
