import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverBlocks } from '../../src/corefile/model.js';
import type { ServerBlock } from '../../src/corefile/model.js';
import { parseCorefile } from '../../src/corefile/parser.js';
import { printCorefile } from '../../src/corefile/printer.js';
import { isCoreDnsVersion, NEWEST_COREDNS_VERSION, parseCoreDnsVersion } from '../../src/coredns/versions.js';
import type { CoreDnsVersion } from '../../src/coredns/versions.js';
import { DEFAULT_CLUSTER_DOMAIN } from '../../src/dns/zones.js';
import { KubeDnsToCoreDnsError } from '../../src/errors/kube-dns-to-coredns-error.js';
import { nannyAppendedArgs } from '../../src/kubedns/dnsmasq-nanny-args.js';
import { readKubeDnsInstall } from '../../src/kubedns/kube-dns-install.js';
import { kubeDnsPod, kubeDnsVersionOfImage } from '../../src/kubedns/kube-dns-pod.js';
import { isKubeDnsQuirk } from '../../src/kubedns/kube-dns-quirks.js';
import type { KubeDnsQuirk } from '../../src/kubedns/kube-dns-quirks.js';
import { readKubeDnsConfig } from '../../src/kubedns/read-kube-dns-config.js';
import { checkRouting, routingModels } from '../../src/routing/check.js';
import { describeDestination, sameDestination } from '../../src/routing/destination.js';
import type { RouteDestination } from '../../src/routing/destination.js';
import { translateKubeDnsInstall } from '../../src/translate/translate.js';
import type { TranslationResult } from '../../src/translate/translate.js';
import { claimLoopbackRange, describeAnswer, dnsmasqKey, FakeNetwork, fits, NX_LABEL, socketKey } from '../support/dns-comparison.js';
import type { Answer, Fake, LoopbackRange, QueryType } from '../support/dns-comparison.js';
import { configMapYaml, deploymentYaml, STOCK_DNSMASQ_ARGS, STOCK_KUBEDNS_ARGS } from '../support/kube-dns-manifests.js';
import { Outcomes } from '../support/outcomes.js';
import { REAL_COREDNS_RELEASES, realCoreDnsSkip, useRealCoreDnsLab } from '../support/real-coredns.js';
import type { RealCoreDnsRelease, RunningCoreDns } from '../support/real-coredns.js';
import { findDnsmasq, Lab } from './dnsmasq-harness.js';

/**
 * "Routing preserved", proven by the two programs: real dnsmasq (Debian's 2.90), started with the
 * Deployment's dnsmasq arguments and what dnsmasq-nanny appends for the ConfigMap, and the real
 * CoreDNS release the translation targets, running the translator's Corefile, answer the same names
 * through the same fake servers on loopback (test/support/dns-comparison.ts), for the translate and
 * deployment goldens and a generated sample. For every name `check` compares:
 * - each answer must be one its routing model allows (the models, checked against the programs);
 * - both programs must agree: the same answer, or two picks among the same servers (two answers of
 *   their own, dnsmasq's and a template's, only with the same rcode and records);
 * - a missing name asked twice must reach a server as often.
 * Every name is asked A, AAAA and MX; ANY where an answer depends on the type and for names without
 * a dot. A difference passes only when the translator reported it, by code:
 * `negative-caching-shortened` (before CoreDNS 1.9.4 NXDOMAIN is kept up to 1 s),
 * `deployment-flag-not-translated` for `--domain-needed`, `--server=//IP` or a
 * `trailing-dot-domains` server list (names without a dot), `any-query-one-family` for ANY under
 * `--address=…/#` alone (dnsmasq answers both null addresses, a template one).
 *
 * Speed: one CoreDNS process per release serves every input's Corefile, each on ports of its own
 * (the listeners that answer no DNS — health, ready, prometheus, pprof — left out); one dnsmasq per
 * input, a few at a time. The file claims a loopback range of its own (claimLoopbackRange).
 *
 * The fake kubedns answers the cluster's names itself (NXDOMAIN with the cluster's SOA: like the
 * fake Kubernetes API of CoreDNS it has no Services) and forwards everything else to kubedns's own
 * resolver (docs/kube-dns-deployment.md, "Who applied the ConfigMap"), so reverse lookups fall
 * through on both sides. Not compared: the apex of the reverse zones (kubedns's own answer there is
 * not modelled); inputs with host-name nameservers or federations are not started.
 */

const root = join(import.meta.dirname, '../..');
const dnsmasq = findDnsmasq();
const skip = dnsmasq === undefined ? 'dnsmasq is not installed (scripts/ci-dnsmasq.sh)' : realCoreDnsSkip('test/routing/dnsmasq-coredns-comparison.test.ts');
if (dnsmasq === undefined) console.warn(`test/routing/dnsmasq-coredns-comparison.test.ts skipped: ${skip}`);

interface Case {
  readonly name: string;
  /** The install as the CLI reads it (ConfigMap and/or Deployment). */
  readonly text: string;
  readonly coredns: CoreDnsVersion;
  readonly clusterDomain?: string;
  readonly kubeDnsVersion?: string;
  readonly repair?: readonly KubeDnsQuirk[];
}

type Outcome =
  | 'compared'
  | 'same as another input'
  | 'not started'
  | 'refused'
  | 'no real release'
  | 'names compared'
  | 'NXDOMAIN repeats compared'
  | 'NXDOMAIN answered NOERROR under an address'
  | 'reported: address-nxdomain-not-kept'
  | 'answered by a fake server'
  | 'answered by the cluster'
  | 'answered locally'
  | 'reported: negative-caching-shortened'
  | 'reported: names without a dot'
  | 'not compared: names without a dot under an older dnsmasq'
  | 'AAAA and MX compared'
  | 'ANY compared'
  | 'ANY compared: answered by an address'
  | 'reported: ANY under an address of # alone'
  | 'ANY record types compared with a model'
  | 'answered by the type of an address, others on (dnsmasq 2.86+)'
  | 'model only: an address zone under dnsmasq before 2.86'
  | 'nanny Pod: a stub above the cluster zones'
  | 'sample: a nanny Pod to kubedns with a stub above the cluster zones'
  | "sample: names without a dot ('//')"
  | 'NODATA template with an SOA (before 1.5.1)'
  | `release ${RealCoreDnsRelease}`;

/** Options the comparison does not follow: cases with them are left out. */
const NOT_FOLLOWED = ['--force', '--drop-federations', '--cluster-dns-ip', '--kubeadm', '--node-local-dns', '--merge', '--batch', '--platform'];

/** The CLI's `# options:` line of a golden input, as translate options; undefined when not followed. */
function caseOptions(text: string): Omit<Case, 'name' | 'text'> | undefined {
  const options = (/^# options:(.*)$/m.exec(text)?.[1] ?? '').trim().split(/\s+/).filter(Boolean);
  const value = (flag: string) => {
    const index = options.indexOf(flag);
    return index === -1 ? undefined : options[index + 1];
  };
  if (options.some((option) => NOT_FOLLOWED.includes(option)) || options[0] === 'cutover') return undefined;
  const coredns = value('--coredns');
  // A release text resolved only with a notice (a suffix, a newer release): the real release is not the target.
  if (coredns !== undefined && (!/^\d+\.\d+\.\d+$/.test(coredns) || !isCoreDnsVersion(coredns))) return undefined;
  const repair = value('--repair')?.split(',').filter(isKubeDnsQuirk);
  const clusterDomain = value('--cluster-domain');
  const kubeDnsVersion = value('--kube-dns-version');
  return {
    coredns: coredns === undefined ? NEWEST_COREDNS_VERSION : parseCoreDnsVersion(coredns),
    ...(repair === undefined ? {} : { repair }),
    ...(clusterDomain === undefined ? {} : { clusterDomain }),
    ...(kubeDnsVersion === undefined ? {} : { kubeDnsVersion }),
  };
}

function yamlFiles(folder: string): string[] {
  return readdirSync(folder)
    .filter((name) => name.endsWith('.yaml'))
    .sort();
}

/** The translate and deployment goldens (and the installs', whose Corefile is the translation's: repeats are dropped later). */
function goldenCases(): Case[] {
  const cases: Case[] = [];
  for (const folder of ['deployment', 'install']) {
    for (const file of yamlFiles(join(root, 'golden', folder))) {
      const text = readFileSync(join(root, 'golden', folder, file), 'utf8');
      for (const coredns of ['1.8.0', '1.14.7'] as const) cases.push({ name: `${folder}/${file} @${coredns}`, text, coredns });
    }
  }
  for (const file of yamlFiles(join(root, 'golden', 'translate', 'codes'))) {
    const text = readFileSync(join(root, 'golden', 'translate', 'codes', file), 'utf8');
    const options = caseOptions(text);
    if (options !== undefined) cases.push({ name: `codes/${file}`, text, ...options });
  }
  for (const file of yamlFiles(join(root, 'golden', 'realworld', 'kube-dns'))) {
    cases.push({ name: `realworld/${file} @1.14.7`, text: readFileSync(join(root, 'golden', 'realworld', 'kube-dns', file), 'utf8'), coredns: '1.14.7' });
  }
  return cases;
}

const KUBEDNS = '127.0.0.1#10053';
const toKubeDns = (zone: string) => `--server=/${zone}/${KUBEDNS}`;
const STOCK_ZONES = ['cluster.local', 'in-addr.arpa', 'ip6.arpa'].map(toKubeDns);

/** The dnsmasq flags of the manifest families the docs name (test/routing/own-output.property.test.ts has the same). */
const FAMILIES: Readonly<Record<string, { readonly dnsmasq?: readonly string[]; readonly kubedns?: readonly string[]; readonly nanny?: boolean; readonly withDnsmasq?: boolean }>> = {
  'stock 1.9+': { dnsmasq: STOCK_DNSMASQ_ARGS },
  'stock before --no-negcache': { dnsmasq: ['--cache-size=1000', ...STOCK_ZONES] },
  'kops in6.arpa typo': { dnsmasq: ['--cache-size=1000', '--no-negcache', toKubeDns('cluster.local'), toKubeDns('in-addr.arpa'), toKubeDns('in6.arpa')] },
  'no nanny (Kubernetes 1.3-1.5)': { nanny: false, kubedns: ['--domain=cluster.local.', '--dns-port=10053'], dnsmasq: ['--cache-size=1000', '--no-resolv', `--server=${KUBEDNS}`] },
  'no nanny with zones': { nanny: false, dnsmasq: ['--cache-size=1000', '--no-negcache', ...STOCK_ZONES] },
  'kubespray --local': { dnsmasq: [...STOCK_DNSMASQ_ARGS, '--local=/internal./local./lc./'] },
  'aws private zone': { dnsmasq: [...STOCK_DNSMASQ_ARGS, '--server=/corp.internal/10.3.0.2', '-R', '--server=10.3.0.8', '--address=/blocked.example/'] },
  'no dnsmasq': { withDnsmasq: false },
  // dnsmasq-nanny with every name to kubedns through the default server: a ConfigMap stub above the cluster's zones beats it.
  'nanny to kubedns': { dnsmasq: ['--cache-size=1000', '--no-resolv', `--server=${KUBEDNS}`] },
};

/** Every sixth input of the sample is a nanny Pod sending every name to kubedns, with a stub domain above the cluster's zones. */
const NANNY_TO_KUBEDNS_EVERY = 6;

/**
 * A ConfigMap stub domain at or above the cluster's zones in a nanny Pod where every name reaches
 * kubedns through dnsmasq's default server: the nanny's `--server=/local/…` (or `/arpa/`) beats
 * it, so those zones went to the stub (`unserved-cluster-zones`): `arpa` kept, `local` refused
 * (the outcome `refused`) and repaired on request (the repaired names are not compared).
 */
function nannyStubCases(): Case[] {
  const deployment = deploymentYaml({ dnsmasq: ['--cache-size=1000', '--no-resolv', `--server=${KUBEDNS}`], kubeDnsImage: 'registry.k8s.io/dns/k8s-dns-kube-dns:1.22.20' });
  const withStubs = (stubs: string) => `${deployment}---\n${configMapYaml({ stubDomains: stubs })}`;
  return [
    { name: 'nanny to kubedns, stub arpa @1.14.7', text: withStubs('{"arpa": ["10.4.0.2"], "acme.test": ["10.4.0.3"]}'), coredns: '1.14.7' },
    { name: 'nanny to kubedns, stub local @1.14.7', text: withStubs('{"local": ["10.4.0.4"]}'), coredns: '1.14.7' },
    { name: 'nanny to kubedns, stub local repaired @1.14.7', text: withStubs('{"local": ["10.4.0.4"]}'), coredns: '1.14.7', repair: ['unserved-cluster-zones'] },
    { name: 'nanny to kubedns, stub local repaired @1.8.0', text: withStubs('{"local": ["10.4.0.4"]}'), coredns: '1.8.0', repair: ['unserved-cluster-zones'] },
  ];
}

/**
 * `--address` zones of every shape (IPv4, IPv6, both, with `--local`, under a stub, at a stub's
 * zone, inside the cluster domain, under an NXDOMAIN zone) in one Deployment per dnsmasq era:
 * kube-dns 1.22.20 (dnsmasq 2.86+: an address answers its type, the others go on) and 1.22.0 and
 * 1.14.13 (older dnsmasq: NODATA, compared with the model only, as the lab's dnsmasq is 2.90).
 */
function addressCases(): Case[] {
  const flags = [
    '--address=/v4.example/10.9.9.9',
    '--address=/v6.example/fd00::9',
    '--address=/both.example/10.9.9.8',
    '--address=/both.example/fd00::8',
    '--address=/local4.example/10.9.9.7',
    '--local=/local4.example/',
    '--address=/local6.example/fd00::7',
    '--address=/local6.example/',
    '--server=/corp.example/10.3.0.2',
    '--address=/a.corp.example/10.9.9.6',
    '--server=/same.example/10.3.0.3',
    '--address=/same.example/10.9.9.5',
    '--address=/x.cluster.local/10.9.9.4',
    '--local=/parent.example/',
    '--address=/c.parent.example/10.9.9.3',
    // A server below an address (dnsmasq 2.86+ answers its NXDOMAIN NOERROR: #18 trial H2).
    '--address=/h2.example/10.9.9.2',
    '--server=/b.h2.example/10.3.0.4',
    // `#` alone (both null addresses; ANY gets one from a template: any-query-one-family), beside an address, two of a family.
    '--address=/zeros.example/#',
    '--address=/zv4.example/10.9.9.12',
    '--address=/zv4.example/#',
    '--address=/two.example/10.9.9.10',
    '--address=/two.example/10.9.9.11',
    '--address=/two.example/fd00::10',
    '--address=/two.example/fd00::11',
  ];
  return (['1.22.20', '1.22.0', '1.14.13'] as const).flatMap((kubeDns) =>
    (kubeDns === '1.22.20' ? (['1.2.6', '1.14.7'] as const) : (['1.14.7'] as const)).map((coredns): Case => ({
      name: `addresses kube-dns ${kubeDns} @${coredns}`,
      text: deploymentYaml({ kubedns: STOCK_KUBEDNS_ARGS, dnsmasq: [...STOCK_DNSMASQ_ARGS, ...flags], kubeDnsImage: `registry.k8s.io/dns/k8s-dns-kube-dns:${kubeDns}` }),
      coredns,
    })),
  );
}

/** A generated sample: a family, extra flags, a ConfigMap, a kube-dns and a CoreDNS release (seeded: the seed is in each case's name). */
function sampleCases(seed: number, count: number): Case[] {
  const zone = fc.constantFrom('acme.test', 'corp.example', 'consul', 'b.acme.test', 'local', 'arpa', '10.in-addr.arpa', 'x.cluster.local');
  const ip = fc.tuple(fc.integer({ min: 11, max: 99 }), fc.integer({ min: 1, max: 254 })).map(([a, b]) => `10.${a}.0.${b}`);
  const ip6 = fc.integer({ min: 1, max: 0xffff }).map((last) => `fd00::${last.toString(16)}`);
  const extra = fc.oneof(
    fc.constantFrom('--strict-order', '--no-negcache', '--cache-size=0'),
    fc.tuple(zone, ip).map(([name, address]) => `--server=/${name}/${address}`),
    fc.tuple(zone, fc.option(fc.oneof(ip, ip6, fc.constant('#')), { nil: undefined })).map(([name, address]) => `--address=/${name}/${address ?? ''}`),
    zone.map((name) => `--local=/${name}/`),
    fc.tuple(zone, zone).map(([a, b]) => `--local=/${a}./${b}/`),
    // Names without a dot (`//`, dnsmasq's SERV_FOR_NODOTS).
    fc.oneof(ip, ip6, fc.constant('#')).map((address) => `--address=//${address}`),
    ip.map((address) => `--server=//${address}`),
    fc.constant('--local=//'),
  );
  const configMap = fc.record({
    stubs: fc.dictionary(zone, fc.array(ip, { minLength: 1, maxLength: 2 }), { maxKeys: 2 }),
    upstreams: fc.option(fc.array(ip, { minLength: 1, maxLength: 2 }), { nil: undefined }),
  });
  const install = fc.record({
    family: fc.constantFrom(...Object.keys(FAMILIES)),
    extra: fc.uniqueArray(extra, { maxLength: 2 }),
    configMap: fc.option(configMap, { nil: undefined }),
    kubeDns: fc.constantFrom('1.14.9', '1.14.13', '1.22.20', '1.26.7'),
  });
  return fc.sample(install, { numRuns: count, seed }).map((generated, index): Case => {
    // The releases in turn, so that each gets a quarter of the sample; every sixth input a nanny Pod to kubedns with a stub above the cluster's zones.
    // `arpa` (kept: the reverse zones go to the stub) and `local` (refused unless repaired: the cluster domain never reached kubedns) in turn;
    // upstreamNameservers beside kubedns are raced (refused) unless --strict-order, so the `arpa` inputs keep them only with it.
    const nannyToKubeDns = index % NANNY_TO_KUBEDNS_EVERY === NANNY_TO_KUBEDNS_EVERY - 1;
    const above = Math.floor(index / NANNY_TO_KUBEDNS_EVERY) % 2 === 0 ? 'arpa' : 'local';
    const raced = above === 'arpa' && !generated.extra.includes('--strict-order');
    // (Without the flags and stubs on `local` that would refuse the `arpa` inputs for the cluster domain as well.)
    const stubs = Object.fromEntries(Object.entries(generated.configMap?.stubs ?? {}).filter(([name]) => above === 'local' || name !== 'local'));
    const forced = nannyToKubeDns
      ? {
          family: 'nanny to kubedns',
          // (`/local./` too: a trailing dot names the same zone, seed -1405751296 drew `--local=/local./consul/`.)
          // Nor --cache-size: the family sets it, and dnsmasq exits on a repeated one (seed 1088804864).
          extra: generated.extra.filter((flag) => !flag.startsWith('--cache-size=') && (above === 'local' || !/\/local\.?\//.test(flag))),
          configMap: { upstreams: raced ? undefined : generated.configMap?.upstreams, stubs: { ...stubs, [above]: ['10.4.0.9'] } },
        }
      : {};
    const value = { ...generated, ...forced, coredns: REAL_COREDNS_RELEASES[index % REAL_COREDNS_RELEASES.length] as RealCoreDnsRelease };
    const parts = FAMILIES[value.family] ?? {};
    const deployment = deploymentYaml({
      ...parts,
      kubedns: parts.kubedns ?? STOCK_KUBEDNS_ARGS,
      dnsmasq: [...(parts.dnsmasq ?? STOCK_DNSMASQ_ARGS), ...(parts.withDnsmasq === false ? [] : value.extra)],
      kubeDnsImage: `registry.k8s.io/dns/k8s-dns-kube-dns:${value.kubeDns}`,
    });
    const data: Record<string, string> = {};
    if (value.configMap !== undefined && Object.keys(value.configMap.stubs).length > 0) data['stubDomains'] = JSON.stringify(value.configMap.stubs);
    if (value.configMap?.upstreams !== undefined) data['upstreamNameservers'] = JSON.stringify(value.configMap.upstreams);
    const text = value.configMap === undefined ? deployment : `${deployment}---\n${configMapYaml(data)}`;
    return { name: `sample ${index} (seed ${seed}): ${value.family} ${value.extra.join(' ')}${nannyToKubeDns ? ` stub ${above}` : ''} kube-dns ${value.kubeDns} @${value.coredns}`, text, coredns: value.coredns };
  });
}

/** dnsmasq options the lab sets itself, or that only send probes. */
const LAB_OWNED = /^(-k|--keep-in-foreground|--log-facility(=.*)?|-8.*|--dns-loop-detect|--port=.*|-p\d*|--user=.*|--pid-file=.*)$/;
/** Listeners that answer no DNS: left out of the shared CoreDNS process (they would collide across inputs). */
const LISTENERS = new Set(['health', 'ready', 'prometheus', 'pprof']);
/** The first port written for the inputs' keys in the shared Corefiles (one port per input). */
const FIRST_CASE_PORT = 10_000;
/** The query types every name is asked with: A, and AAAA and MX, which an `--address` zone may route elsewhere. */
const QUERY_TYPES: readonly QueryType[] = ['A', 'AAAA', 'MX'];
/** dnsmasq processes running at once. */
const CONCURRENCY = 6;

/** An input ready to compare: the translation, the kube-dns side's arguments and the Corefile's destinations, moved to the fakes. */
interface Prepared {
  readonly testCase: Case;
  readonly translation: TranslationResult & { readonly ok: true };
  readonly real: RealCoreDnsRelease;
  /** dnsmasq's arguments, or undefined when the Pod has no dnsmasq (clients ask kubedns). */
  readonly dnsmasqArgs: readonly string[] | undefined;
  readonly kubedns: Fake;
  /** The Corefile's forward/proxy destinations, as written, to the fakes' addresses (or the lab's resolv.conf). */
  readonly destinations: ReadonlyMap<string, string>;
  /** The port written for this input's keys in its release's shared Corefile. */
  port: number;
  /**
   * The Pod's dnsmasq (before kube-dns 1.22.1: 2.85 or older) read a domain list ending a domain in
   * a dot before its last one unlike the lab's 2.90 (docs/kube-dns-deployment.md, "Domains that end
   * in a dot"): names without a dot cannot be compared.
   */
  readonly olderDnsmasqDiffers: boolean;
  /**
   * The Pod's dnsmasq (before kube-dns 1.22.1: 2.85 or older) answered the other query types of an
   * `--address` zone NODATA, where the lab's 2.90 looks them up further (docs/kube-dns-deployment.md,
   * "Query types of an address"): the names of those zones are compared with the model only.
   */
  readonly olderAddressTypes: boolean;
}

/** The record types of an answer of a program's own (`A 0.0.0.0, AAAA ::`), sorted and joined; '' for none. */
function recordTypes(rcode: string): string {
  return [...new Set(rcode.split(', ').flatMap((record) => /^([A-Z0-9]+) /.exec(record)?.[1] ?? []))].sort().join();
}

/** An input the fakes cannot stand in for (a host-name nameserver): not started. */
class NotComparable extends Error {}

describe.skipIf(skip !== undefined)('real dnsmasq against real CoreDNS', () => {
  let range: LoopbackRange | undefined;
  const coreDnsLab = useRealCoreDnsLab();
  let lab: Lab;
  let network: FakeNetwork;
  let resolvConf = '';
  const running: RunningCoreDns[] = [];

  beforeAll(async () => {
    range = await claimLoopbackRange();
    lab = new Lab(`${range.prefix}2.`);
    network = new FakeNetwork(range.prefix);
    resolvConf = await network.resolvConf(lab.directory);
  });

  afterAll(async () => {
    for (const server of running) await server.stop();
    network?.close();
    await lab?.close();
    await range?.release();
  });

  /** Translates the input and moves both sides onto the fakes; undefined (with the outcome) when it is not compared. */
  async function prepare(testCase: Case, outcomes: Outcomes<Outcome>): Promise<Prepared | undefined> {
    let install;
    try {
      install = readKubeDnsInstall([{ text: testCase.text, filename: testCase.name }]);
    } catch (error) {
      // The CLI refuses such input (exit 2) as well.
      if (!(error instanceof KubeDnsToCoreDnsError)) throw error;
      outcomes.add('refused');
      return undefined;
    }
    const options = {
      coredns: testCase.coredns,
      ...(testCase.clusterDomain === undefined ? {} : { clusterDomain: testCase.clusterDomain }),
      ...(testCase.kubeDnsVersion === undefined ? {} : { kubeDnsVersion: testCase.kubeDnsVersion }),
      ...(testCase.repair === undefined ? {} : { repair: testCase.repair }),
    };
    const translation = translateKubeDnsInstall(install, options);
    if (!translation.ok) {
      outcomes.add('refused');
      return undefined;
    }
    // The programs are compared only where the target is a real release itself.
    const real = REAL_COREDNS_RELEASES.find((release) => release === translation.coredns);
    if (real === undefined) {
      outcomes.add('no real release');
      return undefined;
    }
    const corefile = translation.corefile;
    // Up to 1.5.0 a template answering NOERROR without a record needs one in its authority section (lint's
    // requirement-missing): the translator gives those an SOA; they are compared like every other input.
    if (real === '1.2.6' && /template ANY ANY \{\n(?: {8}match [^\n]*\n)? {8}rcode NOERROR\n {8}authority "[^"]* IN SOA /.test(corefile)) outcomes.add('NODATA template with an SOA (before 1.5.1)');
    if (/\bfederation\b/.test(corefile) || /(forward|proxy) \.[^\n]*[a-z]{2,}\.[a-z]/.test(corefile.replace(/\/etc\/resolv\.conf/g, ''))) {
      outcomes.add('not started');
      return undefined;
    }
    try {
      return await moveToFakes(testCase, translation, real, install);
    } catch (error) {
      if (!(error instanceof NotComparable)) throw error;
      outcomes.add('not started');
      return undefined;
    }
  }

  async function moveToFakes(testCase: Case, translation: TranslationResult & { readonly ok: true }, real: RealCoreDnsRelease, install: ReturnType<typeof readKubeDnsInstall>): Promise<Prepared> {
    // kube-dns: what the Pod ran (the reading the translator documents).
    const deployment = install.deployment;
    const kubeDnsVersion = testCase.kubeDnsVersion ?? kubeDnsVersionOfImage(deployment?.kubedns?.image);
    const reading = readKubeDnsConfig(install.configMap?.data ?? null, kubeDnsVersion === undefined ? {} : { kubeDnsVersion });
    const config = reading.acceptedByKubeDns ? reading.config : { stubDomains: [], upstreamNameservers: undefined };
    const clusterDomain = (testCase.clusterDomain ?? deployment?.kubedns?.args.values.domain ?? DEFAULT_CLUSTER_DOMAIN).replace(/\.$/, '');
    const pod = kubeDnsPod(deployment, reading.rules.version, clusterDomain);
    const configUpstreams = (config.upstreamNameservers ?? []).map((entry) => entry.value);
    const resolverKeys =
      pod.kubednsUpstreams.kind === 'configmap' && configUpstreams.length > 0
        ? configUpstreams.map(socketKey)
        : pod.kubednsUpstreams.kind === 'nameservers'
          ? pod.kubednsUpstreams.servers.map(socketKey)
          : ['resolv.conf'];
    // SkyDNS picks among its nameservers; the fake kubedns asks the first.
    const resolver = await network.fakeFor(resolverKeys[0] ?? 'resolv.conf');
    const kubedns = await network.kubedns(clusterDomain, resolver);
    const fakeOf = async (key: string | undefined, what: string): Promise<Fake> => {
      if (key === undefined) throw new NotComparable(`${what} is no address`);
      return network.fakeFor(key);
    };

    let dnsmasqArgs: string[] | undefined;
    if (deployment === undefined || deployment.dnsmasq !== undefined) {
      const manifest = deployment?.dnsmasq?.dnsmasqArgs ?? STOCK_DNSMASQ_ARGS;
      const stubs = new Map(config.stubDomains.map((stub) => [stub.domain, stub.nameservers.map((entry) => entry.value)]));
      const all = [...manifest, ...(pod.nannyAppliesConfigMap ? nannyAppendedArgs(stubs, configUpstreams).argv : [])];
      dnsmasqArgs = [];
      for (let position = 0; position < all.length; position += 1) {
        const arg = all[position] as string;
        if (LAB_OWNED.test(arg)) continue;
        const separate = (arg === '--server' || arg === '-S' || arg === '--local') && position + 1 < all.length;
        const value = separate ? (all[position + 1] as string) : /^(--server=|--local=|-S)(.*)$/.exec(arg)?.[2];
        if (value === undefined) {
          dnsmasqArgs.push(arg);
          continue;
        }
        if (separate) position += 1;
        const domains = value.startsWith('/') ? value.slice(0, value.lastIndexOf('/') + 1) : '';
        const address = value.slice(domains.length);
        let moved = address;
        if (address !== '' && address !== '#') {
          const [target = ''] = address.split('@');
          const key = dnsmasqKey(target);
          const fake = key === `127.0.0.1:${deployment?.kubedns?.args.values.dnsPort ?? 10053}` ? kubedns : await fakeOf(key, `dnsmasq server '${address}'`);
          moved = `${fake.ip}#${fake.port}`;
        }
        dnsmasqArgs.push(`--server=${domains}${moved}`);
      }
      dnsmasqArgs.push(`--resolv-file=${resolvConf}`);
    }

    // Every destination of the Corefile to its fake (or the lab's resolv.conf).
    const destinations = new Map<string, string>();
    for (const directive of serverBlocks(parseCorefile(translation.corefile).corefile).flatMap((block) => block.directives)) {
      if (directive.name !== 'forward' && directive.name !== 'proxy') continue;
      for (const text of directive.arguments.slice(1)) {
        if (text === '/etc/resolv.conf') {
          destinations.set(text, resolvConf);
          continue;
        }
        const fake = await fakeOf(socketKey(text), `forward destination '${text}'`);
        destinations.set(text, `${fake.ip}:${fake.port}`);
      }
    }
    const settings = deployment?.dnsmasq?.dnsmasq;
    // Entries written for names without a dot (`//`) too: before 2.86 an NXDOMAIN entry beat servers for them, and an address answered its other types NODATA.
    const olderDnsmasqDiffers = !pod.dnsmasqTrailingDotUnqualified && settings !== undefined && [...settings.servers, ...settings.addresses].some((entry) => entry.trailingDotUnqualified || entry.domains?.includes('') === true);
    return { testCase, translation, real, dnsmasqArgs, kubedns, destinations, port: 0, olderDnsmasqDiffers, olderAddressTypes: !pod.dnsmasqAddressTypesOnly };
  }

  /** One Corefile serving every input of `real` on its own port, without the listeners that answer no DNS. */
  function sharedCorefile(inputs: readonly Prepared[]): string {
    const blocks: ServerBlock[] = [];
    for (const input of inputs) {
      for (const block of serverBlocks(parseCorefile(input.translation.corefile).corefile)) {
        blocks.push({
          ...block,
          keys: block.keys.map((key) => `${key.replace(/:\d+$/, '')}:${input.port}`),
          directives: block.directives.filter((directive) => !LISTENERS.has(directive.name)),
        });
      }
    }
    return printCorefile({ items: blocks });
  }

  /** Compares one input on both programs; returns the problems found. */
  async function compare(input: Prepared, coredns: RunningCoreDns, index: number, outcomes: Outcomes<Outcome>): Promise<string[]> {
    const { testCase, translation } = input;
    const port = coredns.dnsPortFor(input.port);
    if (port === undefined) throw new Error(`${testCase.name}: no CoreDNS port for ${input.port}`);
    const askCoreDns = (name: string, type: QueryType = 'A') => network.query(coredns.ip, port, name, type);
    let ask: (name: string, type?: QueryType) => Promise<Answer>;
    let stop = async (): Promise<void> => undefined;
    if (input.dnsmasqArgs === undefined) {
      ask = (name, type) => network.query(input.kubedns.ip, input.kubedns.port, name, type);
    } else {
      const server = await lab.startDnsmasq(dnsmasq as string, input.dnsmasqArgs);
      if (server.log().includes('FAILED') || (await Promise.race([server.exited.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), 50))]))) {
        throw new Error(`${testCase.name}: dnsmasq did not start: ${server.log()}\n${input.dnsmasqArgs.join(' ')}`);
      }
      stop = () => server.stop();
      ask = (name, type) => network.query(server.listen.ip, server.listen.port, name, type);
    }
    const problems: string[] = [];
    try {
      const modelOptions = {
        ...(testCase.repair === undefined ? {} : { repairs: testCase.repair }),
        ...(testCase.clusterDomain === undefined ? {} : { clusterDomain: testCase.clusterDomain }),
        ...(testCase.kubeDnsVersion === undefined ? {} : { kubeDnsVersion: testCase.kubeDnsVersion }),
      };
      const check = checkRouting({ kubeDns: testCase.text, corefile: translation.corefile, coredns: testCase.coredns, ...modelOptions });
      const names = check.names.filter((name) => !['arpa', 'in-addr.arpa', 'ip6.arpa'].includes(name) && !check.repaired.some((difference) => difference.name === name));
      const models = routingModels({ kubeDns: testCase.text, corefile: translation.corefile, ...modelOptions });
      // Names without a dot may differ where the translator said so, by code.
      const unqualifiedReported = translation.diagnostics.some(
        (entry) => entry.code === 'deployment-flag-not-translated' && ((entry.path ?? '').includes('--domain-needed') || entry.message.startsWith('trailing-dot-domains') || /^\[--(server|address|local)=\/(?:[^/]*\/)*\//.test(entry.path ?? '')),
      );
      // Every name at once, one query type after the other (distinct questions: no answer depends on
      // another's; all types at once would pass dnsmasq's 150 queries in flight), each asked of both programs.
      const answers: { name: string; type: QueryType; pair: [Answer, Answer] }[] = [];
      for (const type of QUERY_TYPES) answers.push(...(await Promise.all(names.map(async (name) => ({ name, type, pair: await Promise.all([ask(name, type), askCoreDns(name, type)]) })))));
      // ANY where an answer depends on the type (an --address, a typed template) and for names without a dot.
      const anyNames = names.filter((name) => models.kubeDns.dependsOnType(name) || models.coreDns.dependsOnType(name) || (name !== '' && !name.includes('.')));
      answers.push(...(await Promise.all(anyNames.map(async (name) => ({ name, type: 'ANY' as const, pair: await Promise.all([ask(name, 'ANY'), askCoreDns(name, 'ANY')]) })))));
      // A template answers one type: where dnsmasq answered ANY with both null addresses (--address=//#), the translator said so.
      const anyReported = translation.diagnostics.some((entry) => entry.code === 'any-query-one-family');
      for (const { name, type, pair } of answers) {
        const [kube, core] = pair;
        if (type === 'A') {
          outcomes.add('names compared');
          outcomes.add(kube.kind === 'server' ? 'answered by a fake server' : kube.kind === 'cluster' ? 'answered by the cluster' : 'answered locally');
        } else if (type === 'ANY') outcomes.add(kube.kind === 'rcode' && /^(A|AAAA) /.test(kube.rcode) ? 'ANY compared: answered by an address' : 'ANY compared');
        else outcomes.add('AAAA and MX compared');
        const kubeRoute: RouteDestination = models.kubeDns.route(name, type).destination;
        const coreRoute: RouteDestination = models.coreDns.route(name, type).destination;
        const shown = `${name === '' ? '.' : name} ${type}: dnsmasq ${describeAnswer(kube)}, CoreDNS ${describeAnswer(core)}`;
        const typed = models.kubeDns.dependsOnType(name);
        if (typed && input.olderAddressTypes) {
          // The lab's dnsmasq is 2.90: the Pod's older one is the model, which CoreDNS must match.
          outcomes.add('model only: an address zone under dnsmasq before 2.86');
          if (!fits(core, kubeRoute) || !sameDestination(kubeRoute, coreRoute)) problems.push(`${testCase.name}: ${shown}; the kube-dns model (dnsmasq before 2.86) says ${describeDestination(kubeRoute)}, the CoreDNS model ${describeDestination(coreRoute)}`);
          continue;
        }
        if (typed && type !== 'A' && kube.kind !== 'rcode') outcomes.add('answered by the type of an address, others on (dnsmasq 2.86+)');
        // Two answers of the programs' own (dnsmasq's, a template's) are the same only with the same rcode and records.
        const own = kube.kind === 'rcode' && core.kind === 'rcode' && !kube.rcode.endsWith('from a server') && !core.rcode.endsWith('from a server');
        const same = describeAnswer(kube) === describeAnswer(core) || (!own && sameDestination(kubeRoute, coreRoute) && fits(kube, coreRoute) && fits(core, kubeRoute));
        if (type === 'ANY') {
          // The models' record types of an ANY answer (check's anyAnswers), against the programs' own answers.
          for (const [side, answer, types] of [['kube-dns', kube, models.kubeDns.anyRecordTypes(name)], ['CoreDNS', core, models.coreDns.anyRecordTypes(name)]] as const) {
            if (types === undefined || answer.kind !== 'rcode' || answer.rcode.endsWith('from a server')) continue;
            outcomes.add('ANY record types compared with a model');
            const real = recordTypes(answer.rcode);
            if (real !== [...new Set(types)].sort().join()) problems.push(`${testCase.name}: ${shown}; the ${side} model says ANY gets ${types.join(' and ')}`);
          }
        }
        if (!same && type === 'ANY' && anyReported && kube.kind === 'rcode' && recordTypes(kube.rcode) === 'A,AAAA') {
          outcomes.add('reported: ANY under an address of # alone');
          // check expects exactly that difference.
          if (!check.anyAnswers.some((entry) => entry.name === name && entry.unavoidable === true)) problems.push(`${testCase.name}: ${shown}; check does not list it as an unavoidable ANY answer`);
          continue;
        }
        if (!same && name !== '' && !name.includes('.') && (unqualifiedReported || input.olderDnsmasqDiffers)) {
          outcomes.add(unqualifiedReported ? 'reported: names without a dot' : 'not compared: names without a dot under an older dnsmasq');
          continue;
        }
        // The models, checked against the programs: each answer is one its model allows.
        if (!fits(kube, kubeRoute)) problems.push(`${testCase.name}: ${shown}; the kube-dns model says ${describeDestination(kubeRoute)}`);
        if (!fits(core, coreRoute)) problems.push(`${testCase.name}: ${shown}; the CoreDNS model says ${describeDestination(coreRoute)}`);
        // The programs against each other: the same answer, or two picks among the same servers.
        if (!same) problems.push(`${testCase.name}: ${shown}`);
      }
      // A missing name asked twice: does the second query reach a server again?
      const shortened = translation.diagnostics.some((entry) => entry.code === 'negative-caching-shortened');
      const noDataReported = translation.diagnostics.some((entry) => entry.code === 'address-nxdomain-not-kept');
      // Not in an --address zone of an older dnsmasq than the lab's (compared with the model only, above).
      const zones = ['example.com', ...check.names.filter((name) => name.startsWith('x.')).map((name) => name.slice(2))]
        .filter((zone) => !(input.olderAddressTypes && models.kubeDns.dependsOnType(`${NX_LABEL}.${zone}`)))
        // Nor where a repair changes the route on purpose (its names are not compared either).
        .filter((zone) => !check.repaired.some((difference) => difference.name === `x.${zone}`))
        // The zones whose NXDOMAIN dnsmasq answers NOERROR first (a stable sort keeps the order otherwise).
        .sort((a, b) => Number(models.kubeDns.nxdomainAsNoData(b) !== undefined) - Number(models.kubeDns.nxdomainAsNoData(a) !== undefined))
        .slice(0, 6);
      // The zones at once; the second query of each name only after the first was answered. The
      // first answers are compared too: NXDOMAIN, or NOERROR under an --address domain (dnsmasq 2.86+).
      await Promise.all(
        zones.map(async (zone) => {
          for (let round = 0; round < 2; round += 1) {
            const [kube, core] = await Promise.all([ask(`${NX_LABEL}.k${index}.${zone}`), askCoreDns(`${NX_LABEL}.c${index}.${zone}`)]);
            if (round > 0 || describeAnswer(kube) === describeAnswer(core)) continue;
            if (input.olderAddressTypes && kube.kind === 'rcode' && kube.rcode.startsWith('NOERROR')) {
              // The lab's dnsmasq (2.90) does it; the Pod's (before 2.86) did not: the model says so.
              if (models.kubeDns.nxdomainAsNoData(`${NX_LABEL}.k${index}.${zone}`) !== undefined) problems.push(`${testCase.name}: ${NX_LABEL}.${zone}: the model says NOERROR for dnsmasq before 2.86`);
              outcomes.add('model only: an address zone under dnsmasq before 2.86');
              continue;
            }
            if (noDataReported && models.kubeDns.nxdomainAsNoData(`${NX_LABEL}.k${index}.${zone}`) !== undefined) {
              outcomes.add('reported: address-nxdomain-not-kept');
              continue;
            }
            problems.push(`${testCase.name}: ${NX_LABEL}.${zone} A: dnsmasq ${describeAnswer(kube)}, CoreDNS ${describeAnswer(core)}`);
          }
          if (models.kubeDns.nxdomainAsNoData(`${NX_LABEL}.k${index}.${zone}`) !== undefined) outcomes.add('NXDOMAIN answered NOERROR under an address');
        }),
      );
      for (const zone of zones) {
        const kubeName = `${NX_LABEL}.k${index}.${zone}`;
        const coreName = `${NX_LABEL}.c${index}.${zone}`;
        // Distinct queries, not packets: a resend under load (same query ID) is not a cache miss.
        const kubeHits = network.queriesFor(kubeName);
        const coreHits = network.queriesFor(coreName);
        outcomes.add('NXDOMAIN repeats compared');
        if (kubeHits === coreHits) continue;
        if (shortened && coreHits < kubeHits) outcomes.add('reported: negative-caching-shortened');
        else problems.push(`${testCase.name}: ${NX_LABEL}.${zone} asked twice reached a server ${kubeHits} time(s) through dnsmasq, ${coreHits} through CoreDNS`);
      }
    } finally {
      await stop();
    }
    outcomes.add('compared');
    if (testCase.name.startsWith('nanny to kubedns')) outcomes.add('nanny Pod: a stub above the cluster zones');
    if (testCase.name.includes(': nanny to kubedns ')) outcomes.add('sample: a nanny Pod to kubedns with a stub above the cluster zones');
    if (/--(address|server|local)=\/\//.test(testCase.name)) outcomes.add("sample: names without a dot ('//')");
    return problems;
  }

  it('answer every checked name alike for the translate and deployment goldens and a generated sample, differing only where the translator said so', async () => {
    const outcomes = new Outcomes<Outcome>();
    // The run's fast-check seed (test/support/fast-check-seed.ts prints it when a test fails).
    const seed = fc.readConfigureGlobal().seed ?? 0;
    // KUBE_DNS_TO_COREDNS_COMPARISON_ONLY=TEXT compares only the inputs whose name holds TEXT (to look at one; the floors then fail).
    const only = process.env['KUBE_DNS_TO_COREDNS_COMPARISON_ONLY'];
    const started = performance.now();
    const cases = [...goldenCases(), ...addressCases(), ...nannyStubCases(), ...sampleCases(seed, 24)].filter((testCase) => only === undefined || testCase.name.includes(only));
    // Translate and move to the fakes; an input whose both sides are the same as an earlier one's is compared once.
    const prepared: Prepared[] = [];
    const seen = new Set<string>();
    for (const testCase of cases) {
      const input = await prepare(testCase, outcomes);
      if (input === undefined) continue;
      const key = JSON.stringify([input.real, input.translation.corefile, input.dnsmasqArgs, input.kubedns.ip, testCase.clusterDomain, testCase.repair, testCase.kubeDnsVersion, testCase.coredns]);
      if (seen.has(key)) {
        outcomes.add('same as another input');
        continue;
      }
      seen.add(key);
      input.port = FIRST_CASE_PORT + prepared.length;
      prepared.push(input);
    }
    const preparedAt = performance.now();
    // One CoreDNS per release, serving every input of that release; the inputs of a release are
    // compared as soon as it serves (the releases that start fastest first), one dnsmasq per input, a few at a time.
    const lab = coreDnsLab();
    const served = new Map(
      REAL_COREDNS_RELEASES.map((real, position) => {
        const inputs = prepared.filter((input) => input.real === real);
        const destinations = new Map(inputs.flatMap((input) => [...input.destinations]));
        const server = inputs.length === 0 ? undefined : lab.serve(sharedCorefile(inputs), real, `comparison-${real}/Corefile`, destinations, `${range?.prefix ?? ''}3.${1 + position}`);
        void server?.then((started) => running.push(started), () => undefined);
        return [real, server] as const;
      }),
    );
    const queue = REAL_COREDNS_RELEASES.flatMap((real) => prepared.filter((input) => input.real === real));
    const problems: string[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let index = next; index < queue.length; index = next) {
          next += 1;
          const input = queue[index] as Prepared;
          outcomes.add(`release ${input.real}`);
          const coredns = await (served.get(input.real) as Promise<RunningCoreDns>);
          problems.push(...(await compare(input, coredns, prepared.indexOf(input), outcomes)));
        }
      }),
    );
    if (process.env['KUBE_DNS_TO_COREDNS_COMPARISON_SUMMARY'] !== undefined) console.info(`${prepared.length} inputs compared (seed ${seed}; ms: prepare ${Math.round(preparedAt - started)}, serve and compare ${Math.round(performance.now() - preparedAt)}): ${outcomes.toString()}\n${prepared.map((input) => input.testCase.name).join('\n')}`);
    expect(problems, `seed ${seed}`).toEqual([]);
    outcomes.expectAtLeast({
      compared: 55,
      'names compared': 1000,
      'AAAA and MX compared': 2000,
      'ANY compared': 50,
      'ANY compared: answered by an address': 20,
      'ANY record types compared with a model': 20,
      'reported: ANY under an address of # alone': 2,
      'answered by the type of an address, others on (dnsmasq 2.86+)': 20,
      'model only: an address zone under dnsmasq before 2.86': 20,
      'nanny Pod: a stub above the cluster zones': 3,
      'sample: a nanny Pod to kubedns with a stub above the cluster zones': 2,
      "sample: names without a dot ('//')": 2,
      'NXDOMAIN repeats compared': 200,
      'NXDOMAIN answered NOERROR under an address': 2,
      'answered by a fake server': 300,
      'answered by the cluster': 100,
      'answered locally': 10,
      refused: 5,
      'reported: negative-caching-shortened': 3,
      'release 1.2.6': 2,
      'release 1.6.9': 2,
      'release 1.8.0': 8,
      'release 1.14.7': 30,
    });
  }, 120_000);
});
