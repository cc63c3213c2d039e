import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readConfigMap } from '../../src/configmap/read-configmap.js';
import { CorefileSyntaxError } from '../../src/corefile/errors.js';
import { checkRouting, formatRoutingCheck } from '../../src/routing/check.js';
import { coreDnsRouting } from '../../src/routing/coredns-routing.js';
import { destinationKey } from '../../src/routing/destination.js';
import { kubeDnsRouting } from '../../src/routing/kube-dns-routing.js';
import { translateKubeDns } from '../../src/translate/translate.js';
import { hostileCorefile, representableCorefile } from '../corefile/support/arbitraries.js';

/** The routing models on every real-world configuration the project keeps, and on generated Corefiles. */

const realworld = join(import.meta.dirname, '../../golden/realworld');
const corefiles = readdirSync(join(realworld, 'corefiles')).filter((file) => file.endsWith('.Corefile'));
const configMaps = readdirSync(join(realworld, 'kube-dns')).filter((file) => file.endsWith('.yaml'));
const read = (directory: string, file: string) => readFileSync(join(realworld, directory, file), 'utf8');

const PROBES = ['kubernetes.default.svc.cluster.local', 'example.com', '1.0.96.10.in-addr.arpa', 'consul.local', 'a.b.c.d.e.f.g', ''];

describe('real-world Corefiles', () => {
  it.each(corefiles)('%s: modelled without failing', (file) => {
    let model;
    try {
      model = coreDnsRouting(read('corefiles', file));
    } catch (error) {
      expect(error).toBeInstanceOf(CorefileSyntaxError);
      return;
    }
    for (const name of [...PROBES, ...model.zones]) expect(destinationKey(model.route(name).destination)).toMatch(/^[a-z]/);
  });

  it('send cluster names to kubernetes wherever a kubernetes plugin serves cluster.local on port 53 (not a placeholder)', () => {
    const understood = corefiles.filter((file) => {
      try {
        return destinationKey(coreDnsRouting(read('corefiles', file)).route('kubernetes.default.svc.cluster.local').destination) === 'cluster@cluster.local';
      } catch {
        return false;
      }
    });
    expect(understood.map((file) => file.slice(0, 2))).toEqual(['09', '10', '29', '31', '38']);
  });
});

describe('real-world kube-dns ConfigMaps', () => {
  it.each(configMaps)('%s: the default translation routes like kube-dns, or kube-dns/the translator refused it', (file) => {
    let data;
    try {
      data = readConfigMap(read('kube-dns', file)).data;
    } catch {
      return;
    }
    const model = kubeDnsRouting(data);
    for (const name of PROBES) expect(destinationKey(model.route(name).destination)).toMatch(/^[a-z]/);
    const translation = translateKubeDns(data, { dropFederations: true });
    if (translation.corefile === undefined) return;
    const result = checkRouting({ kubeDns: data, corefile: translation.corefile });
    const federationNames = result.differences.filter((difference) => difference.kubeDns.via.startsWith('kubedns: federation'));
    // Dropped federations are the one difference the translator announces (federations-dropped).
    if (federationNames.length > 0) expect(translation.diagnostics.map((entry) => entry.code)).toContain('federations-dropped');
    expect(result.differences.length - federationNames.length, formatRoutingCheck(result)).toBe(0);
  });
});

describe('generated Corefiles', () => {
  it('never make the model fail: any parsed model routes every name somewhere', () => {
    fc.assert(
      fc.property(fc.oneof(representableCorefile, hostileCorefile), fc.constantFrom(...PROBES), (corefile, name) => {
        const model = coreDnsRouting(corefile);
        expect(destinationKey(model.route(name).destination)).toMatch(/^[a-z]/);
        for (const zone of model.zones.slice(0, 5)) model.route(`x.${zone}`);
      }),
      { numRuns: 300, seed: 3 },
    );
  });
});
