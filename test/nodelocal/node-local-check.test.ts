import { describe, expect, it } from 'vitest';
import { checkNodeLocalDnsRouting, explainNodeLocalDns, formatNodeLocalCheck, formatNodeLocalExplanation } from '../../src/nodelocal/node-local-check.js';
import type { NodeLocalCheckInput } from '../../src/nodelocal/node-local-check.js';
import { describeDestination } from '../../src/routing/destination.js';
import { translateKubeDns } from '../../src/translate/translate.js';
import { configMapYaml } from '../support/kube-dns-manifests.js';

const DATA = { stubDomains: '{"acme.local": ["10.150.0.1"]}', upstreamNameservers: '["8.8.8.8"]' };
/** CoreDNS's Corefile as the default translator writes it for DATA. */
const TRANSLATED = translateKubeDns(DATA).corefile ?? '';
const SETTINGS = { release: '1.26.7', localIps: '169.254.20.10,10.96.0.10', upstreamIp: '10.96.0.20' } as const;

function check(kubeDns: Record<string, string>, corefile: string, more: Partial<NodeLocalCheckInput> = {}) {
  return checkNodeLocalDnsRouting({ ...SETTINGS, kubeDns, corefile, ...more });
}

describe('checkNodeLocalDnsRouting', () => {
  it('passes when CoreDNS is the translation of the ConfigMap node-cache reads', () => {
    const result = check(DATA, TRANSLATED);
    expect(result.differences).toEqual([]);
    expect(result.ok).toBe(true);
    expect(result.names.length).toBeGreaterThan(15);
    expect(formatNodeLocalCheck(result)).toMatch(/^pod → node-local-dns → CoreDNS routes all \d+ checked names as CoreDNS alone and kube-dns alone do\.\n/);
  });

  it('finds a stub present in CoreDNS but missing from the kube-dns ConfigMap: node-local-dns sends it upstream, never to CoreDNS', () => {
    const withCorp = `${TRANSLATED}corp.internal:53 {\n    forward . 10.150.0.9\n}\n`;
    const result = check(DATA, withCorp);
    expect(result.ok).toBe(false);
    expect(result.differences.map((difference) => difference.name)).toEqual(['corp.internal', 'x.corp.internal']);
    const [first] = result.differences;
    expect(describeDestination(first!.twoTier.final.destination)).toBe('8.8.8.8:53');
    expect(first!.twoTier.coreDns).toBeUndefined();
    expect(describeDestination(first!.coreDns.destination)).toBe('10.150.0.9:53');
    expect(describeDestination(first!.kubeDns.destination)).toBe('8.8.8.8:53');
    expect(formatNodeLocalCheck(result)).toContain('routes 2 of');
  });

  it('finds a stub equal to the cluster domain: the Corefile node-cache writes does not load', () => {
    const data = { ...DATA, stubDomains: '{"acme.local": ["10.150.0.1"], "cluster.local": ["10.150.0.5"]}' };
    const result = check(data, TRANSLATED);
    expect(result.ok).toBe(false);
    expect(result.preflight.accepted).toBe(true);
    expect(result.preflight.loads).toBe(false);
    expect(result.preflight.reason).toContain('does not load (stub-equals-cluster-domain)');
    expect(result.notes.some((note) => note.includes('zone cluster.local on port 53 is served by two blocks'))).toBe(true);
    expect(formatNodeLocalCheck(result).split('\n')[0]).toContain('node-cache 1.26.7 (CoreDNS 1.13.1): node-cache 1.26.7 writes a Corefile that its CoreDNS 1.13.1 does not load');
  });

  it('finds a parent stub of the cluster domain that CoreDNS lacks: node-local-dns still sends cluster names to CoreDNS', () => {
    const data = { ...DATA, stubDomains: '{"local": ["10.150.0.2"]}' };
    const result = check(data, TRANSLATED);
    expect(result.ok).toBe(false);
    const names = result.differences.map((difference) => difference.name);
    expect(names).toContain('local');
    expect(names).not.toContain('kubernetes.default.svc.cluster.local');
  });

  it('stops at node-cache refusing the ConfigMap: no names routed, the reason given', () => {
    const result = check({ stubDomains: '{"acme.local": ["ns.acme.local"]}' }, TRANSLATED, { release: '1.22.10' });
    expect(result).toMatchObject({ ok: false, differences: [], names: [] });
    expect(formatNodeLocalCheck(result)).toMatch(/^node-cache 1\.22\.10 \(CoreDNS 1\.7\.0\) refuses the kube-dns ConfigMap: node-cache 1\.22\.10 refuses nameservers that are not IP addresses/);
  });

  it('says so when no name reaches CoreDNS (an --upstream-ip the Corefile does not forward to)', () => {
    const ipvs = `cluster.local:53 {\n    bind 169.254.20.10\n    forward . 10.96.0.10\n}\n.:53 {\n    bind 169.254.20.10\n    forward . __PILLAR__UPSTREAM__SERVERS__\n}\n`;
    const wrong = check(DATA, TRANSLATED, { baseCorefile: ipvs });
    expect(wrong.notes[0]).toMatch(/^node-local-dns sends none of the \d+ checked names to 10\.96\.0\.20:53: is --upstream-ip/);
    const right = check(DATA, TRANSLATED, { baseCorefile: ipvs, upstreamIp: '10.96.0.10' });
    expect(right.notes.some((note) => note.startsWith('node-local-dns sends none'))).toBe(false);
  });

  it('reads the ConfigMap as YAML text too', () => {
    const yaml = configMapYaml({ stubDomains: '{"acme.local": ["10.150.0.1"]}', upstreamNameservers: '["8.8.8.8"]' }, { namespace: null });
    expect(checkNodeLocalDnsRouting({ ...SETTINGS, kubeDns: yaml, corefile: TRANSLATED }).ok).toBe(true);
  });
});

describe('explainNodeLocalDns', () => {
  it('shows both tiers for each candidate', () => {
    const explanation = explainNodeLocalDns('my-svc', { ...SETTINGS, kubeDns: DATA, corefile: TRANSLATED, namespace: 'shop' });
    expect(explanation.candidates.map((candidate) => candidate.name)).toEqual(['my-svc.shop.svc.cluster.local', 'my-svc.svc.cluster.local', 'my-svc.cluster.local', 'my-svc']);
    const first = explanation.candidates[0]!;
    expect(describeDestination(first.twoTier.nodeLocal.destination)).toBe('10.96.0.20:53');
    expect(describeDestination(first.twoTier.final.destination)).toBe('cluster cluster.local');
    expect(first.same).toBe(true);
    const text = formatNodeLocalExplanation(explanation);
    expect(text.split('\n')[2]).toMatch(/^# +CANDIDATE +NODE-LOCAL-DNS +THEN COREDNS +COREDNS ALONE +KUBE-DNS ALONE +SAME$/);
  });
});
