import { describe, expect, it } from 'vitest';
import { kubeadmProfileFor, UnsupportedKubernetesVersionError } from '../../src/kubeadm/kubernetes-version.js';

describe('kubeadmProfileFor', () => {
  it.each([
    ['1.10', 'v1.10'],
    ['v1.10.0-beta.2', 'v1.10'],
    ['1.10.13', 'v1.10'],
    ['1.11', 'v1.11'],
    ['v1.12.0-beta.0', 'v1.11'],
    ['v1.12.0-beta.1', 'v1.12'],
    ['1.12.10', 'v1.12'],
    ['1.13', 'v1.12'],
    ['v1.14.8', 'v1.14'],
    ['1.15.5', 'v1.15'],
    ['1.16', 'v1.16'],
    ['1.17.0', 'v1.17'],
    ['v1.18.6', 'v1.17'],
    ['1.19', 'v1.19'],
    ['v1.20.15+k3s1', 'v1.19'],
    ['v1.15', 'v1.15'],
    [' 1.13 ', 'v1.12'],
  ])('%s → %s', (version, profile) => {
    expect(kubeadmProfileFor(version).id).toBe(profile);
  });

  it.each([
    ['1.9', 'out-of-range', /1\.10 to 1\.20 \(1\.21 removed it\)/],
    ['1.21.0', 'out-of-range', /1\.10 to 1\.20/],
    ['v1.10.0-alpha.3', 'out-of-range', /first shipped in v1\.10\.0-beta\.2/],
    ['v1.10.0-beta.1', 'out-of-range', /first shipped in v1\.10\.0-beta\.2/],
    ['2.0', 'syntax', /expected a Kubernetes version such as 1\.17/],
    ['latest', 'syntax', /expected a Kubernetes version/],
    ['', 'syntax', /expected a Kubernetes version/],
  ])('refuses %s (%s)', (version, code, message) => {
    expect(() => kubeadmProfileFor(version)).toThrow(UnsupportedKubernetesVersionError);
    expect(() => kubeadmProfileFor(version)).toThrow(message);
    expect(() => kubeadmProfileFor(version)).toThrow(expect.objectContaining({ code, category: 'input', version }));
  });
});
