// Writes the expected results of the golden CLI cases from the built CLI (dist/). Run it after a
// deliberate behaviour change, then READ `git diff golden/` before committing: a golden update is
// a reviewed change, never a blind regenerate. CI never runs this script.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describeRun, goldenCases } from './golden-cases.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { main } = await import(pathToFileURL(join(root, 'dist', 'cli', 'main.js')).href);

for (const goldenCase of goldenCases(root)) {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (chunk) => void (stdout += chunk) },
    stderr: { write: (chunk) => void (stderr += chunk) },
    readStdin: async () => new Uint8Array(),
    readFile: async (path) => readFileSync(join(root, path)),
    writeFileAtomically: async () => {
      throw new Error('golden cases do not write files');
    },
  };
  const status = await main([...goldenCase.args, relative(root, goldenCase.input)], io);
  mkdirSync(dirname(goldenCase.expected), { recursive: true });
  writeFileSync(goldenCase.expected, describeRun(status, stdout, stderr.replaceAll(root + '/', '')));
}
console.log('golden results written; review them with `git diff golden/`');
