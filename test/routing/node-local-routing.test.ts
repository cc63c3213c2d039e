import { describe, expect, it } from 'vitest';
import { coreDnsRouting } from '../../src/routing/coredns-routing.js';
import { describeDestination } from '../../src/routing/destination.js';
import { nodeLocalDnsRouting } from '../../src/routing/node-local-routing.js';

const NODE_CACHE = `cluster.local:53 {
    bind 169.254.20.10
    forward . 10.96.0.20 {
            force_tcp
    }
}
acme.local:53 {
    bind 169.254.20.10
    forward . 10.150.0.1
}
mixed.local:53 {
    forward . 10.96.0.20 10.150.0.7
}
.:53 {
    bind 169.254.20.10
    forward . /etc/resolv.conf
}
`;
const COREDNS = `.:53 {
    kubernetes cluster.local in-addr.arpa ip6.arpa {
       fallthrough in-addr.arpa ip6.arpa
    }
    forward . 8.8.8.8
}
acme.local:53 {
    forward . 10.150.0.99
}
`;

describe('nodeLocalDnsRouting', () => {
  const tiers = nodeLocalDnsRouting(NODE_CACHE, coreDnsRouting(COREDNS), { upstreamIp: '10.96.0.20' });

  it('continues into CoreDNS where node-local-dns forwards to the kube-dns-upstream Service', () => {
    const route = tiers.route('kubernetes.default.svc.cluster.local.');
    expect(describeDestination(route.nodeLocal.destination)).toBe('10.96.0.20:53');
    expect(route.coreDns?.via).toBe('block ".:53" > kubernetes (zone cluster.local)');
    expect(describeDestination(route.final.destination)).toBe('cluster cluster.local');
    expect(route.final.via).toContain('node-local-dns block "cluster.local:53"');
  });

  it('never reaches CoreDNS for a zone node-local-dns forwards elsewhere, whatever CoreDNS would do', () => {
    const stub = tiers.route('www.acme.local');
    expect(stub.coreDns).toBeUndefined();
    expect(describeDestination(stub.final.destination)).toBe('10.150.0.1:53');
    const other = tiers.route('example.com');
    expect(describeDestination(other.final.destination)).toBe('resolv.conf');
  });

  it('gives both outcomes when node-local-dns picks between CoreDNS and another server', () => {
    expect(describeDestination(tiers.route('a.mixed.local').final.destination)).toBe('one of {10.150.0.7:53 | 8.8.8.8:53}');
  });

  it('knows the upstream Service on another port, and refuses an upstream that is not an IP', () => {
    const elsewhere = nodeLocalDnsRouting(NODE_CACHE, coreDnsRouting(COREDNS), { upstreamIp: '10.96.0.20', upstreamPort: 5353 });
    expect(elsewhere.upstream).toBe('10.96.0.20:5353');
    expect(elsewhere.route('cluster.local').coreDns).toBeUndefined();
    expect(() => nodeLocalDnsRouting(NODE_CACHE, coreDnsRouting(COREDNS), { upstreamIp: 'kube-dns' })).toThrow(expect.objectContaining({ name: 'InvalidArgumentError', code: 'invalid-value', argument: 'options.upstreamIp' }));
  });
});
