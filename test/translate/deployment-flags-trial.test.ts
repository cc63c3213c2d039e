import { describe, expect, it } from 'vitest';
import { readKubeDnsInstall } from '../../src/kubedns/kube-dns-install.js';
import { translateKubeDnsInstall } from '../../src/translate/translate.js';
import { checkRouting } from '../../src/routing/check.js';
import { kubeDnsRouting } from '../../src/routing/kube-dns-routing.js';
import { describeDestination } from '../../src/routing/destination.js';
import { kubeDnsReleaseOfImage } from '../../src/kubedns/kube-dns-pod.js';
import type { TranslateOptions } from '../../src/translate/translate.js';
import { configMapYaml, deploymentYaml, STOCK_DNSMASQ_ARGS } from '../support/kube-dns-manifests.js';
import type { DeploymentParts } from '../support/kube-dns-manifests.js';

/** Defects a new-user/attacker trial found in the Deployment's flags (#18 trial, lane `flags`). */
function install(parts: DeploymentParts, data?: Record<string, string>) {
  const texts = [deploymentYaml(parts), ...(data === undefined ? [] : [configMapYaml(data)])];
  return readKubeDnsInstall([{ text: texts.join('---\n'), filename: 'install.yaml' }]);
}

function translate(parts: DeploymentParts, data?: Record<string, string>, options: TranslateOptions = {}) {
  const read = install(parts, data);
  const translation = translateKubeDnsInstall(read, options);
  const codes = translation.diagnostics.map((entry) => `${entry.severity} ${entry.code}`);
  const text = [deploymentYaml(parts), ...(data === undefined ? [] : [configMapYaml(data)])].join('---\n');
  const check = translation.corefile === undefined ? undefined : checkRouting({ kubeDns: text, corefile: translation.corefile, ...(typeof options.coredns === 'string' ? { coredns: options.coredns } : {}) });
  return { ...translation, codes, check, routing: kubeDnsRouting(data ?? null, { ...(read.deployment === undefined ? {} : { deployment: read.deployment }) }) };
}

describe('--server=/zone/#: the default servers for a zone under a more general one', () => {
  const dnsmasq = [...STOCK_DNSMASQ_ARGS, '--server=/corp/1.1.1.1', '--server=/www.corp/#'];

  it('is modelled: x.www.corp goes where a name no domain holds goes, x.corp to 1.1.1.1', () => {
    const { routing } = translate({ dnsmasq });
    expect(describeDestination(routing.route('x.www.corp').destination)).toBe(describeDestination(routing.route('example.com').destination));
    expect(describeDestination(routing.route('x.corp').destination)).toContain('1.1.1.1');
    expect(routing.route('x.www.corp').via).toContain('--server=/www.corp/#');
  });

  it('is translated: a www.corp block forwarding where the main block does, with the same cache; check passes', () => {
    const result = translate({ dnsmasq }, { upstreamNameservers: '["8.8.8.8"]' });
    expect(result.ok).toBe(true);
    expect(result.codes).not.toContain('warning deployment-flag-not-translated');
    const www = result.corefile?.split('\n\n').find((text) => text.startsWith('www.corp:53 {')) ?? '';
    expect(www).toContain('forward . 8.8.8.8');
    expect(www).toContain('cache 30');
    expect(result.check?.ok).toBe(true);
  });

  it('wins over a stub domain of the same zone (the ConfigMap\'s and the manifest\'s)', () => {
    const result = translate({ dnsmasq: [...dnsmasq, '--server=/www.corp/2.2.2.2'] }, { stubDomains: '{"www.corp": ["3.3.3.3"]}' });
    expect(result.ok).toBe(true);
    expect(result.corefile).not.toContain('2.2.2.2');
    expect(result.corefile).not.toContain('3.3.3.3');
    expect(result.check?.ok).toBe(true);
  });

  it('is refused for a zone of the cluster and where the default server was kubedns', () => {
    expect(translate({ dnsmasq: [...STOCK_DNSMASQ_ARGS, '--server=/svc.cluster.local/#'] }).codes).toContain('error deployment-default-servers-not-kept');
    const old = translate({ dnsmasq: ['--cache-size=1000', '--no-resolv', '--server=127.0.0.1#10053', '--server=/corp/1.1.1.1', '--server=/www.corp/#'] });
    expect(old.codes).toContain('error deployment-default-servers-not-kept');
  });
});

describe('--dns-forward-max=0', () => {
  const dnsmasq = [...STOCK_DNSMASQ_ARGS, '--dns-forward-max=0'];

  it('is refused: dnsmasq forwarded nothing (REFUSED), and the model says so', () => {
    for (const coredns of ['1.14.7', '1.6.7']) {
      const result = translate({ dnsmasq }, undefined, { coredns });
      expect(result.ok).toBe(false);
      expect(result.codes).toContain('error deployment-forwards-nothing');
      // The old message claimed CoreDNS had no max_concurrent, whatever the release.
      expect(result.diagnostics.map((entry) => entry.message).join('\n')).not.toContain('has no forward max_concurrent');
    }
    const { routing } = translate({ dnsmasq });
    expect(routing.route('kubernetes.default.svc.cluster.local').via).toContain('REFUSED');
    expect(routing.route('example.com').via).toContain('REFUSED');
  });

  it('keeps the message for a release without max_concurrent when the limit is above 0', () => {
    const result = translate({ dnsmasq: [...STOCK_DNSMASQ_ARGS, '--dns-forward-max=150'] }, undefined, { coredns: '1.6.7' });
    expect(result.diagnostics.find((entry) => entry.code === 'deployment-flag-not-translated')?.message).toMatch(/CoreDNS 1\.6\.7 has no forward max_concurrent \(1\.6\.9\+\)/);
  });
});

describe('the kube-dns release of the kubedns image', () => {
  it.each([
    ['gcr.io/google_containers/kubedns-amd64:1.9', '1.14.0', true],
    ['gcr.io/google_containers/kubedns-amd64:1.8', '1.14.0', true],
    ['k8s.gcr.io/k8s-dns-kube-dns-amd64:1.14.4@sha256:' + 'ab'.repeat(32), '1.14.4', false],
    ['k8s.gcr.io/k8s-dns-kube-dns-amd64:1.14.4', '1.14.4', false],
    ['localhost:5000/kube-dns', undefined, true],
    ['registry.k8s.io/dns/k8s-dns-kube-dns:1.99.0', undefined, true],
  ] as const)('%s → %s', (image, version, assumed) => {
    const release = kubeDnsReleaseOfImage(image);
    expect(release.version).toBe(version);
    expect(release.assumed !== undefined).toBe(assumed);
  });

  it('says what was assumed for a pre-1.14 image, and reads a digest-pinned tag', () => {
    const old = translate({ kubeDnsImage: 'gcr.io/google_containers/kubedns-amd64:1.9' });
    expect(old.codes).toContain('warning kube-dns-release-assumed');
    expect(old.diagnostics.find((entry) => entry.code === 'kube-dns-release-assumed')?.message).toContain("'1.9'");
    const pinned = translate({ kubeDnsImage: `k8s.gcr.io/k8s-dns-kube-dns-amd64:1.14.4@sha256:${'ab'.repeat(32)}` });
    expect(pinned.diagnostics.map((entry) => entry.message)).toContain("kube-dns 1.14.4 (the image's tag): the ConfigMap is validated with its rules");
  });
});

describe('messages that named the wrong thing', () => {
  it('names a --dns-forward-max too large for max_concurrent as written, not as the number it became', () => {
    const result = translate({ dnsmasq: [...STOCK_DNSMASQ_ARGS, '--dns-forward-max=99999999999999999999999'] }, undefined, { coredns: '1.14.7' });
    expect(result.ok).toBe(false);
    const message = result.diagnostics.filter((entry) => entry.severity === 'error').map((entry) => entry.message).join('\n');
    expect(message).toContain('--dns-forward-max=99999999999999999999999');
    expect(message).not.toContain('1e+23');
  });

  it('says what --dns-port was in a Pod without dnsmasq', () => {
    const result = translate({ withDnsmasq: false, kubedns: ['--domain=cluster.local.', '--dns-port=53', '--config-dir=/kube-dns-config'] });
    const message = result.diagnostics.find((entry) => entry.path === '[--dns-port=53]')?.message ?? '';
    expect(message).not.toContain('dnsmasq reached kubedns');
    expect(message).toContain('kubedns answered clients');
  });
});
