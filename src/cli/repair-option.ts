import { isKubeDnsQuirk, KUBE_DNS_QUIRKS } from '../kubedns/kube-dns-quirks.js';
import type { KubeDnsQuirk } from '../kubedns/kube-dns-quirks.js';
import type { OptionSpec } from './command.js';
import { stringOption } from './options.js';
import { UsageError } from './usage-error.js';
import { commandPrefix } from './command.js';

/** `--repair QUIRK[,QUIRK]` (translate and check): the kube-dns quirks to repair, each known. */
export function repair(): OptionSpec<readonly KubeDnsQuirk[] | undefined> {
  return stringOption((value, site) => {
    const quirks = value.split(',').map((entry) => entry.trim());
    const unknown = quirks.find((entry) => !isKubeDnsQuirk(entry));
    if (unknown !== undefined) throw new UsageError(`${commandPrefix(site.command)}${site.option}: takes ${KUBE_DNS_QUIRKS.join(', ')} (comma-separated), not '${unknown}'`);
    return [...new Set(quirks as KubeDnsQuirk[])];
  });
}
