import { corefilesEqual } from '../corefile/compare.js';
import type { Corefile, Directive } from '../corefile/model.js';
import { parseCorefile } from '../corefile/parser.js';
import { parseServerKey, zoneAddressKeys } from '../corefile/server-key.js';
import { coreDnsPluginAvailability, isUsable } from '../coredns/availability.js';
import type { CoreDnsFeatures } from '../coredns/features.js';
import { HEALTH_DEFAULT_ADDRESS, healthListenersOfBlock } from '../coredns/listen-addresses.js';

/** The translator produced a Corefile that fails its own checks: a bug, never a data problem. */
export class SelfCheckError extends Error {
  override readonly name = 'SelfCheckError';
}

/**
 * Every Corefile the translator emits (`text`, printed from `model`) must read back as that
 * model, with keys CoreDNS accepts, no zone served twice, and only plugins the target release
 * has. Throws {@link SelfCheckError} otherwise.
 */
export function checkTranslatedCorefile(text: string, model: Corefile, features: CoreDnsFeatures): void {
  const reparsed = parseCorefile(text).corefile;
  // Equal models print the same text (that is what corefilesEqual means), so this is the check
  // "the reparsed model prints `text`", made by walking both models instead of printing again.
  if (!corefilesEqual(reparsed, model)) throw new SelfCheckError('the printed Corefile does not parse back to the translated model');
  const served = new Set<string>();
  const usable = new Set<string>();
  let healthListeners = 0;
  for (const item of reparsed.items) {
    if (item.kind !== 'server-block') continue;
    if (item.directives.some((directive) => directive.name === 'health')) healthListeners += healthListenersOfBlock(features, item.keys.length);
    for (const key of item.keys) {
      for (const address of zoneAddressKeys(parseServerKey(key))) {
        if (served.has(address)) throw new SelfCheckError(`zone ${address} is served twice`);
        served.add(address);
      }
    }
    let forwarders = 0;
    for (const directive of item.directives) if (directive.name === 'forward') forwarders += 1;
    if (forwarders > 1 && !features.multipleForwardPerBlock) throw new SelfCheckError('two forward directives in one block');
    for (const directive of item.directives) checkDirective(directive, features, usable);
  }
  // The translator writes health without an address: every listener is on the default one.
  if (features.healthListener === 'exclusive' && healthListeners > 1) {
    throw new SelfCheckError(`health would listen ${healthListeners} times on ${HEALTH_DEFAULT_ADDRESS}, which CoreDNS ${features.version} refuses`);
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
