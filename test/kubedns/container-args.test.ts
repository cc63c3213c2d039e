import { describe, expect, it } from 'vitest';
import { expandReferences, readContainerArgv } from '../../src/kubedns/container-args.js';

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
