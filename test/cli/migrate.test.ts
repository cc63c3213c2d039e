import { describe, expect, it } from 'vitest';
import { readConfigMap } from '../../src/configmap/read-configmap.js';
import { MIGRATE_HELP } from '../../src/cli/commands/migrate.js';
import { main } from '../../src/cli/main.js';
import { memoryIo } from '../support/memory-io.js';
import { coreDnsConfigMapYaml } from '../support/kube-dns-manifests.js';

const old = '# cluster DNS\n.:53 {\n    errors\n    proxy . 8.8.8.8\n}\n';
const federated = '.:53 {\n    kubernetes cluster.local\n    federation cluster.local {\n        prod prod.example.com\n    }\n    forward . 8.8.8.8\n}\n';
const configMap = coreDnsConfigMapYaml('.:53 {\n    errors\n    proxy . 8.8.8.8\n}\n');

describe('kube-dns-to-coredns migrate', () => {
  it('prints the migrated Corefile on stdout, notices on stderr, and exits 0', async () => {
    const io = memoryIo({ files: { Corefile: old } });
    expect(await main(['migrate', '--from', '1.3.1', '--to', 'v1.6.2', 'Corefile'], io)).toBe(0);
    expect(io.out()).toBe('# cluster DNS\n.:53 {\n    errors\n    forward . 8.8.8.8\n}\n');
    expect(io.err()).toContain('info migrate-proxy-to-forward Corefile:4:5 proxy: ');
    expect(io.err()).toContain("Corefile: CoreDNS 1.3.1 → 1.6.2: migrated\n");
  });

  it('refuses with exit 1 and prints no Corefile when a notice is an error; --drop-federations removes it', async () => {
    const refused = memoryIo({ files: { Corefile: federated } });
    expect(await main(['migrate', '--from', '1.6.7', '--to', '1.8.0', '--no-new-defaults', 'Corefile'], refused)).toBe(1);
    expect(refused.out()).toBe('');
    expect(refused.err()).toContain('error migrate-federation-removed Corefile:3:5 federation: CoreDNS 1.8.0 has no federation plugin (removed in 1.7.0)');
    const dropped = memoryIo({ files: { Corefile: federated } });
    expect(await main(['migrate', '--from', '1.6.7', '--to', '1.8.0', '--no-new-defaults', '--drop-federations', 'Corefile'], dropped)).toBe(0);
    expect(dropped.out()).toBe('.:53 {\n    kubernetes cluster.local\n    forward . 8.8.8.8\n}\n');
  });

  it('says with exit 1 that the result would not start, with lint\'s finding, when the start did not start either', async () => {
    const io = memoryIo({ files: { Corefile: '.:53 {\n    proxy . 10.0.0.1 {\n        except\n    }\n}\n' } });
    expect(await main(['migrate', '--from', '1.4.0', '--to', '1.8.0', 'Corefile'], io)).toBe(1);
    expect(io.out()).toBe('');
    expect(io.err()).toContain(
      // At the input line the rewritten block keeps (lint's place in the result, said to be the result's, in the message).
      "error migrate-target-refuses Corefile:3:9 forward > except: the migrated Corefile fails for CoreDNS 1.8.0 at line 3, column 9 of the migrated text (lint argument-count at [.:53] forward > except): option 'except' of forward takes at least 1 argument, not 0: CoreDNS 1.8.0 does not start; the Corefile given fails for CoreDNS 1.4.0 in the same way",
    );
    expect(io.err()).toContain('Corefile: CoreDNS 1.4.0 → 1.8.0: refused (1 error notices; the result would not start on CoreDNS 1.8.0); nothing written\n');
  });

  it('--check exits 1 and names the file when the Corefile would change, 0 when not', async () => {
    const changes = memoryIo({ files: { Corefile: old } });
    expect(await main(['migrate', '--check', '--from', '1.3.1', '--to', '1.6.2', 'Corefile'], changes)).toBe(1);
    expect(changes.out()).toBe('Corefile\n');
    const same = memoryIo({ files: { Corefile: old } });
    expect(await main(['migrate', '--check', '--from', '1.3.1', '--to', '1.3.1', 'Corefile'], same)).toBe(0);
    expect(same.out()).toBe('');
  });

  it('-o json gives the mappings, the notices and the Corefile', async () => {
    const io = memoryIo({ files: { Corefile: old } });
    expect(await main(['migrate', '-o', 'json', '--from', '1.3.1-eksbuild.2', '--to', 'registry.k8s.io/coredns/coredns:v1.8.0', 'Corefile'], io)).toBe(0);
    const report = JSON.parse(io.out()) as { ok: boolean; changed: boolean; from: { version: string }; to: { version: string }; corefile: string; notices: { code: string }[] };
    expect(report.from.version).toBe('1.3.1');
    expect(report.to.version).toBe('1.8.0');
    // No kubernetes in the block: no max_concurrent 1000, which only kubeadm's main block has.
    expect(report.corefile).toContain('    forward . 8.8.8.8\n');
    expect(report.notices.map((notice) => notice.code)).toContain('migrate-proxy-to-forward');
  });

  it('reads a CoreDNS ConfigMap and migrates its Corefile entry', async () => {
    const io = memoryIo({ files: { 'coredns.yaml': configMap } });
    expect(await main(['migrate', '--from', '1.3.1', '--to', '1.5.0', '--no-new-defaults', 'coredns.yaml'], io)).toBe(0);
    expect(io.out()).toBe('.:53 {\n    errors\n    forward . 8.8.8.8\n}\n');
  });

  it('says that the other data keys of a ConfigMap are not migrated', async () => {
    const withServer = `${configMap}  extra.server: |\n    acme.local:53 {\n        proxy . 10.0.0.1\n    }\n`;
    const io = memoryIo({ files: { 'coredns.yaml': withServer } });
    expect(await main(['migrate', '--from', '1.3.1', '--to', '1.6.2', 'coredns.yaml'], io)).toBe(0);
    expect(io.err()).toContain("info migrate-configmap-key-not-migrated Corefile: data key 'extra.server' of the ConfigMap is not migrated: only 'Corefile' is read; if it holds Corefile text (imported as a file), migrate it on its own\n");
    const json = memoryIo({ files: { 'coredns.yaml': withServer } });
    expect(await main(['migrate', '--from', '1.3.1', '--to', '1.6.2', '-o', 'json', 'coredns.yaml'], json)).toBe(0);
    expect((JSON.parse(json.out()) as { notices: { code: string }[] }).notices.map((notice) => notice.code)).toContain('migrate-configmap-key-not-migrated');
  });

  it('-o configmap writes the ConfigMap back with the migrated Corefile, its other keys, labels and annotations kept', async () => {
    const withMetadata = configMap
      .replace('  namespace: kube-system\n', '  namespace: kube-system\n  labels:\n    eks.amazonaws.com/component: coredns\n  annotations:\n    kubectl.kubernetes.io/last-applied-configuration: "{}"\n    team: dns\n  resourceVersion: "7"\n')
      .concat('  extra.server: |\n    acme.local:53 {\n        forward . 10.0.0.1\n    }\n');
    const io = memoryIo({ files: { 'coredns.yaml': withMetadata } });
    expect(await main(['migrate', '--from', '1.3.1', '--to', '1.5.0', '--no-new-defaults', '-o', 'configmap', 'coredns.yaml'], io)).toBe(0);
    const written = readConfigMap(io.out());
    expect(written).toMatchObject({ name: 'coredns', namespace: 'kube-system', data: { Corefile: '.:53 {\n    errors\n    forward . 8.8.8.8\n}\n', 'extra.server': 'acme.local:53 {\n    forward . 10.0.0.1\n}\n' } });
    expect(io.out()).toContain('  labels:\n    eks.amazonaws.com/component: coredns\n  annotations:\n    team: dns\n');
    expect(io.out()).not.toMatch(/resourceVersion|last-applied/);
    expect(io.err()).toContain("info migrate-configmap-key-not-migrated Corefile: data key 'extra.server' of the ConfigMap is not migrated: only 'Corefile' is read; if it holds Corefile text (imported as a file), migrate it on its own (written back unchanged)\n");
    expect(io.err()).toContain('info configmap-server-fields-dropped: ConfigMap kube-system/coredns is written without the fields the API server sets: metadata.annotations.kubectl.kubernetes.io/last-applied-configuration, metadata.resourceVersion\n');
    // An immutable ConfigMap cannot be updated: said.
    const immutable = memoryIo({ files: { 'coredns.yaml': `${configMap}immutable: true\n` } });
    expect(await main(['migrate', '--from', '1.3.1', '--to', '1.5.0', '--no-new-defaults', '-o', 'configmap', 'coredns.yaml'], immutable)).toBe(0);
    expect(immutable.err()).toContain("warning configmap-immutable: ConfigMap kube-system/coredns is immutable: true and 'Corefile' changed: the API server refuses to update it (delete and create it again)\n");
    // A refused migration writes nothing; --check and --kubeadm-default-for print no ConfigMap.
    expect(await main(['migrate', '--from', '1.3.1', '--to', '1.5.0', '--check', '-o', 'configmap', 'coredns.yaml'], memoryIo({ files: { 'coredns.yaml': configMap } }))).toBe(2);
    expect(await main(['migrate', '--kubeadm-default-for', '1.16', '-o', 'configmap', 'coredns.yaml'], memoryIo({ files: { 'coredns.yaml': configMap } }))).toBe(2);
  });

  it('answers whether a Corefile is kubeadm\'s default for a Kubernetes release', async () => {
    const kubeadm116 = '.:53 {\n    errors\n    health\n    ready\n    kubernetes cluster.local in-addr.arpa ip6.arpa {\n        pods insecure\n        fallthrough in-addr.arpa ip6.arpa\n        ttl 30\n    }\n    prometheus :9153\n    forward . /etc/resolv.conf\n    cache 30\n    loop\n    reload\n    loadbalance\n}\n';
    const yes = memoryIo({ files: { Corefile: kubeadm116 } });
    expect(await main(['migrate', '--kubeadm-default-for', '1.16', 'Corefile'], yes)).toBe(0);
    expect(yes.out()).toBe('Corefile: is the default Corefile of kubeadm 1.16 (kubeadm replaces it on upgrade)\n');
    const no = memoryIo({ files: { Corefile: old } });
    expect(await main(['migrate', '--kubeadm-default-for', '1.16', 'Corefile'], no)).toBe(1);
  });

  it('refuses migration options next to --kubeadm-default-for instead of ignoring them', async () => {
    for (const extra of [['--check'], ['--deprecations'], ['--drop-federations'], ['--no-new-defaults'], ['--from', '1.3.1'], ['--to', '1.8.0']]) {
      const io = memoryIo({ files: { Corefile: old } });
      expect(await main(['migrate', '--kubeadm-default-for', '1.16', ...extra, 'Corefile'], io), extra.join(' ')).toBe(2);
      expect(io.err()).toContain(`migrate: --kubeadm-default-for takes none of the migration's options (${extra[0] ?? ''})`);
      expect(io.out()).toBe('');
    }
  });

  it('exits 2 on bad usage, an unknown release and a syntax error', async () => {
    const missing = memoryIo({ files: { Corefile: old } });
    expect(await main(['migrate', '--from', '1.3.1', 'Corefile'], missing)).toBe(2);
    expect(missing.err()).toContain('--from VERSION and --to VERSION are required');
    const unknown = memoryIo({ files: { Corefile: old } });
    expect(await main(['migrate', '--from', '1.4.1', '--to', '1.8.0', 'Corefile'], unknown)).toBe(2);
    expect(unknown.err()).toContain("migrate: --from: cannot resolve a CoreDNS release from '1.4.1'");
    const syntax = memoryIo({ files: { Corefile: '.:53 {\n    errors\n' } });
    expect(await main(['migrate', '--from', '1.3.1', '--to', '1.8.0', 'Corefile'], syntax)).toBe(2);
    expect(syntax.err()).toMatch(/^Corefile:\d+:\d+: /);
  });

  it('has help', async () => {
    const io = memoryIo();
    expect(await main(['migrate', '--help'], io)).toBe(0);
    expect(io.out()).toBe(MIGRATE_HELP);
  });
});
