import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { lintCorefile } from '../../src/lint/lint.js';
import { migrateCorefile } from '../../src/migrate/migrate-corefile.js';
import { memoryIo } from '../support/memory-io.js';

const KUBEADM_1_18 = `.:53 {
    errors
    health {
        lameduck 5s
    }
    ready
    kubernetes cluster.local in-addr.arpa ip6.arpa {
        pods insecure
        fallthrough in-addr.arpa ip6.arpa
        ttl 30
    }
    prometheus :9153
    forward . /etc/resolv.conf
    cache 30
    loop
    reload
    loadbalance
}
`;
const PROXY = '.:53 {\n    proxy . 10.0.0.1\n}\n';
const UNCLOSED = '.:53 {\n    forward . 8.8.8.8\n';
const FEDERATION = '.:53 {\n    kubernetes cluster.local\n    federation cluster.local {\n        prod prod.example.com\n    }\n}\n';

async function batch(args: string[], lines: readonly unknown[]): Promise<{ status: number; results: Record<string, unknown>[]; err: string }> {
  const io = memoryIo({ stdin: lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n') });
  const status = await main([...args, '--batch'], io);
  const out = io.out().trimEnd();
  return { status, results: out === '' ? [] : out.split('\n').map((line) => JSON.parse(line) as Record<string, unknown>), err: io.err() };
}

/** A library result as the batch writes it (JSON text, then read back). */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('migrate --batch', () => {
  it('answers each line in order with what migrateCorefile answers, the line overriding the command line', async () => {
    const { status, results, err } = await batch(
      ['migrate', '--from', '1.6.7', '--to', '1.11.3'],
      [
        { id: 'kubeadm', corefile: KUBEADM_1_18 },
        { id: 'proxy', corefile: PROXY, from: '1.3.1', to: '1.8.0' },
        { id: 'no defaults', corefile: KUBEADM_1_18, newDefaults: false },
        { id: 'refused', corefile: FEDERATION },
      ],
    );
    expect(status).toBe(0);
    const expected = [
      ['kubeadm', migrateCorefile(KUBEADM_1_18, { from: '1.6.7', to: '1.11.3' })],
      ['proxy', migrateCorefile(PROXY, { from: '1.3.1', to: '1.8.0' })],
      ['no defaults', migrateCorefile(KUBEADM_1_18, { from: '1.6.7', to: '1.11.3', newDefaults: false })],
      ['refused', migrateCorefile(FEDERATION, { from: '1.6.7', to: '1.11.3' })],
    ] as const;
    expect(results).toEqual(
      expected.map(([id, result]) =>
        asJson({ id, ok: result.ok, changed: result.changed, from: result.from, to: result.to, ...(result.ok ? { corefile: result.corefile } : {}), notices: result.notices }),
      ),
    );
    // A refusal is a result like any other (federation is gone from 1.7.0 on).
    expect(results.map((result) => result['ok'])).toEqual([true, true, true, false]);
    expect(results[2]?.['corefile']).not.toBe(results[0]?.['corefile']);
    expect(err).toBe('batch: 4 cases: 3 ok, 1 refused or failed, 0 unusable input lines\nbatch: not ok: "refused"; by code: failed 1\n');
  });

  it('says per line what is wrong with it, and goes on: syntax, releases, fields, JSON', async () => {
    const { status, results } = await batch(
      ['migrate', '--to', '1.11.3'],
      [
        { id: 1, corefile: UNCLOSED, from: '1.6.7' },
        { id: 2, corefile: KUBEADM_1_18 },
        { id: 3, corefile: KUBEADM_1_18, from: '1.6.99' },
        { id: 4, corefile: KUBEADM_1_18, from: '1.6.7', check: true },
        { id: 5, corefile: KUBEADM_1_18, from: 1.6 },
        { id: 6 },
        'not json',
        { id: 8, corefile: KUBEADM_1_18, from: '1.6.7' },
      ],
    );
    expect(status).toBe(0);
    expect(results.map((result) => [result['id'], result['ok'], result['stage']])).toEqual([
      [1, false, 'migrate'],
      [2, false, 'input'],
      [3, false, 'input'],
      [4, false, 'input'],
      [5, false, 'input'],
      [6, false, 'input'],
      [null, false, 'input'],
      [8, true, undefined],
    ]);
    expect(results[0]?.['error']).toMatch(/^line 1: Corefile:2:15: Syntax error/);
    expect(results[1]?.['error']).toBe('line 2: no "from", and no --from on the command line');
    expect(results[2]?.['error']).toMatch(/^line 3: .*1\.6\.99/);
    expect(results[3]?.['error']).toMatch(/^line 4: unknown field "check" \(expected \{"id", "corefile", "from", "to", "deprecations", "dropFederations", "newDefaults"\}\)$/);
    expect(results[4]?.['error']).toMatch(/^line 5: "from" must be a string /);
    expect(results[5]?.['error']).toMatch(/^line 6: no "corefile" /);
    expect(results[6]?.['error']).toMatch(/^line 7: not JSON: /);
  });

  it('takes no option of the single migration that writes something else', async () => {
    for (const option of [['--check'], ['-o', 'json'], ['--kubeadm-default-for', '1.18']]) {
      const io = memoryIo({ stdin: '' });
      expect(await main(['migrate', '--batch', '--from', '1.6.7', '--to', '1.11.3', ...option], io)).toBe(2);
      expect(io.err()).toMatch(/--batch writes one JSON result line per Corefile; it takes no --(check|output|kubeadm-default-for)/);
    }
  });
});

describe('lint --batch', () => {
  it('answers each line with what lintCorefile answers, for the line’s release and build', async () => {
    const { status, results, err } = await batch(
      ['lint', '--coredns', '1.11.3'],
      [
        { id: 'a', corefile: KUBEADM_1_18 },
        { id: 'b', corefile: PROXY, coredns: '1.6.7' },
        { id: 'c', corefile: KUBEADM_1_18, plugins: ['errors', 'forward'] },
        { id: 'd', corefile: UNCLOSED },
        { id: 'e', corefile: PROXY, coredns: ['1.6.7'] },
      ],
    );
    expect(status).toBe(0);
    const expected = [lintCorefile(KUBEADM_1_18, { coredns: '1.11.3' }), lintCorefile(PROXY, { coredns: '1.6.7' }), lintCorefile(KUBEADM_1_18, { coredns: '1.11.3', plugins: ['errors', 'forward'] })];
    expect(results.slice(0, 3)).toEqual(expected.map((result, index) => asJson({ id: ['a', 'b', 'c'][index], coredns: result.coredns, ok: result.ok, diagnostics: result.diagnostics })));
    expect(results.map((result) => result['ok'])).toEqual([true, false, false, false, false]);
    expect(results[3]).toMatchObject({ id: 'd', stage: 'lint', error: expect.stringMatching(/^line 4: Corefile:2:15: Syntax error/) });
    expect(results[4]).toMatchObject({ id: 'e', stage: 'input', error: expect.stringMatching(/^line 5: "coredns" must be a string /) });
    expect(err).toBe('batch: 5 cases: 1 ok, 3 refused or failed, 1 unusable input lines\nbatch: not ok: "b", "c", "d", "e"; by code: input 1, lint 1, plugin-removed 1, unknown-directive 1\n');
  });

  it('streams: a result line is written before the next input line arrives', async () => {
    const chunks = [`${JSON.stringify({ id: 1, corefile: PROXY })}\n`, `${JSON.stringify({ id: 2, corefile: PROXY })}\n`];
    const seen: number[] = [];
    const io = memoryIo({ stdin: '' });
    let written = '';
    const streaming = {
      ...io,
      stdout: { write: (chunk: string) => void (written += chunk), isTTY: false },
      stdinChunks: async function* () {
        for (const chunk of chunks) {
          yield new TextEncoder().encode(chunk);
          seen.push(written.split('\n').filter((line) => line !== '').length);
        }
      },
    };
    expect(await main(['lint', '--batch', '-'], streaming)).toBe(0);
    expect(seen).toEqual([1, 2]);
  });
});
