import { describe, expect, it } from 'vitest';
import { ALL as api } from '../support/entries.js';
import { checkArgument, checkOptions, describeValue, InvalidArgumentError, isPlainObject } from '../../src/errors/arguments.js';
import { KubeDnsToCoreDnsError } from '../../src/errors/kube-dns-to-coredns-error.js';
import { thrown } from '../support/thrown.js';

/**
 * The library's boundary (#18 item 34): a call with arguments of the wrong kind — from JavaScript,
 * or with parsed JSON — fails with an error of the family naming the function and the argument,
 * never with a plain `TypeError` from deep inside, and never reads a `Map` as an empty object.
 */

/** Values of every kind but the right one, for some argument or other. */
const WRONG: readonly unknown[] = [undefined, null, 42, true, Symbol('s'), 10n, [], new Map([['stubDomains', '{}']]), new Set(), () => 1, { length: 3 }, 'text'];

const functions = Object.entries(api as Record<string, unknown>).filter(
  (entry): entry is [string, (...args: unknown[]) => unknown] => typeof entry[1] === 'function' && !((entry[1] as { prototype?: unknown }).prototype instanceof Error),
);

describe('every exported function, called with arguments of the wrong kind', () => {
  it('returns, or throws an error of the family (never a plain TypeError)', () => {
    const outcomes = { returned: 0, refused: 0 };
    const escaped: string[] = [];
    for (const [name, fn] of functions) {
      for (let position = 0; position < Math.max(fn.length, 1) + 1; position++) {
        for (const value of WRONG) {
          const args: unknown[] = [];
          args[position] = value;
          try {
            fn(...args);
            outcomes.returned += 1;
          } catch (error) {
            if (error instanceof KubeDnsToCoreDnsError) outcomes.refused += 1;
            else escaped.push(`${name}(argument ${position} = ${describeValue(value)}): ${String(error)}`);
          }
        }
      }
    }
    expect(escaped).toEqual([]);
    expect(functions.length).toBeGreaterThan(50);
    expect(outcomes.refused).toBeGreaterThan(1000);
    // Some calls succeed: a text argument, or options left out, are fine for many functions.
    expect(outcomes.returned).toBeGreaterThan(20);
  });

  it('names the function and the argument', () => {
    const error = thrown(() => api.parseCorefile(42 as never)) as InvalidArgumentError;
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect([error.code, error.category, error.function, error.argument]).toEqual(['wrong-type', 'input', 'parseCorefile', 'text']);
    expect(error.message).toBe('parseCorefile: text must be a string, got a number');
    const field = thrown(() => api.nodeLocalDnsTemplate('1.26.7', { clusterDomain: 7 as never })) as InvalidArgumentError;
    expect(field.message).toBe('nodeLocalDnsTemplate: install.clusterDomain must be a string (or left out), got a number');
  });

  it('refuses a Map where ConfigMap data goes, instead of reading it as empty', () => {
    const data = new Map([['stubDomains', '{"acme.local": ["10.0.0.1"]}']]) as never;
    for (const call of [() => api.translateKubeDns(data), () => api.readKubeDnsConfig(data), () => api.translateLikeKubeadm('1.20', data), () => api.kubeDnsRouting(data)]) {
      expect(thrown(call)).toMatchObject({ name: 'ConfigMapInputError', code: 'data-not-mapping', message: 'data must be an object of strings or null, got a Map' });
    }
  });
});

describe('string options pasted into output', () => {
  it('nodeLocalDnsTemplate takes a cluster domain and IP addresses only: no line or server block can be added', () => {
    const injected = [
      { clusterDomain: 'cluster.local {\n}\nevil.org {\n    forward . 6.6.6.6' },
      { clusterDomain: 'cluster.local\n    log' },
      { clusterDomain: 'a b' },
      { localIps: '169.254.20.10\n}\n. {\n    forward . 6.6.6.6' },
      { localIps: '169.254.20.10,10.96.0.10 {' },
      { localIps: 'node-local' },
    ];
    for (const install of injected) {
      expect(thrown(() => api.nodeLocalDnsTemplate('1.26.7', install)), JSON.stringify(install)).toMatchObject({ name: 'InvalidArgumentError', code: 'invalid-value' });
    }
    // What the install instructions give is taken as before.
    expect(api.nodeLocalDnsTemplate('1.26.7', { clusterDomain: 'Corp.Example.', localIps: '169.254.20.10,fd00::10' })).toContain('Corp.Example.:53 {');
    expect(api.nodeLocalDnsTemplate('1.26.7', { localIps: '169.254.20.10,' })).toContain('bind 169.254.20.10');
  });

  it('renderCoreDnsConfigMap takes Kubernetes names only: no YAML field can be injected', () => {
    for (const metadata of [
      { name: 'coredns\n  labels: {evil: "1"}', namespace: 'kube-system' },
      { name: 'coredns', namespace: 'kube-system\ndata:\n  Corefile: ". {}"' },
      { name: 'CoreDNS', namespace: 'kube-system' },
      { name: 'coredns', namespace: 'kube.system' },
    ]) {
      expect(thrown(() => api.renderCoreDnsConfigMap('. {\n}\n', metadata)), JSON.stringify(metadata)).toMatchObject({ name: 'InvalidArgumentError', code: 'invalid-value' });
    }
    expect(api.renderCoreDnsConfigMap('. {\n}\n', { name: 'coredns-custom.v2', namespace: 'dns' })).toContain('  name: coredns-custom.v2\n  namespace: dns\n');
  });
});

describe('the argument checks', () => {
  it('tell ordinary objects from built-ins and arrays', () => {
    expect([{}, Object.create(null), JSON.parse('{"a":1}')].every(isPlainObject)).toBe(true);
    expect([null, [], new Map(), new Set(), new Date(0), () => 1, 'x', 1].some(isPlainObject)).toBe(false);
    expect([null, undefined, [], new Map(), {}, 1, 'x', 1n].map(describeValue)).toEqual(['null', 'undefined', 'an array', 'a Map', 'an object', 'a number', 'a string', 'a bigint']);
  });

  it('accept optional and alternative kinds, and check named option fields only', () => {
    expect(() => checkArgument('f', 'x', undefined, 'string?')).not.toThrow();
    expect(() => checkArgument('f', 'x', null, 'object|null')).not.toThrow();
    expect(() => checkArgument('f', 'x', [], 'string|object')).toThrow('f: x must be a string or a plain object, got an array');
    expect(() => checkOptions('f', 'o', { a: 'x', other: 1 }, { a: 'string', b: 'number?' })).not.toThrow();
    expect(() => checkOptions('f', 'o', { a: 1 }, { a: 'string' })).toThrow('f: o.a must be a string, got a number');
    expect(() => checkOptions('f', 'o', undefined, { a: 'string' }, true)).toThrow('f: o must be a plain object, got undefined');
  });
});
