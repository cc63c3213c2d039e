import { describe, expect, it } from 'vitest';
import { readConfigMap } from '../../src/configmap/read-configmap.js';
import { main } from '../../src/cli/main.js';
import { memoryIo } from '../support/memory-io.js';
import { configMapYaml } from '../support/kube-dns-manifests.js';

const KUBE_DNS = configMapYaml({ stubDomains: '{"acme.local": ["10.0.0.1"]}\n', upstreamNameservers: '["8.8.8.8"]\n' }, { metadata: 'block', values: 'block' });
const CUSTOM = configMapYaml({ 'example-com.override': 'forward example.com 10.0.0.1\n' }, { name: 'coredns-custom', metadata: 'block', values: 'block' });

describe('coredns-custom overlays on the command line', () => {
  it('-o coredns-custom --platform k3s writes an overlay that check passes on, composed with the same base', async () => {
    const written = memoryIo({ files: { 'kube-dns.yaml': KUBE_DNS } });
    expect(await main(['-o', 'coredns-custom', '--platform', 'k3s', 'kube-dns.yaml'], written)).toBe(0);
    expect(readConfigMap(written.out())).toMatchObject({ name: 'coredns-custom', namespace: 'kube-system' });
    expect(Object.keys(readConfigMap(written.out()).data)).toEqual(['acme.local.server', 'kube-dns.override']);
    const check = memoryIo({ files: { 'kube-dns.yaml': KUBE_DNS, 'custom.yaml': written.out() } });
    expect(await main(['check', '--kube-dns', 'kube-dns.yaml', '--platform', 'k3s', '--coredns-custom', 'custom.yaml'], check)).toBe(0);
    expect(check.out()).toMatch(/^kube-dns and the Corefile route all \d+ checked names the same way\.\n/);
    // The same overlay on the old k3s base: the upstream override is shadowed, and check says so.
    const old = memoryIo({ files: { 'kube-dns.yaml': KUBE_DNS, 'custom.yaml': written.out() } });
    expect(await main(['check', '--kube-dns', 'kube-dns.yaml', '--platform', 'k3s-legacy', '--coredns-custom', 'custom.yaml'], old)).toBe(1);
    const explain = memoryIo({ files: { 'kube-dns.yaml': KUBE_DNS, 'custom.yaml': written.out() } });
    expect(await main(['explain', 'www.example.org', '--kube-dns', 'kube-dns.yaml', '--platform', 'k3s', '--coredns-custom', 'custom.yaml'], explain)).toBe(0);
    expect(explain.out()).toContain('8.8.8.8');
  });

  it('compose prints the composed Corefile; --base FILE reads the base the cluster runs', async () => {
    const base = '.:53 {\n    forward . /etc/resolv.conf\n    import custom/*.override\n}\nimport custom/*.server\n';
    const io = memoryIo({ files: { Corefile: base, 'custom.yaml': CUSTOM } });
    expect(await main(['compose', '--base', 'Corefile', 'custom.yaml'], io)).toBe(0);
    expect(io.out()).toBe('.:53 {\n    forward . /etc/resolv.conf\nforward example.com 10.0.0.1\n}\n');
    const missing = memoryIo({ files: { Corefile: '.:53 {\n    import custom/one.override\n}\n', 'custom.yaml': CUSTOM } });
    expect(await main(['compose', '--base', 'Corefile', 'custom.yaml'], missing)).toBe(1);
    expect(missing.err()).toBe("Corefile:2:5: CoreDNS stops: file to import not found: custom/one.override (no data key 'one.override' in the coredns-custom ConfigMap)\n");
    // A composition that does not parse (an overlay's unclosed block) is refused at its key and line, not printed.
    const broken = memoryIo({ files: { Corefile: base, 'custom.yaml': 'data:\n  x.server: |\n    x:53 {\n        forward . 1.1.1.1\n' } });
    expect(await main(['compose', '--base', 'Corefile', 'custom.yaml'], broken)).toBe(1);
    expect(broken.out()).toBe('');
    expect(broken.err()).toMatch(/^coredns-custom\[x\.server\]:\d+:\d+: CoreDNS stops: Syntax error: /);
    const lint = memoryIo({ files: { Corefile: base, 'custom.yaml': CUSTOM } });
    expect(await main(['lint', '--base', 'Corefile', '--coredns-custom', 'custom.yaml'], lint)).toBe(0);
    expect(lint.out()).toContain("warning overlay-forward-shadowed coredns-custom[example-com.override]:1:1 [.:53] forward: forward example.com never sees a query: the Corefile base's forward . (line 2)");
  });

  it('refuses what does not go together, before reading input', async () => {
    for (const [args, message] of [
      [['compose', 'custom.yaml'], 'compose: --platform P or --base FILE is required'],
      [['compose', '--platform', 'gke', 'custom.yaml'], "compose: --platform: unknown platform 'gke' (known: aks, k3s, k3s-legacy)"],
      [['lint', '--coredns-custom', 'custom.yaml'], 'lint: --coredns-custom needs the base it is imported into'],
      [['lint', '--platform', 'aks', '--base', 'Corefile', 'custom.yaml'], 'lint: give --platform or --base, not both'],
      [['lint', '--cluster-domain', 'corp.local', 'Corefile'], 'lint: --cluster-domain fills in the base of --platform'],
      [['check', '--kube-dns', 'kube-dns.yaml', '--platform', 'aks'], 'check: --platform and --base need --coredns-custom CUSTOM'],
      [['check', '--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile', '--platform', 'aks', '--coredns-custom', 'custom.yaml'], 'check: give --corefile FILE or --platform/--base'],
      [['-o', 'coredns-custom', 'kube-dns.yaml'], '-o coredns-custom needs --platform P'],
      [['--platform', 'aks', 'kube-dns.yaml'], '--platform P goes with -o coredns-custom'],
      [['--kubeadm', '1.15', '--platform', 'aks', 'kube-dns.yaml'], '--platform belongs to the default translator'],
    ] as const) {
      const io = memoryIo();
      expect(await main([...args], io), args.join(' ')).toBe(2);
      expect(io.err(), args.join(' ')).toContain(message);
    }
  });
});
