import { describe, expect, it } from 'vitest';
import { goldenReadmes, repositoryFiles } from './repository-files.js';

/**
 * The repository stands alone: no source, test, script, schema or document names a path outside
 * it. The facts the code rests on live in docs/reference/, the data in golden/. A test that needs
 * something from outside (a real CoreDNS binary) reads its location from an environment variable
 * at run time, so the path never appears in the file. `.ci/run` is the CI machinery's own and is
 * not scanned.
 */

/**
 * Paths that lead outside the repository: the parent folder's `shared` shelf, its well-known
 * sub-folders under any prefix, and the machine's absolute work folder. (Written with escaped
 * slashes so that this file does not match itself.)
 */
const OUTSIDE_PATHS: readonly RegExp[] = [
  /\.\.\/shared\b/,
  /\bshared\/(?:reference|realworld|kubeadm-oracle|coredns)\b/,
  /(?:^|[\s'"`(=])\/work\//,
];

/** Each line of `text` that names a path outside the repository, as `LINE: text`. */
export function outsidePathLines(text: string): string[] {
  return text
    .split('\n')
    .map((line, index) => ({ line, number: index + 1 }))
    .filter(({ line }) => OUTSIDE_PATHS.some((pattern) => pattern.test(line)))
    .map(({ line, number }) => `${number}: ${line.trim()}`);
}

const SCANNED = ['src', 'test', 'scripts', 'docs', 'schemas', 'examples', 'README.md', 'CHANGELOG.md', ...goldenReadmes()];

/** `parts` joined by `/` (so that the samples below do not make this file match itself). */
const path = (...parts: string[]): string => parts.join('/');

describe('outsidePathLines', () => {
  it('finds paths into the shelf beside the repository, however they are written', () => {
    const samples = [
      ` * (${path('..', 'shared', 'reference', 'kube-dns-and-coredns.md')} §2.3)`,
      `copied from \`${path('shared', 'kubeadm-oracle')}\``,
      `"description": "The shape of ${path('..', 'shared', 'kubeadm-oracle', 'cases.jsonl')}"`,
      `see ${path('shared', 'realworld', 'README.md')}`,
      `binaries in ${path('shared', 'coredns')}`,
      `const binaries = '${path('', 'work', 'shared', 'coredns')}';`,
    ];
    for (const sample of samples) expect(outsidePathLines(sample), sample).toHaveLength(1);
  });

  it('leaves paths inside the repository and ordinary words alone', () => {
    const samples = [
      ' * (docs/reference/kube-dns-and-coredns.md §2.3)',
      'golden/kubeadm-oracle/cases.jsonl',
      'the shared floors (`src/dns/`, `src/coredns/`)',
      '// @ts-expect-error: a plain .mjs module shared with scripts/update-golden.mjs',
      "const binaries = process.env['COREDNS_BINARIES'];",
      'src/coredns/versions.ts',
    ];
    for (const sample of samples) expect(outsidePathLines(sample), sample).toEqual([]);
  });
});

describe('the repository', () => {
  const files = repositoryFiles(SCANNED);

  it('is scanned whole: sources, tests, scripts, docs, schemas and the golden READMEs', () => {
    const paths = files.map((file) => file.path);
    for (const expected of ['README.md', 'golden/README.md', 'golden/kubeadm-oracle/README.md', 'schemas/batch-case.schema.json', 'src/coredns/versions.ts', 'docs/reference/README.md', 'test/docs/standalone.test.ts']) {
      expect(paths).toContain(expected);
    }
    expect(files.length).toBeGreaterThan(100);
  });

  it('names no path outside itself (cite docs/reference/ or golden/ instead)', () => {
    const offending = Object.fromEntries(files.map((file) => [file.path, outsidePathLines(file.text)] as const).filter(([, lines]) => lines.length > 0));
    expect(offending).toEqual({});
  });
});
