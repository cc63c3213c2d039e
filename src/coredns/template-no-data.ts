/**
 * A template's lines for answering NOERROR with no record (NODATA), as dnsmasq answered the other
 * types of an `--address` zone (before 2.86) and of names without a dot.
 *
 * Pure data: no Node APIs.
 */
import type { Directive } from '../corefile/model.js';
import { missingRequiredLines } from './plugin-syntax.js';
import type { CoreDnsVersion } from './versions.js';

/**
 * `rcode NOERROR` (or `code`: REFUSED, as dnsmasq 2.86+ answers the types nothing serves for names
 * without a dot), and where `version` refuses a template without a record in a section its setup
 * counts (CoreDNS up to 1.5.0, src/coredns/plugin-syntax.ts) an SOA of `zone` in the section that
 * counts besides the answer (authority from 1.1.3, additional before). TTL and minimum 0: the
 * client still reads NOERROR without records and has nothing to cache, as with dnsmasq's answer.
 */
export function noDataLines(zone: string, version: CoreDnsVersion, code: 'NOERROR' | 'REFUSED' = 'NOERROR'): Directive[] {
  const rcode: Directive = { name: 'rcode', arguments: [code] };
  const section = missingRequiredLines('template', [rcode], version)?.find((line) => line !== 'answer');
  if (section === undefined) return [rcode];
  const bare = zone.replace(/\.$/, '');
  const owner = bare === '' ? '.' : `${bare}.`;
  return [rcode, { name: section, arguments: [`${owner} 0 IN SOA ${owner} ${owner} 1 0 0 0 0`] }];
}
