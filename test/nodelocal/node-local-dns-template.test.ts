import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCoreDnsVersion } from '../../src/coredns/versions.js';
import { nodeCacheProfile, UnsupportedNodeCacheReleaseError } from '../../src/nodelocal/node-cache-releases.js';
import { NODE_LOCAL_DNS_TEMPLATES, nodeLocalDnsTemplate, nodeLocalDnsTemplateId } from '../../src/nodelocal/node-local-dns-template.js';
import { preflightNodeLocalDns } from '../../src/nodelocal/preflight.js';
import { translateLikeNodeCache } from '../../src/nodelocal/translate-like-node-cache.js';

/** The Kubernetes 1.19 manifest's Corefile, as collected in golden/realworld (first line: its source). */
const KUBERNETES_1_19 = readFileSync(new URL('../../golden/realworld/corefiles/07-k8s-1.19-nodelocaldns-four-blocks-bind-pillars.Corefile', import.meta.url), 'utf8').replace(/^# source:.*\n/, '');

describe('the bundled node-local-dns template', () => {
  it('is, for node-cache up to 1.15.13, the text of the Kubernetes 1.19 manifest byte for byte', () => {
    expect(NODE_LOCAL_DNS_TEMPLATES['upstream-force-tcp']).toBe(KUBERNETES_1_19);
    expect(nodeLocalDnsTemplateId('1.15.6')).toBe('upstream-force-tcp');
    expect(nodeLocalDnsTemplateId('1.15.13')).toBe('upstream-force-tcp');
  });

  it('forwards the root block without force_tcp from 1.15.14 on, and differs in nothing else', () => {
    expect(nodeLocalDnsTemplateId('1.15.14')).toBe('upstream-udp');
    expect(nodeLocalDnsTemplateId('v1.26.7')).toBe('upstream-udp');
    const udp = NODE_LOCAL_DNS_TEMPLATES['upstream-udp'];
    expect(udp).toBe(KUBERNETES_1_19.replace('forward . __PILLAR__UPSTREAM__SERVERS__ {\n            force_tcp\n    }\n', 'forward . __PILLAR__UPSTREAM__SERVERS__\n'));
    expect(udp).not.toBe(KUBERNETES_1_19);
  });

  it('fills in what the install fills in: the cluster domain, and with two local IPs the local and kube-dns addresses', () => {
    const plain = nodeLocalDnsTemplate('1.26.7');
    expect(plain.startsWith('cluster.local:53 {\n')).toBe(true);
    expect(plain).toContain('bind __PILLAR__LOCAL__DNS__ __PILLAR__DNS__SERVER__');
    const corp = nodeLocalDnsTemplate('1.26.7', { clusterDomain: 'corp.internal', localIps: '169.254.20.10,10.96.0.10' });
    expect(corp.startsWith('corp.internal:53 {\n')).toBe(true);
    expect(corp).toContain('    bind 169.254.20.10 10.96.0.10\n');
    expect(corp).toContain('    health 169.254.20.10:8080\n');
    expect(corp).toContain('forward . __PILLAR__CLUSTER__DNS__ {');
    const ipvs = nodeLocalDnsTemplate('1.26.7', { localIps: '169.254.20.10' });
    expect(ipvs).toContain('    bind 169.254.20.10 __PILLAR__DNS__SERVER__\n');
  });

  it('puts an IPv6 local IP in brackets before a port (health), as the install instructions say, and the Corefile loads', () => {
    const v6 = nodeLocalDnsTemplate('1.26.7', { localIps: 'fd00::10,fd00::a' });
    expect(v6).toContain('    health [fd00::10]:8080\n');
    expect(v6).toContain('    bind fd00::10 fd00::a\n');
    // Unbracketed, `fd00::10:8080` is not HOST:PORT and CoreDNS refused the Corefile (argument-invalid).
    const preflight = preflightNodeLocalDns('1.26.7', { stubDomains: '{"acme.local": ["fd00::53"]}' }, { localIps: 'fd00::10,fd00::a', clusterDnsIp: 'fd00::20' });
    expect(preflight.diagnostics).toEqual([]);
    expect(preflight.loads).toBe(true);
  });

  it('has no template for a release outside the known ones', () => {
    expect(() => nodeLocalDnsTemplate('1.15.5')).toThrow(UnsupportedNodeCacheReleaseError);
  });
});

describe('the CoreDNS each node-cache release embeds', () => {
  it('follows kubernetes/dns Gopkg.lock and go.mod, including the 1.20.0 branch', () => {
    const embedded = (release: string) => nodeCacheProfile(release).coreDns;
    expect(['1.15.6', '1.15.7', '1.15.8', '1.15.10', '1.15.16', '1.16.0', '1.19.1', '1.20.0', '1.21.0', '1.22.13', '1.22.14', '1.23.1', '1.24.0', '1.26.4', '1.26.5', '1.26.6', '1.26.7', '1.26.8'].map(embedded)).toEqual([
      '1.2.6', '1.2.6', '1.6.4', '1.6.7', '1.6.7', '1.7.0', '1.7.0', '1.8.3', '1.7.0', '1.7.0', '1.10.0', '1.10.0', '1.11.3', '1.11.3', '1.12.2', '1.13.1', '1.13.1', '1.13.2',
    ]);
  });

  it('is a CoreDNS release this package knows, for every node-cache release', () => {
    for (let patch = 6; patch <= 16; patch += 1) expect(() => parseCoreDnsVersion(nodeCacheProfile(`1.15.${patch}`).coreDns)).not.toThrow();
    for (const release of ['1.17.4', '1.18.1', '1.21.4', '1.22.28', '1.25.0', '1.26.3']) expect(() => parseCoreDnsVersion(nodeCacheProfile(release).coreDns)).not.toThrow();
  });
});

describe('what node-cache writes with the bundled template', () => {
  const data = { stubDomains: '{"acme.local": ["10.150.0.1"]}' };
  const write = (release: string, localIps: string) => translateLikeNodeCache(release, { data, baseCorefile: nodeLocalDnsTemplate(release, localIps.includes(',') ? { localIps } : {}), localIps, clusterDnsIp: '10.96.0.20' });

  it('leaves __PILLAR__DNS__SERVER__ in the bind lines before 1.15.13 when the install did not fill it (IPVS mode): node-cache-variable-left', () => {
    const old = write('1.15.12', '169.254.20.10');
    expect(old.ok).toBe(true);
    // Once per variable, at its first line; node-cache itself fills __PILLAR__LOCAL__DNS__.
    expect(old.diagnostics.map((entry) => [entry.code, entry.severity, entry.position])).toEqual([['node-cache-variable-left', 'error', { line: 9, column: 24 }]]);
    expect(old.diagnostics[0]?.message).toContain("__PILLAR__DNS__SERVER__ (line 9) is not filled in by node-cache 1.15.12: CoreDNS 1.6.7 reads 'bind 169.254.20.10 __PILLAR__DNS__SERVER__'");
    const fixed = write('1.15.13', '169.254.20.10');
    expect(fixed.diagnostics).toEqual([]);
    expect(fixed.ok && fixed.corefile).toContain('    bind 169.254.20.10 \n');
  });

  it('writes no variable in iptables mode (two local IPs), in any release; before 1.15.7 the stub bind has the commas', () => {
    for (const release of ['1.15.6', '1.15.7', '1.15.13', '1.22.10', '1.26.7']) {
      const result = write(release, '169.254.20.10,10.96.0.10');
      expect(result.ok && result.corefile).not.toMatch(/__PILLAR__/);
      expect(result.diagnostics.map((entry) => entry.code)).toEqual(release === '1.15.6' ? ['node-cache-bind-commas'] : []);
    }
    const [commas] = write('1.15.6', '169.254.20.10,10.96.0.10').diagnostics;
    expect(commas?.message).toBe(
      "node-cache 1.15.6 writes 'bind 169.254.20.10,10.96.0.10' (line 53): CoreDNS 1.2.6 reads the comma-separated IPs as one address that is not an IP, and does not load the Corefile",
    );
  });

  it('counts every comma bind line once, template lines included (a base with __PILLAR__LOCAL__DNS__ before 1.15.13)', () => {
    const result = translateLikeNodeCache('1.15.6', { data, baseCorefile: nodeLocalDnsTemplate('1.15.6'), localIps: '169.254.20.10,10.96.0.10', clusterDnsIp: '10.96.0.20' });
    expect(result.diagnostics.filter((entry) => entry.code === 'node-cache-bind-commas').map((entry) => entry.message)).toEqual([
      "node-cache 1.15.6 writes 'bind 169.254.20.10,10.96.0.10 __PILLAR__DNS__SERVER__' (line 9, and 4 more bind lines): CoreDNS 1.2.6 reads the comma-separated IPs as one address that is not an IP, and does not load the Corefile",
    ]);
  });

  it('names each host name the 1.22.10 gate refuses with node-cache-rejects-update', () => {
    const result = translateLikeNodeCache('1.22.10', { data: { stubDomains: '{"acme.local": ["10.0.0.1", "ns.acme.local"]}' }, baseCorefile: nodeLocalDnsTemplate('1.22.10'), localIps: '169.254.20.10', clusterDnsIp: '10.96.0.20' });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.filter((entry) => entry.code === 'node-cache-rejects-update').map((entry) => [entry.key, entry.path])).toEqual([['stubDomains', '["acme.local"][1]']]);
  });
});

describe('the plugins node-cache compiles in', () => {
  // A base Corefile with `timeouts` (the CoreDNS plugin, in CoreDNS's default build since long
  // before 1.13.1): node-cache 1.26.7 does not import it, 1.26.8 does.
  const withTimeouts = nodeLocalDnsTemplate('1.26.8', { localIps: '169.254.20.10,10.96.0.10' }).replace('    errors\n', '    errors\n    timeouts {\n        read 10s\n    }\n');

  it('1.26.8 embeds CoreDNS 1.13.2 and loads a template with timeouts; 1.26.7 (CoreDNS 1.13.1) refuses the directive', () => {
    expect(withTimeouts).toContain('timeouts {');
    const newer = preflightNodeLocalDns('1.26.8', { stubDomains: '{"acme.local": ["10.0.0.53"]}' }, { baseCorefile: withTimeouts });
    expect([newer.coreDns, newer.loads, newer.diagnostics.map((entry) => entry.message)]).toEqual(['1.13.2', true, []]);
    const older = preflightNodeLocalDns('1.26.7', { stubDomains: '{"acme.local": ["10.0.0.53"]}' }, { baseCorefile: withTimeouts });
    expect(older.loads).toBe(false);
    expect(older.diagnostics.filter((entry) => entry.severity === 'error').map((entry) => [entry.code, entry.message.includes('timeouts')])).toContainEqual([expect.any(String), true]);
  });

  it('a plugin of CoreDNS\'s default build that node-cache does not import (file) is refused in every release', () => {
    const withFile = nodeLocalDnsTemplate('1.26.8', { localIps: '169.254.20.10,10.96.0.10' }).replace('    errors\n', '    errors\n    file /etc/coredns/db.example\n');
    for (const release of ['1.15.6', '1.22.10', '1.26.8']) expect(preflightNodeLocalDns(release, {}, { baseCorefile: withFile }).loads).toBe(false);
  });
});
