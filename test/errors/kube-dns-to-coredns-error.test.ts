import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL as api } from '../support/entries.js';
import type * as types from '../../src/index.js';
import { KubeDnsToCoreDnsError, locatedMessage } from '../../src/errors/kube-dns-to-coredns-error.js';
import { GoPanicError, YamlDecodeError, YamlSyntaxError } from '../../src/kubeadm/yaml-v2/errors.js';
import { JsonConversionError } from '../../src/kubeadm/yaml-v2/yaml-to-json.js';
import { printBuiltCorefile } from '../../src/translate/self-check.js';
import { InternalError } from '../../src/errors/internal-error.js';
import { stringifyAsciiJson } from '../../src/cli/ascii-json.js';
import { fanOutCorefile } from '../support/hostile-inputs.js';
import { thrown } from '../support/thrown.js';
import { configMapYaml } from '../support/kube-dns-manifests.js';

const unprintable: types.Corefile = { items: [{ kind: 'server-block', keys: ['.:53'], directives: [{ name: 'forward', arguments: ['.', '{'] }] }] };

/** One way through the public API to each exported error class (the base of a family counts through a subclass). */
const TRIGGERS: Record<string, () => unknown> = {
  ConfigMapInputError: () => thrown(() => api.readConfigMap('data:\n  stubDomains: [1]\n', { filename: 'cm.yaml' })),
  InvalidArgumentError: () => thrown(() => api.parseCorefile(42 as never)),
  GoJsonError: () => {
    const result = api.decodeStubDomains('{"a": [1]}');
    return result.ok ? undefined : result.error;
  },
  UnsupportedKubernetesVersionError: () => thrown(() => api.kubeadmProfileFor('1.21')),
  ClusterDataError: () => thrown(() => api.kubeadmDnsServiceIp('not-a-cidr')),
  CorefileError: () => thrown(() => api.parseCorefile('. {\n    whoami }\n')),
  CorefileSyntaxError: () => thrown(() => api.parseCorefile('. {\n    whoami }\n', { filename: 'Corefile' })),
  CorefilePrintError: () => thrown(() => api.printCorefile(unprintable)),
  CorefileExpansionError: () => thrown(() => api.coreDnsRouting(fanOutCorefile(6, 10))),
  ServerKeyError: () => thrown(() => api.parseServerKey('a..b')),
  UnsupportedKubeDnsVersionError: () => thrown(() => api.translateKubeDns({}, { kubeDnsVersion: '1.0.0' })),
  TranslateOptionsError: () => thrown(() => api.translateKubeDns({}, { clusterDomain: 'not a domain' })),
  SelfCheckError: () => thrown(() => printBuiltCorefile(unprintable, 'translated')),
  UnknownCoreDnsVersionError: () => thrown(() => api.parseCoreDnsVersion('1.8')),
  UnresolvedCoreDnsReleaseError: () => {
    const result = api.resolveCoreDnsRelease('coredns/coredns:latest');
    return result.ok ? undefined : result.error;
  },
  PluginCfgSyntaxError: () => thrown(() => api.parsePluginCfg('errors:errors\nforward\n', 'custom.cfg')),
  RoutingMismatchError: () => thrown(() => api.assertSameRouting({ kubeDns: { stubDomains: '{"acme.local": ["10.0.0.1"]}' }, corefile: '.:53 {\n    forward . 8.8.8.8\n}\n' })),
  UnsupportedNodeCacheReleaseError: () => thrown(() => api.nodeCacheProfile('1.14.0')),
  KubernetesObjectInputError: () => thrown(() => api.readKubeDnsInstall([{ text: 'kind: Deployment\nspec: {}\n', filename: 'deploy.yaml' }])),
  CoreDnsInstallInputError: () => thrown(() => api.buildCoreDnsInstall(api.readKubeDnsInstall([{ text: configMapYaml({}, { apiVersion: false, namespace: null }) }]))),
  NodeCacheInputError: () => thrown(() => api.translateLikeNodeCache('1.26.7', { data: null, baseCorefile: '', localIps: '169.254.20.10', clusterDnsIp: 'kube-dns' })),
};

type ErrorClass = abstract new (...args: never[]) => Error;
const exportedErrorClasses: [string, ErrorClass][] = Object.entries(api as Record<string, unknown>).flatMap(([name, value]) =>
  typeof value === 'function' && value.prototype instanceof Error ? [[name, value as ErrorClass]] : [],
);

describe('the error family', () => {
  it('finds the exported error classes', () => {
    expect(exportedErrorClasses.length).toBeGreaterThanOrEqual(13);
    expect(exportedErrorClasses.map(([name]) => name)).toContain('KubeDnsToCoreDnsError');
  });

  it('has every exported error class derive from KubeDnsToCoreDnsError, and a way to each in the table', () => {
    const classes = exportedErrorClasses.filter(([name]) => name !== 'KubeDnsToCoreDnsError');
    expect(classes.filter(([, errorClass]) => !(errorClass.prototype instanceof KubeDnsToCoreDnsError)).map(([name]) => name)).toEqual([]);
    expect(classes.map(([name]) => name).sort()).toEqual(Object.keys(TRIGGERS).sort());
  });

  it.each(Object.entries(TRIGGERS))('%s carries a code, a category, a reason and at most a position', (name, trigger) => {
    const errorClass = exportedErrorClasses.find(([exported]) => exported === name)?.[1];
    const error = trigger();
    expect(errorClass).toBeDefined();
    expect(error).toBeInstanceOf(errorClass!);
    expect(error).toBeInstanceOf(KubeDnsToCoreDnsError);
    const family = error as KubeDnsToCoreDnsError;
    expect(family.name).toBe(name === 'CorefileError' ? 'CorefileSyntaxError' : name);
    expect(family.code).toMatch(/^[a-z]+(?:-[a-z]+)*$/);
    expect(['input', 'refused', 'internal']).toContain(family.category);
    expect(family.reason).not.toBe('');
    expect(family.message).toContain(family.reason);
    if (family.position !== undefined) {
      expect(family.position.line).toBeGreaterThanOrEqual(1);
      expect(family.position.column).toBeGreaterThanOrEqual(1);
    }
  });

  it('gives each kind of problem its category: bugs are internal, a failed assertion refused, the rest input', () => {
    const categories = Object.fromEntries(Object.entries(TRIGGERS).map(([name, trigger]) => [name, (trigger() as KubeDnsToCoreDnsError).category]));
    expect(Object.entries(categories).filter(([, category]) => category !== 'input')).toEqual([
      ['SelfCheckError', 'internal'],
      ['RoutingMismatchError', 'refused'],
    ]);
  });

  it('carries a position one way: filename and position, and a message that puts them before the reason', () => {
    const configMap = TRIGGERS['ConfigMapInputError']!() as types.ConfigMapInputError;
    expect(configMap).toMatchObject({ code: 'value-not-string', filename: 'cm.yaml', position: { line: 2, column: 3 } });
    expect(configMap.message).toBe(`cm.yaml:2:3: ${configMap.reason}`);
    const syntax = TRIGGERS['CorefileSyntaxError']!() as types.CorefileSyntaxError;
    expect(syntax).toMatchObject({ code: 'unexpected-closing-brace', filename: 'Corefile', position: { line: 2, column: 12 } });
    expect(syntax.message).toBe(`Corefile:2:12: ${syntax.reason}`);
    const json = TRIGGERS['GoJsonError']!() as types.GoJsonError;
    expect(json).toMatchObject({ code: 'type', filename: undefined, position: { line: 1, column: 8, offset: 7 } });
    // Go's wording, without a location.
    expect(json.message).toBe('json: cannot unmarshal number into Go value of type string');
  });

  it('words a located message like a compiler', () => {
    expect(locatedMessage('bad', { filename: 'f', position: { line: 2, column: 3 } })).toBe('f:2:3: bad');
    expect(locatedMessage('bad', { filename: 'f' })).toBe('f: bad');
    expect(locatedMessage('bad', { position: { line: 2, column: 3 } })).toBe('line 2, column 3: bad');
    expect(locatedMessage('bad', {})).toBe('bad');
  });

  it('keeps the Go texts of the kubeadm emulation as they were, under the same base', () => {
    const errors = [new YamlSyntaxError('scanner', 'found character that cannot start any token', undefined), new YamlDecodeError("unknown anchor 'a' referenced"), new GoPanicError('should not happen'), new JsonConversionError('json: unsupported value: NaN')];
    expect(errors.map((error) => [error.name, error.code, error.category, error.message])).toEqual([
      ['YamlSyntaxError', 'yaml-syntax', 'input', 'found character that cannot start any token'],
      ['YamlDecodeError', 'yaml-decode', 'input', "unknown anchor 'a' referenced"],
      ['GoPanicError', 'go-panic', 'input', 'should not happen'],
      ['JsonConversionError', 'json-conversion', 'input', 'json: unsupported value: NaN'],
    ]);
    for (const error of errors) expect(error).toBeInstanceOf(KubeDnsToCoreDnsError);
  });

  it('has no module throw a built-in error: a thrown error is always one of the family (src/errors)', () => {
    const srcRoot = resolve(import.meta.dirname, '../../src');
    const files = (folder: string): string[] =>
      readdirSync(folder, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? files(join(folder, entry.name)) : entry.name.endsWith('.ts') ? [join(folder, entry.name)] : []));
    const builtIn = /\bthrow\s+(?:new\s+)?(Error|TypeError|RangeError|SyntaxError|ReferenceError|EvalError|URIError|AggregateError)\s*\(/g;
    const found = files(srcRoot).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(builtIn)].map((match) => `${relative(srcRoot, file)}: ${match[1]}`));
    expect(found).toEqual([]);
    // The pattern finds what it is for.
    expect('  throw new TypeError(`x`);\n'.match(builtIn)).toHaveLength(1);
  });

  it('reports a value the batch writer cannot represent as its own bug (InternalError), not a TypeError', () => {
    const error = thrown(() => stringifyAsciiJson({ id: 1n }));
    expect(error).toBeInstanceOf(InternalError);
    expect(error).toMatchObject({ code: 'invariant-broken', category: 'internal', message: 'internal: cannot represent a bigint as JSON' });
  });
});
