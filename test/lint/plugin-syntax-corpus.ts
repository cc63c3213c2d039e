import { UNKNOWN_OPTION } from '../support/real-coredns.js';

/**
 * Plugin lines and options, valid and invalid, one small Corefile each: the corpus the linter's
 * "does not start" verdict is compared with the real releases on (test/lint/real-coredns.test.ts).
 * Every variant is one server block `.:53`; only plugins and options the real-CoreDNS lab keeps on
 * loopback appear (test/support/real-coredns.ts).
 */

const X = UNKNOWN_OPTION;

/** `.:53 { LINES }`, with whoami so that every block answers something. */
function block(...lines: readonly string[]): string {
  return `.:53 {\n    whoami\n${lines.map((line) => `    ${line}\n`).join('')}}\n`;
}

/** A plugin line with a block of options. */
function withOptions(line: string, ...options: readonly string[]): string {
  return block(`${line} {`, ...options.map((option) => `    ${option}`), '}');
}

const k8s = (...options: readonly string[]) => withOptions('kubernetes cluster.local', ...options);
const forward = (...options: readonly string[]) => withOptions('forward . 10.0.0.1', ...options);
const proxy = (...options: readonly string[]) => withOptions('proxy . 10.0.0.1', ...options);
const cache = (...options: readonly string[]) => withOptions('cache 30', ...options);

export const SYNTAX_CORPUS: ReadonlyArray<readonly [string, string]> = [
  // kubernetes
  ['kubernetes pods insecure', k8s('pods insecure')],
  ['kubernetes pods bogus', k8s('pods bogus')],
  ['kubernetes pods without a mode', k8s('pods')],
  ['kubernetes ttl 30', k8s('ttl 30')],
  ['kubernetes ttl 0', k8s('ttl 0')],
  ['kubernetes ttl 3', k8s('ttl 3')],
  ['kubernetes ttl 3601', k8s('ttl 3601')],
  ['kubernetes ttl abc', k8s('ttl abc')],
  ['kubernetes resyncperiod 30s', k8s('resyncperiod 30s')],
  ['kubernetes bare resyncperiod', k8s('resyncperiod')],
  ['kubernetes bare namespaces', k8s('namespaces')],
  ['kubernetes namespaces default', k8s('namespaces default')],
  ['kubernetes endpoint_pod_names', k8s('endpoint_pod_names')],
  ['kubernetes endpoint_pod_names with an argument', k8s('endpoint_pod_names yes')],
  ['kubernetes noendpoints', k8s('noendpoints')],
  ['kubernetes ignore empty_service', k8s('ignore empty_service')],
  ['kubernetes ignore bogus', k8s('ignore bogus')],
  ['kubernetes labels', k8s('labels app=web')],
  ['kubernetes namespace_labels', k8s('namespace_labels team=a')],
  ['kubernetes unknown option', k8s(X)],
  ['kubernetes fallthrough with zones', k8s('fallthrough in-addr.arpa ip6.arpa')],
  ['kubernetes startup_timeout', k8s('startup_timeout 5s')],
  ['kubernetes apiserver_qps', k8s('apiserver_qps 10')],
  ['kubernetes zonal', k8s('zonal')],
  ['kubernetes upstream with an address', k8s('upstream 10.0.0.53')],
  ['two kubernetes lines in one block', block('kubernetes cluster.local', 'kubernetes acme.local')],
  // forward
  ['forward max_fails 3', forward('max_fails 3')],
  ['forward max_fails -1', forward('max_fails -1')],
  ['forward max_fails abc', forward('max_fails abc')],
  ['forward max_fails with two arguments', forward('max_fails 3 4')],
  ['forward health_check 5s', forward('health_check 5s')],
  ['forward health_check abc', forward('health_check abc')],
  ['forward health_check 5s no_rec', forward('health_check 5s no_rec')],
  ['forward force_tcp', forward('force_tcp')],
  ['forward force_tcp with an argument', forward('force_tcp yes')],
  ['forward prefer_udp', forward('prefer_udp')],
  ['forward expire 10s', forward('expire 10s')],
  ['forward expire -1s', forward('expire -1s')],
  ['forward expire abc', forward('expire abc')],
  ['forward policy random', forward('policy random')],
  ['forward policy sequential', forward('policy sequential')],
  ['forward policy bogus', forward('policy bogus')],
  ['forward max_concurrent -1', forward('max_concurrent -1')],
  ['forward except', forward('except acme.local')],
  ['forward bare except', forward('except')],
  ['forward tls_servername', forward('tls_servername dns.example')],
  ['forward next', forward('next NXDOMAIN')],
  ['forward failover', forward('failover SERVFAIL')],
  ['forward max_idle_conns', forward('max_idle_conns 10')],
  ['forward unknown option', forward(X)],
  // proxy
  ['proxy policy round_robin', proxy('policy round_robin')],
  ['proxy policy bogus', proxy('policy bogus')],
  ['proxy fail_timeout 10s', proxy('fail_timeout 10s')],
  ['proxy spray', proxy('spray')],
  ['proxy unknown option', proxy(X)],
  // cache
  ['cache 30', block('cache 30')],
  ['cache 0', block('cache 0')],
  ['cache success 1000', cache('success 1000')],
  ['cache bare success', cache('success')],
  ['cache success abc', cache('success abc')],
  ['cache success 1000 0', cache('success 1000 0')],
  ['cache prefetch 10 1m 50%', cache('prefetch 10 1m 50%')],
  ['cache prefetch 10 1m 5%', cache('prefetch 10 1m 5%')],
  ['cache bare prefetch', cache('prefetch')],
  ['cache serve_stale', cache('serve_stale')],
  ['cache serve_stale 1h verify', cache('serve_stale 1h verify')],
  ['cache servfail 10s', cache('servfail 10s')],
  ['cache disable success', cache('disable success')],
  ['cache keepttl', cache('keepttl')],
  ['cache unknown option', cache(X)],
  ['two cache lines in one block', block('cache 30', 'cache 60')],
  ['cache serve_stale_policy twice', cache('serve_stale_policy prefer_positive', 'serve_stale_policy prefer_positive')],
  // errors
  ['errors stdout', block('errors stdout')],
  ['errors to a file', block('errors /tmp/errors.log')],
  ['errors consolidate', withOptions('errors', 'consolidate 5m ".*"')],
  ['errors consolidate without a pattern', withOptions('errors', 'consolidate 5m')],
  ['errors consolidate abc', withOptions('errors', 'consolidate abc ".*"')],
  ['errors consolidate with a level', withOptions('errors', 'consolidate 5m ".*" warning')],
  ['errors stacktrace', withOptions('errors', 'stacktrace')],
  ['errors unknown option', withOptions('errors', X)],
  ['two errors lines in one block', block('errors', 'errors')],
  // health
  ['health bare lameduck', withOptions('health', 'lameduck')],
  ['health lameduck abc', withOptions('health', 'lameduck abc')],
  ['health unknown option', withOptions('health', X)],
  ['health with two addresses', block('health :8080 :8081')],
  // ready
  ['ready', block('ready')],
  ['two ready lines in one block', block('ready', 'ready :8182')],
  ['ready monitor until-ready', withOptions('ready', 'monitor until-ready')],
  ['ready monitor bogus', withOptions('ready', 'monitor bogus')],
  // loop
  ['loop', block('loop')],
  ['loop with an argument', block('loop yes')],
  ['two loop lines in one block', block('loop', 'loop')],
  ['loop with a block', withOptions('loop', X)],
  // reload
  ['reload', block('reload')],
  ['reload 10s', block('reload 10s')],
  ['reload 1s', block('reload 1s')],
  ['reload abc', block('reload abc')],
  ['reload 10s 5s', block('reload 10s 5s')],
  ['reload with three arguments', block('reload 10s 5s 1s')],
  ['reload 10s 0', block('reload 10s 0')],
  ['reload with a block', withOptions('reload 10s', X)],
  // loadbalance
  ['loadbalance', block('loadbalance')],
  ['loadbalance round_robin', block('loadbalance round_robin')],
  ['loadbalance bogus', block('loadbalance bogus')],
  ['loadbalance unknown option', withOptions('loadbalance', X)],
  ['loadbalance reload without weighted', withOptions('loadbalance', 'reload 10s')],
  ['loadbalance round_robin with a second argument', block('loadbalance round_robin extra')],
  ['loadbalance weighted without a file', block('loadbalance weighted')],
  // prometheus
  ['prometheus :9153', block('prometheus :9153')],
  ['prometheus with two addresses', block('prometheus :9153 :9154')],
  ['two prometheus lines in one block', block('prometheus :9153', 'prometheus :9154')],
  ['prometheus runtime_metrics', withOptions('prometheus :9153', 'runtime_metrics')],
  // log
  ['log class denial', withOptions('log', 'class denial')],
  ['log class bogus', withOptions('log', 'class bogus')],
  ['log bare class', withOptions('log', 'class')],
  ['log unknown option', withOptions('log', X)],
  // hosts
  ['hosts with an entry and fallthrough', withOptions('hosts', '10.0.0.1 web.acme.local', 'fallthrough')],
  ['hosts ttl 60', withOptions('hosts', 'ttl 60')],
  ['hosts ttl 0', withOptions('hosts', 'ttl 0')],
  ['hosts reload 10s', withOptions('hosts', 'reload 10s')],
  ['hosts unknown option', withOptions('hosts', X)],
  ['hosts unknown option after fallthrough', withOptions('hosts', 'fallthrough', X)],
  ['hosts fallthrough_unsupported alone', withOptions('hosts', 'fallthrough_unsupported')],
  ['two hosts lines in one block', block('hosts', 'hosts')],
  // rewrite
  ['rewrite name', block('rewrite name web.acme.local www.acme.local')],
  ['rewrite bogus field', block('rewrite bogus web.acme.local www.acme.local')],
  ['rewrite with one argument', block('rewrite name')],
  ['rewrite ttl', block('rewrite ttl web.acme.local 10')],
  // template
  ['template answer', withOptions('template IN A acme.local', 'answer "{{ .Name }} 60 IN A 10.0.0.1"')],
  ['template unknown option', withOptions('template IN A acme.local', X)],
  ['template ederror', withOptions('template IN A acme.local', 'rcode NXDOMAIN', 'ederror 15')],
  ['template ANY ANY', withOptions('template ANY ANY acme.local', 'rcode NXDOMAIN')],
  ['template with an invalid query class', withOptions('template BOGUS A acme.local', 'rcode NXDOMAIN')],
  ['template with a lower-case query class', withOptions('template in A acme.local', 'rcode NXDOMAIN')],
  ['template with a class only', withOptions('template IN', 'rcode NXDOMAIN')],
  ['template with an invalid query type', withOptions('template IN BOGUS acme.local', 'rcode NXDOMAIN')],
  ['template with a lower-case query type', withOptions('template IN aaaa acme.local', 'rcode NXDOMAIN')],
  ['template CH TXT', withOptions('template CH TXT acme.local', 'rcode NXDOMAIN')],
  // NOERROR with no record: refused up to 1.5.0 unless the answer or authority section has one (additional does not count from 1.1.3).
  ['template NOERROR without a record', withOptions('template ANY ANY acme.local', 'rcode NOERROR')],
  ['template without a block', block('template IN AAAA acme.local')],
  ['template NOERROR with an authority SOA', withOptions('template ANY ANY acme.local', 'rcode NOERROR', 'authority "acme.local. 0 IN SOA acme.local. acme.local. 1 0 0 0 0"')],
  ['template NOERROR with an additional record only', withOptions('template ANY ANY acme.local', 'additional "acme.local. 0 IN SOA acme.local. acme.local. 1 0 0 0 0"')],
  ['template rcode NXDOMAIN then NOERROR', withOptions('template ANY ANY acme.local', 'rcode NXDOMAIN', 'rcode NOERROR')],
  // rcode takes a name of the release's dns library as written: no other word, no lower case, no number.
  ['template rcode BOGUS', withOptions('template ANY ANY acme.local', 'rcode BOGUS')],
  ['template rcode in lower case', withOptions('template ANY ANY acme.local', 'rcode nxdomain')],
  ['template rcode as a number', withOptions('template ANY ANY acme.local', 'rcode 3')],
  ['template rcode NOTIMP', withOptions('template ANY ANY acme.local', 'rcode NOTIMP')],
  ['template rcode NOTIMPL', withOptions('template ANY ANY acme.local', 'rcode NOTIMPL')],
  ['template rcode DSOTYPENI', withOptions('template ANY ANY acme.local', 'rcode DSOTYPENI')],
  ['template rcode BADCOOKIE', withOptions('template ANY ANY acme.local', 'rcode BADCOOKIE')],
  ['template rcode REFUSED', withOptions('template ANY ANY acme.local', 'rcode REFUSED')],
  ['template rcode with two words', withOptions('template ANY ANY acme.local', 'rcode NXDOMAIN REFUSED')],
  ['template ederror with a reason', withOptions('template IN A acme.local', 'rcode NXDOMAIN', 'ederror 15 blocked')],
  ['template ederror 65535', withOptions('template IN A acme.local', 'rcode NXDOMAIN', 'ederror 65535')],
  ['template ederror 65536', withOptions('template IN A acme.local', 'rcode NXDOMAIN', 'ederror 65536')],
  ['template ederror with a sign', withOptions('template IN A acme.local', 'rcode NXDOMAIN', 'ederror +15')],
  ['template ederror not a number', withOptions('template IN A acme.local', 'rcode NXDOMAIN', 'ederror blocked')],
  // k8s_external, autopath, federation, transfer (with kubernetes)
  ['k8s_external', block('kubernetes cluster.local', 'k8s_external example.org')],
  ['k8s_external without kubernetes', block('k8s_external example.org')],
  ['k8s_external ttl 4000', block('kubernetes cluster.local', 'k8s_external example.org {', '    ttl 4000', '}')],
  ['k8s_external headless', block('kubernetes cluster.local', 'k8s_external example.org {', '    headless', '}')],
  ['autopath @kubernetes', block('kubernetes cluster.local {', '    pods verified', '}', 'autopath @kubernetes')],
  ['bare autopath', block('kubernetes cluster.local', 'autopath')],
  ['autopath with a block', block('kubernetes cluster.local', 'autopath @kubernetes {', `    ${X}`, '}')],
  ['federation', block('kubernetes cluster.local', 'federation cluster.local {', '    prod prod.example.org', '}')],
  ['federation without kubernetes', block('federation cluster.local {', '    prod prod.example.org', '}')],
  ['transfer to *', block('kubernetes cluster.local', 'transfer cluster.local {', '    to *', '}')],
  ['transfer without to', block('kubernetes cluster.local', 'transfer cluster.local')],
  // acl, bind, grpc
  ['acl allow', withOptions('acl', 'allow net 10.0.0.0/8')],
  ['acl filter', withOptions('acl', 'filter type AAAA')],
  ['acl unknown option', withOptions('acl', X)],
  ['acl bare block', withOptions('acl', 'block')],
  ['acl bare allow after a block', withOptions('acl', 'block net 10.0.0.0/8', 'allow')],
  ['acl block with an unknown section', withOptions('acl', 'block bogus 10.0.0.0/8')],
  ['acl block with an empty net section', withOptions('acl', 'block net')],
  ['acl block with an upper-case section', withOptions('acl', 'block NET 10.0.0.0/8')],
  ['acl block net with an invalid CIDR', withOptions('acl', 'block net 10.0.0.0/33')],
  ['acl block type with an invalid type', withOptions('acl', 'block type BOGUS')],
  ['acl upper-case action', withOptions('acl', 'BLOCK type AAAA')],
  ['bind except', withOptions('bind 127.0.0.1', 'except 127.0.0.2')],
  ['grpc policy random', withOptions('grpc . 10.0.0.1', 'policy random')],
  ['grpc policy bogus', withOptions('grpc . 10.0.0.1', 'policy bogus')],
  ['grpc unknown option', withOptions('grpc . 10.0.0.1', X)],
  ['grpc fallthrough', withOptions('grpc . 10.0.0.1', 'fallthrough')],
  ['two grpc lines in one block', block('grpc acme.local 10.0.0.1', 'grpc . 10.0.0.2')],
];

/**
 * The variants started on every run with real binaries: those whose verdict changes between the
 * real releases (they check the table's release ranges) and one or more per lint code. The whole
 * corpus (four times as many starts) runs when {@link FULL_CORPUS_VARIABLE} is `full`.
 */
export const SYNTAX_CORPUS_SAMPLE: ReadonlySet<string> = new Set([
  'kubernetes ttl 0',
  'kubernetes resyncperiod 30s',
  'kubernetes bare resyncperiod',
  'kubernetes zonal',
  'kubernetes unknown option',
  'two kubernetes lines in one block',
  'forward health_check 5s no_rec',
  'forward max_fails with two arguments',
  'forward next',
  'cache 0',
  'cache serve_stale',
  'cache serve_stale 1h verify',
  'errors consolidate with a level',
  'errors stacktrace',
  'ready monitor until-ready',
  'prometheus runtime_metrics',
  'reload 1s',
  'reload 10s 0',
  'reload with a block',
  'loadbalance unknown option',
  'hosts ttl 60',
  'hosts unknown option after fallthrough',
  'rewrite with one argument',
  'k8s_external without kubernetes',
  'transfer without to',
  'cache serve_stale_policy twice',
  'loadbalance reload without weighted',
  'acl filter',
  'bind except',
  'grpc fallthrough',
  'loadbalance round_robin with a second argument',
  'loadbalance weighted without a file',
  'template with an invalid query class',
  'template with an invalid query type',
  'template NOERROR without a record',
  'template without a block',
  'template NOERROR with an authority SOA',
  'template NOERROR with an additional record only',
  'template rcode NXDOMAIN then NOERROR',
  'template rcode BOGUS',
  'template rcode in lower case',
  'template rcode as a number',
  'template rcode NOTIMP',
  'template rcode DSOTYPENI',
  'template ederror 65536',
  'template ederror with a sign',
  'acl bare block',
  'acl block with an empty net section',
  'acl upper-case action',
]);

/** Set to `full` to check the whole corpus against the real releases. */
export const FULL_CORPUS_VARIABLE = 'KUBE_DNS_TO_COREDNS_REAL_CORPUS';
