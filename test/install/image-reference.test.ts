import { describe, expect, it } from 'vitest';
import { buildCoreDnsInstall, CoreDnsInstallInputError } from '../../src/index.js';
import { checkImageReference, imageReferenceProblem } from '../../src/install/image-reference.js';
import { readKubeDnsInstall } from '../../src/kubedns/kube-dns-install.js';
import { configMapYaml } from '../support/kube-dns-manifests.js';

const SHA256 = `sha256:${'0123456789abcdef'.repeat(4)}`;

describe('imageReferenceProblem', () => {
  it('takes what a container runtime pulls', () => {
    for (const image of [
      'coredns',
      'coredns/coredns:1.14.7',
      'registry.k8s.io/coredns/coredns:v1.11.1',
      'mirror.corp:5000/coredns/coredns:v1.14.7-eksbuild.1',
      `mirror.corp/coredns@${SHA256}`,
      `mirror.corp/coredns/coredns:v1.14.7@${SHA256}`,
      '[fd00::1]:5000/coredns:1.8.0',
      'localhost:5000/team__a/core-dns_x.y:latest',
      'My.Registry/coredns:v1',
      `x:${'t'.repeat(128)}`,
    ]) {
      expect(imageReferenceProblem(image), image).toBeUndefined();
    }
  });

  it('refuses what no runtime pulls, naming the part that is wrong', () => {
    expect(imageReferenceProblem('')).toBe('it is empty');
    expect(imageReferenceProblem('registry.k8s.io/coredns/coredns:v1.11.1$(id)')).toMatch(/^the tag 'v1\.11\.1\$\(id\)' is not a tag/);
    expect(imageReferenceProblem('coredns:')).toBe("the tag after ':' is empty");
    expect(imageReferenceProblem(`coredns:${'t'.repeat(129)}`)).toMatch(/is not a tag/);
    expect(imageReferenceProblem('core dns')).toMatch(/^'core dns' is not a path part/);
    expect(imageReferenceProblem('mirror.corp/CoreDNS:1')).toMatch(/^'CoreDNS' is not a path part/);
    expect(imageReferenceProblem('mirror.corp//coredns')).toMatch(/empty part/);
    expect(imageReferenceProblem('$(id)/coredns')).toMatch(/^'\$\(id\)' is not a registry host or path part/);
    expect(imageReferenceProblem('coredns@sha256:abc')).toMatch(/^the digest 'sha256:abc' is not ALGORITHM:HEX/);
    expect(imageReferenceProblem(`coredns@sha256:${'A'.repeat(64)}`)).toMatch(/^the sha256 digest must be 64 lower-case hex digits/);
    expect(imageReferenceProblem(`@${SHA256}`)).toMatch(/names no image/);
    expect(imageReferenceProblem(`${'a'.repeat(256)}:1`)).toMatch(/256 characters long, more than 255/);
    expect(imageReferenceProblem("coredns:1';rm -rf /;'")).toMatch(/^'coredns:1';rm -rf ' is not a registry host or path part/);
    expect(imageReferenceProblem('coredns:1\n')).toMatch(/is not a tag/);
  });

  it('is the invalid-field input error of the install builder', () => {
    expect(() => checkImageReference('a b')).toThrow(CoreDnsInstallInputError);
    const install = readKubeDnsInstall([{ text: configMapYaml({}), filename: 'kube-dns.yaml' }]);
    let thrown: unknown;
    try {
      buildCoreDnsInstall(install, { image: 'coredns:1$(id)', clusterDnsIp: '10.96.0.10' });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(CoreDnsInstallInputError);
    expect(thrown).toMatchObject({ code: 'invalid-field', category: 'input' });
    expect((thrown as Error).message).toMatch(/^'coredns:1\$\(id\)' is not an image reference \(\[REGISTRY\/\]NAME\[:TAG\]\[@DIGEST\]\): the tag '1\$\(id\)' is not a tag/);
  });
});
