import { describe, expect, it } from 'vitest';
import { dnsNameProblem } from '../../src/dns/query-names.js';

describe('dnsNameProblem', () => {
  it('takes names a resolver asks: labels, a trailing dot, the root', () => {
    for (const name of ['example.com', 'example.com.', 'my-svc', '_http._tcp.my-svc.shop.svc.cluster.local', '*.acme.local', 'xn--bcher-kva.example', '.', `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`]) {
      expect(dnsNameProblem(name), name).toBeUndefined();
    }
  });

  it('refuses empty labels, overlong labels and names, and characters no query name holds', () => {
    expect(dnsNameProblem('')).toBe('it is empty');
    expect(dnsNameProblem('..')).toBe("it has an empty label ('..')");
    expect(dnsNameProblem('a..b')).toBe("it has an empty label ('..')");
    expect(dnsNameProblem('.a')).toBe('it starts with a dot (an empty label)');
    expect(dnsNameProblem('.', false)).toBe('it is the root, not a domain');
    expect(dnsNameProblem(`${'a'.repeat(64)}.com`)).toMatch(/is 64 characters long, more than the 63 a label holds/);
    expect(dnsNameProblem(`${'a.'.repeat(127)}a`)).toMatch(/^it is 255 characters long, more than the 253/);
    expect(dnsNameProblem('a b')).toMatch(/holds " "/);
    expect(dnsNameProblem('a\u0000b')).toMatch(/holds "\\u0000"/);
    expect(dnsNameProblem('bücher.example')).toMatch(/holds "ü".*xn-- form/);
  });
});
