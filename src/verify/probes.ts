/**
 * `verify`'s pure part: the names to ask both live servers (derived from the configuration by the
 * routing model), and the comparison of their answers with each difference classified as expected
 * (a behaviour change the translator reported, or a documented way kubedns and CoreDNS's
 * kubernetes plugin answer differently by design) or not. The network is the CLI's.
 */
import { checkArgument, checkOptions } from '../errors/arguments.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { parseGoIP } from '../dns/go-net.js';
import type { KubeDnsInstall } from '../kubedns/kube-dns-install.js';
import { namesToCheck, routingModels } from '../routing/check.js';
import type { TranslationResult } from '../translate/translate.js';
import { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';
import { QUERY_TYPES } from './dns-wire.js';
import type { DnsRecord, QueryType } from './dns-wire.js';

/** One query of the live check. */
export interface VerifyProbe {
  /** Fully qualified, lower case, with the trailing dot. */
  readonly name: string;
  readonly type: QueryType;
  /** Why it is asked. */
  readonly why: string;
  /**
   * A name every cluster has (`kubernetes.default.svc.<domain>`, the cluster DNS Service's own
   * name): CoreDNS must answer it with a record of the type asked, whatever kube-dns answered.
   */
  readonly mustExist?: boolean;
}

/** At most this many probes (each is sent to both servers). */
export const MAX_PROBES = 300;

const absolute = (name: string) => (name === '.' || name === '' ? '.' : `${name.toLowerCase().replace(/\.$/, '')}.`);

/** The reverse-lookup name of an IP (`10.0.96.10.in-addr.arpa.`, nibbles under `ip6.arpa.`). */
export function reverseName(ip: string): string | undefined {
  const bytes = parseGoIP(ip);
  if (bytes === undefined) return undefined;
  const v4 = bytes.length === 4 || bytes.slice(0, 12).every((byte, index) => byte === (index < 10 ? 0 : 0xff));
  if (v4) return `${[...bytes.slice(-4)].reverse().join('.')}.in-addr.arpa.`;
  return `${[...bytes].reverse().flatMap((byte) => [(byte & 0x0f).toString(16), (byte >> 4).toString(16)]).join('.')}.ip6.arpa.`;
}

export interface ProbeOptions {
  /** The cluster domain (default: the Deployment's `--domain`, else cluster.local). */
  readonly clusterDomain?: string;
  /** More names (`NAME` or `NAME TYPE`), e.g. from `--names FILE`. */
  readonly names?: readonly VerifyProbe[];
}

/** The cluster domain of an install: the option, kubedns's `--domain`, else cluster.local. */
export function clusterDomainOf(install: KubeDnsInstall, option: string | undefined): string {
  return absolute(option ?? install.deployment?.kubedns?.args.values.domain ?? 'cluster.local').replace(/\.$/, '');
}

/**
 * The probes for an install and its translation: every name the routing check compares (each stub
 * domain, a child and parents, the cluster domain, reverse zones, external names) as A (PTR under
 * the reverse zones), the cluster's own Service names (A and SRV), the zone apex's SOA, kube-dns's
 * `dns-version` TXT, the reverse name of the cluster DNS IP, and a missing name twice (negative
 * caching). At most {@link MAX_PROBES}, in that order, without repeats (the missing names excepted).
 */
export function verifyProbes(install: KubeDnsInstall, translation: TranslationResult & { readonly ok: true }, options: ProbeOptions = {}): VerifyProbe[] {
  checkOptions('verifyProbes', 'install', install, { configMap: 'object?', deployment: 'object?', service: 'object?', diagnostics: 'array' }, true);
  checkOptions('verifyProbes', 'translation', translation, { model: 'object', corefile: 'string', diagnostics: 'array' }, true);
  checkArgument('verifyProbes', 'options', options, 'object?');
  const clusterDomain = clusterDomainOf(install, options.clusterDomain);
  const { kubeDns, coreDns } = routingModels({
    kubeDns: install.configMap?.data ?? null,
    corefile: translation.model,
    clusterDomain,
    ...(install.deployment === undefined ? {} : { kubeDnsDeployment: install.deployment }),
  });
  const probes: VerifyProbe[] = [];
  const seen = new Set<string>();
  const add = (name: string, type: QueryType, why: string, again = false, mustExist = false) => {
    const probe = { name: absolute(name), type, why, ...(mustExist ? { mustExist } : {}) };
    const key = `${probe.name} ${type}`;
    if (!again && seen.has(key)) return;
    seen.add(key);
    probes.push(probe);
  };
  const cd = clusterDomain;
  const dnsService = `${install.service?.name ?? 'kube-dns'}.${install.service?.namespace ?? 'kube-system'}`;
  add(`kubernetes.default.svc.${cd}`, 'A', "the API server's Service, which every cluster has", false, true);
  add(`${dnsService}.svc.${cd}`, 'A', 'the cluster DNS Service, which answers these queries', false, true);
  add(`_dns._udp.${dnsService}.svc.${cd}`, 'SRV', "the cluster DNS Service's port (SRV)");
  add(cd, 'SOA', 'the cluster zone apex');
  add(`dns-version.${cd}`, 'TXT', "kube-dns's version record");
  const serviceIp = install.service?.clusterIP;
  const reverse = serviceIp === undefined ? undefined : reverseName(serviceIp);
  if (reverse !== undefined) add(reverse, 'PTR', 'the reverse name of the cluster DNS IP');
  for (const name of namesToCheck(kubeDns, coreDns)) {
    const reverseZone = /(^|\.)(in-addr|ip6)\.arpa$/.test(name);
    add(name, reverseZone ? 'PTR' : 'A', 'a name the routing check compares');
  }
  for (const probe of options.names ?? []) add(probe.name, probe.type, probe.why);
  const missing = [`kube-dns-to-coredns-missing.default.svc.${cd}`, 'kube-dns-to-coredns-missing.example.com'];
  for (const name of missing) {
    add(name, 'A', 'a missing name (asked twice: negative caching)', true);
    add(name, 'A', 'a missing name, again (negative caching)', true);
  }
  return probes.slice(0, MAX_PROBES);
}

/** `--print-names`: one `NAME TYPE` per line, the format of dnsperf query files. */
export function formatProbeNames(probes: readonly VerifyProbe[]): string {
  return probes.map((probe) => `${probe.name} ${probe.type}\n`).join('');
}

/** A `--names` file line that is not `NAME [TYPE]`. */
export class ProbeNamesError extends KubeDnsToCoreDnsError {
  override readonly name = 'ProbeNamesError';
  readonly category = 'input';
  declare readonly code: 'invalid-line';

  constructor(reason: string, line: number, filename?: string) {
    super('invalid-line', reason, { position: { line, column: 1 }, filename });
  }
}

/** Reads `--names FILE`: `NAME [TYPE]` per line (type A by default), `#` comments and blank lines skipped. Throws with the line number (and `filename`, when given). */
export function parseProbeNames(text: string, filename?: string): VerifyProbe[] {
  const probes: VerifyProbe[] = [];
  text.split('\n').forEach((line, index) => {
    const words = line.replace(/#.*$/, '').trim().split(/\s+/).filter((word) => word !== '');
    if (words.length === 0) return;
    const [name, type = 'A', ...rest] = words as [string, string?, ...string[]];
    const upper = type.toUpperCase();
    if (rest.length > 0 || !(upper in QUERY_TYPES)) throw new ProbeNamesError(`expected NAME [TYPE] with TYPE one of ${Object.keys(QUERY_TYPES).join(', ')}, got '${line.trim()}'`, index + 1, filename);
    if (!/^[A-Za-z0-9_*.-]+$/.test(name) || name.replace(/\.$/, '').split('.').some((label) => label === '' || label.length > 63)) throw new ProbeNamesError(`'${name}' is not a domain name`, index + 1, filename);
    probes.push({ name: absolute(name), type: upper as QueryType, why: 'from --names' });
  });
  return probes;
}

/** What one server answered: the rcode and the answer records (TTL and order do not count). */
export interface LiveAnswer {
  readonly rcode: string;
  readonly answers: readonly DnsRecord[];
}

export type Verdict = 'agree' | 'expected' | 'unexpected';

export interface ProbeComparison {
  readonly probe: VerifyProbe;
  readonly old: LiveAnswer;
  readonly new: LiveAnswer;
  readonly verdict: Verdict;
  /** Why a difference is expected (or what differs). */
  readonly reason?: string;
  /** The translator's diagnostic code that announced the difference, when there is one. */
  readonly code?: string;
}

export interface VerifyReport {
  readonly comparisons: readonly ProbeComparison[];
  readonly agree: number;
  readonly expected: number;
  readonly unexpected: number;
  /** True when every probe agrees or every difference is expected. */
  readonly ok: boolean;
}

const recordSet = (answer: LiveAnswer) => [...new Set(answer.answers.map((record) => `${record.name} ${record.type} ${record.data.toLowerCase()}`))].sort();

/** A domain a translator diagnostic is about (`["acme.local"]` in its path): differences under it were announced. */
function announcedDomains(diagnostics: readonly Diagnostic[]): { readonly domain: string; readonly code: string }[] {
  return diagnostics
    .filter((entry) => entry.severity !== 'info')
    .flatMap((entry) => [...(entry.path ?? '').matchAll(/\["([^"]+)"\]/g)].map((match) => ({ domain: absolute(match[1] as string), code: entry.code })));
}

/** Answers that say the server could not answer: from CoreDNS they fail the probe whatever kube-dns said. */
const FAILURE_RCODES: ReadonlySet<string> = new Set(['SERVFAIL', 'REFUSED']);

/**
 * Compares both servers' answers to one probe (a SERVFAIL or REFUSED from CoreDNS is unexpected even
 * when kube-dns answered the same); a difference is expected when the translator
 * announced it (a warning about the probe's domain) or when it is one of the documented by-design
 * differences between kubedns and the kubernetes plugin: the zone apex's SOA, kube-dns's
 * `dns-version` TXT, and the layout of SRV answers (targets named per endpoint).
 */
export function compareProbe(probe: VerifyProbe, old: LiveAnswer, current: LiveAnswer, clusterDomain: string, diagnostics: readonly Diagnostic[]): ProbeComparison {
  checkOptions('compareProbe', 'probe', probe, { name: 'string', type: 'string' }, true);
  checkOptions('compareProbe', 'old', old, { rcode: 'string', answers: 'array' }, true);
  checkOptions('compareProbe', 'current', current, { rcode: 'string', answers: 'array' }, true);
  checkArgument('compareProbe', 'clusterDomain', clusterDomain, 'string');
  checkArgument('compareProbe', 'diagnostics', diagnostics, 'array');
  if (FAILURE_RCODES.has(current.rcode)) {
    const both = old.rcode === current.rcode ? ', as kube-dns did: a failure all the same (two servers failing alike do not agree on an answer)' : ` (kube-dns: ${old.rcode})`;
    return { probe, old, new: current, verdict: 'unexpected', reason: `${current.rcode} from CoreDNS${both}` };
  }
  if (probe.mustExist === true && !answers(current, probe.type)) {
    const got = `${current.rcode}${current.rcode === 'NOERROR' ? ` without a ${probe.type} record` : ''}`;
    const kubeDns = answers(old, probe.type) ? 'kube-dns answered it' : 'kube-dns did not answer it either: a failure all the same (two servers failing alike do not agree on an answer)';
    return {
      probe,
      old,
      new: current,
      verdict: 'unexpected',
      reason: `${got} from CoreDNS for a name that must exist (${probe.why}); ${kubeDns}. CoreDNS does not see the cluster's Services: check its ClusterRole and binding, its access to the API server, and that its kubernetes block serves the cluster domain`,
    };
  }
  const oldSet = recordSet(old);
  const newSet = recordSet(current);
  if (old.rcode === current.rcode && oldSet.join('\n') === newSet.join('\n')) return { probe, old, new: current, verdict: 'agree' };
  const what = old.rcode !== current.rcode ? `${old.rcode} from kube-dns, ${current.rcode} from CoreDNS` : `other answers (kube-dns: ${oldSet.join('; ') || 'none'}; CoreDNS: ${newSet.join('; ') || 'none'})`;
  const cd = absolute(clusterDomain);
  const expected = (reason: string, code?: string): ProbeComparison => ({ probe, old, new: current, verdict: 'expected', reason: `${what}: ${reason}`, ...(code === undefined ? {} : { code }) });
  if (probe.type === 'TXT' && probe.name === `dns-version.${cd}`) return expected("kube-dns answers its schema version at dns-version.<domain>; CoreDNS's kubernetes plugin has no such record");
  if (probe.type === 'SOA' && (probe.name === cd || probe.name === 'in-addr.arpa.' || probe.name === 'ip6.arpa.')) return expected('each server writes its own SOA for the zone apex (names, serial, timers)');
  if (probe.type === 'SRV' && old.rcode === current.rcode && srvPorts(old) === srvPorts(current)) return expected('the same ports; kubedns and the kubernetes plugin name SRV targets and set priority and weight differently');
  const announced = announcedDomains(diagnostics).find(({ domain }) => probe.name === domain || probe.name.endsWith(`.${domain}`));
  if (announced !== undefined) return expected(`announced by the translator (${announced.code})`, announced.code);
  return { probe, old, new: current, verdict: 'unexpected', reason: what };
}

/** A positive answer: NOERROR with a record of the type asked. */
function answers(answer: LiveAnswer, type: QueryType): boolean {
  return answer.rcode === 'NOERROR' && answer.answers.some((record) => record.type === type);
}

function srvPorts(answer: LiveAnswer): string {
  return answer.answers
    .filter((record) => record.type === 'SRV')
    .map((record) => record.data.split(' ')[2] ?? '')
    .sort()
    .join(',');
}

export function verifyReport(comparisons: readonly ProbeComparison[]): VerifyReport {
  checkArgument('verifyReport', 'comparisons', comparisons, 'array');
  const count = (verdict: Verdict) => comparisons.filter((entry) => entry.verdict === verdict).length;
  const unexpected = count('unexpected');
  return { comparisons, agree: count('agree'), expected: count('expected'), unexpected, ok: unexpected === 0 };
}

/** The report as text: a summary line, then each difference (unexpected first) with its reason. */
export function formatVerifyReport(report: VerifyReport): string {
  checkOptions('formatVerifyReport', 'report', report, { comparisons: 'array', agree: 'number', expected: 'number', unexpected: 'number' }, true);
  const lines = [`${report.comparisons.length} queries: ${report.agree} agree, ${report.expected} differ as expected, ${report.unexpected} differ unexpectedly`];
  const differences = [...report.comparisons.filter((entry) => entry.verdict === 'unexpected'), ...report.comparisons.filter((entry) => entry.verdict === 'expected')];
  for (const entry of differences) lines.push(`${entry.verdict === 'unexpected' ? 'DIFFERENT' : 'expected '} ${entry.probe.name} ${entry.probe.type}: ${entry.reason ?? ''}`);
  return `${lines.join('\n')}\n`;
}
