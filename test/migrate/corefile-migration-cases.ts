/**
 * The migrate cases of coredns/corefile-migration (`migration/migrate_test.go`, TestMigrate and
 * TestMigrateDown), restated as data: the release pair, whether deprecations are migrated, the
 * start Corefile and the Corefile corefile-migration expects. `ours` is set where migrate
 * deliberately answers otherwise, with the reason (docs/migrate.md lists them too); `refused`
 * where migrate refuses instead.
 */
export interface ReferenceCase {
  readonly title: string;
  readonly from: string;
  readonly to: string;
  readonly deprecations: boolean;
  readonly start: string;
  readonly reference: string;
  readonly ours?: { readonly corefile?: string; readonly refused?: string; readonly reason: string };
}

const main = (lines: readonly string[]) => `.:53 {\n${lines.map((line) => `    ${line}`).join('\n')}\n}\n`;
const K8S = ['kubernetes cluster.local in-addr.arpa ip6.arpa {', '    pods insecure', '    fallthrough in-addr.arpa ip6.arpa', '}'];
const K8S_UPSTREAM = ['kubernetes cluster.local in-addr.arpa ip6.arpa {', '    pods insecure', '    upstream', '    fallthrough in-addr.arpa ip6.arpa', '}'];
const LAMEDUCK = ['health {', '    lameduck 5s', '}'];

export const COREFILE_MIGRATION_CASES: readonly ReferenceCase[] = [
  {
    title: '1.7.0 adds max_concurrent 1000 to forward',
    from: '1.6.2',
    to: '1.7.0',
    deprecations: true,
    start: main(['errors', ...LAMEDUCK, 'ready', ...K8S, 'prometheus :9153', 'forward . /etc/resolv.conf', 'cache 30', 'loop', 'reload', 'loadbalance']),
    reference: main(['errors', ...LAMEDUCK, 'ready', ...K8S, 'prometheus :9153', 'forward . /etc/resolv.conf {', '    max_concurrent 1000', '}', 'cache 30', 'loop', 'reload', 'loadbalance']),
  },
  {
    title: 'proxy options without a forward equivalent',
    from: '1.3.1',
    to: '1.5.0',
    deprecations: true,
    start: main(['errors', 'health', 'loop', ...K8S, 'prometheus :9153', 'proxy . /etc/resolv.conf {', '   except', '   fail_timeout', '   max_fails', '   health_check', '   spray', '   policy least_conn', '}', 'cache 30', 'reload', 'loadbalance']),
    reference: main(['errors', 'health', 'loop', ...K8S, 'prometheus :9153', 'forward . /etc/resolv.conf {', '    except', '    force_tcp', '}', 'cache 30', 'reload', 'loadbalance', 'ready']),
    ours: {
      refused: 'migrate-target-refuses',
      reason:
        "the start does not start on 1.3.1 (proxy's bare except and max_fails), nor would the result on 1.5.0 (forward's bare except and max_fails): migrate says so instead of reporting a migration. Otherwise: policy least_conn is a load-balancing policy, not TCP: it is dropped (forward has no least_conn) instead of becoming force_tcp; max_fails exists in forward and is kept",
    },
  },
  {
    title: 'proxy protocol that is not valid proxy syntax',
    from: '1.3.1',
    to: '1.5.0',
    deprecations: true,
    start: main(['errors', 'health', 'loop', ...K8S, 'prometheus :9153', 'proxy . /etc/resolv.conf {', '   protocol force_tcp insecure', '}', 'cache 30', 'reload', 'loadbalance']),
    reference: main(['errors', 'health', 'loop', ...K8S, 'prometheus :9153', 'forward . /etc/resolv.conf {', '    force_tcp', '}', 'cache 30', 'reload', 'loadbalance', 'ready']),
    ours: {
      refused: 'migrate-proxy-unmappable',
      reason: "proxy knows the protocols dns (with force_tcp) and grpc; 'protocol force_tcp insecure' is refused by proxy itself, so its meaning cannot be carried over",
    },
  },
  {
    title: '1.6.5 adds lameduck 5s to health',
    from: '1.6.2',
    to: '1.6.6',
    deprecations: true,
    start: main(['errors', 'health', 'ready', ...K8S, 'prometheus :9153', 'forward . /etc/resolv.conf', 'cache 30', 'loop', 'reload', 'loadbalance']),
    reference: main(['errors', ...LAMEDUCK, 'ready', ...K8S, 'prometheus :9153', 'forward . /etc/resolv.conf', 'cache 30', 'loop', 'reload', 'loadbalance']),
  },
  {
    title: 'kubernetes resyncperiod and upstream go, proxy becomes forward',
    from: '1.4.0',
    to: '1.7.1',
    deprecations: true,
    start: main(['errors', 'health', 'kubernetes cluster.local in-addr.arpa ip6.arpa {', '    resyncperiod 60s', '    pods insecure', '    upstream', '    fallthrough in-addr.arpa ip6.arpa', '}', 'prometheus :9153', 'proxy . /etc/resolv.conf', 'cache 30', 'loop', 'reload', 'loadbalance']),
    reference: main(['errors', ...LAMEDUCK, ...K8S, 'prometheus :9153', 'forward . /etc/resolv.conf {', '    max_concurrent 1000', '}', 'cache 30', 'loop', 'reload', 'loadbalance', 'ready']),
  },
  {
    title: 'proxy https_google on 1.2.x',
    from: '1.1.3',
    to: '1.2.6',
    deprecations: true,
    start: main(['errors', 'health', 'kubernetes cluster.local in-addr.arpa ip6.arpa {', '    endpoint thing1 thing2', '    pods insecure', '    upstream', '    fallthrough in-addr.arpa ip6.arpa', '}', 'prometheus :9153', 'proxy example.org 1.2.3.4:53 {', '    protocol https_google', '}', 'cache 30', 'loop', 'reload', 'loadbalance']),
    reference: main(['errors', 'health', 'kubernetes cluster.local in-addr.arpa ip6.arpa {', '    endpoint thing1 thing2', '    pods insecure', '    upstream', '    fallthrough in-addr.arpa ip6.arpa', '}', 'prometheus :9153', 'proxy example.org 1.2.3.4:53', 'cache 30', 'loop', 'reload', 'loadbalance']),
    ours: {
      refused: 'migrate-proxy-unmappable',
      reason: 'dropping protocol https_google silently turns DNS over HTTPS into plain DNS to 1.2.3.4:53; migrate refuses and says why',
    },
  },
  {
    title: 'proxy to forward, endpoint trimmed, upstream removed',
    from: '1.3.1',
    to: '1.5.2',
    deprecations: true,
    start: main(['errors', 'health', 'kubernetes cluster.local in-addr.arpa ip6.arpa {', '    endpoint thing1 thing2', '    pods insecure', '    upstream', '    fallthrough in-addr.arpa ip6.arpa', '}', 'prometheus :9153', 'proxy . /etc/resolv.conf', 'cache 30', 'loop', 'reload', 'loadbalance']),
    reference: main(['errors', 'health', 'kubernetes cluster.local in-addr.arpa ip6.arpa {', '    endpoint thing1', '    pods insecure', '    fallthrough in-addr.arpa ip6.arpa', '}', 'prometheus :9153', 'forward . /etc/resolv.conf', 'cache 30', 'loop', 'reload', 'loadbalance', 'ready']),
  },
  {
    title: 'loop and ready added',
    from: '1.1.3',
    to: '1.5.0',
    deprecations: true,
    start: main(['errors', 'health', ...K8S_UPSTREAM, 'prometheus :9153', 'proxy . /etc/resolv.conf', 'cache 30', 'reload', 'loadbalance']),
    reference: main(['errors', 'health', ...K8S, 'prometheus :9153', 'forward . /etc/resolv.conf', 'cache 30', 'reload', 'loadbalance', 'loop', 'ready']),
  },
  {
    title: 'several proxies: stubs get server blocks of their own',
    from: '1.1.3',
    to: '1.5.0',
    deprecations: true,
    start: main(['errors', 'health', ...K8S_UPSTREAM, 'prometheus :9153', 'proxy mystub-1.example.org 1.2.3.4', 'proxy mystub-2.example.org 5.6.7.8', 'proxy . /etc/resolv.conf', 'cache 30', 'reload', 'loadbalance']),
    reference:
      main(['errors', 'health', ...K8S, 'prometheus :9153', 'forward . /etc/resolv.conf', 'cache 30', 'reload', 'loadbalance', 'loop', 'ready']) +
      '\nmystub-1.example.org {\n    forward . 1.2.3.4\n    loop\n    errors\n    cache 30\n}\n\nmystub-2.example.org {\n    forward . 5.6.7.8\n    loop\n    errors\n    cache 30\n}\n',
    ours: {
      corefile:
        main(['errors', 'health', ...K8S, 'prometheus :9153', 'forward . /etc/resolv.conf', 'cache 30', 'reload', 'loadbalance', 'loop', 'ready']) +
        '\nmystub-1.example.org:53 {\n    forward . 1.2.3.4\n    loop\n    errors\n    cache 30\n}\n\nmystub-2.example.org:53 {\n    forward . 5.6.7.8\n    loop\n    errors\n    cache 30\n}\n',
      reason: 'the new blocks keep the port of the block they come from (.:53 → mystub-1.example.org:53); the same port as the default 53 here, but not when the root block listens elsewhere',
    },
  },
  {
    title: 'same release: nothing changes',
    from: '1.3.1',
    to: '1.3.1',
    deprecations: true,
    start: main(['errors', 'health', ...K8S_UPSTREAM, 'prometheus :9153', 'proxy . /etc/resolv.conf', 'cache 30', 'loop', 'reload', 'loadbalance']),
    reference: main(['errors', 'health', ...K8S_UPSTREAM, 'prometheus :9153', 'proxy . /etc/resolv.conf', 'cache 30', 'loop', 'reload', 'loadbalance']),
  },
  {
    title: 'hosts and autopath pass through',
    from: '1.3.1',
    to: '1.6.6',
    deprecations: true,
    start: main(['errors', 'health', 'ready', 'autopath {', '    @kubernetes', '}', ...K8S, 'prometheus :9153', 'forward . /etc/resolv.conf', 'cache 30', 'loop', 'reload', 'loadbalance', 'hosts {', '    1.2.3.4 hello', '    1:2:3::4 goodbye', '    ttl 30', '}']),
    reference: main(['errors', ...LAMEDUCK, 'ready', 'autopath {', '    @kubernetes', '}', ...K8S, 'prometheus :9153', 'forward . /etc/resolv.conf', 'cache 30', 'loop', 'reload', 'loadbalance', 'hosts {', '    1.2.3.4 hello', '    1:2:3::4 goodbye', '    ttl 30', '}']),
    ours: {
      refused: 'migrate-target-refuses',
      reason: "autopath takes its zone or @kubernetes as an argument and reads no block: `autopath { @kubernetes }` does not start on 1.3.1 or 1.6.6, and migrate says so instead of reporting a migration",
    },
  },
  {
    title: 'rewrite passes through',
    from: '1.2.6',
    to: '1.5.0',
    deprecations: true,
    start: main(['errors', 'health', 'loop', ...K8S, 'prometheus :9153', 'proxy . /etc/resolv.conf', 'cache 30', 'reload', 'loadbalance', 'rewrite continue {', '    ttl regex (.*)\\.coredns\\.rocks 15', '}']),
    reference: main(['errors', 'health', 'loop', ...K8S, 'prometheus :9153', 'forward . /etc/resolv.conf', 'cache 30', 'reload', 'loadbalance', 'rewrite continue {', '    ttl regex (.*)\\.coredns\\.rocks 15', '}', 'ready']),
  },
  {
    title: 'kubernetes transfer becomes the transfer plugin',
    from: '1.7.1',
    to: '1.8.0',
    deprecations: true,
    start: main(['kubernetes cluster.local in-addr.arpa ip6.arpa {', '    transfer to 1.2.3.4 5.6.7.8', '}']),
    reference: main(['kubernetes cluster.local in-addr.arpa ip6.arpa', 'transfer cluster.local {', '    to 1.2.3.4 5.6.7.8', '}']),
  },
  {
    title: 'down to 1.1.3: ready and loop go',
    from: '1.6.2',
    to: '1.1.3',
    deprecations: false,
    start: main(['errors', 'health', 'ready', ...K8S_UPSTREAM, 'prometheus :9153', 'forward . /etc/resolv.conf', 'cache 30', 'loop', 'reload', 'loadbalance']),
    reference: main(['errors', 'health', ...K8S_UPSTREAM, 'prometheus :9153', 'forward . /etc/resolv.conf', 'cache 30', 'reload', 'loadbalance']),
  },
  {
    title: 'down to 1.3.1: ready goes',
    from: '1.5.0',
    to: '1.3.1',
    deprecations: false,
    start: main(['errors', 'health', 'ready', ...K8S_UPSTREAM, 'prometheus :9153', 'forward . /etc/resolv.conf', 'cache 30', 'loop', 'reload', 'loadbalance']),
    reference: main(['errors', 'health', ...K8S_UPSTREAM, 'prometheus :9153', 'forward . /etc/resolv.conf', 'cache 30', 'loop', 'reload', 'loadbalance']),
  },
];
