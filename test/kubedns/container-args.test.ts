import { describe, expect, it } from 'vitest';
import { expandReferences, MAX_ARG_STRLEN, readContainerArgv } from '../../src/kubedns/container-args.js';

const env = new Map([['DOMAIN', 'cluster.local'], ['PORT', '10053']]);
const expand = (text: string): string => expandReferences(text, (name) => env.get(name));

describe('$(VAR) expansion the Kubernetes way', () => {
  it.each([
    ['--domain=$(DOMAIN).', '--domain=cluster.local.'],
    ['--dns-port=$(PORT)', '--dns-port=10053'],
    ['$$(DOMAIN)', '$(DOMAIN)'],
    ['$$$(DOMAIN)', '$cluster.local'],
    ['$(MISSING)', '$(MISSING)'],
    ['$()', '$()'],
    ['$(DOMAIN', '$(DOMAIN'],
    ['a$b', 'a$b'],
    ['end$', 'end$'],
    ['$$', '$'],
    ['$(DOMAIN)$(PORT)', 'cluster.local10053'],
    ['$((DOMAIN)', '$((DOMAIN)'],
  ])('%s → %s', (input, output) => {
    expect(expand(input)).toBe(output);
  });
});

describe('readContainerArgv', () => {
  it('takes args alone as the arguments of the image ENTRYPOINT', () => {
    const argv = readContainerArgv({ args: ['--domain=$(D).', '--dns-port=10053'], env: [{ name: 'D', value: 'cluster.local' }] });
    expect(argv.command).toBeUndefined();
    expect(argv.programArguments).toEqual(['--domain=cluster.local.', '--dns-port=10053']);
    expect(argv.unresolved).toEqual([]);
  });

  it('puts command[1:] before args, and drops the image CMD when command is set', () => {
    expect(readContainerArgv({ command: ['/kube-dns', '--domain=a.'], args: ['--dns-port=1'] }).programArguments).toEqual(['--domain=a.', '--dns-port=1']);
    expect(readContainerArgv({ command: ['/kube-dns'] }).programArguments).toEqual([]);
  });

  it('leaves the arguments unknown when neither command nor args is set (empty lists count as unset)', () => {
    expect(readContainerArgv({}).programArguments).toBeUndefined();
    expect(readContainerArgv({ command: [], args: [] }).programArguments).toBeUndefined();
  });

  it('expands env values from the variables listed before them, later entries overriding', () => {
    const argv = readContainerArgv({
      args: ['$(B)', '$(A)'],
      env: [{ name: 'B', value: '$(A)-b' }, { name: 'A', value: 'one' }, { name: 'A', value: 'two' }, { name: 'C', value: '$(A)' }],
    });
    // B was expanded before A existed: its reference stays as written.
    expect(argv.args).toEqual(['$(A)-b', 'two']);
  });

  it('reports references it cannot resolve, valueFrom ones as run-time', () => {
    const argv = readContainerArgv({ args: ['--domain=$(POD_DOMAIN)', '$(NOPE)'], env: [{ name: 'POD_DOMAIN' }] });
    expect(argv.args).toEqual(['--domain=$(POD_DOMAIN)', '$(NOPE)']);
    expect(argv.unresolved).toEqual([
      { field: 'args', index: 0, name: 'POD_DOMAIN', reason: 'run-time' },
      { field: 'args', index: 1, name: 'NOPE', reason: 'undefined' },
    ]);
  });
});

describe('$(VAR) expansion is bounded by what Linux passes to a program', () => {
  /** `count` env entries, each the previous one twice: 2^count characters once expanded. */
  const doubling = (count: number) => [{ name: 'V0', value: 'ab' }, ...Array.from({ length: count }, (_, index) => ({ name: `V${index + 1}`, value: `$(V${index})$(V${index})` }))];

  it('stops a doubling env chain at MAX_ARG_STRLEN, with work bounded by it', () => {
    const argv = readContainerArgv({ args: ['--domain=$(V100)'], env: doubling(100) });
    expect(argv.tooLong[0]).toEqual({ field: 'env', index: 16 }); // V16 = 2^17 characters
    expect(argv.tooLong).toContainEqual({ field: 'args', index: 0 });
    expect(argv.args?.[0]?.length).toBe(MAX_ARG_STRLEN + 1);
  });

  it('keeps values at the bound, and refuses one character more', () => {
    const exact = 'x'.repeat(MAX_ARG_STRLEN);
    expect(readContainerArgv({ args: ['$(A)'], env: [{ name: 'A', value: exact.slice(2) }] }).tooLong).toEqual([]);
    expect(readContainerArgv({ args: [`$(A)${'x'.repeat(5)}`], env: [{ name: 'A', value: exact.slice(4) }] }).tooLong).toEqual([{ field: 'args', index: 0 }]);
    expect(expandReferences('$(A)$(A)', () => 'xyz', undefined, 4)).toBe('xyzxy');
  });
});
