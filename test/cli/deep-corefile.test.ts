import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { memoryIo } from '../support/memory-io.js';
import { configMapYaml } from '../support/kube-dns-manifests.js';

/**
 * Deeply nested Corefiles through every command that reads one: a result or a typed, located
 * refusal (exit 2), never "internal error" with a stack trace. Nesting is bounded only by the
 * input size; the one thing depth can exhaust is the length of `fmt`'s canonical text, whose
 * indentation grows with depth.
 */

const KUBE_DNS = configMapYaml({}, { metadata: 'block' });

/** The kube-dns default as a Corefile, plus `depth` nested blocks, one per line or all on one line. */
function deepCorefile(depth: number, layout: 'lines' | 'one line'): string {
  const head =
    '.:53 {\n    errors\n    kubernetes cluster.local in-addr.arpa ip6.arpa {\n        pods insecure\n        fallthrough in-addr.arpa ip6.arpa\n    }\n    forward . /etc/resolv.conf\n';
  const nested = layout === 'lines' ? `${'a {\n'.repeat(depth)}x\n${'}\n'.repeat(depth)}` : `    a${' { a'.repeat(depth)}${' }'.repeat(depth)}\n`;
  return `${head}${nested}}\n`;
}

const COMMANDS: Record<string, string[]> = {
  fmt: ['fmt', 'Corefile'],
  lint: ['lint', 'Corefile'],
  check: ['check', '--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile'],
  explain: ['explain', 'foo', '--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile'],
  merge: ['--merge', 'Corefile', 'kube-dns.yaml'],
};

function expectNoCrash(stderr: string): void {
  expect(stderr).not.toMatch(/internal error|RangeError|\n\s+at /);
}

describe('deeply nested Corefiles, in process', () => {
  const cases: [string, string, number][] = [
    // `a` is no plugin of any release: lint reads the whole depth and reports that (exit 1).
    ['lint', deepCorefile(100_000, 'lines'), 1],
    ['check', deepCorefile(100_000, 'lines'), 0],
    ['explain', deepCorefile(100_000, 'lines'), 0],
    ['fmt', deepCorefile(100_000, 'one line'), 0],
    // The merge reads it all too, and refuses it as lint does: `a` stops CoreDNS (merge-target-refuses).
    ['merge', deepCorefile(100_000, 'one line'), 1],
  ];
  it.each(cases)('%s reads 100,000 levels', async (command, corefile, status) => {
    const io = memoryIo({ files: { Corefile: corefile, 'kube-dns.yaml': KUBE_DNS } });
    expect(await main(COMMANDS[command] as string[], io)).toBe(status);
    expectNoCrash(io.err());
    if (command === 'fmt') expect(io.out()).toBe(corefile);
    if (command === 'lint') expect(io.out()).toMatch(/^error unknown-directive Corefile:8:1 \[\.:53\] a: /);
    if (command === 'merge') expect(io.err()).toMatch(/^error merge-target-refuses Corefile:8:5 Corefile\[\.:53\] a: the merged Corefile fails for CoreDNS 1\.14\.7 \(lint unknown-directive at \[\.:53\] a\)/m);
  });
});

describe('deeply nested Corefiles through the real executable', () => {
  const bin = join(import.meta.dirname, '../../dist/bundle/kube-dns-to-coredns.cjs');
  const work = mkdtempSync(join(tmpdir(), 'kube-dns-to-coredns-deep-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));
  const run = (corefile: string, args: string[], nodeOptions: string[] = []) => {
    writeFileSync(join(work, 'Corefile'), corefile);
    writeFileSync(join(work, 'kube-dns.yaml'), KUBE_DNS);
    return spawnSync(process.execPath, [...nodeOptions, bin, ...args], { cwd: work, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  };
  const built = existsSync(bin) || process.env['CI'] !== undefined;

  it.skipIf(!built).each(Object.keys(COMMANDS))('%s reads 1,500 levels (a stack overflow before)', (command) => {
    const result = run(deepCorefile(1500, 'lines'), COMMANDS[command] as string[]);
    expectNoCrash(result.stderr);
    expect(result.status).toBe(command === 'lint' || command === 'merge' ? 1 : 0);
    if (command === 'merge') expect(result.stderr).toContain('error merge-target-refuses ');
    else expect(result.stdout.length).toBeGreaterThan(0);
  });

  // Within a small heap: the text is measured before it is kept. Before, fmt kept 536 million
  // characters (654 MB) before refusing the 150,000 levels, and --merge printed the 484 million of
  // 11,000 levels (1 GB) to then refuse them as lint does.
  it.skipIf(!built).each([
    ['fmt', 150_000],
    ['merge', 11_000],
  ])('%s refuses %i levels one per line within a 160 MB heap (exit 2, one line)', (command, depth) => {
    const corefile = `.:53 {\n${'a {\n'.repeat(depth)}${'}\n'.repeat(depth)}}\n`;
    const result = run(corefile, COMMANDS[command] as string[], ['--max-old-space-size=160']);
    expectNoCrash(result.stderr);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^Corefile:\d+:1: cannot print server block 1 > directive 'a' > .* … [\d,]+ more … .*: the printed Corefile would be longer than 134,217,728 characters, the most the printer writes/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('--merge into a Corefile too deep to print', () => {
  it('is the input\'s refusal (exit 2, located), as for fmt, not an internal error', async () => {
    const io = memoryIo({ files: { Corefile: deepCorefile(100_000, 'lines'), 'kube-dns.yaml': KUBE_DNS } });
    expect(await main(COMMANDS['merge'] as string[], io)).toBe(2);
    expectNoCrash(io.err());
    expect(io.out()).toBe('');
    expect(io.err()).toMatch(/^Corefile:\d+:1: cannot print server block 1 > directive 'a' > .*: the printed Corefile would be longer than 134,217,728 characters/m);
  });
});

describe('long fallthrough chains in JSON output', () => {
  // 6,000 `template … { fallthrough }` stanzas: each name's route nests 6,000 deep, which
  // overflowed JSON.stringify (an internal error with a stack trace before).
  const chain = `.:53 {\n    errors\n${'    template IN A example.org {\n        fallthrough\n    }\n'.repeat(6000)}    forward . 8.8.8.8\n}\n`;

  it.each([
    ['check', ['check', '--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile', '-o', 'json']],
    ['explain', ['explain', 'www.example.org', '--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile', '-o', 'json']],
  ])('%s -o json writes it (indented to a depth, compact below)', async (_command, args) => {
    const io = memoryIo({ files: { Corefile: chain, 'kube-dns.yaml': KUBE_DNS } });
    await main(args, io);
    expectNoCrash(io.err());
    expect(JSON.parse(io.out())).toBeTypeOf('object');
  });
});
