/**
 * The plugins compiled into the default build of every CoreDNS release, in chain order: the
 * `plugin.cfg` of each release tag of coredns/coredns, v1.0.0 to v1.14.7 (docs/coredns-versions.md,
 * "Plugins of each release", says how the table was read and how to add a release).
 *
 * Data first: {@link PLUGIN_CFG} lists one entry per distinct plugin list; an entry holds from its
 * release up to (not including) the next entry's. Each word is a directive name, optionally marked:
 * - `name@module` — plugin.cfg names a Go module outside the CoreDNS tree (`forward` in 1.0.5,
 *   `federation` in 1.6.3–1.6.9, `on` always); the default build still compiles it in;
 * - `name!` — plugin.cfg keeps the name with the value `deprecated`: the directive keeps its
 *   place in the order but no code is compiled in, so a Corefile using it does not load.
 *
 * The list order is the order in which CoreDNS runs a server block's plugins, whatever their
 * order in the Corefile. 1.11.2 has release notes but no tag (and no plugin.cfg of its own); its
 * notes name no plugin change, so it shares the 1.11.1 list.
 *
 * Pure data and functions: no Node APIs.
 */
import { InternalError } from '../errors/internal-error.js';
import { checkArgument } from '../errors/arguments.js';
import { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';
import { COREDNS_VERSIONS, parseCoreDnsVersion } from './versions.js';
import type { CoreDnsVersion } from './versions.js';

interface PluginCfgEntry {
  /** First release with exactly this list. */
  readonly from: CoreDnsVersion;
  /** The list, space-separated words in chain order (split over lines for reading only). */
  readonly words: readonly string[];
}

function release(from: CoreDnsVersion, words: readonly string[]): PluginCfgEntry {
  return { from, words };
}

/** One entry per distinct plugin.cfg, oldest first. */
export const PLUGIN_CFG: readonly PluginCfgEntry[] = [
  release('1.0.0', [
    'tls root bind debug trace health pprof prometheus errors log dnstap chaos cache rewrite',
    'loadbalance dnssec autopath reverse hosts federation kubernetes file auto secondary etcd proxy',
    'erratic whoami startup@github.com/mholt/caddy/startupshutdown',
    'shutdown@github.com/mholt/caddy/startupshutdown',
  ]),
  release('1.0.1', [
    'tls nsid root bind debug trace health pprof prometheus errors log dnstap chaos cache rewrite',
    'loadbalance dnssec autopath reverse hosts federation kubernetes file auto secondary etcd proxy',
    'erratic whoami startup@github.com/mholt/caddy/startupshutdown',
    'shutdown@github.com/mholt/caddy/startupshutdown',
  ]),
  release('1.0.3', [
    'tls nsid root bind debug trace health pprof prometheus errors log dnstap chaos cache rewrite',
    'loadbalance dnssec autopath reverse template hosts federation kubernetes file auto secondary',
    'etcd proxy erratic whoami startup@github.com/mholt/caddy/startupshutdown',
    'shutdown@github.com/mholt/caddy/startupshutdown',
  ]),
  release('1.0.5', [
    'tls nsid root bind debug trace health pprof prometheus errors log dnstap chaos loadbalance cache',
    'rewrite dnssec autopath reverse template hosts route53 federation kubernetes file auto secondary',
    'etcd forward@github.com/coredns/forward proxy erratic whoami on@github.com/mholt/caddy/onevent',
    'startup@github.com/mholt/caddy/startupshutdown shutdown@github.com/mholt/caddy/startupshutdown',
  ]),
  release('1.0.6', [
    'tls nsid root bind debug trace health pprof prometheus errors log dnstap chaos loadbalance cache',
    'rewrite dnssec autopath reverse template hosts route53 federation kubernetes file auto secondary',
    'etcd forward proxy erratic whoami on@github.com/mholt/caddy/onevent',
    'startup@github.com/mholt/caddy/startupshutdown shutdown@github.com/mholt/caddy/startupshutdown',
  ]),
  release('1.1.0', [
    'tls reload nsid root bind debug trace health pprof prometheus errors log dnstap chaos',
    'loadbalance cache rewrite dnssec autopath reverse template hosts route53 federation kubernetes',
    'file auto secondary etcd forward proxy erratic whoami on@github.com/mholt/caddy/onevent startup!',
    'shutdown!',
  ]),
  release('1.1.1', [
    'tls reload nsid root bind debug trace health pprof prometheus errors log dnstap chaos',
    'loadbalance cache rewrite dnssec autopath reverse template hosts route53 federation kubernetes',
    'file auto secondary etcd forward proxy erratic whoami on@github.com/mholt/caddy/onevent',
  ]),
  release('1.1.4', [
    'tls reload nsid root bind debug trace health pprof prometheus errors log dnstap chaos',
    'loadbalance cache rewrite dnssec autopath reverse! template hosts route53 federation kubernetes',
    'file auto secondary etcd forward proxy erratic whoami on@github.com/mholt/caddy/onevent',
  ]),
  release('1.2.0', [
    'metadata tls reload nsid root bind debug trace health pprof prometheus errors log dnstap chaos',
    'loadbalance cache rewrite dnssec autopath template hosts route53 federation kubernetes file auto',
    'secondary etcd forward proxy erratic whoami on@github.com/mholt/caddy/onevent',
  ]),
  release('1.2.1', [
    'metadata tls reload nsid root bind debug trace health pprof prometheus errors log dnstap chaos',
    'loadbalance cache rewrite dnssec autopath template hosts route53 federation kubernetes file auto',
    'secondary etcd loop forward proxy erratic whoami on@github.com/mholt/caddy/onevent',
  ]),
  release('1.3.0', [
    'metadata tls reload nsid root bind debug trace health pprof prometheus errors log dnstap chaos',
    'loadbalance cache rewrite dnssec autopath template hosts route53 federation k8s_external',
    'kubernetes file auto secondary etcd loop forward proxy erratic whoami',
    'on@github.com/mholt/caddy/onevent',
  ]),
  release('1.5.0', [
    'metadata cancel tls reload nsid root bind debug trace ready health pprof prometheus errors log',
    'dnstap chaos loadbalance cache rewrite dnssec autopath template hosts route53 federation',
    'k8s_external kubernetes file auto secondary etcd loop forward grpc erratic whoami',
    'on@github.com/mholt/caddy/onevent',
  ]),
  release('1.5.1', [
    'metadata cancel tls reload nsid root bind debug trace ready health pprof prometheus errors log',
    'dnstap any chaos loadbalance cache rewrite dnssec autopath template hosts route53 federation',
    'k8s_external kubernetes file auto secondary etcd loop forward grpc erratic whoami',
    'on@github.com/mholt/caddy/onevent',
  ]),
  release('1.5.2', [
    'metadata cancel tls reload nsid root bind debug trace ready health pprof prometheus errors log',
    'dnstap any chaos loadbalance cache rewrite dnssec autopath template hosts route53 federation',
    'k8s_external kubernetes file auto secondary etcd loop forward grpc erratic whoami',
    'on@github.com/caddyserver/caddy/onevent',
  ]),
  release('1.6.2', [
    'metadata cancel tls reload nsid root bind debug trace ready health pprof prometheus errors log',
    'dnstap any chaos loadbalance cache rewrite dnssec autopath template hosts route53 azure',
    'federation k8s_external kubernetes file auto secondary etcd loop forward grpc erratic whoami',
    'on@github.com/caddyserver/caddy/onevent',
  ]),
  release('1.6.3', [
    'metadata cancel tls reload nsid root bind debug trace ready health pprof prometheus errors log',
    'dnstap any chaos loadbalance cache rewrite dnssec autopath template hosts route53 azure clouddns',
    'federation@github.com/coredns/federation k8s_external kubernetes file auto secondary etcd loop',
    'forward grpc erratic whoami on@github.com/caddyserver/caddy/onevent sign',
  ]),
  release('1.6.4', [
    'metadata cancel tls reload nsid root bind debug trace ready health pprof prometheus errors log',
    'dnstap acl any chaos loadbalance cache rewrite dnssec autopath template hosts route53 azure',
    'clouddns federation@github.com/coredns/federation k8s_external kubernetes file auto secondary',
    'etcd loop forward grpc erratic whoami on@github.com/caddyserver/caddy/onevent sign',
  ]),
  release('1.6.5', [
    'metadata cancel tls reload nsid root bind debug trace ready health pprof prometheus errors log',
    'dnstap acl any chaos loadbalance cache rewrite dnssec autopath template transfer hosts route53',
    'azure clouddns federation@github.com/coredns/federation k8s_external kubernetes file auto',
    'secondary etcd loop forward grpc erratic whoami on@github.com/caddyserver/caddy/onevent sign',
  ]),
  release('1.6.6', [
    'metadata cancel tls reload nsid bufsize root bind debug trace ready health pprof prometheus',
    'errors log dnstap acl any chaos loadbalance cache rewrite dnssec autopath template transfer',
    'hosts route53 azure clouddns federation@github.com/coredns/federation k8s_external kubernetes',
    'file auto secondary etcd loop forward grpc erratic whoami',
    'on@github.com/caddyserver/caddy/onevent sign',
  ]),
  release('1.7.0', [
    'metadata cancel tls reload nsid bufsize root bind debug trace ready health pprof prometheus',
    'errors log dnstap dns64 acl any chaos loadbalance cache rewrite dnssec autopath template',
    'transfer hosts route53 azure clouddns k8s_external kubernetes file auto secondary etcd loop',
    'forward grpc erratic whoami on@github.com/caddyserver/caddy/onevent sign',
  ]),
  release('1.8.0', [
    'metadata cancel tls reload nsid bufsize root bind debug trace ready health pprof prometheus',
    'errors log dnstap dns64 acl any chaos loadbalance cache rewrite dnssec autopath template',
    'transfer hosts route53 azure clouddns k8s_external kubernetes file auto secondary etcd loop',
    'forward grpc erratic whoami on@github.com/coredns/caddy/onevent sign',
  ]),
  release('1.8.1', [
    'metadata cancel tls reload nsid bufsize root bind debug trace ready health pprof prometheus',
    'errors log dnstap local dns64 acl any chaos loadbalance cache rewrite dnssec autopath template',
    'transfer hosts route53 azure clouddns k8s_external kubernetes file auto secondary etcd loop',
    'forward grpc erratic whoami on@github.com/coredns/caddy/onevent sign',
  ]),
  release('1.8.4', [
    'metadata cancel tls reload nsid bufsize root bind debug trace ready health pprof prometheus',
    'errors log dnstap local dns64 acl any chaos loadbalance cache rewrite dnssec autopath minimal',
    'template transfer hosts route53 azure clouddns k8s_external kubernetes file auto secondary etcd',
    'loop forward grpc erratic whoami on@github.com/coredns/caddy/onevent sign',
  ]),
  release('1.8.5', [
    'metadata geoip cancel tls reload nsid bufsize root bind debug trace ready health pprof',
    'prometheus errors log dnstap local dns64 acl any chaos loadbalance cache rewrite header dnssec',
    'autopath minimal template transfer hosts route53 azure clouddns k8s_external kubernetes file',
    'auto secondary etcd loop forward grpc erratic whoami on@github.com/coredns/caddy/onevent sign',
  ]),
  release('1.9.4', [
    'metadata geoip cancel tls reload nsid bufsize root bind debug trace ready health pprof',
    'prometheus errors log dnstap local dns64 acl any chaos loadbalance tsig cache rewrite header',
    'dnssec autopath minimal template transfer hosts route53 azure clouddns k8s_external kubernetes',
    'file auto secondary etcd loop forward grpc erratic whoami on@github.com/coredns/caddy/onevent',
    'sign',
  ]),
  release('1.10.0', [
    'metadata geoip cancel tls reload nsid bufsize root bind debug trace ready health pprof',
    'prometheus errors log dnstap local dns64 acl any chaos loadbalance tsig cache rewrite header',
    'dnssec autopath minimal template transfer hosts route53 azure clouddns k8s_external kubernetes',
    'file auto secondary etcd loop forward grpc erratic whoami on@github.com/coredns/caddy/onevent',
    'sign view',
  ]),
  release('1.10.1', [
    'metadata geoip cancel tls timeouts reload nsid bufsize root bind debug trace ready health pprof',
    'prometheus errors log dnstap local dns64 acl any chaos loadbalance tsig cache rewrite header',
    'dnssec autopath minimal template transfer hosts route53 azure clouddns k8s_external kubernetes',
    'file auto secondary etcd loop forward grpc erratic whoami on@github.com/coredns/caddy/onevent',
    'sign view',
  ]),
  release('1.11.3', [
    'root metadata geoip cancel tls timeouts reload nsid bufsize bind debug trace ready health pprof',
    'prometheus errors log dnstap local dns64 acl any chaos loadbalance tsig cache rewrite header',
    'dnssec autopath minimal template transfer hosts route53 azure clouddns k8s_external kubernetes',
    'file auto secondary etcd loop forward grpc erratic whoami on@github.com/coredns/caddy/onevent',
    'sign view',
  ]),
  release('1.12.0', [
    'root metadata geoip cancel tls timeouts multisocket reload nsid bufsize bind debug trace ready',
    'health pprof prometheus errors log dnstap local dns64 acl any chaos loadbalance tsig cache',
    'rewrite header dnssec autopath minimal template transfer hosts route53 azure clouddns',
    'k8s_external kubernetes file auto secondary etcd loop forward grpc erratic whoami',
    'on@github.com/coredns/caddy/onevent sign view',
  ]),
  release('1.12.2', [
    'root metadata geoip cancel tls quic timeouts multisocket reload nsid bufsize bind debug trace',
    'ready health pprof prometheus errors log dnstap local dns64 acl any chaos loadbalance tsig cache',
    'rewrite header dnssec autopath minimal template transfer hosts route53 azure clouddns',
    'k8s_external kubernetes file auto secondary etcd loop forward grpc erratic whoami',
    'on@github.com/coredns/caddy/onevent sign view',
  ]),
  release('1.13.0', [
    'root metadata geoip cancel tls quic timeouts multisocket reload nsid bufsize bind debug trace',
    'ready health pprof prometheus errors log dnstap local dns64 acl any chaos loadbalance tsig cache',
    'rewrite header dnssec autopath minimal template transfer hosts route53 azure clouddns',
    'k8s_external kubernetes file auto secondary etcd loop forward grpc erratic whoami',
    'on@github.com/coredns/caddy/onevent sign view nomad',
  ]),
  release('1.14.0', [
    'root metadata geoip cancel tls quic grpc_server https https3 timeouts multisocket reload nsid',
    'bufsize bind debug trace ready health pprof prometheus errors log dnstap local dns64 acl any',
    'chaos loadbalance tsig cache rewrite header dnssec autopath minimal template transfer hosts',
    'route53 azure clouddns k8s_external kubernetes file auto secondary etcd loop forward grpc',
    'erratic whoami on@github.com/coredns/caddy/onevent sign view nomad',
  ]),
  release('1.14.2', [
    'root metadata geoip cancel tls quic grpc_server https https3 timeouts multisocket reload nsid',
    'bufsize bind debug trace ready health pprof prometheus errors log dnstap local dns64 any chaos',
    'loadbalance tsig cache rewrite acl header dnssec autopath minimal template transfer hosts',
    'route53 azure clouddns k8s_external kubernetes file auto secondary etcd loop forward grpc',
    'erratic whoami on@github.com/coredns/caddy/onevent sign view nomad',
  ]),
  release('1.14.3', [
    'root metadata geoip cancel tls proxyproto quic grpc_server https https3 timeouts multisocket',
    'reload nsid bufsize bind debug trace ready health pprof prometheus errors log dnstap local dns64',
    'any chaos loadbalance tsig cache rewrite acl header dnssec autopath minimal template transfer',
    'hosts route53 azure clouddns k8s_external kubernetes file auto secondary etcd loop forward grpc',
    'erratic whoami on@github.com/coredns/caddy/onevent sign view nomad',
  ]),
  release('1.14.7', [
    'root metadata geoip cancel proxyproto quic grpc_server https https3 timeouts multisocket reload',
    'nsid bufsize bind debug trace ready health pprof shed prometheus errors log dnstap local dns64',
    'any chaos loadbalance tsig rewrite autopath acl cache header dnssec tls minimal template',
    'transfer hosts route53 azure clouddns k8s_external kubernetes file auto secondary etcd loop',
    'forward grpc erratic whoami on@github.com/coredns/caddy/onevent sign view nomad',
  ]),
];

/** One plugin of a release's default build. */
export interface CompiledPlugin {
  /** The directive name used in a Corefile. */
  readonly name: string;
  /** Set when plugin.cfg takes the plugin from a module outside the CoreDNS tree. */
  readonly externalModule?: string;
  /** Set when plugin.cfg keeps the name as `deprecated`: nothing is compiled in, the directive does not load. */
  readonly placeholder?: true;
}

function parseWord(word: string): CompiledPlugin {
  if (word.endsWith('!')) return Object.freeze({ name: word.slice(0, -1), placeholder: true });
  const at = word.indexOf('@');
  if (at < 0) return Object.freeze({ name: word });
  return Object.freeze({ name: word.slice(0, at), externalModule: word.slice(at + 1) });
}

const parsedEntries = new Map<PluginCfgEntry, readonly CompiledPlugin[]>();

function pluginsOfEntry(entry: PluginCfgEntry): readonly CompiledPlugin[] {
  let plugins = parsedEntries.get(entry);
  if (plugins === undefined) {
    plugins = Object.freeze(entry.words.flatMap((line) => line.split(' ')).map(parseWord));
    parsedEntries.set(entry, plugins);
  }
  return plugins;
}

/** Release → its entry, for every known release (an entry covers releases up to the next one's `from`). */
const ENTRY_OF_RELEASE: ReadonlyMap<CoreDnsVersion, PluginCfgEntry> = (() => {
  const map = new Map<CoreDnsVersion, PluginCfgEntry>();
  let next = 0;
  let current: PluginCfgEntry | undefined;
  for (const version of COREDNS_VERSIONS) {
    while (next < PLUGIN_CFG.length && PLUGIN_CFG[next]!.from === version) current = PLUGIN_CFG[next++];
    if (current !== undefined) map.set(version, current);
  }
  return map;
})();

/**
 * The plugins of `version`'s default build, in chain order (placeholders included, marked).
 *
 * @throws {UnknownCoreDnsVersionError} when `version` is not a known release.
 */
export function compiledPlugins(version: string): readonly CompiledPlugin[] {
  return pluginsOfEntry(entryOf(version));
}

/** The entry holding `version`'s list. */
function entryOf(version: string): PluginCfgEntry {
  const parsed = parseCoreDnsVersion(version);
  const entry = ENTRY_OF_RELEASE.get(parsed);
  if (entry === undefined) throw new InternalError(`internal: no plugin.cfg entry covers ${parsed}`);
  return entry;
}

/**
 * The plugin named `name` in `version`'s default build, or `undefined` when plugin.cfg lacks it
 * (the first word of that name, as {@link compiledPlugins} lists it). Found by searching the
 * entry's text ({@link wordIn}), without parsing its whole list; kept per entry and name.
 */
export function compiledPlugin(name: string, version: string): CompiledPlugin | undefined {
  const entry = entryOf(version);
  let byName = pluginsByName.get(entry);
  if (byName === undefined) {
    byName = new Map();
    pluginsByName.set(entry, byName);
  }
  let plugin = byName.get(name);
  if (plugin === undefined && !byName.has(name)) {
    const word = DIRECTIVE_NAME.test(name) ? wordIn(entry, name) : undefined;
    plugin = word === undefined ? undefined : parseWord(word);
    // Bounded: only names of the list are kept.
    if (plugin !== undefined) byName.set(name, plugin);
  }
  return plugin;
}

/** Each entry's plugins asked for so far, by name. */
const pluginsByName = new Map<PluginCfgEntry, Map<string, CompiledPlugin | undefined>>();

/** Whether a Corefile of `version` may use directive `name` (compiled in, not a placeholder). */
export function isCompiledIn(name: string, version: string): boolean {
  const plugin = compiledPlugin(name, version);
  return plugin !== undefined && plugin.placeholder !== true;
}

/** Every directive name any release's plugin.cfg names, sorted (made on first use: it reads every entry). */
export function allPluginNames(): readonly string[] {
  allNames ??= Object.freeze([...new Set(PLUGIN_CFG.flatMap((entry) => pluginsOfEntry(entry).map((plugin) => plugin.name)))].sort());
  return allNames;
}

let allNames: readonly string[] | undefined;

/** Where a plugin stands across releases: the usable spans of its history. */
export interface PluginHistory {
  readonly name: string;
  /** First release that compiles it in; `undefined` if none does. */
  readonly firstRelease: CoreDnsVersion | undefined;
  /** First release after `firstRelease` that no longer compiles it in (gone or a placeholder); `undefined` if still there. */
  readonly goneIn: CoreDnsVersion | undefined;
}

/**
 * The history of `name` in the default builds (a plugin that left and came back is not modelled:
 * none has). Read entry by entry, not release by release: every release of an entry has its list,
 * so a plugin arrives or leaves at an entry's `from`. Each entry is searched as one string for the
 * word (`name`, `name!` or `name@module`), without parsing its list: a single `lint` asks the
 * history of each plugin its Corefile uses, and parsing every release's list cost start-up time.
 */
export function pluginHistory(name: string): PluginHistory {
  let firstRelease: CoreDnsVersion | undefined;
  let goneIn: CoreDnsVersion | undefined;
  if (DIRECTIVE_NAME.test(name)) {
    for (const entry of PLUGIN_CFG) {
      const present = compiledInEntry(entry, name);
      if (present && firstRelease === undefined) firstRelease = entry.from;
      if (!present && firstRelease !== undefined) {
        goneIn = entry.from;
        break;
      }
    }
  }
  return { name, firstRelease, goneIn };
}

/** Each entry's list as one string, ` word word … ` (made on first use). */
const ENTRY_TEXT = new Map<PluginCfgEntry, string>();

/**
 * The first word of `entry` naming `name` (a directive name) as written — `name`, `name!` or
 * `name@module` — or undefined when the list does not name it.
 */
function wordIn(entry: PluginCfgEntry, name: string): string | undefined {
  let text = ENTRY_TEXT.get(entry);
  if (text === undefined) {
    text = ` ${entry.words.join(' ')} `;
    ENTRY_TEXT.set(entry, text);
  }
  for (let at = text.indexOf(` ${name}`); at >= 0; at = text.indexOf(` ${name}`, at + 1)) {
    const next = text[at + 1 + name.length];
    if (next === ' ' || next === '@' || next === '!') return text.slice(at + 1, text.indexOf(' ', at + 1));
  }
  return undefined;
}

/** Whether `entry` compiles `name` in (listed, not as a placeholder); `name` is a directive name. */
function compiledInEntry(entry: PluginCfgEntry, name: string): boolean {
  const word = wordIn(entry, name);
  return word !== undefined && !word.endsWith('!');
}

// ---------------------------------------------------------------------------------------------
// Reading a plugin.cfg (a custom build's)
// ---------------------------------------------------------------------------------------------

/** One entry of a plugin.cfg file: `name:package`. */
export interface PluginCfgLine {
  /** The directive name. */
  readonly name: string;
  /** What plugin.cfg names after the colon: a directory of the CoreDNS tree, a Go module, or `deprecated`. */
  readonly source: string;
  /** Line number in the file, from 1. */
  readonly line: number;
}

/** Why a plugin.cfg line is refused. */
export type PluginCfgSyntaxErrorCode =
  /** Not `NAME:PACKAGE` (no colon, or more than one). */
  | 'not-name-package'
  /** The name is not a directive name. */
  | 'invalid-name'
  /** `NAME:` with nothing after the colon. */
  | 'no-package'
  /** A name listed twice. */
  | 'duplicate-name';

/** A plugin.cfg text this package does not read the way CoreDNS's generator would. */
export class PluginCfgSyntaxError extends KubeDnsToCoreDnsError {
  override readonly name = 'PluginCfgSyntaxError';
  readonly category = 'input';
  declare readonly code: PluginCfgSyntaxErrorCode;
  /** Line number in the file, from 1 (also `position.line`). */
  readonly line: number;

  constructor(code: PluginCfgSyntaxErrorCode, line: number, reason: string, filename?: string) {
    super(code, reason, { filename, position: { line, column: 1 }, message: `${filename ?? 'plugin.cfg'}:${line}: ${reason}` });
    this.line = line;
  }
}

const DIRECTIVE_NAME = /^[a-z0-9][a-z0-9_-]*$/i;

/**
 * Reads a plugin.cfg: one `name:package` per line in chain order, `#` comment lines and blank
 * lines skipped. Where CoreDNS's generator silently skips a line it cannot split in two, this
 * refuses it; a name listed twice is refused as the generator does.
 *
 * @throws {PluginCfgSyntaxError} naming the first line that is not `name:package` (message
 *   `FILE:LINE: reason`, FILE being `filename` or `plugin.cfg`).
 */
export function parsePluginCfg(text: string, filename?: string): PluginCfgLine[] {
  checkArgument('parsePluginCfg', 'text', text, 'string');
  checkArgument('parsePluginCfg', 'filename', filename, 'string?');
  const entries: PluginCfgLine[] = [];
  const seen = new Map<string, number>();
  text.split('\n').forEach((raw, index) => {
    const line = index + 1;
    const content = raw.trim();
    if (content === '' || content.startsWith('#')) return;
    const parts = content.split(':');
    if (parts.length !== 2) throw new PluginCfgSyntaxError('not-name-package', line, `expected NAME:PACKAGE, got '${content}'`, filename);
    const name = parts[0]!.trim();
    const source = parts[1]!.trim();
    if (!DIRECTIVE_NAME.test(name)) throw new PluginCfgSyntaxError('invalid-name', line, `'${name}' is not a directive name`, filename);
    if (source === '') throw new PluginCfgSyntaxError('no-package', line, `'${name}' names no package`, filename);
    const earlier = seen.get(name);
    if (earlier !== undefined) throw new PluginCfgSyntaxError('duplicate-name', line, `'${name}' is listed twice (first on line ${earlier})`, filename);
    seen.set(name, line);
    entries.push({ name, source, line });
  });
  return entries;
}

/** The directive names a plugin.cfg compiles in: every entry but the `deprecated` placeholders. */
export function loadablePlugins(entries: readonly PluginCfgLine[]): string[] {
  checkArgument('loadablePlugins', 'entries', entries, 'array');
  return entries.filter((entry) => entry.source !== 'deprecated').map((entry) => entry.name);
}
