import { describe, expect, it } from 'vitest';
import { parseCorefile } from '../../src/corefile/parser.js';
import { CorefileExpansionError, CorefileSyntaxError } from '../../src/corefile/errors.js';
import { fanOutCorefile, snippetChain } from '../support/hostile-inputs.js';
import { thrown } from '../support/thrown.js';
import { coreDnsRouting, NOT_MODELLED, PASSIVE, PLUGIN_ORDER } from '../../src/routing/coredns-routing.js';
import { compiledPlugins } from '../../src/coredns/plugin-cfg.js';
import { COREDNS_VERSIONS } from '../../src/coredns/versions.js';
import { destinationKey } from '../../src/routing/destination.js';

function keyOf(corefile: string, name: string, port?: number): string {
  return destinationKey(coreDnsRouting(corefile, port === undefined ? {} : { port }).route(name).destination);
}

const MAIN = `.:53 {
    errors
    kubernetes cluster.local in-addr.arpa ip6.arpa {
        fallthrough in-addr.arpa ip6.arpa
    }
    forward . /etc/resolv.conf
    cache 30
}
`;

describe('CoreDNS routing model: server blocks', () => {
  it('picks the block with the longest zone, the root last, REFUSED without one', () => {
    const corefile = `acme.local:53 {\n    forward . 10.0.0.1\n}\na.acme.local {\n    forward . 10.0.0.2\n}\n${MAIN}`;
    expect(keyOf(corefile, 'x.acme.local')).toBe('servers(10.0.0.1:53)');
    expect(keyOf(corefile, 'X.A.ACME.LOCAL.')).toBe('servers(10.0.0.2:53)');
    expect(keyOf(corefile, 'notacme.local')).toBe('resolv.conf');
    expect(keyOf('acme.local {\n    forward . 10.0.0.1\n}\n', 'example.com')).toBe('refused');
    expect(coreDnsRouting('acme.local {\n    forward . 10.0.0.1\n}\n').route('example.com').via).toBe('no server block on port 53 serves it');
  });

  it('only blocks on the port the query arrives on see it', () => {
    const corefile = `.:5353 {\n    forward . 10.0.0.1\n}\nacme.local:53 {\n    forward . 10.0.0.2\n}\n`;
    expect(keyOf(corefile, 'example.com')).toBe('refused');
    expect(keyOf(corefile, 'example.com', 5353)).toBe('servers(10.0.0.1:53)');
    expect(keyOf(corefile, 'x.acme.local', 5353)).toBe('servers(10.0.0.1:53)');
    expect(keyOf('tls://.:53 {\n    forward . 10.0.0.1\n}\n', 'example.com')).toBe('refused');
    expect(coreDnsRouting(corefile).notes).toEqual(['1 server key on other ports or transports than dns port 53 never see these queries']);
  });

  it('a stub block that is a parent of the cluster domain captures cluster names, unless the main block has the cluster domain as a key', () => {
    const stub = 'local:53 {\n    forward . 10.0.0.3\n}\n';
    expect(keyOf(`${MAIN}${stub}`, 'svc.cluster.local')).toBe('servers(10.0.0.3:53)');
    expect(keyOf(`${MAIN.replace('.:53 {', '.:53 cluster.local:53 {')}${stub}`, 'svc.cluster.local')).toBe('cluster@cluster.local');
  });

  it('reads CIDR keys as reverse zones; a block without plugins refuses, one where nothing answers fails', () => {
    expect(keyOf('10.0.0.0/8 {\n    forward . 10.0.0.1\n}\n', '4.3.2.10.in-addr.arpa')).toBe('servers(10.0.0.1:53)');
    expect(keyOf('. {\n}\n', 'example.com')).toBe('refused');
    expect(keyOf('. {\n    errors\n    cache 30\n}\n', 'example.com')).toBe('servfail');
    expect(coreDnsRouting('. {\n    errors\n}\n').route('a').via).toBe('block ".": no plugin answers');
  });

  it('notes duplicate zones, upper-case keys, unreadable keys', () => {
    const model = coreDnsRouting('acme.local {\n    forward . 10.0.0.1\n}\nACME.local:53 {\n    forward . 10.0.0.2\n}\nexample.org: {\n}\n');
    expect(destinationKey(model.route('acme.local').destination)).toBe('servers(10.0.0.1:53)');
    expect(model.notes).toEqual([
      "server key 'ACME.local:53' has upper-case letters: CoreDNS before 1.14.7 never matches it (modelled as 1.14.7, lower-cased)",
      "zone acme.local on port 53 is served by two blocks: CoreDNS refuses to start ('already defined'); the first block is modelled",
      `server key 'example.org:': CoreDNS refuses to start (expecting data after last colon: "example.org:")`,
    ]);
  });
});

describe('CoreDNS routing model: plugins', () => {
  it('template: a template of another query type or class passes the query on to the next plugins', () => {
    const corefile = `z.test:53 {\n    template IN A {\n        answer "{{ .Name }} 0 IN A 192.0.2.1"\n    }\n    template CH ANY {\n        rcode NXDOMAIN\n    }\n    forward . 10.0.0.1\n}\n.:53 {\n    forward . 10.0.0.2\n}\n`;
    const routing = coreDnsRouting(corefile);
    expect(destinationKey(routing.route('x.z.test').destination)).toBe('plugin:template');
    expect(destinationKey(routing.route('x.z.test', 'a').destination)).toBe('plugin:template');
    expect(destinationKey(routing.route('x.z.test', 'AAAA').destination)).toBe('servers(10.0.0.1:53)');
    expect(destinationKey(routing.route('x.z.test', 'MX').destination)).toBe('servers(10.0.0.1:53)');
    expect(routing.dependsOnType('x.z.test')).toBe(true);
    expect(routing.dependsOnType('example.com')).toBe(false);
  });

  it('runs plugins in plugin.cfg order, not Corefile order', () => {
    const corefile = '. {\n    forward . 8.8.8.8\n    kubernetes cluster.local\n}\n';
    expect(keyOf(corefile, 'a.cluster.local')).toBe('cluster@cluster.local');
    expect(keyOf(corefile, 'example.com')).toBe('servers(8.8.8.8:53)');
    expect(coreDnsRouting(corefile).route('a.cluster.local').via).toBe('block "." > kubernetes (zone cluster.local)');
  });

  it('kubernetes: its zones or the block zones; fallthrough for some or all zones', () => {
    expect(keyOf(MAIN, '1.2.3.4.in-addr.arpa')).toBe('cluster>resolv.conf');
    expect(keyOf(MAIN, 'x.cluster.local')).toBe('cluster@cluster.local');
    expect(keyOf('. {\n    kubernetes cluster.local {\n        fallthrough\n    }\n    forward . 8.8.8.8\n}\n', 'x.cluster.local')).toBe('cluster@cluster.local>servers(8.8.8.8:53)');
    expect(keyOf('cluster.local {\n    kubernetes\n}\n', 'x.cluster.local')).toBe('cluster@cluster.local');
    expect(keyOf('. {\n    kubernetes\n}\n', 'example.com')).toBe('cluster@.');
    expect(keyOf('. {\n    kubernetes cluster.local 10.0.0.0/16 {\n        fallthrough\n    }\n}\n', '4.3.2.10.in-addr.arpa')).toBe('servfail');
    expect(keyOf('. {\n    kubernetes cluster.local 10.0.0.0/16 {\n        fallthrough\n    }\n}\n', '4.3.0.10.in-addr.arpa')).toBe('cluster>servfail');
    expect(coreDnsRouting(MAIN).route('1.2.3.4.in-addr.arpa').via).toBe('block ".:53" > kubernetes (zone in-addr.arpa), fallthrough > forward . /etc/resolv.conf');
  });

  it('forward: FROM and except (FROM itself always forwarded); several forwards chain in Corefile order', () => {
    const corefile = '. {\n    forward acme.local 10.0.0.1 {\n        except skip.acme.local\n    }\n    forward . 8.8.8.8\n}\n';
    expect(keyOf(corefile, 'a.acme.local')).toBe('servers(10.0.0.1:53)');
    expect(keyOf(corefile, 'a.skip.acme.local')).toBe('servers(8.8.8.8:53)');
    expect(keyOf(corefile, 'example.com')).toBe('servers(8.8.8.8:53)');
    expect(keyOf('. {\n    forward . 8.8.8.8 {\n        except acme.local\n    }\n}\n', 'x.acme.local')).toBe('servfail');
    expect(keyOf('acme.local {\n    forward acme.local 10.0.0.1 {\n        except acme.local\n    }\n}\n', 'acme.local')).toBe('servers(10.0.0.1:53)');
    // The first matching stanza wins, even when a later FROM is longer.
    expect(keyOf('. {\n    forward . 8.8.8.8\n    forward acme.local 10.0.0.1\n}\n', 'a.acme.local')).toBe('servers(8.8.8.8:53)');
  });

  it('proxy: the longest FROM among the block\'s proxy lines wins', () => {
    const corefile = '. {\n    proxy . 8.8.8.8\n    proxy acme.local 10.0.0.1\n}\n';
    expect(keyOf(corefile, 'a.acme.local')).toBe('servers(10.0.0.1:53)');
    expect(keyOf(corefile, 'example.com')).toBe('servers(8.8.8.8:53)');
  });

  it('reads forward targets as socket addresses', () => {
    const forward = (targets: string) => keyOf(`. {\n    forward . ${targets}\n}\n`, 'example.com');
    expect(forward('8.8.8.8 dns://1.1.1.1:53 2001:db8::1 [2001:db8::2]:5353')).toBe('servers(1.1.1.1:53,8.8.8.8:53,[2001:db8::1]:53,[2001:db8::2]:5353)');
    expect(forward('tls://9.9.9.9 tls://1.1.1.1:8853')).toBe('servers(tls://1.1.1.1:8853,tls://9.9.9.9:853)');
    expect(forward('/etc/resolv.conf')).toBe('resolv.conf');
    expect(forward('/etc/resolv.conf 8.8.8.8')).toBe('servers(8.8.8.8:53,resolv.conf)');
    expect(forward('ns.example.com')).toBe('servers(ns.example.com:53)');
    expect(forward('/etc/other.conf')).toBe('servers(file:/etc/other.conf)');
    expect(keyOf('. {\n    grpc . 10.0.0.1:443\n}\n', 'example.com')).toBe('servers(grpc://10.0.0.1:443)');
  });

  it('hosts answers its inline names; other names pass on with fallthrough; its file is noted', () => {
    const corefile = '. {\n    hosts /etc/hosts acme.local {\n        10.0.0.1 db.acme.local\n        fallthrough\n    }\n    forward . 8.8.8.8\n}\n';
    expect(keyOf(corefile, 'db.acme.local')).toBe('plugin:hosts');
    expect(keyOf(corefile, 'a.acme.local')).toBe('servers(8.8.8.8:53)');
    expect(keyOf(corefile.replace('        fallthrough\n', ''), 'a.acme.local')).toBe('plugin:hosts');
    expect(keyOf(corefile.replace('        fallthrough\n', ''), 'example.com')).toBe('servers(8.8.8.8:53)');
    expect(coreDnsRouting(corefile).notes).toEqual(['block ".": hosts answers the names listed in /etc/hosts itself (not modelled; inline entries are)']);
  });

  it('answering plugins own their zones, with fallthrough', () => {
    const corefile = '. {\n    etcd acme.local {\n        fallthrough\n    }\n    file db.example example.org\n    forward . 8.8.8.8\n}\n';
    expect(keyOf(corefile, 'a.acme.local')).toBe('plugin:etcd>servers(8.8.8.8:53)');
    expect(keyOf(corefile, 'www.example.org')).toBe('plugin:file');
    expect(keyOf(corefile, 'example.com')).toBe('servers(8.8.8.8:53)');
    expect(keyOf('. {\n    whoami\n}\n', 'example.com')).toBe('plugin:whoami');
  });

  it('federation: federation-shaped names in its zones, only next to kubernetes', () => {
    const corefile = '. {\n    kubernetes cluster.local\n    federation cluster.local {\n        myfed fed.example.com\n    }\n}\n';
    expect(keyOf(corefile, 'web.shop.myfed.svc.cluster.local')).toBe('cluster@cluster.local[federation=fed.example.com]');
    expect(keyOf(corefile, 'web.shop.other.svc.cluster.local')).toBe('cluster@cluster.local');
    const alone = coreDnsRouting('. {\n    federation cluster.local {\n        myfed fed.example.com\n    }\n}\n');
    expect(destinationKey(alone.route('web.shop.myfed.svc.cluster.local').destination)).toBe('servfail');
    expect(alone.notes).toEqual(['block ".": federation without kubernetes in the same block does nothing']);
  });

  it('expands snippets; notes file imports, name-rewriting plugins and unknown plugins', () => {
    const corefile = '(upstream) {\n    forward . 9.9.9.9\n}\n. {\n    import upstream\n    import extra/*.conf\n    rewrite name a.example b.example\n    mystery\n}\n';
    const model = coreDnsRouting(corefile);
    expect(destinationKey(model.route('example.com').destination)).toBe('servers(9.9.9.9:53)');
    expect(model.notes).toEqual([
      "block \".\": 'import extra/*.conf' (a file or glob) is not modelled",
      "block \".\": 'rewrite' rewrites query names before the plugins below see them; not modelled",
      "block \".\": plugin 'mystery' is not in CoreDNS's default build; not modelled (assumed not to answer)",
    ]);
  });

  it('follows snippets at any depth, reads a snippet defined after the block as a file, and refuses past the expansion bound', () => {
    expect(keyOf(snippetChain(200, 'forward . 9.9.9.9'), 'example.com')).toBe('servers(9.9.9.9:53)');
    const late = coreDnsRouting('. {\n    import later\n}\n(later) {\n    forward . 9.9.9.9\n}\n');
    expect(destinationKey(late.route('example.com').destination)).toBe('refused');
    expect(late.notes).toEqual(["block \".\": 'import later' (a file or glob) is not modelled"]);
    const error = thrown(() => coreDnsRouting(fanOutCorefile(6, 10)));
    expect(error).toBeInstanceOf(CorefileExpansionError);
    expect(error).toMatchObject({ code: 'expansion-limit', position: { line: 10, column: 5 } });
  });

  it('takes a parsed model too, and throws CorefileSyntaxError for text CoreDNS cannot parse', () => {
    const { corefile } = parseCorefile(MAIN);
    expect(destinationKey(coreDnsRouting(corefile).route('a.cluster.local').destination)).toBe('cluster@cluster.local');
    expect(() => coreDnsRouting('. {\n    whoami }\n')).toThrow(CorefileSyntaxError);
  });

  it('lists the zones it routes on', () => {
    const model = coreDnsRouting(`${MAIN}acme.local:53 {\n    forward . 10.0.0.1 {\n        except skip.acme.local\n    }\n}\n`);
    expect(new Set(model.zones)).toEqual(new Set(['', 'cluster.local', 'in-addr.arpa', 'ip6.arpa', 'acme.local', 'skip.acme.local']));
  });
});

describe('CoreDNS routing model: defaults', () => {
  it('serves whoami on port 53 for a Corefile without server blocks', () => {
    const model = coreDnsRouting('# nothing\n');
    expect(destinationKey(model.route('example.com').destination)).toBe('plugin:whoami');
    expect(model.notes).toEqual(['the Corefile has no server blocks: CoreDNS then serves its default, whoami on port 53']);
    expect(destinationKey(coreDnsRouting('', { port: 1053 }).route('example.com').destination)).toBe('refused');
  });
});

describe('the plugin order the model routes by', () => {
  it('is every release’s own order for the plugins that route (passive and unmodelled ones may differ)', () => {
    const routes = (name: string) => !PASSIVE.has(name) && NOT_MODELLED[name] === undefined;
    const modelled = PLUGIN_ORDER.filter(routes);
    let compared = 0;
    for (const version of COREDNS_VERSIONS) {
      const compiled = compiledPlugins(version).map((plugin) => plugin.name).filter(routes);
      expect(compiled.every((name) => PLUGIN_ORDER.includes(name)), `${version}: a routing plugin the model does not order`).toBe(true);
      expect(compiled, version).toEqual(modelled.filter((name) => compiled.includes(name)));
      compared += compiled.length;
    }
    expect(compared).toBeGreaterThan(COREDNS_VERSIONS.length * 8);
  });
});

describe('CoreDNS routing model: template match', () => {
  it('answers only the names a match regex selects; the others pass on with fallthrough, and a regex it cannot read is noted', () => {
    const corefile = (options: string) => `.:53 {\n    template ANY ANY {\n        match ^[^.]+\\.$\n        rcode NXDOMAIN\n${options}    }\n    forward . 10.0.0.1\n}\n`;
    const through = corefile('        fallthrough\n');
    expect(keyOf(through, 'example')).toBe('plugin:template');
    expect(keyOf(through, 'example.com')).toBe('servers(10.0.0.1:53)');
    expect(keyOf(through, '.')).toBe('servers(10.0.0.1:53)');
    // Without fallthrough the template answers (SERVFAIL) what no regex matches.
    expect(keyOf(corefile(''), 'example.com')).toBe('plugin:template');
    const lookahead = coreDnsRouting('.:53 {\n    template ANY ANY {\n        match ^(?!a).*$\n        fallthrough\n    }\n    forward . 10.0.0.1\n}\n');
    expect(lookahead.notes).toEqual(["block \".:53\": template match '^(?!a).*$' is not modelled (taken to match every name)"]);
    // As without match: the template, falling through to what follows.
    expect(destinationKey(lookahead.route('b.example').destination)).toBe('plugin:template>servers(10.0.0.1:53)');
  });
});
