import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  argumentProblem,
  eraAt,
  judgeArguments,
  optionArgumentsAt,
  optionSyntax,
  parseGoDuration,
  parseGoInteger,
  pluginSyntax,
  pluginSyntaxTable,
  SYNTAX_PLUGINS,
  syntaxRulesAt,
} from '../../src/coredns/plugin-syntax.js';
import type { ArgumentShape, ArgumentSpec, Era } from '../../src/coredns/plugin-syntax.js';
import { coreDnsPluginAvailability, isUsable, kubernetesUpstreamSupport } from '../../src/coredns/availability.js';
import { COREDNS_VERSIONS, compareCoreDnsVersions, isCoreDnsVersionAtLeast } from '../../src/coredns/versions.js';
import type { CoreDnsVersion } from '../../src/coredns/versions.js';

/** The plugins issue 13 asks the table to cover (prometheus is the metrics plugin's directive). */
const REQUIRED = [
  'kubernetes', 'forward', 'proxy', 'cache', 'errors', 'health', 'ready', 'loop', 'reload', 'loadbalance', 'prometheus', 'log', 'hosts', 'rewrite', 'template',
  'federation', 'k8s_external', 'transfer', 'autopath', 'bind', 'acl', 'file', 'etcd', 'grpc',
];

const known = new Set<string>(COREDNS_VERSIONS);

function expectOrdered(eras: readonly Era<unknown>[], where: string, first = '1.0.0'): void {
  expect(eras.length, where).toBeGreaterThan(0);
  expect(eras[0]?.from, where).toBe(first);
  for (const [index, era] of eras.entries()) {
    expect(known.has(era.from), `${where}: ${era.from}`).toBe(true);
    const next = eras[index + 1];
    if (next !== undefined) expect(compareCoreDnsVersions(era.from, next.from), `${where}: ${era.from} before ${next.from}`).toBeLessThan(0);
  }
}

describe('the plugin syntax table', () => {
  it('covers every plugin the issue names, each a plugin some release compiles in', () => {
    for (const plugin of REQUIRED) expect(pluginSyntax(plugin), plugin).toBeDefined();
    for (const plugin of SYNTAX_PLUGINS) {
      expect(COREDNS_VERSIONS.some((version) => isUsable(coreDnsPluginAvailability(plugin, version))), plugin).toBe(true);
    }
  });

  it('has ordered eras from 1.0.0 and option ranges of known releases in order', () => {
    let options = 0;
    for (const [plugin, syntax] of Object.entries(pluginSyntaxTable())) {
      expectOrdered(syntax.arguments, `${plugin} arguments`);
      expectOrdered(syntax.block, `${plugin} block`);
      expectOrdered(syntax.oncePerBlock, `${plugin} once`);
      for (const [name, option] of Object.entries(syntax.options)) {
        options += 1;
        const where = `${plugin} ${name}`;
        for (const version of [option.since, option.deprecatedIn, option.ignoredFrom, option.removedIn, option.onceFrom, option.requires?.from]) {
          if (version !== undefined) expect(known.has(version), `${where}: ${version}`).toBe(true);
        }
        if (option.removedIn !== undefined) expect(compareCoreDnsVersions(option.since, option.removedIn), where).toBeLessThan(0);
        if (option.deprecatedIn !== undefined) expect(isCoreDnsVersionAtLeast(option.deprecatedIn, option.since), where).toBe(true);
        if (!('min' in option.arguments)) expectOrdered(option.arguments as readonly Era<unknown>[], `${where} arguments`, option.since);
        // Every release where the option exists has an argument shape for it.
        for (const version of COREDNS_VERSIONS) {
          if (isCoreDnsVersionAtLeast(version, option.since)) expect(optionArgumentsAt(option, version), `${where} @${version}`).toBeDefined();
        }
        expect(option.evidence, where).toMatch(/setup\.go|upstream\.go/);
      }
    }
    expect(options).toBeGreaterThan(100);
  });

  it('answers per release from its eras', () => {
    const kubernetes = pluginSyntax('kubernetes');
    expect(kubernetes && eraAt(kubernetes.oncePerBlock, '1.0.5')).toBe(false);
    expect(kubernetes && eraAt(kubernetes.oncePerBlock, '1.0.6')).toBe(true);
    const ttl = optionSyntax('kubernetes', 'ttl');
    expect(ttl && optionArgumentsAt(ttl, '1.2.6')?.positions?.[0]).toEqual({ kind: 'integer', min: 5, max: 3600 });
    expect(ttl && optionArgumentsAt(ttl, '1.3.0')?.positions?.[0]).toEqual({ kind: 'integer', min: 0, max: 3600 });
    expect(optionSyntax('kubernetes', 'constructor')).toBeUndefined();
    expect(optionSyntax('whoami', 'anything')).toBeUndefined();
    // Releases with the same rules give the same text; 1.2.5 and 1.2.6 differ (errors reads a block from 1.2.6).
    expect(syntaxRulesAt('1.6.8')).toBe(syntaxRulesAt('1.6.9'));
    expect(syntaxRulesAt('1.2.5')).not.toBe(syntaxRulesAt('1.2.6'));
  });
});

describe('the kubernetes upstream history, read from the table', () => {
  it.each([
    ['1.0.0', 'addresses-required'],
    ['1.0.5', 'addresses-required'],
    ['1.0.6', 'addresses-optional'],
    ['1.3.1', 'addresses-optional'],
    ['1.4.0', 'arguments-ignored'],
    ['1.5.1', 'arguments-ignored'],
    ['1.5.2', 'no-op'],
    ['1.6.9', 'no-op'],
    ['1.7.0', 'removed'],
    ['1.14.7', 'removed'],
  ] as const)('%s: %s', (version, support) => {
    expect(kubernetesUpstreamSupport(version)).toBe(support);
  });
});

describe('reading arguments as Go does', () => {
  it.each([
    ['30s', 30],
    ['1m30s', 90],
    ['1.5h', 5400],
    ['0', 0],
    ['-1s', -1],
    ['500ms', 0.5],
    ['+2m', 120],
    ['30', undefined],
    ['', undefined],
    ['s', undefined],
    ['1d', undefined],
    ['.s', undefined],
  ] as const)('duration %j', (text, seconds) => {
    const parsed = parseGoDuration(text);
    if (seconds === undefined) expect(parsed).toBeUndefined();
    else expect(parsed).toBeCloseTo(seconds, 9);
  });

  it('reads integers like strconv.Atoi', () => {
    expect(['10', '-1', '+3', '007', '1.5', 'ten', '', '1e3'].map(parseGoInteger)).toEqual([10, -1, 3, 7, undefined, undefined, undefined, undefined]);
  });

  it('says what is wrong with one argument', () => {
    expect(argumentProblem('abc', { kind: 'duration' })).toBe("'abc' is not a duration (e.g. 30s, 5m)");
    expect(argumentProblem('1s', { kind: 'duration', min: 2 })).toBe("'1s' is less than 2s");
    expect(argumentProblem('0', { kind: 'duration', min: 1, orZero: true })).toBeUndefined();
    expect(argumentProblem('-1s', { kind: 'duration', min: 0 })).toBe("'-1s' is negative");
    expect(argumentProblem('3601', { kind: 'integer', min: 0, max: 3600 })).toBe('3601 is outside [0, 3600]');
    expect(argumentProblem('cluster.local', { kind: 'integer', min: 1, orOther: true })).toBeUndefined();
    expect(argumentProblem('0', { kind: 'integer', min: 1, orOther: true })).toBe('0 is outside [1, …]');
    expect(argumentProblem('Verify', { kind: 'enum', values: ['verify'], caseInsensitive: true })).toBeUndefined();
    expect(argumentProblem('Verify', { kind: 'enum', values: ['verify'] })).toBe("'Verify' is not one of verify");
    expect(argumentProblem('80', { kind: 'host-port' })).toBe("'80' is not HOST:PORT");
    expect(argumentProblem(':8080', { kind: 'host-port' })).toBeUndefined();
    expect(argumentProblem('10.0.0.300', { kind: 'ip' })).toBe("'10.0.0.300' is not an IP address");
    expect(argumentProblem('50%', { kind: 'percent', min: 10, max: 90 })).toBeUndefined();
    expect(argumentProblem('2.5', { kind: 'number', min: 0 })).toBeUndefined();
    expect(argumentProblem('-1', { kind: 'number', min: 0 })).toBe('-1 is less than 0');
    expect(argumentProblem('fast', { kind: 'number' })).toBe("'fast' is not a number");
    expect(argumentProblem('5%', { kind: 'percent', min: 10, max: 90 })).toBe('5% is outside [10, 90]');
    expect(argumentProblem('50', { kind: 'percent', min: 10, max: 90 })).toBe("'50' does not end with %");
  });

  it('judges counts before kinds, and positions before the rest', () => {
    expect(judgeArguments([], { min: 1, max: 1 })).toEqual({ kind: 'count', expected: 'exactly 1' });
    expect(judgeArguments(['a', 'b', 'c'], { min: 0, max: 2 })).toEqual({ kind: 'count', expected: '0 to 2' });
    expect(judgeArguments([], { min: 2 })).toEqual({ kind: 'count', expected: 'at least 2' });
    expect(judgeArguments(['5m', 'x'], { min: 1, positions: [{ kind: 'duration' }], rest: { kind: 'enum', values: ['all'] } })).toEqual({ kind: 'invalid', index: 1, problem: "'x' is not one of all" });
    expect(judgeArguments(['5m', 'all'], { min: 1, positions: [{ kind: 'duration' }], rest: { kind: 'enum', values: ['all'] } })).toEqual({ kind: 'ok' });
  });

  it('judges a shape chosen by the first word (loadbalance from 1.10.1)', () => {
    const shape = pluginSyntax('loadbalance') && eraAt(pluginSyntax('loadbalance')!.arguments, '1.14.7');
    if (shape === undefined || shape === 'unchecked') throw new Error('loadbalance has an argument shape');
    expect(judgeArguments([], shape)).toEqual({ kind: 'ok' });
    expect(judgeArguments(['round_robin'], shape)).toEqual({ kind: 'ok' });
    expect(judgeArguments(['round_robin', 'extra'], shape)).toEqual({ kind: 'count', expected: 'exactly 1 (with round_robin)' });
    expect(judgeArguments(['weighted'], shape)).toEqual({ kind: 'count', expected: 'exactly 2 (with weighted)' });
    expect(judgeArguments(['weighted', '/etc/weights'], shape)).toEqual({ kind: 'ok' });
    // Before 1.2.0 setup reads no argument at all.
    const old = eraAt(pluginSyntax('loadbalance')!.arguments, '1.1.3');
    expect(old !== undefined && old !== 'unchecked' && judgeArguments(['anything', 'at', 'all'], old)).toEqual({ kind: 'ok' });
  });

  it('judges sections (acl) and networks as Go reads them', () => {
    const shape = optionArgumentsAt(optionSyntax('acl', 'block')!, '1.14.7');
    if (shape === undefined) throw new Error('acl block has a shape');
    expect(judgeArguments([], shape)).toEqual({ kind: 'ok' });
    expect(judgeArguments(['type', 'A', 'AAAA', 'NET', '10.0.0.0/8', '192.168.0.1', 'fd00::/8'], shape)).toEqual({ kind: 'ok' });
    expect(judgeArguments(['type', '*', 'net', '*'], shape)).toEqual({ kind: 'ok' });
    expect(judgeArguments(['net'], shape)).toEqual({ kind: 'invalid', index: 0, problem: "no argument after 'net'" });
    expect(judgeArguments(['type', 'net', '10.0.0.0/8'], shape)).toEqual({ kind: 'invalid', index: 0, problem: "no argument after 'type'" });
    expect(judgeArguments(['bogus', '10.0.0.0/8'], shape)).toEqual({ kind: 'invalid', index: 0, problem: "'bogus' is not one of type, net" });
    expect(judgeArguments(['type', 'aaaa'], shape)).toMatchObject({ kind: 'invalid', index: 1 });
    for (const network of ['10.0.0.0/33', 'fd00::/129', '10.0.0.0/', 'fe80::1%eth0/64', '10.0.0/8', '10.0.0.0/-1']) {
      expect(argumentProblem(network, { kind: 'cidr' }), network).toBe(`'${network}' is not a network in CIDR notation`);
    }
    expect(argumentProblem('10.0.0.1', { kind: 'cidr' })).toBeDefined();
    expect(argumentProblem('10.0.0.1', { kind: 'cidr', bareIp: true })).toBeUndefined();
    expect(argumentProblem('::1', { kind: 'cidr', bareIp: true })).toBeUndefined();
  });

  it("judges template's class and type as miekg/dns spells them", () => {
    const shape = eraAt(pluginSyntax('template')!.arguments, '1.14.7');
    if (shape === undefined || shape === 'unchecked') throw new Error('template has an argument shape');
    expect(judgeArguments(['IN', 'A', 'acme.local'], shape)).toEqual({ kind: 'ok' });
    expect(judgeArguments(['ANY', 'HTTPS'], shape)).toEqual({ kind: 'ok' });
    expect(judgeArguments(['in', 'A'], shape)).toMatchObject({ kind: 'invalid', index: 0 });
    expect(judgeArguments(['IN', 'aaaa'], shape)).toMatchObject({ kind: 'invalid', index: 1 });
    expect(judgeArguments(['IN'], shape)).toEqual({ kind: 'count', expected: 'at least 2' });
  });

  it("judges template's rcode as a key of the release's miekg/dns StringToRcode, and ederror as ParseUint(…, 16)", () => {
    const rcode = optionSyntax('template', 'rcode')!;
    const accepted = (word: string, version: CoreDnsVersion) => judgeArguments([word], optionArgumentsAt(rcode, version)!).kind === 'ok';
    for (const version of ['1.0.3', '1.2.6', '1.3.0', '1.12.1', '1.12.2', '1.14.7'] as const) {
      for (const word of ['NOERROR', 'NXDOMAIN', 'SERVFAIL', 'REFUSED', 'NOTIMPL', 'BADCOOKIE']) expect(accepted(word, version), `${word} @${version}`).toBe(true);
      for (const word of ['nxdomain', 'NXDomain', '3', 'BADVERS', 'BOGUS', '']) expect(accepted(word, version), `${word} @${version}`).toBe(false);
    }
    // miekg/dns v1.1.0 renamed NOTIMPL to NOTIMP (CoreDNS 1.3.0 builds with v1.1.1); v1.1.66 added DSOTYPENI (CoreDNS 1.12.2).
    expect((['1.0.3', '1.2.6', '1.3.0', '1.14.7'] as const).map((version) => accepted('NOTIMP', version))).toEqual([false, false, true, true]);
    expect((['1.3.0', '1.12.1', '1.12.2', '1.14.7'] as const).map((version) => accepted('DSOTYPENI', version))).toEqual([false, false, true, true]);
    expect(judgeArguments(['NXDOMAIN', 'REFUSED'], optionArgumentsAt(rcode, '1.14.7')!)).toEqual({ kind: 'count', expected: 'exactly 1' });
    const ederror = optionArgumentsAt(optionSyntax('template', 'ederror')!, '1.14.7')!;
    expect(['0', '15', '0015', '65535', '65536', '+15', '-1', 'blocked', '1e3'].map((code) => judgeArguments([code], ederror).kind)).toEqual(['ok', 'ok', 'ok', 'ok', 'invalid', 'invalid', 'invalid', 'invalid', 'invalid']);
    expect(judgeArguments(['15', 'blocked by policy'], ederror)).toEqual({ kind: 'ok' });
  });
});

function describeSpec(spec: ArgumentSpec): string {
  switch (spec.kind) {
    case 'any':
      return 'any';
    case 'duration':
      return spec.min === undefined ? 'duration' : `duration ≥ ${spec.min}s${spec.orZero === true ? ' or 0' : ''}`;
    case 'integer': {
      const range = spec.min === undefined && spec.max === undefined ? '' : ` ${spec.min ?? '…'}–${spec.max ?? '…'}`;
      return `${spec.unsigned === true ? 'unsigned ' : ''}integer${range}${spec.orOther === true ? ' (if an integer)' : ''}`;
    }
    case 'enum':
      // A long list (the DNS record types) is named by its size and first words.
      return spec.values.length > 12 ? `one of ${spec.values.length} words (${spec.values.slice(0, 3).join(', ')}, …)` : spec.values.join('\\|');
    case 'number':
      return spec.min === undefined ? 'number' : `number ≥ ${spec.min}`;
    case 'host-port':
      return 'HOST:PORT';
    case 'ip':
      return 'IP';
    case 'percent':
      return `${spec.min}%–${spec.max}%`;
    case 'cidr':
      return `CIDR${spec.bareIp === true ? ' or IP' : ''}${spec.wildcard === true ? ' or *' : ''}`;
    case 'go-regexp':
      return `${spec.syntax.lenientClassNames === true ? 'Go ≥ 1.25 regexp' : spec.syntax.angleNamedGroups === true ? 'Go ≥ 1.22 regexp' : 'Go regexp'}${spec.lowerCased === true ? ' (lower-cased)' : ''}`;
  }
}

function describeShape(shape: ArgumentShape | 'unchecked'): string {
  if (shape === 'unchecked') return 'destinations (forward/proxy rules)';
  const count = shape.max === undefined ? `≥ ${shape.min}` : shape.min === shape.max ? `${shape.min}` : `${shape.min}–${shape.max}`;
  const kinds = [
    ...(shape.positions ?? []).map(describeSpec),
    ...(shape.rest === undefined ? [] : [`each: ${describeSpec(shape.rest)}`]),
    ...Object.entries(shape.cases ?? {}).map(([word, inner]) => `with ${word}: ${describeShape(inner)}`),
    ...Object.entries(shape.sections?.specs ?? {}).map(([word, spec]) => `section ${word} (1 or more: ${describeSpec(spec)})`),
  ].filter((kind) => kind !== 'any');
  return kinds.length === 0 ? count : `${count} (${kinds.join(', ')})`;
}

function describeEras<T>(eras: readonly Era<T>[], describe: (value: T) => string): string {
  return eras.length === 1 && eras[0] !== undefined ? describe(eras[0].value) : eras.map((era) => `${era.from}: ${describe(era.value)}`).join('; ');
}

/** The table of docs/coredns-versions.md, "Plugin arguments and options per release". */
function syntaxTable(): string {
  const lines = ['| plugin | line / option | arguments | releases | source |', '| --- | --- | --- | --- | --- |'];
  for (const [plugin, syntax] of Object.entries(pluginSyntaxTable()).sort(([a], [b]) => a.localeCompare(b))) {
    const once = syntax.oncePerBlock.filter((era) => era.value === true).map((era) => {
      const end = syntax.oncePerBlock.find((other) => other.value !== true && compareCoreDnsVersions(other.from, era.from) > 0);
      return end === undefined ? `${era.from}–` : `${era.from}–before ${end.from}`;
    });
    const notes = [
      `block: ${describeEras(syntax.block, (value) => value)}`,
      ...(once.length === 0 ? [] : [`once per block ${once.join(', ')}`]),
      ...(syntax.requiresPlugin === undefined ? [] : [`needs ${syntax.requiresPlugin.plugin} ${syntax.requiresPlugin.from}–`]),
      ...(syntax.requiredOptions ?? []).map((entry) => `needs \`${entry.option}\` ${entry.from}–`),
      ...(syntax.requiredOneOf === undefined
        ? []
        : [`needs one of (unless \`${syntax.requiredOneOf.unless.option}\` is not ${syntax.requiredOneOf.unless.value}) ${describeEras(syntax.requiredOneOf.eras, (lines) => (lines.length === 0 ? 'none' : lines.map((line) => `\`${line}\``).join(', ')))}`]),
      ...(syntax.blockExtendsArguments === true ? ['block tokens extend a short line'] : []),
    ];
    lines.push(`| ${plugin} | (line) | ${describeEras(syntax.arguments, describeShape)} | ${notes.join('; ')} | ${syntax.evidence} |`);
    for (const [name, option] of Object.entries(syntax.options).sort(([a], [b]) => a.localeCompare(b))) {
      const shape = 'min' in option.arguments ? describeShape(option.arguments) : describeEras(option.arguments as readonly Era<ArgumentShape>[], describeShape);
      const releases = [
        `${option.since}${option.confirmedFrom === true ? ' (confirmed from)' : ''}–${option.removedIn === undefined ? '' : `before ${option.removedIn}`}`,
        ...(option.deprecatedIn === undefined ? [] : [`deprecated ${option.deprecatedIn}`]),
        ...(option.ignoredFrom === undefined ? [] : [`no effect from ${option.ignoredFrom}`]),
        ...(option.onceFrom === undefined ? [] : [`once ${option.onceFrom}–`]),
        ...(option.requires === undefined ? [] : [`needs ${option.requires.what}`]),
        ...(option.replacement === undefined ? [] : [`replaced by ${option.replacement}`]),
      ];
      lines.push(`| ${plugin} | \`${name}\` | ${shape} | ${releases.join('; ')} | ${option.evidence} |`);
    }
  }
  return lines.join('\n');
}

describe('docs/coredns-versions.md', () => {
  it('the plugin syntax table matches the data', () => {
    const markdown = readFileSync(join(import.meta.dirname, '../../docs/coredns-versions.md'), 'utf8');
    const start = '<!-- generated:syntax -->\n';
    const from = markdown.indexOf(start);
    const to = markdown.indexOf('\n<!-- /generated:syntax -->');
    if (process.env['PRINT_COREDNS_DOC_TABLES'] === '1') console.log(syntaxTable());
    expect(from, 'docs/coredns-versions.md lacks the generated:syntax markers').toBeGreaterThanOrEqual(0);
    expect(markdown.slice(from + start.length, to)).toBe(syntaxTable());
  });
});

describe('a Go float argument (kubernetes apiserver_qps) at scale', () => {
  it('reads a 300 KB token in linear time (the pattern backtracked quadratically: lint took 89 s)', () => {
    const digits = '1'.repeat(300_000);
    expect(argumentProblem(`${digits}x`, { kind: 'number', min: 0 })).toBe(`'${digits}x' is not a number`);
    expect(argumentProblem(`${digits}.${digits}e${digits}`, { kind: 'number', min: 0 })).toBeUndefined();
    for (const text of ['1', '1.', '1.5', '.5', '1e5', '1.e5', '+.5e-3', 'inf', '-Infinity']) expect(argumentProblem(text, { kind: 'number' }), text).toBeUndefined();
    for (const text of ['', '.', '1..2', '1e', '.e5', 'e5', '0x10', '1_0']) expect(argumentProblem(text, { kind: 'number' }), text).toBe(`'${text}' is not a number`);
  });
});
