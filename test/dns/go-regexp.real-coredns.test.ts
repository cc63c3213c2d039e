import { describe, expect, it } from 'vitest';
import { judgeGoRegexp } from '../../src/dns/go-regexp.js';
import { realCoreDnsSkip, useRealCoreDnsLab } from '../support/real-coredns.js';
import { ACCEPTED_PATTERNS, REFUSED_PATTERNS } from './go-regexp-cases.js';

/**
 * The Go regexp verdicts of go-regexp-cases.ts against Go itself: template's `match` compiles
 * each pattern with regexp.Compile and prints Go's error ("could not parse regex: P, error
 * parsing regexp: …"). The lab's 1.8.0 is built with Go 1.19, its 1.14.7 with Go 1.26 (the
 * oldest and newest regexp/syntax the checker follows).
 */

const skip = realCoreDnsSkip('test/dns/go-regexp.real-coredns.test.ts');

const corefile = (...patterns: readonly string[]) =>
  `.:53 {\n    template IN A acme.local {\n        match ${patterns.map((pattern) => `"${pattern}"`).join(' ')}\n        rcode NXDOMAIN\n    }\n}\n`;

describe.skipIf(skip !== undefined)('Go regexp syntax against real Go (CoreDNS template match)', () => {
  const lab = useRealCoreDnsLab({ concurrency: 8 });

  it('refuses with Go\'s own message and accepts what Go accepts, on Go 1.19 and Go 1.26', async () => {
    const results = await Promise.all(
      (['1.8.0', '1.14.7'] as const).flatMap((version) => [
        // A final backslash would escape the closing quote of the Corefile token.
        ...REFUSED_PATTERNS.filter(([pattern]) => !pattern.endsWith('\\')).map(async ([pattern]) => {
          const verdict = await lab().start(corefile(pattern), version);
          return { version, pattern, real: verdict.accepted ? 'accepted' : verdict.reason };
        }),
        (async () => {
          const verdict = await lab().start(corefile(...ACCEPTED_PATTERNS.map(([pattern]) => pattern)), version);
          return { version, pattern: 'every accepted pattern', real: verdict.accepted ? 'accepted' : verdict.reason };
        })(),
      ]),
    );
    const mismatches = results.filter(({ version, pattern, real }) => {
      if (pattern === 'every accepted pattern') return real !== 'accepted';
      const expected = judgeGoRegexp(pattern, version === '1.14.7' ? { angleNamedGroups: true } : {});
      return expected.ok ? real !== 'accepted' : !real.includes(`could not parse regex: ${pattern}, ${expected.error}`);
    });
    expect(mismatches).toEqual([]);
    expect(results.filter((result) => result.real !== 'accepted').length).toBeGreaterThanOrEqual(60);
  }, 60_000);
});
