import { describe, expect, it } from 'vitest';
import { UnsupportedNodeCacheReleaseError, nodeCacheProfile } from '../../src/nodelocal/node-cache-releases.js';
import { NodeCacheInputError, translateLikeNodeCache } from '../../src/nodelocal/translate-like-node-cache.js';
import type { NodeCacheInput, NodeCacheResult } from '../../src/nodelocal/translate-like-node-cache.js';
import { thrown } from '../support/thrown.js';

/**
 * Hand-written expectations, worked out by reading node-cache's `updateCorefile` and its stub
 * block template at each release (docs/node-local-dns.md): template substitution, the upstream
 * TCP→UDP swap, the bind line and the stub blocks, quirks (trailing spaces, commas) included.
 */

/** A base Corefile shaped like the node-local-dns template: the upstream block in the exact TCP form node-cache looks for. */
const BASE = [
  'cluster.local:53 {',
  '    errors',
  '    cache 30',
  '    bind __PILLAR__LOCAL__DNS__ __PILLAR__DNS__SERVER__',
  '    forward . __PILLAR__CLUSTER__DNS__ {',
  '            force_tcp',
  '    }',
  '}',
  '.:53 {',
  '    errors',
  '    bind __PILLAR__LOCAL__DNS__ __PILLAR__DNS__SERVER__',
  '    forward . __PILLAR__UPSTREAM__SERVERS__ {',
  '            force_tcp',
  '    }',
  '}',
  '',
].join('\n');

const DATA = {
  stubDomains: '{"corp.example": ["10.1.1.1:5353", "10.1.1.2"], "acme.local": ["1.2.3.4"]}',
  upstreamNameservers: '["8.8.8.8", "8.8.4.4"]',
};

function input(data: Record<string, string> | null, overrides: Partial<NodeCacheInput> = {}): NodeCacheInput {
  return { data, baseCorefile: BASE, localIps: '169.254.20.10,10.0.0.10', clusterDnsIp: '10.0.0.20', ...overrides };
}

function corefileOf(result: NodeCacheResult): string {
  if (!result.ok) throw new Error(`rejected: ${result.reason}`);
  return result.corefile;
}

function lines(...text: string[]): string {
  return text.join('\n');
}

describe('translateLikeNodeCache, release by release', () => {
  it('1.15.6: commas on every bind line, TCP stub forwards, upstreams put into the TCP block, __PILLAR__DNS__SERVER__ left in', () => {
    expect(corefileOf(translateLikeNodeCache('1.15.6', input(DATA)))).toBe(
      lines(
        'cluster.local:53 {',
        '    errors',
        '    cache 30',
        '    bind 169.254.20.10,10.0.0.10 __PILLAR__DNS__SERVER__',
        '    forward . 10.0.0.20 {',
        '            force_tcp',
        '    }',
        '}',
        '.:53 {',
        '    errors',
        '    bind 169.254.20.10,10.0.0.10 __PILLAR__DNS__SERVER__',
        '    forward . 8.8.8.8 8.8.4.4 {',
        '            force_tcp',
        '    }',
        '}',
        '',
        'acme.local:53 {',
        '    errors',
        '    cache 30',
        '    bind 169.254.20.10,10.0.0.10',
        '    forward . 1.2.3.4 {',
        '      force_tcp',
        '    }',
        '}',
        '',
        'corp.example:53 {',
        '    errors',
        '    cache 30',
        '    bind 169.254.20.10,10.0.0.10',
        '    forward . 10.1.1.1:5353 10.1.1.2 {',
        '      force_tcp',
        '    }',
        '}',
        '',
      ),
    );
  });

  it('1.15.7: the stub blocks bind space-separated IPs; the template still gets the commas', () => {
    const corefile = corefileOf(translateLikeNodeCache('1.15.7', input(DATA)));
    expect(corefile).toContain('    bind 169.254.20.10,10.0.0.10 __PILLAR__DNS__SERVER__\n');
    expect(corefile).toContain('\nacme.local:53 {\n    errors\n    cache 30\n    bind 169.254.20.10 10.0.0.10\n    forward . 1.2.3.4 {\n      force_tcp\n    }\n}\n');
    expect(corefile).toContain('    forward . 8.8.8.8 8.8.4.4 {\n            force_tcp\n    }\n');
  });

  it('1.15.13: upstreams over UDP, stubs over UDP, spaces everywhere, __PILLAR__DNS__SERVER__ blanked (a trailing space stays)', () => {
    expect(corefileOf(translateLikeNodeCache('1.15.13', input(DATA)))).toBe(
      lines(
        'cluster.local:53 {',
        '    errors',
        '    cache 30',
        '    bind 169.254.20.10 10.0.0.10 ',
        '    forward . 10.0.0.20 {',
        '            force_tcp',
        '    }',
        '}',
        '.:53 {',
        '    errors',
        '    bind 169.254.20.10 10.0.0.10 ',
        '    forward . 8.8.8.8 8.8.4.4',
        '}',
        '',
        'acme.local:53 {',
        '    errors',
        '    cache 30',
        '    bind 169.254.20.10 10.0.0.10',
        '    forward . 1.2.3.4',
        '}',
        '',
        'corp.example:53 {',
        '    errors',
        '    cache 30',
        '    bind 169.254.20.10 10.0.0.10',
        '    forward . 10.1.1.1:5353 10.1.1.2',
        '}',
        '',
      ),
    );
  });

  it('1.15.13+: without upstreams the TCP block stays and points at /etc/resolv.conf', () => {
    const corefile = corefileOf(translateLikeNodeCache('1.22.20', input({ upstreamNameservers: '[]' })));
    expect(corefile).toContain('    forward . /etc/resolv.conf {\n            force_tcp\n    }\n}\n');
    expect(corefile.endsWith('    }\n}\n')).toBe(true);
  });

  it('1.15.13+: an upstream block in another indentation is filled in and stays TCP', () => {
    const base = BASE.replace('__PILLAR__UPSTREAM__SERVERS__ {\n            force_tcp', '__PILLAR__UPSTREAM__SERVERS__ {\n        force_tcp');
    const corefile = corefileOf(translateLikeNodeCache('1.26.7', input(DATA, { baseCorefile: base })));
    expect(corefile).toContain('    forward . 8.8.8.8 8.8.4.4 {\n        force_tcp\n    }\n');
  });

  it('the port and the cluster DNS IP as Go prints it', () => {
    const corefile = corefileOf(translateLikeNodeCache('1.26.7', input(DATA, { port: '5300', clusterDnsIp: 'fd00:0:0::a' })));
    expect(corefile).toContain('    forward . fd00::a {\n');
    expect(corefile).toContain('\nacme.local:5300 {\n');
  });

  it('sorts the stub blocks and says that node-cache does not', () => {
    const result = translateLikeNodeCache('1.26.7', input(DATA));
    const corefile = corefileOf(result);
    expect(corefile.indexOf('acme.local:53')).toBeLessThan(corefile.indexOf('corp.example:53'));
    expect(result.notes.map((note) => note.kind)).toEqual(['stub-order-sorted']);
  });
});

describe('the validation gate of 1.22.10', () => {
  const hostnameStub = { stubDomains: '{"acme.local": ["ns1.acme.local"]}' };

  it('1.22.10+: a hostname nameserver makes node-cache keep the previous Corefile', () => {
    const result = translateLikeNodeCache('1.22.10', input(hostnameStub));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.rejected).toBe('node-cache-validation');
    expect(result.reason).toContain('acme.local (ns1.acme.local)');
    expect(result.reason).toContain('keeps its previous Corefile');
  });

  it('before 1.22.10: the hostname is written, with an error diagnostic saying CoreDNS refuses it', () => {
    const result = translateLikeNodeCache('1.22.9', input(hostnameStub));
    expect(corefileOf(result)).toContain('    forward . ns1.acme.local\n');
    expect(result.diagnostics.map((entry) => [entry.code, entry.severity, entry.path])).toEqual([['hostname-nameserver', 'error', '["acme.local"][0]']]);
  });

  it("every release: a ConfigMap kube-dns's validation refuses is ignored", () => {
    for (const release of ['1.15.6', '1.22.9', '1.26.7']) {
      const result = translateLikeNodeCache(release, input({ upstreamNameservers: '["1.1.1.1", "2.2.2.2", "3.3.3.3", "4.4.4.4"]' }));
      expect(result.ok ? 'written' : result.rejected).toBe('kube-dns-validation');
      expect(result.diagnostics.map((entry) => entry.code)).toContain('kube-dns-too-many-upstreams');
    }
  });
});

describe('what will break', () => {
  it('a stub domain equal to the cluster domain or a reverse zone', () => {
    const result = translateLikeNodeCache('1.26.7', input({ stubDomains: '{"cluster.local": ["1.2.3.4"], "in-addr.arpa": ["1.2.3.4"]}' }));
    expect(result.diagnostics.map((entry) => entry.code)).toEqual(['stub-equals-cluster-domain', 'stub-equals-reverse-zone']);
  });

  it('a custom cluster domain', () => {
    const result = translateLikeNodeCache('1.26.7', input({ stubDomains: '{"cluster.local": ["1.2.3.4"]}' }, { clusterDomain: 'corp.internal' }));
    expect(result.diagnostics).toEqual([]);
  });

  it('loopback nameservers, as a warning', () => {
    const result = translateLikeNodeCache('1.26.7', input({ stubDomains: '{"acme.local": ["127.0.0.1:5353"]}', upstreamNameservers: '["::1"]' }));
    expect(result.diagnostics.map((entry) => [entry.code, entry.severity, entry.key])).toEqual([
      ['loop-nameserver', 'warning', 'stubDomains'],
      ['loop-nameserver', 'warning', 'upstreamNameservers'],
    ]);
  });

  it("a stub domain without nameservers: 'forward . ' without a destination", () => {
    const result = translateLikeNodeCache('1.26.7', input({ stubDomains: '{"acme.local": []}' }));
    expect(corefileOf(result)).toContain('    forward . \n');
    expect(result.diagnostics.map((entry) => entry.code)).toEqual(['stub-without-nameservers']);
  });

  it('federations: a note that node-cache ignores them', () => {
    const result = translateLikeNodeCache('1.26.7', input({ federations: 'myfed=example.com' }));
    expect(result.notes.map((note) => note.kind)).toEqual(['federations-ignored']);
  });
});

describe('releases and inputs node-cache never saw', () => {
  it('refuses releases before the first that read the ConfigMap, after the newest known, and non-releases', () => {
    expect(thrown(() => nodeCacheProfile('1.15.5'))).toMatchObject({ code: 'out-of-range' });
    expect(thrown(() => nodeCacheProfile('1.26.9'))).toMatchObject({ code: 'out-of-range' });
    expect(thrown(() => nodeCacheProfile('latest'))).toBeInstanceOf(UnsupportedNodeCacheReleaseError);
    expect(nodeCacheProfile('v1.22.10')).toMatchObject({ release: '1.22.10', validationGate: true });
  });

  it('1.26.8, newer than the newest kube-dns rules, validates the ConfigMap with them (pkg/dns/config did not change)', () => {
    const data = { upstreamNameservers: '["010.0.0.1"]' };
    const codes = (release: string) => translateLikeNodeCache(release, input(data)).diagnostics.map((entry) => entry.code);
    expect(codes('1.26.8')).toEqual(codes('1.26.7'));
    expect(codes('1.26.8')).toContain('kube-dns-invalid-upstream');
    expect(codes('1.26.5')).not.toContain('kube-dns-invalid-upstream');
  });

  it('refuses settings node-cache would not start with, and a cluster DNS IP that is not an IP', () => {
    expect(thrown(() => translateLikeNodeCache('1.26.7', input(DATA, { clusterDnsIp: 'kube-dns' })))).toMatchObject({ code: 'cluster-dns-ip' });
    expect(thrown(() => translateLikeNodeCache('1.26.7', input(DATA, { localIps: '169.254.20.10, 10.0.0.10' })))).toMatchObject({ code: 'local-ip' });
    expect(thrown(() => translateLikeNodeCache('1.26.7', input(DATA, { localIps: '169.254.20.10,' })))).toBeInstanceOf(NodeCacheInputError);
    expect(thrown(() => translateLikeNodeCache('1.26.7', input(DATA, { port: '53a' })))).toMatchObject({ code: 'port' });
    expect(corefileOf(translateLikeNodeCache('1.26.7', input(DATA, { port: '+53' })))).toContain('\nacme.local:+53 {\n');
  });
});
