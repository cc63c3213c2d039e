import { dnsNameProblem } from '../../dns/query-names.js';
import { commandPrefix } from '../command.js';
import type { OptionSpec } from '../command.js';
import { UsageError } from '../usage-error.js';

/**
 * The option reader of `check --name` and `explain --search` (apart from options.ts, whose readers
 * every command loads at start-up, so that only the routing commands load the name check).
 */

/**
 * DNS names that may be given several times (`check --name`, `explain --search`): each as
 * {@link dnsNameProblem} takes it (`root`: whether `.` is one), or the option is refused naming it.
 */
export function repeatedNames(root: boolean): OptionSpec<readonly string[]> {
  return {
    type: 'string',
    multiple: true,
    parse: (given, site) => {
      const names = Array.isArray(given) ? (given as readonly string[]) : [];
      for (const name of names) {
        const problem = dnsNameProblem(name, root);
        if (problem !== undefined) throw new UsageError(`${commandPrefix(site.command)}${site.option}: '${name}' is not a DNS name: ${problem}`);
      }
      return names;
    },
  };
}

