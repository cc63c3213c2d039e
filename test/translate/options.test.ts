import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readKubeDnsInstall } from '../../src/kubedns/kube-dns-install.js';
import { resolveTranslateOptions, TranslateOptionsError, withInstallFacts } from '../../src/translate/options.js';
import { translateConfigMapWith, translateInstallWith, translateKubeDns, translateKubeDnsInstall } from '../../src/translate/translate.js';
import { thrown } from '../support/thrown.js';

/** The translator's options stage: checked and resolved once, then read by every later stage. */

const manifest = readFileSync(new URL('../../golden/deployment/kubernetes-1.25-kube-dns-1.22.20.yaml', import.meta.url), 'utf8');

describe('resolveTranslateOptions', () => {
  it('resolves the release, the cluster domain in normal form and the kube-dns rules', () => {
    const input = resolveTranslateOptions({ coredns: 'v1.8.7-eksbuild.3', clusterDomain: 'Corp.Example.', kubeDnsVersion: '1.14.9', repair: ['kubedns-upstreams'], force: true });
    expect(input).toMatchObject({ clusterDomain: 'corp.example', clusterDomainOption: 'Corp.Example.', kubeDnsVersion: '1.14.9', force: true, dropFederations: false });
    expect(input.features.version).toBe('1.8.7');
    expect(input.release.version).toBe('1.8.7');
    expect(input.kubeDnsRules.version).toBe('1.14.9');
    expect([...input.repairs]).toEqual(['kubedns-upstreams']);
    expect(resolveTranslateOptions({})).toMatchObject({ clusterDomain: 'cluster.local', clusterDomainOption: undefined, kubeDnsVersion: undefined, clusterDnsIp: undefined });
  });

  it('refuses what makes no sense whatever the data, in the order the translator always checked it', () => {
    expect(thrown(() => resolveTranslateOptions({ clusterDomain: 'not a domain', clusterDnsIp: 'nope' }))).toMatchObject({ code: 'invalid-cluster-domain' });
    expect(thrown(() => resolveTranslateOptions({ clusterDnsIp: 'nope' }))).toBeInstanceOf(TranslateOptionsError);
    expect(thrown(() => resolveTranslateOptions({ clusterDomain: 'not a domain', kubeDnsVersion: '1.0.0' }))).toMatchObject({ code: 'invalid-cluster-domain' });
    expect(thrown(() => resolveTranslateOptions({ kubeDnsVersion: '1.0.0' }))).toMatchObject({ name: 'UnsupportedKubeDnsVersionError' });
  });

  it("adds what the install says where the options did not: the Service's IP, the image's kube-dns release", () => {
    const install = readKubeDnsInstall([{ text: manifest, filename: 'kube-dns.yaml' }]);
    const facts = withInstallFacts(resolveTranslateOptions({}), install, false);
    expect(facts.clusterDnsIp).toBe('10.96.0.10');
    expect(facts.kubeDnsVersionFromImage).toBe('1.22.20');
    expect(facts.kubeDnsRules.version).toBe('1.22.20');
    // The options win.
    const given = withInstallFacts(resolveTranslateOptions({ clusterDnsIp: '10.0.0.99', kubeDnsVersion: '1.14.9' }), install, true);
    expect(given).toMatchObject({ clusterDnsIp: '10.0.0.99', kubeDnsVersion: '1.14.9', kubeDnsVersionFromImage: undefined });
    // Nothing to add: the same input.
    const bare = resolveTranslateOptions({});
    expect(withInstallFacts(bare, { configMap: undefined, deployment: undefined, service: undefined, diagnostics: [] }, false)).toBe(bare);
  });

  it('translates the same from options and from the options resolved once', () => {
    const data = { stubDomains: '{"acme.local": ["10.0.0.1"]}', upstreamNameservers: '["8.8.8.8"]' };
    const input = resolveTranslateOptions({ coredns: '1.6.9' });
    expect(translateConfigMapWith(data, input)).toEqual(translateKubeDns(data, { coredns: '1.6.9' }));
    const install = readKubeDnsInstall([{ text: manifest, filename: 'kube-dns.yaml' }]);
    expect(translateInstallWith(install, input, false)).toEqual(translateKubeDnsInstall(install, { coredns: '1.6.9' }));
    expect(translateInstallWith(install, input, false).corefile).toContain('forward . /etc/resolv.conf');
  });
});
