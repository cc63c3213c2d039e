import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LineSplitter } from '../../src/cli/batch.js';
import type { CliIo } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
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
      expect(err).toBe('batch: 4 cases: 2 ok, 0 refused or failed, 2 unusable input lines\n');
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
      'line 1: the line must be an object (expected {"id", "data", "dnsDomain"})',
      'line 2: the line must be an object (expected {"id", "data", "dnsDomain"})',
      'line 3: data must be an object or null (expected {"id", "data", "dnsDomain"})',
      'line 4: data.a must be a string (expected {"id", "data", "dnsDomain"})',
    ]);
  });

  it('answers a line that is not UTF-8 with an input error and goes on', async () => {
    const bytes = new Uint8Array([...new TextEncoder().encode(`${CASE}\n`), 0x7b, 0xff, 0x7d, 0x0a, ...new TextEncoder().encode(`${CASE}\n`)]);
    const { status, lines } = await runBatch(['--kubeadm', '1.19'], bytes);
    expect(status).toBe(0);
    expect(lines.map((line) => [line['ok'], line['error']])).toEqual([
      [true, undefined],
      [false, 'line 2: not UTF-8 text'],
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
    const splitter = new LineSplitter(8);
    expect(decode(splitter.push(bytes('12345678\n123')))).toEqual(['1:12345678']);
    expect(decode(splitter.push(bytes('456789')))).toEqual([]);
    expect(decode(splitter.push(bytes('0000000000000')))).toEqual([]);
    expect(decode(splitter.push(bytes('0\n{}\n')))).toEqual(['2!longer than 0 MiB, more than a batch line may hold', '3:{}']);
    expect(decode(new LineSplitter(4).push(bytes('12345\n')))).toEqual(['1!longer than 0 MiB, more than a batch line may hold']);
    expect(decode(new LineSplitter(4).push(bytes('ab\n12345\n\ncd\n')))).toEqual(['1:ab', '2!longer than 0 MiB, more than a batch line may hold', '3!blank line (expected one JSON object per line)', '4:cd']);
  });
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
      expect(err).toBe('batch: 2 cases: 1 ok, 0 refused or failed, 1 unusable input lines\n');
    } finally {
      child.kill();
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
