import { parseCoreDnsVersion } from '../../coredns/versions.js';
import { parseRepairOption } from '../repair-option.js';
import { kubeDnsRules } from '../../kubedns/kube-dns-versions.js';
import { isDns1123Subdomain } from '../../dns/go-net.js';
import { checkRouting, formatRoutingCheck } from '../../routing/check.js';
import type { RoutingCheck, RoutingInput } from '../../routing/check.js';
import { displayName } from '../../dns/names.js';
import { readCorefileSource } from '../corefile-source.js';
import { optionValue, usingCorefile } from '../errors.js';
import type { CliIo } from '../io.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { ExitCode, UsageError } from '../usage-error.js';
import { readKubeDnsRoutingInput } from './install-input.js';
import { stringifyPrettyJson } from '../../util/pretty-json.js';
import { NODE_LOCAL_OPTIONS, nodeLocalCommandOptions, nodeLocalOptions } from './node-local-options.js';
import { routeJson, splitNotes, withInputNotes } from './routing-report.js';

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
  --coredns VERSION         the CoreDNS release the Corefile is for: before 1.9.4, NXDOMAIN
                            kept for at most 1 s where kube-dns kept none is reported as
                            unavoidable, not as a failure
  --repair QUIRK[,QUIRK]    the kube-dns quirks the Corefile repairs on purpose (translated
                            with the same --repair): the names they change are listed as
                            expected, not as failures
  --name NAME               compare NAME too (repeatable)
  -o, --output FORMAT       table (default) or json
  -h, --help                show this help

With NodeLocal DNSCache (docs/node-local-dns.md):
  --node-local-dns RELEASE  the node-cache release the nodes run (1.15.6 to 1.26.7). Without
                            --corefile: the pre-flight of a kube-dns ConfigMap edit, exit 0
                            when node-cache takes it and the Corefile it writes loads, 1 with
                            the reason. With --corefile (CoreDNS's): the two-tier check, each
                            name routed pod → node-local-dns → CoreDNS or elsewhere, compared
                            with CoreDNS alone and kube-dns alone; exit 1 on a difference
  --local-ip IP[,IP]        node-cache's -localip (required with --corefile)
  --upstream-ip IP          the kube-dns-upstream ClusterIP (required with --corefile)
  --node-local-dns-base FILE  the node-local-dns ConfigMap or its Corefile (default: the
                            nodelocaldns.yaml template of RELEASE)

Output: the table of differing names on stdout (each cell: destination, then why); notes
about what a model assumed or could not follow on stderr (in the JSON with -o json).
Exit status: 0 every name routed the same way, 1 some names differ, 2 bad usage,
unreadable input or a Corefile syntax error.

Examples:
  kube-dns-to-coredns check --kube-dns kube-dns.yaml --corefile Corefile
  kubectl -n kube-system get configmap coredns -o yaml > coredns.yaml
  kube-dns-to-coredns check --kube-dns kube-dns.yaml --corefile coredns.yaml -o json
  kube-dns-to-coredns kube-dns.yaml > Corefile && kube-dns-to-coredns check --kube-dns kube-dns.yaml --corefile Corefile
  kube-dns-to-coredns check --node-local-dns 1.22.10 --kube-dns proposed-kube-dns.yaml
  kube-dns-to-coredns check --node-local-dns 1.26.7 --kube-dns kube-dns.yaml --corefile coredns.yaml \\
      --local-ip 169.254.20.10,10.96.0.10 --upstream-ip 10.96.0.20
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
  if (options.nodeLocal.release === undefined) {
    const misplaced = NODE_LOCAL_OPTIONS.find((option) => options.nodeLocal.given[option] !== undefined);
    if (misplaced !== undefined) throw new UsageError(`check: --${misplaced} belongs to --node-local-dns RELEASE; see 'check --help'`);
  } else {
    if (kubeDnsFile === undefined) throw new UsageError("check: --kube-dns FILE is required; see 'check --help'");
    if (options.deploymentFile !== undefined) {
      throw new UsageError("check: --kube-dns-deployment does not go with --node-local-dns: node-cache reads the kube-dns ConfigMap alone, and the kube-dns column follows the ConfigMap; see 'check --help'");
    }
    const { runNodeLocalCheck, runNodeLocalPreflight } = await import('./check-node-local.js');
    const nodeLocal = nodeLocalCommandOptions('check', options.nodeLocal.release, kubeDnsFile, options);
    if (corefileFile === undefined) {
      // The pre-flight routes no name and reads no CoreDNS: what only the routing uses is refused, not ignored.
      const unused = [options.names.length > 0 ? '--name' : undefined, options.port === undefined ? undefined : '--port', options.kubeDnsVersion === undefined ? undefined : '--kube-dns-version'].find(
        (option) => option !== undefined,
      );
      if (unused !== undefined) throw new UsageError(`check: ${unused} needs --corefile (the pre-flight of --node-local-dns routes no names); see 'check --help'`);
      return runNodeLocalPreflight(nodeLocal, io);
    }
    return runNodeLocalCheck(nodeLocal, options.names, io);
  }
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
    ...(options.coredns === undefined ? {} : { coredns: options.coredns }),
    ...(options.repair === undefined ? {} : { repairs: options.repair }),
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

function checkJson(result: RoutingCheck) {
  return {
    equivalent: result.equivalent,
    checked: result.names.length,
    differences: result.differences.map((difference) => ({
      name: displayName(difference.name),
      kubeDns: routeJson(difference.kubeDns),
      coreDns: routeJson(difference.coreDns),
    })),
    repaired: result.repaired.map((difference) => ({
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
      coredns: { type: 'string' },
      repair: { type: 'string' },
      name: { type: 'string', multiple: true },
      'node-local-dns': { type: 'string' },
      'local-ip': { type: 'string' },
      'upstream-ip': { type: 'string' },
      'node-local-dns-base': { type: 'string' },
      output: { type: 'string', short: 'o' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const { values } = parsed;
  const output = values.output ?? 'table';
  if (!(OUTPUTS as readonly string[]).includes(output)) throw new UsageError(`check: --output must be one of ${OUTPUTS.join(', ')}, not '${output}'`);
  return {
    help: values.help,
    nodeLocal: nodeLocalOptions(values),
    kubeDnsFile: values['kube-dns'],
    deploymentFile: values['kube-dns-deployment'],
    corefileFile: values.corefile,
    clusterDomain: checkClusterDomain('check', values['cluster-domain']),
    kubeDnsVersion: checkKubeDnsVersion('check', values['kube-dns-version']),
    port: checkPort('check', values.port),
    coredns: values.coredns === undefined ? undefined : optionValue('check', '--coredns', values.coredns, parseCoreDnsVersion),
    repair: parseRepairOption('check', values.repair),
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
