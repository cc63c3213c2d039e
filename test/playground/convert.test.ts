import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { convert, DEFAULT_INPUT } from '../../docs/playground/convert.js';
import type { PlaygroundInput } from '../../docs/playground/convert.js';
import { coreDnsConfigMapYaml, installListYaml } from '../support/kube-dns-manifests.js';
import { readConfigMap, translateKubeDns, translateLikeKubeadm } from '../../src/index.js';

// The playground's computation, in Node: what the page shows is the core's output, and no input
// makes it throw (the page would stop rendering).

const example = readFileSync(new URL('../../examples/kube-dns-configmap.yaml', import.meta.url), 'utf8');
const input = (overrides: Partial<PlaygroundInput>): PlaygroundInput => ({ ...DEFAULT_INPUT, text: example, ...overrides });

describe('playground convert', () => {
  it('shows the default translator output for the example', () => {
    const result = convert(input({}));
    const expected = translateKubeDns(readConfigMap(example).data, { clusterDomain: 'cluster.local' });
    expect(result.status).toBe('ok');
    expect(result.corefile).toBe(expected.corefile);
    expect(result.messages.map((entry) => entry.code)).toEqual(expected.diagnostics.map((entry) => entry.code));
  });

  it('reproduces a kubeadm profile', () => {
    const result = convert(input({ mode: 'kubeadm', kubeadmProfile: 'v1.12' }));
    const expected = translateLikeKubeadm('v1.12', readConfigMap(example).data, 'cluster.local');
    expect(expected.ok).toBe(true);
    expect(result.corefile).toBe(expected.ok ? expected.corefile : undefined);
    expect(result.target).toBe('kubeadm profile v1.12 (Kubernetes 1.12, 1.13)');
  });

  it('names what kubeadm wrote that the input did not ask for', () => {
    const injected = 'data:\n  stubDomains: |\n    {"evil.com {\\n whoami\\n}\\nx.com": ["1.2.3.4"]}\n';
    const result = convert(input({ mode: 'kubeadm', kubeadmProfile: 'v1.19', text: injected }));
    expect(result.status).toBe('ok');
    const unrequested = result.messages.filter((entry) => entry.code === 'kubeadm-unrequested');
    expect(unrequested.length).toBeGreaterThan(0);
    expect(unrequested.map((entry) => entry.message)).toContain("the Corefile holds a server block 'evil.com' (line 21) that the input did not ask for");
  });

  it('treats a blank input as "no ConfigMap"', () => {
    const result = convert(input({ text: '  \n' }));
    expect(result).toMatchObject({ status: 'ok', data: null });
    expect(result.corefile).toBe(translateKubeDns(null).corefile);
  });

  it.each([
    ['broken YAML', { text: 'data: [unclosed' }, 'input-error', 'ConfigMapInputError'],
    ['broken JSON document', { text: '{"data": {' }, 'input-error', 'ConfigMapInputError'],
    ['invalid JSON in stubDomains', { text: 'data:\n  stubDomains: \'{"consul.local": ["10.150.0.1"]\'\n' }, 'refused', 'json-syntax'],
    ['an invalid cluster domain', { clusterDomain: 'not a domain' }, 'refused', 'TranslateOptionsError'],
    ['an unknown CoreDNS version', { coredns: '0.9.0' }, 'refused', 'UnresolvedCoreDnsReleaseError'],
  ] as const)('reports %s instead of throwing', (_, overrides, status, code) => {
    const result = convert(input(overrides));
    expect(result.status).toBe(status);
    expect(result.corefile).toBeUndefined();
    expect(result.messages.filter((entry) => entry.severity === 'error').map((entry) => entry.code)).toContain(code);
  });

  it('warns about a ConfigMap that is not kube-system/kube-dns, and refuses a CoreDNS one', () => {
    const renamed = example.replace(/name: kube-dns\b/, 'name: kube-dns-copy');
    expect(renamed).not.toBe(example);
    for (const mode of ['translator', 'kubeadm'] as const) {
      const result = convert(input({ mode, text: renamed }));
      expect(result.status).toBe('ok');
      expect(result.messages[0]).toMatchObject({ severity: 'warning', code: 'configmap-not-kube-dns' });
    }
    const coredns = convert(input({ text: coreDnsConfigMapYaml('.:53 {\n}\n', { apiVersion: false, namespace: null }) }));
    expect(coredns.status).toBe('input-error');
    expect(coredns.messages[0]?.message).toMatch(/ConfigMap 'coredns' is a CoreDNS ConfigMap/);
  });

  it('reports kubeadm stopping as an error message', () => {
    const text = 'data:\n  stubDomains: \'{"consul.local": ["10.150.0.1"]\'\n';
    const expected = translateLikeKubeadm('v1.19', readConfigMap(text).data);
    expect(expected.ok).toBe(false);
    const result = convert(input({ mode: 'kubeadm', kubeadmProfile: 'v1.19', text }));
    expect(result.status).toBe('refused');
    expect(result.corefile).toBeUndefined();
    expect(result.messages.at(-1)).toMatchObject({ severity: 'error', code: 'kubeadm-translate-error', message: expected.ok ? '' : expected.error });
  });

  it('translates a pasted install with its Deployment, as the docs recommend pasting it (#18 13)', () => {
    const list = installListYaml(['--no-negcache', '--server=/cluster.local/127.0.0.1#10053', '--server=/in-addr.arpa/127.0.0.1#10053', '--server=/ip6.arpa/127.0.0.1#10053', '--server=/corp.internal/10.0.0.9']);
    const result = convert(input({ text: list }));
    expect(result.status).toBe('ok');
    expect(result.corefile).toContain('corp.internal:53 {');
    expect(result.messages.map((entry) => entry.code)).not.toContain('kube-dns-deployment-assumed');
    expect(result.data).toEqual({ upstreamNameservers: '["8.8.8.8"]' });
  });
});
