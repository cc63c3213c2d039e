import { readConfigMap } from '../configmap/read-configmap.js';
import type { ConfigMapData } from '../configmap/config-map-data.js';
import { PLATFORM_NAMES, platformBase } from '../platform/bases.js';
import type { PlatformBase } from '../platform/bases.js';
import type { OverlayBase } from '../platform/overlay-lint.js';
import { composeOverlay } from '../platform/compose.js';
import { writeBackConfigMap } from '../platform/configmap-out.js';
import { formatAt } from '../util/source-position.js';
import { readCorefileSource } from './corefile-source.js';
import type { CorefileSourceText } from './corefile-source.js';
import { optionValue, stringOption, text } from './options.js';
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
    base = { corefile: source.corefile, title: source.name };
  }
  const { name, text } = await readSource(custom, io, INPUT_LIMITS.corefile);
  const { data } = readConfigMap(text, { filename: name, preferredNames: ['coredns-custom'] });
  return { base, name, text, data };
}

/**
 * The Corefile an overlay and its base make, as a Corefile source for the commands that route
 * names (`check`, `explain`): a syntax error in it points at the key and line it was written in.
 */
export async function composedSource(args: OverlayArgs, io: CliIo): Promise<CorefileSourceText> {
  const source = await readOverlaySource(args, args.custom, io);
  const composition = composeOverlay(source.base.corefile, source.data, {
    ...(source.base.corefileDirectory === undefined ? {} : { corefileDirectory: source.base.corefileDirectory }),
    ...(source.base.customDirectory === undefined ? {} : { customDirectory: source.base.customDirectory }),
  });
  const [problem] = composition.problems;
  if (problem !== undefined) throw new UsageError(`${problem.key === undefined ? 'Corefile' : `coredns-custom[${problem.key}]`}:${problem.position.line}:${problem.position.column}: CoreDNS stops: ${problem.message}`);
  const name = `${source.name} composed with the ${source.base.title} base`;
  return {
    name,
    corefile: composition.text,
    isConfigMap: false,
    locate: (position, message) => {
      const origin = composition.locate(position);
      return formatAt(origin.key === undefined ? 'Corefile' : `coredns-custom[${origin.key}]`, origin.position, message);
    },
    writeBack: (corefile) => writeBackConfigMap(undefined, corefile),
  };
}
