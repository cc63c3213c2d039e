import { isDns1123Label } from '../../dns/go-net.js';
import { explainName, formatExplanation } from '../../routing/explain.js';
import type { Explanation, ExplainInput } from '../../routing/explain.js';
import { displayName } from '../../dns/names.js';
import { readCorefileSource } from '../corefile-source.js';
import { composedSource, OVERLAY_OPTIONS, overlayArgs } from '../overlay-source.js';
import type { CorefileSourceText } from '../corefile-source.js';
import { usingCorefile } from '../errors.js';
import type { CliIo } from '../io.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { ExitCode, UsageError } from '../usage-error.js';
import { checkClusterDomain, checkKubeDnsVersion, checkPort } from './check.js';
import { readKubeDnsRoutingInput } from './install-input.js';
import { NODE_LOCAL_OPTIONS, nodeLocalCommandOptions, nodeLocalOptions } from './node-local-options.js';
import { routeJson, splitNotes, withInputNotes } from './routing-report.js';
import { stringifyPrettyJson } from '../../util/pretty-json.js';

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
  -o, --output FORMAT       table (default) or json
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

const OUTPUTS = ['table', 'json'] as const;

/** `kube-dns-to-coredns explain`: see {@link EXPLAIN_HELP}. */
export async function runExplain(args: readonly string[], io: CliIo): Promise<number> {
  const options = parseExplainArgs(args);
  if (options.help) {
    io.stdout.write(EXPLAIN_HELP);
    return ExitCode.ok;
  }
  if (options.kubeDnsFile === undefined) throw new UsageError("explain: --kube-dns FILE is required; see 'explain --help'");
  if (options.nodeLocal.release === undefined) {
    const misplaced = NODE_LOCAL_OPTIONS.find((option) => options.nodeLocal.given[option] !== undefined);
    if (misplaced !== undefined) throw new UsageError(`explain: --${misplaced} belongs to --node-local-dns RELEASE; see 'explain --help'`);
  } else {
    if (options.deploymentFile !== undefined) {
      throw new UsageError("explain: --kube-dns-deployment does not go with --node-local-dns: node-cache reads the kube-dns ConfigMap alone, and the kube-dns column follows the ConfigMap; see 'explain --help'");
    }
    const { runNodeLocalExplain } = await import('./check-node-local.js');
    const nodeLocal = nodeLocalCommandOptions('explain', options.nodeLocal.release, options.kubeDnsFile, options);
    return runNodeLocalExplain(options.name, nodeLocal, { namespace: options.namespace, ndots: options.ndots, search: options.search }, io);
  }
  if (options.kubeDnsFile === '-' && options.corefileFile === '-') throw new UsageError('explain: --kube-dns and --corefile cannot both read standard input');
  const kubeDnsInput = await readKubeDnsRoutingInput(options.kubeDnsFile, options.deploymentFile, io);
  if (options.overlay !== undefined && options.corefileFile !== undefined) throw new UsageError("explain: give --corefile FILE or --platform/--base with --coredns-custom, not both; see 'explain --help'");
  if (options.overlay !== undefined && options.overlay.custom === undefined) throw new UsageError("explain: --platform and --base need --coredns-custom CUSTOM, the overlay to compose; see 'explain --help'");
  const source: CorefileSourceText | undefined =
    options.overlay !== undefined ? await composedSource(options.overlay, io) : options.corefileFile === undefined ? undefined : await readCorefileSource(options.corefileFile, io);
  const input = (corefile: string | undefined): ExplainInput => ({
    kubeDns: kubeDnsInput.data,
    ...(kubeDnsInput.deployment === undefined ? {} : { kubeDnsDeployment: kubeDnsInput.deployment }),
    ...(corefile === undefined ? {} : { corefile }),
    ...(options.clusterDomain === undefined ? {} : { clusterDomain: options.clusterDomain }),
    ...(options.kubeDnsVersion === undefined ? {} : { kubeDnsVersion: options.kubeDnsVersion }),
    ...(options.port === undefined ? {} : { port: options.port }),
    ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
    ...(options.ndots === undefined ? {} : { ndots: options.ndots }),
    searchPath: options.search,
  });
  const explained = source === undefined ? explainName(options.name, input(undefined)) : usingCorefile(source, (corefile) => explainName(options.name, input(corefile)));
  const explanation: Explanation = withInputNotes(explained, kubeDnsInput.diagnostics);
  if (options.output === 'json') {
    io.stdout.write(`${stringifyPrettyJson(explanationJson(explanation))}\n`);
  } else {
    const [table, notes] = splitNotes(formatExplanation(explanation));
    io.stdout.write(table);
    if (notes !== '') io.stderr.write(notes);
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

function parseExplainArgs(args: readonly string[]) {
  const parsed = parseCommandArgs('explain', args, {
    allowPositionals: true,
    options: {
      'kube-dns': { type: 'string' },
      'kube-dns-deployment': { type: 'string' },
      corefile: { type: 'string' },
      namespace: { type: 'string' },
      'cluster-domain': { type: 'string' },
      search: { type: 'string', multiple: true },
      ndots: { type: 'string' },
      'kube-dns-version': { type: 'string' },
      port: { type: 'string' },
      'node-local-dns': { type: 'string' },
      'local-ip': { type: 'string' },
      'upstream-ip': { type: 'string' },
      'node-local-dns-base': { type: 'string' },
      output: { type: 'string', short: 'o' },
      help: { type: 'boolean', short: 'h', default: false },
      ...OVERLAY_OPTIONS,
    },
  });
  const { values, positionals } = parsed;
  if (values.help) return { help: true as const, name: '', search: [] as string[], output: 'table', nodeLocal: nodeLocalOptions({}) };
  if (positionals.length !== 1) throw new UsageError(`explain: expected one NAME, got ${positionals.length}${positionals.length > 0 ? `: ${positionals.join(' ')}` : ''}; see 'explain --help'`);
  const output = values.output ?? 'table';
  if (!(OUTPUTS as readonly string[]).includes(output)) throw new UsageError(`explain: --output must be one of ${OUTPUTS.join(', ')}, not '${output}'`);
  const ndots = values.ndots;
  if (ndots !== undefined && (!/^[0-9]{1,2}$/.test(ndots) || Number(ndots) > 15)) throw new UsageError(`explain: --ndots must be a number from 0 to 15, not '${ndots}'`);
  if (values.namespace !== undefined && !isDns1123Label(values.namespace)) throw new UsageError(`explain: --namespace '${values.namespace}' is not a namespace name (a DNS-1123 label)`);
  const name = positionals[0] as string;
  if (name.trim() === '' || /\s/.test(name.trim())) throw new UsageError(`explain: '${name}' is not a query name`);
  return {
    help: false as const,
    name,
    nodeLocal: nodeLocalOptions(values),
    kubeDnsFile: values['kube-dns'],
    deploymentFile: values['kube-dns-deployment'],
    corefileFile: values.corefile,
    overlay: overlayArgs('explain', values, checkClusterDomain('explain', values['cluster-domain'])),
    namespace: values.namespace,
    clusterDomain: checkClusterDomain('explain', values['cluster-domain']),
    search: values.search ?? [],
    ndots: ndots === undefined ? undefined : Number(ndots),
    kubeDnsVersion: checkKubeDnsVersion('explain', values['kube-dns-version']),
    port: checkPort('explain', values.port),
    output,
  };
}
