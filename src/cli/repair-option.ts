import { isKubeDnsQuirk, KUBE_DNS_QUIRKS } from '../kubedns/kube-dns-quirks.js';
import type { KubeDnsQuirk } from '../kubedns/kube-dns-quirks.js';
import { UsageError } from './usage-error.js';

/** `--repair QUIRK[,QUIRK]` (translate and check): the kube-dns quirks to repair, each known. */
export function parseRepairOption(command: string, value: string | undefined): KubeDnsQuirk[] | undefined {
  if (value === undefined) return undefined;
  const quirks = value.split(',').map((entry) => entry.trim());
  const unknown = quirks.find((entry) => !isKubeDnsQuirk(entry));
  if (unknown !== undefined) throw new UsageError(`${command === '' ? '' : `${command}: `}--repair takes ${KUBE_DNS_QUIRKS.join(', ')} (comma-separated), not '${unknown}'`);
  return [...new Set(quirks as KubeDnsQuirk[])];
}
