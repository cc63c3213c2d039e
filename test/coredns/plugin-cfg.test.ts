import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  allPluginNames,
  compiledPlugin,
  compiledPlugins,
  isCompiledIn,
  loadablePlugins,
  parsePluginCfg,
  PLUGIN_CFG,
  PluginCfgSyntaxError,
  pluginHistory,
} from '../../src/coredns/plugin-cfg.js';
import { compareCoreDnsVersions, COREDNS_VERSIONS, isCoreDnsVersion } from '../../src/coredns/versions.js';

describe('the plugin.cfg table: integrity', () => {
  it('starts at the oldest release and lists entries strictly in release order', () => {
    expect(PLUGIN_CFG[0]?.from).toBe(COREDNS_VERSIONS[0]);
    for (let index = 1; index < PLUGIN_CFG.length; index += 1) {
      expect(isCoreDnsVersion(PLUGIN_CFG[index]!.from)).toBe(true);
      expect(compareCoreDnsVersions(PLUGIN_CFG[index - 1]!.from, PLUGIN_CFG[index]!.from)).toBe(-1);
    }
  });

  it('gives every known release a list', () => {
    for (const version of COREDNS_VERSIONS) expect(compiledPlugins(version).length, version).toBeGreaterThan(25);
    expect(compiledPlugins('1.11.2')).toBe(compiledPlugins('1.11.1'));
  });

  it('only starts an entry where the list really changes', () => {
    for (let index = 1; index < PLUGIN_CFG.length; index += 1) {
      expect(PLUGIN_CFG[index]!.words.join(' '), PLUGIN_CFG[index]!.from).not.toBe(PLUGIN_CFG[index - 1]!.words.join(' '));
    }
  });

  it('writes every word as a directive name, optionally with a module or the placeholder mark', () => {
    const words = PLUGIN_CFG.flatMap((entry) => entry.words.flatMap((line) => line.split(' ')));
    expect(words.length).toBeGreaterThan(1000);
    for (const word of words) expect(word).toMatch(/^[a-z][a-z0-9_]*(?:@[a-z0-9.\-/]+|!)?$/);
  });

  it('names each plugin at most once per release', () => {
    for (const version of COREDNS_VERSIONS) {
      const names = compiledPlugins(version).map((plugin) => plugin.name);
      expect(new Set(names).size, version).toBe(names.length);
    }
  });

  it('keeps a placeholder only where the plugin was compiled in the release before', () => {
    let placeholders = 0;
    for (let index = 1; index < COREDNS_VERSIONS.length; index += 1) {
      for (const plugin of compiledPlugins(COREDNS_VERSIONS[index]!)) {
        if (plugin.placeholder !== true) continue;
        placeholders += 1;
        expect(compiledPlugin(plugin.name, COREDNS_VERSIONS[index - 1]!)).toBeDefined();
      }
    }
    expect(placeholders).toBeGreaterThan(0);
  });

  it('has no plugin that left the default build and came back (pluginHistory assumes one span)', () => {
    for (const name of allPluginNames()) {
      const spans = COREDNS_VERSIONS.map((version) => (isCompiledIn(name, version) ? '1' : '0')).join('').replace(/0+|1+/g, (run) => run[0]!);
      expect(['1', '01', '10', '010'], name).toContain(spans);
    }
    expect(allPluginNames().length).toBeGreaterThan(60);
  });
});

describe('compiledPlugin', () => {
  it('answers as the parsed list of every release does, for every name and for names no list has', () => {
    const names = [...allPluginNames(), '', 'Forward', 'startup!', 'kube', 'on@github.com/mholt/caddy/onevent', 'no-such-plugin'];
    let found = 0;
    for (const version of COREDNS_VERSIONS) {
      const list = compiledPlugins(version);
      for (const name of names) {
        const expected = list.find((plugin) => plugin.name === name);
        expect(compiledPlugin(name, version), `${name} ${version}`).toEqual(expected);
        if (expected !== undefined) found += 1;
      }
    }
    expect(found).toBeGreaterThan(COREDNS_VERSIONS.length * 30);
  });
});

describe('pluginHistory', () => {
  it('reads each history entry by entry as release by release, for every name and for names no release has', () => {
    const byRelease = (name: string) => {
      let firstRelease: string | undefined;
      let goneIn: string | undefined;
      for (const version of COREDNS_VERSIONS) {
        const present = isCompiledIn(name, version);
        if (present && firstRelease === undefined) firstRelease = version;
        if (!present && firstRelease !== undefined && goneIn === undefined) goneIn = version;
      }
      return { name, firstRelease, goneIn };
    };
    const names = [...allPluginNames(), '', 'Cache', 'forward!', 'on@github.com/mholt/caddy/onevent', 'startup!', 'kube', 'netes', 'no-such-plugin', 'cache kubernetes'];
    for (const name of names) expect(pluginHistory(name), name).toEqual(byRelease(name));
    expect(names.filter((name) => pluginHistory(name).goneIn !== undefined).length).toBeGreaterThan(3);
  });
});

describe('the plugin.cfg table: facts from the release notes', () => {
  it.each([
    ['proxy', '1.0.0', '1.5.0'],
    ['federation', '1.0.0', '1.7.0'],
    ['forward', '1.0.5', undefined],
    ['reload', '1.1.0', undefined],
    ['loop', '1.2.1', undefined],
    ['k8s_external', '1.3.0', undefined],
    ['ready', '1.5.0', undefined],
    ['transfer', '1.6.5', undefined],
    ['dns64', '1.7.0', undefined],
    ['view', '1.10.0', undefined],
    ['shed', '1.14.7', undefined],
    ['startup', '1.0.0', '1.1.0'],
    ['reverse', '1.0.0', '1.1.4'],
  ])('%s: from %s, gone in %s', (name, firstRelease, goneIn) => {
    expect(pluginHistory(name)).toEqual({ name, firstRelease, goneIn });
  });

  it('marks the modules outside the tree', () => {
    expect(compiledPlugin('forward', '1.0.5')?.externalModule).toBe('github.com/coredns/forward');
    expect(compiledPlugin('forward', '1.0.6')?.externalModule).toBeUndefined();
    expect(compiledPlugin('federation', '1.6.3')?.externalModule).toBe('github.com/coredns/federation');
    expect(compiledPlugin('federation', '1.6.2')?.externalModule).toBeUndefined();
  });

  it('keeps plugin.cfg order, which is the chain order', () => {
    const order = (version: string) => compiledPlugins(version).map((plugin) => plugin.name);
    for (const version of ['1.2.6', '1.8.0', '1.14.7']) {
      expect(order(version).indexOf('cache'), version).toBeLessThan(order(version).indexOf('kubernetes'));
      expect(order(version).indexOf('kubernetes'), version).toBeLessThan(order(version).indexOf('forward'));
    }
    expect(order('1.14.7').slice(0, 2)).toEqual(['root', 'metadata']);
  });
});

// docs/coredns-versions.md: the plugin changes table is generated from the data and checked here.
function pluginChangesTable(): string {
  const describe = (plugin: { name: string; externalModule?: string; placeholder?: true }): string =>
    plugin.placeholder === true ? `${plugin.name} (placeholder)` : plugin.externalModule === undefined ? plugin.name : `${plugin.name} (${plugin.externalModule})`;
  const lines = ['| release | added | removed or emptied | changed |', '| --- | --- | --- | --- |'];
  let previous: ReturnType<typeof compiledPlugins> = [];
  for (const entry of PLUGIN_CFG) {
    const current = compiledPlugins(entry.from);
    const before = new Map(previous.map((plugin) => [plugin.name, plugin]));
    const now = new Map(current.map((plugin) => [plugin.name, plugin]));
    const added = current.filter((plugin) => !before.has(plugin.name)).map(describe);
    const removed = previous.filter((plugin) => !now.has(plugin.name)).map((plugin) => plugin.name);
    const changed = current.filter((plugin) => before.has(plugin.name) && describe(before.get(plugin.name)!) !== describe(plugin)).map(describe);
    const kept = previous.filter((plugin) => now.has(plugin.name)).map((plugin) => plugin.name).join(' ');
    const order = current.filter((plugin) => before.has(plugin.name)).map((plugin) => plugin.name).join(' ');
    if (previous.length > 0 && kept !== order) changed.push('chain order');
    const list = (items: readonly string[]): string => (items.length === 0 ? '–' : items.join(', '));
    lines.push(`| ${entry.from} | ${previous.length === 0 ? `${current.length} plugins` : list(added)} | ${list(removed)} | ${list(changed)} |`);
    previous = current;
  }
  return lines.join('\n');
}

describe('docs/coredns-versions.md', () => {
  it('the plugins table matches the data', () => {
    const markdown = readFileSync(join(import.meta.dirname, '../../docs/coredns-versions.md'), 'utf8');
    const start = '<!-- generated:plugins -->\n';
    const from = markdown.indexOf(start);
    const to = markdown.indexOf('\n<!-- /generated:plugins -->');
    if (process.env['PRINT_COREDNS_DOC_TABLES'] === '1') console.log(pluginChangesTable());
    expect(from, 'docs/coredns-versions.md lacks the generated:plugins markers').toBeGreaterThanOrEqual(0);
    expect(markdown.slice(from + start.length, to)).toBe(pluginChangesTable());
  });
});

describe('parsePluginCfg (a custom build\'s plugin.cfg)', () => {
  const file = [
    '# Directives are registered in the order they should be executed.',
    '',
    'metadata:metadata',
    'errors:errors',
    '  # indented comment',
    'alias:github.com/serverwentdown/alias\r',
    'reverse:deprecated',
    'forward:forward',
    '',
  ].join('\n');

  it('reads NAME:PACKAGE lines in order, skipping comments and blank lines', () => {
    expect(parsePluginCfg(file)).toEqual([
      { name: 'metadata', source: 'metadata', line: 3 },
      { name: 'errors', source: 'errors', line: 4 },
      { name: 'alias', source: 'github.com/serverwentdown/alias', line: 6 },
      { name: 'reverse', source: 'deprecated', line: 7 },
      { name: 'forward', source: 'forward', line: 8 },
    ]);
    expect(loadablePlugins(parsePluginCfg(file))).toEqual(['metadata', 'errors', 'alias', 'forward']);
    expect(parsePluginCfg('')).toEqual([]);
  });

  it.each([
    ['errors\n', 1, "expected NAME:PACKAGE, got 'errors'"],
    ['errors:errors\nlog:a:b\n', 2, "expected NAME:PACKAGE, got 'log:a:b'"],
    ['two words:x\n', 1, "'two words' is not a directive name"],
    ['errors:\n', 1, "'errors' names no package"],
    ['errors:errors\n\nerrors:errors\n', 3, "'errors' is listed twice (first on line 1)"],
  ])('refuses %j at line %i', (text, line, reason) => {
    let error: unknown;
    try {
      parsePluginCfg(text);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(PluginCfgSyntaxError);
    expect(error).toMatchObject({ line, reason, category: 'input', position: { line, column: 1 }, message: `plugin.cfg:${line}: ${reason}` });
    expect(() => parsePluginCfg(text, 'custom.cfg')).toThrow(`custom.cfg:${line}: ${reason}`);
  });

  it('reads the list of every release back, as plugin.cfg would write it', () => {
    for (const entry of PLUGIN_CFG) {
      const plugins = compiledPlugins(entry.from);
      const text = plugins.map((plugin) => `${plugin.name}:${plugin.placeholder === true ? 'deprecated' : (plugin.externalModule ?? plugin.name)}`).join('\n');
      const loadable = plugins.filter((plugin) => plugin.placeholder !== true).map((plugin) => plugin.name);
      expect(loadablePlugins(parsePluginCfg(text)), entry.from).toEqual(loadable);
    }
  });
});
