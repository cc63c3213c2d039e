import { describe, expect, it } from 'vitest';
import { readKubeDnsInstall } from '../../src/kubedns/kube-dns-install.js';
import { lintCorefile } from '../../src/lint/lint.js';
import { translateKubeDnsInstall } from '../../src/translate/translate.js';
import { checkRouting } from '../../src/routing/check.js';
import type { TranslateOptions } from '../../src/translate/translate.js';
import { expectDoublingGrowth } from '../support/growth.js';
import { configMapYaml, deploymentYaml, serviceYaml, STOCK_DNSMASQ_ARGS, STOCK_KUBEDNS_ARGS } from '../support/kube-dns-manifests.js';
import type { DeploymentParts } from '../support/kube-dns-manifests.js';

function translate(parts: DeploymentParts, data: Record<string, string> | undefined, options: TranslateOptions = {}, service?: string) {
  const texts = [deploymentYaml(parts), ...(data === undefined ? [] : [configMapYaml(data)]), ...(service === undefined ? [] : [serviceYaml(service)])];
  const translation = translateKubeDnsInstall(readKubeDnsInstall([{ text: texts.join('---\n'), filename: 'install.yaml' }]), options);
  return { ...translation, codes: translation.diagnostics.map((entry) => `${entry.severity} ${entry.code}`) };
}

/** The server block of `zone` in `corefile`. */
function block(corefile: string | undefined, key: string): string | undefined {
  return corefile
    ?.split('\n\n')
    .find((text) => text.startsWith(`${key} {`))
    ?.trim();
}

describe('translateKubeDnsInstall', () => {
  it('takes the cluster domain from kubedns --domain, and refuses a different --cluster-domain unless forced', () => {
    const kubedns = ['--domain=corp.example.', '--dns-port=10053'];
    const dnsmasq = STOCK_DNSMASQ_ARGS.map((arg) => arg.replace('cluster.local', 'corp.example'));
    const taken = translate({ kubedns, dnsmasq }, undefined);
    expect(taken.ok).toBe(true);
    expect(taken.corefile).toContain('    kubernetes corp.example in-addr.arpa ip6.arpa {');
    expect(taken.codes).toContain('info cluster-domain-from-deployment');
    expect(translate({ kubedns, dnsmasq }, undefined, { clusterDomain: 'corp.example.' }).ok).toBe(true);
    const conflict = translate({ kubedns, dnsmasq }, undefined, { clusterDomain: 'cluster.local' });
    expect(conflict.ok).toBe(false);
    expect(conflict.codes[0]).toBe('error cluster-domain-conflict');
    // It points at kubedns's --domain as written.
    expect(conflict.diagnostics[0]).toMatchObject({ key: 'Deployment kube-dns', path: '[container kubedns].args[0]', location: { filename: 'install.yaml', line: 10, column: 17, exact: true } });
    const forced = translate({ kubedns, dnsmasq }, undefined, { clusterDomain: 'cluster.local', force: true });
    expect(forced.ok).toBe(true);
    expect(forced.codes[0]).toBe('warning cluster-domain-conflict');
    expect(forced.corefile).toContain('    kubernetes cluster.local in-addr.arpa ip6.arpa {');
  });

  it("takes the domain from the sidecar's probes when there is no kubedns container flag to read", () => {
    const dnsmasq = STOCK_DNSMASQ_ARGS.map((arg) => arg.replace('cluster.local', 'probe.example'));
    const text = deploymentYaml({ dnsmasq, sidecar: ['--probe=dnsmasq,127.0.0.1:53,kubernetes.default.svc.probe.example,5,A'] }).replace(/ {6}- name: kubedns\n.*\n.*\n/, '');
    const translation = translateKubeDnsInstall(readKubeDnsInstall([{ text }]));
    expect(translation.corefile).toContain('    kubernetes probe.example in-addr.arpa ip6.arpa {');
  });

  it("merges the manifest's --server=/zone/ servers with the ConfigMap's for the same zone, and adds new zones", () => {
    const translation = translate(
      { dnsmasq: [...STOCK_DNSMASQ_ARGS, '--server=/acme.local/10.0.0.2', '--server=/in6.arpa/10.0.0.9#5353', '-S', '/acme.local/10.0.0.1#53'] },
      { stubDomains: '{"acme.local": ["10.0.0.1"]}' },
    );
    expect(translation.ok).toBe(true);
    // The manifest's servers first: dnsmasq tries one domain's servers in the order given, and the nanny appends the ConfigMap's.
    expect(block(translation.corefile, 'acme.local:53')).toContain('    forward . 10.0.0.2 10.0.0.1\n');
    expect(block(translation.corefile, 'in6.arpa:53')).toContain('    forward . 10.0.0.9:5353\n');
    expect(translation.codes.filter((code) => code === 'info deployment-stub-server')).toHaveLength(2);
  });

  it('answers the other types of an --address zone with --local NOERROR without a record in a way each release starts with (a template needs a record up to 1.5.0)', () => {
    const zone = (coredns: string) => {
      const translation = translate({ dnsmasq: [...STOCK_DNSMASQ_ARGS, '--address=/fixed.corp/192.0.2.9', '--local=/fixed.corp/'] }, undefined, { coredns });
      expect(translation.ok, coredns).toBe(true);
      expect(lintCorefile(translation.corefile ?? '', { coredns }).diagnostics.filter((entry) => entry.severity === 'error'), coredns).toEqual([]);
      return block(translation.corefile, 'fixed.corp:53')?.split('\n').slice(5).join('\n');
    };
    const soa = '"fixed.corp. 0 IN SOA fixed.corp. fixed.corp. 1 0 0 0 0"';
    // Up to 1.1.2 the setup counts answer and additional records, from 1.1.3 answer and authority, from 1.5.1 none.
    expect(zone('1.0.5')).toBe(`    template ANY ANY {\n        rcode NOERROR\n        additional ${soa}\n    }\n}`);
    for (const coredns of ['1.1.3', '1.2.6', '1.5.0']) expect(zone(coredns), coredns).toBe(`    template ANY ANY {\n        rcode NOERROR\n        authority ${soa}\n    }\n}`);
    for (const coredns of ['1.5.1', '1.14.7']) expect(zone(coredns), coredns).toBe('    template ANY ANY {\n        rcode NOERROR\n    }\n}');
    // The former output for 1.2.6, which lint now refuses as the release does.
    const former = 'fixed.corp:53 {\n    template IN A {\n        answer "{{ .Name }} 0 IN A 192.0.2.9"\n    }\n    template ANY ANY {\n        rcode NOERROR\n    }\n}\n';
    expect(lintCorefile(former, { coredns: '1.2.6' }).diagnostics.map((entry) => `${entry.code} ${entry.message}`)).toEqual([
      `requirement-missing template needs 'answer' or 'authority' in its block, or rcode other than NOERROR: CoreDNS 1.2.6 stops with "no answer section for template found"`,
    ]);
    expect(lintCorefile(former, { coredns: '1.5.1' }).diagnostics.filter((entry) => entry.severity === 'error')).toEqual([]);
  });

  it("leaves an --address zone's other query types to what serves it without the address from kube-dns 1.22.1 (dnsmasq 2.86+), NODATA before; check passes on both and fails on the old output", () => {
    const flags = [...STOCK_DNSMASQ_ARGS, '--address=/v4.test/192.0.2.4', '--address=/v6.test/fd00::6', '--address=/both.test/192.0.2.5', '--address=/both.test/fd00::5', '--address=/nodata.test/192.0.2.3', '--local=/nodata.test/', '--server=/corp.test/10.0.0.3', '--address=/a.corp.test/192.0.2.6', '--address=/x.cluster.local/192.0.2.8'];
    const era = (tag: string, coredns = '1.14.7') => {
      const parts = { dnsmasq: flags, kubeDnsImage: `registry.k8s.io/dns/k8s-dns-kube-dns:${tag}` };
      const translation = translate(parts, undefined, { coredns });
      expect(translation.ok, tag).toBe(true);
      expect(lintCorefile(translation.corefile ?? '', { coredns }).diagnostics.filter((entry) => entry.severity === 'error'), `${tag} @${coredns}`).toEqual([]);
      const check = checkRouting({ kubeDns: deploymentYaml(parts), corefile: translation.corefile ?? '', coredns });
      expect(check.ok, `${tag} @${coredns}`).toBe(true);
      return translation;
    };
    const newer = era('1.22.1');
    expect(block(newer.corefile, 'v4.test:53')).toBe(
      // dnsmasq 2.86+ answered NOERROR where the upstream said NXDOMAIN (an AAAA of a name under the address).
      'v4.test:53 {\n    errors\n    rewrite rcode regex (^|\\.)v4\\.test\\.$ NXDOMAIN NOERROR\n    template IN A {\n        answer "{{ .Name }} 0 IN A 192.0.2.4"\n    }\n    cache 30 {\n        disable denial\n    }\n    loop\n    forward . /etc/resolv.conf\n}',
    );
    // AAAA first: an ANY query gets the first template's record, as dnsmasq 2.86+ answered ANY with the IPv6 address (measured with 2.90).
    expect(block(newer.corefile, 'both.test:53')).toContain('    template IN AAAA {\n        answer "{{ .Name }} 0 IN AAAA fd00::5"\n    }\n    template IN A {\n        answer "{{ .Name }} 0 IN A 192.0.2.5"\n    }\n');
    expect(block(newer.corefile, 'nodata.test:53')).toContain('    template ANY ANY {\n        rcode NOERROR\n    }');
    expect(block(newer.corefile, 'a.corp.test:53')).toContain('    forward . 10.0.0.3');
    // Inside the cluster domain: a copy of the main block's plugins (kubedns answered the other types).
    expect(block(newer.corefile, 'x.cluster.local:53')).toContain('    kubernetes cluster.local in-addr.arpa ip6.arpa {');
    expect(block(newer.corefile, 'x.cluster.local:53')).not.toContain('health');
    expect(newer.diagnostics.find((entry) => entry.path === '[--address=/v4.test/192.0.2.4]')?.message).toBe(
      'v4.test answered A with 192.0.2.4 by a template block; its other query types go to the upstreams, where the dnsmasq of kube-dns 1.22.1 (2.86+: kube-dns 1.22.1+) sent them, as if the address were not there',
    );
    // Older releases (and kube-dns 1.14): NODATA, as their dnsmasq answered.
    for (const tag of ['1.22.0', '1.14.13']) {
      const older = era(tag);
      for (const zone of ['v4.test', 'v6.test', 'a.corp.test', 'x.cluster.local']) expect(block(older.corefile, `${zone}:53`), `${tag} ${zone}`).toMatch(/ {4}template ANY ANY \{\n {8}rcode NOERROR\n {4}\}\n\}$/);
    }
    era('1.22.1', '1.2.6');
    // The former output (NODATA for every dnsmasq) fails check for kube-dns 1.22.1, by query type.
    const parts = { dnsmasq: flags, kubeDnsImage: 'registry.k8s.io/dns/k8s-dns-kube-dns:1.22.1' };
    const former = era('1.22.0').corefile ?? '';
    const check = checkRouting({ kubeDns: deploymentYaml(parts), corefile: former });
    expect(check.ok).toBe(false);
    expect(new Set(check.differences.map((difference) => `${difference.name} ${difference.queryType ?? 'A'}`))).toEqual(
      new Set(['v4.test AAAA', 'x.v4.test AAAA', 'v4.test MX', 'x.v4.test MX', 'v6.test A', 'x.v6.test A', 'both.test MX', 'x.both.test MX', 'a.corp.test AAAA', 'x.a.corp.test AAAA', 'a.corp.test MX', 'x.a.corp.test MX', 'x.cluster.local AAAA', 'x.x.cluster.local AAAA', 'x.cluster.local MX', 'x.x.cluster.local MX']),
    );
  });

  it('answers --server=/zone/ and --address=/zone/ with NXDOMAIN unless the zone has servers; an address beats them for its query type', () => {
    const translation = translate(
      { dnsmasq: [...STOCK_DNSMASQ_ARGS, '--server=/local.test/', '--address=/acme.local/', '--address=/fixed.corp/192.0.2.9'] },
      { stubDomains: '{"acme.local": ["10.0.0.1"], "fixed.corp": ["10.0.0.2"]}' },
    );
    expect(translation.ok).toBe(true);
    expect(block(translation.corefile, 'local.test:53')).toContain('    template ANY ANY {\n        rcode NXDOMAIN\n    }');
    expect(block(translation.corefile, 'acme.local:53')).toContain('    forward . 10.0.0.1\n');
    expect(block(translation.corefile, 'fixed.corp:53')).toContain('answer "{{ .Name }} 0 IN A 192.0.2.9"');
    // Its other query types go to the zone's servers (every dnsmasq): the template block forwards them, in place of the stub block.
    expect(block(translation.corefile, 'fixed.corp:53')).toContain('    forward . 10.0.0.2\n');
    expect(translation.corefile?.match(/^fixed\.corp:53 \{$/gm)).toHaveLength(1);
    // Each flag is described once, as what the Corefile does: acme.local keeps its stub block, so no 'answered NXDOMAIN' for it.
    const about = (flag: string) => translation.diagnostics.filter((entry) => entry.path === `[${flag}]`).map((entry) => `${entry.code}: ${entry.message}`);
    expect(about('--address=/acme.local/')).toEqual(["deployment-flag: dnsmasq forwarded 'acme.local' to its servers all the same: the stub block stays"]);
    expect(about('--server=/local.test/')).toEqual(['dnsmasq-option-translated: local.test answered NXDOMAIN by a template block (dnsmasq answers from local data only)']);
    const manifestStub = translate({ dnsmasq: [...STOCK_DNSMASQ_ARGS, '-S/y.example/', '--server=/y.example/192.0.2.1'] }, undefined);
    expect(manifestStub.diagnostics.filter((entry) => entry.path === '[-S/y.example/]').map((entry) => entry.code)).toEqual(['deployment-flag']);
  });

  it.each(['1.2.6', '1.8.0', '1.14.7'])("keeps the cluster's zones away from a --local/--address zone above them (kubespray's --local=/internal./local./lc./), for CoreDNS %s", (coredns) => {
    const text = deploymentYaml({ dnsmasq: [...STOCK_DNSMASQ_ARGS, '--local=/internal./local./lc./', '--address=/arpa/'] });
    const translation = translate({ dnsmasq: [...STOCK_DNSMASQ_ARGS, '--local=/internal./local./lc./', '--address=/arpa/'] }, undefined, { coredns });
    expect(translation.ok).toBe(true);
    // dnsmasq sent cluster.local to kubedns (its --server is more specific than /local/): the kubernetes plugin's block must be the longest match.
    const keys = (translation.corefile ?? '').split('\n').filter((line) => /^\S.* \{$/.test(line));
    expect(keys.some((line) => line.split(' ').includes('cluster.local:53'))).toBe(true);
    expect(keys.some((line) => line.split(' ').includes('in-addr.arpa:53'))).toBe(true);
    expect(block(translation.corefile, 'local:53')).toContain('rcode NXDOMAIN');
    const added = translation.diagnostics.filter((entry) => entry.code === 'main-block-key-added');
    expect(added.map((entry) => `${entry.key} ${entry.path}`)).toEqual(['container dnsmasq [--local=/internal./local./lc./]', 'container dnsmasq [--address=/arpa/]', 'container dnsmasq [--address=/arpa/]']);
    const check = checkRouting({ kubeDns: text, corefile: translation.corefile ?? '' });
    expect(check.differences).toEqual([]);
  });

  it('follows dnsmasq reading a leading-zero octet as octal, and says so', () => {
    const translation = translate({ dnsmasq: [...STOCK_DNSMASQ_ARGS, '--server=/octal.test/10.0.0.010'] }, undefined);
    expect(block(translation.corefile, 'octal.test:53')).toContain('    forward . 10.0.0.8\n');
    expect(translation.diagnostics.find((entry) => entry.path === '[--server=/octal.test/10.0.0.010]')?.message).toContain("reads '10.0.0.010' as 10.0.0.8");
  });

  it('uses --no-resolv servers as the upstreams, and the Service IP for the loop check', () => {
    const upstreams = translate({ dnsmasq: [...STOCK_DNSMASQ_ARGS, '--no-resolv', '--server=192.0.2.53'] }, undefined);
    expect(upstreams.corefile).toContain('    forward . 192.0.2.53 {');
    expect(upstreams.codes).toContain('info deployment-upstream-server');
    const beside = translate({ dnsmasq: [...STOCK_DNSMASQ_ARGS, '--server=192.0.2.53'] }, undefined);
    // dnsmasq without --no-resolv asks both (the nanny adds --no-resolv only with the ConfigMap's upstreams).
    expect(beside.corefile).toContain('    forward . 192.0.2.53 /etc/resolv.conf {');
    expect(beside.codes).toContain('info deployment-upstream-server');
    const besideConfigMap = translate({ dnsmasq: [...STOCK_DNSMASQ_ARGS, '--server=192.0.2.53'] }, { upstreamNameservers: '["192.0.2.60"]' });
    expect(besideConfigMap.corefile).toContain('    forward . 192.0.2.53 192.0.2.60 {');
    const loop = translate({}, { upstreamNameservers: '["10.96.0.10"]' }, {}, '10.96.0.10');
    expect(loop.ok).toBe(false);
    expect(loop.codes).toContain('error loop-nameserver');
  });

  it('keeps NXDOMAIN uncached with the construct each release accepts, and no cache at all for --cache-size=0', () => {
    const current = translate({}, undefined, { coredns: '1.9.4' });
    expect(current.corefile).toContain('    cache 30 {\n        disable denial\n    }\n');
    expect(current.codes).toContain('info negative-caching-disabled');
    const before = translate({}, undefined, { coredns: '1.9.3' });
    expect(before.corefile).toContain('    cache 30 {\n        denial 9984 1\n    }\n');
    expect(before.codes).toContain('warning negative-caching-shortened');
    const withNegcache = translate({ dnsmasq: STOCK_DNSMASQ_ARGS.filter((arg) => arg !== '--no-negcache') }, undefined);
    expect(withNegcache.corefile).toMatch(/ {4}cache 30\n/);
    const none = translate({ dnsmasq: STOCK_DNSMASQ_ARGS.map((arg) => (arg === '--cache-size=1000' ? '--cache-size=0' : arg)) }, { stubDomains: '{"a.corp": ["10.0.0.1"]}' });
    expect(none.corefile).not.toContain('cache');
  });

  it('translates --log-queries, --strict-order, --dns-forward-max and --address, per release', () => {
    const args = [...STOCK_DNSMASQ_ARGS, '-q', '-o', '-0', '300', '--address=/ads.test/', '--address=/fixed.test/192.0.2.7'];
    const translation = translate({ dnsmasq: args }, { stubDomains: '{"a.corp": ["10.0.0.1"]}' });
    expect(translation.ok).toBe(true);
    expect(block(translation.corefile, '.:53')).toMatch(/ {4}errors\n {4}log\n/);
    expect(block(translation.corefile, 'a.corp:53')).toContain('    forward . 10.0.0.1 {\n        max_concurrent 300\n        policy sequential\n    }');
    expect(block(translation.corefile, 'ads.test:53')).toContain('    template ANY ANY {\n        rcode NXDOMAIN\n    }');
    expect(block(translation.corefile, 'fixed.test:53')).toContain('    template IN A {\n        answer "{{ .Name }} 0 IN A 192.0.2.7"\n    }');
    const old = translate({ dnsmasq: args }, undefined, { coredns: '1.0.4' });
    expect(old.ok).toBe(true);
    expect(old.corefile).not.toContain('max_concurrent');
    expect(old.codes.filter((code) => code === 'warning deployment-flag-not-translated')).toHaveLength(2);
  });

  it('names every flag of the stock manifest in a diagnostic', () => {
    const translation = translate({}, undefined);
    const named = translation.diagnostics.map((entry) => entry.path ?? '').join(' ');
    for (const flag of [...STOCK_KUBEDNS_ARGS.map((arg) => arg.split('=')[0]), ...STOCK_DNSMASQ_ARGS, '-configDir', '--probe']) expect(named, flag).toContain(flag);
  });

  it('refuses a Deployment whose program would not start, unless forced', () => {
    const refused = translate({ dnsmasq: [...STOCK_DNSMASQ_ARGS, '--bogus'] }, undefined);
    expect(refused.ok).toBe(false);
    expect(refused.codes[0]).toBe('error deployment-program-exits');
    expect(translate({ dnsmasq: [...STOCK_DNSMASQ_ARGS, '--bogus'] }, undefined, { force: true }).ok).toBe(true);
  });

  it('sends every name to kubedns when dnsmasq has one unqualified server to it (old manifests): no zone went upstream', () => {
    // The ReplicationController of Kubernetes 1.3-1.5 ran dnsmasq with --no-resolv --server=127.0.0.1#10053.
    const translation = translate({ dnsmasq: ['--cache-size=1000', '--no-resolv', '--server=127.0.0.1#10053', '--log-facility=-'] }, undefined);
    expect(translation.ok).toBe(true);
    const messages = translation.diagnostics.map((entry) => entry.message);
    expect(messages.filter((message) => message.includes('went upstream'))).toEqual([]);
    expect(messages.filter((message) => message.includes('--no-resolv without servers of the manifest'))).toEqual([]);
    expect(translation.diagnostics.find((entry) => entry.path === '[--server=127.0.0.1#10053]')?.message).toContain('every name goes to kubedns');
    expect(translation.diagnostics.find((entry) => entry.path === '[--no-resolv]')?.code).toBe('deployment-flag');
  });

  it('warns when the install holds no ConfigMap: its stub domains would be lost without a word', () => {
    // `kubectl get deploy/kube-dns svc/kube-dns -o yaml` without cm/kube-dns.
    const without = translate({}, undefined, {}, '10.96.0.10');
    expect(without.ok).toBe(true);
    expect(without.diagnostics.find((entry) => entry.code === 'kube-dns-configmap-assumed')).toMatchObject({
      severity: 'warning',
      message: "no kube-dns ConfigMap in the input (only its Deployment and Service): translated as if it had no data, so no stub domains and the node's resolv.conf upstream",
    });
    expect(translate({}, {}).codes).not.toContain('warning kube-dns-configmap-assumed');
  });

  it('reads a dnsmasq option repeated 40,000 times in linear time', async () => {
    // The options were grouped by name by copying the group per option: quadratic (20,000 --server flags took 13 s).
    const repeated = (count: number) => ({ dnsmasq: [...STOCK_DNSMASQ_ARGS, ...Array.from({ length: count }, () => '-k')] });
    const translation = translate(repeated(40_000), undefined);
    expect(translation.diagnostics.find((entry) => entry.message === '--keep-in-foreground: no bearing on answers')?.path).toBe('[-k]');
    // Doubling the flags at most triples the CPU time (a quadratic grouping quadruples it).
    await expectDoublingGrowth(repeated, (parts) => translate(parts, undefined), { size: 10_000 });
  });

  it('says which ConfigMap kubedns read: none without --config-dir/--config-map, another name, or exits with both', () => {
    const none = translate({ kubedns: ['--domain=cluster.local.'] }, undefined);
    expect(none.diagnostics.find((entry) => entry.path === '[--config-dir]')?.message).toContain('it read no ConfigMap');
    const other = translate({ kubedns: ['--config-map=kube-dns-custom'] }, { upstreamNameservers: '["192.0.2.1"]' });
    expect(other.diagnostics.map((entry) => entry.message)).toContain('kubedns read ConfigMap kube-dns-custom, but the ConfigMap given is kube-dns');
    const both = translate({ kubedns: ['--config-map=kube-dns', '--config-dir=/kube-dns-config'] }, undefined);
    expect(both.ok).toBe(false);
    expect(both.diagnostics[0]?.message).toBe('kube-dns exits when given both --config-map and --config-dir');
  });
});


describe('--address=/#/: every name answered by dnsmasq', () => {
  it("is refused (deployment-address-every-name), not translated without it: check on such output failed on every outside name", () => {
    for (const flag of ['--address=/#/10.9.9.9', '--address=/#/']) {
      const text = deploymentYaml({ dnsmasq: [...STOCK_DNSMASQ_ARGS, flag] });
      const translation = translateKubeDnsInstall(readKubeDnsInstall([{ text }]), { coredns: '1.14.7' });
      expect(translation.ok, flag).toBe(false);
      expect(translation.diagnostics.filter((entry) => entry.severity === 'error').map((entry) => [entry.code, entry.path])).toEqual([['deployment-address-every-name', `[${flag}]`]]);
      // What the translator would have written without it fails check: every outside name was answered by dnsmasq.
      expect(checkRouting({ kubeDns: text, corefile: translateKubeDnsInstall(readKubeDnsInstall([{ text: deploymentYaml() }]), { coredns: '1.14.7' }).corefile ?? '', coredns: '1.14.7' }).ok).toBe(false);
    }
  });
});

describe('--address=/zone/ip several times and --address=/zone/# (#18: not translated before)', () => {
  const image = 'registry.k8s.io/dns/k8s-dns-kube-dns:1.22.20';
  const run = (flags: readonly string[], coredns = '1.14.7') => {
    const parts = { dnsmasq: [...STOCK_DNSMASQ_ARGS, ...flags], kubeDnsImage: image };
    const translation = translate(parts, undefined, { coredns });
    const check = checkRouting({ kubeDns: deploymentYaml(parts), corefile: translation.corefile ?? '', coredns });
    return { translation, check };
  };

  it('answers every address of a family, as dnsmasq 2.90 does, in one template per type', () => {
    const { translation, check } = run(['--address=/two.test/192.0.2.1', '--address=/two.test/192.0.2.2', '--address=/two.test/fd00::1', '--address=/two.test/fd00::2']);
    expect(translation.codes).not.toContain('warning deployment-flag-not-translated');
    expect(block(translation.corefile, 'two.test:53')).toContain(
      '    template IN AAAA {\n        answer "{{ .Name }} 0 IN AAAA fd00::1"\n        answer "{{ .Name }} 0 IN AAAA fd00::2"\n    }\n    template IN A {\n        answer "{{ .Name }} 0 IN A 192.0.2.1"\n        answer "{{ .Name }} 0 IN A 192.0.2.2"\n    }\n',
    );
    expect(check.ok).toBe(true);
    expect(check.anyAnswers).toEqual([]);
  });

  it("answers both null addresses for '#', warns that ANY gets one, and puts an IPv4 address beside '#' first", () => {
    const { translation, check } = run(['--address=/zeros.test/#', '--address=/v4zero.test/192.0.2.3', '--address=/v4zero.test/#']);
    expect(translation.ok).toBe(true);
    expect(translation.codes).not.toContain('warning deployment-flag-not-translated');
    expect(block(translation.corefile, 'zeros.test:53')).toContain('    template IN AAAA {\n        answer "{{ .Name }} 0 IN AAAA ::"\n    }\n    template IN A {\n        answer "{{ .Name }} 0 IN A 0.0.0.0"\n    }\n');
    // dnsmasq 2.90 answers ANY with the IPv4 address, not `#`'s `::`: the A template first.
    expect(block(translation.corefile, 'v4zero.test:53')).toContain('    template IN A {\n        answer "{{ .Name }} 0 IN A 192.0.2.3"\n    }\n    template IN AAAA {\n        answer "{{ .Name }} 0 IN AAAA ::"\n    }\n');
    expect(translation.diagnostics.filter((entry) => entry.code === 'any-query-one-family').map((entry) => entry.path)).toEqual(['[--address=/zeros.test/#]']);
    expect(check.ok).toBe(true);
    expect(check.anyAnswers.map((entry) => `${entry.name} ${entry.kubeDns.join('+')} ${entry.coreDns.join('+')} ${entry.unavoidable === true}`)).toEqual(['zeros.test A+AAAA AAAA true', 'x.zeros.test A+AAAA AAAA true']);
  });
});
