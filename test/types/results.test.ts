import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Compiles results.test-d.ts (strict, the project's settings) with the TypeScript compiler: the
 * result types of the public API narrow on `ok` the way the file expects, and every
 * `@ts-expect-error` there still meets an error.
 */
const root = join(import.meta.dirname, '../..');
const fixture = join(import.meta.dirname, 'results.test-d.ts');

describe('result types of the public API', () => {
  it('narrow on ok: results.test-d.ts compiles', () => {
    const tsc = spawnSync(join(root, 'node_modules', '.bin', 'tsc'), ['-p', join(import.meta.dirname, 'tsconfig.json'), '--listFiles'], { cwd: root, encoding: 'utf8' });
    const diagnostics = tsc.stdout.split('\n').filter((line) => / error TS\d+/.test(line));
    expect(diagnostics).toEqual([]);
    expect(tsc.status, tsc.stderr).toBe(0);
    // The compiler did read the fixture (an include that matched nothing would pass vacuously).
    expect(tsc.stdout.split('\n')).toContain(fixture);
  });
});
