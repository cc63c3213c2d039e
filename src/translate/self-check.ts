import { corefilesEqual } from '../corefile/compare.js';
import { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';
import type { Corefile, Directive } from '../corefile/model.js';
import { CorefilePrintError } from '../corefile/errors.js';
import { parseCorefile } from '../corefile/parser.js';
import { printCorefile } from '../corefile/printer.js';
import { addressKeysOf, parseServerKey } from '../corefile/server-key.js';
import { coreDnsPluginAvailability, isUsable } from '../coredns/availability.js';
import type { CoreDnsFeatures } from '../coredns/features.js';
import { HEALTH_DEFAULT_ADDRESS, healthListenersOfBlock } from '../coredns/listen-addresses.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
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
 * has. Throws {@link SelfCheckError} otherwise. Returns the model `text` parses to (for the
 * target lint, which then needs no parse of its own).
 */
export function checkTranslatedCorefile(text: string, model: Corefile, features: CoreDnsFeatures): Corefile {
  const reparsed = parseCorefile(text).corefile;
  // Equal models print the same text (that is what corefilesEqual means), so this is the check
  // "the reparsed model prints `text`", made by walking both models instead of printing again.
  if (!corefilesEqual(reparsed, model)) throw new SelfCheckError('not-round-trip', 'the printed Corefile does not parse back to the translated model');
  const served = new Set<string>();
  const usable = new Set<string>();
  let healthListeners = 0;
  for (const item of reparsed.items) {
    if (item.kind !== 'server-block') continue;
    if (item.directives.some((directive) => directive.name === 'health')) healthListeners += healthListenersOfBlock(features, item.keys.length);
    for (const key of item.keys) {
      for (const address of addressKeysOf(parseServerKey(key))) {
        if (served.has(address)) throw new SelfCheckError('zone-served-twice', `zone ${address} is served twice`);
        served.add(address);
      }
    }
    let forwarders = 0;
    for (const directive of item.directives) if (directive.name === 'forward') forwarders += 1;
    if (forwarders > 1 && !features.multipleForwardPerBlock) throw new SelfCheckError('forwarders-in-one-block', 'two forward directives in one block');
    for (const directive of item.directives) checkDirective(directive, features, usable);
  }
  // The translator writes health without an address: every listener is on the default one.
  if (features.healthListener === 'exclusive' && healthListeners > 1) {
    throw new SelfCheckError('health-listeners', `health would listen ${healthListeners} times on ${HEALTH_DEFAULT_ADDRESS}, which CoreDNS ${features.version} refuses`);
  }
  return reparsed;
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
 * What lint finds the target release refuses in the translated Corefile (`parsed`: its text as
 * {@link checkTranslatedCorefile} parsed it), each as a `translation-target-refuses` error: a
 * value the input carries that the release does not take (`--dns-forward-max=99999999999999999999999`
 * as max_concurrent).
 */
export function targetRefusals(parsed: Corefile, features: CoreDnsFeatures): Diagnostic[] {
  const refusals = lintCorefileModel(parsed, { coredns: features.version }, undefined, true).diagnostics.filter((finding) => finding.severity === 'error');
  return refusals.map((finding) =>
    diagnostic('translation-target-refuses', { message: `CoreDNS ${features.version} would refuse the translated Corefile (lint ${finding.code}${finding.path === undefined ? '' : ` at ${finding.path.replace(/^:\d+:\d+ ?/, '')}`}): ${finding.message}` }),
  );
}
