import { parseGoIP } from '../../dns/go-net.js';
import { nodeCacheProfile } from '../../nodelocal/node-cache-releases.js';
import { readCorefileSource } from '../corefile-source.js';
import { optionValue, usingCorefile } from '../errors.js';
import type { CliIo } from '../io.js';
import { UsageError } from '../usage-error.js';

/** `--node-local-dns RELEASE`: a node-cache release whose behaviour is known, normalised. */
export function nodeLocalRelease(command: string, release: string): string {
  return optionValue(command, '--node-local-dns', release, (value) => nodeCacheProfile(value).release);
}

function prefix(command: string): string {
  return command === '' ? '' : `${command}: `;
}

/** The flags a node-local-dns run cannot do without, named together when missing. */
export function requireNodeLocalFlags(command: string, given: Readonly<Record<string, string | undefined>>): void {
  const missing = Object.entries(given)
    .filter(([, value]) => value === undefined)
    .map(([flag]) => flag);
  if (missing.length > 0) throw new UsageError(`${prefix(command)}--node-local-dns needs ${missing.join(' and ')}; see '${command === '' ? '' : `${command} `}--help'`);
}

/** `--local-ip IP[,IP…]`, node-cache's `-localip`: every part an IP address (node-cache does not start otherwise). */
export function checkLocalIps(command: string, localIps: string): string {
  for (const part of localIps.split(',')) {
    if (parseGoIP(part) === undefined) throw new UsageError(`${prefix(command)}--local-ip: '${part}' is not an IP address (node-cache does not start with it)`);
  }
  return localIps;
}

/** `--upstream-ip IP`: the kube-dns-upstream ClusterIP. */
export function checkUpstreamIp(command: string, upstreamIp: string): string {
  if (parseGoIP(upstreamIp) === undefined) throw new UsageError(`${prefix(command)}--upstream-ip: '${upstreamIp}' is not an IP address`);
  return upstreamIp;
}

/** `--node-local-dns-base FILE`: the node-local-dns ConfigMap (its `Corefile` key) or the bare Corefile; undefined without FILE. */
export async function readNodeLocalBase(file: string | undefined, io: CliIo): Promise<string | undefined> {
  if (file === undefined) return undefined;
  const source = await readCorefileSource(file, io, ['node-local-dns']);
  const base = usingCorefile(source, (corefile) => corefile);
  // An empty base (a kubectl command that printed nothing) would leave node-local-dns serving the stub domains alone.
  if (base.trim() === '') throw new UsageError(`--node-local-dns-base ${source.name}: the Corefile is empty; give the node-local-dns ConfigMap or its Corefile`);
  return base;
}

/** The options that only go with `--node-local-dns RELEASE`. */
export const NODE_LOCAL_OPTIONS = ['local-ip', 'upstream-ip', 'node-local-dns-base'] as const;

/** `--node-local-dns RELEASE` and the options that go with it, as given. */
export function nodeLocalOptions(values: { readonly [option: string]: unknown }): {
  readonly release: string | undefined;
  readonly given: Readonly<Record<(typeof NODE_LOCAL_OPTIONS)[number], string | undefined>>;
} {
  const text = (option: string): string | undefined => (typeof values[option] === 'string' ? (values[option] as string) : undefined);
  return {
    release: text('node-local-dns'),
    given: { 'local-ip': text('local-ip'), 'upstream-ip': text('upstream-ip'), 'node-local-dns-base': text('node-local-dns-base') },
  };
}

/** The node-local-dns options of `check` and `explain`, as parsed. */
export interface NodeLocalCommandOptions {
  readonly command: 'check' | 'explain';
  readonly release: string;
  readonly kubeDnsFile: string;
  readonly corefileFile: string | undefined;
  readonly localIps: string | undefined;
  readonly upstreamIp: string | undefined;
  readonly baseFile: string | undefined;
  readonly clusterDomain: string | undefined;
  readonly kubeDnsVersion: string | undefined;
  readonly port: string | undefined;
  readonly output: string;
}

/** What `check` and `explain` parsed, as far as their node-local-dns runs read it. */
interface ParsedRoutingOptions {
  readonly corefileFile: string | undefined;
  readonly nodeLocal: ReturnType<typeof nodeLocalOptions>;
  readonly clusterDomain: string | undefined;
  readonly kubeDnsVersion: string | undefined;
  readonly port: string | undefined;
  readonly output: string;
}

/** The node-local-dns run of `check` or `explain` (`--node-local-dns RELEASE` given). */
export function nodeLocalCommandOptions(command: NodeLocalCommandOptions['command'], release: string, kubeDnsFile: string, options: ParsedRoutingOptions): NodeLocalCommandOptions {
  return {
    command,
    release,
    kubeDnsFile,
    corefileFile: options.corefileFile,
    localIps: options.nodeLocal.given['local-ip'],
    upstreamIp: options.nodeLocal.given['upstream-ip'],
    baseFile: options.nodeLocal.given['node-local-dns-base'],
    clusterDomain: options.clusterDomain,
    kubeDnsVersion: options.kubeDnsVersion,
    port: options.port,
    output: options.output,
  };
}
