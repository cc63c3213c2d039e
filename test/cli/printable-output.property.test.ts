import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { memoryIo } from '../support/memory-io.js';

/**
 * Messages for people quote keys and values from the input. Whatever those hold — line feeds,
 * carriage returns, escape sequences, Unicode line separators, bidirectional overrides — every
 * line the CLI prints for people is free of them, and each diagnostic is exactly one line.
 */

/** A character no message line may hold raw (line feeds only between lines). */
const UNPRINTABLE = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

const nasty = fc.constantFrom('\n', '\r', '\t', '\u001b[31m', '\u0000', '\u007f', '\u0085', '\u2028', '\u2029', '\u202e', '\u2066', '"', '{', '}', ' ', '#', ',');
const piece = fc.oneof({ weight: 3, arbitrary: fc.constantFrom('acme', 'local', '10.0.0.1', 'x', '.', ':53', 'é') }, { weight: 2, arbitrary: nasty });
const hostile = fc.array(piece, { minLength: 1, maxLength: 6 }).map((pieces) => pieces.join(''));

interface KubeDnsInput {
  readonly stubs: readonly (readonly [string, readonly string[]])[];
  readonly upstreams: readonly string[] | undefined;
  readonly federations: readonly (readonly [string, string])[] | undefined;
}

const kubeDns: fc.Arbitrary<KubeDnsInput> = fc.record({
  stubs: fc.array(fc.tuple(fc.oneof(hostile, fc.constantFrom('acme.local', 'corp.example')), fc.array(fc.oneof(hostile, fc.constant('10.0.0.1')), { maxLength: 3 })), { maxLength: 3 }),
  upstreams: fc.option(fc.array(fc.oneof(hostile, fc.constant('8.8.8.8')), { maxLength: 3 }), { nil: undefined }),
  federations: fc.option(fc.array(fc.tuple(hostile, hostile), { maxLength: 2 }), { nil: undefined }),
});

/** The ConfigMap as JSON, which (unlike YAML) carries every character of the values. */
function configMapJson(input: KubeDnsInput): string {
  const data: Record<string, string> = { stubDomains: JSON.stringify(Object.fromEntries(input.stubs)) };
  if (input.upstreams !== undefined) data['upstreamNameservers'] = JSON.stringify(input.upstreams);
  if (input.federations !== undefined) data['federations'] = JSON.stringify(Object.fromEntries(input.federations));
  return JSON.stringify({ kind: 'ConfigMap', metadata: { name: 'kube-dns' }, data });
}

/** A Corefile whose zone and nameserver hold the hostile text, quoted so that it stays one token. */
function corefileWith(zone: string, server: string): string {
  const quote = (text: string) => `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  return `${quote(zone)} {\n    forward . ${quote(server)}\n}\n.:53 {\n    kubernetes cluster.local\n    forward . 8.8.8.8\n}\n`;
}

function expectPrintableLines(text: string, what: string): void {
  for (const line of text.split('\n')) expect(UNPRINTABLE.test(line), `${what}: ${JSON.stringify(line)}`).toBe(false);
}

async function run(args: string[], files: Record<string, string>): Promise<{ status: number; out: string; err: string }> {
  const io = memoryIo({ files });
  const status = await main(args, io);
  return { status, out: io.out(), err: io.err() };
}

describe('human-readable output never carries control characters from the input', () => {
  it('the default translator: one line per diagnostic, none of them forged', async () => {
    let diagnosticsSeen = 0;
    let escapedLines = 0;
    await fc.assert(
      fc.asyncProperty(kubeDns, async (input) => {
        const files = { 'cm.json': configMapJson(input) };
        const json = await run(['-o', 'json', 'cm.json'], files);
        if (json.status === 2) return; // a usage error, checked below for the text
        const { diagnostics } = JSON.parse(json.out) as { diagnostics: unknown[] };
        const text = await run(['cm.json'], files);
        expectPrintableLines(text.err, 'stderr');
        const lines = text.err.split('\n').filter((line) => line !== '');
        expect(lines.filter((line) => /^(error|warning|info) [a-z0-9-]+[ :]/.test(line))).toHaveLength(diagnostics.length);
        expect(lines).toHaveLength(diagnostics.length + (text.status === 1 ? 1 : 0));
        diagnosticsSeen += diagnostics.length;
        escapedLines += lines.filter((line) => line.includes('\\u') || line.includes('\\n') || line.includes('\\r') || line.includes('\\t')).length;
      }),
      { numRuns: 150 },
    );
    expect(diagnosticsSeen).toBeGreaterThan(150);
    expect(escapedLines).toBeGreaterThan(30);
  });

  it('the kubeadm profiles: warnings and errors', async () => {
    let messages = 0;
    await fc.assert(
      fc.asyncProperty(kubeDns, fc.constantFrom('1.10', '1.14', '1.15', '1.19'), async (input, release) => {
        const result = await run(['--kubeadm', release, 'cm.json'], { 'cm.json': configMapJson(input) });
        expectPrintableLines(result.err, 'stderr');
        messages += result.err.split('\n').filter((line) => line !== '').length;
      }),
      { numRuns: 150 },
    );
    expect(messages).toBeGreaterThan(50);
  });

  it('lint, check, explain and fmt: findings, tables, notes and errors', async () => {
    let lines = 0;
    await fc.assert(
      fc.asyncProperty(hostile, hostile, kubeDns, async (zone, server, input) => {
        const files = { Corefile: corefileWith(zone, server), 'cm.json': configMapJson(input), 'broken.cf': `${zone} {\n` };
        const runs = [
          await run(['lint', 'Corefile'], files),
          await run(['check', '--kube-dns', 'cm.json', '--corefile', 'Corefile'], files),
          await run(['explain', 'api.acme.local', '--kube-dns', 'cm.json', '--corefile', 'Corefile'], files),
          await run(['fmt', 'broken.cf'], files),
          await run(['fmt', '--check', 'Corefile', 'broken.cf'], files),
        ];
        for (const [index, result] of runs.entries()) {
          // fmt prints the Corefile itself on stdout: data, not a message.
          if (index !== 3) expectPrintableLines(result.out, `stdout of run ${index}`);
          expectPrintableLines(result.err, `stderr of run ${index}`);
          lines += `${result.out}${result.err}`.split('\n').length;
        }
      }),
      { numRuns: 60 },
    );
    expect(lines).toBeGreaterThan(1000);
  });

  it('usage errors quoting arguments and file names', async () => {
    for (const name of ['evil\nkube-dns-to-coredns: fake', 'bell\u0007', 'esc\u001b[2J']) {
      for (const args of [[name], ['lint', name], ['fmt', name], ['--coredns', name], ['explain', name, '--kube-dns', 'x']]) {
        const result = await run(args, {});
        expect(result.status).toBe(2);
        expect(result.err.split('\n').filter((line) => line !== '')).toHaveLength(1);
        expectPrintableLines(result.err, args.join(' '));
      }
    }
  });
});
