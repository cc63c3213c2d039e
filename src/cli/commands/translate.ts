import { parseCoreDnsVersion } from '../../coredns/versions.js';
import { kubeDnsRules } from '../../kubedns/kube-dns-versions.js';
import { optionValue } from '../errors.js';
import { MAIN_HELP } from '../help.js';
import type { CliIo } from '../io.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { ExitCode, UsageError } from '../usage-error.js';
import type { TranslateArguments } from './translate-input.js';

/**
 * `kube-dns-to-coredns [options] [FILE|-]`: parses the arguments, then loads only the translator
 * the run needs (the kubeadm profiles or the default translator), which keeps start-up short.
 */

/** Options of the default translator that `--kubeadm` and `--node-local-dns` do not take. */
const DEFAULT_MODE_ONLY = ['coredns', 'output', 'drop-federations', 'force', 'kube-dns-version', 'cluster-dns-ip', 'merge', 'kube-dns-deployment', 'kube-dns-service', 'image'] as const;
/** Options of `--node-local-dns` only. */
const NODE_LOCAL_ONLY = ['local-ip', 'upstream-ip', 'node-local-dns-base', 'port'] as const;

export async function runTranslate(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseTranslateArgs(argv);
  if (values.help) {
    io.stdout.write(MAIN_HELP);
    return ExitCode.ok;
  }
  if (positionals.length > 1) throw new UsageError(`expected at most one FILE, got ${positionals.length}: ${positionals.join(' ')}`);
  if (values['cluster-domain'] !== undefined && values['dns-domain'] !== undefined) {
    throw new UsageError('--cluster-domain and --dns-domain are the same option; give one');
  }
  if (values.kubeadm !== undefined) {
    const misplaced = DEFAULT_MODE_ONLY.find((option) => values[option] !== undefined);
    if (misplaced !== undefined) throw new UsageError(`--${misplaced} belongs to the default translator; --kubeadm reproduces kubeadm exactly`);
  }
  if (values['node-local-dns'] === undefined) {
    const misplaced = NODE_LOCAL_ONLY.find((option) => values[option] !== undefined);
    if (misplaced !== undefined) throw new UsageError(`--${misplaced} belongs to --node-local-dns RELEASE`);
  } else {
    if (values.kubeadm !== undefined) throw new UsageError('--kubeadm and --node-local-dns are two profiles; give one');
    const misplaced = DEFAULT_MODE_ONLY.find((option) => values[option] !== undefined) ?? (values.batch ? 'batch' : values.name !== undefined ? 'name' : undefined);
    if (misplaced !== undefined) throw new UsageError(`--${misplaced} does not go with --node-local-dns, which reproduces node-cache exactly`);
    const { runNodeLocalDnsMode } = await import('./translate-node-local.js');
    return runNodeLocalDnsMode(
      {
        release: values['node-local-dns'],
        file: positionals[0],
        localIps: values['local-ip'],
        upstreamIp: values['upstream-ip'],
        base: values['node-local-dns-base'],
        port: values.port,
        clusterDomain: values['cluster-domain'] ?? values['dns-domain'],
      },
      io,
    );
  }
  const { coredns, 'kube-dns-version': kubeDnsVersion } = values;
  const args: TranslateArguments = {
    file: positionals[0],
    name: values.name,
    batch: values.batch,
    clusterDomain: values['cluster-domain'] ?? values['dns-domain'],
    // Parsed here, once, before any input is read; the library gets the release it names.
    coredns: coredns === undefined ? undefined : optionValue('', '--coredns', coredns, parseCoreDnsVersion),
    output: values.output,
    merge: values.merge,
    dropFederations: values['drop-federations'] === true,
    force: values.force === true,
    kubeDnsVersion: kubeDnsVersion === undefined ? undefined : optionValue('', '--kube-dns-version', kubeDnsVersion, (value) => kubeDnsRules(value).version),
    clusterDnsIp: values['cluster-dns-ip'],
    deploymentFile: values['kube-dns-deployment'],
    serviceFile: values['kube-dns-service'],
    image: values.image,
  };
  if (values.kubeadm !== undefined) {
    const { runKubeadmMode } = await import('./translate-kubeadm.js');
    return runKubeadmMode(values.kubeadm, args, io);
  }
  const { runDefaultMode } = await import('./translate-default.js');
  return runDefaultMode(args, io);
}

function parseTranslateArgs(argv: readonly string[]) {
  return parseCommandArgs('', argv, {
    allowPositionals: true,
    options: {
      kubeadm: { type: 'string' },
      'node-local-dns': { type: 'string' },
      'local-ip': { type: 'string' },
      'upstream-ip': { type: 'string' },
      'node-local-dns-base': { type: 'string' },
      port: { type: 'string' },
      coredns: { type: 'string' },
      'cluster-domain': { type: 'string' },
      'dns-domain': { type: 'string' },
      output: { type: 'string', short: 'o' },
      merge: { type: 'string' },
      'drop-federations': { type: 'boolean' },
      force: { type: 'boolean' },
      'kube-dns-version': { type: 'string' },
      'cluster-dns-ip': { type: 'string' },
      'kube-dns-deployment': { type: 'string' },
      'kube-dns-service': { type: 'string' },
      image: { type: 'string' },
      name: { type: 'string' },
      batch: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
}
