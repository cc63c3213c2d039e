import { nodeCacheProfile } from '../../nodelocal/node-cache-releases.js';
import { commandPrefix, helpHint } from '../command.js';
import type { MisplacedRule, OutputSpec } from '../command.js';
import { readCorefileSource } from '../corefile-source.js';
import { usingCorefile } from '../errors.js';
import type { CliIo } from '../io.js';
import { ipAddress, ipAddressList, optionValue, text } from '../options.js';
import { UsageError } from '../usage-error.js';

/** `--node-local-dns RELEASE`: a node-cache release whose behaviour is known, normalised. */
export function nodeLocalRelease(command: string, release: string): string {
  return optionValue(command, '--node-local-dns', release, (value) => nodeCacheProfile(value).release);
}

/** The flags a node-local-dns run cannot do without, named together when missing. */
export function requireNodeLocalFlags(command: string, given: Readonly<Record<string, string | undefined>>): void {
  const missing = Object.entries(given)
    .filter(([, value]) => value === undefined)
    .map(([flag]) => flag);
  if (missing.length > 0) throw new UsageError(`${commandPrefix(command)}--node-local-dns needs ${missing.join(' and ')}; see ${command === '' ? "'--help'" : helpHint(command)}`);
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

/** The options that only go with `--node-local-dns RELEASE` in `check` and `explain`. */
const NODE_LOCAL_OPTIONS = ['local-ip', 'upstream-ip', 'node-local-dns-base'] as const;

/** `--node-local-dns RELEASE` and its options, as `check` and `explain` declare them. */
export const NODE_LOCAL_OPTION_SPECS = {
  'node-local-dns': text(),
  'local-ip': ipAddressList(),
  'upstream-ip': ipAddress(),
  'node-local-dns-base': text(),
} as const;

/** The rules of `check` and `explain` for the options that go, or do not go, with `--node-local-dns`. */
export function nodeLocalMisplaced(command: 'check' | 'explain'): readonly MisplacedRule[] {
  return [
    { without: 'node-local-dns', options: NODE_LOCAL_OPTIONS, message: (option) => `${command}: --${option} belongs to --node-local-dns RELEASE; see '${command} --help'` },
  ];
}

/** The outputs of `check` and `explain`: the table (`table` was its name before 0.2) or JSON. */
export const ROUTING_OUTPUTS: OutputSpec<'text' | 'json'> = { kinds: ['text', 'json'], aliases: { table: 'text' } };

/** The node-local-dns settings of `check` and `explain`, as parsed. */
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
  /** `--kube-dns-deployment FILE`: the kube-dns column of the two-tier runs follows it. */
  readonly deploymentFile: string | undefined;
  readonly output: 'text' | 'json';
}

/** The option values of `check` and `explain` a node-local-dns run reads. */
interface RoutingOptionValues {
  readonly corefile: string | undefined;
  readonly 'local-ip': string | undefined;
  readonly 'upstream-ip': string | undefined;
  readonly 'node-local-dns-base': string | undefined;
  readonly 'cluster-domain': string | undefined;
  readonly 'kube-dns-version': string | undefined;
  readonly port: string | undefined;
  readonly 'kube-dns-deployment': string | undefined;
}

/** The node-local-dns run of `check` or `explain` (`--node-local-dns RELEASE` given). */
export function nodeLocalCommandOptions(
  command: NodeLocalCommandOptions['command'],
  release: string,
  kubeDnsFile: string,
  values: RoutingOptionValues,
  output: NodeLocalCommandOptions['output'],
): NodeLocalCommandOptions {
  return {
    command,
    release,
    kubeDnsFile,
    corefileFile: values.corefile,
    localIps: values['local-ip'],
    upstreamIp: values['upstream-ip'],
    baseFile: values['node-local-dns-base'],
    clusterDomain: values['cluster-domain'],
    kubeDnsVersion: values['kube-dns-version'],
    port: values.port,
    deploymentFile: values['kube-dns-deployment'],
    output,
  };
}
