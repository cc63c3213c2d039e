import { repair } from '../repair-option.js';
import { defineCommand } from '../command.js';
import type { CommandContext, OptionValues } from '../command.js';
import { flag, kubeDnsVersion, optionValue, release, stringOption, text } from '../options.js';
import { platformBase } from '../../platform/bases.js';
import type { TranslateArguments } from '../translate/arguments.js';

/**
 * `kube-dns-to-coredns [options] [FILE|-]`, the main command: its options are read here, then only
 * the translator the run needs is loaded (the kubeadm profiles, node-cache's, or the default
 * translator), which keeps start-up short.
 */

/** Options of the default translator that `--kubeadm` and `--node-local-dns` do not take. */
const DEFAULT_MODE_ONLY = ['coredns', 'output', 'drop-federations', 'force', 'kube-dns-version', 'cluster-dns-ip', 'merge', 'kube-dns-deployment', 'kube-dns-service', 'platform', 'image', 'repair'] as const;
/** Options of `--node-local-dns` only. */
const NODE_LOCAL_ONLY = ['local-ip', 'upstream-ip', 'node-local-dns-base', 'port'] as const;

const options = {
  kubeadm: text(),
  'node-local-dns': text(),
  'local-ip': text(),
  'upstream-ip': text(),
  'node-local-dns-base': text(),
  port: text(),
  coredns: release(),
  // Taken as written: the translator and each profile check it by their own program's rules.
  'cluster-domain': text(),
  'dns-domain': text(),
  merge: text(),
  'drop-federations': flag(),
  force: flag(),
  'kube-dns-version': kubeDnsVersion(),
  'cluster-dns-ip': text(),
  'kube-dns-deployment': text(),
  'kube-dns-service': text(),
  repair: repair(),
  name: text(),
  batch: flag(),
  platform: stringOption((value, site) => optionValue(site.command, site.option, value, platformBase)),
  image: text(),
} as const;

type TranslateContext = CommandContext<typeof options, 'corefile' | 'configmap' | 'json' | 'coredns-custom' | 'eks-addon' | 'helm-values' | 'install'>;

export const translateCommand = defineCommand({
  name: '',
  // The help names releases from the plugin tables, which `--kubeadm` never loads.
  help: async () => (await import('../help.js')).MAIN_HELP,
  options,
  positionals: { name: 'FILE', max: 1 },
  outputs: { kinds: ['corefile', 'configmap', 'json', 'coredns-custom', 'eks-addon', 'helm-values', 'install'] },
  misplaced: [
    { with: 'dns-domain', options: ['cluster-domain'], message: () => '--cluster-domain and --dns-domain are the same option; give one' },
    { with: 'kubeadm', options: DEFAULT_MODE_ONLY, message: (option) => `--${option} belongs to the default translator; --kubeadm reproduces kubeadm exactly` },
    { without: 'node-local-dns', options: NODE_LOCAL_ONLY, message: (option) => `--${option} belongs to --node-local-dns RELEASE` },
    { with: 'node-local-dns', options: ['kubeadm'], message: () => '--kubeadm and --node-local-dns are two profiles; give one' },
    { with: 'node-local-dns', options: [...DEFAULT_MODE_ONLY, 'batch', 'name'], message: (option) => `--${option} does not go with --node-local-dns, which reproduces node-cache exactly` },
  ],
  // A batch's results are written to --out FILE as they come: a fleet's output is never held whole.
  streamsOutput: (values) => values.batch,
  run: runTranslate,
});

async function runTranslate(context: TranslateContext): Promise<number> {
  const { options: values, positionals } = context;
  const clusterDomain = values['cluster-domain'] ?? values['dns-domain'];
  const nodeLocal = values['node-local-dns'];
  if (nodeLocal !== undefined) {
    const { runNodeLocalDnsMode } = await import('../translate/node-local.js');
    return runNodeLocalDnsMode(
      {
        release: nodeLocal,
        file: positionals[0],
        localIps: values['local-ip'],
        upstreamIp: values['upstream-ip'],
        base: values['node-local-dns-base'],
        port: values.port,
        clusterDomain,
      },
      context.io,
      context.report,
    );
  }
  const args = translateArguments(values, positionals[0], clusterDomain, context.output);
  if (values.kubeadm !== undefined) {
    const { runKubeadmMode } = await import('../translate/kubeadm.js');
    return runKubeadmMode(values.kubeadm, args, context.io, context.report);
  }
  const { runDefaultMode } = await import('../translate/default.js');
  return runDefaultMode(args, context.io, context.report);
}

function translateArguments(values: OptionValues<typeof options>, file: string | undefined, clusterDomain: string | undefined, output: TranslateContext['output']): TranslateArguments {
  return {
    file,
    name: values.name,
    batch: values.batch,
    clusterDomain,
    coredns: values.coredns,
    output,
    merge: values.merge,
    dropFederations: values['drop-federations'],
    force: values.force,
    kubeDnsVersion: values['kube-dns-version'],
    clusterDnsIp: values['cluster-dns-ip'],
    deploymentFile: values['kube-dns-deployment'],
    serviceFile: values['kube-dns-service'],
    repair: values.repair,
    platform: values.platform,
    image: values.image,
  };
}
