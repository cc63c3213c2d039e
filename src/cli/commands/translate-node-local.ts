import { formatDiagnostic } from '../../diagnostics/diagnostic.js';
import { preflightNodeLocalDns } from '../../nodelocal/preflight.js';
import { printable } from '../../util/printable-text.js';
import type { CliIo } from '../io.js';
import { ExitCode, UsageError } from '../usage-error.js';
import { checkClusterDomain, checkPort } from './check.js';
import { checkLocalIps, checkUpstreamIp, nodeLocalRelease, readNodeLocalBase, requireNodeLocalFlags } from './node-local-options.js';
import { readKubeDnsInput } from './translate-input.js';

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
export async function runNodeLocalDnsMode(args: NodeLocalDnsArguments, io: CliIo): Promise<number> {
  const release = nodeLocalRelease('', args.release);
  requireNodeLocalFlags('', { '--local-ip': args.localIps, '--upstream-ip': args.upstreamIp });
  const localIps = checkLocalIps('', args.localIps as string);
  const upstreamIp = checkUpstreamIp('', args.upstreamIp as string);
  const clusterDomain = checkClusterDomain('--node-local-dns', args.clusterDomain);
  const port = checkPort('--node-local-dns', args.port);
  if (args.file === '-' && args.base === '-') throw new UsageError('the kube-dns ConfigMap and --node-local-dns-base cannot both read standard input');
  const baseCorefile = await readNodeLocalBase(args.base, io);
  const input = await readKubeDnsInput(args.file, undefined, io, 'node-cache');
  for (const entry of input.diagnostics) io.stderr.write(`${formatDiagnostic(entry)}\n`);
  const preflight = preflightNodeLocalDns(release, input.data, {
    localIps,
    clusterDnsIp: upstreamIp,
    ...(baseCorefile === undefined ? {} : { baseCorefile }),
    ...(port === undefined ? {} : { port }),
    ...(clusterDomain === undefined ? {} : { clusterDomain }),
  });
  for (const entry of preflight.diagnostics) io.stderr.write(`${formatDiagnostic(entry)}\n`);
  for (const note of preflight.result.notes) io.stderr.write(`note: ${printable(note.message)}\n`);
  const { result } = preflight;
  if (!result.ok) {
    io.stderr.write(`error: node-cache ${release} refuses the update: ${printable(result.reason)}\n`);
    return ExitCode.failed;
  }
  io.stdout.write(result.corefile);
  if (!preflight.loads) io.stderr.write(`warning: ${printable(preflight.reason ?? '')}\n`);
  return ExitCode.ok;
}
