import { isDomainName } from '../../corefile/server-key.js';
import { hasPlaceholder } from '../../coredns/destinations.js';
import { firstReleaseWith } from '../../coredns/features.js';
import { isWithin } from '../../dns/zones.js';
import type { SourcePosition } from '../../util/source-position.js';
import type { BlockInfo, BlockSummary, KeyEntry, LintContext, PathText } from '../context.js';
import { bare, quote, where } from '../context.js';
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
 */
export function readBlockKeys(context: LintContext, block: BlockSummary, keys: readonly string[], positionOf: (index: number) => SourcePosition, entries: KeyEntry[]): void {
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string;
    const position = positionOf(index);
    const reading = readServerKey(key, context.features);
    if (reading.kind === 'placeholder') {
      context.report('placeholder-not-checked', position, () => where(position, key), `key ${quote(key)} holds an environment placeholder and was not checked`);
      continue;
    }
    if (reading.kind === 'invalid') {
      context.report('invalid-server-key', position, () => where(position, key), `${quote(key)}: ${reading.error.reason}`);
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
  const seen = new Map<string, KeyEntry>();
  for (const entry of entries) {
    const { address, storedZones } = entry.reading;
    for (const zone of storedZones) {
      const stored = storedAddressKey(address, zone);
      const first = seen.get(stored);
      if (first === undefined) {
        seen.set(stored, entry);
        continue;
      }
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
  const reported = new Set<string>();
  for (const info of blocks) {
    if (!info.plugins.has('kubernetes')) continue;
    for (const { directive } of info.directives.filter((placed) => placed.directive.name === 'kubernetes')) {
      const pluginZones = directive.arguments.filter((zone) => !hasPlaceholder(zone) && isDomainName(zone)).map(bare);
      for (const own of info.keys) {
        const group = entries.filter(
          (entry) => entry.reading.address.transport === own.reading.address.transport && entry.reading.address.port === own.reading.address.port,
        );
        // Each entry's zones as `isWithin` compares them, made once for the zones asked below.
        const groupZones = group.map((entry) => entry.reading.zones.map(bare));
        for (const ownZone of own.reading.zones.map(bare)) {
          // The zones the plugin answers for in this block: its zones inside the key, or the key inside one of its zones.
          const served = pluginZones.flatMap((zone) => (isWithin(zone, ownZone) ? [zone] : isWithin(ownZone, zone) ? [ownZone] : []));
          for (const zone of served) {
            const owner = longestMatch(group, groupZones, zone);
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
      }
    }
  }
}

/** The entry whose zone is the longest one containing `zone` (the block CoreDNS picks, §2.9); `zones`: each entry's zones, bare. */
function longestMatch(entries: readonly KeyEntry[], zones: readonly (readonly string[])[], zone: string): KeyEntry | undefined {
  let best: KeyEntry | undefined;
  let bestLength = -1;
  for (let index = 0; index < entries.length; index += 1) {
    for (const candidate of zones[index] as readonly string[]) {
      if (!isWithin(zone, candidate)) continue;
      const length = candidate === '' ? 0 : candidate.length + 1;
      if (length > bestLength) {
        best = entries[index];
        bestLength = length;
      }
    }
  }
  return best;
}
