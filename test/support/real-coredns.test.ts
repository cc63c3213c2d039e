import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCorefile } from '../../src/corefile/parser.js';
import { serverBlocks } from '../../src/corefile/model.js';
import { readDestination } from '../../src/coredns/destinations.js';
import { COREDNS_VERSIONS } from '../../src/coredns/versions.js';
import { translateKubeDns } from '../../src/translate/translate.js';
import { combineCorefiles, moveToLoopback, NotLoopbackSafeError, realReleaseFor, REAL_COREDNS_RELEASES, targetsOf } from './real-coredns.js';

/** The harness's own rules, without any binary: what it starts, and which release judges what. */

const plan = { ip: '127.201.3.4', sinkPort: 40001, apiPort: 40002, firstPort: 20000 };

describe('moveToLoopback', () => {
  it('moves every destination, key, listener and API of a translated Corefile to loopback', () => {
    const federated = translateKubeDns(
      { stubDomains: '{"acme.local": ["10.0.0.1", "2001:db8::1"], "local": ["10.0.0.2"]}', upstreamNameservers: '["8.8.8.8"]', federations: 'foo=foo.example.com' },
      { coredns: '1.6.9' },
    );
    const hostname = translateKubeDns({ stubDomains: '{"acme.corp": ["ns.example.com"]}' }, { coredns: '1.14.7' });
    const moved = moveToLoopback(`${federated.corefile ?? ''}\n${hostname.corefile?.replace('.:53 {', '.:5353 {') ?? ''}`, plan);
    const blocks = serverBlocks(parseCorefile(moved.corefile).corefile);
    expect(blocks).toHaveLength(5);
    for (const block of blocks) {
      expect(block.keys.every((key) => /:200\d\d$/.test(key)), block.keys.join(' ')).toBe(true);
      expect(block.directives[0]).toEqual({ name: 'bind', arguments: ['127.201.3.4'] });
      for (const directive of block.directives) {
        if (directive.name === 'forward') expect(directive.arguments.slice(1)).toEqual(directive.arguments.slice(1).map(() => '127.0.0.1:40001'));
        if (directive.name === 'kubernetes') expect(directive.block?.directives[0]).toEqual({ name: 'endpoint', arguments: ['http://127.0.0.1:40002'] });
        if (['health', 'ready', 'prometheus'].includes(directive.name)) expect(directive.arguments[0]).toMatch(/^127\.201\.3\.4:200\d\d$/);
      }
    }
    expect(moved.dnsPort).toBe(20000);
    // Nothing that reads as an address outside loopback is left anywhere in the text.
    const addresses = moved.corefile.split(/\s+/).map(readDestination).filter((read) => read.kind === 'ip');
    expect(addresses.every((read) => read.kind === 'ip' && read.loopback)).toBe(true);
    expect(moved.corefile).not.toMatch(/8\.8\.8\.8|10\.0\.0\.1|2001:db8|ns\.example\.com|resolv\.conf/);
  });

  it('keeps listeners that would collide colliding, and those that would not apart', () => {
    const text = '.:53 in-addr.arpa:53 {\n    health\n    prometheus :9153\n}\nacme.local:53 {\n    health 0.0.0.0:8080\n    ready\n    pprof localhost:6060\n}\n';
    const moved = parseCorefile(moveToLoopback(text, plan).corefile).corefile;
    const [main, acme] = serverBlocks(moved);
    const address = (block: typeof main, name: string) => block?.directives.find((directive) => directive.name === name)?.arguments[0];
    expect(address(main, 'health')).toBe(address(acme, 'health'));
    expect(new Set([address(main, 'health'), address(main, 'prometheus'), address(acme, 'ready'), address(acme, 'pprof')]).size).toBe(4);
    expect(main?.keys).toEqual(['.:20000', 'in-addr.arpa:20000']);
  });

  it('replaces a kubernetes endpoint and kubeconfig, rewrites bind, and keeps keys without a port on -dns.port', () => {
    const text = 'cluster.local {\n    bind 10.0.0.9\n    kubernetes cluster.local {\n        endpoint https://10.0.0.1:6443\n        kubeconfig /root/.kube/config ctx\n        upstream 10.0.0.53 /etc/resolv.conf\n    }\n}\n';
    const moved = moveToLoopback(text, plan);
    expect(moved.corefile).toBe(
      'cluster.local {\n    bind 127.201.3.4\n    kubernetes cluster.local {\n        endpoint http://127.0.0.1:40002\n        upstream 127.0.0.1:40001 127.0.0.1:40001\n    }\n}\n',
    );
    expect(moved.dnsPort).toBe(20000);
  });

  it('moves grpc destinations to the sink, and starts names no release has (CoreDNS refuses them while parsing)', () => {
    const moved = moveToLoopback('.:53 {\n    grpc . 8.8.8.8 [2001:db8::1]:53\n    dns64\n    forwrd . 8.8.8.8\n}\n', plan);
    expect(moved.corefile).toBe('.:20000 {\n    bind 127.201.3.4\n    grpc . 127.0.0.1:40001 127.0.0.1:40001\n    dns64\n    forwrd . 8.8.8.8\n}\n');
  });

  it.each([
    ['a plugin that may reach out', '.:53 {\n    etcd cluster.local\n}\n'],
    ['a plugin of some release the lab does not know to be local', '.:53 {\n    clouddns example.org. gcp-project:zone\n}\n'],
    ['a grpc option that may reach out', '.:53 {\n    grpc . 10.0.0.1 {\n        tls\n    }\n}\n'],
    ['an option that may reach out', '.:53 {\n    proxy . 8.8.8.8 {\n        protocol https_google\n    }\n}\n'],
    ['a file import', '.:53 {\n    import other.conf\n}\n'],
    ['a top-level import', 'import other.conf\n'],
    ['a placeholder', '.:53 {\n    forward . {$UPSTREAM}\n}\n'],
    ['an unreadable destination', '.:53 {\n    forward . 010.0.0.1\n}\n'],
    ['a TLS server key', 'tls://.:853 {\n    whoami\n}\n'],
    ['a zone transfer that notifies an address', '.:53 {\n    transfer {\n        to 10.0.0.1\n    }\n}\n'],
    ["the kubernetes plugin's own transfer that notifies an address", '.:53 {\n    kubernetes cluster.local {\n        transfer to 10.0.0.1\n    }\n}\n'],
  ])('refuses to start %s', (_, text) => {
    expect(() => moveToLoopback(text, plan)).toThrow(NotLoopbackSafeError);
  });
});

describe('combineCorefiles', () => {
  it('gives each Corefile ports of its own for keys and listeners, keeping the collisions within one', () => {
    const first = '.:53 in-addr.arpa:53 {\n    health\n    prometheus :9153\n}\nacme.local {\n    health :8080\n    ready\n}\n';
    const second = '.:53 {\n    health 127.0.0.1:8080\n    prometheus 0.0.0.0:9153\n    pprof\n    whoami\n}\n';
    expect(combineCorefiles([first, second])).toBe(
      '.:30000 in-addr.arpa:30000 {\n    health :30001\n    prometheus :30002\n}\n\n' +
        'acme.local:30000 {\n    health :30001\n    ready :30003\n}\n\n' +
        '.:30004 {\n    health :30005\n    prometheus :30006\n    pprof :30007\n    whoami\n}\n',
    );
  });

  it.each([
    ['a snippet', '(common) {\n    errors\n}\n.:53 {\n    import common\n}\n'],
    ['an import', '.:53 {\n    import other.conf\n}\n'],
    ['a key with a port no socket takes', '.:99999 {\n    whoami\n}\n'],
    ['a key with a placeholder', '.:{$PORT} {\n    whoami\n}\n'],
    ['a TLS key', 'tls://.:853 {\n    whoami\n}\n'],
    ['a listener without a port', '.:53 {\n    health localhost\n}\n'],
  ])('leaves out nothing: a Corefile with %s is not combined', (_, text) => {
    expect(combineCorefiles(['.:53 {\n    whoami\n}\n', text])).toBeUndefined();
  });
});

describe('which real release judges a target', () => {
  it('is the release whose rules the model says are the target’s own (the mapping the tests state)', () => {
    // The syntax table sets 1.2.6 apart (the first errors that reads a block, `consolidate`;
    // 1.3.0 also widens the kubernetes ttl range) and 1.8.2 from 1.8.0 (acl's `filter`).
    expect(targetsOf('1.2.6')).toEqual(['1.2.6']);
    expect(targetsOf('1.6.9')).toEqual(['1.6.8', '1.6.9']);
    expect(targetsOf('1.8.0')).toEqual(['1.8.0', '1.8.1']);
    expect(targetsOf('1.14.7')).toEqual(['1.14.7']);
    for (const real of REAL_COREDNS_RELEASES) expect(realReleaseFor(real)).toBe(real);
    // 1.0.4 (the golden proxy-era target) has no real release with its rules.
    expect(realReleaseFor('1.0.4')).toBeUndefined();
    expect(COREDNS_VERSIONS.filter((version) => realReleaseFor(version) !== undefined)).toHaveLength(6);
  });

  it('is the mapping docs/coredns-versions.md states', () => {
    const markdown = readFileSync(join(import.meta.dirname, '../../docs/coredns-versions.md'), 'utf8');
    const rows = REAL_COREDNS_RELEASES.map((real) => {
      const targets = targetsOf(real);
      const span = targets.length === 1 ? targets[0] : `${targets[0]}–${targets.at(-1)}`;
      return `| ${real} | ${span} |`;
    });
    expect(markdown).toContain(`| real release | judges targets |\n| --- | --- |\n${rows.join('\n')}\n`);
  });
});
