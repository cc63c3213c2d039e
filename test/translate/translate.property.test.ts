import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCorefile } from '../../src/corefile/parser.js';
import { parseServerKey } from '../../src/corefile/server-key.js';
import { serverBlocks } from '../../src/corefile/model.js';
import { COREDNS_VERSIONS } from '../../src/translate/coredns-versions.js';
import { translateKubeDns } from '../../src/translate/translate.js';

/** Laws of the default translator over random kube-dns ConfigMaps, hostile strings included. */

const hostile = fc.constantFrom('', ' ', 'a b', 'x"y', 'a\\b', '{', '}', '#', 'a#b', 'n\nl', 't\tu', 'c\rr', '{$X}', 'import', 'é.com', 'ACME.LOCAL', 'acme.local.', 'a..b', '.', '*', '😀');
const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,6}[a-z0-9])?$/);
const domain = fc.oneof({ weight: 4, arbitrary: fc.array(label, { minLength: 1, maxLength: 3 }).map((labels) => labels.join('.')) }, { weight: 1, arbitrary: hostile }, { weight: 1, arbitrary: fc.constantFrom('local', 'cluster.local', 'svc.cluster.local', 'arpa', '10.in-addr.arpa', 'in-addr.arpa') });
const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255)).map((octets) => octets.join('.'));
const nameserver = fc.oneof(
  { weight: 4, arbitrary: ipv4 },
  { weight: 2, arbitrary: fc.tuple(ipv4, fc.integer({ min: 0, max: 70000 })).map(([ip, port]) => `${ip}:${port}`) },
  { weight: 2, arbitrary: fc.ipV6() },
  { weight: 1, arbitrary: fc.tuple(fc.ipV6(), fc.integer({ min: 1, max: 65535 })).map(([ip, port]) => `[${ip}]:${port}`) },
  { weight: 1, arbitrary: domain },
  { weight: 1, arbitrary: hostile },
);
const version = fc.constantFrom(...COREDNS_VERSIONS);

const config = fc.record({
  stubs: fc.array(fc.tuple(domain, fc.array(nameserver, { maxLength: 4 })), { maxLength: 6 }),
  upstreams: fc.option(fc.array(nameserver, { maxLength: 4 }), { nil: undefined }),
  federations: fc.option(fc.array(fc.tuple(label, domain), { maxLength: 2 }), { nil: undefined }),
});
type Config = typeof config extends fc.Arbitrary<infer T> ? T : never;

function dataOf(input: Config, reverse = false): Record<string, string> {
  // Distinct keys only, so that reversing changes the order but not which duplicate wins.
  const unique = [...new Map(input.stubs.map(([key, values]) => [key, values])).entries()];
  const ordered = reverse ? unique.reverse() : unique;
  const stubDomains = `{${ordered.map(([key, values]) => `${JSON.stringify(key)}: ${JSON.stringify(values)}`).join(', ')}}`;
  const data: Record<string, string> = { stubDomains };
  if (input.upstreams !== undefined) data['upstreamNameservers'] = JSON.stringify(input.upstreams);
  if (input.federations !== undefined) data['federations'] = input.federations.map(([name, value]) => `${name}=${value}`).join(',');
  return data;
}

describe('default translator laws', () => {
  it('never throws and never emits a Corefile CoreDNS would refuse to parse', () => {
    fc.assert(
      fc.property(config, version, fc.boolean(), fc.boolean(), (input, coredns, force, dropFederations) => {
        const translation = translateKubeDns(dataOf(input), { coredns, force, dropFederations });
        if (!translation.ok) {
          expect(translation.corefile).toBeUndefined();
          expect(translation.diagnostics.some((entry) => entry.severity === 'error')).toBe(true);
          return;
        }
        const { corefile } = parseCorefile(translation.corefile ?? '');
        for (const block of serverBlocks(corefile)) for (const key of block.keys) parseServerKey(key);
        const forwards = serverBlocks(corefile).flatMap((block) => block.directives).filter((directive) => directive.name === 'forward' || directive.name === 'proxy');
        for (const forward of forwards) expect(forward.arguments.length).toBeGreaterThan(1);
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same bytes whatever the order of keys in the JSON', () => {
    fc.assert(
      fc.property(config, version, (input, coredns) => {
        const forwards = translateKubeDns(dataOf(input), { coredns, force: true, dropFederations: true });
        const backwards = translateKubeDns(dataOf(input, true), { coredns, force: true, dropFederations: true });
        expect(backwards.corefile).toBe(forwards.corefile);
      }),
      { numRuns: 200 },
    );
  });

  it('refuses exactly when an error diagnostic is present', () => {
    fc.assert(
      fc.property(config, version, (input, coredns) => {
        const translation = translateKubeDns(dataOf(input), { coredns });
        expect(translation.ok).toBe(!translation.diagnostics.some((entry) => entry.severity === 'error'));
      }),
      { numRuns: 200 },
    );
  });
});
