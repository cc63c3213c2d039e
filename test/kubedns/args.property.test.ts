import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { expandReferences } from '../../src/kubedns/container-args.js';
import { splitDnsmasqOptions } from '../../src/kubedns/dnsmasq-options.js';
import { parseGoFlags } from '../../src/kubedns/go-flags.js';
import { parseKubeDnsArgs } from '../../src/kubedns/kubedns-args.js';
import { Outcomes } from '../support/outcomes.js';
import { expectEqual, expectSame } from '../support/hot-expect.js';

/** Laws of the argument readers: equivalent spellings agree, order does not matter, no token is lost. */

const valueText = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('cluster.local.', '10053', '-x', '--domain', '', '=', 'a=b'));
const domain = fc.constantFrom('cluster.local.', 'corp.example', 'a', 'Bad.Domain', '');
const port = fc.oneof(fc.nat(70000).map(String), fc.constantFrom('0x35', '053', 'x', ''));
const kubeDnsFlag = fc.oneof(
  domain.map((value) => ['domain', value] as const),
  port.map((value) => ['dns-port', value] as const),
  valueText.map((value) => ['config-dir', value] as const),
  valueText.map((value) => ['nameservers', value] as const),
  valueText.map((value) => ['config-map', value] as const),
);

describe('kube-dns flags (pflag)', () => {
  it('read --flag=value and --flag value alike', () => {
    const outcomes = new Outcomes<'valid' | 'invalid'>();
    fc.assert(
      fc.property(fc.array(kubeDnsFlag, { maxLength: 6 }), fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }), (flags, separate) => {
        const joined = parseKubeDnsArgs(flags.map(([name, value]) => `--${name}=${value}`));
        const splitArgs = flags.flatMap(([name, value], index) => (separate[index] === true ? [`--${name}`, value] : [`--${name}=${value}`]));
        const split = parseKubeDnsArgs(splitArgs);
        outcomes.add(joined.invalid.length === 0 ? 'valid' : 'invalid');
        // Each flag's last setting says where and how it was written, valid or not.
        for (const [name] of flags) {
          const last = flags.findLastIndex(([other]) => other === name);
          const setting = split.lastSettings.get(name);
          expectSame(setting?.value, flags[last]?.[1]);
          expectSame(setting?.separateValue, separate[last] === true);
          expectSame(splitArgs[setting?.index ?? -1], separate[last] === true ? `--${name}` : `--${name}=${flags[last]?.[1]}`);
        }
        expectEqual(split.values, joined.values);
        expectEqual(split.invalid.map((entry) => entry.reason), joined.invalid.map((entry) => entry.reason));
        expectSame(split.problem, undefined);
      }),
      { numRuns: 1000 },
    );
    outcomes.expectAtLeast({ valid: 150, invalid: 200 });
  });

  it('give the same values whatever the order of distinct flags', () => {
    let compared = 0;
    fc.assert(
      fc.property(fc.uniqueArray(kubeDnsFlag, { selector: ([name]) => name, minLength: 2, maxLength: 5 }), fc.infiniteStream(fc.nat()), (flags, randomness) => {
        const shuffled = [...flags];
        for (let index = shuffled.length - 1; index > 0; index--) {
          const other = (randomness.next().value as number) % (index + 1);
          [shuffled[index], shuffled[other]] = [shuffled[other] as (typeof flags)[number], shuffled[index] as (typeof flags)[number]];
        }
        const first = parseKubeDnsArgs(flags.map(([name, value]) => `--${name}=${value}`));
        const second = parseKubeDnsArgs(shuffled.map(([name, value]) => `--${name}=${value}`));
        expectEqual(second.values, first.values);
        compared += 1;
      }),
      { numRuns: 500 },
    );
    expect(compared).toBe(500);
  });
});

const flagSpecs = [
  { name: 'domain', kind: 'value' as const },
  { name: 'v', kind: 'value' as const },
  { name: 'log_dir', kind: 'value' as const },
  { name: 'profiling', kind: 'bool' as const },
];
const token = fc.oneof(
  fc.constantFrom('--domain', '--domain=a.', '-v', '-v2', '-v=3', '--log_dir', '--log-dir=/x', '-log_dir=/y', '--profiling', '-profiling=false', '--', '-', '---x', '--nope', '-h', 'word', ''),
  fc.string({ maxLength: 6 }),
);

describe('Go flag readers account for every token', () => {
  for (const syntax of ['pflag', 'go-flag'] as const) {
    it(`${syntax}: each token is a flag, its value, a positional argument, or at/after the stopping problem`, () => {
      const outcomes = new Outcomes<'clean' | 'problem' | 'positional'>();
      fc.assert(
        fc.property(fc.array(token, { maxLength: 8 }), (args) => {
          const parsed = parseGoFlags(args, flagSpecs, syntax);
          const seen = new Array<number>(args.length).fill(0);
          for (const setting of parsed.settings) {
            seen[setting.index] = 1;
            if (setting.separateValue) seen[setting.index + 1] = (seen[setting.index + 1] ?? 0) + 1;
          }
          for (const item of parsed.positional) seen[item.index] = (seen[item.index] ?? 0) + 1;
          const end = parsed.problem?.index ?? args.length;
          for (let index = 0; index < args.length; index++) {
            // `--` read as the end of the flags is the one token that is neither.
            if (index < end && !(args[index] === '--' && seen[index] === 0)) {
              if (seen[index] !== 1) expect(seen[index], `token ${index} of ${JSON.stringify(args)}`).toBe(1);
            }
          }
          outcomes.add(parsed.problem !== undefined ? 'problem' : parsed.positional.length > 0 ? 'positional' : 'clean');
        }),
        { numRuns: 2000 },
      );
      outcomes.expectAtLeast({ clean: 150, problem: 250, positional: 150 });
    });
  }
});

/** dnsmasq options with a short letter and a required value: long and short spellings agree. */
const dnsmasqOption = fc.tuple(fc.constantFrom(['server', 'S'], ['address', 'A'], ['cache-size', 'c'], ['dns-forward-max', '0'], ['port', 'p']), fc.string({ minLength: 1, maxLength: 10 }));

describe('dnsmasq options', () => {
  it('read --name=value, --name value, -Xvalue and -X value alike, and every token once', () => {
    const outcomes = new Outcomes<'options' | 'empty'>();
    fc.assert(
      fc.property(fc.array(dnsmasqOption, { maxLength: 5 }), fc.array(fc.nat(3), { minLength: 5, maxLength: 5 }), (options, spellings) => {
        const args = options.flatMap(([[name, letter], value], index) => {
          switch (spellings[index]) {
            case 0: return [`--${name}=${value}`];
            case 1: return [`--${name}`, value];
            case 2: return [`-${letter}${value}`];
            default: return [`-${letter}`, value];
          }
        });
        const split = splitDnsmasqOptions(args);
        expectSame(split.problem, undefined);
        expectEqual(split.options.map((option) => [option.name, option.value]), options.map(([[name], value]) => [name, value]));
        // Each option starts where the previous one's tokens end: none skipped, none read twice.
        const starts = options.map((_, index) => options.slice(0, index).reduce((sum, __, before) => sum + ((spellings[before] ?? 0) % 2 === 1 ? 2 : 1), 0));
        expectEqual(split.options.map((option) => option.index), starts);
        outcomes.add(options.length > 0 ? 'options' : 'empty');
      }),
      { numRuns: 1000 },
    );
    outcomes.expectAtLeast({ options: 700, empty: 50 });
  });
});

describe('$(VAR) expansion', () => {
  it('gives back any text whose every $ is doubled, and leaves unknown references as written', () => {
    const outcomes = new Outcomes<'with-dollar' | 'without'>();
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('$', '(', ')', 'A', 'b', ' ', '='), maxLength: 16 }), (text) => {
        expect(expandReferences(text.split('$').join('$$'), () => 'X')).toBe(text);
        // With no variable known, a text without `$$` comes back unchanged.
        if (!text.includes('$$')) expect(expandReferences(text, () => undefined)).toBe(text);
        outcomes.add(text.includes('$') ? 'with-dollar' : 'without');
      }),
      { numRuns: 1000 },
    );
    outcomes.expectAtLeast({ 'with-dollar': 350, without: 50 });
  });
});
