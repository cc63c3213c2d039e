import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { composeOverlay, goMatch } from '../../src/platform/compose.js';
import { PLATFORM_BASES } from '../../src/platform/bases.js';
import { Outcomes } from '../support/outcomes.js';

const aks = PLATFORM_BASES.aks.corefile();

describe('composeOverlay', () => {
  it('imports .override keys inside the block and .server keys at the top level, in lexical order, each line traced to its key', () => {
    const composition = composeOverlay(aks, { 'b.override': 'log\n', 'a.override': 'hosts {\n  10.0.0.1 a.example\n  fallthrough\n}\n', 'x.server': 'x.local:53 {\n    forward . 10.0.0.2\n}\n' });
    const lines = composition.text.split('\n');
    const at = lines.findIndex((line) => line === 'hosts {');
    expect(lines.slice(at, at + 5)).toEqual(['hosts {', '  10.0.0.1 a.example', '  fallthrough', '}', 'log']);
    expect(lines.slice(-4)).toEqual(['x.local:53 {', '    forward . 10.0.0.2', '}', '']);
    expect(composition.imports.map(({ pattern, keys, topLevel }) => ({ pattern, keys, topLevel }))).toEqual([
      { pattern: 'custom/*.override', keys: ['a.override', 'b.override'], topLevel: false },
      { pattern: 'custom/*.server', keys: ['x.server'], topLevel: true },
    ]);
    expect(composition.locate({ line: at + 2, column: 3 })).toEqual({ key: 'a.override', position: { line: 2, column: 3 } });
    expect(composition.locate({ line: at + 5, column: 1 })).toEqual({ key: 'b.override', position: { line: 1, column: 1 } });
    // Base lines after the imported ones keep their own numbers.
    const template = lines.findIndex((line) => line.includes('template ANY ANY reddog.microsoft.com'));
    expect(composition.locate({ line: template + 1, column: 5 })).toEqual({ key: undefined, position: { line: aks.split('\n').findIndex((line) => line.includes('reddog.microsoft.com {')) + 1, column: 5 } });
    expect(composition.unimported).toEqual([]);
    expect(composition.problems).toEqual([]);
  });

  it('reads an empty glob as nothing, names keys no import reads, and refuses a missing named file and an import cycle', () => {
    const empty = composeOverlay(aks, { 'zone.db': 'x' });
    expect(empty.text).not.toContain('import');
    expect(empty.unimported).toEqual(['zone.db']);
    expect(empty.problems).toEqual([]);
    const named = composeOverlay('.:53 {\n    import custom/one.override\n}\n', {});
    expect(named.problems.map((problem) => problem.message)).toEqual(["file to import not found: custom/one.override (no data key 'one.override' in the coredns-custom ConfigMap)"]);
    const cycle = composeOverlay('import custom/a.server\n', { 'a.server': 'import b.server\n', 'b.server': 'import a.server\n' });
    expect(cycle.problems.map((problem) => [problem.key, problem.message])).toEqual([['b.server', "a cycle of imports: 'a.server' imports itself through a.server"]]);
  });

  it('resolves a pattern relative to the Corefile, absolute patterns as written, and leaves other imports alone', () => {
    const data = { 'a.override': 'log\n' };
    expect(composeOverlay('.:53 {\n    import /etc/coredns/custom/*.override\n}\n', data).text).toBe('.:53 {\nlog\n}\n');
    expect(composeOverlay('.:53 {\n    import ./custom/../custom/*.override\n}\n', data).text).toBe('.:53 {\nlog\n}\n');
    expect(composeOverlay('.:53 {\n    import /other/*.override\n}\n', data).text).toBe('.:53 {\n    import /other/*.override\n}\n');
    expect(composeOverlay('.:53 {\n    import custom/*.override\n}\n', data, { corefileDirectory: '/config' }).text).toBe('.:53 {\n    import custom/*.override\n}\n');
    // Text after the import on its line stays, on a line of its own, with its columns.
    const inline = composeOverlay('.:53 {\n    import custom/*.override }\n', data);
    expect(inline.text).toBe('.:53 {\nlog\n }\n');
    expect(inline.locate({ line: 3, column: 2 })).toEqual({ key: undefined, position: { line: 2, column: 30 } });
  });
});

describe('goMatch (Go filepath.Match on one element)', () => {
  it('matches stars, question marks, classes and escapes as Go does', () => {
    expect(goMatch('*.override', 'a.override')).toBe(true);
    expect(goMatch('*.override', 'a.server')).toBe(false);
    expect(goMatch('*.override', '.override')).toBe(true);
    expect(goMatch('?.server', 'ab.server')).toBe(false);
    expect(goMatch('[a-c]*.server', 'b1.server')).toBe(true);
    expect(goMatch('[^a-c]*.server', 'b1.server')).toBe(false);
    expect(goMatch('\\*.server', '*.server')).toBe(true);
    expect(goMatch('[]a].server', 'a.server')).toBe(false);
  });

  it('law: a pattern made of a name with some characters replaced by ? or * runs matches that name', () => {
    const outcomes = new Outcomes<'star' | 'question' | 'plain'>();
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9.-]{1,12}$/), fc.array(fc.nat(11), { maxLength: 3 }), fc.boolean(), (name, cuts, star) => {
        let pattern = name;
        for (const cut of cuts.filter((index) => index < name.length)) pattern = `${pattern.slice(0, cut)}${star ? '*' : '?'}${pattern.slice(cut + 1)}`;
        expect(goMatch(pattern, name)).toBe(true);
        outcomes.add(pattern === name ? 'plain' : star ? 'star' : 'question');
      }),
      { numRuns: 300 },
    );
    // About a third of what runs count (seeds saw 49–69 of each): a floor near the mean fails on luck.
    outcomes.expectAtLeast({ star: 20, question: 20, plain: 10 });
  });
});
