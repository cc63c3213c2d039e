import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigMapInputError } from '../../src/configmap/config-map-data.js';
import { loadYamlDocuments, MAX_ALIASED_NODES } from '../../src/configmap/yaml-documents.js';
import { expectDoublingGrowth } from '../support/growth.js';
import { aliasBombLines, nearAliasLimitLines } from '../support/hostile-inputs.js';
import { thrown } from '../support/thrown.js';

/** `pad` plain strings, an anchor of 200 nodes, and `aliases` aliases of it. */
function plainAliases(pad: number, aliases: number): string {
  return `p: [${Array.from({ length: pad }, (_, index) => `p${index}`).join(',')}]\na: &a [${Array(199).fill('x').join(',')}]\nb: [${Array(aliases).fill('*a').join(',')}]\n`;
}

/** `pad` plain strings, a mapping of 99 keys, and `merges` mappings merging it in four times, and as many once. */
function mergedAliases(pad: number, merges: number): string {
  const keys = Array.from({ length: 99 }, (_, index) => `k${index}: v`).join(', ');
  return `p: [${Array.from({ length: pad }, (_, index) => `p${index}`).join(',')}]\nm: &m {${keys}}\nb: [${Array(merges).fill('{<<: [*m, *m, *m, *m]}').join(',')}]\nc: [${Array(merges).fill('{<<: *m}').join(',')}]\n`;
}

/**
 * Pairs on either side of go-yaml's bound, one plain string apart, where kubectl 1.32.4 refuses the
 * first with "document contains excessive aliasing" and reads the second: the counts agree node for
 * node, merge keys included (the `<<` key and the sequence after it are not nodes go-yaml counts).
 */
const BOUNDARY = [
  { name: 'aliases of a 200-node list', refused: plainAliases(813, 1000), read: plainAliases(814, 1000) },
  { name: 'merge keys, single and in a sequence', refused: mergedAliases(707, 300), read: mergedAliases(708, 300) },
];

/** The code of the error the text is refused with; undefined when it is read. */
function code(text: string): string | undefined {
  try {
    loadYamlDocuments(text, { filename: 'in.yaml' });
    return undefined;
  } catch (error) {
    return error instanceof ConfigMapInputError ? error.code : String(error);
  }
}

describe('loadYamlDocuments: alias expansion bounded as kubectl bounds it', () => {
  it.each(BOUNDARY)('$name: refused one node past the bound, read at it', ({ refused, read }) => {
    expect(code(refused)).toBe('excessive-aliasing');
    expect(code(read)).toBeUndefined();
  });

  it('refuses a billion laughs at the alias that passes the bound, with its place, at a cost its depth does not multiply', async () => {
    const bomb = (levels: number) => ['kind: ConfigMap', 'data:', ...aliasBombLines(levels, 10, '  ')].join('\n');
    const text = bomb(9);
    const error = thrown(() => loadYamlDocuments(text, { filename: 'in.yaml' }));
    // Twice the levels (10^18 nodes instead of 10^9, refused at the same alias) at most triple the
    // CPU time: the text doubles, the expansion stops at the bound. An expansion, or a count of what
    // the aliases would bring, grows tenfold with each level.
    await expectDoublingGrowth(bomb, (bombText) => thrown(() => loadYamlDocuments(bombText, { filename: 'in.yaml' })), { size: 9 });
    expect(error).toBeInstanceOf(ConfigMapInputError);
    expect(error).toMatchObject({ code: 'excessive-aliasing', category: 'input', position: { line: 6, column: 20 } });
    expect((error as Error).message).toMatch(/^in\.yaml:6:20: alias '\*b2' brings the document to 5030 YAML nodes, 4983 of them through aliases: more than kubectl's YAML reader allows/);
  });

  it('counts per document, as kubectl decodes one document at a time, and bounds the whole text on its own', () => {
    const document = nearAliasLimitLines().join('\n');
    expect(code(document)).toBeUndefined();
    expect(code(nearAliasLimitLines('', 3).join('\n'))).toBe('excessive-aliasing');
    expect(code(`${document}\n---\n${document}\n`)).toBeUndefined();
    const error = thrown(() => loadYamlDocuments(`${document}\n---\n${document}\n---\n${document}\n`, { filename: 'in.yaml' }));
    expect(error).toMatchObject({ code: 'excessive-aliasing', position: { line: 23, column: 5 } });
    expect((error as Error).message).toContain(`more than the ${MAX_ALIASED_NODES} this tool reads`);
  });

  it('refuses an alias inside the node it names, which would be a cycle', () => {
    for (const text of ['a: &a [1, *a]\n', 'a: &a {b: {c: *a}}\n', 'a: &a\n  <<: *a\n']) {
      const error = thrown(() => loadYamlDocuments(text, { filename: 'in.yaml' }));
      expect(error, text).toMatchObject({ code: 'recursive-alias', message: expect.stringMatching(/^in\.yaml:\d+:\d+: alias '\*a' is inside the node it names: kubectl refuses it \("anchor 'a' value contains itself"\)$/) });
    }
    // A name given again inside the node names the new node: no cycle (js-yaml and go-yaml alike).
    expect(loadYamlDocuments('a: &a [&a 1, *a]\nb: *a\n', { filename: 'in.yaml' })).toEqual([{ a: [1, 1], b: 1 }]);
  });

  it('reads ordinary aliases, and reports YAML errors as before', () => {
    expect(loadYamlDocuments('x: &x {a: 1}\ny: *x\n', { filename: 'in.yaml' })).toEqual([{ x: { a: 1 }, y: { a: 1 } }]);
    expect(thrown(() => loadYamlDocuments('a: *nope\n', { filename: 'in.yaml' }))).toMatchObject({ code: 'not-yaml', message: expect.stringMatching(/^in\.yaml:1:\d+: not valid YAML or JSON: unidentified alias/) });
  });
});

const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' }).status === 0;

describe.skipIf(!kubectl)('the same verdicts from real kubectl (its client-side YAML reader)', () => {
  const work = mkdtempSync(join(tmpdir(), 'kube-dns-to-coredns-kubectl-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  // No cluster: kubectl reads the file, then stops ("Object 'Kind' is missing"); the server, never
  // asked, is on loopback.
  const config = join(work, 'config');
  writeFileSync(config, 'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:9"}}]\ncontexts: [{name: c, context: {cluster: c}}]\ncurrent-context: c\n');
  const verdict = (text: string): string => {
    const file = join(work, 'in.yaml');
    writeFileSync(file, text);
    const run = spawnSync('kubectl', ['create', '--dry-run=client', '--validate=false', '-o', 'json', '-f', file], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, KUBECONFIG: config } });
    if (/excessive aliasing/.test(run.stderr)) return 'excessive-aliasing';
    if (/value contains itself/.test(run.stderr)) return 'recursive-alias';
    return /Object 'Kind' is missing/.test(run.stderr) ? 'read' : run.stderr;
  };

  it('agrees on both sides of the bound, merge keys included, and on cycles', { timeout: 60_000 }, () => {
    // The merge pair (three kubectl runs in all, each a second on a busy machine): its documents count plain aliases too.
    const { refused, read } = BOUNDARY[1]!;
    expect(verdict(refused)).toBe('excessive-aliasing');
    expect(verdict(read)).toBe('read');
    expect(verdict('a: &a [1, *a]\n')).toBe('recursive-alias');
  });
});
