import { describe, expect, it } from 'vitest';
import { CorefileSyntaxError } from '../../src/corefile/errors.js';
import { parseCorefile } from '../../src/corefile/parser.js';
import { DIAGNOSTIC_CODES } from '../../src/diagnostics/codes.js';
import { formatDiagnostic } from '../../src/diagnostics/diagnostic.js';
import { lintCorefile, lintParsedCorefile, readDestination } from '../../src/lint/index.js';
import { UnknownCoreDnsVersionError } from '../../src/coredns/versions.js';

/** `code@line:column/severity` of every finding, the compact form the cases below compare. */
function findings(text: string, coredns?: string): string[] {
  return lintCorefile(text, coredns === undefined ? {} : { coredns }).diagnostics.map(
    (entry) => `${entry.code}@${entry.position?.line}:${entry.position?.column}/${entry.severity}`,
  );
}

const main = (extra = '') => `.:53 {\n    errors\n    kubernetes cluster.local in-addr.arpa ip6.arpa\n    forward . 8.8.8.8\n${extra}}\n`;

describe('lintCorefile', () => {
  it('gives every diagnostic key Corefile, a position and a path that starts with it', () => {
    const { diagnostics, ok, coredns } = lintCorefile('.:53 {\n    proxy . 8.8.8.8\n    ready\n}\nAcme.local:53 {\n    forward .\n}\n', { coredns: '1.6.7' });
    expect(ok).toBe(false);
    expect(coredns).toBe('1.6.7');
    expect(diagnostics.length).toBeGreaterThan(2);
    for (const entry of diagnostics) {
      expect(entry.key).toBe('Corefile');
      expect(entry.position).toBeDefined();
      expect(entry.path?.startsWith(`:${entry.position?.line}:${entry.position?.column} `)).toBe(true);
      expect(DIAGNOSTIC_CODES[entry.code].area).toBe('lint');
    }
    expect(diagnostics.map(formatDiagnostic)[0]).toBe(
      `error plugin-removed Corefile:2:5 [.:53] proxy: plugin 'proxy' was removed in CoreDNS 1.5.0: CoreDNS 1.6.7 stops with "Unknown directive 'proxy'"; use forward instead`,
    );
  });

  it('orders findings by position', () => {
    const { diagnostics } = lintCorefile('b.org:5353 {\n    forward . 10.0.0.1\n}\n.:53 {\n    forward . 127.0.0.1\n    loop\n}\nB.ORG:5353 {\n}\n', { coredns: '1.14.7' });
    const positions = diagnostics.map((entry) => (entry.position?.line ?? 0) * 1000 + (entry.position?.column ?? 0));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it('is clean for the Kubernetes default of each era', () => {
    expect(findings(main('    cache 30\n    loop\n    reload\n    loadbalance\n'), '1.14.7')).toEqual([]);
    expect(findings('.:53 {\n    errors\n    health\n    kubernetes cluster.local in-addr.arpa ip6.arpa {\n        pods insecure\n        upstream\n        fallthrough in-addr.arpa ip6.arpa\n    }\n    prometheus :9153\n    proxy . /etc/resolv.conf\n    cache 30\n    loop\n    reload\n    loadbalance\n}\n', '1.2.6')).toEqual([
      'resolv-conf-loop-risk@10:13/info',
    ]);
  });

  it('throws the syntax error and refuses unknown versions', () => {
    expect(() => lintCorefile('. {\n    whoami }\n')).toThrow(CorefileSyntaxError);
    expect(() => lintCorefile('. {\n}\n', { coredns: '1.4.1' })).toThrow(UnknownCoreDnsVersionError);
  });

  it('lints a model without positions at 1:1', () => {
    const result = lintParsedCorefile({ items: [{ kind: 'server-block', keys: ['.'], directives: [{ name: 'proxy', arguments: ['.', '1.1.1.1'] }] }] });
    expect(result.diagnostics.map((entry) => `${entry.code} ${entry.path}`)).toEqual(['plugin-removed :1:1 [.] proxy']);
  });

  it('turns parser warnings into syntax-warning', () => {
    expect(findings('a.org,b.org {\n    forward . 10.0.0.1\n}\n')).toEqual(['syntax-warning@1:1/warning']);
  });
});

describe('plugins and options', () => {
  it('follows the version matrix', () => {
    expect(findings(main('    ready\n'), '1.4.0')).toEqual(['plugin-not-yet-added@5:5/error']);
    expect(findings(main('    loop\n'), '1.2.0')).toEqual(['plugin-not-yet-added@5:5/error']);
    expect(findings('.:53 {\n    federation cluster.local {\n        a b.com\n    }\n    kubernetes cluster.local\n}\n', '1.7.0')).toEqual(['plugin-removed@2:5/error']);
    expect(findings('.:53 {\n    federation cluster.local {\n        a b.com\n    }\n    kubernetes cluster.local\n}\n', '1.6.2')).toEqual([]);
    expect(findings('.:53 {\n    startup whoami\n}\n', '1.0.6')).toEqual(['plugin-deprecated@2:5/info']);
    expect(findings('.:53 {\n    forward . 8.8.8.8\n}\n', '1.0.5')).toEqual(['version-caveat@2:5/info']);
    expect(findings('.:53 {\n    forward . 8.8.8.8\n}\n', '1.0.4')).toEqual(['plugin-not-yet-added@2:5/error']);
  });

  it('reports a plugin without facts once, and nothing more about it', () => {
    expect(findings('a.org {\n    whoami\n}\nb.org {\n    whoami\n    bind 127.0.0.1\n}\n', '1.0.0')).toEqual(['plugin-without-facts@2:5/info', 'plugin-without-facts@6:5/info']);
    expect(lintCorefile('. {\n    bind 10.0.0.1\n}\n', { coredns: '1.0.0' }).diagnostics[0]?.message).toContain('confirmed in CoreDNS 1.0.5 and later only');
  });

  it('follows the history of the kubernetes upstream option', () => {
    const upstream = (args: string) => `.:53 {\n    kubernetes cluster.local {\n        upstream${args}\n    }\n}\n`;
    expect(findings(upstream(''), '1.0.5')).toEqual(['upstream-address-required@3:9/error']);
    expect(findings(upstream(' /etc/resolv.conf'), '1.0.5')).toEqual([]);
    expect(findings(upstream(''), '1.3.1')).toEqual([]);
    expect(findings(upstream(''), '1.4.0')).toEqual(['option-deprecated@3:9/info']);
    expect(findings(upstream(' 8.8.8.8'), '1.5.2')).toEqual(['upstream-addresses-ignored@3:9/warning']);
    expect(findings(upstream(''), '1.7.0')).toEqual(['option-removed@3:9/error']);
    expect(findings('. {\n    auto {\n        upstream 8.8.8.8\n    }\n}\n', '1.14.7')).toEqual([]);
  });

  it('checks options with facts and ignores the others', () => {
    expect(findings('.:53 {\n    health {\n        lameduck 5s\n    }\n}\n', '1.0.4')).toEqual(['option-not-yet-added@3:9/error']);
    expect(findings('.:53 {\n    kubernetes cluster.local {\n        transfer to *\n    }\n}\n', '1.8.0')).toEqual(['option-removed@3:9/error']);
    expect(findings('.:53 {\n    forward . 8.8.8.8 {\n        max_concurrent 1000\n        policy sequential\n    }\n}\n', '1.6.8')).toEqual([]);
    expect(findings('.:53 {\n    forward . 8.8.8.8 {\n        resolver 1.1.1.1\n    }\n}\n', '1.14.3')).toEqual(['option-not-yet-added@3:9/error']);
  });
});

describe('forward and proxy destinations', () => {
  const forward = (destinations: string, extra = '') => `.:53 {\n    forward . ${destinations}\n${extra}}\n`;

  it('reads destinations the way CoreDNS does', () => {
    const kinds = ['1.2.3.4', '1.2.3.4:5353', '[2001:db8::1]:53', '2001:db8::1', 'tls://9.9.9.9', '/etc/resolv.conf', 'resolv.conf', 'ns.example', '[::1]', '010.0.0.1', 'a..b', '{$X}', 'https://dns.example/dns-query'].map(
      (text) => readDestination(text).kind,
    );
    expect(kinds).toEqual(['ip', 'ip', 'ip', 'ip', 'ip', 'file', 'hostname', 'hostname', 'invalid', 'invalid', 'invalid', 'placeholder', 'file']);
  });

  it('counts destinations against the limit of the release', () => {
    const sixteen = Array.from({ length: 16 }, (_, index) => `10.0.0.${index + 1}`).join(' ');
    expect(findings(forward(sixteen), '1.14.7')).toEqual(['too-many-destinations@2:5/error']);
    expect(findings(`.:53 {\n    proxy . ${sixteen}\n}\n`, '1.0.4')).toEqual(['too-many-destinations@2:5/warning']);
    expect(findings(`.:53 {\n    proxy . ${sixteen}\n}\n`, '1.0.0')).toEqual([]);
    expect(lintCorefile(forward(`/etc/resolv.conf ${sixteen}`), { coredns: '1.14.3' }).diagnostics[0]?.message).toContain('each nameserver of a file counts too');
  });

  it('knows when host names, https:// and grpc:// are accepted', () => {
    expect(findings(forward('ns.example'), '1.14.3')).toEqual(['destination-not-ip@2:15/error']);
    expect(findings(forward('ns.example:5353'), '1.14.4')).toEqual(['destination-hostname@2:15/warning']);
    expect(findings(forward('ns.example:0'), '1.14.4')).toEqual(['destination-hostname@2:15/warning', 'destination-port-invalid@2:15/error']);
    expect(findings('.:53 {\n    proxy . ns.example\n}\n', '1.4.0')).toEqual(['plugin-deprecated@2:5/info', 'destination-not-ip@2:13/error']);
    expect(findings(forward('https://1.1.1.1'), '1.14.4')).toEqual(['https-destination-unsupported@2:15/error']);
    expect(findings(forward('https://1.1.1.1'), '1.14.5')).toEqual([]);
    expect(findings(forward('grpc://10.0.0.1'), '1.7.0')).toEqual(['grpc-destination-unsupported@2:15/error']);
    expect(findings(forward('grpc://10.0.0.1'), '1.6.9')).toEqual([]);
  });

  it('checks ports, which CoreDNS does not', () => {
    expect(findings(forward('1.2.3.4:0 1.2.3.4:53 [::2]:99999 1.2.3.4:abc'))).toEqual([
      'destination-port-invalid@2:15/error',
      'destination-port-invalid@2:36/error',
      'destination-port-invalid@2:48/error',
    ]);
  });

  it('tells forwarding to itself from forwarding to a neighbour on loopback', () => {
    expect(findings(forward('127.0.0.1', '    loop\n'))).toEqual(['loopback-destination@2:15/error']);
    expect(findings(forward('[::1]:53'))).toEqual(['loopback-destination@2:15/error']);
    expect(findings(forward('127.0.0.2:053'))).toEqual(['loopback-destination@2:15/error']);
    expect(lintCorefile(forward('127.0.0.1')).diagnostics[0]?.message).toContain('queries circle until they time out');
    expect(findings(forward('127.0.0.1:5353', '    loop\n'))).toEqual(['loopback-destination@2:15/warning']);
    expect(findings(forward('localhost', '    loop\n'))).toEqual(['destination-hostname@2:15/warning', 'loopback-destination@2:15/error']);
    expect(findings(forward('127.0.0.1', '    bind 10.0.0.10\n'))).toEqual(['loopback-destination@2:15/warning']);
    expect(findings(forward('tls://127.0.0.1'))).toEqual(['loopback-destination@2:15/warning']);
    expect(findings('.:5353 {\n    forward . 127.0.0.1\n}\n')).toEqual(['loopback-destination@2:15/warning']);
  });

  it('reports a forward whose FROM the block never sees, not one that overlaps', () => {
    expect(findings('acme.local {\n    forward example.org 10.0.0.1\n}\n')).toEqual(['forward-from-outside-zones@2:5/warning']);
    expect(findings('acme.local {\n    forward sub.acme.local 10.0.0.1\n}\n')).toEqual([]);
    expect(findings('sub.acme.local {\n    forward acme.local 10.0.0.1\n}\n')).toEqual([]);
    expect(findings('. {\n    forward example.org 10.0.0.1\n}\n')).toEqual([]);
  });

  it('allows several forwards per block from 1.9.4, and several proxies always', () => {
    const two = '.:53 {\n    forward a.org 10.0.0.1\n    forward . 10.0.0.2\n}\n';
    expect(findings(two, '1.9.3')).toEqual(['forward-once-per-block@3:5/error']);
    expect(findings(two, '1.9.4')).toEqual([]);
    expect(findings(two, '1.0.6')).toEqual(['forward-once-per-block@3:5/warning']);
    expect(findings('.:53 {\n    proxy a.org 10.0.0.1\n    proxy . 10.0.0.2\n}\n', '1.4.0')).toEqual(['plugin-deprecated@2:5/info', 'plugin-deprecated@3:5/info']);
  });
});

describe('server keys', () => {
  it('reads keys the way the release does', () => {
    expect(findings(':53 {\n}\n', '1.3.0')).toEqual([]);
    expect(findings(':53 {\n}\n', '1.3.1')).toEqual(['invalid-server-key@1:1/error']);
    expect(findings('.example.org {\n}\n', '1.9.4')).toEqual([]);
    expect(findings('.example.org {\n}\n', '1.10.0')).toEqual(['invalid-server-key@1:1/error']);
    expect(findings('{$ZONE}:53 {\n}\n')).toEqual(['placeholder-not-checked@1:1/info']);
  });

  it('reports upper-case zones by release', () => {
    expect(findings('ACME.local {\n}\n', '1.6.3')).toEqual(['upper-case-zone@1:1/warning']);
    expect(findings('ACME.local {\n}\n', '1.6.4')).toEqual(['upper-case-zone@1:1/error']);
    expect(findings('ACME.local {\n}\n', '1.14.6')).toEqual(['upper-case-zone@1:1/error']);
    expect(findings('ACME.local {\n}\n', '1.14.7')).toEqual([]);
    expect(findings('2001:DB8::/32 {\n}\n', '1.6.7')).toEqual([]);
  });

  it('finds zones served twice, in one block or two, as the release compares them', () => {
    expect(findings('a.org a.org. {\n}\n')).toEqual(['zone-served-twice@1:7/error']);
    expect(findings('10.0.0.0/8 {\n}\n10.in-addr.arpa {\n}\n')).toEqual(['zone-served-twice@3:1/error']);
    expect(findings('a.org:053 {\n}\na.org {\n}\n')).toEqual(['zone-served-twice@3:1/error']);
    expect(findings('a.org {\n}\na.org:5353 {\n}\n')).toEqual([]);
    expect(findings('a.org {\n}\ntls://a.org:53 {\n}\n')).toEqual([]);
    expect(findings('A.org {\n}\na.org {\n}\n', '1.14.7')).toEqual(['zone-served-twice@3:1/error']);
    expect(findings('A.org {\n}\na.org {\n}\n', '1.6.3')).toEqual(['upper-case-zone@1:1/warning']);
    expect(findings('a.org {\n    bind 10.0.0.1\n}\na.org {\n    bind 10.0.0.2\n}\n')).toEqual([]);
    expect(findings('a.org {\n    view a {\n        expr true\n    }\n}\na.org {\n}\n')).toEqual(['plugin-without-facts@2:5/info']);
    expect(findings('a.org {\n    bind 10.0.0.1\n}\na.org {\n}\n', '1.0.0')).toEqual(['plugin-without-facts@2:5/info']);
    expect(lintCorefile('a.org {\n}\na.org {\n}\n', { coredns: '1.0.6' }).diagnostics[0]?.message).toContain('zone already defined for');
  });

  it('warns about blocks on a port the root block does not listen on', () => {
    expect(findings('.:53 {\n}\nacme.local:5353 {\n}\n')).toEqual(['zone-on-other-port@3:1/warning']);
    expect(findings('.:53 {\n}\nacme.local:53 acme.local:5353 {\n}\n')).toEqual([]);
    expect(findings('.:53 .:5353 {\n}\nacme.local:5353 {\n}\n')).toEqual([]);
    expect(findings('acme.local:5353 {\n}\n')).toEqual([]);
    expect(findings('.:53 {\n}\ntls://acme.local {\n}\n')).toEqual([]);
  });

  it('finds blocks that capture the zones of the kubernetes plugin', () => {
    const stub = (key: string) => `${main()}${key} {\n    forward . 10.0.0.1\n}\n`;
    expect(findings(stub('local:53'))).toEqual(['zone-captures-kubernetes@6:1/error']);
    expect(findings(stub('cluster.local:53'))).toEqual(['zone-captures-kubernetes@6:1/error']);
    expect(lintCorefile(stub('arpa')).diagnostics.map((entry) => entry.message.split(',')[0])).toEqual([
      "'arpa' is the most specific key for in-addr.arpa.",
      "'arpa' is the most specific key for ip6.arpa.",
    ]);
    expect(findings(stub('my.cluster.local:53'))).toEqual([]);
    expect(findings(stub('local:5353'))).toEqual(['zone-on-other-port@6:1/warning']);
    // The translator's fix: the cluster domain as a key of the main block.
    expect(findings(`${main().replace('.:53 {', '.:53 cluster.local:53 {')}local:53 {\n    forward . 10.0.0.1\n}\n`)).toEqual([]);
    // A plugin zone that is a parent of the block's key only serves the key.
    expect(findings('svc:53 {\n    kubernetes . {\n    }\n}\n.:53 {\n    forward . 8.8.8.8\n}\n')).toEqual([]);
  });

  it('finds health listening twice on one address where CoreDNS 1.1.0–1.6.5 refuses it', () => {
    const multiKey = '.:53 in-addr.arpa:53 {\n    health\n    forward . 10.0.0.1\n}\n';
    for (const coredns of ['1.1.0', '1.1.3', '1.2.6', '1.4.0', '1.6.5']) expect(findings(multiKey, coredns), coredns).toEqual(['health-bound-twice@2:5/error']);
    for (const coredns of ['1.0.6', '1.6.6', '1.6.9', '1.8.0', '1.14.7']) expect(findings(multiKey, coredns), coredns).toEqual([]);
    expect(lintCorefile(multiKey, { coredns: '1.2.6' }).diagnostics.map(formatDiagnostic)).toEqual([
      'error health-bound-twice Corefile:2:5 [.:53 in-addr.arpa:53] health: block \'.:53 in-addr.arpa:53\' has 2 keys and CoreDNS 1.2.6 sets health up once per key: the second listener on :8080 stops it with "listen tcp :8080: bind: address already in use"',
    ]);
    // Two blocks with health on the same address (written differently), or one on every interface.
    const twoBlocks = (first: string, second: string) => `.:53 {\n    health${first}\n}\nacme.local:53 {\n    health${second}\n}\n`;
    expect(findings(twoBlocks('', ''), '1.2.6')).toEqual(['health-bound-twice@5:5/error']);
    expect(findings(twoBlocks(' :8080', ' 0.0.0.0:8080'), '1.2.6')).toEqual(['health-bound-twice@5:5/error']);
    expect(findings(twoBlocks(' 127.0.0.1:8081', ' :8081'), '1.2.6')).toEqual(['health-bound-twice@5:5/error']);
    expect(findings(twoBlocks(' 127.0.0.1:8081', ' 127.0.0.2:8081'), '1.2.6')).toEqual([]);
    expect(findings(twoBlocks(' :8081', ''), '1.2.6')).toEqual([]);
    expect(findings(twoBlocks('', ''), '1.6.9')).toEqual([]);
    // One health line per block counts, the last one written (the plugin keeps the last address).
    expect(findings('.:53 {\n    health :8081\n    health :8082\n}\nacme.local:53 {\n    health :8082\n}\n', '1.2.6')).toEqual(['health-bound-twice@6:5/error']);
    // A snippet brings health into each block that imports it.
    expect(findings('(common) {\n    health\n}\n.:53 {\n    import common\n}\nacme.local:53 {\n    import common\n}\n', '1.2.6')).toEqual(['health-bound-twice@2:5/error']);
    // prometheus, ready and pprof share one listener per address in every release.
    expect(findings('.:53 in-addr.arpa:53 {\n    prometheus :9153\n    pprof\n}\nacme.local:53 {\n    prometheus :9153\n}\n', '1.2.6')).toEqual([]);
    expect(findings('.:53 in-addr.arpa:53 {\n    ready\n}\nacme.local:53 {\n    ready\n}\n', '1.5.0')).toEqual([]);
  });

  it('flags federation without kubernetes in the block', () => {
    expect(findings('acme.local {\n    federation cluster.local {\n        a b.com\n    }\n}\n', '1.6.9')).toEqual(['version-caveat@2:5/info', 'federation-without-kubernetes@2:5/warning']);
  });
});

describe('snippets and imports', () => {
  it('checks imported snippets in the context of each block, and their directives once', () => {
    const text = '(common) {\n    errors\n    loop\n    ready\n}\n.:53 {\n    import common\n    forward . 127.0.0.1\n}\nacme.local:53 {\n    import common\n    forward . /etc/resolv.conf\n}\n';
    expect(findings(text, '1.4.0')).toEqual(['plugin-not-yet-added@4:5/error', 'loopback-destination@8:15/error', 'resolv-conf-loop-risk@12:15/info']);
    const { diagnostics } = lintCorefile(text, { coredns: '1.4.0' });
    expect(diagnostics[0]?.path).toBe(':4:5 [(common)] ready');
  });

  it('counts forwards that snippets bring into a block', () => {
    const text = '(up) {\n    forward . 8.8.8.8\n}\n.:53 {\n    import up\n    forward acme.local 10.0.0.1\n}\n';
    const { diagnostics } = lintCorefile(text, { coredns: '1.8.0' });
    expect(diagnostics.map((entry) => `${entry.code} ${entry.path}`)).toEqual(['forward-once-per-block :6:5 [.:53] forward']);
  });

  it('does not lint unused snippets, and reports file imports and late snippets', () => {
    expect(findings('(unused) {\n    proxy . 1.1.1.1\n}\n. {\n}\n')).toEqual([]);
    expect(findings('. {\n    import later\n}\n(later) {\n    proxy . 1.1.1.1\n}\n')).toEqual(['import-not-checked@2:5/info']);
    expect(lintCorefile('. {\n    import later\n}\n(later) {\n}\n').diagnostics[0]?.message).toContain('defined after this block');
  });

  it('survives snippets that import each other', () => {
    const text = '(a) {\n    import b\n}\n(b) {\n    import a\n}\n. {\n    import b\n}\n';
    expect(() => parseCorefile(text)).not.toThrow();
    expect(() => lintCorefile(text)).not.toThrow();
  });
});
