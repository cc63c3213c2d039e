import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { memoryIo } from '../support/memory-io.js';

const KUBE_DNS = 'data:\n  stubDomains: \'{"acme.local": ["10.0.0.1"]}\'\n';
const COREFILE = '.:53 {\n    proxy . 8.8.8.8\n}\n';
const FILES = { 'kube-dns.yaml': KUBE_DNS, Corefile: COREFILE };

async function run(args: readonly string[]) {
  const io = memoryIo({ files: FILES });
  const status = await main(args, io);
  return { status, out: io.out(), err: io.err() };
}

describe('--coredns, --from and --to: one release grammar', () => {
  it.each(['v1.8.7-eksbuild.3', '602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/coredns:v1.8.7-eksbuild.3', 'registry.k8s.io/coredns/coredns:v1.8.7'])(
    'the translator and lint read %s as 1.8.7, as migrate does, and say how',
    async (text) => {
      const plain = await run(['--coredns', '1.8.7', 'kube-dns.yaml']);
      const spelt = await run(['--coredns', text, 'kube-dns.yaml']);
      expect(spelt.status).toBe(0);
      expect(spelt.out).toBe(plain.out);
      expect(spelt.err).toMatch(/^info release-resolved: coredns: .* → CoreDNS 1\.8\.7$/m);
      expect(spelt.err.split('\n').filter((line) => !line.startsWith('info release-resolved')).join('\n')).toBe(plain.err);
      const lint = await run(['lint', '--coredns', text, 'Corefile']);
      expect(lint.status).toBe(1);
      expect(lint.out).toMatch(/^info release-resolved: coredns: /);
      expect(lint.err).toMatch(/^Corefile: 1 error, .*\(CoreDNS 1\.8\.7\)\n$/);
      const migrate = await run(['migrate', '--from', '1.4.0', '--to', text, 'Corefile']);
      expect(migrate.status).toBe(0);
      expect(migrate.err).toMatch(/to: .* → CoreDNS 1\.8\.7/);
    },
  );

  it('refuses the same texts in every command, with the same message', async () => {
    for (const text of ['1.8', 'latest', '1.4.1']) {
      const messages = [];
      for (const args of [['--coredns', text, 'kube-dns.yaml'], ['lint', '--coredns', text, 'Corefile'], ['migrate', '--from', text, '--to', '1.8.0', 'Corefile']]) {
        const result = await run(args);
        expect(result.status, args.join(' ')).toBe(2);
        messages.push(result.err.replace(/^kube-dns-to-coredns: (?:\w+: )?--\w+: /, ''));
      }
      expect(new Set(messages).size, text).toBe(1);
      expect(messages[0]).toMatch(new RegExp(`^cannot resolve a CoreDNS release from '${text.replaceAll('.', '\\.')}'`));
    }
  });
});

describe('--image: an image reference, checked before any input is read', () => {
  it('refuses a value no runtime pulls, naming the option and the part, exit 2, for -o install and cutover', async () => {
    for (const args of [
      ['-o', 'install', '--image', 'registry.k8s.io/coredns/coredns:v1.11.1$(id)', 'missing.yaml'],
      ['cutover', '--coredns', '1.8.0', '--image', 'registry.k8s.io/coredns/coredns:v1.11.1$(id)', 'missing.yaml'],
    ]) {
      const result = await run(args);
      expect(result.status, args.join(' ')).toBe(2);
      expect(result.out).toBe('');
      expect(result.err).toMatch(/^kube-dns-to-coredns: (?:cutover: )?--image: 'registry\.k8s\.io\/coredns\/coredns:v1\.11\.1\$\(id\)' is not an image reference \(\[REGISTRY\/\]NAME\[:TAG\]\[@DIGEST\]\): the tag 'v1\.11\.1\$\(id\)' is not a tag .*\n$/);
    }
    for (const image of ['', 'a b', 'x:', "x:1';id;'", 'x\u0000y']) {
      const result = await run(['-o', 'install', '--image', image, '--cluster-dns-ip', '10.96.0.10', 'kube-dns.yaml']);
      expect(result.status, JSON.stringify(image)).toBe(2);
      expect(result.err).toMatch(/^kube-dns-to-coredns: --image: '.*' is not an image reference/);
      expect(result.err).not.toContain('\u0000');
    }
  });

  it('takes a registry with a port, a tag and a digest', async () => {
    const result = await run(['-o', 'install', '--image', `mirror.corp:5000/coredns/coredns:v1.14.7@sha256:${'ab'.repeat(32)}`, '--cluster-dns-ip', '10.96.0.10', 'kube-dns.yaml']);
    expect(result.status).toBe(0);
    expect(result.out).toContain(`image: mirror.corp:5000/coredns/coredns:v1.14.7@sha256:${'ab'.repeat(32)}`);
  });
});
