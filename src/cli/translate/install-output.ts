import { buildCoreDnsInstall } from '../../install/install.js';
import type { CoreDnsInstallOptions } from '../../install/install.js';
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { KubeDnsInstall } from '../../kubedns/kube-dns-install.js';
import type { CliIo } from '../io.js';
import type { Reporter } from '../reporter.js';
import { ExitCode } from '../usage-error.js';

/**
 * `-o install`: the whole CoreDNS install for `kubectl apply -f -` on stdout, the translation's
 * and the install's diagnostics on stderr; exit 1 when the translation is refused.
 */
export function runInstallOutput(install: KubeDnsInstall, options: CoreDnsInstallOptions, io: CliIo, reporter: Reporter, place: (diagnostics: readonly Diagnostic[]) => readonly Diagnostic[] = (diagnostics) => diagnostics): number {
  const result = buildCoreDnsInstall(install, options);
  reporter.diagnostics(place(result.diagnostics));
  if (!result.ok) {
    io.stderr.write('translation refused: no install was written (see the errors above)\n');
    return ExitCode.failed;
  }
  io.stdout.write(result.yaml);
  return ExitCode.ok;
}
