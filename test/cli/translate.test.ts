import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { memoryIo } from '../support/memory-io.js';
import { configMapYaml } from '../support/kube-dns-manifests.js';

const example = readFileSync(join(import.meta.dirname, '../../examples/kube-dns-configmap.yaml'), 'utf8');

describe('kube-dns-to-coredns --kubeadm', () => {
  it('prints the Corefile on stdout and exits 0', async () => {
    const io = memoryIo({ files: { 'cm.yaml': example } });
    expect(await main(['--kubeadm', '1.17', 'cm.yaml'], io)).toBe(0);
    expect(io.out()).toMatch(/^\.:53 \{\n/);
    expect(io.out()).toContain('consul.local:53 {\n   errors\n   cache 30\n   loop\n   forward . 10.150.0.1\n}\n');
    expect(io.err()).toBe('');
  });

  it('reads standard input for - and for no FILE', async () => {
    for (const args of [['--kubeadm', '1.13', '-'], ['--kubeadm', '1.13']]) {
      const io = memoryIo({ stdin: example });
      expect(await main(args, io)).toBe(0);
      expect(io.out()).toContain('proxy . 8.8.8.8 8.8.4.4');
    }
  });

  it('uses --dns-domain in the kubernetes plugin', async () => {
    const io = memoryIo({ stdin: example });
    await main(['--kubeadm', '1.19', '--dns-domain', 'corp.internal'], io);
    expect(io.out()).toContain('kubernetes corp.internal in-addr.arpa ip6.arpa {');
  });

  it('prints kubeadm’s warnings on stderr', async () => {
    const io = memoryIo({ stdin: 'data:\n  upstreamNameservers: \'["ns1.example.com", "1.1.1.1"]\'\n' });
    expect(await main(['--kubeadm', '1.15'], io)).toBe(0);
    expect(io.out()).toContain('    forward . 1.1.1.1\n');
    expect(io.err()).toBe(
      'warning: kubeadm v1.15: your kube-dns configuration contains a hostname ns1.example.com. It will be omitted in the translation to CoreDNS as hostnames are unsupported\n',
    );
  });

  it('prints what the input did not ask for as warnings on stderr, the Corefile unchanged', async () => {
    const io = memoryIo({ stdin: JSON.stringify({ stubDomains: JSON.stringify({ 'evil.com {\n whoami\n}\nx.com': ['1.2.3.4'] }) }) });
    expect(await main(['--kubeadm', '1.19'], io)).toBe(0);
    expect(io.out()).toContain('\nevil.com {\n whoami\n}\nx.com:53 {\n');
    expect(io.err()).toBe(
      [
        "warning: the Corefile holds a server block 'evil.com' (line 21) that the input did not ask for (kubeadm v1.19 pasted the ConfigMap's values into its manifest unescaped; the Corefile is what it stored)",
        "warning: the Corefile holds a server block 'x.com:53' (line 24) that the input did not ask for (kubeadm v1.19 pasted the ConfigMap's values into its manifest unescaped; the Corefile is what it stored)",
        '',
      ].join('\n'),
    );
  });

  it('exits 1 with kubeadm’s exact error for a failing translation', async () => {
    const io = memoryIo({ stdin: 'data:\n  stubDomains: \'{"a.com": [1.1.1.1]}\'\n' });
    expect(await main(['--kubeadm', '1.10'], io)).toBe(1);
    expect(io.out()).toBe('');
    expect(io.err()).toBe(
      "error: kubeadm v1.10 fails (translate stage): failed to parse JSON from 'kube-dns ConfigMap: invalid character '.' after array element\n",
    );
  });

  it.each([
    [['--kubeadm', '1.21'], /unsupported kubeadm version '1\.21'/],
    [['--kubeadm', '1.17', 'missing.yaml'], /missing\.yaml: cannot read: no such file/],
    [['--kubeadm', '1.17', 'a', 'b'], /expected at most one FILE, got 2/],
    [['--kubeadm', '1.17', '--frobnicate'], /Unknown option '--frobnicate'/],
    [['--kubeadm', '1.17', '--dns-domain', 'Bad_Domain'], /--dns-domain 'Bad_Domain' is not a DNS-1123 subdomain/],
    [['--kubeadm', '1.17', '--coredns', '1.8.0'], /--coredns belongs to the default translator/],
    [['--coredns', '1.8'], /--coredns: .*1\.8\.0/],
    [['--coredns', 'latest'], /--coredns: cannot resolve a CoreDNS release from 'latest'/],
    [['--output', 'yaml'], /--output must be one of corefile, configmap, json, coredns-custom, eks-addon, helm-values, install, not 'yaml'/],
    [['-o', 'corfile'], /--output must be one of .*, not 'corfile'; did you mean 'corefile'\?/],
    [['--cluster-domain', 'a', '--dns-domain', 'b'], /same option/],
    [['--cluster-domain', 'Not_A_Domain'], /cluster domain 'Not_A_Domain' is not a DNS-1123 subdomain/],
    [['--kube-dns-version', '1.2.3'], /kube-dns version '1\.2\.3'/],
    [['--cluster-dns-ip', 'ten'], /cluster DNS IP 'ten' is not an IP address/],
  ])('exits 2 for bad usage: %j', async (args, message) => {
    const io = memoryIo({ stdin: example });
    expect(await main(args, io)).toBe(2);
    expect(io.err()).toMatch(message);
    expect(io.err()).not.toMatch(/\n\s+at /); // never a stack trace
  });

  it('exits 2 with FILE:LINE:COL for input that is not a ConfigMap', async () => {
    const io = memoryIo({ files: { 'cm.yaml': 'kind: ConfigMap\ndata:\n  stubDomains: {"a": ["1.1.1.1"]}\n' } });
    expect(await main(['--kubeadm', '1.17', 'cm.yaml'], io)).toBe(2);
    expect(io.err()).toMatch(/^kube-dns-to-coredns: cm\.yaml:3:3: data\.stubDomains must be a string/);
  });

  it('exits 2 for input that is not UTF-8', async () => {
    const io = memoryIo({ files: { 'cm.yaml': new Uint8Array([0x64, 0x61, 0xff, 0x0a]) } });
    expect(await main(['--kubeadm', '1.17', 'cm.yaml'], io)).toBe(2);
    expect(io.err()).toBe('kube-dns-to-coredns: cm.yaml:1:3: not UTF-8 text: byte 0xff at byte offset 2\n');
  });

  it('prints help and the version', async () => {
    const help = memoryIo();
    expect(await main(['--help'], help)).toBe(0);
    expect(help.out()).toMatch(/^Usage:\n/);
    const version = memoryIo();
    expect(await main(['--version'], version)).toBe(0);
    expect(version.out()).toMatch(/^\d+\.\d+\.\d+\n$/);
  });
});

describe('kube-dns-to-coredns --kubeadm --batch', () => {
  it('writes one result line per input line, in order, in the corpus layout', async () => {
    const input = [
      '{"id": "a", "data": {"upstreamNameservers": "[\\"8.8.8.8\\"]"}, "dnsDomain": "cluster.local"}',
      '',
      '{"id": "b", "data": {"stubDomains": ""}, "dnsDomain": "cluster.local"}',
      '{"id": 3, "data": null}',
    ].join('\n');
    const io = memoryIo({ stdin: input });
    expect(await main(['--kubeadm', '1.19', '--batch'], io)).toBe(0);
    const lines = io.out().trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^\{"id": "a", "ok": true, "corefile": "\.:53 \{\\n/);
    expect(lines[1]).toBe('{"id": null, "ok": false, "stage": "input", "error": "line 2: blank line (expected one JSON object per line)"}');
    expect(lines[2]).toBe(
      '{"id": "b", "ok": false, "stage": "translate", "error": "failed to parse JSON from \'kube-dns ConfigMap: unexpected end of JSON input"}',
    );
    expect(JSON.parse(lines[3] ?? '')).toMatchObject({ id: 3, ok: true });
    expect(io.err()).toBe('batch: 4 cases: 2 ok, 1 refused or failed, 1 unusable input lines\nbatch: not ok: line 2, "b"; by code: input 1, translate 1\n');
  });

  it('answers a bad line with an error line for its id and goes on', async () => {
    const input = ['not json', '{"id": "x"}', '{"id": "y", "data": {"stubDomains": 5}}', '{"id": "z", "data": {}, "dnsDomain": "UPPER"}', '{"id": "ok", "data": {}}'].join('\n');
    const io = memoryIo({ stdin: input });
    expect(await main(['--kubeadm', '1.17', '--batch'], io)).toBe(0);
    const lines = io.out().trimEnd().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => [line['id'], line['ok'], line['stage']])).toEqual([
      [null, false, 'input'],
      ['x', false, 'input'],
      ['y', false, 'input'],
      ['z', false, 'input'],
      ['ok', true, undefined],
    ]);
    expect(lines[0]?.['error']).toMatch(/^line 1: not JSON: /);
    expect(lines[1]?.['error']).toBe("line 2: the line must have required property 'data' (expected {\"id\", \"data\", \"dnsDomain\", \"clusterDomain\", \"coredns\", \"note\"})");
    expect(lines[2]?.['error']).toBe('line 3: data.stubDomains must be a string (expected {"id", "data", "dnsDomain", "clusterDomain", "coredns", "note"})');
    expect(io.err()).toBe('batch: 5 cases: 1 ok, 0 refused or failed, 4 unusable input lines\nbatch: not ok: line 1, "x", "y", "z"; by code: input 4\n');
  });
});

describe("--kube-dns-version gke-coredns: GKE's kube-dns on CoreDNS reads the ConfigMap", () => {
  const configMap = (count: number) => configMapYaml({ upstreamNameservers: JSON.stringify(Array.from({ length: count }, (_, index) => `10.0.0.${index + 1}`)) }, { metadata: 'block' });

  it('translates 15 upstream nameservers into one forward with all 15; kube-dns would have refused them', async () => {
    const gke = memoryIo({ files: { 'cm.yaml': configMap(15) } });
    expect(await main(['--kube-dns-version', 'gke-coredns', 'cm.yaml'], gke)).toBe(0);
    const forward = gke.out().split('\n').find((line) => line.trim().startsWith('forward . '));
    expect(forward?.trim().split(/\s+/).slice(2).filter((word) => word !== '{')).toEqual(Array.from({ length: 15 }, (_, index) => `10.0.0.${index + 1}`));
    const kubeDns = memoryIo({ files: { 'cm.yaml': configMap(15) } });
    expect(await main(['cm.yaml'], kubeDns)).toBe(1);
    expect(kubeDns.err()).toMatch(/15 upstream nameservers; kube-dns accepts at most 3/);
  });

  it('refuses 16, as GKE does, and writes no Corefile', async () => {
    const io = memoryIo({ files: { 'cm.yaml': configMap(16) } });
    expect(await main(['--kube-dns-version', 'gke-coredns', 'cm.yaml'], io)).toBe(1);
    expect(io.out()).toBe('');
    expect(io.err()).toMatch(/16 upstream nameservers; GKE's kube-dns on CoreDNS accepts at most 15/);
  });
});
