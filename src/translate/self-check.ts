import { endCommentsEqual, itemsEqual } from '../corefile/compare.js';
import { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';
import type { Corefile, Directive, ServerBlock } from '../corefile/model.js';
import { CorefilePrintError } from '../corefile/errors.js';
import { parseCorefile, parseCorefileItems } from '../corefile/parser.js';
import { printCorefile } from '../corefile/printer.js';
import { readServerAddress } from '../corefile/server-key.js';
import type { ServerAddress } from '../corefile/server-key.js';
import { coreDnsPluginAvailability, isUsable } from '../coredns/availability.js';
import type { CoreDnsFeatures } from '../coredns/features.js';
import { HEALTH_DEFAULT_ADDRESS, healthListenersOfBlock } from '../coredns/listen-addresses.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { BlockwiseErrorCheck } from '../lint/blockwise.js';
import type { CheckedBlock } from '../lint/blockwise.js';
import { lintCorefileModel } from '../lint/lint.js';

/** The translator produced a Corefile that fails its own checks: a bug, never a data problem. */
export class SelfCheckError extends KubeDnsToCoreDnsError {
  override readonly name = 'SelfCheckError';
  readonly category = 'internal';
  declare readonly code: SelfCheckErrorCode;

  constructor(code: SelfCheckErrorCode, message: string, options: { readonly cause?: unknown } = {}) {
    super(code, message, options);
  }
}

/** Which promise of the translator's output was broken. */
export type SelfCheckErrorCode =
  /** The model cannot be printed, or the printed text does not parse back to it. */
  | 'not-round-trip'
  | 'zone-served-twice'
  /** Two `health` listeners on one address, which CoreDNS refuses. */
  | 'health-listeners'
  /** Two forwarding directives in one block, before CoreDNS allowed it. */
  | 'forwarders-in-one-block'
  /** A plugin the target release does not have. */
  | 'plugin-unavailable'
  | 'no-destination'
  | 'too-many-destinations';

/**
 * The translator's last stage (docs/architecture.md, "The translator"): the printed Corefile must
 * read back as its model and pass the checks below, or the translator has a bug; and what lint finds
 * the target refuses, the translation refuses too ({@link targetRefusals}).
 */

/**
 * The text of a model the translator built (`what`: `translated`, `merged`). The printer refuses
 * only models no parser produces, so a refusal here is the translator's bug: a
 * {@link SelfCheckError} (internal), not the caller's {@link CorefilePrintError} — except
 * `output-too-large`, which only the size of the input (a merged Corefile) can cause.
 */
export function printBuiltCorefile(model: Corefile, what: string): string {
  try {
    return printCorefile(model);
  } catch (error) {
    if (!(error instanceof CorefilePrintError)) throw error;
    // Too long to print is the input's size (a merged Corefile nested 100,000 deep), not a bug:
    // the caller's input error, as `fmt` reports it.
    if (error.code === 'output-too-large') throw error;
    throw new SelfCheckError('not-round-trip', `the ${what} Corefile cannot be printed: ${error.message}`, { cause: error });
  }
}

/**
 * Every Corefile the translator emits (`text`, printed from `model`) must read back as that
 * model, with keys CoreDNS accepts, no zone served twice, and only plugins the target release
 * has. Throws {@link SelfCheckError} otherwise (and the parser's error when `text` does not parse:
 * that comes first, then "does not read back", then the rules in the Corefile's order). Returns
 * what lint finds the target refuses ({@link targetRefusals}).
 *
 * One reading of `text`, item by item: each item is compared with the model's, put through the
 * rules, and linted for the target on its own (`BlockwiseErrorCheck`, which keeps a few hundred
 * bytes per block for the rules across blocks), then let go, so that the text's model is never
 * alive whole next to the translator's. Only when that lint finds an error (or the text holds
 * something else than server blocks) is the text parsed whole and linted as before, for the
 * findings: the same verdict (test/migrate/target-check.property.test.ts holds the blockwise lint
 * to the whole lint) and the same refusals.
 */
export function checkTranslatedCorefile(text: string, model: Corefile, features: CoreDnsFeatures): Diagnostic[] {
  const items = model.items;
  const rules = new OutputRules(features);
  const lint = new BlockwiseErrorCheck(features.version);
  const checked: CheckedBlock[] = [];
  let blockwise = true;
  let same = true;
  let index = 0;
  const read = parseCorefileItems(text, {}, (item) => {
    const expected = items[index];
    index += 1;
    // The rest is still parsed: a text that does not parse says so first, as a whole parse would.
    if (!same || expected === undefined || !itemsEqual(item, expected)) {
      same = false;
      return true;
    }
    if (item.kind !== 'server-block') {
      blockwise = false;
      return true;
    }
    // The rules read each key once; lint takes those readings instead of reading the keys again.
    const addresses = rules.block(item);
    if (blockwise && addresses !== undefined) {
      try {
        checked.push(lint.block(item, { addresses, model: expected as ServerBlock }));
      } catch {
        // Left to the whole lint below, which meets the same problem.
        blockwise = false;
      }
    }
    return true;
  });
  // Equal models print the same text (that is what corefilesEqual means), so this is the check
  // "the reparsed model prints `text`", made by walking both models instead of printing again.
  if (!same || index !== items.length || !endCommentsEqual(read.endComments, model.endComments)) {
    throw new SelfCheckError('not-round-trip', 'the printed Corefile does not parse back to the translated model');
  }
  rules.finish();
  if (blockwise && !lint.hasErrors(checked, [])) return [];
  return targetRefusals(parseCorefile(text).corefile, features);
}

/**
 * The self-check's rules over the blocks of the printed Corefile, in order: the first failure is
 * kept (`failure`: what the check throws, rules after it are not run) and thrown by `finish`.
 */
class OutputRules {
  readonly #features: CoreDnsFeatures;
  /** The zones served so far, per transport and port (see {@link ServedZones}). */
  readonly #served = new ServedZones();
  readonly #usable = new Set<string>();
  #healthListeners = 0;
  failure: { readonly error: unknown } | undefined;

  constructor(features: CoreDnsFeatures) {
    this.#features = features;
  }

  /**
   * The rules over one block: its keys as read (`readServerAddress`, index for index), or
   * undefined when this block or one before it failed.
   */
  block(item: ServerBlock): readonly ServerAddress[] | undefined {
    if (this.failure !== undefined) return undefined;
    try {
      return this.#check(item);
    } catch (error) {
      this.failure = { error };
      return undefined;
    }
  }

  #check(item: ServerBlock): ServerAddress[] {
    const features = this.#features;
    const { keys, directives } = item;
    const addresses = new Array<ServerAddress>(keys.length);
    for (let index = 0; index < keys.length; index += 1) {
      const address = readServerAddress(keys[index] as string);
      for (const zone of address.zones) {
        if (!this.#served.add(address, zone)) throw new SelfCheckError('zone-served-twice', `zone ${address.transport}://${zone}:${address.port ?? ''} is served twice`);
      }
      addresses[index] = address;
    }
    let forwarders = 0;
    let health = false;
    for (const directive of directives) {
      if (directive.name === 'forward') forwarders += 1;
      else if (directive.name === 'health') health = true;
    }
    if (health) this.#healthListeners += healthListenersOfBlock(features, keys.length);
    if (forwarders > 1 && !features.multipleForwardPerBlock) throw new SelfCheckError('forwarders-in-one-block', 'two forward directives in one block');
    for (const directive of directives) checkDirective(directive, features, this.#usable);
    return addresses;
  }

  /** Throws the first failure, then what only all blocks together can break. */
  finish(): void {
    if (this.failure !== undefined) throw this.failure.error;
    const features = this.#features;
    // The translator writes health without an address: every listener is on the default one.
    if (features.healthListener === 'exclusive' && this.#healthListeners > 1) {
      throw new SelfCheckError('health-listeners', `health would listen ${this.#healthListeners} times on ${HEALTH_DEFAULT_ADDRESS}, which CoreDNS ${features.version} refuses`);
    }
  }
}

/**
 * A set of CoreDNS's served-zone keys (`transport://zone:port`, {@link addressKeysOf}) held as
 * transport → port → zones, so that no key text is built per zone (`addressKeysOf` builds them): a transport is a word without
 * `:` and a port is digits (or none), so two keys are the same text exactly when their transport,
 * zone and port are the same.
 */
class ServedZones {
  readonly #byTransport = new Map<string, Map<string, Set<string>>>();

  /** Adds the key of `zone` on `address`'s transport and port; false when it was there already. */
  add(address: ServerAddress, zone: string): boolean {
    let byPort = this.#byTransport.get(address.transport);
    if (byPort === undefined) this.#byTransport.set(address.transport, (byPort = new Map()));
    const port = address.port ?? '';
    let zones = byPort.get(port);
    if (zones === undefined) byPort.set(port, (zones = new Set()));
    if (zones.has(zone)) return false;
    zones.add(zone);
    return true;
  }
}

function checkDirective(directive: Directive, features: CoreDnsFeatures, usable: Set<string>): void {
  if (!usable.has(directive.name)) {
    const availability = coreDnsPluginAvailability(directive.name, features.version);
    if (!isUsable(availability)) throw new SelfCheckError('plugin-unavailable', `plugin ${directive.name} is ${availability.status} in CoreDNS ${features.version}`);
    usable.add(directive.name);
  }
  if ((directive.name === 'forward' || directive.name === 'proxy') && directive.arguments.length < 2) {
    throw new SelfCheckError('no-destination', `${directive.name} without a destination`);
  }
  if ((directive.name === 'forward' || directive.name === 'proxy') && directive.arguments.length - 1 > features.upstreamLimit.max) {
    throw new SelfCheckError('too-many-destinations', `${directive.name} with more than ${features.upstreamLimit.max} destinations`);
  }
}

/**
 * What lint finds the target release refuses in the translated Corefile (`parsed`: its text
 * parsed), each as a `translation-target-refuses` error: a
 * value the input carries that the release does not take (`--dns-forward-max=99999999999999999999999`
 * as max_concurrent).
 */
export function targetRefusals(parsed: Corefile, features: CoreDnsFeatures): Diagnostic[] {
  const refusals = lintCorefileModel(parsed, { coredns: features.version }, undefined, true).diagnostics.filter((finding) => finding.severity === 'error');
  return refusals.map((finding) =>
    diagnostic('translation-target-refuses', { message: `CoreDNS ${features.version} would refuse the translated Corefile (lint ${finding.code}${finding.path === undefined ? '' : ` at ${finding.path.replace(/^:\d+:\d+ ?/, '')}`}): ${finding.message}` }),
  );
}
