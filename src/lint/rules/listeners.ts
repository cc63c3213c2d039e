import { HEALTH_DEFAULT_ADDRESS, healthListenersOfBlock, listenAddressesCollide } from '../../coredns/listen-addresses.js';
import type { BlockSummary, LintContext } from '../context.js';
import { holdsPlaceholder, ORIGIN, placedLabels, quote, where } from '../context.js';

/**
 * `health` listeners that collide where the release binds each one with a plain listen
 * (1.1.0–1.6.5): a block sets health up once per key, every block with health once more, and
 * the second listener on an address stops CoreDNS. The plugin reads all its lines of a block and
 * keeps the last address, so the last line counts (docs/coredns-versions.md). Code:
 * `health-bound-twice`.
 */
export function checkHealthListeners(context: LintContext, blocks: readonly BlockSummary[]): void {
  const { features, version: v } = context;
  if (features.healthListener === 'first-only') {
    checkFirstOnlyHealth(context, blocks);
    return;
  }
  if (features.healthListener !== 'exclusive') return;
  const bound: Array<{ readonly address: string; readonly info: BlockSummary }> = [];
  for (const info of blocks) {
    if (!info.plugins.has('health')) continue;
    const placed = info.directives.filter((entry) => entry.directive.name === 'health').at(-1);
    if (placed === undefined) continue;
    const { directive, label } = placed;
    const address = directive.arguments[0] ?? HEALTH_DEFAULT_ADDRESS;
    if (holdsPlaceholder(address)) continue;
    const position = directive.position ?? ORIGIN;
    const path = where(position, placedLabels(info, label), 'health');
    const failure = `"listen tcp ${address}: bind: address already in use"`;
    const earlier = bound.find((entry) => listenAddressesCollide(entry.address, address));
    const listeners = healthListenersOfBlock(features, info.keyCount);
    if (earlier !== undefined) {
      const same = earlier.address === address ? '' : ` (written ${quote(earlier.address)})`;
      context.report(
        'health-bound-twice',
        position,
        path,
        `health listens on ${address}, which the health of block ${quote(earlier.info.label)} (line ${context.lineNumber(earlier.info.position)}) already holds${same}: CoreDNS ${v} stops with ${failure}`,
      );
    } else if (listeners > 1) {
      context.report(
        'health-bound-twice',
        position,
        path,
        `block ${quote(info.label)} has ${listeners} keys and CoreDNS ${v} sets health up once per key: the second listener on ${address} stops it with ${failure}`,
      );
    }
    bound.push({ address, info });
  }
}

/**
 * 1.0.x: the health plugin opens one listener per process (a package-level once), for the first
 * health set up — the first block with health, in file order. Another address in a later block
 * never listens, and nothing says so. Code: `health-not-listening`.
 */
function checkFirstOnlyHealth(context: LintContext, blocks: readonly BlockSummary[]): void {
  let first: { readonly address: string; readonly info: BlockSummary } | undefined;
  for (const info of blocks) {
    const placed = info.directives.filter((entry) => entry.directive.name === 'health').at(-1);
    if (placed === undefined) continue;
    const { directive, label } = placed;
    const address = directive.arguments[0] ?? HEALTH_DEFAULT_ADDRESS;
    if (holdsPlaceholder(address)) return;
    if (first === undefined) {
      first = { address, info };
      continue;
    }
    if (listenAddressesCollide(first.address, address)) continue;
    const position = directive.position ?? ORIGIN;
    context.report(
      'health-not-listening',
      position,
      where(position, placedLabels(info, label), 'health'),
      `CoreDNS ${context.version} opens one health listener per process, for the first health set up (block ${quote(first.info.label)}, line ${context.lineNumber(first.info.position)}, on ${first.address}): nothing listens on ${address}`,
    );
  }
}
