import { readConfigMap } from '../configmap/read-configmap.js';
import type { ConfigMapData } from '../configmap/config-map-data.js';
import { PLATFORM_NAMES, platformBase } from '../platform/bases.js';
import type { PlatformBase } from '../platform/bases.js';
import type { OverlayBase } from '../platform/overlay-lint.js';
import { readCorefileSource } from './corefile-source.js';
import { optionValue } from './errors.js';
import type { CliIo } from './io.js';
import { INPUT_LIMITS, readSource } from './read-source.js';
import { UsageError } from './usage-error.js';

/** `--platform P | --base FILE` and the coredns-custom ConfigMap, as the commands that read an overlay take them. */
export interface OverlayArgs {
  readonly platform: PlatformBase | undefined;
  readonly base: string | undefined;
  readonly custom: string | undefined;
  readonly clusterDomain: string | undefined;
}

export interface OverlaySource {
  readonly base: OverlayBase;
  /** What messages call the coredns-custom input. */
  readonly name: string;
  readonly text: string;
  readonly data: ConfigMapData;
}

/** The option definitions for parseCommandArgs. */
export const OVERLAY_OPTIONS = {
  platform: { type: 'string' },
  base: { type: 'string' },
  'coredns-custom': { type: 'string' },
} as const;

/** Checks the overlay options' values (before any input is read); undefined when none is given. */
export function overlayArgs(command: string, values: { platform?: string | undefined; base?: string | undefined; 'coredns-custom'?: string | undefined }, clusterDomain: string | undefined): OverlayArgs | undefined {
  const { platform, base } = values;
  const custom = values['coredns-custom'];
  if (platform === undefined && base === undefined) {
    if (custom !== undefined) throw new UsageError(`${command}: --coredns-custom needs the base it is imported into: --platform ${PLATFORM_NAMES.join('|')} or --base FILE`);
    return undefined;
  }
  if (platform !== undefined && base !== undefined) throw new UsageError(`${command}: give --platform or --base, not both (--base FILE is the Corefile the cluster really runs)`);
  return { platform: platform === undefined ? undefined : optionValue(command, '--platform', platform, platformBase), base, custom, clusterDomain };
}

/** Reads the base (bundled or FILE) and the coredns-custom ConfigMap (`custom`, or standard input). */
export async function readOverlaySource(args: OverlayArgs, custom: string | undefined, io: CliIo): Promise<OverlaySource> {
  if ((custom === undefined || custom === '-') && (args.base === undefined || args.base === '-') && args.platform === undefined) {
    throw new UsageError("standard input ('-') can be read only once: give the base or the coredns-custom ConfigMap as a file");
  }
  let base: OverlayBase;
  if (args.platform !== undefined) {
    const { platform, clusterDomain } = args;
    base = { corefile: platform.corefile(clusterDomain), title: platform.title, corefileDirectory: platform.corefileDirectory, customDirectory: platform.customDirectory, otherKeys: platform.otherKeys };
  } else {
    const source = await readCorefileSource(args.base, io);
    base = { corefile: source.corefile, title: `the base ${source.name}` };
  }
  const { name, text } = await readSource(custom, io, INPUT_LIMITS.corefile);
  const { data } = readConfigMap(text, { filename: name, preferredNames: ['coredns-custom'] });
  return { base, name, text, data };
}
