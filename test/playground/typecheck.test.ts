import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

// The page's DOM code is outside the root tsconfig (which has no DOM types): docs/playground has
// its own tsconfig. rolldown strips types without checking them, so check them here.
const root = fileURLToPath(new URL('../..', import.meta.url));

it('docs/playground type-checks', async () => {
  const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
  const result = await new Promise<{ code: number | null; output: string }>((resolve) => {
    execFile(process.execPath, [tsc, '-p', 'docs/playground/tsconfig.json', '--noEmit'], { cwd: root, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : null, output: `${stdout}${stderr}` });
    });
  });
  expect(result.output).toBe('');
  expect(result.code).toBe(0);
});
