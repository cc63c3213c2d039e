import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CorefileSyntaxError } from '../../src/corefile/errors.js';
import { DIAGNOSTIC_CODES } from '../../src/diagnostics/codes.js';
import { lintCorefile } from '../../src/lint/index.js';
import { COREDNS_VERSIONS } from '../../src/coredns/versions.js';
import { Outcomes } from '../support/outcomes.js';

/** Token soup built from the words the linter reacts to: it may be refused as a syntax error, never crash the linter. */
const word = fc.constantFrom(
  '.', '.:53', ':53', 'acme.local', 'ACME.local:5353', 'local', 'arpa', 'cluster.local', '10.0.0.0/27', 'tls://.', 'a.org:', '.a.org', '{$Z}', '(snip)', 'import', 'snip', 'custom/*',
  'forward', 'proxy', 'kubernetes', 'federation', 'upstream', 'loop', 'ready', 'bind', 'view', 'whoami', 'max_concurrent', 'health', 'lameduck', 'fallthrough',
  '8.8.8.8', '127.0.0.1', '[::1]:53', '[2001:db8::1]', '010.0.0.1', '1.2.3.4:99999', 'ns.example', 'localhost', 'https://1.1.1.1', 'grpc://1.1.1.1', '/etc/resolv.conf', 'a..b', '{$U}',
  '{', '}', '\n', '\n', '\n', '#c', '"a b"', ',',
);
const text = fc.array(word, { maxLength: 60 }).map((words) => words.join(' '));

describe('lint robustness', () => {
  it('either lints or reports a syntax error, and every finding is located', () => {
    const outcomes = new Outcomes<'linted' | 'syntax error' | 'findings'>();
    fc.assert(
      fc.property(text, fc.constantFrom(...COREDNS_VERSIONS), (corefile, coredns) => {
        let result;
        try {
          result = lintCorefile(corefile, { coredns });
        } catch (error) {
          expect(error).toBeInstanceOf(CorefileSyntaxError);
          outcomes.add('syntax error');
          return;
        }
        outcomes.add('linted');
        if (result.diagnostics.length > 0) outcomes.add('findings');
        for (const entry of result.diagnostics) {
          expect(entry.position?.line).toBeGreaterThanOrEqual(1);
          expect(entry.path?.startsWith(`:${entry.position?.line}:${entry.position?.column}`)).toBe(true);
          expect(DIAGNOSTIC_CODES[entry.code].area).toBe('lint');
        }
        expect(result.ok).toBe(!result.diagnostics.some((entry) => entry.severity === 'error'));
      }),
      { numRuns: 1000 },
    );
    // Expected: about 875 texts linted (490 with findings) and 125 syntax errors in 1000 runs.
    outcomes.expectAtLeast({ linted: 750, findings: 350, 'syntax error': 60 });
  });
});
