// Writes the expected results of the golden CLI cases (translator and lint) and the real-world
// lint reports from the built package (dist/). Run it after a deliberate behaviour change, then
// READ `git diff golden/` before committing: a golden update is a reviewed change, never a blind
// regenerate. CI never runs this script, and no test writes golden files.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { migrateGoldenFiles } from './migrate-golden.mjs';
import { REALWORLD_LINT_VERSIONS, describeRun, goldenCases, realworldLintReport, realworldLintReportPath } from './golden-cases.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { main } = await import(pathToFileURL(join(root, 'dist', 'cli', 'main.js')).href);
const library = await import(pathToFileURL(join(root, 'dist', 'index.js')).href);

for (const goldenCase of goldenCases(root)) {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (chunk) => void (stdout += chunk) },
    stderr: { write: (chunk) => void (stderr += chunk) },
    readStdin: async () => new Uint8Array(),
    readFile: async (path) => readFileSync(join(root, path)),
    listDirectory: async (path) =>
      readdirSync(join(root, path)).map((name) => {
        const info = statSync(join(root, path, name), { throwIfNoEntry: false });
        return { name, kind: info === undefined ? 'other' : info.isFile() ? 'file' : info.isDirectory() ? 'directory' : 'other' };
      }),
    writeOutputFile: async () => {
      throw new Error('golden cases do not write files');
    },
  };
  const status = await main([...goldenCase.args, relative(root, goldenCase.input)], io);
  mkdirSync(dirname(goldenCase.expected), { recursive: true });
  writeFileSync(goldenCase.expected, describeRun(status, stdout, stderr.replaceAll(root + '/', '')));
}
for (const version of REALWORLD_LINT_VERSIONS) {
  writeFileSync(realworldLintReportPath(root, version), realworldLintReport(root, version, library));
}
{
  const load = async (path) => import(pathToFileURL(join(root, 'dist', path)).href);
  const migrateLibrary = {
    ...library,
    ...(await load('coredns/kubernetes-default-corefile.js')),
    ...(await load('coredns/versions.js')),
  };
  for (const [path, content] of migrateGoldenFiles(root, migrateLibrary)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
}
console.log('golden results written; review them with `git diff golden/`');
