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

/**
 * Each chunk as one statement (src/cli/launcher.ts): its code inside the function Node wraps a
 * CommonJS module in, assigned to `module.exports` when Node's `require` loads the file, the
 * statement's value when `vm.Script` runs it (where `this` is the global object), so that the
 * executable compiles the text it read without building a wrapped copy of it.
 */
export function wrapChunk(code) {
  return `(this === globalThis ? {} : module).exports = function (exports, require, module, __filename, __dirname) {${code}\n};\n`;
}

/** The rolldown plugin applying {@link wrapChunk} to every chunk, once it is minified. */
const wrapChunks = {
  name: 'kube-dns-to-coredns:wrap-chunks',
  generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle)) if (chunk.type === 'chunk') chunk.code = wrapChunk(chunk.code);
  },
};

/** rolldown's options for the CLI's chunks, `root` being the repository. */
export function cliChunkOptions(root) {
  return {
    platform: 'node',
    cwd: root,
    logLevel: 'warn',
    input: { cli: join(root, 'dist', 'cli', 'executable.js') },
    plugins: [wrapChunks],
    output: { dir: join(root, 'dist', 'bundle'), format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: '[name]-[hash].cjs', minify: true, charset: 'ascii', codeSplitting: { groups: [{ name: 'core', test: CORE }] } },
  };
}
