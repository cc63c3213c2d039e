import { PLATFORM_NAMES, platformBase } from '../platform/bases.js';
import type { PlatformBase } from '../platform/bases.js';
import { optionValue, stringOption, text } from './options.js';
import { UsageError } from './usage-error.js';

/**
 * The overlay options of the commands that read a coredns-custom overlay (lint, compose, check,
 * explain), apart from the readers (overlay-source.ts), which bring the YAML parser and the
 * composer: a command loads those only when an overlay is given.
 */

/** `--platform P | --base FILE` and the coredns-custom ConfigMap, as the commands that read an overlay take them. */
export interface OverlayArgs {
  readonly platform: PlatformBase | undefined;
  readonly base: string | undefined;
  readonly custom: string | undefined;
  readonly clusterDomain: string | undefined;
}

/** The options of every command that reads an overlay (lint, compose, check, explain). */
export const OVERLAY_OPTIONS = {
  platform: stringOption((value, site) => optionValue(site.command, site.option, value, platformBase)),
  base: text(),
  'coredns-custom': text(),
} as const;

/** Checks that the overlay options go together; undefined when none is given. */
export function overlayArgs(
  command: string,
  values: { readonly platform: PlatformBase | undefined; readonly base: string | undefined; readonly 'coredns-custom': string | undefined },
  clusterDomain: string | undefined,
): OverlayArgs | undefined {
  const { platform, base } = values;
  const custom = values['coredns-custom'];
  if (platform === undefined && base === undefined) {
    if (custom !== undefined) throw new UsageError(`${command}: --coredns-custom needs the base it is imported into: --platform ${PLATFORM_NAMES.join('|')} or --base FILE`);
    return undefined;
  }
  if (platform !== undefined && base !== undefined) throw new UsageError(`${command}: give --platform or --base, not both (--base FILE is the Corefile the cluster really runs)`);
  return { platform, base, custom, clusterDomain };
}
