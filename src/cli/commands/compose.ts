import { CorefileSyntaxError } from '../../corefile/errors.js';
import { parseCorefile } from '../../corefile/parser.js';
import { composeOverlay } from '../../platform/compose.js';
import { defineCommand } from '../command.js';
import type { CommandContext } from '../command.js';
import { clusterDomain } from '../options.js';
import { OVERLAY_OPTIONS, overlayArgs } from '../overlay-options.js';
import { readOverlaySource } from '../overlay-source.js';
import { ExitCode, UsageError } from '../usage-error.js';

export const COMPOSE_HELP = `Usage: kube-dns-to-coredns compose --platform aks|k3s|k3s-legacy | --base FILE
                                  [--cluster-domain DOMAIN] [CUSTOM|-]

Print the Corefile CoreDNS reads when a coredns-custom ConfigMap (CUSTOM) is imported
into a platform's base Corefile: each import of the custom directory (import
custom/*.override inside the .:53 block, import custom/*.server at the top level) is
replaced by the keys it matches, in lexical order, as CoreDNS's import expands it. A
pattern that matches nothing imports nothing. See docs/platforms.md.

Options:
  --platform P             the bundled base of platform P: aks (the AKS default since
                           2024-10), k3s (manifests/coredns.yaml after k3s-io/k3s#12980),
                           k3s-legacy (before it: *.override after forward .)
  --base FILE              the base Corefile the cluster really runs (a Corefile or the
                           coredns ConfigMap), its imports read from /etc/coredns
  --cluster-domain DOMAIN  the cluster domain filled into the platform's base (cluster.local)
  -q, --quiet              warnings and errors only: no notes
  --verbose                taken as every command takes it; compose's findings have no hints
  --out FILE               write the output to FILE, only on success (see the main --help)
  -h, --help               show this help

Exit status: 0 composed; 1 CoreDNS would refuse an import (a named file that is not
there, a cycle), the reason on stderr; 2 bad usage or unreadable input.

Examples:
  kubectl -n kube-system get configmap coredns-custom -o yaml | kube-dns-to-coredns compose --platform aks
  kube-dns-to-coredns compose --base coredns.yaml coredns-custom.yaml
`;

const options = { ...OVERLAY_OPTIONS, 'cluster-domain': clusterDomain() } as const;

/** `kube-dns-to-coredns compose`: see {@link COMPOSE_HELP}. */
export const composeCommand = defineCommand({
  name: 'compose',
  help: COMPOSE_HELP,
  options,
  positionals: { name: 'CUSTOM', max: 1 },
  run: runCompose,
});

async function runCompose(context: CommandContext<typeof options, never>): Promise<number> {
  const { io, positionals, report } = context;
  const overlay = overlayArgs('compose', context.options, context.options['cluster-domain']);
  if (overlay === undefined) throw new UsageError('compose: --platform P or --base FILE is required: the base Corefile the overlay is imported into');
  if (overlay.custom !== undefined && positionals.length > 0) throw new UsageError('compose: give the coredns-custom ConfigMap as --coredns-custom CUSTOM or as CUSTOM, not both');
  const source = await readOverlaySource(overlay, overlay.custom ?? positionals[0], io);
  const composition = composeOverlay(source.base.corefile, source.data, {
    ...(source.base.corefileDirectory === undefined ? {} : { corefileDirectory: source.base.corefileDirectory }),
    ...(source.base.customDirectory === undefined ? {} : { customDirectory: source.base.customDirectory }),
  });
  for (const problem of composition.problems) {
    const where = problem.key === undefined ? 'Corefile' : `coredns-custom[${problem.key}]`;
    report.warningLine(`${where}:${problem.position.line}:${problem.position.column}: CoreDNS stops: ${problem.message}`);
  }
  if (composition.problems.length > 0) return ExitCode.failed;
  // A composed text CoreDNS cannot parse (an overlay key's unclosed block, say) is refused the same
  // way, at the key and line it comes from, rather than printed as if it were a Corefile.
  try {
    parseCorefile(composition.text);
  } catch (error) {
    if (!(error instanceof CorefileSyntaxError) || error.position === undefined) throw error;
    const at = composition.locate(error.position);
    report.warningLine(`${at.key === undefined ? 'Corefile' : `coredns-custom[${at.key}]`}:${at.position.line}:${at.position.column}: CoreDNS stops: ${error.reason}`);
    return ExitCode.failed;
  }
  for (const key of composition.unimported) report.note(`${source.name}: data key '${key}' is not imported (only a file in the custom directory)`);
  io.stdout.write(composition.text);
  return ExitCode.ok;
}
