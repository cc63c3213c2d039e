import { describe, expect, it } from 'vitest';
import { judgeGoRegexp } from '../../src/dns/go-regexp.js';
import { ACCEPTED_PATTERNS, REFUSED_PATTERNS } from './go-regexp-cases.js';


describe('judgeGoRegexp', () => {
  it.each(REFUSED_PATTERNS)('refuses %s as Go does', (pattern, message) => {
    expect(judgeGoRegexp(pattern)).toEqual({ ok: false, error: `error parsing regexp: ${message}` });
  });

  it.each(ACCEPTED_PATTERNS)('accepts %s with its capturing groups', (pattern, groups) => {
    expect(judgeGoRegexp(pattern)).toEqual({ ok: true, groups });
  });

  it('reads (?<name>…) as a group from Go 1.22, and any \\p name from Go 1.25', () => {
    expect(judgeGoRegexp('(?<name>a)(b)', { angleNamedGroups: true })).toEqual({ ok: true, groups: 2 });
    expect(judgeGoRegexp('(?<na-me>a)', { angleNamedGroups: true })).toEqual({ ok: false, error: 'error parsing regexp: invalid named capture: `(?<na-me>`' });
    expect(judgeGoRegexp('\\p{Letter}', { lenientClassNames: true })).toEqual({ ok: true, groups: 0 });
    expect(judgeGoRegexp('\\p{}', { lenientClassNames: true }).ok).toBe(false);
  });
});
