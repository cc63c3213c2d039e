import { displayName } from '../../dns/names.js';
import { checkNodeLocalDnsRouting, explainNodeLocalDns, formatNodeLocalCheck, formatNodeLocalExplanation } from '../../nodelocal/node-local-check.js';
import type { NodeLocalCheck, NodeLocalExplanation } from '../../nodelocal/node-local-check.js';
import { preflightNodeLocalDns } from '../../nodelocal/preflight.js';
import type { NodeLocalDnsPreflight } from '../../nodelocal/preflight.js';
import type { NodeLocalRoute } from '../../routing/node-local-routing.js';
import { printable } from '../../util/printable-text.js';
import { readCorefileSource } from '../corefile-source.js';
import { usingCorefile } from '../errors.js';
import { ConfigMapInputError } from '../../configmap/config-map-data.js';
import { readKubeDnsInput } from '../input/kube-dns-configmap.js';
import { readKubeDnsRoutingInput } from '../input/install.js';
import type { CliIo } from '../io.js';
import type { Reporter } from '../reporter.js';
import { ExitCode, UsageError } from '../usage-error.js';
import { nodeLocalRelease, readNodeLocalBase, requireNodeLocalFlags } from './node-local-options.js';
import type { NodeLocalCommandOptions } from './node-local-options.js';
import { routeJson, splitNotes, withInputNotes } from './report.js';

/**
 * The node-local-dns runs of `check` and `explain` (`--node-local-dns RELEASE`): the pre-flight,
 * the two-tier check and the two-tier explanation. Loaded only when `--node-local-dns` is given.
 */

function stdinTwice(files: readonly (string | undefined)[]): boolean {
  return files.filter((file) => file === '-').length > 1;
}

/**
 * The settings both commands share, checked and read. The pre-flight (`configmap`) reads the
 * ConfigMap alone, as node-cache does, and names the other objects as not read; the two-tier runs
 * (`install`) read the whole install as plain `check` does, since the kube-dns-alone column follows
 * the Deployment (in the `--kube-dns` file or `--kube-dns-deployment FILE`).
 */
async function readSettings(options: NodeLocalCommandOptions, io: CliIo, reading: 'configmap' | 'install') {
  const { command } = options;
  const release = nodeLocalRelease(command, options.release);
  if (stdinTwice([options.kubeDnsFile, options.corefileFile, options.baseFile, options.deploymentFile])) {
    throw new UsageError(`${command}: only one of --kube-dns, --kube-dns-deployment, --corefile and --node-local-dns-base can read standard input`);
  }
  const { localIps, upstreamIp } = options;
  const baseCorefile = await readNodeLocalBase(options.baseFile, io);
  const kubeDnsInput = reading === 'configmap' ? await configMapAlone(options.kubeDnsFile, io) : await readKubeDnsRoutingInput(options.kubeDnsFile, options.deploymentFile, io);
  // node-cache reads the ConfigMap: without one there is nothing to route (as the pre-flight says).
  if (kubeDnsInput.data === null) throw new ConfigMapInputError('no-configmap', 'no ConfigMap found (expected kind: ConfigMap, a List or ConfigMapList of them, or a data map)', { filename: options.kubeDnsFile });
  return { release, localIps, upstreamIp, baseCorefile, kubeDnsInput };
}

async function configMapAlone(file: string, io: CliIo) {
  const document = await readKubeDnsInput(file, undefined, io, 'node-cache');
  return { data: document.data, deployment: undefined, diagnostics: document.diagnostics, locate: document.locate };
}

/**
 * `check --node-local-dns RELEASE --kube-dns FILE` without `--corefile`: the pre-flight. Exit 0 when
 * node-cache takes the ConfigMap and the Corefile it writes loads, 1 otherwise, with the reason.
 */
export async function runNodeLocalPreflight(options: NodeLocalCommandOptions, io: CliIo, reporter: Reporter): Promise<number> {
  const { release, localIps, upstreamIp, baseCorefile, kubeDnsInput } = await readSettings(options, io, 'configmap');
  const preflight = preflightNodeLocalDns(release, kubeDnsInput.data, {
    ...(localIps === undefined ? {} : { localIps }),
    ...(upstreamIp === undefined ? {} : { clusterDnsIp: upstreamIp }),
    ...(baseCorefile === undefined ? {} : { baseCorefile }),
    ...(options.clusterDomain === undefined ? {} : { clusterDomain: options.clusterDomain }),
  });
  if (options.output === 'json') {
    reporter.json(preflightJson(preflight, kubeDnsInput.diagnostics.map((entry) => entry.message)));
  } else {
    reporter.diagnostics([...kubeDnsInput.diagnostics, ...preflight.diagnostics]);
    io.stdout.write(`${preflightVerdict(preflight)}\n`);
  }
  return preflight.loads ? ExitCode.ok : ExitCode.failed;
}

function preflightVerdict(preflight: NodeLocalDnsPreflight): string {
  const who = `node-cache ${preflight.release} (CoreDNS ${preflight.coreDns})`;
  if (preflight.loads) return `${who} takes this ConfigMap, and the Corefile it writes loads.`;
  if (!preflight.accepted) return `${who} refuses this ConfigMap: ${printable(preflight.reason ?? '')}`;
  return `${who} takes this ConfigMap, but ${printable(preflight.reason ?? '')}`;
}

function preflightJson(preflight: NodeLocalDnsPreflight, inputNotes: readonly string[]) {
  return {
    release: preflight.release,
    coreDns: preflight.coreDns,
    accepted: preflight.accepted,
    loads: preflight.loads,
    ...(preflight.reason === undefined ? {} : { reason: preflight.reason }),
    ...(preflight.result.ok ? { corefile: preflight.result.corefile } : { rejected: preflight.result.rejected }),
    diagnostics: preflight.diagnostics,
    notes: [...inputNotes, ...preflight.result.notes.map((note) => note.message)],
  };
}

async function twoTierInput(options: NodeLocalCommandOptions, io: CliIo) {
  const { command } = options;
  if (options.corefileFile === undefined) throw new UsageError(`${command}: --corefile FILE is required with --node-local-dns; see '${command} --help'`);
  requireNodeLocalFlags(command, { '--local-ip': options.localIps, '--upstream-ip': options.upstreamIp });
  const settings = await readSettings(options, io, 'install');
  const source = await readCorefileSource(options.corefileFile, io);
  const { kubeDnsInput } = settings;
  const input = {
    release: settings.release,
    kubeDns: kubeDnsInput.data,
    ...(kubeDnsInput.deployment === undefined ? {} : { kubeDnsDeployment: kubeDnsInput.deployment }),
    ...(kubeDnsInput.locate === undefined ? {} : { kubeDnsLocate: kubeDnsInput.locate }),
    localIps: settings.localIps as string,
    upstreamIp: settings.upstreamIp as string,
    ...(settings.baseCorefile === undefined ? {} : { baseCorefile: settings.baseCorefile }),
    ...(options.clusterDomain === undefined ? {} : { clusterDomain: options.clusterDomain }),
    ...(options.kubeDnsVersion === undefined ? {} : { kubeDnsVersion: options.kubeDnsVersion }),
    ...(options.port === undefined ? {} : { port: options.port }),
  };
  return { input, source, inputDiagnostics: kubeDnsInput.diagnostics };
}

/** `check --node-local-dns RELEASE --kube-dns FILE --corefile FILE --local-ip … --upstream-ip …`: the two-tier check. */
export async function runNodeLocalCheck(options: NodeLocalCommandOptions, names: readonly string[], io: CliIo, reporter: Reporter): Promise<number> {
  const { input, source, inputDiagnostics } = await twoTierInput(options, io);
  const result: NodeLocalCheck = withInputNotes(
    usingCorefile(source, (corefile) => checkNodeLocalDnsRouting({ ...input, corefile, names })),
    inputDiagnostics,
  );
  if (options.output === 'json') {
    reporter.json(checkJson(result));
  } else {
    reporter.diagnostics(result.preflight.diagnostics);
    const [summary, notes] = splitNotes(formatNodeLocalCheck(result));
    io.stdout.write(summary);
    reporter.info(notes);
  }
  return result.ok ? ExitCode.ok : ExitCode.failed;
}

function twoTierJson(route: NodeLocalRoute) {
  return { nodeLocal: routeJson(route.nodeLocal), ...(route.coreDns === undefined ? {} : { coreDns: routeJson(route.coreDns) }), final: routeJson(route.final) };
}

function checkJson(result: NodeLocalCheck) {
  const { preflight } = result;
  return {
    ok: result.ok,
    release: preflight.release,
    coreDns: preflight.coreDns,
    accepted: preflight.accepted,
    loads: preflight.loads,
    ...(preflight.reason === undefined ? {} : { reason: preflight.reason }),
    checked: result.names.length,
    differences: result.differences.map((difference) => ({
      name: displayName(difference.name),
      twoTier: twoTierJson(difference.twoTier),
      coreDnsAlone: routeJson(difference.coreDns),
      kubeDnsAlone: routeJson(difference.kubeDns),
    })),
    diagnostics: preflight.diagnostics,
    notes: result.notes,
    names: result.names.map(displayName),
  };
}

/** The resolver settings of `explain`. */
export interface ResolverOptions {
  readonly namespace: string | undefined;
  readonly ndots: number | undefined;
  readonly search: readonly string[];
}

/** `explain NAME --node-local-dns RELEASE …`: both tiers for each name the resolver tries. */
export async function runNodeLocalExplain(name: string, options: NodeLocalCommandOptions, resolver: ResolverOptions, io: CliIo, reporter: Reporter): Promise<number> {
  const { input, source, inputDiagnostics } = await twoTierInput(options, io);
  const explanation: NodeLocalExplanation = withInputNotes(
    usingCorefile(source, (corefile) =>
      explainNodeLocalDns(name, {
        ...input,
        corefile,
        searchPath: resolver.search,
        ...(resolver.namespace === undefined ? {} : { namespace: resolver.namespace }),
        ...(resolver.ndots === undefined ? {} : { ndots: resolver.ndots }),
      }),
    ),
    inputDiagnostics,
  );
  if (options.output === 'json') {
    reporter.json(explanationJson(explanation));
  } else {
    reporter.diagnostics(explanation.preflight.diagnostics);
    const [table, notes] = splitNotes(formatNodeLocalExplanation(explanation));
    io.stdout.write(table);
    reporter.info(notes);
  }
  return explanation.preflight.accepted ? ExitCode.ok : ExitCode.failed;
}

function explanationJson(explanation: NodeLocalExplanation) {
  const { preflight } = explanation;
  return {
    query: explanation.query,
    release: preflight.release,
    accepted: preflight.accepted,
    loads: preflight.loads,
    ...(preflight.reason === undefined ? {} : { reason: preflight.reason }),
    searchPath: explanation.searchPath.map(displayName),
    ndots: explanation.ndots,
    candidates: explanation.candidates.map((candidate) => ({
      name: displayName(candidate.name),
      twoTier: twoTierJson(candidate.twoTier),
      coreDnsAlone: routeJson(candidate.coreDns),
      kubeDnsAlone: routeJson(candidate.kubeDns),
      same: candidate.same,
    })),
    notes: explanation.notes,
  };
}
