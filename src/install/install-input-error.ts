/**
 * The input error of the install builders (install.ts, cutover.ts), apart so that the CLI's option
 * readers check `--image` without loading the install (and its YAML writer) at start-up.
 *
 * Pure: no Node APIs.
 */
import { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';

/** Why an install cannot be built from what was given (`invalid-field`: an option that is not what it names, an `image` that is no image reference). */
export type CoreDnsInstallInputErrorCode = 'cluster-dns-ip-required' | 'cluster-dns-ip-conflict' | 'service-without-cluster-ip' | 'service-without-selector' | 'workload-is-pod' | 'invalid-field';

export class CoreDnsInstallInputError extends KubeDnsToCoreDnsError {
  override readonly name = 'CoreDnsInstallInputError';
  readonly category = 'input';
  declare readonly code: CoreDnsInstallInputErrorCode;

  constructor(code: CoreDnsInstallInputErrorCode, reason: string) {
    super(code, reason);
  }
}

