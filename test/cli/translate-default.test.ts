import { load } from 'js-yaml';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { memoryIo } from '../support/memory-io.js';
import { configMapYaml } from '../support/kube-dns-manifests.js';

const example = readFileSync(join(import.meta.dirname, '../../examples/kube-dns-configmap.yaml'), 'utf8');

describe('kube-dns-to-coredns (default translator)', () => {
  it('prints a Corefile for the newest CoreDNS and exits 0', async () => {
    const io = memoryIo({ stdin: example });
    expect(await main([], io)).toBe(0);
    expect(io.out()).toContain('forward . 8.8.8.8 8.8.4.4 {\n        max_concurrent 1000\n    }');
    expect(io.out()).toContain('consul.local:53 {\n    errors\n    cache 30 {\n        disable denial\n    }\n    loop\n    forward . 10.150.0.1\n}\n');
    expect(io.err()).toMatch(/^info kube-dns-deployment-assumed: [^\n]*\n$/);
  });

  it('targets an older CoreDNS with --coredns', async () => {
    const io = memoryIo({ stdin: example });
    expect(await main(['--coredns', '1.2.6'], io)).toBe(0);
    expect(io.out()).toContain('    forward . 8.8.8.8 8.8.4.4\n');
    expect(io.out()).toContain('        upstream\n');
    const oldest = memoryIo({ stdin: example });
    expect(await main(['--coredns', '1.0.4'], oldest)).toBe(0);
    expect(oldest.out()).toContain('    proxy . 8.8.8.8 8.8.4.4\n');
    expect(oldest.out()).toContain('consul.local:53 {\n    errors\n    cache 30 {\n        denial 9984 1\n    }\n    proxy . 10.150.0.1\n}');
  });

  it('writes diagnostics as "severity code path: message" on stderr', async () => {
    const io = memoryIo({ stdin: 'data:\n  stubDomains: \'{"local": ["10.0.0.1"]}\'\n' });
    expect(await main(['--cluster-domain', 'cluster.local'], io)).toBe(0);
    expect(io.err().split('\n')).toContain(
      'info main-block-key-added stubDomains["local"]: \'cluster.local\' added to the main block so that \'local\' does not capture it',
    );
    expect(io.out()).toMatch(/^\.:53 cluster\.local:53 \{\n/);
  });

  it('refuses a ConfigMap with a kube-dns setting under binaryData, and translates it as a warning with --force', async () => {
    const stdin = configMapYaml({ upstreamNameservers: '["1.1.1.1"]' }, { apiVersion: false, namespace: null, metadata: 'block', after: 'binaryData:\n  stubDomains: e30K' });
    const refused = memoryIo({ stdin });
    expect(await main([], refused)).toBe(1);
    expect(refused.out()).toBe('');
    expect(refused.err()).toContain('error binary-data-key stubDomains: stubDomains is under binaryData');
    const forced = memoryIo({ stdin });
    expect(await main(['--force'], forced)).toBe(0);
    expect(forced.err()).toContain('warning binary-data-key stubDomains:');
    expect(forced.out()).toContain('forward . 1.1.1.1');
    const kubeadm = memoryIo({ stdin });
    expect(await main(['--kubeadm', '1.19'], kubeadm)).toBe(0);
    expect(kubeadm.err()).toContain('warning binary-data-key stubDomains:');
  });

  it('exits 1 and writes no Corefile when the translation is refused', async () => {
    const io = memoryIo({ stdin: 'data:\n  federations: foo=foo.example.com\n' });
    expect(await main([], io)).toBe(1);
    expect(io.out()).toBe('');
    expect(io.err()).toContain('error federation-unsupported federations: CoreDNS 1.14.7 cannot serve 1 federation');
    expect(io.err()).toContain('translation refused');
  });

  it('drops federations on request', async () => {
    const io = memoryIo({ stdin: 'data:\n  federations: foo=foo.example.com\n' });
    expect(await main(['--drop-federations'], io)).toBe(0);
    expect(io.err()).toContain('warning federations-dropped federations: dropped foo');
  });

  it('writes a CoreDNS ConfigMap that loads back to the Corefile', async () => {
    const corefile = memoryIo({ stdin: example });
    await main([], corefile);
    const configmap = memoryIo({ stdin: example });
    expect(await main(['-o', 'configmap'], configmap)).toBe(0);
    const document = load(configmap.out()) as { kind: string; metadata: { name: string; namespace: string }; data: { Corefile: string } };
    expect(document.kind).toBe('ConfigMap');
    expect(document.metadata).toEqual({ name: 'coredns', namespace: 'kube-system' });
    expect(document.data.Corefile).toBe(corefile.out());
  });

  it('--merge CONFIGMAP -o configmap writes that ConfigMap back: its other data keys, labels and annotations kept, server-set metadata dropped', async () => {
    const k3s = [
      'apiVersion: v1',
      'kind: ConfigMap',
      'metadata:',
      '  name: coredns',
      '  namespace: kube-system',
      '  labels:',
      '    eks.amazonaws.com/component: coredns',
      '  annotations:',
      '    kubectl.kubernetes.io/last-applied-configuration: |',
      '      {"kind":"ConfigMap"}',
      '    team: dns',
      '  resourceVersion: "812"',
      '  uid: 5e3c0d1a-0000-4000-8000-000000000001',
      '  creationTimestamp: "2024-01-01T00:00:00Z"',
      '  managedFields:',
      '  - manager: k3s',
      'data:',
      '  Corefile: |',
      '    .:53 {',
      '        errors',
      '        kubernetes cluster.local in-addr.arpa ip6.arpa {',
      '            pods insecure',
      '            fallthrough in-addr.arpa ip6.arpa',
      '        }',
      '        hosts /etc/coredns/NodeHosts {',
      '            fallthrough',
      '        }',
      '        forward . /etc/resolv.conf',
      '        cache 30',
      '    }',
      '  NodeHosts: |',
      '    10.0.0.5 server-0',
      '',
    ].join('\n');
    const io = memoryIo({ files: { 'coredns.yaml': k3s, 'kube-dns.yaml': example } });
    expect(await main(['--merge', 'coredns.yaml', '-o', 'configmap', 'kube-dns.yaml'], io)).toBe(0);
    const document = load(io.out()) as { metadata: Record<string, unknown>; data: Record<string, string> };
    expect(document.metadata).toEqual({ name: 'coredns', namespace: 'kube-system', labels: { 'eks.amazonaws.com/component': 'coredns' }, annotations: { team: 'dns' } });
    expect(document.data['NodeHosts']).toBe('10.0.0.5 server-0\n');
    expect(Object.keys(document.data)).toEqual(['Corefile', 'NodeHosts']);
    const corefile = memoryIo({ files: { 'coredns.yaml': k3s, 'kube-dns.yaml': example } });
    expect(await main(['--merge', 'coredns.yaml', 'kube-dns.yaml'], corefile)).toBe(0);
    expect(document.data['Corefile']).toBe(corefile.out());
    expect(corefile.out()).toContain('hosts /etc/coredns/NodeHosts {');
  });

  it('--merge: a merged Corefile that routes names differently from kube-dns is refused for every output, as -o install --merge refuses it; --force writes it with a warning', async () => {
    // The kubernetes line without fallthrough: the reverse names kube-dns forwarded upstream get NXDOMAIN.
    const existing = '.:53 {\n    errors\n    kubernetes cluster.local in-addr.arpa ip6.arpa\n    forward . /etc/resolv.conf\n    cache 30\n}\n';
    const stock = readFileSync(join(import.meta.dirname, '../../golden/install/stock-kube-dns-1.22.20.yaml'), 'utf8');
    const run = async (...args: string[]) => {
      const io = memoryIo({ files: { 'ex.Corefile': existing, 'install.yaml': stock } });
      const status = await main([...args, '--merge', 'ex.Corefile', 'install.yaml'], io);
      return { status, out: io.out(), err: io.err() };
    };
    for (const output of [[], ['-o', 'corefile'], ['-o', 'configmap'], ['-o', 'install']]) {
      const done = await run(...output);
      expect(done.status, `${output.join(' ')}\n${done.err}`).toBe(1);
      expect(done.out).toBe('');
      expect(done.err).toMatch(/^error install-merge-routing-differs Corefile: the merged Corefile routes 7 of \d+ checked names differently from kube-dns, such as in-addr\.arpa/m);
    }
    const json = await run('-o', 'json');
    expect(json.status).toBe(1);
    expect(JSON.parse(json.out)).toMatchObject({ corefile: null, diagnostics: expect.arrayContaining([expect.objectContaining({ code: 'install-merge-routing-differs', severity: 'error' })]) });
    const forced = await run('--force');
    expect(forced.status).toBe(0);
    expect(forced.out).toContain('kubernetes cluster.local in-addr.arpa ip6.arpa');
    expect(forced.err).toMatch(/^warning install-merge-routing-differs Corefile: /m);
    // With the fallthrough it routes as kube-dns did: written, no warning.
    const io = memoryIo({ files: { 'ex.Corefile': existing.replace('ip6.arpa\n', 'ip6.arpa {\n        fallthrough in-addr.arpa ip6.arpa\n    }\n'), 'install.yaml': stock } });
    expect(await main(['--merge', 'ex.Corefile', 'install.yaml'], io), io.err()).toBe(0);
    expect(io.err()).not.toContain('install-merge-routing-differs');
  });

  it('--merge FILE: what the target refuses in the kept lines is placed in FILE (its path; for a ConfigMap, inside the YAML), for every merge', async () => {
    const corefile = '.:53 {\n    errors\n    kubernetes cluster.local in-addr.arpa ip6.arpa {\n       upstream\n       fallthrough in-addr.arpa ip6.arpa\n    }\n    promethus :9153\n    forward . /etc/resolv.conf\n    cache 30\n}\n';
    const configMap = `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: coredns\n  namespace: kube-system\ndata:\n  Corefile: |\n${corefile.replace(/^(?=.)/gm, '    ')}`;
    const files = { 'current-Corefile': corefile, 'coredns.yaml': configMap, 'kube-dns.yaml': configMapYaml({}) };
    const refusals = async (...args: string[]) => {
      const io = memoryIo({ files });
      expect(await main(args, io)).toBe(1);
      return io.err().split('\n').filter((line) => line.startsWith('error merge-target-refuses'));
    };
    const bare = await refusals('--merge', 'current-Corefile', 'kube-dns.yaml');
    expect(bare.map((line) => line.replace(/: the merged Corefile.*/, ''))).toEqual(['error merge-target-refuses current-Corefile:4:8 Corefile[.:53] kubernetes > upstream', 'error merge-target-refuses current-Corefile:7:5 Corefile[.:53] promethus']);
    // The ConfigMap's Corefile starts on line 8, indented by 4.
    const expected = ['error merge-target-refuses coredns.yaml:11:12 Corefile[.:53] kubernetes > upstream', 'error merge-target-refuses coredns.yaml:14:9 Corefile[.:53] promethus'];
    for (const args of [
      ['--merge', 'coredns.yaml', 'kube-dns.yaml'],
      ['-o', 'install', '--cluster-dns-ip', '10.96.0.10', '--merge', 'coredns.yaml', 'kube-dns.yaml'],
      ['cutover', '--coredns', '1.14.7', '--cluster-dns-ip', '10.96.0.10', '--merge', 'coredns.yaml', 'kube-dns.yaml'],
    ]) {
      const lines = await refusals(...args);
      expect(lines.map((line) => line.replace(/: the merged Corefile.*/, '')), args.join(' ')).toEqual(expected);
      // Each names the FILE the merge kept the line from, and migrate for it.
      for (const line of lines) expect(line).toContain('migrate --from RUNNING --to 1.14.7 coredns.yaml');
    }
    const io = memoryIo({ files });
    expect(await main(['--merge', 'coredns.yaml', '-o', 'json', 'kube-dns.yaml'], io)).toBe(1);
    const diagnostics = (JSON.parse(io.out()) as { diagnostics: Record<string, unknown>[] }).diagnostics.filter((entry) => entry['code'] === 'merge-target-refuses');
    expect(diagnostics[0]).toMatchObject({ key: 'Corefile', path: '[.:53] kubernetes > upstream', position: { line: 4, column: 8 }, location: { filename: 'coredns.yaml', line: 11, column: 12, exact: true } });
  });

  it('writes JSON with the Corefile and every diagnostic', async () => {
    const io = memoryIo({ stdin: 'data:\n  stubDomains: \'{"a.local": []}\'\n' });
    expect(await main(['--output', 'json'], io)).toBe(0);
    const result = JSON.parse(io.out()) as { corefile: string; coredns: string; diagnostics: { code: string; severity: string; hint: string }[] };
    expect(result.coredns).toBe('1.14.7');
    expect(result.corefile).toMatch(/^\.:53 \{/);
    expect(result.diagnostics.map((entry) => entry.code)).toEqual(['kube-dns-deployment-assumed', 'empty-stub-domain', 'upstream-resolv-conf']);
    expect(result.diagnostics[1]?.hint).toMatch(/kube-dns sent its names upstream/);
    expect(io.err()).toBe('');
  });

  it('runs batches with diagnostics in each line', async () => {
    const input = ['{"id": 1, "data": {"upstreamNameservers": "[\\"1.1.1.1\\"]"}}', '{"id": 2, "data": {"stubDomains": "{"}}'].join('\n');
    const io = memoryIo({ stdin: input });
    expect(await main(['--batch', '--coredns', '1.8.0'], io)).toBe(0);
    const [first, second] = io.out().trimEnd().split('\n').map((line) => JSON.parse(line) as { id: number; ok: boolean; corefile?: string; diagnostics: { code: string }[] });
    expect(first).toMatchObject({ id: 1, ok: true, diagnostics: [{ code: 'kube-dns-deployment-assumed' }, { code: 'negative-caching-shortened' }] });
    expect(first?.corefile).toContain('forward . 1.1.1.1 {');
    expect(second).toMatchObject({ id: 2, ok: false, diagnostics: [{ code: 'json-syntax' }] });
  });
});

describe('--out FILE', () => {
  it('writes the output to FILE only when the command succeeds', async () => {
    const io = memoryIo({ stdin: example });
    expect(await main(['--out', 'Corefile.new'], io)).toBe(0);
    expect(io.out()).toBe('');
    expect(io.written.get('Corefile.new')).toMatch(/^\.:53 \{\n/);
    const refused = memoryIo({ stdin: 'data:\n  stubDomains: \'{"cluster.local": ["10.0.0.1"]}\'\n' });
    expect(await main(['--out=Corefile.new'], refused)).toBe(1);
    expect(refused.written.size).toBe(0);
  });

  it('reports a file it cannot write as a usage error', async () => {
    const io = memoryIo({ stdin: example });
    expect(await main(['--out', '/unwritable/Corefile'], io)).toBe(2);
    expect(io.err()).toMatch(/\/unwritable\/Corefile: cannot write: EACCES/);
    expect(await main(['--out'], memoryIo())).toBe(2);
  });

  it("writes to stdout with '--out -'", async () => {
    const io = memoryIo({ stdin: example });
    expect(await main(['--out', '-'], io)).toBe(0);
    expect(io.out()).toMatch(/^\.:53 \{\n/);
    expect(io.written.size).toBe(0);
  });

  it.each([
    [['--cluster-dns-ip', 'ten.zero.zero.ten'], "cluster DNS IP 'ten.zero.zero.ten' is not an IP address"],
    [['--cluster-domain', 'not a domain'], "cluster domain 'not a domain' is not a DNS-1123 subdomain"],
  ])('refuses a bad %j once, before the batch starts (exit 2, no result lines)', async (options, message) => {
    const io = memoryIo({ stdin: '{"id": 1, "data": {}}\n{"id": 2, "data": {}}\n' });
    expect(await main(['--batch', ...options], io)).toBe(2);
    expect(io.out()).toBe('');
    expect(io.err()).toBe(`kube-dns-to-coredns: ${message}\n`);
  });
});
