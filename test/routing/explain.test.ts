import { describe, expect, it } from 'vitest';
import { destinationKey } from '../../src/routing/destination.js';
import { clusterSearchPath, explainName, formatExplanation, resolverCandidates } from '../../src/routing/explain.js';

const SEARCH = clusterSearchPath('shop', 'cluster.local');

describe('resolver candidates (glibc, ndots:5)', () => {
  it('uses the ClusterFirst search path', () => {
    expect(SEARCH).toEqual(['shop.svc.cluster.local', 'svc.cluster.local', 'cluster.local']);
  });

  it('tries the search path first for names with fewer than ndots dots, then the name itself', () => {
    expect(resolverCandidates('web', SEARCH)).toEqual(['web.shop.svc.cluster.local', 'web.svc.cluster.local', 'web.cluster.local', 'web']);
    expect(resolverCandidates('api.acme.local', SEARCH)).toEqual(['api.acme.local.shop.svc.cluster.local', 'api.acme.local.svc.cluster.local', 'api.acme.local.cluster.local', 'api.acme.local']);
  });

  it('tries the name itself first with at least ndots dots', () => {
    expect(resolverCandidates('a.b.c.d.e.f', SEARCH)).toEqual(['a.b.c.d.e.f', 'a.b.c.d.e.f.shop.svc.cluster.local', 'a.b.c.d.e.f.svc.cluster.local', 'a.b.c.d.e.f.cluster.local']);
    expect(resolverCandidates('api.acme.local', SEARCH, 1)[0]).toBe('api.acme.local');
  });

  it('tries a name ending in a dot only as it is, lower-cased', () => {
    expect(resolverCandidates('Example.COM.', SEARCH)).toEqual(['example.com']);
  });
});

describe('explainName', () => {
  const kubeDns = { stubDomains: '{"acme.local": ["10.0.0.1"]}', upstreamNameservers: '["8.8.8.8"]' };
  const corefile = `.:53 {
    kubernetes cluster.local in-addr.arpa ip6.arpa {
        fallthrough in-addr.arpa ip6.arpa
    }
    forward . 8.8.8.8
}
`;

  it('says who answers each candidate under kube-dns and CoreDNS', () => {
    const explanation = explainName('api.acme.local', { kubeDns, corefile, namespace: 'shop' });
    expect(explanation.candidates.map((candidate) => [candidate.name, destinationKey(candidate.kubeDns.destination), candidate.coreDns && destinationKey(candidate.coreDns.destination), candidate.same])).toEqual([
      ['api.acme.local.shop.svc.cluster.local', 'cluster@cluster.local', 'cluster@cluster.local', true],
      ['api.acme.local.svc.cluster.local', 'cluster@cluster.local', 'cluster@cluster.local', true],
      ['api.acme.local.cluster.local', 'cluster@cluster.local', 'cluster@cluster.local', true],
      ['api.acme.local', 'servers(10.0.0.1:53)', 'servers(8.8.8.8:53)', false],
    ]);
    expect(formatExplanation(explanation)).toBe(`"api.acme.local": search shop.svc.cluster.local svc.cluster.local cluster.local, ndots:5; tried in this order until one gets an answer:

#  CANDIDATE                              KUBE-DNS                                 COREDNS                                           SAME
1  api.acme.local.shop.svc.cluster.local  cluster cluster.local                    cluster cluster.local                             yes
                                          (kubedns: cluster domain cluster.local)  (block ".:53" > kubernetes (zone cluster.local))

2  api.acme.local.svc.cluster.local       cluster cluster.local                    cluster cluster.local                             yes
                                          (kubedns: cluster domain cluster.local)  (block ".:53" > kubernetes (zone cluster.local))

3  api.acme.local.cluster.local           cluster cluster.local                    cluster cluster.local                             yes
                                          (kubedns: cluster domain cluster.local)  (block ".:53" > kubernetes (zone cluster.local))

4  api.acme.local                         10.0.0.1:53                              8.8.8.8:53                                        NO
                                          (stub domain acme.local)                 (block ".:53" > forward . 8.8.8.8)
`);
  });

  it('explains kube-dns alone, with the node search domains and another cluster domain', () => {
    const explanation = explainName('db', { kubeDns, clusterDomain: 'k8s.corp', searchPath: ['corp.example.com'] });
    expect(explanation.searchPath).toEqual(['default.svc.k8s.corp', 'svc.k8s.corp', 'k8s.corp', 'corp.example.com']);
    expect(explanation.candidates.map((candidate) => [candidate.name, destinationKey(candidate.kubeDns.destination)])).toEqual([
      ['db.default.svc.k8s.corp', 'cluster@k8s.corp'],
      ['db.svc.k8s.corp', 'cluster@k8s.corp'],
      ['db.k8s.corp', 'cluster@k8s.corp'],
      ['db.corp.example.com', 'servers(8.8.8.8:53)'],
      ['db', 'servers(8.8.8.8:53)'],
    ]);
    expect(explanation.candidates.every((candidate) => candidate.coreDns === undefined && candidate.same === undefined)).toBe(true);
    expect(formatExplanation(explanation).split('\n')[2]).toBe('#  CANDIDATE                KUBE-DNS');
  });
});
