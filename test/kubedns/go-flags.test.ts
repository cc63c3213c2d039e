import { describe, expect, it } from 'vitest';
import { goParseBool, goParseInt, parseGoFlags } from '../../src/kubedns/go-flags.js';

const flags = [
  { name: 'domain', kind: 'value' as const },
  { name: 'v', kind: 'value' as const },
  { name: 'log_dir', kind: 'value' as const },
  { name: 'profiling', kind: 'bool' as const },
  { name: 'q', kind: 'bool' as const },
];

describe('pflag reading', () => {
  it('reads --flag=value, --flag value, shorthands and normalises _ to -', () => {
    const parsed = parseGoFlags(['--domain=a.', '--domain', 'b.', '-v=2', '-v', '3', '-v4', '--log_dir=/x', '--log-dir', '/y', '--profiling', 'pos', '-qv5'], flags, 'pflag');
    expect(parsed.settings.map((setting) => [setting.name, setting.value, setting.separateValue])).toEqual([
      ['domain', 'a.', false],
      ['domain', 'b.', true],
      ['v', '2', false],
      ['v', '3', true],
      ['v', '4', false],
      ['log-dir', '/x', false],
      ['log-dir', '/y', true],
      ['profiling', 'true', false],
      ['q', 'true', false],
      ['v', '5', false],
    ]);
    expect(parsed.positional).toEqual([{ index: 11, value: 'pos' }]);
    expect(parsed.problem).toBeUndefined();
  });

  it('takes the next token as the value even when it looks like a flag', () => {
    expect(parseGoFlags(['--domain', '--profiling'], flags, 'pflag').settings).toEqual([{ name: 'domain', value: '--profiling', index: 0, separateValue: true }]);
  });

  it('stops at an unknown flag, a missing value, bad syntax and --help', () => {
    expect(parseGoFlags(['--profiling', '--nope=1', '--domain=a.'], flags, 'pflag')).toMatchObject({ problem: { kind: 'unknown-flag', index: 1, name: 'nope' }, settings: [{ name: 'profiling' }] });
    expect(parseGoFlags(['--domain'], flags, 'pflag').problem).toMatchObject({ kind: 'missing-value' });
    expect(parseGoFlags(['---domain=a'], flags, 'pflag').problem).toMatchObject({ kind: 'bad-syntax' });
    expect(parseGoFlags(['--=a'], flags, 'pflag').problem).toMatchObject({ kind: 'bad-syntax' });
    expect(parseGoFlags(['--help'], flags, 'pflag').problem).toMatchObject({ kind: 'help' });
    expect(parseGoFlags(['-h'], flags, 'pflag').problem).toMatchObject({ kind: 'help' });
    expect(parseGoFlags(['-x'], flags, 'pflag').problem).toMatchObject({ kind: 'unknown-flag', name: 'x' });
  });

  it('treats everything after -- as positional, and a lone - as positional', () => {
    const parsed = parseGoFlags(['-', '--', '--domain=a.'], flags, 'pflag');
    expect(parsed.positional.map((item) => item.value)).toEqual(['-', '--domain=a.']);
    expect(parsed.settings).toEqual([]);
  });
});

describe('Go flag reading', () => {
  it('reads one or two dashes alike and does not normalise names', () => {
    const parsed = parseGoFlags(['-domain=a.', '--domain', 'b.', '-log_dir=/x', '-profiling=false'], flags, 'go-flag');
    expect(parsed.settings.map((setting) => [setting.name, setting.value])).toEqual([['domain', 'a.'], ['domain', 'b.'], ['log_dir', '/x'], ['profiling', 'false']]);
    expect(parseGoFlags(['-log-dir=/x'], flags, 'go-flag').problem).toMatchObject({ kind: 'unknown-flag', name: 'log-dir' });
  });

  it('stops reading at the first non-flag argument', () => {
    const parsed = parseGoFlags(['-profiling', 'stray', '-domain=a.'], flags, 'go-flag');
    expect(parsed.settings.map((setting) => setting.name)).toEqual(['profiling']);
    expect(parsed.positional).toEqual([{ index: 1, value: 'stray' }, { index: 2, value: '-domain=a.' }]);
    expect(parsed.stoppedAt).toBe(1);
  });

  it('has no shorthand clustering: -qv is one unknown flag, -h is help', () => {
    expect(parseGoFlags(['-qv'], flags, 'go-flag').problem).toMatchObject({ kind: 'unknown-flag', name: 'qv' });
    expect(parseGoFlags(['-h'], flags, 'go-flag').problem).toMatchObject({ kind: 'help' });
  });
});

describe('Go value readers', () => {
  it.each([
    ['53', 53], ['0x35', 53], ['065', 53], ['0o65', 53], ['0b110101', 53], ['-1', -1], ['+7', 7], ['0', 0],
    ['08', undefined], ['', undefined], ['5x', undefined], ['1_000', undefined], [' 53', undefined],
  ])('int %s → %s', (text, value) => {
    expect(goParseInt(text)).toBe(value);
  });

  it('reads bools as strconv.ParseBool does', () => {
    expect(['1', 't', 'T', 'TRUE', 'true', 'True'].map(goParseBool)).toEqual(Array(6).fill(true));
    expect(['0', 'f', 'F', 'FALSE', 'false', 'False'].map(goParseBool)).toEqual(Array(6).fill(false));
    expect(['yes', 'tRUE', ''].map(goParseBool)).toEqual([undefined, undefined, undefined]);
  });
});
