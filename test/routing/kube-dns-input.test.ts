import { describe, expect, it } from 'vitest';
import { ConfigMapInputError } from '../../src/configmap/read-configmap.js';
import { checkRouting } from '../../src/routing/check.js';
import { explainName } from '../../src/routing/explain.js';
import { kubeDnsRoutingOfInput } from '../../src/routing/kube-dns-input.js';
import { configMapYaml, coreDnsConfigMapYaml } from '../support/kube-dns-manifests.js';

const COREFILE = '.:53 {\n    kubernetes cluster.local in-addr.arpa ip6.arpa\n    forward . 8.8.8.8\n}\n';
const configMap = (name: string, namespace: string, data: Readonly<Record<string, string>>) => configMapYaml(data, { name, namespace, metadata: 'block', values: 'block' });
const UPSTREAMS = { upstreamNameservers: '["8.8.8.8"]' };

describe('kubeDnsRoutingOfInput', () => {
  it('models data, kube-system/kube-dns text and null without input notes', () => {
    expect(kubeDnsRoutingOfInput({ upstreamNameservers: '["8.8.8.8"]' }, {}).notes).toEqual([]);
    expect(kubeDnsRoutingOfInput(configMap('kube-dns', 'kube-system', UPSTREAMS), {}).notes).toEqual([]);
    expect(kubeDnsRoutingOfInput(null, {}).notes).toEqual([]);
  });

  it('leads the notes with the ConfigMap read when it is not kube-system/kube-dns, and still routes it', () => {
    const routing = kubeDnsRoutingOfInput(configMap('kube-dns', 'dns', UPSTREAMS), {});
    expect(routing.notes).toEqual(['read ConfigMap dns/kube-dns, not kube-system/kube-dns: kube-dns reads only that one, so this may not be what it ran with']);
    expect(routing.route('example.com').destination).toEqual({ kind: 'servers', servers: ['8.8.8.8:53'] });
    expect(checkRouting({ kubeDns: configMap('kube-dns', 'dns', UPSTREAMS), corefile: COREFILE }).notes[0]).toMatch(/^kube-dns: read ConfigMap dns\/kube-dns, not/);
    expect(explainName('example.com.', { kubeDns: configMap('kube-dns', 'dns', UPSTREAMS) }).notes[0]).toMatch(/^kube-dns: read ConfigMap dns\/kube-dns, not/);
  });

  it('refuses a CoreDNS ConfigMap given as the kube-dns one', () => {
    expect(() => checkRouting({ kubeDns: coreDnsConfigMapYaml(COREFILE), corefile: COREFILE })).toThrow(ConfigMapInputError);
  });
});
