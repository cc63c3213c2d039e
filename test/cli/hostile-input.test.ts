import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { cpuMs } from '../support/growth.js';
import { aliasBombLines, fanOutCorefile } from '../support/hostile-inputs.js';
import { memoryIo } from '../support/memory-io.js';
import { configMapYaml, coreDnsConfigMapYaml, deploymentYaml, STOCK_DNSMASQ_ARGS } from '../support/kube-dns-manifests.js';

/**
 * Inputs built to hurt: each must end in one clear line on stderr and exit 2, never a crash, a
 * hang or a stack trace. (How fast, and with how much memory: `npm run bench`.)
 */
async function refused(input: string | Uint8Array, args: string[] = []): Promise<string> {
  const io = memoryIo({ files: { 'input.yaml': input } });
  expect(await main([...args, 'input.yaml'], io)).toBe(2);
  expect(io.out()).toBe('');
  expect(io.err().trim().split('\n')).toHaveLength(1);
  expect(io.err()).not.toMatch(/\n\s+at /);
  return io.err();
}

describe('hostile ConfigMap input', () => {
  it('refuses an alias bomb', async () => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let level = 1; level < 13; level += 1) {
      const name = String.fromCharCode(97 + level);
      const previous = String.fromCharCode(96 + level);
      lines.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(',')}]`);
    }
    expect(await refused(lines.join('\n'))).toMatch(/^kube-dns-to-coredns: input\.yaml:4:17: alias '\*c' brings the document to \d+ YAML nodes, \d+ of them through aliases: .*"document contains excessive aliasing"/);
  });

  it('refuses deep nesting, as YAML and as JSON', async () => {
    expect(await refused(`data: ${'['.repeat(5000)}${']'.repeat(5000)}\n`)).toMatch(/input\.yaml:1:\d+: not valid YAML or JSON: nested deeper than 64 levels, more than this tool reads; no Kubernetes object kubectl prints is nested that deep/);
    // JSON.parse reads deep JSON without recursion; the shape check then refuses it.
    expect(await refused(`{"data": ${'['.repeat(100000)}${']'.repeat(100000)}}`)).toMatch(/input\.yaml: data must be a mapping of strings, got a sequence/);
  });

  it('refuses binary junk and text that is not YAML', async () => {
    expect(await refused(new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0xff, 0x00]))).toBe('kube-dns-to-coredns: input.yaml:1:7: not UTF-8 text: byte 0xff at byte offset 6\n');
    expect(await refused('\u0000\u0001\u0002 binary-ish but valid UTF-8')).toMatch(/input\.yaml:\d+:\d+: not valid YAML or JSON/);
    expect(await refused('data:\n  stubDomains: "unterminated\n')).toMatch(/input\.yaml:\d+:\d+: not valid YAML or JSON/);
  });

  it('points at duplicate keys', async () => {
    expect(await refused('kind: ConfigMap\ndata:\n  stubDomains: "{}"\n  stubDomains: "{}"\n')).toMatch(/input\.yaml:4:\d+: not valid YAML or JSON: duplicated mapping key/);
  });

  it('refuses input larger than any ConfigMap before reading it all', async () => {
    expect(await refused(new Uint8Array(33 * 1024 * 1024).fill(0x20))).toBe('kube-dns-to-coredns: input.yaml: larger than 32 MiB, more than this command reads\n');
  });
});

describe('hostile input through the real executable', () => {
  const bin = join(import.meta.dirname, '../../dist/bundle/kube-dns-to-coredns.cjs');
  const work = mkdtempSync(join(tmpdir(), 'kube-dns-to-coredns-hostile-'));
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it.skipIf(!existsSync(bin) && process.env['CI'] === undefined)('refuses a 100 MB file and 100 MB on standard input', () => {
    const file = join(work, 'huge.yaml');
    const descriptor = openSync(file, 'w');
    const chunk = Buffer.alloc(1024 * 1024, 'a: b\n');
    for (let index = 0; index < 100; index += 1) writeSync(descriptor, chunk);
    closeSync(descriptor);
    const fromFile = spawnSync(process.execPath, [bin, file], { encoding: 'utf8' });
    expect(fromFile.status).toBe(2);
    expect(fromFile.stderr).toMatch(/huge\.yaml: larger than 32 MiB/);
    const fromStdin = spawnSync('sh', ['-c', `cat "${file}" | "${process.execPath}" "${bin}" -`], { encoding: 'utf8' });
    expect(fromStdin.status).toBe(2);
    expect(fromStdin.stderr).toMatch(/<stdin>: larger than 32 MiB/);
  });
});

describe('a snippet fan-out (60 million directives from under 1 KB)', () => {
  const kubeDns = configMapYaml({}, { metadata: 'block' });
  const run = async (args: string[]) => {
    const io = memoryIo({ files: { 'kube-dns.yaml': kubeDns, Corefile: fanOutCorefile(6, 10) } });
    const status = await main(args, io);
    expect(io.err()).not.toMatch(/internal error|\n\s+at /);
    return { status, out: io.out(), err: io.err() };
  };
  const refusal = /Corefile:10:5: more than 10,000 snippet imports in one Corefile/;

  it('is refused by check and explain, at the import past the bound (exit 2)', async () => {
    const check = await run(['check', '--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile']);
    expect(check.status).toBe(2);
    expect(check.err).toMatch(refusal);
    const explain = await run(['explain', 'kubernetes.default', '--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile']);
    expect(explain.status).toBe(2);
    expect(explain.err).toMatch(refusal);
  });

  it('is a lint error, and migrate refuses to write the result (exit 1)', async () => {
    const lint = await run(['lint', 'Corefile']);
    expect(lint.status).toBe(1);
    expect(lint.out).toMatch(/^error snippet-expansion-limit Corefile:10:5 /m);
    const migrate = await run(['migrate', '--from', '1.6.9', '--to', '1.14.7', 'Corefile']);
    expect(migrate.status).toBe(1);
    expect(migrate.out).toBe('');
    expect(migrate.err).toMatch(/migrate-target-refuses .*snippet-expansion-limit/);
  });

  it('as the node-local-dns base, is named by its code', async () => {
    const translate = await run(['--node-local-dns', '1.26.7', '--local-ip', '169.254.20.10', '--upstream-ip', '10.0.0.10', '--node-local-dns-base', 'Corefile', 'kube-dns.yaml']);
    expect(translate.err).toMatch(/does not load \(snippet-expansion-limit\)/);
    const check = await run(['check', '--node-local-dns', '1.26.7', '--kube-dns', 'kube-dns.yaml', '--node-local-dns-base', 'Corefile']);
    expect(check.status).toBe(1);
    expect(check.out + check.err).toMatch(/snippet-expansion-limit/);
  });
});

describe('YAML alias bombs (10 billion nodes from under 1 KB), in every reader', () => {
  const corefile = '.:53 {\n    forward . 8.8.8.8\n}\n';
  const bomb = (indent: string) => aliasBombLines(9, 10, indent).join('\n');
  const files = {
    // In a kube-dns ConfigMap's data.
    'kube-dns.yaml': `${configMapYaml({ stubDomains: '{}' })}${bomb('  ')}\n`,
    // In a nested value of a CoreDNS ConfigMap (an annotation's value, two levels down).
    'coredns.yaml': coreDnsConfigMapYaml(corefile, { metadata: 'block' }).replace('metadata:\n', `metadata:\n  annotations:\n    nested:\n${bomb('      ')}\n`),
    // In a List item: the Deployment's container args are an alias of the last level.
    'deploy.yaml': ['apiVersion: v1', 'kind: List', 'extra:', bomb('  '), 'items:', '- apiVersion: apps/v1', '  kind: Deployment', '  metadata: {name: kube-dns, namespace: kube-system}', '  spec:', '    template:', '      spec:', '        containers:', '        - name: dnsmasq', '          args: *b9', ''].join('\n'),
    // In the CoreDNS Helm chart's values, and in the EKS add-on's configuration values.
    'values.yaml': `servers:\n- zones: [{zone: .}]\n  port: 53\n  plugins: [{name: forward, parameters: . 8.8.8.8}]\nextra:\n${bomb('  ')}\n`,
    'eks.yaml': `corefile: |\n  .:53 {\n      forward . 8.8.8.8\n  }\nextra:\n${bomb('  ')}\n`,
    'kube-dns-ok.yaml': configMapYaml({ stubDomains: '{}' }),
  };
  const cases: [string, string[], string][] = [
    ['translate, data', ['kube-dns.yaml'], 'kube-dns.yaml:9:24'],
    ['lint, nested value', ['lint', 'coredns.yaml'], 'coredns.yaml:9:28'],
    ['fmt', ['fmt', 'coredns.yaml'], 'coredns.yaml:9:28'],
    ['migrate', ['migrate', '--from', '1.6.7', '--to', '1.14.7', 'coredns.yaml'], 'coredns.yaml:9:28'],
    ['check --corefile', ['check', '--kube-dns', 'kube-dns-ok.yaml', '--corefile', 'coredns.yaml'], 'coredns.yaml:9:28'],
    ['--merge', ['--merge', 'coredns.yaml', 'kube-dns-ok.yaml'], 'coredns.yaml:9:28'],
    ['a List item', ['--kube-dns-deployment', 'deploy.yaml', 'kube-dns-ok.yaml'], 'deploy.yaml:7:20'],
    ['Helm values', ['lint', 'values.yaml'], 'values.yaml:9:28'],
    ['EKS add-on values', ['lint', 'eks.yaml'], 'eks.yaml:9:20'],
  ];

  it.each(cases)('%s: refused at the alias past the bound (exit 2, one line)', async (_name, args, at) => {
    const io = memoryIo({ files });
    // CPU time, not wall time: a loaded machine does not inflate it. The reader stops at the bound
    // in milliseconds (test/configmap/yaml-documents.test.ts checks that the bomb's depth does not
    // multiply its cost); the bound here catches a command that expands the bomb another way.
    const started = cpuMs();
    expect(await main(args, io)).toBe(2);
    expect(cpuMs() - started).toBeLessThan(3000);
    expect(io.out()).toBe('');
    expect(io.err()).toMatch(new RegExp(`^kube-dns-to-coredns: ${at.replaceAll('.', '\\.')}: alias '\\*b\\d' brings the document to \\d+ YAML nodes, \\d+ of them through aliases: more than kubectl's YAML reader allows \\(it stops with "document contains excessive aliasing"; see docs/performance\\.md#yaml-aliases\\)\\n$`));
  });
});

describe('a Deployment with thousands of dnsmasq flags', () => {
  // One `deployment-stub-server` info per --server flag: 200,000 of them wrote 33 MB of text.
  const servers = Array.from({ length: 3000 }, (_, index) => `--server=/z${index}.example/10.1.${index >> 8}.${index & 255}`);
  const files = { 'deploy.yaml': deploymentYaml({ dnsmasq: [...STOCK_DNSMASQ_ARGS, ...servers] }) };

  it('lists 1,000 diagnostics of one code in text and counts the rest in one findings-not-listed line', async () => {
    const io = memoryIo({ files });
    expect(await main(['--kube-dns-deployment', 'deploy.yaml'], io)).toBe(0);
    const lines = io.err().trimEnd().split('\n');
    expect(lines.filter((line) => line.startsWith('info deployment-stub-server '))).toHaveLength(1000);
    expect(lines.at(-1)).toBe('info findings-not-listed: 2,000 more deployment-stub-server diagnostics are not listed (3,000 in all; the first 1,000 are; -o json lists them all)');
    expect(lines.length).toBeLessThan(1100);
    expect(io.out().match(/^z\d+\.example:53 \{$/gm)).toHaveLength(3000);
  });

  it('keeps every diagnostic in JSON', async () => {
    const io = memoryIo({ files });
    expect(await main(['--kube-dns-deployment', 'deploy.yaml', '-o', 'json'], io)).toBe(0);
    const result = JSON.parse(io.out()) as { diagnostics: { code: string }[] };
    expect(result.diagnostics.filter((entry) => entry.code === 'deployment-stub-server')).toHaveLength(3000);
    expect(result.diagnostics.some((entry) => entry.code === 'findings-not-listed')).toBe(false);
  });
});
