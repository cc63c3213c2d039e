import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { kubeDnsRules } from '../../kubedns/kube-dns-versions.js';
import { isDns1123Subdomain } from '../../dns/go-net.js';
import { checkRouting, formatRoutingCheck } from '../../routing/check.js';
import type { RoutingCheck, RoutingInput } from '../../routing/check.js';
import { describeDestination } from '../../routing/destination.js';
import type { Route } from '../../routing/destination.js';
import { displayName } from '../../dns/names.js';
import { readCorefileSource } from '../corefile-source.js';
import { optionValue, usingCorefile } from '../errors.js';
import type { CliIo } from '../io.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { ExitCode, UsageError } from '../usage-error.js';
import { readKubeDnsRoutingInput } from './install-input.js';
import { stringifyPrettyJson } from '../../util/pretty-json.js';

export const CHECK_HELP = `Usage: kube-dns-to-coredns check --kube-dns FILE --corefile FILE [options]

Will every name still go where it went? Routes a set of query names through a model of
kube-dns (dnsmasq in front of kubedns, configured from the kube-dns ConfigMap) and a model
of CoreDNS (server blocks and plugins of the Corefile), and lists each name whose
destination differs: the cluster, a stub domain's nameservers, the upstreams, the node's
resolv.conf, REFUSED or SERVFAIL. The names: every stub domain, the cluster domain, the
reverse zones, every zone of the Corefile, a child and the parents of each, and a few
others (example.com, kubernetes.default.svc.<cluster-domain>, reverse names).

  --kube-dns FILE           the kube-dns ConfigMap (YAML or JSON as kubectl prints it, or
                            just its data map), with the Deployment if you have it ('kubectl
                            get deploy/kube-dns cm/kube-dns -o yaml'); '-' reads standard input
  --kube-dns-deployment FILE the kube-dns Deployment, if not in --kube-dns: its dnsmasq flags
                            route names, and its --no-negcache makes NXDOMAIN caching a
                            difference
  --corefile FILE           the Corefile, or a CoreDNS ConfigMap holding it; '-' for stdin
  --cluster-domain DOMAIN   the cluster domain (default: cluster.local)
  --kube-dns-version V      validate the ConfigMap with the rules of this kube-dns release
                            (a ConfigMap kube-dns rejects routes like kube-dns's defaults)
  --port PORT               the CoreDNS port pods reach (default: 53)
  --name NAME               compare NAME too (repeatable)
  -o, --output FORMAT       table (default) or json
  -h, --help                show this help

Output: the table of differing names on stdout (each cell: destination, then why); notes
about what a model assumed or could not follow on stderr (in the JSON with -o json).
Exit status: 0 every name routed the same way, 1 some names differ, 2 bad usage,
unreadable input or a Corefile syntax error.

Examples:
  kube-dns-to-coredns check --kube-dns kube-dns.yaml --corefile Corefile
  kubectl -n kube-system get configmap coredns -o yaml > coredns.yaml
  kube-dns-to-coredns check --kube-dns kube-dns.yaml --corefile coredns.yaml -o json
  kube-dns-to-coredns kube-dns.yaml > Corefile && kube-dns-to-coredns check --kube-dns kube-dns.yaml --corefile Corefile
`;

const OUTPUTS = ['table', 'json'] as const;

/** `kube-dns-to-coredns check`: see {@link CHECK_HELP}. */
export async function runCheck(args: readonly string[], io: CliIo): Promise<number> {
  const options = parseCheckArgs(args);
  if (options.help) {
    io.stdout.write(CHECK_HELP);
    return ExitCode.ok;
  }
  const { kubeDnsFile, corefileFile } = options;
  if (kubeDnsFile === undefined || corefileFile === undefined) {
    throw new UsageError(`check: ${kubeDnsFile === undefined ? '--kube-dns' : '--corefile'} FILE is required; see 'check --help'`);
  }
  if (isStdin(kubeDnsFile) && isStdin(corefileFile)) throw new UsageError('check: --kube-dns and --corefile cannot both read standard input');
  const kubeDnsInput = await readKubeDnsRoutingInput(kubeDnsFile, options.deploymentFile, io);
  const source = await readCorefileSource(corefileFile, io);
  const input = (corefile: string): RoutingInput => ({
    kubeDns: kubeDnsInput.data,
    ...(kubeDnsInput.deployment === undefined ? {} : { kubeDnsDeployment: kubeDnsInput.deployment }),
    corefile,
    ...(options.clusterDomain === undefined ? {} : { clusterDomain: options.clusterDomain }),
    ...(options.kubeDnsVersion === undefined ? {} : { kubeDnsVersion: options.kubeDnsVersion }),
    ...(options.port === undefined ? {} : { port: options.port }),
    names: options.names,
  });
  const result: RoutingCheck = withInputNotes(
    usingCorefile(source, (corefile) => checkRouting(input(corefile))),
    kubeDnsInput.diagnostics,
  );
  if (options.output === 'json') {
    io.stdout.write(`${stringifyPrettyJson(checkJson(result))}\n`);
  } else {
    const [summary, notes] = splitNotes(formatRoutingCheck(result));
    io.stdout.write(summary);
    if (notes !== '') io.stderr.write(notes);
  }
  return result.equivalent ? ExitCode.ok : ExitCode.failed;
}

function isStdin(file: string): boolean {
  return file === '-';
}

/** Warnings about which ConfigMap was read lead the notes (on stderr, or `notes` in the JSON). */
export function withInputNotes<Result extends { readonly notes: readonly string[] }>(result: Result, diagnostics: readonly Diagnostic[]): Result {
  return diagnostics.length === 0 ? result : { ...result, notes: [...diagnostics.map((entry) => `kube-dns: ${entry.message}`), ...result.notes] };
}

/** The formatted text's notes section goes to stderr. */
export function splitNotes(text: string): [string, string] {
  const index = text.indexOf('Notes:\n');
  return index < 0 ? [text, ''] : [text.slice(0, index), text.slice(index)];
}

export function routeJson(route: Route): { destination: unknown; text: string; via: string } {
  return { destination: route.destination, text: describeDestination(route.destination), via: route.via };
}

function checkJson(result: RoutingCheck) {
  return {
    equivalent: result.equivalent,
    checked: result.names.length,
    differences: result.differences.map((difference) => ({
      name: displayName(difference.name),
      kubeDns: routeJson(difference.kubeDns),
      coreDns: routeJson(difference.coreDns),
    })),
    negativeCaching: result.negativeCaching,
    notes: result.notes,
    names: result.names.map(displayName),
  };
}

function parseCheckArgs(args: readonly string[]) {
  const parsed = parseCommandArgs('check', args, {
    allowPositionals: false,
    options: {
      'kube-dns': { type: 'string' },
      'kube-dns-deployment': { type: 'string' },
      corefile: { type: 'string' },
      'cluster-domain': { type: 'string' },
      'kube-dns-version': { type: 'string' },
      port: { type: 'string' },
      name: { type: 'string', multiple: true },
      output: { type: 'string', short: 'o' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const { values } = parsed;
  const output = values.output ?? 'table';
  if (!(OUTPUTS as readonly string[]).includes(output)) throw new UsageError(`check: --output must be one of ${OUTPUTS.join(', ')}, not '${output}'`);
  return {
    help: values.help,
    kubeDnsFile: values['kube-dns'],
    deploymentFile: values['kube-dns-deployment'],
    corefileFile: values.corefile,
    clusterDomain: checkClusterDomain('check', values['cluster-domain']),
    kubeDnsVersion: checkKubeDnsVersion('check', values['kube-dns-version']),
    port: checkPort('check', values.port),
    names: values.name ?? [],
    output,
  };
}

/** A cluster domain as kube-dns accepts it (`--domain`): a DNS-1123 subdomain, trailing dot allowed. */
export function checkClusterDomain(command: string, domain: string | undefined): string | undefined {
  if (domain === undefined) return undefined;
  const bare = domain.endsWith('.') ? domain.slice(0, -1) : domain;
  if (!isDns1123Subdomain(bare.toLowerCase())) throw new UsageError(`${command}: --cluster-domain '${domain}' is not a DNS-1123 subdomain`);
  return bare;
}

/** `--kube-dns-version`: a release whose rules are known, normalised (`v1.14.13` → `1.14.13`). */
export function checkKubeDnsVersion(command: string, version: string | undefined): string | undefined {
  return version === undefined ? undefined : optionValue(command, '--kube-dns-version', version, (value) => kubeDnsRules(value).version);
}

export function checkPort(command: string, port: string | undefined): string | undefined {
  if (port === undefined) return undefined;
  if (!/^[0-9]{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) throw new UsageError(`${command}: --port must be a number from 1 to 65535, not '${port}'`);
  return String(Number(port));
}
