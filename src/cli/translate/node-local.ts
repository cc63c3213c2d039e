import { locateValueDiagnostics } from '../../kubedns/locate-diagnostics.js';
import { preflightNodeLocalDns } from '../../nodelocal/preflight.js';
import { readKubeDnsInput } from '../input/kube-dns-configmap.js';
import type { CliIo } from '../io.js';
import { clusterDomain as clusterDomainOption, ipAddress, ipAddressList, port as portOption } from '../options.js';
import type { Reporter } from '../reporter.js';
import { nodeLocalRelease, readNodeLocalBase, requireNodeLocalFlags } from '../routing/node-local-options.js';
import { ExitCode, UsageError } from '../usage-error.js';

/** The command line of `--node-local-dns RELEASE`. */
export interface NodeLocalDnsArguments {
  readonly release: string;
  readonly file: string | undefined;
  readonly localIps: string | undefined;
  readonly upstreamIp: string | undefined;
  readonly base: string | undefined;
  readonly port: string | undefined;
  readonly clusterDomain: string | undefined;
}

/**
 * `--node-local-dns RELEASE`: the Corefile node-cache of that release writes from the ConfigMap
 * (docs/node-local-dns.md), or its refusal (exit 1). Diagnostics and notes go to stderr; a Corefile
 * node-cache writes but its CoreDNS does not load is printed all the same, with the errors.
 */
export async function runNodeLocalDnsMode(args: NodeLocalDnsArguments, io: CliIo, reporter: Reporter): Promise<number> {
  const release = nodeLocalRelease('', args.release);
  requireNodeLocalFlags('', { '--local-ip': args.localIps, '--upstream-ip': args.upstreamIp });
  // Read here, once the mode is known: the translator reads --cluster-domain and --port its own way.
  const site = (option: string, command = '--node-local-dns') => ({ command, option });
  const localIps = ipAddressList().parse(args.localIps, site('--local-ip', '')) as string;
  const upstreamIp = ipAddress().parse(args.upstreamIp, site('--upstream-ip', '')) as string;
  const clusterDomain = clusterDomainOption().parse(args.clusterDomain, site('--cluster-domain'));
  const port = portOption().parse(args.port, site('--port'));
  if (args.file === '-' && args.base === '-') throw new UsageError('the kube-dns ConfigMap and --node-local-dns-base cannot both read standard input');
  const baseCorefile = await readNodeLocalBase(args.base, io);
  const input = await readKubeDnsInput(args.file, undefined, io, 'node-cache');
  reporter.diagnostics(input.diagnostics);
  const preflight = preflightNodeLocalDns(release, input.data, {
    localIps,
    clusterDnsIp: upstreamIp,
    ...(baseCorefile === undefined ? {} : { baseCorefile }),
    ...(port === undefined ? {} : { port }),
    ...(clusterDomain === undefined ? {} : { clusterDomain }),
  });
  reporter.diagnostics(locateValueDiagnostics(preflight.diagnostics, input));
  for (const note of preflight.result.notes) reporter.note(note.message);
  const { result } = preflight;
  if (!result.ok) {
    reporter.error(`node-cache ${release} refuses the update: ${result.reason}`);
    return ExitCode.failed;
  }
  io.stdout.write(result.corefile);
  if (!preflight.loads) reporter.warning(preflight.reason ?? '');
  return ExitCode.ok;
}
