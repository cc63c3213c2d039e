import type { Corefile, Directive } from '../corefile/model.js';
import { serverBlocks } from '../corefile/model.js';

/**
 * How long each server block of a Corefile keeps NXDOMAIN (and NODATA) answers: the `cache`
 * plugin's denial TTL (CoreDNS plugin/cache/setup.go): `cache [TTL]` sets it (default 1800 s),
 * `denial CAPACITY TTL` overrides it, `disable denial` (1.9.4+) switches it off. Blocks without
 * `cache` keep nothing.
 *
 * Pure: no Node APIs.
 */

/** A block that caches denials, with the longest it keeps one (seconds). */
export interface NegativeCachingBlock {
  /** The block's keys, as written (`.:53 cluster.local:53`). */
  readonly keys: string;
  readonly seconds: number;
  /**
   * Set by `check` told a release before 1.9.4: it cannot switch denial caching off, and the block
   * keeps NXDOMAIN for at most 1 s, the least it can (`denial 9984 1`).
   */
  readonly unavoidable?: boolean;
}

/** CoreDNS's maximum denial TTL when `cache` names none. */
const DEFAULT_DENIAL_SECONDS = 1800;

/** The blocks of `corefile` that cache denials. */
export function negativeCachingBlocks(corefile: Corefile): NegativeCachingBlock[] {
  const blocks: NegativeCachingBlock[] = [];
  for (const block of serverBlocks(corefile)) {
    const cache = block.directives.find((directive) => directive.name === 'cache');
    if (cache === undefined) continue;
    const seconds = denialSeconds(cache);
    if (seconds > 0) blocks.push({ keys: block.keys.join(' '), seconds });
  }
  return blocks;
}

function denialSeconds(cache: Directive): number {
  const first = cache.arguments[0];
  let seconds = first !== undefined && /^\d+$/.test(first) ? Number(first) : DEFAULT_DENIAL_SECONDS;
  for (const option of cache.block?.directives ?? []) {
    // `disable denial` with zones switches it off for those zones only: still caching elsewhere.
    if (option.name === 'disable' && option.arguments[0] === 'denial' && option.arguments.length === 1) return 0;
    const ttl = option.arguments[1];
    if (option.name === 'denial' && ttl !== undefined && /^\d+$/.test(ttl)) seconds = Number(ttl);
  }
  return seconds;
}
