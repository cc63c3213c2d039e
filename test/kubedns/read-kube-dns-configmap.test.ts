import { describe, expect, it } from 'vitest';
import { ConfigMapInputError } from '../../src/configmap/read-configmap.js';
import { installListYaml } from '../support/kube-dns-manifests.js';
import { formatDiagnostic } from '../../src/diagnostics/diagnostic.js';
import { readKubeDnsConfigMap } from '../../src/kubedns/read-kube-dns-configmap.js';

function configMap(metadata: string, data: string): string {
  return `apiVersion: v1\nkind: ConfigMap\nmetadata:\n${metadata}data:\n${data}`;
}

const UPSTREAMS = '  upstreamNameservers: \'["8.8.8.8"]\'\n';
const COREFILE = '  Corefile: |\n    .:53 {\n        forward . /etc/resolv.conf\n    }\n';

function warnings(text: string, name?: string): string[] {
  return readKubeDnsConfigMap(text, name === undefined ? {} : { name }).diagnostics.map(formatDiagnostic);
}

function refusal(text: string): string {
  try {
    readKubeDnsConfigMap(text, { filename: 'cm.yaml' });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigMapInputError);
    return (error as Error).message;
  }
  throw new Error('expected a ConfigMapInputError');
}

describe('readKubeDnsConfigMap', () => {
  it('reads kube-system/kube-dns, or a ConfigMap or data map that does not say where it lives, without a word', () => {
    const document = readKubeDnsConfigMap(configMap('  name: kube-dns\n  namespace: kube-system\n', UPSTREAMS));
    expect(document).toMatchObject({ name: 'kube-dns', namespace: 'kube-system', data: { upstreamNameservers: '["8.8.8.8"]' }, binaryDataKeys: [], diagnostics: [] });
    expect(warnings(configMap('  name: kube-dns\n', UPSTREAMS))).toEqual([]);
    expect(warnings(`kind: ConfigMap\ndata:\n${UPSTREAMS}`)).toEqual([]);
    expect(warnings(UPSTREAMS.trimStart())).toEqual([]);
  });

  it('warns, naming what was read, about another name or another namespace', () => {
    expect(warnings(configMap('  name: kube-dns-backup\n  namespace: kube-system\n', UPSTREAMS))).toEqual([
      'warning configmap-not-kube-dns: read ConfigMap kube-system/kube-dns-backup, not kube-system/kube-dns: kube-dns reads only that one, so this may not be what it ran with',
    ]);
    expect(warnings(configMap('  name: kube-dns\n  namespace: default\n', UPSTREAMS))).toEqual([
      'warning configmap-not-kube-dns: read ConfigMap default/kube-dns, not kube-system/kube-dns: kube-dns reads only that one, so this may not be what it ran with',
    ]);
    expect(warnings(configMap('  name: my-dns\n', UPSTREAMS))[0]).toMatch(/: read ConfigMap my-dns, not kube-system\/kube-dns/);
    expect(warnings(configMap('  namespace: dns\n', UPSTREAMS))[0]).toMatch(/: read a ConfigMap in namespace 'dns', not kube-system\/kube-dns/);
    // A ConfigMap named coredns that holds kube-dns keys is a misnamed kube-dns one.
    expect(warnings(configMap('  name: coredns\n', UPSTREAMS))[0]).toMatch(/: read ConfigMap coredns, not/);
  });

  it('does not warn about a name asked for with --name, but still about the namespace', () => {
    const text = `${configMap('  name: kube-dns-old\n  namespace: kube-system\n', UPSTREAMS)}---\n${configMap('  name: kube-dns-new\n  namespace: dns\n', UPSTREAMS)}`;
    const notes = (name: string) => warnings(text, name).filter((line) => !line.startsWith('info unused-object'));
    expect(notes('kube-dns-old')).toEqual([]);
    expect(notes('kube-dns-new')).toEqual([
      'warning configmap-not-kube-dns: read ConfigMap dns/kube-dns-new, not kube-system/kube-dns: kube-dns reads only that one, so this may not be what it ran with',
    ]);
  });

  it('prefers kube-dns among several ConfigMaps', () => {
    const text = `${configMap('  name: coredns\n  namespace: kube-system\n', COREFILE)}---\n${configMap('  name: kube-dns\n  namespace: kube-system\n', UPSTREAMS)}`;
    // The other ConfigMap is named, not skipped silently.
    expect(readKubeDnsConfigMap(text, { filename: 'cms.yaml' })).toMatchObject({
      name: 'kube-dns',
      diagnostics: [{ code: 'unused-object', key: 'cms.yaml:1:1', message: 'ConfigMap coredns: readKubeDnsConfigMap reads only the kube-dns ConfigMap; not read (readKubeDnsInstall reads the whole install: its Deployment and Service too)' }],
    });
  });

  it('names the Deployment and Service of a whole install it skips, pointing at readKubeDnsInstall (#18 13)', () => {
    const list = installListYaml(['--no-negcache'], '10.96.0.10');
    const document = readKubeDnsConfigMap(list, { filename: 'install.yaml' });
    expect(document.data).toEqual({ upstreamNameservers: '["8.8.8.8"]' });
    expect(document.diagnostics.map((entry) => `${entry.code} ${entry.key}: ${entry.message}`)).toEqual([
      'unused-object install.yaml:4:3: Deployment kube-dns: readKubeDnsConfigMap reads only the kube-dns ConfigMap; not read (readKubeDnsInstall reads the whole install: its Deployment and Service too)',
      'unused-object install.yaml:8:3: Service kube-dns: readKubeDnsConfigMap reads only the kube-dns ConfigMap; not read (readKubeDnsInstall reads the whole install: its Deployment and Service too)',
    ]);
  });

  it('refuses a CoreDNS ConfigMap, saying what it is and what to use instead', () => {
    expect(refusal(configMap('  name: coredns\n  namespace: kube-system\n', COREFILE))).toBe(
      "cm.yaml: ConfigMap 'coredns' is a CoreDNS ConfigMap (its data has a Corefile), not the kube-dns one: this reads the kube-dns ConfigMap (kubectl -n kube-system get configmap kube-dns -o yaml); to check a Corefile, use lint, or check with --corefile",
    );
    expect(refusal(configMap('  name: node-local-dns\n', COREFILE))).toMatch(/^cm\.yaml: ConfigMap 'node-local-dns' is a CoreDNS ConfigMap \(its data has a Corefile\)/);
    expect(refusal(configMap('  name: coredns-custom\n', '  acme.server: |\n    acme.local:53 {\n    }\n'))).toMatch(
      /ConfigMap 'coredns-custom' is a CoreDNS ConfigMap \(its data key 'acme\.server' is a file CoreDNS imports\)/,
    );
    expect(refusal(`Corefile: |\n  .:53 {\n  }\n`)).toMatch(/^cm\.yaml: this is a CoreDNS ConfigMap \(its data has a Corefile\), not the kube-dns one/);
    expect(refusal(configMap('  name: coredns\n', '  {}\n'))).toMatch(/ConfigMap 'coredns' is a CoreDNS ConfigMap \(named coredns\)/);
  });

  it('reads a ConfigMap that holds kube-dns keys next to a Corefile as kube-dns (the Corefile is an unrelated key)', () => {
    expect(readKubeDnsConfigMap(configMap('  name: kube-dns\n', `${UPSTREAMS}${COREFILE}`)).data).toHaveProperty('upstreamNameservers');
  });

  it('names every binaryData key: an error for a kube-dns setting (kube-dns read it from its mounted volume), a warning for others', () => {
    const text = `${configMap('  name: kube-dns\n  namespace: kube-system\n', UPSTREAMS)}binaryData:\n  stubDomains: e30K\n  logo.png: iVBORw0KGgo=\n`;
    const document = readKubeDnsConfigMap(text);
    expect(document.diagnostics.map((entry) => [entry.code, entry.severity, entry.key])).toEqual([
      ['binary-data-key', 'error', 'stubDomains'],
      ['binary-data-key', 'warning', 'logo.png'],
    ]);
    expect(document.data).toEqual({ upstreamNameservers: '["8.8.8.8"]' });
  });
});
