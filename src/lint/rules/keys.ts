import { isDomainName } from '../../corefile/server-key.js';
import type { ServerAddress } from '../../corefile/server-key.js';
import { firstReleaseWith } from '../../coredns/features.js';
import { isWithin } from '../../dns/zones.js';
import type { SourcePosition } from '../../util/source-position.js';
import type { BlockInfo, BlockSummary, KeyEntry, LintContext, PathText } from '../context.js';
import { bare, holdsOnlyNodeCacheVariables, holdsPlaceholder, quote, where } from '../context.js';
import { readServerKey, storedAddressKey } from '../server-keys.js';

/**
 * Server block keys across all blocks, read the way the release reads them (server-keys.ts):
 * keys it refuses, upper-case zones, a zone served twice, blocks on a port the root block does not
 * listen on, blocks that capture the kubernetes plugin's zones (§2.7–§2.9; syntax §5). Fills in
 * each block's `keys` for the block rules that run after. Codes: `invalid-server-key`,
 * `upper-case-zone`, `zone-served-twice`, `zone-on-other-port`, `zone-captures-kubernetes`,
 * `placeholder-not-checked`.
 *
 * "§N" is section N of docs/reference/kube-dns-and-coredns.md.
 */
export function checkKeys(context: LintContext, blocks: readonly BlockInfo[]): void {
  const entries: KeyEntry[] = [];
  for (const info of blocks) {
    const { keys, keyPositions } = info.block;
    readBlockKeys(context, info, keys, (index) => keyPositions?.[index] ?? info.position, entries);
  }
  checkKeysAcrossBlocks(context, blocks, entries);
}

/**
 * The keys of one block (`keys`, the key at `index` written at `positionOf(index)`): those the
 * release refuses or reads upper-case are reported, the valid ones go to `block.keys` and `entries`.
 * `addresses`: the keys as `readServerAddress` read them, when the caller has them (see `readServerKey`).
 */
export function readBlockKeys(context: LintContext, block: BlockSummary, keys: readonly string[], positionOf: (index: number) => SourcePosition, entries: KeyEntry[], addresses?: readonly ServerAddress[]): void {
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string;
    const position = positionOf(index);
    const reading = readServerKey(key, context.features, addresses?.[index]);
    if (reading.kind === 'placeholder') {
      if (holdsOnlyNodeCacheVariables(key)) continue;
      context.report('placeholder-not-checked', position, () => where(position, key), `key ${quote(key)} holds an environment placeholder and was not checked`);
      continue;
    }
    if (reading.kind === 'invalid') {
      context.report('invalid-server-key', position, () => where(position, key), `${quote(key)}: ${reading.error.reason}`);
      continue;
    }
    const port = reading.address.port;
    if (reading.address.explicitPort && port !== undefined && reading.address.transport !== 'unix' && !isListenPort(port)) {
      context.report('invalid-server-key', position, () => where(position, key), `${quote(key)}: port ${port} is outside 0–65535: CoreDNS ${context.version} stops with "listen tcp :${port}: address ${port}: invalid port"`);
      continue;
    }
    if (reading.upperCase) reportUpperCase(context, key, position, () => where(position, key));
    const entry = { block, key, position, reading };
    block.keys.push(entry);
    entries.push(entry);
  }
}

/** The rules between the keys of all blocks (`entries`: every valid key, in order), once the keys are read. */
export function checkKeysAcrossBlocks(context: LintContext, blocks: readonly BlockSummary[], entries: readonly KeyEntry[]): void {
  checkDuplicates(context, entries);
  checkPorts(context, entries);
  checkKubernetesCapture(context, blocks, entries);
}

/**
 * A port Go's `net.Listen` takes: the key's port is read with strconv.Atoi and printed back, so
 * any integer gets this far (`-1`, `99999`); listening on one outside 0–65535 fails ("address N:
 * invalid port"), in every release. 0 asks the system for a free port, which starts.
 */
function isListenPort(port: string): boolean {
  return /^[0-9]{1,5}$/.test(port) && Number(port) <= 65535;
}

function reportUpperCase(context: LintContext, key: string, position: SourcePosition, path: PathText): void {
  const v = context.version;
  switch (context.features.zoneKeyCase) {
    case 'upper-case-unreachable':
      context.report('upper-case-zone', position, path, `${quote(key)} has upper-case letters: CoreDNS ${v} compares lower-cased query names with the key as written, so this zone never matches (fixed in ${firstReleaseWith((release) => release.serverBlockZonesLowercased) ?? '?'})`);
      return;
    case 'case-sensitive':
      context.report('upper-case-zone', position, path, `${quote(key)} has upper-case letters: CoreDNS ${v} matches it only for queries spelled in the same case`, { severity: 'warning' });
      return;
    case 'case-insensitive':
      return;
  }
}

function checkDuplicates(context: LintContext, entries: readonly KeyEntry[]): void {
  const v = context.version;
  // The entries by what CoreDNS compares (`transport://zone:port`), kept per transport and port so
  // that no string is built per zone: zones end with a dot and ports are digits, so equal triples
  // are exactly equal texts.
  const seen = new Map<string, Map<string, Map<string, KeyEntry>>>();
  for (const entry of entries) {
    const { address, storedZones } = entry.reading;
    let byPort = seen.get(address.transport);
    if (byPort === undefined) seen.set(address.transport, (byPort = new Map()));
    const port = address.port ?? '';
    let byZone = byPort.get(port);
    if (byZone === undefined) byPort.set(port, (byZone = new Map()));
    for (const zone of storedZones) {
      const first = byZone.get(zone);
      if (first === undefined) {
        byZone.set(zone, entry);
        continue;
      }
      const stored = storedAddressKey(address, zone);
      // Different bind addresses, or the view plugin, may serve one zone twice.
      const exempt = [first.block, entry.block].some((info) => info.written.has('bind') || info.written.has('view'));
      if (exempt) continue;
      const wording = context.features.zoneDefinedTwiceWording === 'it-is-already-defined' ? `"cannot serve ${stored} - it is already defined"` : `"cannot serve ${stored} - zone already defined for …"`;
      const place = first.block === entry.block ? `by key ${quote(first.key)} of the same block` : `by block ${quote(first.block.label)}`;
      context.report('zone-served-twice', entry.position, where(entry.position, entry.key), `${quote(entry.key)} is ${zone} on port ${address.port ?? '-'}, served ${place} (line ${context.lineNumber(first.position)}) already: CoreDNS ${v} stops with ${wording}`);
      break;
    }
  }
}

/** Blocks on a port that has no root block, while another port has one (§2.9). */
function checkPorts(context: LintContext, entries: readonly KeyEntry[]): void {
  const dns = entries.filter((entry) => entry.reading.address.transport === 'dns');
  const rootPorts = new Set(dns.filter((entry) => entry.reading.zones.includes('.')).map((entry) => entry.reading.address.port ?? ''));
  if (rootPorts.size === 0) return;
  // Most Corefiles have every block on the root block's port: then nothing below is needed.
  const elsewhere = dns.filter((entry) => !rootPorts.has(entry.reading.address.port ?? ''));
  if (elsewhere.length === 0) return;
  const servedOnRootPort = new Set(dns.filter((entry) => rootPorts.has(entry.reading.address.port ?? '')).flatMap((entry) => entry.reading.zones));
  const roots = [...rootPorts].join(', ');
  for (const entry of elsewhere) {
    const port = entry.reading.address.port ?? '';
    if (entry.reading.zones.every((zone) => zone === '.' || servedOnRootPort.has(zone))) continue;
    context.report(
      'zone-on-other-port',
      entry.position,
      where(entry.position, entry.key),
      `${quote(entry.key)} listens on port ${port}, the root block on ${roots}: queries for ${entry.reading.zones.join(' ')} arriving on ${roots} are answered by the root block, never by this one`,
    );
  }
}

/** A block whose key is the longest match for a zone that the kubernetes plugin of another block serves (§2.9). */
function checkKubernetesCapture(context: LintContext, blocks: readonly BlockSummary[], entries: readonly KeyEntry[]): void {
  // The zones asked about, in order: each zone the kubernetes plugin of a block serves under one of the block's keys.
  const asked: { readonly info: BlockSummary; readonly address: ServerAddress; readonly zone: string }[] = [];
  for (const info of blocks) {
    if (!info.plugins.has('kubernetes')) continue;
    for (const { directive } of info.directives.filter((placed) => placed.directive.name === 'kubernetes')) {
      const pluginZones = directive.arguments.filter((zone) => !holdsPlaceholder(zone) && isDomainName(zone)).map(bare);
      for (const own of info.keys) {
        for (const ownZone of own.reading.zones.map(bare)) {
          // The zones the plugin answers for in this block: its zones inside the key, or the key inside one of its zones.
          for (const zone of pluginZones.flatMap((zone) => (isWithin(zone, ownZone) ? [zone] : isWithin(ownZone, zone) ? [ownZone] : []))) asked.push({ info, address: own.reading.address, zone });
        }
      }
    }
  }
  if (asked.length === 0) return;
  // Only a key of a block without the kubernetes plugin is reported, and only when one of its zones
  // is where a longest match can end for a zone asked about (the zone, a parent, the root): with no
  // such key (kubeadm's Corefile with its stub blocks, in every line of a fleet) nothing below reports.
  if (!hasCapturingCandidate(asked, entries)) return;
  // Per transport and port, the first entry of each zone a longest match can end on (the zones
  // asked and their parents): a Corefile of thousands of stub blocks asks about a handful.
  const wanted = new Map<string, Map<string | undefined, Set<string>>>();
  const wantedFor = (address: ServerAddress): Set<string> => {
    let byPort = wanted.get(address.transport);
    if (byPort === undefined) wanted.set(address.transport, (byPort = new Map()));
    let zones = byPort.get(address.port);
    if (zones === undefined) byPort.set(address.port, (zones = new Set()));
    return zones;
  };
  for (const { address, zone } of asked) for (const candidate of suffixZones(zone)) wantedFor(address).add(candidate);
  const groups = new Map<Set<string>, Map<string, KeyEntry>>();
  const groupOf = (address: ServerAddress): Map<string, KeyEntry> => {
    const zones = wantedFor(address);
    let group = groups.get(zones);
    if (group === undefined) {
      const members = entries.filter((entry) => entry.reading.address.transport === address.transport && entry.reading.address.port === address.port);
      group = firstByZone(members, (entry) => entry.reading.zones, zones);
      groups.set(zones, group);
    }
    return group;
  };
  const reported = new Set<string>();
  for (const { info, address, zone } of asked) {
    const owner = longestMatch(groupOf(address), zone);
    if (owner === undefined || owner.block === info || owner.block.plugins.has('kubernetes')) continue;
    const once = `${owner.position.line}:${owner.position.column} ${zone}`;
    if (reported.has(once)) continue;
    reported.add(once);
    const shown = zone === '' ? '.' : `${zone}.`;
    context.report(
      'zone-captures-kubernetes',
      owner.position,
      where(owner.position, owner.key),
      `${quote(owner.key)} is the most specific key for ${shown}, which the kubernetes plugin of block ${quote(info.label)} (line ${context.lineNumber(info.position)}) serves: those names are answered by this block instead`,
    );
  }
}

/**
 * Whether a key of a block without the kubernetes plugin has a zone among the {@link suffixZones}
 * of a zone in `asked` (on any transport and port: a necessary condition for
 * {@link checkKubernetesCapture} to report, so that it can stop early; the zones' lengths are
 * compared first, as in {@link firstByZone}).
 */
export function hasCapturingCandidate(asked: readonly { readonly zone: string }[], entries: readonly KeyEntry[]): boolean {
  const candidates = new Set<string>();
  for (const { zone } of asked) for (const candidate of suffixZones(zone)) candidates.add(candidate);
  const lengths = new Set<number>();
  for (const candidate of candidates) lengths.add(candidate.length);
  for (const entry of entries) {
    if (entry.block.plugins.has('kubernetes')) continue;
    for (const zone of entry.reading.zones) {
      // A zone's bare form is as long as its lower-case form, or one shorter (the trailing dot).
      const length = zone.toLowerCase().length;
      if (!lengths.has(length) && !lengths.has(length - 1)) continue;
      if (candidates.has(bare(zone))) return true;
    }
  }
  return false;
}

/**
 * Each zone (bare) of `items`, in order, with the first item that has it; with `wanted`, only the
 * zones in it (what {@link longestMatch} looks up for the zones whose {@link suffixZones} it holds).
 */
export function firstByZone<T>(items: readonly T[], zonesOf: (item: T) => readonly string[], wanted?: ReadonlySet<string>): Map<string, T> {
  const first = new Map<string, T>();
  // A zone's bare form is as long as its lower-case form, or one shorter (the trailing dot): zones
  // of other lengths are passed over without making their bare form.
  const lengths = wanted === undefined ? undefined : new Set([...wanted].map((zone) => zone.length));
  for (const item of items) {
    for (const zone of zonesOf(item)) {
      if (lengths !== undefined) {
        const length = zone.toLowerCase().length;
        if (!lengths.has(length) && !lengths.has(length - 1)) continue;
      }
      const key = bare(zone);
      if (wanted !== undefined && !wanted.has(key)) continue;
      if (!first.has(key)) first.set(key, item);
    }
  }
  return first;
}

/** The zones {@link longestMatch} looks up for `zone` (bare): itself, the text after each of its dots, and the root. */
export function suffixZones(zone: string): string[] {
  const zones = [zone];
  for (let dot = zone.indexOf('.'); dot !== -1; dot = zone.indexOf('.', dot + 1)) zones.push(zone.slice(dot + 1));
  if (zone !== '') zones.push('');
  return zones;
}

/**
 * The item whose zone is the longest one containing `zone` (bare) — the block CoreDNS picks (§2.9)
 * — from {@link firstByZone}: of the items with that zone, the first. The zones `isWithin` finds
 * `zone` in are `zone` itself, the text after each of its dots and the root, longest first, so
 * the first of them present is the longest match (property test: the same as trying every zone).
 */
export function longestMatch<T>(firstByZone: ReadonlyMap<string, T>, zone: string): T | undefined {
  const itself = firstByZone.get(zone);
  if (itself !== undefined) return itself;
  for (let dot = zone.indexOf('.'); dot !== -1; dot = zone.indexOf('.', dot + 1)) {
    const parent = firstByZone.get(zone.slice(dot + 1));
    if (parent !== undefined) return parent;
  }
  return firstByZone.get('');
}
