import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import type { Socket as UdpSocket } from 'node:dgram';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip } from 'node:zlib';
import { afterAll, beforeAll } from 'vitest';
import type { Corefile, CorefileItem, Directive } from '../../src/corefile/model.js';
import { parseCorefile } from '../../src/corefile/parser.js';
import { printCorefile } from '../../src/corefile/printer.js';
import { readDestination } from '../../src/coredns/destinations.js';
import { coreDnsOptionsWithFacts, coreDnsOptionAvailability, coreDnsPluginAvailability } from '../../src/coredns/availability.js';
import { coreDnsFeatures } from '../../src/coredns/features.js';
import { allPluginNames } from '../../src/coredns/plugin-cfg.js';
import { syntaxRulesAt } from '../../src/coredns/plugin-syntax.js';
import { COREDNS_VERSIONS } from '../../src/coredns/versions.js';
import type { CoreDnsVersion } from '../../src/coredns/versions.js';
import { isGoIP, isValidPort, splitHostPort } from '../../src/dns/go-net.js';

/**
 * Real CoreDNS servers for the tests: does the real program start with a Corefile?
 *
 * The binaries (gzip-compressed, `coredns-VERSION.gz`) live in the folder named by the
 * environment variable {@link COREDNS_DIR_VARIABLE}; tests skip with a clear message when it is
 * unset. Each test file opens one {@link RealCoreDnsLab}, which starts servers a few at a time; the
 * releases it needs are unpacked once into a folder of the system's temporary directory that later
 * test files and runs reuse.
 *
 * Nothing may leave the machine. Before a Corefile is started, {@link moveToLoopback} rewrites it
 * with the project's Corefile model:
 * - every server key keeps its zone and gets a port of this lab, and every block gets
 *   `bind <its own 127.x.y.z>` (an existing `bind` is pointed there, keeping only names of
 *   possible interface names this machine does not have, which CoreDNS refuses before it listens), so the server
 *   listens on loopback only; a key's port outside 0–65535 stays (nothing can listen there);
 * - every `forward`/`proxy` destination (IP, host name or resolv.conf file) and every kubernetes
 *   `upstream` address becomes `127.0.0.1:SINK` (an IP destination with a port that is not 1–65535
 *   becomes `127.0.0.1:` that port, so that the mistake stays), a UDP and TCP socket of the lab that takes queries
 *   and never answers (a resolv.conf file cannot name a port, and port 53 on loopback may be a local
 *   resolver that forwards off the machine, so files are replaced by the sink too);
 * - every kubernetes block talks to a fake Kubernetes API of the lab (`endpoint http://127.0.0.1:API`,
 *   its own `endpoint`/`kubeconfig` dropped), so the plugin is in sync at once instead of waiting
 *   five seconds for an API that is not there. It serves the {@link FakeCluster} the lab was
 *   opened with (default: nothing, every list empty) — see "The fake Kubernetes API" below;
 * - `health`, `ready`, `prometheus` and `pprof` listen on the server's own loopback address; listeners
 *   with the same port share one new port, so two listeners that would collide still collide;
 * - `grpc` destinations go to the sink like `forward`'s;
 * - anything else that could talk to the network — plugins outside {@link SAFE_PLUGINS}, options
 *   outside the lists below, file imports, environment placeholders — is refused with an error
 *   instead of being started. A directive name that no release's default build has is started:
 *   CoreDNS refuses it while parsing, before any plugin runs.
 *
 * A server is *accepted* when it prints its version banner (all start-up hooks ran, the listeners
 * are open) and still runs a moment later; *refused* when it exits first (the first line of its
 * output that is not informational is the reason). Every process is killed when its verdict is in.
 */

/** The environment variable naming the folder with `coredns-VERSION.gz`. */
export const COREDNS_DIR_VARIABLE = 'KUBE_DNS_TO_COREDNS_COREDNS_DIR';

/** The real releases the folder holds. */
export const REAL_COREDNS_RELEASES = ['1.2.6', '1.6.9', '1.8.0', '1.14.7'] as const satisfies readonly CoreDnsVersion[];
export type RealCoreDnsRelease = (typeof REAL_COREDNS_RELEASES)[number];

/**
 * The folder of real binaries, or why the tests skip (the variable is unset). A variable that is
 * set but names a folder without the binaries is an error, not a skip: CI sets it only when the
 * binaries are there.
 */
function realCoreDnsDirectory(): { readonly directory: string } | { readonly skip: string } {
  const directory = process.env[COREDNS_DIR_VARIABLE];
  if (directory === undefined || directory === '') {
    return { skip: `${COREDNS_DIR_VARIABLE} is not set: the checks against real CoreDNS servers are skipped (set it to a folder holding coredns-VERSION.gz)` };
  }
  const missing = REAL_COREDNS_RELEASES.filter((version) => !existsSync(join(directory, `coredns-${version}.gz`)));
  if (missing.length > 0) throw new Error(`${COREDNS_DIR_VARIABLE}=${directory} lacks ${missing.map((version) => `coredns-${version}.gz`).join(', ')}`);
  return { directory };
}

/**
 * Why `testFile` skips its real-CoreDNS checks (the variable is unset, see
 * {@link realCoreDnsDirectory}), printed once as a warning; undefined when the binaries are there.
 * Pass the reason to `describe.skipIf(skip !== undefined)`.
 */
export function realCoreDnsSkip(testFile: string): string | undefined {
  const found = realCoreDnsDirectory();
  if (!('skip' in found)) return undefined;
  console.warn(`${testFile} skipped: ${found.skip}`);
  return found.skip;
}

/**
 * The lab of the describe block it is called in: opened once before the block's tests (servers
 * `concurrency` at a time, the fake API serving `cluster`), closed after them (every server it
 * left running killed). Returns the lab's accessor for the tests and hooks of the block. Call it
 * only inside a block that skips when {@link realCoreDnsSkip} gives a reason. Every test file that
 * starts real CoreDNS opens its lab this way, so that start-up, waiting and clean-up are the same
 * everywhere.
 */
export function useRealCoreDnsLab(options: { readonly concurrency?: number; readonly cluster?: FakeCluster } = {}): () => RealCoreDnsLab {
  let lab: RealCoreDnsLab | undefined;
  beforeAll(async () => {
    const found = realCoreDnsDirectory();
    if ('skip' in found) throw new Error(`useRealCoreDnsLab in a block that does not skip: ${found.skip}`);
    lab = await RealCoreDnsLab.open(found.directory, options.concurrency, options.cluster);
  });
  afterAll(async () => {
    await lab?.close();
    lab = undefined;
  });
  return () => {
    if (lab === undefined) throw new Error('the real-CoreDNS lab is open only while its describe block runs');
    return lab;
  };
}

// ---------------------------------------------------------------------------------------------
// Which real release may judge a Corefile written for a target release
// ---------------------------------------------------------------------------------------------

/**
 * Every version-dependent rule the model has about whether CoreDNS starts with a Corefile the lab
 * can start: the feature table (without the version itself), the availability of every plugin the
 * lab starts and of every option with facts, the arguments and options every plugin of the syntax
 * table accepts (plugin-syntax.ts). (Plugins the lab refuses to start cannot tell releases apart.)
 */
export function acceptanceRules(version: CoreDnsVersion): string {
  const { version: _, ...features } = coreDnsFeatures(version);
  return JSON.stringify({
    features,
    plugins: [...SAFE_PLUGINS].map((plugin) => coreDnsPluginAvailability(plugin, version)),
    options: coreDnsOptionsWithFacts().map((pair) => {
      const [plugin = '', option = ''] = pair.split(' ');
      return coreDnsOptionAvailability(plugin, option, version);
    }),
    syntax: syntaxRulesAt(version),
  });
}

/**
 * The real release that may judge a Corefile written for `target`: the one whose rules
 * ({@link acceptanceRules}) are the target's own, if any. A real release answers only for
 * releases that the model says behave like it.
 */
export function realReleaseFor(target: CoreDnsVersion): RealCoreDnsRelease | undefined {
  const rules = acceptanceRules(target);
  return REAL_COREDNS_RELEASES.find((real) => acceptanceRules(real) === rules);
}

/** The targets each real release judges (the mapping the tests state). */
export function targetsOf(real: RealCoreDnsRelease): CoreDnsVersion[] {
  return COREDNS_VERSIONS.filter((version) => realReleaseFor(version) === real);
}

// ---------------------------------------------------------------------------------------------
// Moving every destination to loopback
// ---------------------------------------------------------------------------------------------

/** Plugins the rewrite knows to keep on the machine (after it moved their addresses). */
export const SAFE_PLUGINS: ReadonlySet<string> = new Set([
  'errors', 'log', 'health', 'ready', 'prometheus', 'pprof', 'kubernetes', 'federation', 'forward', 'proxy', 'grpc', 'cache', 'loop', 'reload',
  'loadbalance', 'bind', 'whoami', 'dns64', 'any', 'import',
  // Local only: answers from the Corefile or /etc/hosts, query rewriting, filtering; transfer only
  // with `to *` (it then sends no NOTIFY).
  'hosts', 'rewrite', 'template', 'k8s_external', 'autopath', 'acl', 'transfer',
]);

/**
 * An option name no release of any plugin has: the lab starts it (CoreDNS refuses it in setup,
 * before any plugin runs), so tests can ask how a release treats an unknown option.
 */
export const UNKNOWN_OPTION = 'no_such_option';

/**
 * Whether a directive may be started: a plugin of {@link SAFE_PLUGINS}, or a name that no
 * release's default build has (a typo, a third-party plugin): the real binaries, default builds
 * or default builds with a few plugins left out, refuse such a name while parsing ("Unknown
 * directive"), before any plugin runs.
 */
function mayStart(name: string): boolean {
  return SAFE_PLUGINS.has(name) || !allPluginNames().includes(name);
}

/** Options of nested blocks that make no contact with anything (others are refused). */
const SAFE_OPTIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  forward: new Set([
    'max_concurrent', 'policy', 'expire', 'max_fails', 'health_check', 'force_tcp', 'prefer_udp', 'except', 'tls_servername', 'next', 'failfast_all_unhealthy_upstreams',
    'failover', 'max_connect_attempts', 'max_idle_conns', 'max_age', 'next_on_nodata', 'read_timeout',
  ]),
  proxy: new Set(['policy', 'fail_timeout', 'max_fails', 'health_check', 'except', 'spray']),
  kubernetes: new Set([
    'pods', 'upstream', 'fallthrough', 'ttl', 'namespaces', 'labels', 'noendpoints', 'endpoint_pod_names', 'ignore', 'transfer', 'endpoint', 'kubeconfig',
    'namespace_labels', 'resyncperiod', 'startup_timeout', 'apiserver_qps', 'apiserver_burst', 'apiserver_max_inflight', 'zonal',
  ]),
  health: new Set(['lameduck']),
  ready: new Set(['monitor']),
  prometheus: new Set(['runtime_metrics']),
  cache: new Set(['success', 'denial', 'prefetch', 'serve_stale', 'servfail', 'disable', 'keepttl', 'serve_stale_policy']),
  errors: new Set(['consolidate', 'stacktrace']),
  log: new Set(['class']),
  grpc: new Set(['policy', 'except', 'fallthrough']),
  dns64: new Set(['prefix', 'translate_all', 'allow_ipv4']),
  hosts: new Set(['fallthrough', 'no_reverse', 'reload', 'ttl', 'fallthrough_unsupported']),
  template: new Set(['match', 'answer', 'additional', 'authority', 'rcode', 'fallthrough', 'ederror']),
  k8s_external: new Set(['ttl', 'apex', 'headless', 'fallthrough']),
  acl: new Set(['allow', 'block', 'filter', 'drop']),
  loadbalance: new Set(['prefer', 'reload']),
  bind: new Set(['except']),
  transfer: new Set(['to']),
};

/** Addresses of the plugins that listen for HTTP, when their line names none. */
const DEFAULT_LISTEN: Readonly<Record<string, string>> = { health: ':8080', ready: ':8181', prometheus: 'localhost:9153', pprof: 'localhost:6053' };

/** Where a rewritten Corefile sends everything. */
export interface LoopbackPlan {
  /** The server's own loopback address (`127.x.y.z`): keys, `bind` and HTTP listeners. */
  readonly ip: string;
  /** The port of the lab's sink (forward/proxy destinations, kubernetes upstreams), on 127.0.0.1. */
  readonly sinkPort: number;
  /** The port of the lab's fake Kubernetes API, on 127.0.0.1. */
  readonly apiPort: number;
  /** The first port to hand out for server keys and listeners (a few dozen above are used). */
  readonly firstPort: number;
  /** Keep destinations that are already loopback IPs (a test's own fake servers) instead of sending them to the sink. */
  readonly keepLoopbackDestinations?: boolean;
  /**
   * Where each forward/proxy destination goes instead, as written (`10.0.0.1:5353`,
   * `/etc/resolv.conf`): a loopback address or a lab file (a test's fake servers, its resolv.conf).
   */
  readonly destinations?: ReadonlyMap<string, string>;
}

export interface LoopbackCorefile {
  readonly corefile: string;
  /** The port keys without one listen on (`-dns.port`). */
  readonly dnsPort: number;
  /** Every port handed to server keys (the DNS listeners). */
  readonly dnsPorts: readonly number[];
  /** The port each server key's port became, by the port written (`53` for keys without one). */
  readonly dnsPortOf: ReadonlyMap<number, number>;
  /** The port each HTTP listener (health, ready, prometheus, pprof) got, by the port it had. */
  readonly listenPorts: ReadonlyMap<string, number>;
}

/** A Corefile the lab refuses to start (something in it could reach beyond loopback). */
export class NotLoopbackSafeError extends Error {
  override readonly name = 'NotLoopbackSafeError';
}

/**
 * Rewrites `text` so that nothing it configures can reach beyond loopback (see the module
 * comment). Throws {@link NotLoopbackSafeError} for what it does not know to be safe.
 */
export function moveToLoopback(text: string, plan: LoopbackPlan): LoopbackCorefile {
  const { corefile } = parseCorefile(text);
  const take = portTaker(plan.firstPort);
  const portFor = (kind: 'dns' | 'listen', written: string): number => take.portOf(`${kind} ${/^[0-9]+$/.test(written) ? String(Number(written)) : written}`);
  const sink = `127.0.0.1:${plan.sinkPort}`;

  const destination = (text: string, where: string): string => {
    const mapped = plan.destinations?.get(text);
    if (mapped !== undefined) {
      const target = readDestination(mapped);
      if (!(target.kind === 'file' || (target.kind === 'ip' && target.loopback))) throw new NotLoopbackSafeError(`${where}: '${mapped}' for '${text}' is not on loopback`);
      return mapped;
    }
    const read = readDestination(text);
    if (plan.keepLoopbackDestinations === true && read.kind === 'ip' && read.loopback && read.scheme === 'dns') return text;
    // A port CoreDNS cannot dial keeps its port on loopback: the Corefile's mistake stays in it.
    if (read.kind === 'ip' && read.port !== undefined && !isValidPort(read.port, 'uint16')) return `${read.scheme === 'dns' ? '' : `${read.scheme}://`}127.0.0.1:${read.port}`;
    switch (read.kind) {
      case 'ip':
      case 'hostname':
      case 'file':
        return read.scheme === 'dns' ? sink : `${read.scheme}://${sink}`;
      case 'placeholder':
      case 'invalid':
        throw new NotLoopbackSafeError(`${where}: destination '${text}' (${read.kind}) cannot be moved to loopback`);
    }
  };

  const listenAddress = (plugin: string, written: string | undefined): string => {
    const address = written ?? DEFAULT_LISTEN[plugin] ?? '';
    const split = splitHostPort(address);
    if (split === undefined) return address; // not host:port: the plugin refuses it without listening
    return `${plan.ip}:${portFor('listen', split.port)}`;
  };

  const rewriteOptions = (plugin: string, directive: Directive): Directive['block'] => {
    const block = directive.block;
    if (block === undefined) return undefined;
    const allowed = SAFE_OPTIONS[plugin];
    const options: Directive[] = [];
    for (const option of block.directives) {
      // federation's lines are NAME DOMAIN pairs: names, nothing it contacts.
      // hosts' other lines are `IP NAME…` entries: answers, nothing it contacts.
      const entry = plugin === 'hosts' && isGoIP(option.name);
      // acl lower-cases its actions before it reads them.
      const optionName = plugin === 'acl' ? option.name.toLowerCase() : option.name;
      if (plugin !== 'federation' && !entry && option.name !== UNKNOWN_OPTION && SAFE_PLUGINS.has(plugin) && (allowed === undefined || !allowed.has(optionName))) {
        throw new NotLoopbackSafeError(`${plugin} option '${option.name}' is not known to stay on loopback`);
      }
      // The transfer plugin's `to` and the kubernetes plugin's own `transfer to` (before 1.8.0) both
      // send NOTIFY messages to the addresses they name: only `*` (transfers allowed, no NOTIFY) starts.
      const notifies = (plugin === 'transfer' && option.name === 'to') || (plugin === 'kubernetes' && option.name === 'transfer');
      if (notifies && option.arguments.slice(plugin === 'kubernetes' ? 1 : 0).some((argument) => argument !== '*')) {
        throw new NotLoopbackSafeError(`${plugin} '${option.name} ${option.arguments.join(' ')}': only 'to *' (no NOTIFY) is started`);
      }
      if (plugin === 'kubernetes' && (option.name === 'endpoint' || option.name === 'kubeconfig')) continue;
      if (plugin === 'kubernetes' && option.name === 'upstream') {
        options.push({ ...option, arguments: option.arguments.map((argument) => destination(argument, 'kubernetes upstream')) });
        continue;
      }
      if (option.block !== undefined) throw new NotLoopbackSafeError(`${plugin} option '${option.name}' has a block`);
      options.push(option);
    }
    return { ...block, directives: options };
  };

  const rewriteDirective = (directive: Directive): Directive => {
    const { name } = directive;
    if (!mayStart(name)) throw new NotLoopbackSafeError(`plugin '${name}' is not known to stay on loopback`);
    if (directive.afterBlock !== undefined) throw new NotLoopbackSafeError(`${name}: tokens after a block`);
    for (const argument of directive.arguments) {
      if (/\{\$|\{%/.test(argument)) throw new NotLoopbackSafeError(`${name}: environment placeholder '${argument}'`);
    }
    const block = rewriteOptions(name, directive);
    const withBlock = (directiveArguments: readonly string[], rewritten: Directive['block']): Directive => {
      const { block: _, ...rest } = directive;
      return rewritten === undefined ? { ...rest, arguments: directiveArguments } : { ...rest, arguments: directiveArguments, block: rewritten };
    };
    switch (name) {
      case 'forward':
      case 'proxy':
      case 'grpc': {
        const [from, ...destinations] = directive.arguments;
        if (from === undefined) return directive;
        return withBlock([from, ...destinations.map((text) => destination(text, name))], block);
      }
      case 'health':
      case 'ready':
      case 'prometheus':
      case 'pprof':
        return withBlock([listenAddress(name, directive.arguments[0]), ...directive.arguments.slice(1)], block);
      case 'kubernetes': {
        const endpoint: Directive = { name: 'endpoint', arguments: [`http://127.0.0.1:${plan.apiPort}`] };
        const options = block?.directives ?? [];
        return withBlock(directive.arguments, { ...(block ?? {}), directives: [endpoint, ...options] });
      }
      case 'bind':
        // Words that could name a Linux interface (at most 15 characters, no '/', ',', ':' or
        // space) but name none of this machine's stay: CoreDNS refuses them before it listens.
        return withBlock([plan.ip, ...directive.arguments.filter((argument) => !isGoIP(argument) && /^[^/,:\s]{1,15}$/.test(argument) && !(argument in networkInterfaces()))], block);
      default:
        return withBlock(directive.arguments, block);
    }
  };

  const items = corefile.items.map((item): CorefileItem => {
    switch (item.kind) {
      case 'import':
        throw new NotLoopbackSafeError(`top-level import '${item.pattern}'`);
      case 'snippet':
        return { ...item, directives: item.directives.map(rewriteDirective) };
      case 'server-block': {
        const keys = item.keys.map((key) => {
          if (/\{\$|\{%/.test(key)) throw new NotLoopbackSafeError(`key '${key}' holds an environment placeholder`);
          const scheme = /^([a-z0-9]+):\/\//.exec(key)?.[1];
          if (scheme !== undefined && scheme !== 'dns') throw new NotLoopbackSafeError(`key '${key}': only plain DNS keys are started`);
          const rest = scheme === undefined ? key : key.slice('dns://'.length);
          const colon = rest.lastIndexOf(':');
          const port = colon >= 0 ? rest.slice(colon + 1) : '';
          // A port no socket takes (`-1`, `99999`) stays: nothing can listen there, and the Corefile's mistake stays in it.
          if (!/^[0-9]+$/.test(port) || Number(port) > 65535) return key;
          return `${scheme === undefined ? '' : 'dns://'}${rest.slice(0, colon)}:${portFor('dns', port)}`;
        });
        const directives = item.directives.map(rewriteDirective);
        const bound = directives.some((directive) => directive.name === 'bind');
        return { ...item, keys, directives: bound ? directives : [{ name: 'bind', arguments: [plan.ip] }, ...directives] };
      }
    }
  });
  const snippetNames = new Set(corefile.items.flatMap((item) => (item.kind === 'snippet' ? [item.name] : [])));
  for (const item of items) {
    if (item.kind === 'server-block' || item.kind === 'snippet') {
      for (const directive of item.directives) {
        if (directive.name === 'import' && !snippetNames.has(directive.arguments[0] ?? '')) {
          throw new NotLoopbackSafeError(`import '${directive.arguments[0] ?? ''}' is not a snippet of this Corefile`);
        }
      }
    }
  }
  const rewritten: Corefile = { ...corefile, items };
  const dnsPort = portFor('dns', '53');
  const { ports } = take;
  const dnsPorts = [...ports].filter(([key]) => key.startsWith('dns ')).map(([, port]) => port);
  const dnsPortOf = new Map([...ports].filter(([key]) => key.startsWith('dns ')).map(([key, port]) => [Number(key.slice('dns '.length)), port]));
  const listenPorts = new Map([...ports].filter(([key]) => key.startsWith('listen ')).map(([key, port]) => [key.slice('listen '.length), port]));
  return { corefile: printCorefile(rewritten), dnsPort, dnsPorts, dnsPortOf, listenPorts };
}

// ---------------------------------------------------------------------------------------------
// Several Corefiles in one process
// ---------------------------------------------------------------------------------------------

/** Consecutive ports from `first`, one per distinct key: `portOf` gives a key the port it already has, or the next. */
function portTaker(first: number): { portOf(key: string): number; readonly ports: ReadonlyMap<string, number> } {
  const ports = new Map<string, number>();
  return {
    ports,
    portOf(key: string): number {
      let port = ports.get(key);
      if (port === undefined) {
        port = first + ports.size;
        ports.set(key, port);
      }
      return port;
    },
  };
}

/** The HTTP listeners a server block may have (each binds an address of its own). */
const LISTENERS: ReadonlySet<string> = new Set(Object.keys(DEFAULT_LISTEN));

/**
 * Several Corefiles as one, for one CoreDNS process: each keeps its server blocks, but the ports
 * its keys and its HTTP listeners (health, ready, prometheus, pprof; an address left out is the
 * plugin's default) name become ports of its own. Two Corefiles then cannot collide, while two
 * keys or listeners of one Corefile that shared a port still do. A key without a port gets its
 * Corefile's port 53 (what `-dns.port` gives it alone). Undefined when a Corefile cannot be
 * combined this way: snippets or imports (their names are the whole file's), or a key or listener
 * address whose port is not a plain number (its own refusal is what a start must show).
 */
export function combineCorefiles(corefiles: readonly string[]): string | undefined {
  const items: CorefileItem[] = [];
  const take = portTaker(30_000);
  for (const [index, text] of corefiles.entries()) {
    const { corefile } = parseCorefile(text);
    // Each Corefile's ports are its own: the same written port in two Corefiles gets two ports.
    const portFor = (kind: 'dns' | 'listen', written: string): number => take.portOf(`${index} ${kind} ${Number(written)}`);
    for (const item of corefile.items) {
      if (item.kind !== 'server-block') return undefined;
      const keys: string[] = [];
      for (const key of item.keys) {
        const scheme = /^dns:\/\//.test(key) ? 'dns://' : /^[a-z0-9]+:\/\//.test(key) ? undefined : '';
        if (scheme === undefined || /\{\$|\{%|\[/.test(key)) return undefined;
        const rest = key.slice(scheme.length);
        const colon = rest.lastIndexOf(':');
        const port = colon === -1 ? '53' : rest.slice(colon + 1);
        if (!/^[0-9]{1,5}$/.test(port) || Number(port) > 65535) return undefined;
        keys.push(`${scheme}${colon === -1 ? rest : rest.slice(0, colon)}:${portFor('dns', port)}`);
      }
      const directives: Directive[] = [];
      for (const directive of item.directives) {
        if (directive.name === 'import') return undefined;
        if (!LISTENERS.has(directive.name)) {
          directives.push(directive);
          continue;
        }
        const [written = DEFAULT_LISTEN[directive.name] ?? '', ...others] = directive.arguments;
        const split = splitHostPort(written);
        if (split === undefined || !/^[0-9]{1,5}$/.test(split.port)) return undefined;
        // The host does not matter: the lab binds every listener to the server's own loopback address.
        directives.push({ ...directive, arguments: [`:${portFor('listen', split.port)}`, ...others] });
      }
      items.push({ ...item, keys, directives });
    }
  }
  return printCorefile({ items });
}

// ---------------------------------------------------------------------------------------------
// The lab: binaries, sink, fake Kubernetes API, servers
// ---------------------------------------------------------------------------------------------

export type Verdict =
  | { readonly accepted: true; readonly output: string }
  | { readonly accepted: false; readonly reason: string; readonly output: string };

const BANNER = /^CoreDNS-\d+\.\d+\.\d+$/m;
/** A server that printed its banner must still run after this long to count as accepted. */
const SETTLE_MS = 200;
/** No verdict after this long is a harness failure, not a verdict. */
const DECISION_TIMEOUT_MS = 20_000;
const DEFAULT_CONCURRENCY = 4;

/** Output lines that never explain a refusal: informational logs, Kubernetes client noise, the Go runtime. */
function isInformational(line: string): boolean {
  return (
    line.trim() === '' ||
    /^(\S+ )?\[(INFO|WARNING|DEBUG)\]/.test(line) ||
    /^[IWE]\d{4} \d\d:\d\d:\d\d/.test(line) ||
    line.startsWith('maxprocs:') ||
    BANNER.test(line) ||
    /^linux\/amd64, go/.test(line)
  );
}

// ---------------------------------------------------------------------------------------------
// The fake Kubernetes API
// ---------------------------------------------------------------------------------------------

/**
 * A Service the lab's fake Kubernetes API serves, with the addresses of its ready endpoints.
 *
 * What the real releases ask for (measured: each release started against a logging API):
 * - 1.2.6, 1.6.9, 1.8.0: `GET /api/v1/{namespaces,services,endpoints}?limit=500&resourceVersion=0`,
 *   then a watch of each (`watch=true`) that the API keeps open and silent;
 * - 1.14.7: no list; a streamed watch of `/api/v1/{namespaces,services}` and
 *   `/apis/discovery.k8s.io/v1/endpointslices` (`sendInitialEvents=true`), answered with one
 *   `ADDED` event per object and the bookmark that ends the initial events;
 * - pods (`pods verified`) from every release: served as an empty list.
 * So every Service is served as a v1 Service, a v1 Endpoints object of the same name and an
 * EndpointSlice (`kubernetes.io/service-name` label) in the group version the path asks for; every
 * namespace a Service is in is served as a Namespace.
 */
export interface FakeService {
  readonly namespace: string;
  readonly name: string;
  /** The ClusterIP (`None`: a headless Service, answered with its endpoints' addresses). */
  readonly clusterIP: string;
  readonly ports: readonly FakeServicePort[];
  /** Ready endpoint addresses (IPv4), each with every port of {@link ports} (at `targetPort` when given). */
  readonly endpoints: readonly string[];
}

export interface FakeServicePort {
  readonly name: string;
  readonly port: number;
  readonly protocol: 'TCP' | 'UDP';
  /** The endpoints' port (default: {@link port}). */
  readonly targetPort?: number;
}

/** What the fake Kubernetes API serves. */
export interface FakeCluster {
  readonly services: readonly FakeService[];
}

/**
 * Whether the lab's binary of a release keeps the Services and Endpoints the API serves. The 1.6.9
 * binary does not: it was built with k8s.io/apimachinery of June 2019, whose `metav1.Object`
 * interface still has `GetInitializers`/`SetInitializers`, while CoreDNS 1.6.9's stripped-down
 * objects (`plugin/kubernetes/object`, `Empty`) were written for apimachinery v0.17.4, which no longer
 * has them. Its informers convert each Service, Endpoints and Pod to such an object, the store's
 * key function cannot read its metadata (`meta.Accessor` fails), and the object is dropped without
 * a log line: it answers every Service name NXDOMAIN (with its zone's SOA) from any API. Namespaces
 * are stored unconverted and are seen. A fault of this build, not of the release.
 */
export function keepsKubernetesObjects(real: RealCoreDnsRelease): boolean {
  return real !== '1.6.9';
}

/** An API with no objects at all (every list empty): the lab's default. */
export const EMPTY_CLUSTER: FakeCluster = { services: [] };

/** The API server's address as kubeadm's default Service CIDR (10.96.0.0/12) gives it. */
export const KUBERNETES_SERVICE_IP = '10.96.0.1';
/** The cluster DNS Service's address in kubeadm's default Service CIDR. */
export const KUBE_DNS_SERVICE_IP = '10.96.0.10';

/**
 * The two Services every cluster has: `kubernetes.default` (the API server, 10.96.0.1:443, one
 * endpoint at :6443) and `kube-dns.kube-system` (10.96.0.10, ports 53/UDP, 53/TCP and 9153/TCP,
 * two endpoints), so that `kubernetes.default.svc.<domain>` gets an A record.
 */
export const STOCK_CLUSTER: FakeCluster = {
  services: [
    { namespace: 'default', name: 'kubernetes', clusterIP: KUBERNETES_SERVICE_IP, ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }], endpoints: ['172.18.0.2'] },
    {
      namespace: 'kube-system',
      name: 'kube-dns',
      clusterIP: KUBE_DNS_SERVICE_IP,
      ports: [
        { name: 'dns', port: 53, protocol: 'UDP' },
        { name: 'dns-tcp', port: 53, protocol: 'TCP' },
        { name: 'metrics', port: 9153, protocol: 'TCP' },
      ],
      endpoints: ['10.244.0.2', '10.244.0.3'],
    },
  ],
};

const RESOURCE_VERSION = '1';

/** The objects of `resource` (`services`, `endpoints`…) in `apiVersion`, as the API serves them; undefined: not served (404). */
function clusterObjects(cluster: FakeCluster, resource: string, apiVersion: string): { kind: string; items: object[] } | undefined {
  const metadata = (service: FakeService, extra: object = {}) => ({ name: service.name, namespace: service.namespace, uid: `${service.namespace}-${service.name}`, resourceVersion: RESOURCE_VERSION, ...extra });
  const endpointPorts = (service: FakeService) => service.ports.map((port) => ({ name: port.name, port: port.targetPort ?? port.port, protocol: port.protocol }));
  switch (resource) {
    case 'services':
      return {
        kind: 'Service',
        items: cluster.services.map((service) => ({
          kind: 'Service',
          apiVersion,
          metadata: metadata(service),
          spec: {
            type: 'ClusterIP',
            clusterIP: service.clusterIP,
            ...(service.clusterIP === 'None' ? {} : { clusterIPs: [service.clusterIP] }),
            ports: service.ports.map((port) => ({ name: port.name, port: port.port, protocol: port.protocol, targetPort: port.targetPort ?? port.port })),
          },
        })),
      };
    case 'endpoints':
      return {
        kind: 'Endpoints',
        items: cluster.services.map((service) => ({
          kind: 'Endpoints',
          apiVersion,
          metadata: metadata(service),
          subsets: service.endpoints.length === 0 ? [] : [{ addresses: service.endpoints.map((ip) => ({ ip })), ports: endpointPorts(service) }],
        })),
      };
    case 'endpointslices':
      return {
        kind: 'EndpointSlice',
        items: cluster.services.map((service) => ({
          kind: 'EndpointSlice',
          apiVersion,
          metadata: metadata(service, { name: `${service.name}-fake`, uid: `${service.namespace}-${service.name}-slice`, labels: { 'kubernetes.io/service-name': service.name } }),
          addressType: 'IPv4',
          endpoints: service.endpoints.map((ip) => ({ addresses: [ip], conditions: { ready: true } })),
          ports: endpointPorts(service),
        })),
      };
    case 'namespaces':
      return {
        kind: 'Namespace',
        items: [...new Set(cluster.services.map((service) => service.namespace))].map((name) => ({
          kind: 'Namespace',
          apiVersion,
          metadata: { name, uid: `namespace-${name}`, resourceVersion: RESOURCE_VERSION },
          status: { phase: 'Active' },
        })),
      };
    case 'pods':
      return { kind: 'Pod', items: [] };
    default:
      return undefined;
  }
}

/**
 * Answers one request of a client (a CoreDNS kubernetes plugin) from `cluster`: a list, a watch
 * that stays open (with the initial events and their closing bookmark where the client asks for a
 * streamed list), or 404. Only `GET`s of the resources above are known.
 */
function answerApiRequest(cluster: FakeCluster, request: http.IncomingMessage, response: http.ServerResponse): void {
  const url = new URL(request.url ?? '/', 'http://127.0.0.1');
  const parts = url.pathname.split('/').filter(Boolean);
  // /api/v1/RESOURCE or /apis/GROUP/VERSION/RESOURCE (cluster-wide lists only).
  const apiVersion = parts[0] === 'api' && parts.length === 3 ? (parts[1] ?? '') : parts[0] === 'apis' && parts.length === 4 ? `${parts[1] ?? ''}/${parts[2] ?? ''}` : '';
  const resource = parts.at(-1) ?? '';
  const served = apiVersion === '' || request.method !== 'GET' ? undefined : clusterObjects(cluster, resource, apiVersion);
  if (served === undefined) {
    response.writeHead(404, { 'Content-Type': 'application/json' });
    response.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 }));
    return;
  }
  response.writeHead(200, { 'Content-Type': 'application/json' });
  if (url.searchParams.get('watch') === 'true' || url.searchParams.get('watch') === '1') {
    if (url.searchParams.get('sendInitialEvents') === 'true') {
      for (const object of served.items) response.write(`${JSON.stringify({ type: 'ADDED', object })}\n`);
      const bookmark = { kind: served.kind, apiVersion, metadata: { resourceVersion: RESOURCE_VERSION, annotations: { 'k8s.io/initial-events-end': 'true' } } };
      response.write(`${JSON.stringify({ type: 'BOOKMARK', object: bookmark })}\n`);
    }
    return;
  }
  response.end(JSON.stringify({ kind: `${served.kind}List`, apiVersion, metadata: { resourceVersion: RESOURCE_VERSION }, items: served.items }));
}

/** The unpacked binary of `version` (see {@link RealCoreDnsLab}); unpacks it when needed. */
async function unpackedBinary(source: string, version: RealCoreDnsRelease): Promise<string> {
  const archive = join(source, `coredns-${version}.gz`);
  const compressed = await readFile(archive);
  // The gzip trailer ends with the unpacked size modulo 2^32.
  const size = compressed.readUInt32LE(compressed.length - 4);
  const cache = join(tmpdir(), `kube-dns-to-coredns-coredns-${process.getuid?.() ?? 'user'}`);
  mkdirSync(cache, { recursive: true, mode: 0o700 });
  const path = join(cache, `coredns-${version}-${size}-${compressed.length}`);
  if (existsSync(path) && statSync(path).size === size) return path;
  const unpacked = await promisify(gunzip)(compressed);
  const partial = `${path}.${process.pid}.partial`;
  await writeFile(partial, unpacked, { mode: 0o755 });
  renameSync(partial, path);
  return path;
}

/** A CoreDNS left running by {@link RealCoreDnsLab.serve}. */
export interface RunningCoreDns {
  /** The loopback address its server blocks bind. */
  readonly ip: string;
  /** The port of keys without one (and of `:53` keys). */
  readonly dnsPort: number;
  /** The port a key written with `port` listens on (undefined: no key had it). */
  dnsPortFor(port: number): number | undefined;
  /** The Corefile it runs (moved to loopback). */
  readonly corefile: string;
  /** The port an HTTP listener (health, ready, prometheus) got, by the port the Corefile gave it. */
  listenPort(port: number): number | undefined;
  output(): string;
  stop(): Promise<void>;
}

export class RealCoreDnsLab {
  readonly #source: string;
  readonly #directory: string;
  readonly #binaries = new Map<RealCoreDnsRelease, Promise<string>>();
  readonly #processes = new Set<ChildProcess>();
  readonly #sockets = new Set<net.Socket>();
  readonly #concurrency: number;
  #running = 0;
  readonly #waiting: Array<() => void> = [];
  #instance = 0;
  #sinkUdp: UdpSocket | undefined;
  #sinkTcp: net.Server | undefined;
  #api: http.Server | undefined;
  #sinkPort = 0;
  #apiPort = 0;
  /** `127.A.B.`: a range of loopback addresses private to this process. */
  readonly #prefix: string;
  /** Servers started (retries included), for the tests' floors. */
  started = 0;

  readonly #cluster: FakeCluster;

  private constructor(source: string, concurrency: number, cluster: FakeCluster) {
    this.#source = source;
    this.#concurrency = concurrency;
    this.#cluster = cluster;
    this.#directory = mkdtempSync(join(tmpdir(), 'kube-dns-to-coredns-real-coredns-'));
    this.#prefix = `127.${150 + (process.pid % 100)}.`;
  }

  /**
   * Opens a lab on the folder of gzip-compressed binaries: sink and fake API listening, the API
   * serving `cluster` to every server of the lab ({@link STOCK_CLUSTER}: `kubernetes.default` and
   * `kube-dns`; default: nothing).
   */
  static async open(source: string, concurrency = DEFAULT_CONCURRENCY, cluster: FakeCluster = EMPTY_CLUSTER): Promise<RealCoreDnsLab> {
    const lab = new RealCoreDnsLab(source, concurrency, cluster);
    try {
      await lab.#listen();
    } catch (error) {
      await lab.close();
      throw error;
    }
    return lab;
  }

  async #listen(): Promise<void> {
    // The sink: UDP and TCP on one port of 127.0.0.1; it takes everything and answers nothing.
    for (let attempt = 0; attempt < 20 && this.#sinkTcp === undefined; attempt += 1) {
      const udp = dgram.createSocket('udp4');
      await new Promise<void>((resolve, reject) => {
        udp.once('error', reject);
        udp.bind(0, '127.0.0.1', () => resolve());
      });
      udp.on('message', () => undefined);
      const port = udp.address().port;
      const tcp = net.createServer((socket) => {
        this.#sockets.add(socket);
        socket.on('error', () => undefined);
        socket.on('close', () => this.#sockets.delete(socket));
        socket.resume();
      });
      const bound = await new Promise<boolean>((resolve) => {
        tcp.once('error', () => resolve(false));
        tcp.listen(port, '127.0.0.1', () => resolve(true));
      });
      if (bound) {
        this.#sinkUdp = udp;
        this.#sinkTcp = tcp;
        this.#sinkPort = port;
      } else {
        udp.close();
      }
    }
    if (this.#sinkTcp === undefined) throw new Error('no free port for the sink on 127.0.0.1');

    // The fake Kubernetes API: the lab's cluster (see answerApiRequest).
    const cluster = this.#cluster;
    const api = http.createServer((request, response) => answerApiRequest(cluster, request, response));
    api.on('connection', (socket) => {
      this.#sockets.add(socket);
      socket.on('close', () => this.#sockets.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      api.once('error', reject);
      api.listen(0, '127.0.0.1', () => resolve());
    });
    this.#api = api;
    const address = api.address();
    this.#apiPort = typeof address === 'object' && address !== null ? address.port : 0;
  }

  /**
   * The binary of `version`, unpacked on first use. Unpacking takes seconds, so the result is kept
   * in a folder of the system's temporary directory that every test file of a run (and later runs)
   * reuses: a file there counts only when its size is the one the gzip trailer records.
   */
  #binary(version: RealCoreDnsRelease): Promise<string> {
    let path = this.#binaries.get(version);
    if (path === undefined) {
      path = unpackedBinary(this.#source, version);
      this.#binaries.set(version, path);
    }
    return path;
  }

  async #slot<T>(run: () => Promise<T>): Promise<T> {
    if (this.#running >= this.#concurrency) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    this.#running += 1;
    try {
      return await run();
    } finally {
      this.#running -= 1;
      this.#waiting.shift()?.();
    }
  }

  #nextPlan(): LoopbackPlan {
    this.#instance += 1;
    const index = this.#instance;
    const ip = `${this.#prefix}${1 + (Math.floor(index / 250) % 250)}.${1 + (index % 250)}`;
    return { ip, sinkPort: this.#sinkPort, apiPort: this.#apiPort, firstPort: 20_000 };
  }

  /**
   * Starts `version` with `corefile` (moved to loopback first) and reports whether it starts. A
   * refusal for an address in use is tried once more on a fresh address, so that a port some other
   * program holds is not taken for the Corefile's fault.
   */
  async start(corefile: string, version: RealCoreDnsRelease): Promise<Verdict> {
    const binary = await this.#binary(version);
    const first = await this.#slot(() => this.#startOnce(binary, corefile, version));
    if (first.verdict.accepted || !first.dnsPortInUse) return first.verdict;
    return (await this.#slot(() => this.#startOnce(binary, corefile, version))).verdict;
  }

  /**
   * {@link start} for many Corefiles, in few processes: up to `groupSize` of them are started
   * together ({@link combineCorefiles}); when that starts, each of them does alone too (CoreDNS sets
   * up every server block on its own, and none of them can collide with another's ports). When it
   * does not, the group is halved until every refusal is one Corefile's, started alone, so each
   * refusal's reason is its own. A Corefile that cannot be combined starts alone. The verdicts are
   * in the order of `corefiles`.
   */
  async startAll(corefiles: readonly string[], version: RealCoreDnsRelease, groupSize = 8): Promise<Verdict[]> {
    const verdicts: Verdict[] = new Array<Verdict>(corefiles.length);
    const judge = async (group: readonly number[]): Promise<void> => {
      const combined = group.length === 1 ? undefined : combineCorefiles(group.map((index) => corefiles[index] ?? ''));
      if (group.length === 1 || combined === undefined) {
        await Promise.all(group.map(async (index) => (verdicts[index] = await this.start(corefiles[index] ?? '', version))));
        return;
      }
      const verdict = await this.start(combined, version);
      if (verdict.accepted) {
        for (const index of group) verdicts[index] = verdict;
        return;
      }
      const half = Math.ceil(group.length / 2);
      await Promise.all([judge(group.slice(0, half)), judge(group.slice(half))]);
    };
    const order = corefiles.map((_, index) => index);
    await Promise.all(Array.from({ length: Math.ceil(order.length / groupSize) }, (_, index) => judge(order.slice(index * groupSize, (index + 1) * groupSize))));
    return verdicts;
  }

  async #startOnce(binary: string, corefile: string, version: RealCoreDnsRelease): Promise<{ verdict: Verdict; dnsPortInUse: boolean }> {
    const plan = this.#nextPlan();
    const moved = moveToLoopback(corefile, plan);
    const file = join(this.#directory, `Corefile-${this.#instance}`);
    const { child, stop } = this.#launch(binary, file, moved);
    let output = '';
    try {
      const verdict = await new Promise<Verdict>((resolve, reject) => {
        let settling: NodeJS.Timeout | undefined;
        const timeout = setTimeout(() => reject(new Error(`CoreDNS ${version} gave no verdict within ${DECISION_TIMEOUT_MS} ms:\n${moved.corefile}\n${output}`)), DECISION_TIMEOUT_MS);
        const finish = (verdict: Verdict) => {
          clearTimeout(timeout);
          if (settling !== undefined) clearTimeout(settling);
          resolve(verdict);
        };
        const onData = (chunk: Buffer) => {
          output += chunk.toString('utf8');
          if (settling === undefined && BANNER.test(output)) {
            settling = setTimeout(() => finish({ accepted: true, output }), SETTLE_MS);
          }
        };
        child.stdout?.on('data', onData);
        child.stderr?.on('data', onData);
        child.once('error', (error) => {
          clearTimeout(timeout);
          reject(error);
        });
        // 'close': the process is gone and its output read to the end.
        child.once('close', () => {
          const reason = output.split('\n').find((line) => !isInformational(line)) ?? `exited: ${child.exitCode ?? child.signalCode ?? '?'}`;
          finish({ accepted: false, reason: reason.trim(), output });
        });
      });
      // A DNS port of this server taken by another program is the machine's fault, not the Corefile's.
      const dnsPortInUse = !verdict.accepted && moved.dnsPorts.some((port) => verdict.reason.includes(`${plan.ip}:${port}: bind: address already in use`));
      return { verdict, dnsPortInUse };
    } finally {
      await stop();
      rmSync(file, { force: true });
    }
  }

  /** Writes the moved Corefile at `file` and starts `binary` on it, tracked until `stop` has killed it and seen it exit. */
  #launch(binary: string, file: string, moved: { readonly corefile: string; readonly dnsPort: number }): { child: ChildProcess; stop: () => Promise<void> } {
    writeFileSync(file, moved.corefile);
    this.started += 1;
    const child = spawn(binary, ['-conf', file, '-dns.port', String(moved.dnsPort)], { cwd: this.#directory, stdio: ['ignore', 'pipe', 'pipe'] });
    this.#processes.add(child);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const stop = async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      this.#processes.delete(child);
    };
    return { child, stop };
  }

  /**
   * Starts `version` with `corefile` moved to loopback (its own loopback destinations kept, the
   * others as `destinations` says), written at `confPath` inside the lab's folder
   * (`etc/coredns/Corefile`, say), and leaves it running: the handle says where it listens. `ip`:
   * the loopback address its blocks bind instead of one of the lab's range (a test that claimed a
   * range of its own). Rejects when it does not start.
   */
  async serve(corefile: string, version: RealCoreDnsRelease, confPath = `serve-${this.#instance + 1}/Corefile`, destinations?: ReadonlyMap<string, string>, ip?: string): Promise<RunningCoreDns> {
    const binary = await this.#binary(version);
    const plan = { ...this.#nextPlan(), ...(ip === undefined ? {} : { ip }), keepLoopbackDestinations: true, ...(destinations === undefined ? {} : { destinations }) };
    const moved = moveToLoopback(corefile, plan);
    const file = join(this.#directory, confPath);
    mkdirSync(dirname(file), { recursive: true });
    const { child, stop } = this.#launch(binary, file, moved);
    let output = '';
    const started = await new Promise<boolean>((resolve) => {
      const timeout = setTimeout(() => resolve(false), DECISION_TIMEOUT_MS);
      const onData = (chunk: Buffer) => {
        output += chunk.toString('utf8');
        if (BANNER.test(output)) {
          clearTimeout(timeout);
          resolve(true);
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('close', () => {
        clearTimeout(timeout);
        resolve(false);
      });
    });
    if (!started) {
      await stop();
      throw new Error(`CoreDNS ${version} did not start:\n${moved.corefile}\n${output}`);
    }
    return {
      ip: plan.ip,
      dnsPort: moved.dnsPort,
      dnsPortFor: (port: number) => moved.dnsPortOf.get(port),
      corefile: moved.corefile,
      listenPort: (port: number) => moved.listenPorts.get(String(port)),
      output: () => output,
      stop,
    };
  }

  /** Kills every server, closes the sink and the API, removes the lab's folder. Never throws. */
  async close(): Promise<void> {
    for (const child of this.#processes) child.kill('SIGKILL');
    await Promise.all([...this.#processes].map((child) => new Promise((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve(undefined) : child.once('exit', resolve)))));
    for (const socket of this.#sockets) socket.destroy();
    await Promise.all([
      new Promise<void>((resolve) => (this.#api === undefined ? resolve() : this.#api.close(() => resolve()))),
      new Promise<void>((resolve) => (this.#sinkTcp === undefined ? resolve() : this.#sinkTcp.close(() => resolve()))),
      new Promise<void>((resolve) => (this.#sinkUdp === undefined ? resolve() : this.#sinkUdp.close(() => resolve()))),
    ]);
    rmSync(this.#directory, { recursive: true, force: true });
  }
}
