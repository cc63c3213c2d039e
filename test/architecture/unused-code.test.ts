/**
 * No dead code: knip (configured by knip.jsonc) finds no unused file, export or dependency, and
 * the compiler (tsconfig.json) refuses unused locals and parameters.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const scratch = mkdtempSync(join(tmpdir(), 'kube-dns-to-coredns-unused-'));

interface Run {
  readonly status: number;
  readonly output: string;
}

function run(command: string, args: readonly string[], cwd: string): Promise<Run> {
  return new Promise((done) => {
    execFile(command, args, { cwd, encoding: 'utf8', timeout: 60_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const status = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      done({ status, output: `${stdout}${stderr}` });
    });
  });
}

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('unused code', () => {
  it('knip finds no unused file, export or dependency (fix the finding, or un-export it)', async () => {
    const knip = await run(bin('knip'), ['--no-progress', '--reporter', 'compact'], root);
    expect(knip.output.trim()).toBe('');
    expect(knip.status).toBe(0);
  });

  it('knip does report an unused export and an unused file (the check itself works)', async () => {
    const project = join(scratch, 'knip-fixture');
    mkdirSync(join(project, 'src'), { recursive: true });
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'fixture', private: true, type: 'module' }));
    writeFileSync(join(project, 'knip.json'), JSON.stringify({ entry: ['src/index.ts'], project: ['src/**/*.ts'] }));
    writeFileSync(join(project, 'src', 'index.ts'), "import { used } from './helpers.js';\nexport const answer = used();\n");
    writeFileSync(join(project, 'src', 'helpers.ts'), 'export function used(): number {\n  return 1;\n}\nexport function unused(): number {\n  return 2;\n}\n');
    writeFileSync(join(project, 'src', 'orphan.ts'), 'export const orphan = 1;\n');
    const knip = await run(bin('knip'), ['--no-progress', '--reporter', 'compact'], project);
    expect(knip.status).not.toBe(0);
    expect(knip.output).toMatch(/src\/orphan\.ts/);
    expect(knip.output).toMatch(/src\/helpers\.ts: unused/);
  });

  it('the compiler refuses unused locals and parameters (tsconfig.json)', async () => {
    const project = join(scratch, 'tsc-fixture');
    mkdirSync(project, { recursive: true });
    writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ extends: join(root, 'tsconfig.json'), compilerOptions: { types: [] }, include: [], files: ['fixture.ts'] }));
    writeFileSync(join(project, 'fixture.ts'), 'export function double(value: number, unusedParameter: number): number {\n  const unusedLocal = 1;\n  return value * 2;\n}\n');
    const tsc = await run(bin('tsc'), ['-p', 'tsconfig.json', '--noEmit'], project);
    expect(tsc.output).toMatch(/fixture\.ts\(1,\d+\): error TS6133: 'unusedParameter' is declared but its value is never read/);
    expect(tsc.output).toMatch(/fixture\.ts\(2,\d+\): error TS6133: 'unusedLocal' is declared but its value is never read/);
    expect(tsc.status).not.toBe(0);
  });
});
