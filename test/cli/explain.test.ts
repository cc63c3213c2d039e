import { describe, expect, it } from 'vitest';
import { EXPLAIN_HELP } from '../../src/cli/commands/explain.js';
import { runExplain } from '../support/commands.js';
import { main } from '../../src/cli/main.js';
import { UsageError } from '../../src/cli/usage-error.js';
import { memoryIo } from '../support/memory-io.js';

const KUBE_DNS = 'stubDomains: \'{"acme.local": ["10.0.0.1"]}\'\nupstreamNameservers: \'["8.8.8.8"]\'\n';
const COREFILE = '.:53 {\n    kubernetes cluster.local\n    forward . 8.8.8.8\n}\nacme.local:53 {\n    forward . 10.0.0.1\n}\n';

describe('kube-dns-to-coredns explain', () => {
  it('lists the candidates in resolver order with both destinations', async () => {
    const io = memoryIo({ files: { k: KUBE_DNS, c: COREFILE } });
    expect(await runExplain(['api.acme.local', '--kube-dns', 'k', '--corefile', 'c', '--namespace', 'shop'], io)).toBe(0);
    const lines = io.out().split('\n');
    expect(lines[0]).toBe('"api.acme.local": search shop.svc.cluster.local svc.cluster.local cluster.local, ndots:5; tried in this order until one gets an answer:');
    expect(lines[2]).toMatch(/^# +CANDIDATE +KUBE-DNS +COREDNS +SAME$/);
    expect(lines[3]).toMatch(/^1 +api\.acme\.local\.shop\.svc\.cluster\.local +cluster cluster\.local +cluster cluster\.local +yes$/);
    expect(lines[12]).toMatch(/^4 +api\.acme\.local +10\.0\.0\.1:53 +10\.0\.0\.1:53 +yes$/);
    expect(io.err()).toBe('');
  });

  it('explains kube-dns alone, as JSON', async () => {
    const io = memoryIo({ stdin: KUBE_DNS });
    expect(await runExplain(['example.com.', '--kube-dns', '-', '-o', 'json'], io)).toBe(0);
    expect(JSON.parse(io.out())).toEqual({
      query: 'example.com.',
      searchPath: ['default.svc.cluster.local', 'svc.cluster.local', 'cluster.local'],
      ndots: 5,
      candidates: [{ name: 'example.com', kubeDns: { destination: { kind: 'servers', servers: ['8.8.8.8:53'] }, text: '8.8.8.8:53', via: 'upstreamNameservers' } }],
      notes: [],
    });
  });

  it('takes the node search domains, ndots and the cluster domain', async () => {
    const io = memoryIo({ files: { k: KUBE_DNS } });
    expect(await runExplain(['db', '--kube-dns', 'k', '--search', 'corp.example', '--ndots', '1', '--cluster-domain', 'k8s.corp', '-o', 'json'], io)).toBe(0);
    const json = JSON.parse(io.out()) as { candidates: { name: string }[] };
    expect(json.candidates.map((candidate) => candidate.name)).toEqual(['db.default.svc.k8s.corp', 'db.svc.k8s.corp', 'db.k8s.corp', 'db.corp.example', 'db']);
  });

  it('reports Corefile syntax errors with exit 2', async () => {
    const io = memoryIo({ files: { k: KUBE_DNS, c: '. {\n' } });
    expect(await main(['explain', 'x', '--kube-dns', 'k', '--corefile', 'c'], io)).toBe(2);
    expect(io.err()).toBe("c:1:3: Syntax error: Unexpected token '{', expecting '}'\n");
  });

  it('prints its help; refuses bad usage', async () => {
    const io = memoryIo();
    expect(await runExplain(['-h'], io)).toBe(0);
    expect(io.out()).toBe(EXPLAIN_HELP);
    const files = { files: { k: KUBE_DNS } };
    for (const args of [
      ['--kube-dns', 'k'],
      ['a', 'b', '--kube-dns', 'k'],
      ['a'],
      ['a', '--kube-dns', 'k', '--namespace', 'Bad_NS'],
      ['a', '--kube-dns', 'k', '--ndots', 'x'],
      ['a', '--kube-dns', 'k', '-o', 'yaml'],
      ['a', '--kube-dns', '-', '--corefile', '-'],
    ]) {
      await expect(runExplain(args, memoryIo(files)), args.join(' ')).rejects.toThrow(UsageError);
    }
  });
});

describe('explain NAME, --search and check --name: DNS names only', () => {
  it('refuses a NAME that is not a DNS name, exit 2, naming it and why', async () => {
    for (const [name, why] of [
      ['..', "it has an empty label ('..')"],
      ['', 'it is empty'],
      ['a b', 'its label "a b" holds " "'],
      [`${'x'.repeat(64)}.com`, 'more than the 63 a label holds'],
    ] as const) {
      const io = memoryIo({ files: { k: KUBE_DNS } });
      expect(await main(['explain', name, '--kube-dns', 'k'], io), name).toBe(2);
      expect(io.out()).toBe('');
      expect(io.err()).toContain(`kube-dns-to-coredns: explain: NAME '${name}' is not a DNS name: `);
      expect(io.err()).toContain(why);
    }
  });

  it('refuses such a --search domain or check --name before reading any input', async () => {
    const search = memoryIo();
    expect(await main(['explain', 'db', '--kube-dns', 'missing', '--search', '..'], search)).toBe(2);
    expect(search.err()).toBe("kube-dns-to-coredns: explain: --search: '..' is not a DNS name: it has an empty label ('..')\n");
    const check = memoryIo();
    expect(await main(['check', '--kube-dns', 'missing', '--corefile', 'missing', '--name', 'a..b'], check)).toBe(2);
    expect(check.err()).toBe("kube-dns-to-coredns: check: --name: 'a..b' is not a DNS name: it has an empty label ('..')\n");
  });

  it('still explains the root and a name with a trailing dot', async () => {
    const io = memoryIo({ files: { k: KUBE_DNS } });
    expect(await main(['explain', '.', '--kube-dns', 'k'], io)).toBe(0);
    expect(io.out()).toMatch(/^"\.": search /);
  });
});
