import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { kubernetesUpstreamSupport } from '../../src/coredns/availability.js';
import { COREDNS_VERSIONS } from '../../src/coredns/versions.js';
import { formatDiagnostic } from '../../src/diagnostics/diagnostic.js';
import { readKubeDnsInstall } from '../../src/kubedns/kube-dns-install.js';
import { TranslateOptionsError, translateKubeDns, translateKubeDnsInstall } from '../../src/translate/translate.js';
import type { TranslateOptions } from '../../src/translate/translate.js';

/** The assumption every translation without a Deployment states (tested on its own below), left out of the lists compared here. */
const ASSUMED = 'kube-dns-deployment-assumed';

function run(data: Record<string, string> | null, options: TranslateOptions = {}) {
  const translation = translateKubeDns(data, options);
  return { ...translation, lines: translation.diagnostics.filter((entry) => entry.code !== ASSUMED).map(formatDiagnostic) };
}

function codes(data: Record<string, string> | null, options: TranslateOptions = {}): string[] {
  return translateKubeDns(data, options)
    .diagnostics.filter((entry) => entry.code !== ASSUMED)
    .map((entry) => `${entry.severity} ${entry.code}`);
}

describe('translateKubeDns', () => {
  it('assumes the stock kube-dns manifest without a Deployment: says so once, and caches no NXDOMAIN', () => {
    const translation = translateKubeDns(null);
    expect(translation.diagnostics.filter((entry) => entry.code === ASSUMED)).toHaveLength(1);
    expect(translation.diagnostics[0]?.message).toContain('--no-negcache');
    expect(translation.corefile).toContain('    cache 30 {\n        disable denial\n    }\n');
    expect(translation.corefile).not.toMatch(/cache 30\n/);
    const old = translateKubeDns(null, { coredns: '1.9.3' });
    expect(old.corefile).toContain('    cache 30 {\n        denial 9984 1\n    }\n');
    expect(old.diagnostics.map((entry) => `${entry.severity} ${entry.code}`)).toContain('warning negative-caching-shortened');
    // The stock manifest passes --no-negcache from Kubernetes 1.9 (kube-dns 1.14.7) on.
    const before = translateKubeDns(null, { kubeDnsVersion: '1.14.6' });
    expect(before.corefile).toMatch(/ {4}cache 30\n/);
    expect(before.diagnostics[0]?.message).toContain('without --no-negcache before kube-dns 1.14.7');
    expect(translateKubeDns(null, { kubeDnsVersion: '1.14.7' }).corefile).toContain('disable denial');
  });

  it('emits the Kubernetes default main block and one block per stub domain, sorted', () => {
    const { corefile, ok, lines } = run({
      stubDomains: '{"z.corp": ["10.0.0.2"], "a.corp": ["10.0.0.1", "10.0.0.3:5353", "2001:db8::2"]}',
      upstreamNameservers: '["8.8.8.8", "1.1.1.1:53"]',
    });
    expect(ok).toBe(true);
    expect(lines).toEqual([]);
    expect(corefile).toBe(
      [
        '.:53 {',
        '    errors',
        '    health {',
        '        lameduck 5s',
        '    }',
        '    ready',
        '    kubernetes cluster.local in-addr.arpa ip6.arpa {',
        '        pods insecure',
        '        fallthrough in-addr.arpa ip6.arpa',
        '        ttl 30',
        '    }',
        '    prometheus :9153',
        '    forward . 8.8.8.8 1.1.1.1:53 {',
        '        max_concurrent 1000',
        '    }',
        '    cache 30 {',
        '        disable denial',
        '    }',
        '    loop',
        '    reload',
        '    loadbalance',
        '}',
        '',
        'a.corp:53 {',
        '    errors',
        '    cache 30 {',
        '        disable denial',
        '    }',
        '    loop',
        '    forward . 10.0.0.1 10.0.0.3:5353 2001:db8::2',
        '}',
        '',
        'z.corp:53 {',
        '    errors',
        '    cache 30 {',
        '        disable denial',
        '    }',
        '    loop',
        '    forward . 10.0.0.2',
        '}',
        '',
      ].join('\n'),
    );
  });

  it("answers cluster names with kube-dns's TTL 30 on every release, also before kubeadm's block had ttl 30 (1.3.1) and in a split main block", () => {
    for (const coredns of COREDNS_VERSIONS) {
      const corefile = translateKubeDns({ stubDomains: '{"local": ["10.0.0.2"]}' }, { coredns }).corefile ?? '';
      const kubernetesBlocks = [...corefile.matchAll(/ kubernetes [^\n]*\{\n((?: {8}.*\n)+) {4}\}/g)].map((match) => match[1] ?? '');
      expect(kubernetesBlocks.length, coredns).toBeGreaterThan(0);
      for (const block of kubernetesBlocks) expect(block.split('\n').filter((line) => line.trim().startsWith('ttl')), coredns).toEqual(['        ttl 30']);
    }
  });

  it('keeps kubernetes upstream wherever the plugin resolves ExternalName targets only with it (before 1.5.2), 1.5.0 and 1.5.1 included', () => {
    for (const coredns of COREDNS_VERSIONS) {
      const corefile = translateKubeDns({}, { coredns }).corefile ?? '';
      const upstream = corefile.split('\n').filter((line) => line.trim().startsWith('upstream'));
      expect(upstream, coredns).toHaveLength(kubernetesUpstreamSupport(coredns) === 'no-op' || kubernetesUpstreamSupport(coredns) === 'removed' ? 0 : 1);
    }
  });

  it('is deterministic whatever the key order', () => {
    const one = run({ stubDomains: '{"b.corp": ["10.0.0.2"], "a.corp": ["10.0.0.1"]}' }).corefile;
    const two = run({ stubDomains: '{"a.corp": ["10.0.0.1"], "b.corp": ["10.0.0.2"]}' }).corefile;
    expect(one).toBe(two);
  });

  it('never emits an empty forward: no upstreams means /etc/resolv.conf', () => {
    for (const upstreamNameservers of [undefined, '[]', 'null']) {
      const { corefile, lines } = run(upstreamNameservers === undefined ? {} : { upstreamNameservers });
      expect(corefile).toContain('    forward . /etc/resolv.conf {');
      expect(lines).toEqual(['info upstream-resolv-conf upstreamNameservers: forwarding to /etc/resolv.conf of the node']);
    }
  });

  it('refuses what kube-dns could not read', () => {
    expect(codes({ stubDomains: '{"a": [1.1.1]}' })).toEqual(['error json-syntax']);
    expect(codes({ stubDomains: '{"a": "1.1.1.1"}' }, { force: true })).toEqual(['error json-type']);
    expect(run({ upstreamNameservers: '[' }).ok).toBe(false);
  });

  it('refuses a ConfigMap kube-dns rejected, unless forced', () => {
    const data = { stubDomains: '{"acme.local": ["10.0.0.1"]}', upstreamNameservers: '["dns.google"]' };
    const refused = run(data);
    expect(codes(data)).toEqual(['error kube-dns-invalid-upstream', 'error kube-dns-would-ignore', 'warning hostname-nameserver']);
    expect(refused.ok).toBe(false);
    expect(refused.lines).toContain('error kube-dns-would-ignore: kube-dns 1.26.7 rejected this ConfigMap (1 problem) and ran without it');
    const forced = run({ stubDomains: '{"Acme.Local": ["10.0.0.1"]}' }, { force: true });
    expect(forced.ok).toBe(true);
    expect(forced.lines).toEqual([
      'warning kube-dns-invalid-domain stubDomains["Acme.Local"]: \'Acme.Local\' is not a DNS-1123 subdomain',
      'warning kube-dns-would-ignore: kube-dns 1.26.7 rejected this ConfigMap (1 problem) and ran without it',
      'info zone-normalized stubDomains["Acme.Local"]: \'Acme.Local\' becomes \'acme.local\' (lower-cased)',
      'info upstream-resolv-conf upstreamNameservers: forwarding to /etc/resolv.conf of the node',
    ]);
    expect(forced.corefile).toContain('acme.local:53 {');
  });

  it('converts non-ASCII stub domains to punycode when forced', () => {
    const forced = run({ stubDomains: '{"bücher.example": ["10.0.0.1"]}' }, { force: true });
    expect(forced.corefile).toContain('xn--bcher-kva.example:53 {');
  });

  it('refuses a stub equal to the cluster domain or to a reverse zone', () => {
    expect(codes({ stubDomains: '{"cluster.local": ["10.0.0.1"]}' })).toContain('error stub-equals-cluster-domain');
    expect(codes({ stubDomains: '{"corp.internal": ["10.0.0.1"]}' }, { clusterDomain: 'corp.internal' })).toContain('error stub-equals-cluster-domain');
    expect(codes({ stubDomains: '{"in-addr.arpa": ["10.0.0.1"]}' })).toContain('error stub-equals-reverse-zone');
  });

  it('keeps cluster names with the kubernetes plugin when a stub is their parent', () => {
    const local = run({ stubDomains: '{"local": ["10.0.0.1"]}' });
    expect(local.corefile).toMatch(/^\.:53 cluster\.local:53 \{/);
    const arpa = run({ stubDomains: '{"arpa": ["10.0.0.1"]}' });
    expect(arpa.corefile).toMatch(/^\.:53 in-addr\.arpa:53 ip6\.arpa:53 \{/);
    expect(arpa.lines.filter((line) => line.includes('main-block-key-added'))).toHaveLength(2);
  });

  it('keeps health in a block with one key where CoreDNS 1.1.0–1.6.5 would bind its address once per key', () => {
    const data = { stubDomains: '{"arpa": ["10.0.0.1"], "a": ["10.0.0.2"]}' };
    for (const coredns of ['1.1.3', '1.2.6', '1.4.0', '1.6.5']) {
      const split = run(data, { coredns });
      expect(split.ok, coredns).toBe(true);
      const blocks = (split.corefile ?? '').split('\n\n');
      expect(blocks[0], coredns).toMatch(/^\.:53 \{\n    errors\n    health( \{)?\n/);
      // The zones the main block would have gained get a block of their own: the same plugins, no health.
      expect(blocks[1], coredns).toMatch(/^in-addr\.arpa:53 ip6\.arpa:53 \{\n/);
      expect(blocks[1], coredns).not.toContain('health');
      expect(blocks[1]?.replace(/^[^\n]*\n/, ''), coredns).toBe(blocks[0]?.replace(/^[^\n]*\n/, '').replace(/^    health( \{\n[^}]*\})?\n/m, ''));
      expect(blocks.slice(2).map((block) => block.split(' ')[0]), coredns).toEqual(['a:53', 'arpa:53']);
      expect(split.lines, coredns).toContain(
        `info main-block-split stubDomains["arpa"]: in-addr.arpa, ip6.arpa are served by a copy of the main block without health: CoreDNS ${coredns} sets health up once per key, and the second listener on :8080 would stop it`,
      );
    }
    // Releases that start such a block keep the single main block.
    for (const coredns of ['1.0.6', '1.6.6', '1.6.9', '1.14.7']) {
      const single = run(data, { coredns });
      expect(single.corefile, coredns).toMatch(/^\.:53 in-addr\.arpa:53 ip6\.arpa:53 \{/);
      expect(single.lines.some((line) => line.includes('main-block-split')), coredns).toBe(false);
    }
    const local = run({ stubDomains: '{"local": ["10.0.0.1"]}' }, { coredns: '1.2.6' });
    expect(local.corefile).toMatch(/^\.:53 \{[^]*\n\ncluster\.local:53 \{\n    errors\n    kubernetes cluster\.local in-addr\.arpa ip6\.arpa \{/);
  });

  it('warns about stubs inside the cluster domain and leaves reverse sub-zones to the stub', () => {
    expect(codes({ stubDomains: '{"my.cluster.local": ["10.0.0.1"]}' })).toContain('warning stub-under-cluster-domain');
    const reverse = run({ stubDomains: '{"10.in-addr.arpa": ["10.0.0.1"]}' });
    expect(reverse.corefile).toContain('10.in-addr.arpa:53 {');
    expect(reverse.corefile).toMatch(/^\.:53 \{/);
  });

  it('refuses loopback and cluster-DNS nameservers', () => {
    expect(codes({ stubDomains: '{"a.corp": ["127.0.0.1:10053"]}' })).toContain('error loop-nameserver');
    expect(codes({ upstreamNameservers: '["::1"]' })).toContain('error loop-nameserver');
    expect(codes({ stubDomains: '{"a.corp": ["10.96.0.10"]}' }, { clusterDnsIp: '10.96.0.10' })).toContain('error loop-nameserver');
  });

  it('checks ports (kube-dns allowed :0 on stubs)', () => {
    expect(codes({ stubDomains: '{"a.corp": ["10.0.0.1:0"]}' })).toEqual(['error port-out-of-range', 'info upstream-resolv-conf']);
  });

  it('rewrites IP text that CoreDNS would read differently', () => {
    const rewritten = run({ stubDomains: '{"a.corp": ["2001:DB8::1"]}' }, { kubeDnsVersion: '1.22.20' });
    expect(rewritten.lines).toContain("warning ip-rewritten stubDomains[\"a.corp\"][0]: '2001:DB8::1' is written as '2001:db8::1'");
    expect(rewritten.corefile).toContain('forward . 2001:db8::1\n');
  });

  it('reads a leading-zero octet as dnsmasq did (octal), not as Go validated it, and refuses what dnsmasq refused', () => {
    // Until 1.26.5 kube-dns accepted 010.0.0.1 (Go read 10.0.0.1); dnsmasq-nanny passed the text to dnsmasq, which forwarded to 8.0.0.1.
    const octal = run({ stubDomains: '{"a.corp": ["010.0.0.1:5353"]}' }, { kubeDnsVersion: '1.22.20' });
    expect(octal.corefile).toContain('forward . 8.0.0.1:5353\n');
    expect(octal.lines).toContain(
      "warning octal-address stubDomains[\"a.corp\"][0]: '010.0.0.1:5353': dnsmasq read 8.0.0.1 (octal), Go's validation 10.0.0.1; translated to 8.0.0.1, the server kube-dns's dnsmasq forwarded to",
    );
    const refused = run({ upstreamNameservers: '["10.0.0.08"]' }, { kubeDnsVersion: '1.22.20' });
    expect(refused.ok).toBe(false);
    expect(codes({ upstreamNameservers: '["10.0.0.08"]' }, { kubeDnsVersion: '1.22.20' })).toEqual(['error address-refused-by-dnsmasq']);
    // Same number either way: only the text is rewritten.
    expect(codes({ upstreamNameservers: '["10.0.0.001"]' }, { kubeDnsVersion: '1.22.20' })).toEqual(['warning ip-rewritten']);
  });

  it('refuses a single-label host name where CoreDNS would look it up at start-up and exit', () => {
    expect(codes({ stubDomains: '{"a.corp": ["unbound", "10.0.0.1"]}' }, { coredns: '1.14.4' })).toEqual(['error single-label-hostname-nameserver', 'info upstream-resolv-conf']);
    expect(codes({ upstreamNameservers: '["unbound"]' }, { coredns: '1.14.3' })).toContain('warning hostname-nameserver-dropped');
  });

  it('passes hostname nameservers to CoreDNS 1.14.4+, drops them before, and refuses to empty a stub', () => {
    const data = { stubDomains: '{"a.corp": ["ns.a.corp", "10.0.0.1"], "b.corp": ["ns.b.corp"]}' };
    expect(codes(data, { coredns: '1.14.4' })).toEqual(['warning hostname-nameserver', 'warning hostname-nameserver', 'info upstream-resolv-conf']);
    expect(run(data, { coredns: '1.14.4' }).corefile).toContain('forward . ns.a.corp 10.0.0.1');
    expect(codes(data, { coredns: '1.14.3' })).toEqual([
      'warning hostname-nameserver-dropped',
      'warning hostname-nameserver-dropped',
      'error stub-without-nameservers',
      'info upstream-resolv-conf',
    ]);
    expect(codes({ stubDomains: '{"a.corp": ["ns.kube-system.svc.cluster.local"]}' })).toContain('error cluster-hostname-nameserver');
  });

  it('treats a stub without nameservers as kube-dns did: no block', () => {
    const empty = run({ stubDomains: '{"a.corp": [], "b.corp": null}' });
    expect(empty.ok).toBe(true);
    expect(empty.corefile).not.toContain('a.corp');
    expect(codes({ stubDomains: '{"a.corp": []}' })).toContain('info empty-stub-domain');
  });

  it('refuses more than 15 nameservers for one zone', () => {
    const many = JSON.stringify({ 'a.corp': Array.from({ length: 16 }, (_, index) => `10.0.0.${index + 1}`) });
    expect(codes({ stubDomains: many })).toContain('error too-many-nameservers');
  });

  it('refuses a stub list too long to read in full by its count, without a diagnostic per item', () => {
    const many = JSON.stringify({ 'a.corp': Array.from({ length: 1_000_000 }, () => '127.0.0.1') });
    const { ok, lines } = run({ stubDomains: many, upstreamNameservers: '["8.8.8.8"]' });
    expect(ok).toBe(false);
    expect(lines).toEqual([
      "warning long-list-not-examined stubDomains[\"a.corp\"]: 'a.corp': only the first 256 of 1000000 nameservers were examined",
      "error too-many-nameservers stubDomains[\"a.corp\"]: 'a.corp' has 1000000 nameservers; CoreDNS forwards to at most 15",
    ]);
  });

  it('refuses more than 15 upstream nameservers, also with --force (was an internal error)', () => {
    const sixteen = JSON.stringify(Array.from({ length: 16 }, (_, index) => `10.0.0.${index + 1}`));
    const forced = run({ upstreamNameservers: sixteen }, { force: true });
    expect(forced.ok).toBe(false);
    expect(forced.lines).toContain('error too-many-nameservers upstreamNameservers: 16 upstream nameservers; CoreDNS forwards to at most 15');
    const huge = run({ upstreamNameservers: JSON.stringify(Array.from({ length: 1_000_000 }, () => '127.0.0.1')) }, { force: true });
    expect(huge.ok).toBe(false);
    expect(huge.lines).toEqual([
      'warning kube-dns-too-many-upstreams upstreamNameservers: 1000000 upstream nameservers; kube-dns accepts at most 3',
      'warning long-list-not-examined upstreamNameservers: only the first 256 of 1000000 upstream nameservers were examined',
      'warning kube-dns-would-ignore: kube-dns 1.26.7 rejected this ConfigMap (1 problem) and ran without it',
      'error too-many-nameservers upstreamNameservers: 1000000 upstream nameservers; CoreDNS forwards to at most 15',
    ]);
  });

  it('refuses zones CoreDNS cannot serve and duplicates', () => {
    expect(codes({ stubDomains: `{"${'a'.repeat(64)}.corp": ["10.0.0.1"]}` })).toContain('error invalid-zone');
    expect(codes({ stubDomains: '{"a.corp": ["10.0.0.1"], "A.corp": ["10.0.0.2"]}' }, { force: true })).toContain('error duplicate-zone');
  });

  it('translates federations to the federation plugin up to CoreDNS 1.6.9', () => {
    const federated = run({ federations: 'foo=foo.example.com,bar=bar.example.com' }, { coredns: '1.6.9' });
    expect(federated.corefile).toContain('    federation cluster.local {\n        foo foo.example.com\n        bar bar.example.com\n    }\n');
    expect(federated.lines).toContain('warning federation-semantics federations: federation foo, bar translated to the federation plugin');
    expect(codes({ federations: 'foo=foo.example.com' })).toEqual(['info upstream-resolv-conf', 'error federation-unsupported']);
    expect(run({ federations: 'foo=foo.example.com' }, { dropFederations: true }).corefile).not.toContain('federation');
  });

  it('rejects options that make no sense', () => {
    expect(() => translateKubeDns({}, { clusterDomain: 'Bad Domain' })).toThrow(TranslateOptionsError);
    expect(() => translateKubeDns({}, { clusterDnsIp: 'x' })).toThrow(TranslateOptionsError);
    expect(() => translateKubeDns({}, { coredns: '1.8' })).toThrow(/1\.8\.0/);
  });
});

describe('what lint says the target refuses, the translation refuses', () => {
  it('refuses a --dns-forward-max larger than max_concurrent reads, naming it as written (it became max_concurrent 1e+23, exit 0)', () => {
    const text = readFileSync(join(import.meta.dirname, '../../golden/translate/codes/translation-target-refuses.yaml'), 'utf8');
    const result = translateKubeDnsInstall(readKubeDnsInstall([{ text, filename: 'kube-dns.yaml' }]), { coredns: '1.14.7' });
    expect(result.ok).toBe(false);
    expect(result.diagnostics.filter((entry) => entry.severity === 'error').map((entry) => entry.code)).toEqual(['translation-target-refuses']);
    expect(result.diagnostics.find((entry) => entry.code === 'translation-target-refuses')?.message).toContain('--dns-forward-max=99999999999999999999999: CoreDNS 1.14.7');
  });
});

describe('zones from the Deployment are checked and reported as the Deployment\'s', () => {
  const deployment = (containers: string) =>
    `kind: Deployment\nmetadata: {name: kube-dns, namespace: kube-system}\nspec:\n  template:\n    spec:\n      containers:\n${containers}`;
  const dnsmasq = (extra: string) =>
    `      - name: dnsmasq\n        image: registry.k8s.io/dns/k8s-dns-dnsmasq-nanny:1.26.7\n        args: ["-v=2", "-configDir=/etc/k8s/dns/dnsmasq-nanny", "--", "-k", "--no-negcache", "--server=/cluster.local/127.0.0.1#10053"${extra}]\n`;

  it('does not take a domain from a sidecar --probe that names none (`kubernetes.default.svc...` became the zone `.`)', () => {
    const sidecar = '      - name: sidecar\n        args: ["--probe=dnsmasq,127.0.0.1:53,kubernetes.default.svc...,5,SRV"]\n';
    const result = translateKubeDnsInstall(readKubeDnsInstall([{ text: deployment(dnsmasq('') + sidecar), filename: 'kube-dns.yaml' }]));
    expect(result.ok).toBe(true);
    expect(result.corefile).not.toMatch(/kubernetes \. /);
    expect(result.diagnostics.find((entry) => entry.code === 'deployment-flag-not-translated' && entry.message.includes('kubernetes.default.svc...'))?.message).toContain("whose domain '.' is not a DNS-1123 subdomain");
  });

  it('reports a sidecar --probe whose domain is empty (`kubernetes.default.svc..`) at the sidecar, and takes no domain from it', () => {
    const sidecar = '      - name: sidecar\n        args: ["--probe=dnsmasq,127.0.0.1:53,kubernetes.default.svc..,5,SRV"]\n';
    const result = translateKubeDnsInstall(readKubeDnsInstall([{ text: deployment(dnsmasq('') + sidecar), filename: 'kube-dns.yaml' }]));
    expect(result.corefile).not.toMatch(/kubernetes \. /);
    const probe = result.diagnostics.filter((entry) => entry.message.includes('kubernetes.default.svc..'));
    expect(probe.map((entry) => `${entry.code} ${entry.key}${entry.path}`)).toEqual(['deployment-flag-not-translated container sidecar[--probe=dnsmasq,127.0.0.1:53,kubernetes.default.svc..,5,SRV]']);
    expect(probe[0]?.message).toContain("whose domain '' is empty");
  });

  it('reports an invalid --server zone at the dnsmasq container, not at stubDomains', () => {
    const result = translateKubeDnsInstall(readKubeDnsInstall([{ text: deployment(dnsmasq(', "--server=/bad..zone/10.0.0.1"')), filename: 'kube-dns.yaml' }]));
    expect(result.ok).toBe(false);
    const invalid = result.diagnostics.find((entry) => entry.code === 'invalid-zone');
    expect(invalid && formatDiagnostic(invalid)).toBe("error invalid-zone container dnsmasq[--server=/bad..zone/10.0.0.1]: 'bad..zone' has an empty label");
  });
});
