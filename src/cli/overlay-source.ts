import { readConfigMap } from '../configmap/read-configmap.js';
import type { ConfigMapData } from '../configmap/config-map-data.js';
import type { OverlayBase } from '../platform/overlay-lint.js';
import { composeOverlay } from '../platform/compose.js';
import { writeBackConfigMap } from '../platform/configmap-out.js';
import { formatAt } from '../util/source-position.js';
import { readCorefileSource } from './corefile-source.js';
import type { CorefileSourceText } from './corefile-source.js';
import type { OverlayArgs } from './overlay-options.js';
import type { CliIo } from './io.js';
import { INPUT_LIMITS, readSource } from './read-source.js';
import { UsageError } from './usage-error.js';

export interface OverlaySource {
  readonly base: OverlayBase;
  /** What messages call the coredns-custom input. */
  readonly name: string;
  readonly text: string;
  readonly data: ConfigMapData;
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
    writeBack: async (corefile) => writeBackConfigMap(undefined, corefile),
  };
}
