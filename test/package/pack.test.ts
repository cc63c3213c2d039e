import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The package as users meet it: packed with `npm pack` from a clean tree (a copy of the working
 * tree without dist/ or any other ignored file, as a fresh clone has it, so `prepack` must build),
 * installed from the tarball into an empty project, and run through the installed
 * `kube-dns-to-coredns` executable and the exported API. publint, attw and a strict TypeScript
 * consumer check the same tarball. Needs the npm cache filled by `npm ci` and git.
 */
const root = join(import.meta.dirname, '../..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  repository: { url: string };
  homepage: string;
  bugs: { url: string };
};

interface Run {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a program without blocking, so the checks of the tarball overlap. */
function run(command: string, args: readonly string[], cwd: string): Promise<Run> {
  return new Promise((done) => {
    execFile(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const status = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      done({ status, stdout, stderr: stderr || (error?.message ?? '') });
    });
  });
}

/** Copies what a fresh clone of the working tree holds: tracked and not-ignored files, no build output. */
function copyCleanTree(destination: string): void {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' }).split('\0');
  const files = new Set(listed.filter((file) => file !== '' && !file.startsWith('node_modules') && existsSync(join(root, file))));
  for (const file of files) cpSync(join(root, file), join(destination, file));
}

let work: string;
let source: string;
let tarball: string;
let installed: string;
let packedFromCleanTree: boolean;
let attw: Run;
let publint: Run;
let consumerTypeCheck: Promise<Run>;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'kube-dns-to-coredns-pack-'));
  source = join(work, 'source');
  copyCleanTree(source);
  // The build tools come from the project's install; the tree itself stays as a clone has it.
  symlinkSync(join(root, 'node_modules'), join(source, 'node_modules'), 'junction');
  packedFromCleanTree = !existsSync(join(source, 'dist')) && !existsSync(join(source, 'src', 'generated'));
  execFileSync(npm, ['pack', '--silent', '--pack-destination', work], { cwd: source, stdio: 'pipe' });
  const [name] = readdirSync(work).filter((file) => file.endsWith('.tgz'));
  tarball = join(work, name ?? 'no tarball was written');

  installed = join(work, 'project');
  mkdirSync(installed);
  writeFileSync(join(installed, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  const [install, attwRun, publintRun] = await Promise.all([
    run(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], installed),
    run(bin('attw'), [tarball, '--format', 'json'], work),
    run(bin('publint'), ['run', tarball], work),
  ]);
  if (install.status !== 0) throw new Error(`npm install of the tarball failed:\n${install.stderr}`);
  attw = attwRun;
  publint = publintRun;
  consumerTypeCheck = typeCheckConsumer();
}, 180_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

/** A strict TypeScript project using the installed package's types (started early, checked below). */
function typeCheckConsumer(): Promise<Run> {
  writeFileSync(
    join(installed, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2023', noEmit: true, skipLibCheck: true, types: [] }, include: ['consumer.ts', 'consumer.cts'] }),
  );
  writeFileSync(
    join(installed, 'consumer.ts'),
    [
      "import { mergeTranslation, translateKubeDns, translateLikeKubeadm } from 'kube-dns-to-coredns';",
      "import { parseCorefile } from 'kube-dns-to-coredns/corefile';",
      "import { coreDnsRouting } from 'kube-dns-to-coredns/routing';",
      "import { NEWEST_COREDNS_VERSION } from 'kube-dns-to-coredns/releases';",
      "import type { CoreDnsVersion } from 'kube-dns-to-coredns/releases';",
      "import { PLATFORM_BASES, renderHelmValues } from 'kube-dns-to-coredns/platform';",
      "import type { HelmRender } from 'kube-dns-to-coredns/platform';",
      'const newest: CoreDnsVersion = NEWEST_COREDNS_VERSION;',
      "const helm: HelmRender = renderHelmValues({ servers: [] });",
      'helm.corefile?.toUpperCase();',
      'PLATFORM_BASES.k3s.corefile().toUpperCase();',
      "coreDnsRouting(parseCorefile('.:53 {\\n}\\n').corefile, { port: 53 }).notes.concat(newest);",
      'const t = translateKubeDns({});',
      'if (t.ok) t.corefile.toUpperCase();',
      "const merged = mergeTranslation('.:53 {\\n}\\n', t);",
      'if (merged.ok) merged.corefile.toUpperCase();',
      "const kubeadm = translateLikeKubeadm('1.17', null);",
      'if (kubeadm.ok) kubeadm.corefile.toUpperCase();',
      '',
    ].join('\n'),
  );
  // A CommonJS file of the same project (`.cts`): under nodenext it may import the ES modules (Node ≥ 20.19 require()s them).
  writeFileSync(
    join(installed, 'consumer.cts'),
    [
      "import { translateKubeDns } from 'kube-dns-to-coredns';",
      "import { parseCorefile } from 'kube-dns-to-coredns/corefile';",
      "import { readHelmValues, renderHelmValues } from 'kube-dns-to-coredns/platform';",
      "import type { HelmValueOrigin } from 'kube-dns-to-coredns/platform';",
      "const values = readHelmValues('servers:\\n- zones: [{zone: .}]\\n  port: 53\\n  plugins: [{name: whoami}]\\n');",
      'const origin: HelmValueOrigin | undefined = values === undefined ? undefined : renderHelmValues(values).origin({ line: 2, column: 5 });',
      "export const used = [translateKubeDns({}).ok, parseCorefile('.:53 {\\n}\\n').corefile.items.length, origin?.path.length];",
      '',
    ].join('\n'),
  );
  return run(bin('tsc'), ['-p', 'tsconfig.json'], installed);
}

function cli(args: string[], input?: string) {
  return spawnSync(join(installed, 'node_modules', '.bin', 'kube-dns-to-coredns'), args, { cwd: installed, input, encoding: 'utf8' });
}

const example = join(root, 'examples', 'kube-dns-configmap.yaml');
const packageDir = () => join(installed, 'node_modules', 'kube-dns-to-coredns');

/** Markdown link targets of `markdown`, outside code blocks. */
function links(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1] ?? '');
}

describe('the packed package, installed', () => {
  it('was packed from a tree without build output: prepack built it', () => {
    expect(packedFromCleanTree).toBe(true);
    expect(existsSync(join(packageDir(), 'dist', 'index.js'))).toBe(true);
    expect(existsSync(join(packageDir(), 'dist', 'index.d.ts'))).toBe(true);
    expect(existsSync(join(packageDir(), 'dist', 'bundle', 'kube-dns-to-coredns.cjs'))).toBe(true);
  });

  it('ships the built code, the example, the docs and nothing else', () => {
    expect(readdirSync(packageDir()).sort()).toEqual(['CHANGELOG.md', 'LICENSE', 'README.md', 'dist', 'docs', 'examples', 'package.json']);
    expect(markdownPages(join(packageDir(), 'docs'))).toEqual(markdownPages(join(root, 'docs')).filter((page) => !page.startsWith('playground/')));
    expect(markdownPages(join(packageDir(), 'docs'))).toContain('reference/README.md');
  });

  it('has README, CHANGELOG and docs links that work in the package; repository links share one URL', () => {
    const repository = packageJson.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');
    expect(packageJson.homepage.startsWith(`${repository}#`)).toBe(true);
    expect(packageJson.bugs.url).toBe(`${repository}/issues`);
    const pages = ['README.md', 'CHANGELOG.md', ...markdownPages(join(packageDir(), 'docs')).map((file) => `docs/${file}`)];
    const broken: string[] = [];
    let checked = 0;
    for (const page of pages) {
      for (const target of links(readFileSync(join(packageDir(), page), 'utf8'))) {
        if (target.startsWith('#')) continue;
        checked += 1;
        if (/^https?:/.test(target)) {
          if (target.includes('github.com/kube-dns-to-coredns/') && !target.startsWith(`${repository}/`)) broken.push(`${page}: ${target}`);
          continue;
        }
        const path = resolve(dirname(join(packageDir(), page)), target.replace(/#.*$/, ''));
        if (relative(packageDir(), path).startsWith('..') || !existsSync(path)) broken.push(`${page}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(30);
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

  it('exports the library API to ESM and to require(), the subpaths too', () => {
    writeFileSync(
      join(installed, 'use-subpaths.mjs'),
      "import { parseCorefile } from 'kube-dns-to-coredns/corefile';\nimport { coreDnsRouting } from 'kube-dns-to-coredns/routing';\nimport { NEWEST_COREDNS_VERSION } from 'kube-dns-to-coredns/releases';\nimport { helmValuesPath, renderHelmValues } from 'kube-dns-to-coredns/platform';\nconst helm = renderHelmValues({ servers: [{ zones: [{ zone: '.' }], port: 53, plugins: [{ name: 'whoami' }] }] });\nconsole.log(coreDnsRouting(parseCorefile('.:53 {\\n}\\n').corefile).notes.length, NEWEST_COREDNS_VERSION, helmValuesPath(helm.origin({ line: 2, column: 5 }).path));\n",
    );
    expect(execFileSync(process.execPath, ['use-subpaths.mjs'], { cwd: installed, encoding: 'utf8' })).toMatch(/^\d+ \d+\.\d+\.\d+ servers\[0\]\.plugins\[0\]\.name\n$/);
    writeFileSync(join(installed, 'use-platform.cjs'), "const { PLATFORM_NAMES, composeOverlay } = require('kube-dns-to-coredns/platform');\nconsole.log(PLATFORM_NAMES.join(','), composeOverlay('.:53 {\\n    import custom/*.server\\n}\\n', { 'a.server': 'a.local {\\n    whoami\\n}\\n' }).imports[0].keys.join(','));\n");
    expect(execFileSync(process.execPath, ['use-platform.cjs'], { cwd: installed, encoding: 'utf8' })).toBe('aks,k3s,k3s-legacy a.server\n');
    writeFileSync(join(installed, 'use.mjs'), "import { translateKubeDns } from 'kube-dns-to-coredns';\nconsole.log(translateKubeDns({}).ok);\n");
    writeFileSync(join(installed, 'use.cjs'), "const { translateLikeKubeadm } = require('kube-dns-to-coredns');\nconsole.log(translateLikeKubeadm('1.17', null).ok);\n");
    expect(execFileSync(process.execPath, ['use.mjs'], { cwd: installed, encoding: 'utf8' })).toBe('true\n');
    expect(execFileSync(process.execPath, ['use.cjs'], { cwd: installed, encoding: 'utf8' })).toBe('true\n');
  });

  it('gives strict TypeScript results that narrow on ok', async () => {
    const result = await consumerTypeCheck;
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});

describe('package lint of the tarball', () => {
  it('passes publint', () => {
    expect(publint.stdout + publint.stderr).toContain('All good!');
    expect(publint.status).toBe(0);
  });

  it('resolves types and code in every attw resolution mode; the only finding is that it is ESM-only', () => {
    const report = JSON.parse(attw.stdout) as {
      analysis: { entrypoints: Record<string, { resolutions: Record<string, { resolution?: { fileName: string } }> }> };
      problems: Record<string, readonly { kind: string; resolutionKind?: string }[]>;
    };
    const declarations: Readonly<Record<string, RegExp>> = {
      '.': /\/dist\/index\.d\.ts$/,
      './corefile': /\/dist\/corefile\/index\.d\.ts$/,
      './routing': /\/dist\/routing\/index\.d\.ts$/,
      './releases': /\/dist\/releases\.d\.ts$/,
      './platform': /\/dist\/platform\/index\.d\.ts$/,
    };
    expect(Object.keys(report.analysis.entrypoints).filter((entrypoint) => entrypoint !== './package.json').sort()).toEqual(Object.keys(declarations).sort());
    for (const [entrypoint, fileName] of Object.entries(declarations)) {
      const resolutions = report.analysis.entrypoints[entrypoint]?.resolutions ?? {};
      // node10 (TypeScript's classic resolution) finds the types through `types` and `typesVersions`, not only `exports`.
      expect(Object.keys(resolutions).sort(), entrypoint).toEqual(['bundler', 'node10', 'node16-cjs', 'node16-esm']);
      for (const [kind, entry] of Object.entries(resolutions)) expect(entry.resolution?.fileName, `${entrypoint} ${kind}`).toMatch(fileName);
    }
    // From CommonJS under node16, TypeScript reports the package as ESM (dynamic import only): a clear ESM-only
    // situation, not a broken one. Node ≥ 20.19 itself also loads it with require() (tested above).
    expect(Object.values(report.problems).flat()).toEqual(Object.keys(declarations).map((entrypoint) => ({ kind: 'CJSResolvesToESM', entrypoint, resolutionKind: 'node16-cjs' })));
  });
});

/** The Markdown pages under `folder`, as sorted paths relative to it. */
function markdownPages(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.md'))
    .map((path) => path.split(sep).join('/'))
    .sort();
}
