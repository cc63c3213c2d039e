// How scripts/bundle-cli.mjs bundles the CLI's chunks (dist/bundle/cli.cjs and the chunks it loads):
// shared with test/cli/start-up.test.ts, which rebuilds the same chunks in memory to know which
// modules each file it sees loaded holds.
import { join } from 'node:path';

/**
 * The modules nearly every command loads (the preamble, the error family, the diagnostics, the
 * release names, reading FILE): one chunk instead of a dozen small ones, each of which would cost
 * its own file read and compile (docs/performance.md, "Start-up").
 */
const CORE = /[\\/]dist[\\/](?:cli[\\/](?:command|reporter|options|errors|usage-error|io|read-source|corefile-source)|errors[\\/][\w-]+|util[\\/](?:printable-text|source-position|release-profile|pretty-json|lists)|diagnostics[\\/](?:codes|diagnostic)|lint[\\/]suggest|corefile[\\/]errors|coredns[\\/](?:versions|resolve-release)|dns[\\/]go-net|kubedns[\\/]kube-dns-versions|configmap[\\/]configmap-line|platform[\\/]input-hints)\.js$/;

/** rolldown's options for the CLI's chunks, `root` being the repository. */
export function cliChunkOptions(root) {
  return {
    platform: 'node',
    cwd: root,
    logLevel: 'warn',
    input: { cli: join(root, 'dist', 'cli', 'executable.js') },
    output: { dir: join(root, 'dist', 'bundle'), format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: '[name]-[hash].cjs', minify: true, charset: 'ascii', codeSplitting: { groups: [{ name: 'core', test: CORE }] } },
  };
}
