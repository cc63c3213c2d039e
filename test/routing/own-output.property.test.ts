import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readKubeDnsInstall } from '../../src/kubedns/kube-dns-install.js';
import { checkRouting, formatRoutingCheck } from '../../src/routing/check.js';
import { translateKubeDnsInstall } from '../../src/translate/translate.js';
import { KUBE_DNS_QUIRKS } from '../../src/kubedns/kube-dns-quirks.js';
import { configMapYaml, deploymentYaml, STOCK_DNSMASQ_ARGS, STOCK_KUBEDNS_ARGS } from '../support/kube-dns-manifests.js';
import type { DeploymentParts } from '../support/kube-dns-manifests.js';
import { Outcomes } from '../support/outcomes.js';

/**
 * The law of the default mode (docs/routing.md, "check on the translator's own output"): for every
 * install the translator accepts, `check` given the same inputs (and the target release) passes.
 * Installs are generated from the dnsmasq and kubedns flags of every manifest family the docs name
 * (stock manifests before and after --no-negcache, kops with its in6.arpa typo, kubeasz, the
 * Kubernetes 1.3–1.5 ReplicationController without dnsmasq-nanny, kubespray's --local zones, the AWS
 * private-zone tuning, a Pod without dnsmasq), with a generated ConfigMap and kube-dns release.
 */

const kubedns = '127.0.0.1#10053';
const toKubeDns = (zone: string) => `--server=/${zone}/${kubedns}`;
const STOCK_ZONES = ['cluster.local', 'in-addr.arpa', 'ip6.arpa'].map(toKubeDns);
const BASE = ['-k', '--cache-size=1000', '--log-facility=-'];

/** dnsmasq-nanny in front of a dnsmasq that sends every name to kubedns through its default server. */
const NANNY_TO_KUBEDNS: DeploymentParts = { dnsmasq: ['--cache-size=1000', '--no-resolv', `--server=${kubedns}`] };

interface Family {
  readonly name: string;
  readonly parts: DeploymentParts;
}

/** The dnsmasq arguments of each family, before the generated extra flags. */
const families: readonly Family[] = [
  { name: 'stock 1.9+', parts: { dnsmasq: STOCK_DNSMASQ_ARGS } },
  { name: 'stock before --no-negcache', parts: { dnsmasq: [...BASE, ...STOCK_ZONES] } },
  { name: 'kops in6.arpa typo', parts: { dnsmasq: [...BASE, '--no-negcache', '--dns-forward-max=1000', '--min-port=1024', toKubeDns('cluster.local'), toKubeDns('in-addr.arpa'), toKubeDns('in6.arpa')] } },
  { name: 'kubeasz', parts: { kubedns: ['--domain=cluster.local', '--dns-port=10053', '--config-dir=/kube-dns-config'], dnsmasq: [...BASE, ...STOCK_ZONES] } },
  { name: 'no nanny (Kubernetes 1.3-1.5)', parts: { nanny: false, kubedns: ['--domain=cluster.local.', '--dns-port=10053'], dnsmasq: ['--cache-size=1000', '--no-resolv', `--server=${kubedns}`] } },
  { name: 'no nanny with zones', parts: { nanny: false, dnsmasq: ['--cache-size=1000', '--no-negcache', ...STOCK_ZONES] } },
  { name: 'kubespray --local', parts: { dnsmasq: [...STOCK_DNSMASQ_ARGS, '--local=/internal./local./lc./'] } },
  { name: 'aws private zone', parts: { dnsmasq: [...STOCK_DNSMASQ_ARGS, '--server=/corp.internal/10.0.0.2', '-R', '--server=8.8.8.8', '--log-queries', '--address=/blocked.example/'] } },
  { name: 'no dnsmasq', parts: { withDnsmasq: false } },
  { name: 'no reverse zones', parts: { dnsmasq: [...BASE, '--no-negcache', toKubeDns('cluster.local')] } },
  { name: 'nanny, every name to kubedns', parts: NANNY_TO_KUBEDNS },
];

const zone = fc.constantFrom('acme.test', 'corp.example', 'consul', 'b.acme.test', 'in6.arpa', 'svc.cluster.local', 'x.cluster.local', 'local', 'arpa', '10.in-addr.arpa');
const ip = fc.tuple(fc.integer({ min: 1, max: 223 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 1, max: 254 })).map((parts) => parts.join('.')).filter((text) => !text.startsWith('127.'));
const ip6 = fc.integer({ min: 1, max: 0xffff }).map((last) => `fd00::${last.toString(16)}`);
const extraFlag = fc.oneof(
  fc.constantFrom('--strict-order', '--log-queries', '--no-negcache', '--cache-size=0', '--dns-forward-max=300', '--no-resolv', '--address=/#/10.9.9.9'),
  fc.tuple(zone, ip).map(([name, address]) => `--server=/${name}/${address}`),
  fc.tuple(zone, fc.option(fc.oneof(ip, ip6), { nil: undefined })).map(([name, address]) => `--address=/${name}/${address ?? ''}`),
  zone.map((name) => `--local=/${name}/`),
  ip.map((address) => `--server=${address}`),
  // Names without a dot (`//`: dnsmasq's SERV_FOR_NODOTS), alone or beside a domain.
  fc.tuple(fc.constantFrom('//', '/acme.test//'), fc.oneof(ip, ip6, fc.constantFrom('#', ''))).map(([domains, address]) => `--address=${domains}${address}`),
  fc.tuple(fc.constantFrom('//', '/corp.example//'), ip).map(([domains, address]) => `--server=${domains}${address}`),
  fc.constantFrom('--local=//', '--server=//'),
);
const configMap = fc.record({
  stubs: fc.dictionary(zone, fc.array(ip, { minLength: 1, maxLength: 2 }), { maxKeys: 2 }),
  upstreams: fc.option(fc.array(ip, { minLength: 1, maxLength: 2 }), { nil: undefined }),
  federations: fc.option(fc.constantFrom('myfed=example.com', 'a=a.example,b=b.example'), { nil: undefined }),
});
const KUBE_DNS_RELEASES = ['1.14.4', '1.14.9', '1.14.10', '1.14.13', '1.22.0', '1.26.7'];
const COREDNS_RELEASES = ['1.2.6', '1.6.9', '1.8.0', '1.14.7'];

const install = fc.record({
  family: fc.constantFrom(...families),
  extra: fc.uniqueArray(extraFlag, { maxLength: 3 }),
  configMap: fc.option(configMap, { nil: undefined }),
  kubeDns: fc.constantFrom(...KUBE_DNS_RELEASES),
  coredns: fc.constantFrom(...COREDNS_RELEASES),
  repair: fc.subarray([...KUBE_DNS_QUIRKS]),
  dropFederations: fc.boolean(),
});

type InstallValue = typeof install extends fc.Arbitrary<infer T> ? T : never;

function installText(value: InstallValue): string {
  const { parts } = value.family;
  const dnsmasq = [...(parts.dnsmasq ?? STOCK_DNSMASQ_ARGS), ...(parts.withDnsmasq === false ? [] : value.extra)];
  const deployment = deploymentYaml({ ...parts, kubedns: parts.kubedns ?? STOCK_KUBEDNS_ARGS, dnsmasq, kubeDnsImage: `registry.k8s.io/dns/k8s-dns-kube-dns:${value.kubeDns}` });
  if (value.configMap === undefined) return deployment;
  const data: Record<string, string> = {};
  if (Object.keys(value.configMap.stubs).length > 0) data['stubDomains'] = JSON.stringify(value.configMap.stubs);
  if (value.configMap.upstreams !== undefined) data['upstreamNameservers'] = JSON.stringify(value.configMap.upstreams);
  if (value.configMap.federations !== undefined) data['federations'] = value.configMap.federations;
  return `${deployment}---\n${configMapYaml(data)}`;
}

describe('check on the translator’s own output', () => {
  it('passes for every install the translator accepts', () => {
    const outcomes = new Outcomes<
      | 'translated'
      | 'refused'
      | 'quirk kept'
      | 'repaired on purpose'
      | 'federations dropped'
      | 'refused: raced default servers'
      | 'raced default servers, repaired'
      | 'refused: --address=/#/'
      | "'//' kept by a template"
      | "'//' servers: names without a dot expected"
      | `family ${string}`
    >();
    fc.assert(
      fc.property(install, (value) => {
        const text = installText(value);
        const translation = translateKubeDnsInstall(readKubeDnsInstall([{ text, filename: 'install.yaml' }]), { coredns: value.coredns, repair: value.repair, dropFederations: value.dropFederations });
        const raced = translation.diagnostics.filter((entry) => entry.key === 'upstreamNameservers' && entry.message.startsWith('raced-default-servers'));
        if (!translation.ok) {
          outcomes.add('refused');
          if (raced.some((entry) => entry.severity === 'error')) outcomes.add('refused: raced default servers');
          if (translation.diagnostics.some((entry) => entry.code === 'deployment-address-every-name')) outcomes.add('refused: --address=/#/');
          return;
        }
        // dnsmasq-nanny's upstreams beside the default server to kubedns: refused unless repaired, never silently.
        // With --strict-order dnsmasq asked kubedns first for every name: no race, nothing to repair.
        if (value.family.name === 'nanny, every name to kubedns' && value.configMap?.upstreams !== undefined && !value.extra.some((flag) => /^--server=\d/.test(flag))) {
          expect(raced.map((entry) => entry.code)).toEqual(value.extra.includes('--strict-order') ? [] : ['kube-dns-quirk-repaired']);
        }
        if (raced.length > 0) outcomes.add('raced default servers, repaired');
        outcomes.add('translated');
        outcomes.add(`family ${value.family.name}`);
        if (translation.diagnostics.some((entry) => entry.code === 'kube-dns-quirk-kept')) outcomes.add('quirk kept');
        const dropped = translation.diagnostics.some((entry) => entry.code === 'federations-dropped');
        if (dropped) outcomes.add('federations dropped');
        const check = checkRouting({ kubeDns: text, corefile: translation.corefile, coredns: value.coredns, repairs: value.repair, dropFederations: value.dropFederations });
        // A repair (or dropping the federations) changes names on purpose, and check lists exactly those: none without one.
        if (check.repaired.length > 0) outcomes.add('repaired on purpose');
        if (value.repair.length === 0 && !dropped) expect(check.repaired).toEqual([]);
        const written = translation.diagnostics.filter((entry) => /^\[--(address|server|local)=\/(?:[^/]*\/)*\//.test(entry.path ?? ''));
        if (written.some((entry) => entry.code === 'dnsmasq-option-translated')) outcomes.add("'//' kept by a template");
        if (written.some((entry) => entry.code === 'deployment-flag-not-translated') && check.unavoidable.length > 0) outcomes.add("'//' servers: names without a dot expected");
        expect(check.ok, `${formatRoutingCheck(check)}\n${translation.corefile}\n${translation.diagnostics.map((entry) => `${entry.severity} ${entry.code} ${entry.path}: ${entry.message}`).join('\n')}`).toBe(true);
      }),
      { numRuns: 400 },
    );
    // Floors about a third of what seeds 1–3 counted (400 runs): the raced Pod is one family of eleven, with upstreams and
    // without --strict-order, so it came 5–20 times (once 2 of repaired); the dedicated property below asserts its own floors.
    outcomes.expectAtLeast({ translated: 250, refused: 1, 'quirk kept': 20, 'repaired on purpose': 20, 'federations dropped': 10, 'refused: raced default servers': 1, 'raced default servers, repaired': 1, 'refused: --address=/#/': 2, "'//' kept by a template": 20, "'//' servers: names without a dot expected": 10, ...Object.fromEntries(families.map((family) => [`family ${family.name}`, 5])) });
  });

  it('passes for --server=/zone/# (the default servers for a zone), under a more general server of its own or alone', () => {
    const defaultServers = fc.oneof(
      fc.constantFrom('acme.test', 'b.acme.test', 'corp.example', 'consul', 'svc.cluster.local', 'local').map((name) => [`--server=/${name}/#`]),
      fc.tuple(ip, fc.constantFrom('www.', 'a.b.', '')).map(([address, label]) => [`--server=/corp.example/${address}`, `--server=/${label}corp.example/#`]),
    );
    const outcomes = new Outcomes<'translated' | 'refused: /zone/#' | 'refused' | 'a /zone/# block' | 'under a more general server'>();
    fc.assert(
      fc.property(install, defaultServers, (value, flags) => {
        const text = installText({ ...value, extra: [...value.extra, ...flags] });
        const translation = translateKubeDnsInstall(readKubeDnsInstall([{ text, filename: 'install.yaml' }]), { coredns: value.coredns, repair: value.repair, dropFederations: value.dropFederations });
        if (!translation.ok) {
          outcomes.add(translation.diagnostics.some((entry) => entry.code === 'deployment-default-servers-not-kept') ? 'refused: /zone/#' : 'refused');
          return;
        }
        outcomes.add('translated');
        const kept = translation.diagnostics.filter((entry) => entry.code === 'deployment-flag' && /^\[--server=\/[^/]+\/#\]$/.test(entry.path ?? ''));
        if (kept.length > 0) outcomes.add('a /zone/# block');
        if (kept.length > 0 && flags.length === 2) outcomes.add('under a more general server');
        const check = checkRouting({ kubeDns: text, corefile: translation.corefile, coredns: value.coredns, repairs: value.repair, dropFederations: value.dropFederations });
        expect(check.ok, `${formatRoutingCheck(check)}\n${translation.corefile}`).toBe(true);
      }),
      { numRuns: 120 },
    );
    outcomes.expectAtLeast({ translated: 40, 'a /zone/# block': 30, 'under a more general server': 10, 'refused: /zone/#': 10 });
  });

  it("passes for a ConfigMap stub domain at or above the cluster's zones in a nanny Pod where every name reaches kubedns through dnsmasq's default server", () => {
    // The nanny's --server=/stub/… beats the default server: the zones under it went to the stub (unserved-cluster-zones).
    // Mostly the zones above the cluster's (`local`, `arpa`); the cluster's own and another zone now and then.
    const above = fc.oneof({ arbitrary: fc.constantFrom('local', 'arpa'), weight: 4 }, { arbitrary: fc.constantFrom('cluster.local', 'in-addr.arpa', 'acme.test'), weight: 1 });
    const stubs = fc.dictionary(above, fc.array(ip, { minLength: 1, maxLength: 2 }), { minKeys: 1, maxKeys: 2 });
    const nannyInstall = fc.record({ stubs, kubeDns: fc.constantFrom(...KUBE_DNS_RELEASES), coredns: fc.constantFrom(...COREDNS_RELEASES), repair: fc.subarray([...KUBE_DNS_QUIRKS]) });
    const outcomes = new Outcomes<'translated' | 'refused: the cluster domain under a stub' | 'refused' | 'a reverse zone to its stub, kept' | 'repaired on purpose'>();
    fc.assert(
      fc.property(nannyInstall, (value) => {
        const text = `${deploymentYaml({ ...NANNY_TO_KUBEDNS, kubeDnsImage: `registry.k8s.io/dns/k8s-dns-kube-dns:${value.kubeDns}` })}---\n${configMapYaml({ stubDomains: JSON.stringify(value.stubs) })}`;
        const translation = translateKubeDnsInstall(readKubeDnsInstall([{ text, filename: 'install.yaml' }]), { coredns: value.coredns, repair: value.repair });
        const held = translation.diagnostics.filter((entry) => entry.key === 'stubDomains' && entry.message.startsWith('unserved-cluster-zones'));
        if (!translation.ok) {
          outcomes.add(held.some((entry) => entry.severity === 'error') ? 'refused: the cluster domain under a stub' : 'refused');
          // Refused only for the cluster domain under a stub (or the ConfigMap's own errors), never silently.
          if (!value.repair.includes('unserved-cluster-zones') && ('local' in value.stubs || 'cluster.local' in value.stubs)) expect(held.length + translation.diagnostics.filter((entry) => entry.code === 'stub-equals-cluster-domain').length).toBeGreaterThan(0);
          return;
        }
        outcomes.add('translated');
        if (held.some((entry) => entry.code === 'kube-dns-quirk-kept')) outcomes.add('a reverse zone to its stub, kept');
        const check = checkRouting({ kubeDns: text, corefile: translation.corefile, coredns: value.coredns, repairs: value.repair });
        if (check.repaired.length > 0) outcomes.add('repaired on purpose');
        expect(check.ok, `${formatRoutingCheck(check)}\n${translation.corefile}`).toBe(true);
      }),
      { numRuns: 150 },
    );
    // Seeds counted 11-27 reverse zones kept (a floor of 12 failed on seed 890234368 with 11): the
    // floor is about a third of what they counted.
    outcomes.expectAtLeast({ translated: 40, 'refused: the cluster domain under a stub': 25, 'a reverse zone to its stub, kept': 7, 'repaired on purpose': 20 });
  });

  it('passes for upstreamNameservers beside the default server to kubedns in a nanny Pod: raced (refused unless repaired) without --strict-order, kubedns first with it', () => {
    const nannyInstall = fc.record({
      upstreams: fc.array(ip, { minLength: 1, maxLength: 2 }),
      stubs: fc.dictionary(fc.constantFrom('acme.test', 'arpa', 'corp.example'), fc.array(ip, { minLength: 1, maxLength: 2 }), { maxKeys: 1 }),
      strictOrder: fc.boolean(),
      kubeDns: fc.constantFrom(...KUBE_DNS_RELEASES),
      coredns: fc.constantFrom(...COREDNS_RELEASES),
      repair: fc.subarray(['raced-default-servers', 'kubedns-upstreams'] as const),
    });
    const outcomes = new Outcomes<'refused: raced' | 'translated: --strict-order' | 'translated: repaired' | 'translated: --strict-order and repair asked'>();
    fc.assert(
      fc.property(nannyInstall, (value) => {
        const dnsmasq = [...(NANNY_TO_KUBEDNS.dnsmasq ?? []), ...(value.strictOrder ? ['--strict-order'] : [])];
        const data: Record<string, string> = { upstreamNameservers: JSON.stringify(value.upstreams) };
        if (Object.keys(value.stubs).length > 0) data['stubDomains'] = JSON.stringify(value.stubs);
        const text = `${deploymentYaml({ dnsmasq, kubeDnsImage: `registry.k8s.io/dns/k8s-dns-kube-dns:${value.kubeDns}` })}---\n${configMapYaml(data)}`;
        const translation = translateKubeDnsInstall(readKubeDnsInstall([{ text, filename: 'install.yaml' }]), { coredns: value.coredns, repair: [...value.repair] });
        const raced = translation.diagnostics.filter((entry) => entry.message.startsWith('raced-default-servers'));
        if (value.strictOrder) {
          // dnsmasq 2.90 asks its default servers in order with --strict-order: kubedns (written first) answers every name.
          expect(raced).toEqual([]);
          expect(translation.ok).toBe(true);
        } else if (!value.repair.includes('raced-default-servers')) {
          expect(translation.ok).toBe(false);
          expect(raced.map((entry) => `${entry.severity} ${entry.code}`)).toEqual(['error kube-dns-quirk-kept']);
          outcomes.add('refused: raced');
          return;
        }
        if (!translation.ok) return;
        outcomes.add(value.strictOrder ? (value.repair.includes('raced-default-servers') ? 'translated: --strict-order and repair asked' : 'translated: --strict-order') : 'translated: repaired');
        const check = checkRouting({ kubeDns: text, corefile: translation.corefile, coredns: value.coredns, repairs: [...value.repair] });
        expect(check.ok, `${formatRoutingCheck(check)}\n${translation.corefile}`).toBe(true);
        // Nothing raced: with --strict-order no name is listed as repaired by raced-default-servers.
        if (value.strictOrder && !value.repair.includes('kubedns-upstreams')) expect(check.repaired).toEqual([]);
      }),
      { numRuns: 240 },
    );
    // About a third of what seeds 1–3 and 1298885078 counted in 240 runs (refused 69–77, --strict-order 55–64, repaired
    // 43–62, both 46–63); 80 runs with a floor of 8 had failed on seed 1298885078 (7 repaired).
    outcomes.expectAtLeast({ 'refused: raced': 24, 'translated: --strict-order': 20, 'translated: repaired': 15, 'translated: --strict-order and repair asked': 15 });
  });
});
