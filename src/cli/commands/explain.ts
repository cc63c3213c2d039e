import { isDns1123Label } from '../../dns/go-net.js';
import { displayName } from '../../dns/names.js';
import { dnsNameProblem } from '../../dns/query-names.js';
import { explainName, formatExplanation } from '../../routing/explain.js';
import type { Explanation, ExplainInput } from '../../routing/explain.js';
import { defineCommand } from '../command.js';
import type { CommandContext } from '../command.js';
import { readCorefileSource } from '../corefile-source.js';
import { OVERLAY_OPTIONS, overlayArgs } from '../overlay-options.js';
import type { CorefileSourceText } from '../corefile-source.js';
import { usingCorefile } from '../errors.js';
import { readKubeDnsRoutingInput } from '../input/install.js';
import { clusterDomain, integer, kubeDnsVersion, port, stringOption, text } from '../options.js';
import { repeatedNames } from '../routing/name-options.js';
import { NODE_LOCAL_OPTION_SPECS, nodeLocalCommandOptions, nodeLocalMisplaced, ROUTING_OUTPUTS } from '../routing/node-local-options.js';
import { routeJson, splitNotes, withInputNotes } from '../routing/report.js';
import { ExitCode, UsageError } from '../usage-error.js';

export const EXPLAIN_HELP = `Usage: kube-dns-to-coredns explain NAME --kube-dns FILE [--corefile FILE] [options]

What does a pod's resolver do with NAME, and who answers? Lists the names the resolver
tries, in order (search path '<ns>.svc.<cluster-domain> svc.<cluster-domain>
<cluster-domain>', ndots:5, glibc rules: a NAME ending in '.' is tried as is only), and
for each who answers it under kube-dns and, with --corefile, under CoreDNS.

  --kube-dns FILE           the kube-dns ConfigMap (YAML or JSON, or its data map), with the
                            Deployment if you have it; '-' for stdin
  --kube-dns-deployment FILE the kube-dns Deployment, if not in --kube-dns
  --corefile FILE           the Corefile, or a CoreDNS ConfigMap holding it; '-' for stdin
  --platform P | --base FILE --coredns-custom CUSTOM
                            instead of --corefile: the Corefile a coredns-custom overlay makes
                            with the base of platform P (aks, k3s, k3s-legacy) or the base FILE
  --namespace NS            the pod's namespace (default: default)
  --cluster-domain DOMAIN   the cluster domain (default: cluster.local)
  --search DOMAIN           a search domain the node adds after the cluster ones (repeatable)
  --ndots N                 the resolver's ndots (default: 5)
  --kube-dns-version V      validate the ConfigMap with the rules of this kube-dns release
  --port PORT               the CoreDNS port pods reach (default: 53)
  -o, --output FORMAT       text (the table, default) or json
  -q, --quiet               warnings and errors only: no infos, notes or summaries
  --verbose                 each diagnostic followed by its code's hint
  --out FILE                write the output to FILE, only on success (see the main --help)
  -h, --help                show this help

With NodeLocal DNSCache (docs/node-local-dns.md), needs --corefile:
  --node-local-dns RELEASE  show both tiers: what node-local-dns (node-cache RELEASE) does
                            with each candidate, what CoreDNS does where it is forwarded there,
                            next to CoreDNS alone and kube-dns alone
  --local-ip IP[,IP]        node-cache's -localip (required)
  --upstream-ip IP          the kube-dns-upstream ClusterIP (required)
  --node-local-dns-base FILE  the node-local-dns ConfigMap or its Corefile

Exit status: 0 explained, 1 node-cache refuses the ConfigMap (--node-local-dns), 2 bad usage,
unreadable input or a Corefile syntax error.

Examples:
  kube-dns-to-coredns explain api.acme.local --kube-dns kube-dns.yaml --corefile Corefile
  kube-dns-to-coredns explain my-svc --namespace shop --kube-dns kube-dns.yaml --corefile Corefile
  kube-dns-to-coredns explain example.com. --kube-dns kube-dns.yaml -o json
`;

const options = {
  'kube-dns': text(),
  'kube-dns-deployment': text(),
  corefile: text(),
  ...OVERLAY_OPTIONS,
  namespace: stringOption((namespace) => {
    if (!isDns1123Label(namespace)) throw new UsageError(`explain: --namespace '${namespace}' is not a namespace name (a DNS-1123 label)`);
    return namespace;
  }),
  'cluster-domain': clusterDomain(),
  search: repeatedNames(false),
  ndots: integer(0, 15),
  'kube-dns-version': kubeDnsVersion(),
  port: port(),
  ...NODE_LOCAL_OPTION_SPECS,
} as const;

type ExplainContext = CommandContext<typeof options, 'text' | 'json'>;

/** `kube-dns-to-coredns explain`: see {@link EXPLAIN_HELP}. */
export const explainCommand = defineCommand({
  name: 'explain',
  help: EXPLAIN_HELP,
  options,
  positionals: { name: 'NAME', min: 1, max: 1 },
  outputs: ROUTING_OUTPUTS,
  misplaced: nodeLocalMisplaced('explain'),
  run: runExplain,
});

async function runExplain(context: ExplainContext): Promise<number> {
  const { io, options: values, report } = context;
  const name = context.positionals[0] as string;
  const problem = dnsNameProblem(name);
  if (problem !== undefined) throw new UsageError(`explain: NAME '${name}' is not a DNS name: ${problem}; see 'explain --help'`);
  const kubeDnsFile = values['kube-dns'];
  if (kubeDnsFile === undefined) throw new UsageError("explain: --kube-dns FILE is required; see 'explain --help'");
  const release = values['node-local-dns'];
  if (release !== undefined) {
    const { runNodeLocalExplain } = await import('../routing/node-local-runs.js');
    const nodeLocal = nodeLocalCommandOptions('explain', release, kubeDnsFile, values, context.output);
    return runNodeLocalExplain(name, nodeLocal, { namespace: values.namespace, ndots: values.ndots, search: values.search }, io, report);
  }
  if (kubeDnsFile === '-' && values.corefile === '-') throw new UsageError('explain: --kube-dns and --corefile cannot both read standard input');
  const kubeDnsInput = await readKubeDnsRoutingInput(kubeDnsFile, values['kube-dns-deployment'], io);
  const overlay = overlayArgs('explain', values, values['cluster-domain']);
  if (overlay !== undefined && values.corefile !== undefined) throw new UsageError("explain: give --corefile FILE or --platform/--base with --coredns-custom, not both; see 'explain --help'");
  if (overlay !== undefined && overlay.custom === undefined) throw new UsageError("explain: --platform and --base need --coredns-custom CUSTOM, the overlay to compose; see 'explain --help'");
  const source: CorefileSourceText | undefined =
    overlay !== undefined ? await (await import('../overlay-source.js')).composedSource(overlay, io) : values.corefile === undefined ? undefined : await readCorefileSource(values.corefile, io);
  const input = (corefile: string | undefined): ExplainInput => ({
    kubeDns: kubeDnsInput.data,
    ...(kubeDnsInput.deployment === undefined ? {} : { kubeDnsDeployment: kubeDnsInput.deployment }),
    ...(kubeDnsInput.locate === undefined ? {} : { kubeDnsLocate: kubeDnsInput.locate }),
    ...(corefile === undefined ? {} : { corefile }),
    ...(values['cluster-domain'] === undefined ? {} : { clusterDomain: values['cluster-domain'] }),
    ...(values['kube-dns-version'] === undefined ? {} : { kubeDnsVersion: values['kube-dns-version'] }),
    ...(values.port === undefined ? {} : { port: values.port }),
    ...(values.namespace === undefined ? {} : { namespace: values.namespace }),
    ...(values.ndots === undefined ? {} : { ndots: values.ndots }),
    searchPath: values.search,
  });
  const explained = source === undefined ? explainName(name, input(undefined)) : usingCorefile(source, (corefile) => explainName(name, input(corefile)));
  const explanation: Explanation = withInputNotes(explained, kubeDnsInput.diagnostics);
  if (context.output === 'json') {
    report.json(explanationJson(explanation));
  } else {
    const [table, notes] = splitNotes(formatExplanation(explanation));
    io.stdout.write(table);
    report.info(notes);
  }
  return ExitCode.ok;
}

function explanationJson(explanation: Explanation) {
  return {
    query: explanation.query,
    searchPath: explanation.searchPath.map(displayName),
    ndots: explanation.ndots,
    candidates: explanation.candidates.map((candidate) => ({
      name: displayName(candidate.name),
      kubeDns: routeJson(candidate.kubeDns),
      ...(candidate.coreDns === undefined ? {} : { coreDns: routeJson(candidate.coreDns), same: candidate.same }),
    })),
    notes: explanation.notes,
  };
}
