import { describe, expect, it } from 'vitest';
import { migrateCorefile } from '../../src/migrate/migrate-corefile.js';
import { translateKubeDns } from '../../src/translate/translate.js';
import { isKubeadmDefaultCorefileFor } from '../../src/kubeadm/cluster-decisions.js';
import { coreDnsConfigMapYaml } from '../support/kube-dns-manifests.js';

const codes = (result: ReturnType<typeof migrateCorefile>) => result.notices.map((notice) => notice.code).filter((code) => code !== 'migrate-release-resolved');

describe('migrateCorefile', () => {
  it('keeps comments and layout byte for byte and touches only what must change', () => {
    const input = '# top\n.:53 {\n\terrors   # why\n\n\tkubernetes cluster.local {\n\t\tupstream\n\t\tpods insecure\n\t}\n\tproxy . 8.8.8.8\n}\n';
    const result = migrateCorefile(input, { from: '1.3.1', to: '1.7.0', newDefaults: false });
    expect(result.corefile).toBe('# top\n.:53 {\n\terrors   # why\n\n\tkubernetes cluster.local {\n\t\tpods insecure\n\t}\n\tforward . 8.8.8.8\n}\n');
    expect(codes(result)).toEqual(['migrate-option-removed', 'migrate-proxy-to-forward']);
  });

  it('maps proxy options and refuses the ones forward cannot take', () => {
    const input = '. {\n    proxy . 1.1.1.1 {\n        protocol dns force_tcp\n        policy least_conn\n        except acme.local\n    }\n}\n';
    const result = migrateCorefile(input, { from: '1.4.0', to: '1.5.0' });
    expect(result.corefile).toBe('. {\n    forward . 1.1.1.1 {\n        force_tcp\n        except acme.local\n    }\n}\n');
    expect(codes(result)).toContain('migrate-proxy-option-dropped');
    const mapped = result.notices.find((notice) => notice.code === 'migrate-proxy-option-mapped');
    expect([mapped?.option, mapped?.position?.line, mapped?.message]).toEqual(['protocol', 3, "proxy protocol dns force_tcp became 'force_tcp': forward sends DNS over TCP with its force_tcp option"]);
    const first = migrateCorefile('. {\n    proxy . 1.1.1.1 {\n        policy first\n    }\n}\n', { from: '1.4.0', to: '1.5.0' });
    expect(first.notices.filter((notice) => notice.code === 'migrate-proxy-option-mapped').map((notice) => notice.message)).toEqual([
      "proxy policy first became 'policy sequential': proxy's 'first' policy is forward's 'sequential'",
    ]);
    const google = migrateCorefile('. {\n    proxy . 8.8.8.8 {\n        protocol https_google\n    }\n}\n', { from: '1.4.0', to: '1.5.0' });
    expect(google.ok).toBe(false);
    expect(codes(google)).toContain('migrate-proxy-unmappable');
  });

  it("downgrades cache 'disable denial' below 1.9.4 to the shortest denial TTL those releases accept, as the translator writes it", () => {
    // What the translator writes for kube-dns's --no-negcache on CoreDNS 1.14.7 and on 1.8.0.
    const input = '.:53 {\n    errors\n    cache 30 {\n        disable denial\n    }\n    forward . 10.0.0.1\n}\n';
    const down = migrateCorefile(input, { from: '1.14.7', to: '1.8.0', newDefaults: false });
    expect(down.ok).toBe(true);
    expect(down.corefile).toBe('.:53 {\n    errors\n    cache 30 {\n        denial 9984 1\n    }\n    forward . 10.0.0.1\n}\n');
    expect(codes(down)).toEqual(['migrate-option-approximated']);
    // A block with a denial setting of its own, and 'disable denial' for some zones only, are refused as before.
    for (const options of ['        disable denial\n        denial 100 60\n', '        disable denial example.org\n']) {
      const refused = migrateCorefile(`. {\n    cache 30 {\n${options}    }\n}\n`, { from: '1.14.7', to: '1.8.0', newDefaults: false });
      expect(codes(refused)).toContain('migrate-option-unavailable');
    }
    // From 1.9.4 on nothing changes.
    expect(migrateCorefile(input, { from: '1.14.7', to: '1.9.4', newDefaults: false }).corefile).toBe(input);
  });

  it("undoes the 'disable denial' approximation on an upgrade across 1.9.4, as the translator writes it there", () => {
    const input = '.:53 {\n    cache 30 {\n        success 9984\n        denial 9984 1\n    }\n    forward . 10.0.0.1\n}\n';
    const up = migrateCorefile(input, { from: '1.6.7', to: '1.14.7', newDefaults: false });
    expect(up.corefile).toBe('.:53 {\n    cache 30 {\n        success 9984\n        disable denial\n    }\n    forward . 10.0.0.1\n}\n');
    expect(up.notices.find((notice) => notice.code === 'migrate-approximation-undone')).toMatchObject({ severity: 'info', action: 'replaced', plugin: 'cache', option: 'denial' });
    // And back down: the approximation again. Another denial, or a source that already has disable denial, is left alone.
    expect(migrateCorefile(up.corefile, { from: '1.14.7', to: '1.6.7', newDefaults: false }).corefile).toBe(input);
    expect(migrateCorefile(input.replace('9984 1', '9984 5'), { from: '1.6.7', to: '1.14.7', newDefaults: false }).changed).toBe(false);
    expect(migrateCorefile(input, { from: '1.10.1', to: '1.14.7', newDefaults: false }).changed).toBe(false);
  });

  it('adds max_concurrent 1000 only to the forward of a block with kubernetes, and a downgrade below 1.7.0 removes it', () => {
    const input = '.:53 {\n    kubernetes cluster.local\n    forward . 10.0.0.1\n}\n\nacme.local:53 {\n    forward . 10.1.1.1\n}\n';
    const up = migrateCorefile(input, { from: '1.6.7', to: '1.8.0' });
    expect(up.corefile).toBe('.:53 {\n    kubernetes cluster.local\n    forward . 10.0.0.1 {\n        max_concurrent 1000\n    }\n}\n\nacme.local:53 {\n    forward . 10.1.1.1\n}\n');
    const down = migrateCorefile(up.corefile, { from: '1.8.0', to: '1.6.9' });
    expect(down.corefile).toBe(input);
    expect(down.notices.filter((notice) => notice.code === 'migrate-default-removed').map((notice) => notice.option)).toEqual(['max_concurrent']);
    // Another limit is the cluster's own: kept.
    expect(migrateCorefile(up.corefile.replace('max_concurrent 1000', 'max_concurrent 200'), { from: '1.8.0', to: '1.6.9' }).changed).toBe(false);
  });

  it("a downgrade below 1.5.2 adds kubernetes upstream back, as the translator writes it there (ExternalName targets are resolved only with it)", () => {
    for (const [from, to] of [['1.14.7', '1.5.1'], ['1.8.0', '1.4.0'], ['1.6.9', '1.2.6'], ['1.5.2', '1.1.3']] as const) {
      const translated = translateKubeDns({}, { coredns: from }).corefile ?? '';
      const migrated = migrateCorefile(translated, { from, to });
      expect(migrated.ok, `${from} → ${to}`).toBe(true);
      const upstreamOf = (corefile: string) => corefile.split('\n').filter((line) => line.trim().startsWith('upstream'));
      expect(upstreamOf(migrated.corefile ?? ''), `${from} → ${to}`).toEqual(upstreamOf(translateKubeDns({}, { coredns: to }).corefile ?? ''));
      expect(upstreamOf(migrated.corefile ?? '')).toHaveLength(1);
      expect(migrated.notices.map((notice) => notice.code)).toContain('migrate-upstream-added');
    }
    // Between releases on the same side of 1.5.2, nothing is added.
    expect(migrateCorefile(translateKubeDns({}, { coredns: '1.8.0' }).corefile ?? '', { from: '1.8.0', to: '1.6.9' }).notices.map((notice) => notice.code)).not.toContain('migrate-upstream-added');
    expect(migrateCorefile(translateKubeDns({}, { coredns: '1.4.0' }).corefile ?? '', { from: '1.4.0', to: '1.2.6' }).notices.map((notice) => notice.code)).not.toContain('migrate-upstream-added');
  });

  it('from a release to the same one: unchanged, but a Corefile the release refuses is still refused with lint\'s finding', () => {
    const broken = '.:53 {\n    forward . 1.1.1.1 {\n        max_fails\n    }\n}\n';
    const same = migrateCorefile(broken, { from: '1.8.0', to: '1.8.0' });
    expect(same.ok).toBe(false);
    expect(same.changed).toBe(false);
    expect(same.notices.filter((notice) => notice.severity === 'error').map((notice) => [notice.code, notice.position?.line])).toEqual([['migrate-target-refuses', 3]]);
    const fine = translateKubeDns({}, { coredns: '1.8.0' }).corefile ?? '';
    expect(migrateCorefile(fine, { from: '1.8.0', to: 'v1.8.0' })).toMatchObject({ ok: true, changed: false, corefile: fine });
  });

  it('refuses a downgrade below 1.0.3 of a kubernetes fallthrough with zones, which would fall through for every zone there', () => {
    const input = '.:53 {\n    kubernetes cluster.local in-addr.arpa {\n        fallthrough in-addr.arpa\n    }\n    proxy . 10.0.0.1\n}\n';
    const result = migrateCorefile(input, { from: '1.0.5', to: '1.0.0' });
    expect(result.ok).toBe(false);
    expect(result.notices.find((notice) => notice.code === 'migrate-option-unavailable')?.message).toContain('kubernetes fallthrough takes zones from 1.0.3');
    expect(migrateCorefile(input.replace('fallthrough in-addr.arpa', 'fallthrough'), { from: '1.0.5', to: '1.0.0' }).ok).toBe(true);
  });

  it('keeps a deprecated proxy unless --deprecations', () => {
    const input = '. {\n    proxy . 1.1.1.1\n}\n';
    expect(migrateCorefile(input, { from: '1.3.1', to: '1.4.0' }).corefile).toBe(input);
    expect(migrateCorefile(input, { from: '1.3.1', to: '1.4.0', deprecations: true }).corefile).toBe('. {\n    forward . 1.1.1.1\n}\n');
  });

  it('splits stub forwards into blocks of their own before 1.9.4, not from 1.9.4', () => {
    const input = '.:53 {\n    # acme\n    proxy acme.local 10.0.0.1\n    proxy . 8.8.8.8\n}\n';
    const old = migrateCorefile(input, { from: '1.3.1', to: '1.6.2', newDefaults: false });
    expect(old.corefile).toBe('.:53 {\n    forward . 8.8.8.8\n}\n\n# acme\nacme.local:53 {\n    forward . 10.0.0.1\n    loop\n    errors\n    cache 30\n}\n');
    const recent = migrateCorefile(input, { from: '1.3.1', to: '1.9.4', newDefaults: false });
    expect(recent.corefile).toBe('.:53 {\n    # acme\n    forward acme.local 10.0.0.1\n    forward . 8.8.8.8\n}\n');
  });

  it('refuses federation for 1.7.0+ unless asked to drop it, and never keeps it silently', () => {
    const input = '. {\n    kubernetes cluster.local\n    federation cluster.local {\n        prod prod.example.com\n    }\n}\n';
    const refused = migrateCorefile(input, { from: '1.6.7', to: '1.7.0', newDefaults: false });
    expect(refused.ok).toBe(false);
    expect(refused.corefile).toBe(input);
    const dropped = migrateCorefile(input, { from: '1.6.7', to: '1.7.0', newDefaults: false, dropFederations: true });
    expect(dropped.corefile).toBe('. {\n    kubernetes cluster.local\n}\n');
    expect(codes(dropped)).toEqual(['migrate-federation-dropped']);
  });

  it('moves the kubernetes transfer option to the transfer plugin at 1.8.0, and back below it', () => {
    const input = '. {\n    kubernetes cluster.local {\n        transfer to 10.1.1.1\n    }\n}\n';
    const up = migrateCorefile(input, { from: '1.7.0', to: '1.8.0' });
    expect(up.corefile).toBe('. {\n    kubernetes cluster.local\n    transfer cluster.local {\n        to 10.1.1.1\n    }\n}\n');
    const down = migrateCorefile(up.corefile, { from: '1.8.0', to: '1.7.0' });
    expect(down.corefile).toBe('. {\n    kubernetes cluster.local {\n        transfer to 10.1.1.1\n    }\n}\n');
  });

  it('never blocks on valid plugins of the target and names the release a missing plugin left or arrives in', () => {
    const input = '. {\n    grpc . 127.0.0.1:5353\n    template IN A acme.local {\n        answer "{{ .Name }} 60 IN A 127.0.0.1"\n    }\n    forward . 1.1.1.1\n}\n';
    expect(migrateCorefile(input, { from: '1.6.2', to: '1.11.1', newDefaults: false }).ok).toBe(true);
    const down = migrateCorefile('. {\n    view internal {\n        expr true\n    }\n}\n', { from: '1.12.0', to: '1.9.3' });
    expect(down.ok).toBe(false);
    expect(down.notices.find((notice) => notice.code === 'migrate-plugin-unavailable')?.message).toMatch(/arrives in 1\.\d+\.\d+/);
  });

  it('refuses an edit on a shared line instead of reformatting', () => {
    const result = migrateCorefile('. { proxy . 1.1.1.1\n}\n', { from: '1.4.0', to: '1.5.0' });
    expect(result.ok).toBe(false);
    expect(codes(result)).toContain('migrate-not-in-place');
  });

  it('keeps a NUL byte of a changed line inside its line (it never splits a line)', () => {
    const input = '.:53 {\n    proxy . 8.8.8.8 { # a \u0000 b\n        except a\u0000b.example\n        policy first\n    }\n}\n';
    const result = migrateCorefile(input, { from: '1.3.1', to: '1.6.2' });
    expect(result.corefile).toBe('.:53 {\n    forward . 8.8.8.8 { # a \u0000 b\n        except a\u0000b.example\n        policy sequential\n    }\n}\n');
    expect(result.corefile.split('\n')).toHaveLength(input.split('\n').length);
  });

  it.each([
    ['a :53 key (refused from 1.3.1)', ':53 {\n    forward . 1.1.1.1\n}\n', '1.2.6', '1.8.0', 'invalid-server-key', 1],
    ['a leading-dot key (refused from 1.10.0)', '.acme.local {\n    forward . 1.1.1.1\n}\n', '1.8.0', '1.11.1', 'invalid-server-key', 1],
    ['a grpc:// destination (refused from 1.7.0)', '. {\n    forward . grpc://1.1.1.1\n}\n', '1.6.7', '1.8.0', 'grpc-destination-unsupported', 2],
    ['keys that collide by case (from 1.14.7)', 'acme.local {\n    forward . 1.1.1.1\n}\nACME.local {\n    forward . 1.1.1.2\n}\n', '1.6.2', '1.14.7', 'zone-served-twice', 4],
    ['a host name destination (before 1.14.4)', '. {\n    forward . tls://dns.quad9.net\n}\n', '1.14.7', '1.14.3', 'destination-not-ip', 2],
    ['an https:// destination (before 1.14.5)', '. {\n    forward . https://1.1.1.1/dns-query\n}\n', '1.14.7', '1.14.3', 'https-destination-unsupported', 2],
    ['an upper-case key (unreachable 1.6.4-1.14.6)', 'Acme.local {\n    forward . 1.1.1.1\n}\n', '1.14.7', '1.8.0', 'upper-case-zone', 1],
    ['health in a block with two keys (1.1.0-1.6.5)', 'a.local b.local {\n    health\n}\n', '1.8.0', '1.6.2', 'health-bound-twice', 2],
  ])('refuses what the target release refuses and migrate cannot rewrite: %s', (_, input, from, to, lintCode, line) => {
    const result = migrateCorefile(input, { from, to });
    expect(result.ok).toBe(false);
    expect(result.corefile).toBe(input);
    const refusal = result.notices.find((notice) => notice.code === 'migrate-target-refuses');
    expect(refusal?.message).toContain(`lint ${lintCode}`);
    expect(refusal?.position?.line).toBe(line);
    // The same Corefile going the other way, where the release takes it, is fine.
    expect(migrateCorefile(input, { from: to, to: from }).notices.map((notice) => notice.code)).not.toContain('migrate-target-refuses');
  });

  it('says when the lines a quoted lint finding names are those of the migrated text', () => {
    const input = '.:53 {\n    proxy acme.local 10.0.0.1\n    proxy . 8.8.8.8\n}\nacme.local:53 {\n    errors\n}\n';
    const result = migrateCorefile(input, { from: '1.4.0', to: '1.5.0' });
    const refusal = result.notices.find((notice) => notice.code === 'migrate-target-refuses');
    expect(refusal?.position?.line).toBe(5);
    expect(refusal?.message).toMatch(/^the migrated Corefile fails for CoreDNS 1\.5\.0 \(lint zone-served-twice at \[acme\.local:53\]; its line numbers are those of the migrated text\): /);
  });

  it('does not refuse for a plugin no default build has, which it keeps for a custom build', () => {
    // alias is in no default build: lint reports it for both releases; migrate keeps it with a warning.
    const result = migrateCorefile('. {\n    alias\n    proxy . 1.1.1.1\n}\n', { from: '1.4.0', to: '1.5.0' });
    expect(result.ok).toBe(true);
    expect(result.corefile).toBe('. {\n    alias\n    forward . 1.1.1.1\n}\n');
    expect(codes(result)).toContain('migrate-plugin-unknown');
  });

  it.each([
    ['proxy except without names', '.:53 {\n    proxy . 10.0.0.1 {\n        except\n    }\n}\n', '1.4.0', 'forward > except'],
    ['proxy max_fails without a number', '.:53 {\n    proxy . 10.0.0.1 {\n        max_fails\n    }\n}\n', '1.2.6', 'forward > max_fails'],
    ['a cache TTL of 0', '.:53 {\n    cache 0\n    forward . 10.0.0.1\n}\n', '1.6.7', 'cache'],
  ])('says the result does not start when the input did not either: %s', (_, input, from, place) => {
    const result = migrateCorefile(input, { from, to: '1.8.0' });
    expect(result.ok).toBe(false);
    expect(result.corefile).toBe(input);
    const refusal = result.notices.find((notice) => notice.code === 'migrate-target-refuses');
    expect(refusal?.severity).toBe('error');
    expect(refusal?.message).toContain(` at [.:53] ${place}): `);
    expect(refusal?.message).toContain(`the Corefile given fails for CoreDNS ${from} in the same way, so it did not start there either`);
  });

  it('throws an input error naming readConfigMap when given a ConfigMap instead of a Corefile', () => {
    const configMap = coreDnsConfigMapYaml('.:53 {\n    proxy . 10.0.0.2\n}\n', { namespace: null });
    expect(() => migrateCorefile(configMap, { from: '1.4.0', to: '1.8.0', filename: 'coredns.yaml' })).toThrow(
      expect.objectContaining({ name: 'ConfigMapInputError', code: 'configmap-given', message: expect.stringMatching(/^coredns\.yaml: migrateCorefile takes Corefile text, and this is a ConfigMap's YAML or JSON: read it with readConfigMap\(text\)/) }),
    );
  });

  it('a downgrade that removes the last option of a block removes the block too', () => {
    const input = '.:53 {\n    kubernetes cluster.local\n    forward . 1.1.1.1 {\n        max_concurrent 1000\n    }\n}\n';
    const result = migrateCorefile(input, { from: '1.8.0', to: '1.6.2' });
    expect(result.corefile).toBe('.:53 {\n    kubernetes cluster.local\n    forward . 1.1.1.1\n}\n');
    // Up again gives the start back.
    expect(migrateCorefile(result.corefile, { from: '1.6.2', to: '1.8.0' }).corefile).toBe(input);
  });

  it('says that imported files are not migrated; a snippet defined before is', () => {
    const input = 'import common.conf\n(stub) {\n    proxy . 10.0.0.1\n}\n.:53 {\n    import stub\n    import custom/*.server\n    import later\n}\n(later) {\n    errors\n}\n';
    const result = migrateCorefile(input, { from: '1.4.0', to: '1.5.0' });
    expect(result.ok).toBe(true);
    const imports = result.notices.filter((notice) => notice.code === 'migrate-import-not-migrated');
    expect(imports.map((notice) => [notice.position?.line, notice.severity])).toEqual([
      [1, 'warning'],
      [7, 'warning'],
      [8, 'warning'], // defined after the block: CoreDNS reads 'later' as a file pattern
    ]);
    expect(imports[1]?.message).toContain('import custom/*.server names files, which are not migrated');
  });

  it('reads version text as found in clusters and reports each mapping', () => {
    const result = migrateCorefile('. {\n    forward . 1.1.1.1\n}\n', { from: '1.6.7-eksbuild.1', to: 'registry.k8s.io/coredns/coredns:v1.99.0' });
    expect(result.from.version).toBe('1.6.7');
    expect(result.to.version).toBe('1.14.7');
    expect(result.notices.map((notice) => notice.code)).toContain('migrate-release-assumed');
  });
});

describe('isKubeadmDefaultCorefileFor', () => {
  it('tells kubeadm 1.18\'s default from a customised Corefile', () => {
    const defaultCorefile = '.:53 {\n    errors\n    health {\n        lameduck 5s\n    }\n    ready\n    kubernetes cluster.local in-addr.arpa ip6.arpa {\n        pods insecure\n        fallthrough in-addr.arpa ip6.arpa\n        ttl 30\n    }\n    prometheus :9153\n    forward . /etc/resolv.conf\n    cache 30\n    loop\n    reload\n    loadbalance\n}\n';
    expect(isKubeadmDefaultCorefileFor(defaultCorefile, '1.18')).toBe(true);
    expect(isKubeadmDefaultCorefileFor(defaultCorefile, '1.13')).toBe(false);
    expect(isKubeadmDefaultCorefileFor(defaultCorefile.replace('cache 30', 'cache 60'), '1.18')).toBe(false);
  });
});

describe('migrate-target-refuses: the place lint gives', () => {
  const refusals = (corefile: string) =>
    migrateCorefile(corefile, { from: '1.4.0', to: '1.8.0' })
      .notices.filter((notice) => notice.code === 'migrate-target-refuses')
      .map((notice) => ({ position: notice.position, path: notice.path, plugin: notice.plugin, option: notice.option, at: /at line \d+, column \d+ of the migrated text/.exec(notice.message)?.[0] }));

  it('is the input line a rewritten block keeps, with lint’s line and column of the result said to be the result’s', () => {
    // fail_timeout goes (forward has none): the result's line 4 is the input's line 5.
    expect(refusals('.:53 {\n    errors\n    proxy . 10.0.0.1 {\n        fail_timeout 1s\n        except\n    }\n}\n')).toEqual([
      { position: { line: 5, column: 9 }, path: ':5:9 forward > except', plugin: 'forward', option: 'except', at: 'at line 4, column 9 of the migrated text' },
    ]);
  });

  it('is the first input line of a rewritten line that keeps none, with the result’s place in the message', () => {
    expect(refusals('.:53 {\n    proxy .\n}\n')).toEqual([{ position: { line: 2, column: 1 }, path: ':2:1 forward', plugin: 'forward', option: undefined, at: 'at line 2, column 5 of the migrated text' }]);
  });
});
