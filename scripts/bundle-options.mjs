// How scripts/bundle-cli.mjs bundles the CLI's chunks (dist/bundle/cli.cjs and the chunks it loads):
// shared with test/cli/start-up.test.ts, which rebuilds the same chunks in memory to know which
// modules each file it sees loaded holds.
import { join } from 'node:path';

/**
 * The modules nearly every command loads (the preamble, the error family, the diagnostics, the
 * release names, reading FILE): one chunk instead of a dozen small ones, each of which would cost
 * its own file read and compile (docs/performance.md, "Start-up").
 */
const CORE = /[\\/]dist[\\/](?:generated[\\/]version|cli[\\/](?:executable|main|registry|node-io|command|reporter|options|errors|usage-error|io|read-source|corefile-source)|errors[\\/][\w-]+|util[\\/](?:printable-text|source-position|release-profile|pretty-json|lists)|diagnostics[\\/](?:codes|diagnostic)|lint[\\/]suggest|corefile[\\/]errors|coredns[\\/](?:versions|resolve-release)|dns[\\/]go-net|kubedns[\\/]kube-dns-versions|configmap[\\/]configmap-line|platform[\\/]input-hints)\.js$/;

/**
 * What every check of a Corefile against a release loads (`lint`, `migrate`'s target check, the
 * translator's self-check): lint and its rules, the plugin tables, the zone and server-key readers
 * and the block-by-block lint. One chunk instead of five: `migrate`, `lint` and the translator load
 * all of them or all but a few KB (docs/performance.md, "Start-up, third pass"). Lint's reader of
 * imported files stays apart, as it loads the import expander.
 */
const CHECK = /[\\/]dist[\\/](?:lint[\\/](?!suggest\.js|lint-imports\.js)[\w/-]+|coredns[\\/](?:plugin-cfg|plugin-syntax|availability|migration-facts|listen-addresses|forward-targets|destinations|features)|dns[\\/](?:zones|go-regexp)|corefile[\\/](?:expand|server-key)|diagnostics[\\/]release-notices)\.js$/;

/** `migrate` and its command: one chunk (the ConfigMap guard, which loads the YAML reader, stays apart). */
const MIGRATE = /[\\/]dist[\\/](?:migrate[\\/](?!migrate-corefile\.js)[\w/-]+|cli[\\/]commands[\\/]migrate)\.js$/;

/**
 * Reading YAML: js-yaml, the document splitter and the ConfigMap reader (with the one ajv helper
 * the generated validators share). One chunk instead of four for every YAML or JSON input.
 */
const YAML = /[\\/]node_modules[\\/](?:js-yaml[\\/]|ajv[\\/]dist[\\/]runtime[\\/]ucs2length\.js$)|[\\/]dist[\\/](?:configmap[\\/](?:yaml-documents|read-configmap|value-positions|config-map-data)|util[\\/]yaml-alias-limit)\.js$/;

/** The translator's command (for the default translator and `--kubeadm`) with the repair option it reads. */
const TRANSLATE_COMMAND = /[\\/]dist[\\/](?:cli[\\/](?:commands[\\/]translate|repair-option)|kubedns[\\/]kube-dns-quirks)\.js$/;

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
    // The groups below take their modules only, not what those import (which stays in the chunks it
    // was in); rolldown asks for this setting then.
    preserveEntrySignatures: 'allow-extension',
    plugins: [wrapChunks],
    output: { dir: join(root, 'dist', 'bundle'), format: 'cjs', entryFileNames: '[name].cjs', chunkFileNames: '[name]-[hash].cjs', minify: true, charset: 'ascii', codeSplitting: { groups: [{ name: 'core', test: CORE }, { name: 'check', test: CHECK, includeDependenciesRecursively: false }, { name: 'migrate', test: MIGRATE, includeDependenciesRecursively: false }, { name: 'yaml', test: YAML, includeDependenciesRecursively: false }, { name: 'translate-command', test: TRANSLATE_COMMAND, includeDependenciesRecursively: false }] } },
  };
}
