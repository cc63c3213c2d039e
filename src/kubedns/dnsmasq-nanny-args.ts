/**
 * The `dnsmasq` container's arguments, read as dnsmasq-nanny reads them (kubernetes/dns,
 * cmd/dnsmasq-nanny/main.go and pkg/dnsmasq/nanny.go): everything after the first `--` goes to
 * dnsmasq untouched; what comes before is read with Go's standard `flag` package.
 */
import { isGoIP } from '../dns/go-net.js';
import { type FlagProblem, type FlagSetting, type FlagSpec, parseGoFlags } from './go-flags.js';

const NANNY_FLAGS: readonly FlagSpec[] = [
  { name: 'dnsmasqExec', kind: 'value' },
  { name: 'restartDnsmasq', kind: 'bool' },
  { name: 'configDir', kind: 'value' },
  { name: 'syncInterval', kind: 'value' },
  { name: 'kubednsServer', kind: 'value' },
  { name: 'logInterval', kind: 'value' },
  // klog's flags, registered by klog.InitFlags(nil) under their underscore names.
  { name: 'v', kind: 'value' },
  { name: 'vmodule', kind: 'value' },
  { name: 'logtostderr', kind: 'bool' },
  { name: 'alsologtostderr', kind: 'bool' },
  { name: 'log_dir', kind: 'value' },
  { name: 'log_file', kind: 'value' },
  { name: 'log_file_max_size', kind: 'value' },
  { name: 'stderrthreshold', kind: 'value' },
  { name: 'log_backtrace_at', kind: 'value' },
  { name: 'add_dir_header', kind: 'bool' },
  { name: 'skip_headers', kind: 'bool' },
  { name: 'skip_log_headers', kind: 'bool' },
  { name: 'one_output', kind: 'bool' },
];

export interface NannyArgs {
  /** The nanny's own settings, in order. */
  readonly settings: readonly FlagSetting[];
  /** `-configDir`'s last value (where the nanny reads the ConfigMap), or its default. */
  readonly configDir: string;
  /** The arguments after the first `--`, passed to dnsmasq as they are; empty when there is no `--`. */
  readonly dnsmasqArgs: readonly string[];
  /** True when the arguments hold a `--`. */
  readonly hasSeparator: boolean;
  /**
   * Arguments before `--` that Go's `flag` never reads: everything from the first non-flag token on.
   * The nanny ignores them.
   */
  readonly ignored: readonly { readonly index: number; readonly value: string }[];
  /** An unknown flag, a flag without its value, bad syntax or `-help`: the nanny exits on it. */
  readonly problem: FlagProblem | undefined;
}

const DEFAULT_CONFIG_DIR = '/etc/k8s/dns/dnsmasq-nanny';

/** The nanny's arguments (without the program name). */
export function parseNannyArgs(args: readonly string[]): NannyArgs {
  const separator = args.indexOf('--');
  const own = separator === -1 ? args : args.slice(0, separator);
  const dnsmasqArgs = separator === -1 ? [] : args.slice(separator + 1);
  const parsed = parseGoFlags(own, NANNY_FLAGS, 'go-flag');
  const configDir = parsed.settings.filter((setting) => setting.name === 'configDir').at(-1)?.value ?? DEFAULT_CONFIG_DIR;
  return {
    settings: parsed.settings,
    configDir,
    dnsmasqArgs,
    hasSeparator: separator !== -1,
    ignored: parsed.positional,
    problem: parsed.problem,
  };
}

/**
 * An address from the ConfigMap as the nanny writes it into a dnsmasq `--server` value: the last
 * `:` becomes `#` when the text holds exactly one `:` (IPv4 with a port) or a `]` before its last
 * `:` (`[v6]:port`, brackets kept). Anything else passes unchanged.
 */
export function nannyServerAddress(server: string): string {
  const colon = server.lastIndexOf(':');
  if (colon === -1) return server;
  const bracket = server.indexOf(']');
  const oneColon = server.split(':').length === 2;
  if (oneColon || (bracket !== -1 && colon > bracket)) return `${server.slice(0, colon)}#${server.slice(colon + 1)}`;
  return server;
}

/** One argument pair the nanny appends to dnsmasq's. */
export interface AppendedServer {
  /** `stubDomains` or `upstreamNameservers`. */
  readonly from: 'stubDomains' | 'upstreamNameservers';
  /** The `--server` value. */
  readonly value: string;
  /**
   * True when the address is not an IP literal: the nanny resolves it when it starts dnsmasq (names
   * ending in `cluster.local` through kube-dns, others through the pod's resolver) and uses the
   * first address, or the text unchanged if the lookup fails.
   */
  readonly resolvedAtRunTime: boolean;
}

/**
 * The arguments the nanny appends for the ConfigMap's stub domains and upstream nameservers: one
 * `--server /domain/address` per stub address, then one `--server address` per upstream, then
 * `--no-resolv` when there are upstreams. The nanny walks `stubDomains` as a Go map, in an order that
 * changes from run to run; `stubDomains` here is walked in the order given.
 */
export function nannyAppendedArgs(
  stubDomains: ReadonlyMap<string, readonly string[]>,
  upstreamNameservers: readonly string[],
): { readonly servers: readonly AppendedServer[]; readonly argv: readonly string[] } {
  const servers: AppendedServer[] = [];
  for (const [domain, addresses] of stubDomains) {
    for (const address of addresses) {
      servers.push({ from: 'stubDomains', value: `/${domain}/${nannyServerAddress(address)}`, resolvedAtRunTime: !isGoIP(address) });
    }
  }
  for (const address of upstreamNameservers) {
    servers.push({ from: 'upstreamNameservers', value: nannyServerAddress(address), resolvedAtRunTime: false });
  }
  const argv = servers.flatMap((server) => ['--server', server.value]);
  if (upstreamNameservers.length > 0) argv.push('--no-resolv');
  return { servers, argv };
}
