/**
 * The translator's self-check reads the printed Corefile item by item, linting each block for the
 * target on its own (src/translate/self-check.ts). Its definition is the whole reading written out
 * below: parse the text, compare the two models, run the rules over the blocks, then lint the
 * parsed text for the target. Compared on random models (printed, and printed from another model
 * to break the round trip), with blocks the target refuses, zones served twice, keys no release
 * reads, health bound twice, several forwards in a block and plugins the release lacks: the same
 * error thrown, or the same refusals. The second property gives the self-check models whose blocks
 * share equal directives as one frozen object, as the translator's do: the block-by-block lint
 * checks such a directive once (src/lint/blockwise.ts), and must still refuse what the whole
 * reading refuses.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { corefilesEqual } from '../../src/corefile/compare.js';
import type { Corefile, Directive } from '../../src/corefile/model.js';
import { parseCorefile } from '../../src/corefile/parser.js';
import { printCorefile } from '../../src/corefile/printer.js';
import { addressKeysOf, parseServerKey } from '../../src/corefile/server-key.js';
import { coreDnsPluginAvailability, isUsable } from '../../src/coredns/availability.js';
import { coreDnsFeatures } from '../../src/coredns/features.js';
import type { CoreDnsFeatures } from '../../src/coredns/features.js';
import { HEALTH_DEFAULT_ADDRESS, healthListenersOfBlock } from '../../src/coredns/listen-addresses.js';
import { checkTranslatedCorefile, SelfCheckError, targetRefusals } from '../../src/translate/self-check.js';
import { Outcomes } from '../support/outcomes.js';

const RELEASES = ['1.1.3', '1.2.6', '1.5.2', '1.6.5', '1.6.7', '1.8.0', '1.10.1', '1.11.3', '1.14.7'] as const;

/** The self-check as one whole reading: the definition the item-by-item reading is held to. */
function wholeReading(text: string, model: Corefile, features: CoreDnsFeatures): unknown {
  const reparsed = parseCorefile(text).corefile;
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
    if (item.directives.filter((directive) => directive.name === 'forward').length > 1 && !features.multipleForwardPerBlock) throw new SelfCheckError('forwarders-in-one-block', 'two forward directives in one block');
    for (const directive of item.directives) {
      if (!usable.has(directive.name)) {
        const availability = coreDnsPluginAvailability(directive.name, features.version);
        if (!isUsable(availability)) throw new SelfCheckError('plugin-unavailable', `plugin ${directive.name} is ${availability.status} in CoreDNS ${features.version}`);
        usable.add(directive.name);
      }
      const forwarder = directive.name === 'forward' || directive.name === 'proxy';
      if (forwarder && directive.arguments.length < 2) throw new SelfCheckError('no-destination', `${directive.name} without a destination`);
      if (forwarder && directive.arguments.length - 1 > features.upstreamLimit.max) throw new SelfCheckError('too-many-destinations', `${directive.name} with more than ${features.upstreamLimit.max} destinations`);
    }
  }
  if (features.healthListener === 'exclusive' && healthListeners > 1) {
    throw new SelfCheckError('health-listeners', `health would listen ${healthListeners} times on ${HEALTH_DEFAULT_ADDRESS}, which CoreDNS ${features.version} refuses`);
  }
  return targetRefusals(reparsed, features);
}

function outcome(run: () => unknown): unknown {
  try {
    return { result: run() };
  } catch (error) {
    return { error: error instanceof Error ? `${error.name} ${(error as { code?: string }).code ?? ''}: ${error.message}` : String(error) };
  }
}

const zone = fc.oneof(
  { weight: 12, arbitrary: fc.integer({ min: 0, max: 40 }).map((index) => `zone-${index}.example`) },
  { weight: 4, arbitrary: fc.constantFrom('acme.local', 'Upper.example', 'upper.example', 'cluster.local', '.', '10.0.0.0/8', '10.0.0.0/9', 'tls://acme.local') },
  { weight: 1, arbitrary: fc.constantFrom('a..b', '') },
);
const port = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(':53', '', ':1053') }, { weight: 1, arbitrary: fc.constant(':0') });
const usual = fc.constantFrom('errors', 'cache 30', 'cache 30 {\n    success 9984 30\n  }', 'loop', 'forward . 10.0.0.5', 'forward . 10.0.0.6:5353 10.0.0.7');
const rare = fc.constantFrom(
  'health',
  'ready',
  'forward . 10.0.0.8 {\n    max_concurrent 1e+23\n  }',
  'forward . 10.0.0.8 {\n    max_concurrent 1000\n  }',
  'forward',
  'forward . 1.1.1.1 1.1.1.2 1.1.1.3 1.1.1.4 1.1.1.5 1.1.1.6 1.1.1.7 1.1.1.8 1.1.1.9 1.1.1.10 1.1.1.11 1.1.1.12 1.1.1.13 1.1.1.14 1.1.1.15 1.1.1.16',
  'proxy . 10.0.0.9',
  'template IN A acme.local {\n    rcode NXDOMAIN\n  }',
  'kubernetes cluster.local in-addr.arpa ip6.arpa {\n    pods insecure\n    upstream\n  }',
  'nonesuch',
  'import shared',
);
const line = fc.oneof({ weight: 6, arbitrary: usual }, { weight: 2, arbitrary: rare });
const block = fc
  .record({ keys: fc.tuple(zone, port, fc.option(fc.tuple(zone, port), { freq: 4 })).map(([name, at, second]) => (second === null ? [[name, at] as const] : [[name, at] as const, second])), lines: fc.array(line, { minLength: 0, maxLength: 5 }), comment: fc.boolean() })
  .map(({ keys, lines, comment }) => `${comment ? '# stub\n' : ''}${keys.map(([name, at]) => name + at).join(' ')} {\n  ${lines.join('\n  ')}\n}\n`);
const item = fc.oneof({ weight: 12, arbitrary: block }, fc.constantFrom('(shared) {\n  log\n}\n', 'import other.conf\n'));
const corefileText = fc.array(item, { minLength: 1, maxLength: 5 }).map((items) => items.join('\n'));

/**
 * `model` with its blocks' directives that are equal (the same own fields, nested lines included)
 * replaced by one frozen copy, shared by every block that has it: what the translator's render
 * stage does with `errors`, `cache` and `loop`. How many directives are shared goes to `shared`.
 */
function withSharedDirectives(model: Corefile): { readonly model: Corefile; readonly shared: number } {
  const copies = new Map<string, Directive>();
  let shared = 0;
  const share = (directive: Directive): Directive => {
    const key = JSON.stringify(directive);
    const copy = copies.get(key);
    if (copy !== undefined) {
      shared += 1;
      return copy;
    }
    const frozen = Object.freeze({ ...directive });
    copies.set(key, frozen);
    return frozen;
  };
  const items = model.items.map((item) => (item.kind === 'server-block' ? { ...item, directives: item.directives.map(share) } : item));
  return { model: { ...model, items }, shared };
}

/** The model of a text, or undefined when it does not parse. */
function modelOf(text: string): Corefile | undefined {
  try {
    return parseCorefile(text).corefile;
  } catch {
    return undefined;
  }
}

describe('the translator self-check, item by item', () => {
  it('throws what the whole reading throws, and otherwise finds the same refusals', () => {
    const outcomes = new Outcomes<'accepted' | 'refused by the target' | 'not-round-trip' | 'a rule of the self-check' | 'the parser or key reader' | 'not parsed'>();
    fc.assert(
      fc.property(corefileText, corefileText, fc.constantFrom(...RELEASES), fc.oneof({ weight: 5, arbitrary: fc.constant('same') }, fc.constantFrom('other', 'appended', 'cut')), (text, otherText, release, printed) => {
        const model = modelOf(text);
        if (model === undefined) return outcomes.add('not parsed');
        const other = modelOf(otherText);
        let output = printCorefile(model);
        if (printed === 'other' && other !== undefined) output = printCorefile(other);
        if (printed === 'appended') output += otherText;
        if (printed === 'cut') output = output.slice(0, Math.floor(output.length / 2));
        const features = coreDnsFeatures(release);
        const expected = outcome(() => wholeReading(output, model, features));
        expect(outcome(() => checkTranslatedCorefile(output, model, features))).toEqual(expected);
        if ('error' in (expected as object)) {
          const error = (expected as { error: string }).error;
          if (error.includes('not-round-trip')) outcomes.add('not-round-trip');
          else if (error.startsWith('SelfCheckError')) outcomes.add('a rule of the self-check');
          else outcomes.add('the parser or key reader');
        } else {
          outcomes.add(((expected as { result: unknown[] }).result.length > 0 ? 'refused by the target' : 'accepted'));
        }
      }),
      { numRuns: 300 },
    );
    // Expected in 300 runs: about 40 accepted, 35 refused by the target, 40 not-round-trip, 140 by a rule, 45 by the parser or key reader.
    outcomes.expectAtLeast({ accepted: 15, 'refused by the target': 15, 'not-round-trip': 20, 'a rule of the self-check': 70, 'the parser or key reader': 20 });
  });

  it('refuses what the whole reading refuses when the blocks share equal directives', () => {
    const outcomes = new Outcomes<'accepted' | 'refused by the target' | 'an error' | 'nothing shared' | 'not parsed'>();
    // Stub-like blocks of their own zones (mostly), with one forward each (mostly), so that most
    // texts get as far as the target's lint; the rare lines bring what the target refuses.
    const stubLines = fc
      .record({
        errors: fc.boolean(),
        cache: fc.constantFrom('', 'cache 30', 'cache 30 {\n    success 9984 30\n  }', 'cache 30 {\n    disable denial\n  }'),
        loop: fc.boolean(),
        forward: fc.oneof({ weight: 8, arbitrary: fc.constantFrom('forward . 10.0.0.5', 'forward . 10.0.0.6:5353 10.0.0.7', 'forward . 127.0.0.1') }, { weight: 1, arbitrary: rare }),
      })
      .map(({ errors, cache, loop, forward }) => [errors ? 'errors' : '', cache, loop ? 'loop' : '', forward].filter((text) => text !== ''));
    const sharedText = fc
      .array(fc.record({ own: fc.integer({ min: 0, max: 7 }).map((draw) => draw > 0), keys: zone, lines: stubLines }), { minLength: 2, maxLength: 8 })
      .map((blocks) => blocks.map(({ own, keys, lines }, index) => `${own ? `stub-${index}.example:53` : keys} {\n  ${lines.join('\n  ')}\n}\n`).join('\n'));
    fc.assert(
      fc.property(sharedText, fc.constantFrom(...RELEASES), (text, release) => {
        const parsed = modelOf(text);
        if (parsed === undefined) return outcomes.add('not parsed');
        const { model, shared } = withSharedDirectives(parsed);
        const output = printCorefile(model);
        const features = coreDnsFeatures(release);
        const expected = outcome(() => wholeReading(output, model, features));
        expect(outcome(() => checkTranslatedCorefile(output, model, features))).toEqual(expected);
        if (shared === 0) outcomes.add('nothing shared');
        else if ('error' in (expected as object)) outcomes.add('an error');
        else outcomes.add((expected as { result: unknown[] }).result.length > 0 ? 'refused by the target' : 'accepted');
      }),
      { numRuns: 300 },
    );
    // Counted over six seeds in 300 runs: 21–27 accepted, 150–178 refused by the target, 84–109 errors, 11–24 with nothing shared.
    outcomes.expectAtLeast({ accepted: 8, 'refused by the target': 60, 'an error': 40 });
  });
});
