import { displayName } from '../../dns/names.js';
import { checkRouting, formatRoutingCheck } from '../../routing/check.js';
import type { RoutingCheck, RoutingDifference, RoutingInput } from '../../routing/check.js';
import { defineCommand } from '../command.js';
import type { CommandContext } from '../command.js';
import { readCorefileSource } from '../corefile-source.js';
import { OVERLAY_OPTIONS, overlayArgs } from '../overlay-options.js';
import { usingCorefile } from '../errors.js';
import { readKubeDnsRoutingInput } from '../input/install.js';
import { clusterDomain, flag, kubeDnsVersion, port, release, text } from '../options.js';
import { repeatedNames } from '../routing/name-options.js';
import { repair } from '../repair-option.js';
import { NODE_LOCAL_OPTION_SPECS, nodeLocalCommandOptions, nodeLocalMisplaced, ROUTING_OUTPUTS } from '../routing/node-local-options.js';
import { routeJson, splitNotes, withInputNotes } from '../routing/report.js';
import { ExitCode, UsageError } from '../usage-error.js';

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
                            route names (also the kube-dns column of --node-local-dns), and
                            its --no-negcache makes NXDOMAIN caching a difference
  --corefile FILE           the Corefile, or a CoreDNS ConfigMap holding it; '-' for stdin
  --platform P | --base FILE --coredns-custom CUSTOM
                            instead of --corefile: the Corefile a coredns-custom overlay makes
                            with the base of platform P (aks, k3s, k3s-legacy) or with the
                            base FILE the cluster runs, as CoreDNS's import composes them
  --cluster-domain DOMAIN   the cluster domain (default: cluster.local)
  --kube-dns-version V      validate the ConfigMap with the rules of this kube-dns release
                            (a ConfigMap kube-dns rejects routes like kube-dns's defaults)
  --port PORT               the CoreDNS port pods reach (default: 53)
  --coredns VERSION         the CoreDNS release the Corefile is for: where it cannot switch
                            denial caching off, NXDOMAIN
                            kept for at most 1 s where kube-dns kept none is reported as
                            unavoidable, not as a failure
  --repair QUIRK[,QUIRK]    the kube-dns quirks the Corefile repairs on purpose (translated
                            with the same --repair): the names they change are listed as
                            expected, not as failures
  --drop-federations        the Corefile was translated with --drop-federations: the
                            federation names it changes are listed as expected, not as failures
  --name NAME               compare NAME too (repeatable)
  -o, --output FORMAT       text (the table, default) or json
  -q, --quiet               warnings and errors only: no infos, notes or summaries
  --verbose                 each diagnostic followed by its code's hint
  --out FILE                write the output to FILE, only on success (see the main --help)
  -h, --help                show this help

With NodeLocal DNSCache (docs/node-local-dns.md):
  --node-local-dns RELEASE  the node-cache release the nodes run (1.15.6 to 1.26.8). Without
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

const options = {
  'kube-dns': text(),
  'kube-dns-deployment': text(),
  corefile: text(),
  ...OVERLAY_OPTIONS,
  'cluster-domain': clusterDomain(),
  'kube-dns-version': kubeDnsVersion(),
  port: port(),
  coredns: release(),
  repair: repair(),
  'drop-federations': flag(),
  name: repeatedNames(true),
  ...NODE_LOCAL_OPTION_SPECS,
} as const;

type CheckContext = CommandContext<typeof options, 'text' | 'json'>;

/** `kube-dns-to-coredns check`: see {@link CHECK_HELP}. */
export const checkCommand = defineCommand({
  name: 'check',
  help: CHECK_HELP,
  options,
  outputs: ROUTING_OUTPUTS,
  misplaced: nodeLocalMisplaced('check'),
  run: runCheck,
});

async function runCheck(context: CheckContext): Promise<number> {
  const { io, options: values, report } = context;
  const kubeDnsFile = values['kube-dns'];
  const corefileFile = values.corefile;
  const release = values['node-local-dns'];
  if (release !== undefined) {
    if (kubeDnsFile === undefined) throw new UsageError("check: --kube-dns FILE is required; see 'check --help'");
    const { runNodeLocalCheck, runNodeLocalPreflight } = await import('../routing/node-local-runs.js');
    const nodeLocal = nodeLocalCommandOptions('check', release, kubeDnsFile, values, context.output);
    if (corefileFile === undefined) {
      // The pre-flight routes no name and reads no CoreDNS: what only the routing uses is refused, not ignored.
      const unused = (['name', 'port', 'kube-dns-version', 'coredns', 'repair', 'drop-federations', 'kube-dns-deployment'] as const).find((option) => context.given.has(option));
      if (unused !== undefined) throw new UsageError(`check: --${unused} needs --corefile (the pre-flight of --node-local-dns routes no names); see 'check --help'`);
      return runNodeLocalPreflight(nodeLocal, io, report);
    }
    return runNodeLocalCheck(nodeLocal, values.name, io, report);
  }
  const overlay = overlayArgs('check', values, values['cluster-domain']);
  if (overlay !== undefined && corefileFile !== undefined) throw new UsageError("check: give --corefile FILE or --platform/--base with --coredns-custom, not both; see 'check --help'");
  if (overlay !== undefined && overlay.custom === undefined) throw new UsageError("check: --platform and --base need --coredns-custom CUSTOM, the overlay to compose; see 'check --help'");
  if (kubeDnsFile === undefined || (corefileFile === undefined && overlay === undefined)) {
    throw new UsageError(`check: ${kubeDnsFile === undefined ? '--kube-dns' : '--corefile'} FILE is required; see 'check --help'`);
  }
  if (kubeDnsFile === '-' && [corefileFile, overlay?.custom, overlay?.base].includes('-')) throw new UsageError('check: only one input can read standard input');
  const kubeDnsInput = await readKubeDnsRoutingInput(kubeDnsFile, values['kube-dns-deployment'], io);
  const source = overlay === undefined ? await readCorefileSource(corefileFile, io) : await (await import('../overlay-source.js')).composedSource(overlay, io);
  const input = (corefile: string): RoutingInput => ({
    kubeDns: kubeDnsInput.data,
    ...(kubeDnsInput.deployment === undefined ? {} : { kubeDnsDeployment: kubeDnsInput.deployment }),
    ...(kubeDnsInput.locate === undefined ? {} : { kubeDnsLocate: kubeDnsInput.locate }),
    corefile,
    ...(values['cluster-domain'] === undefined ? {} : { clusterDomain: values['cluster-domain'] }),
    ...(values['kube-dns-version'] === undefined ? {} : { kubeDnsVersion: values['kube-dns-version'] }),
    ...(values.port === undefined ? {} : { port: values.port }),
    ...(values.coredns === undefined ? {} : { coredns: values.coredns.version }),
    ...(values.repair === undefined ? {} : { repairs: values.repair }),
    ...(values['drop-federations'] ? { dropFederations: true } : {}),
    names: values.name,
  });
  const result: RoutingCheck = withInputNotes(
    usingCorefile(source, (corefile) => checkRouting(input(corefile))),
    kubeDnsInput.diagnostics,
  );
  if (context.output === 'json') {
    report.json(checkJson(result));
  } else {
    const [summary, notes] = splitNotes(formatRoutingCheck(result));
    io.stdout.write(summary);
    report.info(notes);
  }
  return result.ok ? ExitCode.ok : ExitCode.failed;
}

function differenceJson(difference: RoutingDifference) {
  return { name: displayName(difference.name), kubeDns: routeJson(difference.kubeDns), coreDns: routeJson(difference.coreDns) };
}

function checkJson(result: RoutingCheck) {
  return {
    ok: result.ok,
    // Deprecated: the same as ok, for one release (CHANGELOG).
    equivalent: result.ok,
    checked: result.names.length,
    differences: result.differences.map(differenceJson),
    repaired: result.repaired.map(differenceJson),
    unavoidable: result.unavoidable.map(differenceJson),
    nxdomainAnswers: result.nxdomainAnswers.map((entry) => ({ ...entry, name: displayName(entry.name) })),
    negativeCaching: result.negativeCaching,
    anyAnswers: result.anyAnswers.map((entry) => ({ ...entry, name: displayName(entry.name) })),
    notes: result.notes,
    names: result.names.map(displayName),
  };
}
