import { describe, expect, it } from 'vitest';
import {
  ClusterDataError,
  detectDnsAddon,
  isKubeadmDefaultCorefile,
  kubeadmConfigMapDecision,
  kubeadmDnsServiceIp,
} from '../../src/kubeadm/cluster-decisions.js';
import type { DeploymentLike } from '../../src/kubeadm/cluster-decisions.js';
import { translateLikeKubeadm } from '../../src/kubeadm/kubeadm-translation.js';
import { KUBEADM_PROFILES } from '../../src/kubeadm/profiles.js';

function deployment(name: string, image: string, labelled = true): DeploymentLike {
  return {
    metadata: { name, labels: labelled ? { 'k8s-app': 'kube-dns' } : { app: name } },
    spec: { template: { spec: { containers: [{ image }, { image: 'sidecar:9.9' }] } } },
  };
}

describe('detectDnsAddon', () => {
  it('finds no add-on without labelled Deployments', () => {
    expect(detectDnsAddon([])).toEqual({ kind: 'none' });
    expect(detectDnsAddon([deployment('coredns', 'k8s.gcr.io/coredns:1.6.7', false)])).toEqual({ kind: 'none' });
  });

  it('calls the Deployment named kube-dns kube-dns and anything else CoreDNS', () => {
    expect(detectDnsAddon([deployment('kube-dns', 'k8s.gcr.io/k8s-dns-kube-dns-amd64:1.14.13')])).toEqual({
      kind: 'kube-dns',
      deployment: 'kube-dns',
      version: '1.14.13',
    });
    expect(detectDnsAddon([deployment('coredns', 'k8s.gcr.io/coredns:1.6.7')])).toEqual({ kind: 'coredns', deployment: 'coredns', version: '1.6.7' });
    expect(detectDnsAddon([deployment('my-dns', 'example/coredns:v1.8.0')]).kind).toBe('coredns');
  });

  it('takes the text after the last colon of the first image, as kubeadm did', () => {
    expect(detectDnsAddon([deployment('coredns', 'registry.local:5000/coredns')])).toMatchObject({ version: '5000/coredns' });
    expect(detectDnsAddon([deployment('coredns', 'coredns@sha256:0123abcd')])).toMatchObject({ version: '0123abcd' });
  });

  it('refuses several DNS Deployments', () => {
    expect(() => detectDnsAddon([deployment('kube-dns', 'a:1'), deployment('coredns', 'b:2')])).toThrow(
      new ClusterDataError('multiple-dns-addons', 'multiple DNS addon deployments found: kube-dns, coredns'),
    );
    expect(() => detectDnsAddon([deployment('kube-dns', 'a:1'), deployment('coredns', 'b:2')])).toThrow(expect.objectContaining({ code: 'multiple-dns-addons', category: 'input' }));
  });
});

describe('kubeadmDnsServiceIp', () => {
  it.each([
    ['10.96.0.0/12', '10.96.0.10'],
    ['10.96.5.7/12', '10.96.0.10'],
    ['172.20.0.0/16', '172.20.0.10'],
    ['10.0.0.0/28', '10.0.0.10'],
    ['fd00::/108', 'fd00::a'],
    ['fd00:10:96::/112', 'fd00:10:96::a'],
    ['10.96.0.0/12,fd00::/108', '10.96.0.10'],
    ['fd00::/108, 10.96.0.0/12', 'fd00::a'],
  ])('%s → %s', (subnet, ip) => {
    expect(kubeadmDnsServiceIp(subnet)).toBe(ip);
  });

  it.each([
    ['10.0.0.0/29', /too small/],
    ['10.96.0.0', /couldn't parse service subnet CIDR "10.96.0.0"/],
    ['10.96.0.0/33', /couldn't parse/],
    ['bad/12', /couldn't parse/],
  ])('refuses %s', (subnet, message) => {
    expect(() => kubeadmDnsServiceIp(subnet)).toThrow(message);
  });
});

describe('kubeadmConfigMapDecision', () => {
  const custom = '.:53 {\n    forward . 10.0.0.1\n    log\n}\n';

  it('creates a missing ConfigMap in every release', () => {
    for (const version of ['1.10', '1.13', '1.18']) expect(kubeadmConfigMapDecision(version, undefined).action).toBe('create');
  });

  it('v1.10 updates, v1.11–v1.15 retain an existing one', () => {
    expect(kubeadmConfigMapDecision('1.10', custom).action).toBe('update');
    for (const version of ['1.11', '1.12', '1.13', '1.14', '1.15']) expect(kubeadmConfigMapDecision(version, custom).action).toBe('retain');
  });

  it('v1.16+ update empty and default Corefiles and migrate customised ones', () => {
    const shipped = translateLikeKubeadm(KUBEADM_PROFILES['v1.17'], { upstreamNameservers: '["8.8.8.8"]' }, 'corp.local');
    if (!shipped.ok) throw new Error(shipped.error);
    expect(kubeadmConfigMapDecision('1.18', '').action).toBe('update');
    expect(kubeadmConfigMapDecision('1.18', shipped.corefile).action).toBe('update');
    expect(kubeadmConfigMapDecision('1.20', custom).action).toBe('migrate');
  });

  it('recognises every profile’s default but not one with stub domains', () => {
    for (const profile of Object.values(KUBEADM_PROFILES)) {
      const plain = translateLikeKubeadm(profile, null, 'cluster.local');
      const withStub = translateLikeKubeadm(profile, { stubDomains: '{"a.com": ["1.1.1.1"]}' }, 'cluster.local');
      expect(plain.ok && isKubeadmDefaultCorefile(plain.corefile), profile.id).toBe(true);
      expect(withStub.ok && isKubeadmDefaultCorefile(withStub.corefile), profile.id).toBe(false);
    }
  });
});
