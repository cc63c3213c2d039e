// Build step for the playground page (docs/playground/): bundles docs/playground/playground.ts and
// the package's pure core (compiled from src/ by rolldown itself) into one minified classic script,
// docs/playground/dist/playground.js, with examples/kube-dns-configmap.yaml inlined.
//
// A classic script (IIFE), not an ES module: Chromium refuses module scripts on file:// pages, and
// the page must work when opened straight from disk.
//
// The build fails when anything in the bundle reaches a Node API (a `node:` or builtin import, or
// `process`/`Buffer`/`require` left in the output): that is the check that the core is pure.
//
//   node scripts/build-playground.mjs              → docs/playground/dist/playground.js
//   node scripts/build-playground.mjs --site DIR   → a self-contained copy of the page in DIR
//                                                    (index.html, playground.css, dist/playground.js)
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { build } from 'rolldown';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pageDir = join(root, 'docs', 'playground');
/** The page's static files, copied as they are by --site. */
const STATIC_FILES = ['index.html', 'playground.css'];

const { values } = parseArgs({ options: { site: { type: 'string' }, quiet: { type: 'boolean', default: false } } });
const siteDir = values.site === undefined ? pageDir : resolve(values.site);
const outDir = join(siteDir, 'dist');
const log = values.quiet ? () => {} : (line) => console.log(line);

// src/kubedns imports validators generated from schemas/ (gitignored). Generate them only when
// missing: rewriting them while other builds or tests read them is needless churn.
if (!existsSync(join(root, 'src', 'generated', 'validate-kube-dns-values.ts'))) {
  execFileSync(process.execPath, [join(root, 'scripts', 'generate-validators.mjs')], { stdio: 'inherit' });
}

const builtins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]));
const isNodeBuiltin = (id) => id.startsWith('node:') || builtins.has(id) || builtins.has(id.split('/')[0]);

/** Stops the build at the first import of a Node builtin, naming the module that imports it. */
const pureCore = {
  name: 'playground-pure-core',
  resolveId(id, importer) {
    if (!isNodeBuiltin(id)) return null;
    return this.error(`${importer === undefined ? 'the entry' : relative(root, importer)} imports the Node builtin '${id}'`);
  },
};

function fail(message) {
  rmSync(outDir, { recursive: true, force: true });
  console.error(`build-playground: ${message}`);
  process.exit(1);
}

rmSync(outDir, { recursive: true, force: true });
const example = readFileSync(join(root, 'examples', 'kube-dns-configmap.yaml'), 'utf8');
let output;
try {
  ({ output } = await build({
    input: join(pageDir, 'playground.ts'),
    platform: 'browser',
    cwd: root,
    logLevel: 'warn',
    tsconfig: join(pageDir, 'tsconfig.json'),
    transform: { define: { __EXAMPLE_CONFIGMAP__: JSON.stringify(example) } },
    plugins: [pureCore],
    output: {
      dir: outDir,
      format: 'iife',
      entryFileNames: 'playground.js',
      minify: true,
      sourcemap: false,
      codeSplitting: false,
      comments: false,
    },
  }));
} catch (error) {
  const detail = Array.isArray(error?.errors) ? error.errors.map((entry) => entry.message).join('\n  ') : String(error?.message ?? error);
  fail(`the bundle does not build:\n  ${detail}`);
}

const problems = [];
const chunks = output.filter((item) => item.type === 'chunk');
for (const chunk of chunks) {
  for (const imported of [...chunk.imports, ...chunk.dynamicImports]) problems.push(`${chunk.fileName} still imports '${imported}'`);
  const leftovers = [
    [/["'`]node:[a-z_/]+["'`]/, 'a node: specifier'],
    // Not inside a string: ajv's generated code carries `require("…")` as text.
    [/(?<![\w$."'`])require\s*\(\s*["'`]/, 'a require() call'],
    [/(?<![.\w$])process\s*\.\s*(?:env|argv|cwd|exit|platform|versions?|stdout|stderr|nextTick)\b/, 'the Node `process` global'],
    [/(?<![.\w$])Buffer\s*\.\s*(?:from|alloc|isBuffer|byteLength|concat)\b/, 'the Node `Buffer` global'],
  ];
  for (const [pattern, what] of leftovers) {
    const match = pattern.exec(chunk.code);
    if (match !== null) problems.push(`${chunk.fileName} uses ${what}: …${chunk.code.slice(Math.max(0, match.index - 60), match.index + 60)}…`);
  }
}
if (problems.length > 0) fail(`the bundle reaches Node APIs, so the core is not pure:\n  ${problems.join('\n  ')}`);
if (chunks.length !== 1) fail(`expected one script, got ${chunks.map((chunk) => chunk.fileName).join(', ')}`);

if (siteDir !== pageDir) {
  mkdirSync(siteDir, { recursive: true });
  for (const file of STATIC_FILES) copyFileSync(join(pageDir, file), join(siteDir, file));
}
const script = join(outDir, 'playground.js');
log(`build-playground: ${relative(process.cwd(), script) || script} (${(statSync(script).size / 1024).toFixed(1)} KiB)`);
