import { printCorefile } from '../corefile/printer.js';
import type { Directive } from '../corefile/model.js';
import { parseCorefile } from '../corefile/parser.js';
import { parseServerKey, zoneAddressKeys } from '../corefile/server-key.js';
import { serverBlocks } from '../corefile/model.js';
import { coreDnsPluginAvailability, isUsable } from './coredns-versions.js';
import type { CoreDnsFeatures } from './coredns-versions.js';

/** The translator produced a Corefile that fails its own checks: a bug, never a data problem. */
export class SelfCheckError extends Error {
  override readonly name = 'SelfCheckError';
}

/**
 * Every Corefile the translator emits (`text`, printed from its model) must read back as that
 * model — the reparsed model prints the same text — with keys CoreDNS
 * accepts, no zone served twice, and only plugins the target release has. Throws
 * {@link SelfCheckError} otherwise.
 */
export function checkTranslatedCorefile(text: string, features: CoreDnsFeatures): void {
  const reparsed = parseCorefile(text).corefile;
  // Models are equal when they print the same (corefilesEqual), and printing is linear: comparing
  // the texts avoids building two comparable trees for a Corefile of thousands of blocks.
  if (printCorefile(reparsed) !== text) throw new SelfCheckError('the printed Corefile does not parse back to the translated model');
  const served = new Set<string>();
  const usable = new Set<string>();
  for (const block of serverBlocks(reparsed)) {
    for (const key of block.keys) {
      for (const address of zoneAddressKeys(parseServerKey(key))) {
        if (served.has(address)) throw new SelfCheckError(`zone ${address} is served twice`);
        served.add(address);
      }
    }
    const forwarders = block.directives.filter((directive) => directive.name === 'forward');
    if (forwarders.length > 1 && !features.multipleForwardPerBlock) throw new SelfCheckError('two forward directives in one block');
    for (const directive of block.directives) checkDirective(directive, features, usable);
  }
}

function checkDirective(directive: Directive, features: CoreDnsFeatures, usable: Set<string>): void {
  if (!usable.has(directive.name)) {
    const availability = coreDnsPluginAvailability(directive.name, features.version);
    if (!isUsable(availability)) throw new SelfCheckError(`plugin ${directive.name} is ${availability.status} in CoreDNS ${features.version}`);
    usable.add(directive.name);
  }
  if ((directive.name === 'forward' || directive.name === 'proxy') && directive.arguments.length < 2) {
    throw new SelfCheckError(`${directive.name} without a destination`);
  }
  if ((directive.name === 'forward' || directive.name === 'proxy') && directive.arguments.length - 1 > features.upstreamLimit.max) {
    throw new SelfCheckError(`${directive.name} with more than ${features.upstreamLimit.max} destinations`);
  }
}
