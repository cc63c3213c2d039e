import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LineSplitter, runBatch as runBatchCore } from '../../src/cli/batch.js';
import type { BatchCase, BatchResult } from '../../src/cli/batch.js';
import type { CliIo } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { translateKubeDns } from '../../src/translate/translate.js';
import { memoryIo } from '../support/memory-io.js';

const root = join(import.meta.dirname, '../..');
const CASE = '{"id": "a", "data": {"upstreamNameservers": "[\\"8.8.8.8\\"]"}}';

function resultLines(out: string): Record<string, unknown>[] {
  return out
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function runBatch(args: string[], stdin: string | Uint8Array): Promise<{ status: number; lines: Record<string, unknown>[]; err: string }> {
  const io = memoryIo({ stdin: stdin as string });
  const status = await main([...args, '--batch'], io);
  return { status, lines: io.out() === '' ? [] : resultLines(io.out()), err: io.err() };
}

/** The default translator's batch with a small bound on a result line. */
function runBatchDirect(io: CliIo, maxResultCharacters: number): Promise<number> {
  const translate = (batchCase: BatchCase): BatchResult => {
    const translation = translateKubeDns(batchCase.data);
    return { id: batchCase.id, ok: translation.ok, ...(translation.corefile === undefined ? {} : { corefile: translation.corefile }), diagnostics: translation.diagnostics };
  };
  return runBatchCore('-', io, translate, undefined, { maxResultCharacters });
}

describe('--batch input lines', () => {
  it('answers every input line, a blank one with an input error naming its number', async () => {
    const input = `${CASE}\n\n   \r\n${CASE.replace('"a"', '"b"')}\n`;
    for (const args of [['--kubeadm', '1.19'], []]) {
      const { status, lines, err } = await runBatch(args, input);
      expect(status).toBe(0);
      expect(lines.map((line) => [line['id'], line['ok'], line['error']])).toEqual([
        ['a', true, undefined],
        [null, false, 'line 2: blank line (expected one JSON object per line)'],
        [null, false, 'line 3: blank line (expected one JSON object per line)'],
        ['b', true, undefined],
      ]);
      expect(err).toBe('batch: 4 cases: 2 ok, 0 refused or failed, 2 unusable input lines\nbatch: not ok: line 2, line 3; by code: input 2\n');
    }
  });

  it('reads a last line without a line feed, and nothing after a final line feed', async () => {
    expect((await runBatch(['--kubeadm', '1.10'], `${CASE}\n${CASE}`)).lines).toHaveLength(2);
    expect((await runBatch(['--kubeadm', '1.10'], `${CASE}\n${CASE}\n`)).lines).toHaveLength(2);
    expect((await runBatch(['--kubeadm', '1.10'], '')).lines).toHaveLength(0);
  });

  it('skips a byte order mark at the start of the input, from stdin and from a file', async () => {
    const withBom = `\ufeff${CASE}\n\ufeff${CASE}\n`;
    const { lines } = await runBatch(['--kubeadm', '1.19'], withBom);
    expect(lines[0]).toMatchObject({ id: 'a', ok: true });
    // Only at the start of the input, as for a ConfigMap file.
    expect(lines[1]).toMatchObject({ id: null, stage: 'input', error: expect.stringMatching(/^line 2: not JSON: /) });
    const io = memoryIo({ files: { 'fleet.jsonl': withBom } });
    expect(await main(['--batch', 'fleet.jsonl'], io)).toBe(0);
    expect(resultLines(io.out())[0]).toMatchObject({ id: 'a', ok: true });
  });

  it('says what a line is instead of the expected object, in plain English', async () => {
    const { lines } = await runBatch(['--kubeadm', '1.17'], ['[1]', '"x"', '{"id": "n", "data": 5}', '{"id": "s", "data": {"a": 1}}'].join('\n'));
    expect(lines.map((line) => line['error'])).toEqual([
      'line 1: the line must be an object (expected {"id", "data", "dnsDomain", "clusterDomain", "coredns", "note"})',
      'line 2: the line must be an object (expected {"id", "data", "dnsDomain", "clusterDomain", "coredns", "note"})',
      'line 3: data must be an object or null (expected {"id", "data", "dnsDomain", "clusterDomain", "coredns", "note"})',
      'line 4: data.a must be a string (expected {"id", "data", "dnsDomain", "clusterDomain", "coredns", "note"})',
    ]);
  });

  it('answers a line that is not UTF-8 with an input error and goes on', async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode(`${CASE}\n`), 0x7b, 0xff, 0x7d, 0x0a, ...new TextEncoder().encode(`${CASE}\n`)]);
    const { status, lines } = await runBatch(['--kubeadm', '1.19'], bytes);
    expect(status).toBe(0);
    expect(lines.map((line) => [line['ok'], line['error']])).toEqual([
      [true, undefined],
      [false, 'line 2: not UTF-8 text: byte 0xff at column 2 (byte offset 1 of the line)'],
      [true, undefined],
    ]);
  });
});

describe('LineSplitter', () => {
  const decode = (lines: readonly ({ lineNumber: number; text: string } | { lineNumber: number; problem: string })[]) =>
    lines.map((line) => ('text' in line ? `${line.lineNumber}:${line.text}` : `${line.lineNumber}!${line.problem}`));
  const bytes = (text: string) => new TextEncoder().encode(text);

  it('joins lines cut across chunks, a multi-byte character included', () => {
    const splitter = new LineSplitter(100);
    const euro = bytes('{"é€"}\n');
    expect(decode(splitter.push(euro.subarray(0, 4)))).toEqual([]);
    expect(decode(splitter.push(euro.subarray(4, 6)))).toEqual([]);
    expect(decode(splitter.push(new Uint8Array([...euro.subarray(6), ...bytes('{}\n{')])))).toEqual(['1:{"é€"}', '2:{}']);
    expect(decode(splitter.end())).toEqual(['3:{']);
  });

  it('holds no more than the limit of a long line, and reports it at its end', () => {
    const splitter = new LineSplitter(8, 100);
    expect(decode(splitter.push(bytes('12345678\n123')))).toEqual(['1:12345678']);
    expect(decode(splitter.push(bytes('456789')))).toEqual([]);
    expect(decode(splitter.push(bytes('0000000000000')))).toEqual([]);
    expect(decode(splitter.push(bytes('0\n{}\n')))).toEqual(['2!longer than 0 MiB, more than a batch line may hold', '3:{}']);
    expect(decode(new LineSplitter(4).push(bytes('12345\n')))).toEqual(['1!longer than 0 MiB, more than a batch line may hold']);
    expect(decode(new LineSplitter(4).push(bytes('ab\n12345\n\ncd\n')))).toEqual(['1:ab', '2!longer than 0 MiB, more than a batch line may hold', '3!blank line (expected one JSON object per line)', '4:cd']);
  });
});

describe('LineSplitter on a line without end', () => {
  it('reports the line once past the line limit and the skip limit, and takes nothing more', () => {
    const splitter = new LineSplitter(8, 4);
    expect(splitter.push(new TextEncoder().encode('{}\n1234567890'))).toHaveLength(1);
    expect(splitter.push(new Uint8Array(2))).toEqual([]);
    expect(splitter.abandoned).toBe(false);
    expect(splitter.push(new Uint8Array(3))).toEqual([{ lineNumber: 2, problem: 'longer than 0 MiB without a line end; the rest of the input is not read' }]);
    expect(splitter.abandoned).toBe(true);
    expect(splitter.push(new TextEncoder().encode('\n{}\n'))).toEqual([]);
  });
});

describe('--batch FILE that never ends (/dev/zero, or a symbolic link to it)', () => {
  const MiB = 1024 * 1024;
  it('streams FILE: the line before is answered, the endless line is its own result, exit 2 after 64 MiB', async () => {
    const base = memoryIo();
    let read = 0;
    const io: CliIo = {
      ...base,
      readFile: () => Promise.reject(new Error('FILE must be streamed')),
      fileChunks: async function* () {
        yield new TextEncoder().encode(`${CASE}\n`);
        const zeros = new Uint8Array(MiB);
        // An endless line; the test fails (rather than hangs) if far more than the limit is read.
        while (read < 256 * MiB) {
          read += zeros.length;
          yield zeros;
        }
      },
    };
    expect(await main(['--kubeadm', '1.19', '--batch', 'zero.jsonl'], io)).toBe(2);
    expect(read).toBeLessThanOrEqual(65 * MiB);
    expect(resultLines(base.out())).toEqual([
      expect.objectContaining({ id: 'a', ok: true }),
      { id: null, ok: false, stage: 'input', error: 'line 2: longer than 64 MiB without a line end; the rest of the input is not read' },
    ]);
    expect(base.err()).toMatch(/batch: 2 cases: 1 ok, 0 refused or failed, 1 unusable input lines\n.*\nkube-dns-to-coredns: zero\.jsonl: line 2 has no line end within 64 MiB; the rest of the input was not read\n$/);
  });

  const bin = join(root, 'dist/bundle/kube-dns-to-coredns.cjs');
  it.skipIf(!existsSync('/dev/zero') || !existsSync('/usr/bin/time') || (!existsSync(bin) && process.env['CI'] === undefined))('the built CLI ends in seconds with bounded memory (it read 1 GiB, 1.1 GB resident, before)', async () => {
    const work = mkdtempSync(join(tmpdir(), 'kube-dns-to-coredns-batch-zero-'));
    try {
      const { symlinkSync } = await import('node:fs');
      symlinkSync('/dev/zero', join(work, 'cases.jsonl'));
      const child = spawn('/usr/bin/time', ['-f', 'peak %M', process.execPath, bin, '--batch', join(work, 'cases.jsonl')], { stdio: ['ignore', 'pipe', 'pipe'] });
      let err = '';
      child.stderr.on('data', (chunk: Buffer) => void (err += chunk.toString()));
      child.stdout.resume();
      const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
      clearTimeout(killer);
      expect(status).toBe(2);
      expect(err).toMatch(/cases\.jsonl: line 1 has no line end within 64 MiB/);
      const peakKiB = Number(/peak (\d+)/.exec(err)?.[1]);
      expect(peakKiB).toBeLessThan(400 * 1024);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }, 40_000);
});

/** A CliIo whose standard input arrives when the test pushes it. */
function streamingIo(): { io: CliIo & { out: () => string }; push: (text: string) => void; close: () => void } {
  const base = memoryIo();
  const queue: (Uint8Array | null)[] = [];
  let wake: (() => void) | undefined;
  const deliver = (item: Uint8Array | null) => {
    queue.push(item);
    wake?.();
  };
  async function* chunks(): AsyncGenerator<Uint8Array> {
    for (;;) {
      while (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const item = queue.shift();
      if (item === null || item === undefined) return;
      yield item;
    }
  }
  return {
    io: { ...base, stdinChunks: chunks, readStdin: () => Promise.reject(new Error('stdin must be streamed')) },
    push: (text) => deliver(new TextEncoder().encode(text)),
    close: () => deliver(null),
  };
}

async function until(condition: () => boolean): Promise<void> {
  for (let tries = 0; !condition(); tries += 1) {
    if (tries > 500) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('--batch streams', () => {
  it('writes each result before the next input line arrives (in process)', async () => {
    const { io, push, close } = streamingIo();
    const run = main(['--kubeadm', '1.19', '--batch'], io);
    push(`${CASE}\n{"id": "b", "da`);
    await until(() => io.out().includes('\n'));
    expect(resultLines(io.out()).map((line) => line['id'])).toEqual(['a']);
    push('ta": null}\n');
    await until(() => io.out().split('\n').length === 3);
    expect(resultLines(io.out()).map((line) => line['id'])).toEqual(['a', 'b']);
    close();
    expect(await run).toBe(0);
  });

  it('writes results to --out FILE as they come, not kept in memory, and makes FILE the output only at the end', async () => {
    const { io: base, push, close } = streamingIo();
    const streamed: string[] = [];
    let committed = false;
    const io: CliIo = {
      ...base,
      writeOutputFile: () => Promise.reject(new Error('a batch must not be collected for --out')),
      openOutputStream: async () => ({ write: (chunk) => void streamed.push(chunk), commit: async () => void (committed = true), discard: async () => undefined }),
    };
    const run = main(['--batch', '-', '--out', 'results.jsonl'], io);
    push(`${CASE}\n`);
    await until(() => streamed.join('').includes('\n'));
    expect(resultLines(streamed.join('')).map((line) => line['id'])).toEqual(['a']);
    expect(committed).toBe(false);
    push(`${CASE.replace('"a"', '"b"')}\n`);
    await until(() => streamed.join('').split('\n').length === 3);
    close();
    expect(await run).toBe(0);
    expect(committed).toBe(true);
    expect(resultLines(streamed.join('')).map((line) => line['id'])).toEqual(['a', 'b']);
  });

  const bin = join(root, 'dist', 'bundle', 'kube-dns-to-coredns.cjs');
  it.skipIf(!existsSync(bin) && process.env['CI'] === undefined)('writes each result before stdin closes (the built CLI, a real pipe)', async () => {
    const child = spawn(process.execPath, [bin, '--kubeadm', '1.19', '--batch'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      child.stdin.write(`${CASE}\n`);
      await until(() => out.endsWith('\n'));
      expect(resultLines(out)).toEqual([expect.objectContaining({ id: 'a', ok: true })]);
      child.stdin.write('not json\n');
      await until(() => out.split('\n').length === 3);
      expect(resultLines(out)[1]).toMatchObject({ id: null, stage: 'input', error: expect.stringMatching(/^line 2: not JSON: /) });
      expect(err).toBe('');
      child.stdin.end();
      expect(await exited).toBe(0);
      expect(err).toBe('batch: 2 cases: 1 ok, 0 refused or failed, 1 unusable input lines\nbatch: not ok: line 2; by code: input 1\n');
    } finally {
      child.kill();
    }
  });
});

describe('--batch --out FILE with the built CLI', () => {
  const bin = join(root, 'dist', 'bundle', 'kube-dns-to-coredns.cjs');
  it.skipIf(!existsSync(bin) && process.env['CI'] === undefined)('streams into a temporary file next to FILE and renames it over FILE when stdin ends', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'batch-out-'));
    const target = join(directory, 'results.jsonl');
    writeFileSync(target, 'old\n');
    const child = spawn(process.execPath, [bin, '--batch', '-', '--out', target], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    const temporary = () => readdirSync(directory).find((name) => name.endsWith('.tmp'));
    try {
      child.stdin.write(`${CASE}\n`);
      // The first result reaches the disk while stdin is still open; FILE is still the old one.
      await until(() => {
        const name = temporary();
        return name !== undefined && readFileSync(join(directory, name), 'utf8').endsWith('\n');
      });
      expect(readFileSync(target, 'utf8')).toBe('old\n');
      child.stdin.end(`${CASE.replace('"a"', '"b"')}\n`);
      expect(await exited).toBe(0);
      expect(resultLines(readFileSync(target, 'utf8')).map((line) => line['id'])).toEqual(['a', 'b']);
      expect(temporary()).toBeUndefined();
    } finally {
      child.kill();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('--batch FILE --out FILE stopped by a signal (the built CLI)', () => {
  const bin = join(root, 'dist', 'bundle', 'kube-dns-to-coredns.cjs');
  it.skipIf(!existsSync(bin) && process.env['CI'] === undefined)('dies of SIGTERM promptly while reading a file (under 5 s on a loaded machine; it ran to the end before), and removes its temporary file', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'batch-signal-'));
    const input = join(directory, 'cases.jsonl');
    const target = join(directory, 'results.jsonl');
    // Far more cases than a second's work: the loop must give the signal a turn while it reads.
    writeFileSync(input, `${'{"id":1,"data":{}}\n'.repeat(200_000)}`);
    const spawned = Date.now();
    const child = spawn(process.execPath, [bin, '--batch', input, '--out', target], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('close', (code, signal) => resolve({ code, signal })));
    const temporary = () => readdirSync(directory).filter((name) => name.endsWith('.tmp'));
    try {
      // Working: its temporary file holds results.
      await until(() => temporary().some((name) => readFileSync(join(directory, name), 'utf8').length > 0));
      // Promptly: within 5 s, or three times as long as it took to start and write its first
      // results, whichever is longer — a loaded machine slows both alike, and the rest of the
      // 200,000 cases (what it did before) takes far longer than either.
      const gettingGoing = Date.now() - spawned;
      const signalled = Date.now();
      child.kill('SIGTERM');
      expect(await exited).toEqual({ code: null, signal: 'SIGTERM' });
      expect(Date.now() - signalled, `${gettingGoing} ms to the first results`).toBeLessThan(Math.max(5_000, 3 * gettingGoing));
      expect(readdirSync(directory).sort()).toEqual(['cases.jsonl']);
    } finally {
      child.kill('SIGKILL');
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('--kubeadm --batch and unrequested content', () => {
  const oracle = join(root, 'golden', 'kubeadm-oracle');

  it('adds "unrequested" last; without it, each line is the reference corpus line (docs/cli.md)', async () => {
    const cases = readFileSync(join(oracle, 'cases.jsonl'), 'utf8');
    const expected = readFileSync(join(oracle, 'expected', 'v1.10.jsonl'), 'utf8');
    const io = memoryIo({ stdin: cases });
    expect(await main(['--kubeadm', '1.10', '--batch'], io)).toBe(0);
    const flagged = io.out().split('\n').filter((line) => line.includes(', "unrequested": ['));
    expect(flagged.length).toBeGreaterThan(50);
    expect(flagged.every((line) => /, "unrequested": \["the Corefile holds .*\]\}$|, "unrequested": \["the input changed .*\]\}$/.test(line))).toBe(true);
    // The documented filter: sed 's/, "unrequested": \[.*\]}$/}/'
    expect(io.out().replace(/, "unrequested": \[.*\]\}$/gm, '}')).toBe(expected);
  });
});

describe('--batch: each line its own', () => {
  const DATA = '{"stubDomains": "{\\"acme.local\\": [\\"10.0.0.1\\"]}"}';

  it("honours a line's coredns and cluster domain and echoes them in its result", async () => {
    const input = [`{"id": 1, "data": ${DATA}, "coredns": "1.2.6"}`, `{"id": 2, "data": ${DATA}, "coredns": "v1.8.7-eksbuild.3", "clusterDomain": "corp.internal"}`, `{"id": 3, "data": ${DATA}}`].join('\n');
    const { status, lines } = await runBatch(['--coredns', '1.6.9'], input);
    expect(status).toBe(0);
    expect(lines.map((line) => [line['id'], line['ok'], line['coredns'], line['clusterDomain']])).toEqual([
      [1, true, '1.2.6', undefined],
      [2, true, '1.8.7', 'corp.internal'],
      [3, true, '1.6.9', undefined],
    ]);
    for (const [line, coredns, clusterDomain] of [[lines[0], '1.2.6', undefined], [lines[1], 'v1.8.7-eksbuild.3', 'corp.internal'], [lines[2], '1.6.9', undefined]] as const) {
      const alone = translateKubeDns({ stubDomains: '{"acme.local": ["10.0.0.1"]}' }, { coredns, ...(clusterDomain === undefined ? {} : { clusterDomain }) });
      expect(line?.['corefile']).toBe(alone.corefile);
      expect(line?.['diagnostics']).toEqual(alone.diagnostics);
    }
    expect(String(lines[1]?.['corefile'])).toContain('kubernetes corp.internal');
  });

  it('refuses a field a case does not have, and a release --kubeadm would not read, instead of ignoring it', async () => {
    const misspelt = await runBatch([], `{"id": "m", "data": ${DATA}, "cordns": "1.2.6"}\n{"id": "n", "data": ${DATA}}`);
    expect(misspelt.lines[0]).toEqual({
      id: 'm',
      ok: false,
      stage: 'input',
      error: "line 1: the line has a field 'cordns' a batch case does not have; it would not be read (the fields: id, data, dnsDomain, clusterDomain, coredns, note)",
    });
    expect(misspelt.lines[1]).toMatchObject({ id: 'n', ok: true });
    // The fields it names are the schema's, every one of them (one source, not a list kept by hand).
    const schema = JSON.parse(readFileSync(join(root, 'schemas/batch-case.schema.json'), 'utf8')) as { properties: Record<string, unknown> };
    const named = /\(the fields: ([^)]*)\)$/.exec(String(misspelt.lines[0]?.['error']))?.[1]?.split(', ');
    expect(named).toEqual(Object.keys(schema.properties));
    const kubeadm = await runBatch(['--kubeadm', '1.19'], `{"id": "k", "data": ${DATA}, "coredns": "1.8.0"}`);
    expect(kubeadm.lines[0]).toMatchObject({ id: 'k', ok: false, stage: 'input', error: expect.stringMatching(/^line 1: coredns: --kubeadm v1\.19 reproduces what kubeadm stored/) });
    const unknown = await runBatch([], `{"id": "u", "data": ${DATA}, "coredns": "1.4.1"}\n{"id": "v", "data": ${DATA}}`);
    expect(unknown.lines[0]).toMatchObject({ id: 'u', ok: false, stage: 'input', error: expect.stringMatching(/^line 1: cannot resolve a CoreDNS release from '1\.4\.1'/) });
    expect(unknown.lines[1]).toMatchObject({ id: 'v', ok: true });
  });

  it('names the failing cases and counts them per code in the summary', async () => {
    const cases = [
      `{"id": "good", "data": ${DATA}}`,
      '{"id": "bad-json", "data": {"stubDomains": "{"}}',
      '{"id": "bad-zone", "data": {"stubDomains": "{\\"-x.\\": [\\"10.0.0.1\\"]}"}}',
      '{"id": 7, "data": {"upstreamNameservers": "[1]"}}',
      'not json',
      ...Array.from({ length: 12 }, (_, index) => `{"id": "j${index}", "data": {"stubDomains": "{"}}`),
    ];
    const { lines, err } = await runBatch([], cases.join('\n'));
    expect(lines).toHaveLength(cases.length);
    const [first, second] = err.split('\n');
    expect(first).toBe(`batch: ${cases.length} cases: 1 ok, 15 refused or failed, 1 unusable input lines`);
    expect(second).toMatch(/^batch: not ok: "bad-json", "bad-zone", 7, line 5, "j0", "j1", "j2", "j3", "j4", "j5" \(and 6 more\); by code: /);
    const counts = Object.fromEntries((second ?? '').replace(/^.*by code: /, '').split(', ').map((entry) => entry.split(' ')));
    expect(counts['json-syntax']).toBe('13');
    expect(counts['input']).toBe('1');
    expect(Object.values(counts).reduce((sum: number, count) => sum + Number(count), 0)).toBeGreaterThanOrEqual(16);
    // -q keeps the line that names the failures.
    const quiet = memoryIo({ stdin: cases.join('\n') });
    expect(await main(['-q', '--batch'], quiet)).toBe(0);
    expect(quiet.err()).toBe(`${second}\n`);
  });

  it('answers an id nested 10,000 deep with an input error for that line and goes on', async () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`;
    for (const args of [[], ['--kubeadm', '1.19']]) {
      const { status, lines } = await runBatch(args, `{"id": "before", "data": ${DATA}}\n{"id": ${deep}, "data": ${DATA}}\n{"id": "after", "data": ${DATA}}\n`);
      expect(status).toBe(0);
      expect(lines.map((line) => [line['id'], line['ok'], line['stage']])).toEqual([
        ['before', true, undefined],
        [null, false, 'input'],
        ['after', true, undefined],
      ]);
    }
  });

  it('answers a result too large to write with an output error for that line, never building it, and goes on', async () => {
    const domains = Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`${'x'.repeat(60)}${index}.example`, ['10.0.0.1']]));
    const io = memoryIo({ stdin: `{"id": "big", "data": {"stubDomains": ${JSON.stringify(JSON.stringify(domains))}}}\n{"id": "small", "data": {}}\n` });
    const status = await runBatchDirect(io, 4096);
    expect(status).toBe(0);
    expect(resultLines(io.out())).toEqual([
      { id: 'big', ok: false, stage: 'output', error: 'line 1: the result is longer than 4096 characters, more than a result line may hold; translate this case on its own' },
      expect.objectContaining({ id: 'small', ok: true }),
    ]);
    expect(io.err()).toContain('batch: not ok: "big"; by code: output 1');
  });

  it('answers a case whose translation throws (a bug, a stack overflow) with an internal error for that line and goes on', async () => {
    const io = memoryIo({ stdin: '{"id": 1, "data": {}}\n{"id": 2, "data": {}}\n' });
    const status = await runBatchCore('-', io, (batchCase: BatchCase): BatchResult => {
      if (batchCase.id === 1) throw new RangeError('Maximum call stack size exceeded');
      return { id: batchCase.id, ok: true };
    });
    expect(status).toBe(0);
    expect(resultLines(io.out())).toEqual([
      { id: 1, ok: false, stage: 'internal', error: 'line 1: internal error, please report it: RangeError: Maximum call stack size exceeded' },
      { id: 2, ok: true },
    ]);
  });
});
