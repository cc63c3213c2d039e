import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The package as users meet it: packed with `npm pack`, installed from the tarball into an empty
 * project, and run through the installed `kube-dns-to-coredns` executable and the exported API.
 * Needs the build (`npm test` builds first) and the npm cache filled by `npm ci`.
 */
const root = join(import.meta.dirname, '../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let work: string;
let installed: string;

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'kube-dns-to-coredns-pack-'));
  execFileSync(npm, ['pack', '--silent', '--pack-destination', work], { cwd: root, stdio: 'pipe' });
  const [tarball] = readdirSync(work).filter((file) => file.endsWith('.tgz'));
  installed = join(work, 'project');
  mkdirSync(installed);
  writeFileSync(join(installed, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  execFileSync(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', join(work, tarball ?? '')], { cwd: installed, stdio: 'pipe' });
}, 120_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

function cli(args: string[], input?: string) {
  return spawnSync(join(installed, 'node_modules', '.bin', 'kube-dns-to-coredns'), args, { cwd: installed, input, encoding: 'utf8' });
}

const example = join(root, 'examples', 'kube-dns-configmap.yaml');

describe('the packed package, installed', () => {
  it('ships the built code, the example and the docs a user needs, nothing else', () => {
    const files = readdirSync(join(installed, 'node_modules', 'kube-dns-to-coredns'));
    expect(files.sort()).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'dist', 'examples', 'package.json']);
  });

  it('translates with the installed executable', () => {
    const result = cli([example]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('consul.local:53 {');
  });

  it('reproduces kubeadm with --kubeadm', () => {
    const result = cli(['--kubeadm', '1.13', example]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('    proxy . 8.8.8.8 8.8.4.4\n');
  });

  it('formats and lints Corefiles', () => {
    expect(cli(['fmt', '-'], '.:53 {\nerrors\n}\n').stdout).toBe('.:53 {\n    errors\n}\n');
    const lint = cli(['lint', '--coredns', '1.7.0', '-'], '.:53 {\n    proxy . 8.8.8.8\n}\n');
    expect(lint.status).toBe(1);
    expect(lint.stdout).toContain('plugin-removed');
  });

  it('checks routing with the installed executable', () => {
    const corefile = join(installed, 'Corefile');
    writeFileSync(corefile, cli([example]).stdout);
    const same = cli(['check', '--kube-dns', example, '--corefile', corefile]);
    expect(same.status, same.stderr).toBe(0);
    writeFileSync(corefile, '.:53 {\n    kubernetes cluster.local\n    forward . 8.8.8.8\n}\n');
    const different = cli(['check', '--kube-dns', example, '--corefile', corefile]);
    expect(different.status).toBe(1);
    expect(different.stdout + different.stderr).toContain('consul.local');
  });

  it('exports the library API to ESM and to require()', () => {
    writeFileSync(join(installed, 'use.mjs'), "import { translateKubeDns } from 'kube-dns-to-coredns';\nconsole.log(translateKubeDns({}).ok);\n");
    writeFileSync(join(installed, 'use.cjs'), "const { translateLikeKubeadm } = require('kube-dns-to-coredns');\nconsole.log(translateLikeKubeadm('1.17', null).ok);\n");
    expect(execFileSync(process.execPath, ['use.mjs'], { cwd: installed, encoding: 'utf8' })).toBe('true\n');
    expect(execFileSync(process.execPath, ['use.cjs'], { cwd: installed, encoding: 'utf8' })).toBe('true\n');
  });
});

describe('package lint', () => {
  it('passes publint', () => {
    const result = spawnSync(join(root, 'node_modules', '.bin', 'publint'), [], { cwd: root, encoding: 'utf8' });
    expect(result.stdout + result.stderr).toContain('All good!');
    expect(result.status).toBe(0);
  }, 60_000);

  it('passes attw --pack --profile esm-only', () => {
    const result = spawnSync(join(root, 'node_modules', '.bin', 'attw'), ['--pack', '.', '--profile', 'esm-only'], { cwd: root, encoding: 'utf8' });
    expect(result.status, result.stdout + result.stderr).toBe(0);
  }, 60_000);
});
