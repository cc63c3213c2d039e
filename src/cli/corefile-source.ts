import { CONFIGMAP_LINE } from '../configmap/configmap-line.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { EKS_ADDON_HINT, HELM_VALUES_HINT } from '../platform/input-hints.js';
import type { ConfigMapWriteBack } from '../platform/configmap-out.js';
import type { SourcePosition, ValueLocation } from '../util/source-position.js';
import { formatAt } from '../util/source-position.js';
import type { CliIo } from './io.js';
import { INPUT_LIMITS, readSource } from './read-source.js';
import { UsageError } from './usage-error.js';

/**
 * Reads FILE (or standard input) holding a Corefile, or a CoreDNS ConfigMap (YAML or JSON) whose
 * `Corefile` entry is meant; messages about the Corefile can then point into FILE.
 */
export async function readCorefileSource(path: string | undefined, io: CliIo, preferredNames: readonly string[] = ['coredns']): Promise<CorefileSourceText> {
  const { name, text } = await readSource(path, io, INPUT_LIMITS.corefile);
  return await corefileSource(text, name, preferredNames);
}

export interface CorefileSourceText {
  /** What error messages call the input (`FILE` or `<stdin>`). */
  readonly name: string;
  readonly corefile: string;
  /** `FILE:LINE:COL: message` for a position in the Corefile text, pointing into FILE when possible. */
  locate(position: SourcePosition, message: string): string;
  /**
   * Where a position in the Corefile text is in FILE (for a ConfigMap, inside its YAML); undefined
   * when it cannot be placed there (a `Corefile` entry not written as a `|` block, the EKS add-on's
   * JSON string). Helm values place findings with {@link locateFindings} instead.
   */
  readonly locationOf?: (position: SourcePosition) => ValueLocation | undefined;
  /** For a ConfigMap: its data keys other than `Corefile` (`*.server`, `NodeHosts`…), which the command does not read. */
  readonly otherKeys?: readonly string[];
  /** For a ConfigMap: the whole object as read, to write it back with its Corefile replaced (`-o configmap`). */
  readonly configMap?: Readonly<Record<string, unknown>>;
  /** Findings about FILE itself, for the commands that report findings (the EKS add-on's schema and probes). */
  readonly notes?: readonly Diagnostic[];
  /**
   * Findings about the Corefile placed where FILE writes what they are about (Helm values: at the
   * values path and its line in FILE); undefined when positions in the Corefile are FILE's own.
   */
  readonly locateFindings?: <Entry extends Diagnostic>(diagnostics: readonly Entry[]) => Entry[];
  /** True when FILE is a ConfigMap (its `Corefile` entry is what was read). */
  readonly isConfigMap: boolean;
  /**
   * `-o configmap`: FILE's ConfigMap with its `Corefile` replaced by `corefile` (as it came in:
   * YAML or JSON, everything kept but the server-set fields); for a bare Corefile, the
   * `kube-system/coredns` ConfigMap holding it.
   */
  writeBack(corefile: string): Promise<ConfigMapWriteBack>;
}

/** The ConfigMap writer, loaded for `-o configmap` only (it brings the YAML writer). */
async function writeBackConfigMap(...args: Parameters<typeof import('../platform/configmap-out.js').writeBackConfigMap>): Promise<ConfigMapWriteBack> {
  return (await import('../platform/configmap-out.js')).writeBackConfigMap(...args);
}

/**
 * The Corefile text in `text`: the text itself, or the `Corefile` entry of a ConfigMap. The readers
 * of YAML and JSON (js-yaml, the Helm chart's renderer, the EKS add-on's schema) are loaded only
 * when `text` has a line only their inputs have: a bare Corefile costs none of them.
 */
async function corefileSource(text: string, filename: string, preferredNames: readonly string[]): Promise<CorefileSourceText> {
  const [helm, helmLocate] = HELM_VALUES_HINT.test(text) ? await Promise.all([import('../platform/helm-values.js'), import('../platform/helm-locate.js')]) : [];
  const values = helm?.readHelmValues(text, filename);
  if (helm !== undefined && helmLocate !== undefined && values !== undefined) {
    // The CoreDNS Helm chart's values (or an RKE2 HelmChartConfig): rendered as the chart renders them,
    // findings placed at the value that wrote them.
    const rendered = helm.renderHelmValues(values);
    if (rendered.corefile === undefined) throw new UsageError(`${filename}: ${rendered.diagnostics.map((entry) => entry.message).join('; ')}`);
    const locator = helmLocate.helmValueLocator(text, filename);
    const locateFindings = <Entry extends Diagnostic>(diagnostics: readonly Entry[]) => helmLocate.locateHelmDiagnostics(diagnostics, rendered, values, locator);
    return {
      name: filename,
      corefile: rendered.corefile,
      notes: locateFindings(rendered.diagnostics),
      locateFindings,
      isConfigMap: false,
      locate: (position, message) => {
        const origin = rendered.origin(position);
        const location = origin === undefined ? undefined : locator(origin.path, origin.offset);
        const inCorefile = `line ${position.line}, column ${position.column} of the Corefile the chart renders`;
        return origin === undefined || location === undefined
          ? `${filename}: the Corefile the chart renders, line ${position.line}, column ${position.column}: ${message}`
          : formatAt(filename, location, `${helm.helmValuesPath(origin.path)} (${inCorefile}): ${message}`);
      },
      writeBack: (corefile) => writeBackConfigMap(undefined, corefile),
    };
  }
  const eksAddon = EKS_ADDON_HINT.test(text) ? await import('../platform/eks-addon.js') : undefined;
  const eks = eksAddon?.readEksAddonConfiguration(text, filename);
  if (eksAddon !== undefined && eks !== undefined) {
    // The EKS add-on's configurationValues: the Corefile is one JSON string, positions count inside it.
    return {
      name: filename,
      corefile: eks.corefile,
      notes: [...eks.diagnostics, ...eksAddon.eksProbeDiagnostics(eks.corefile)],
      isConfigMap: false,
      locate: (position, message) => `${filename}: corefile line ${position.line}, column ${position.column}: ${message}`,
      writeBack: (corefile) => writeBackConfigMap(undefined, corefile),
    };
  }
  if (!CONFIGMAP_LINE.test(text)) {
    return {
      name: filename,
      corefile: text,
      isConfigMap: false,
      locate: (position, message) => formatAt(filename, position, message),
      locationOf: (position) => ({ filename, line: position.line, column: position.column, exact: true }),
      writeBack: (corefile) => writeBackConfigMap(undefined, corefile),
    };
  }
  const { readConfigMap } = await import('../configmap/read-configmap.js');
  const { data, name, object } = readConfigMap(text, { filename, preferredNames: [...preferredNames] });
  const corefile = data['Corefile'];
  if (corefile === undefined) {
    const keys = Object.keys(data);
    const which = name === undefined ? 'the ConfigMap' : `ConfigMap '${name}'`;
    throw new UsageError(`${filename}: ${which} has no 'Corefile' entry (keys: ${keys.length === 0 ? 'none' : keys.join(', ')})`);
  }
  const block = findLiteralBlock(text, corefile);
  return {
    name: filename,
    corefile,
    otherKeys: Object.keys(data).filter((key) => key !== 'Corefile'),
    ...(object === undefined ? {} : { configMap: object }),
    isConfigMap: true,
    writeBack: (replacement) =>
      object === undefined
        ? writeBackConfigMap({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'coredns', namespace: 'kube-system' }, data }, replacement)
        : writeBackConfigMap(object, replacement, { json: text.trimStart().startsWith('{') }),
    locate: (position, message) =>
      block === undefined
        ? `${filename}: data.Corefile line ${position.line}, column ${position.column}: ${message}`
        : formatAt(filename, { line: block.firstLine + position.line, column: block.indent + position.column }, message),
    locationOf: (position) => (block === undefined ? undefined : { filename, line: block.firstLine + position.line, column: block.indent + position.column, exact: true }),
  };
}

/**
 * Where `value` sits in `source` as a YAML literal block (`|`): the 0-based source line of its
 * first line and its indentation. Undefined when it is written some other way.
 */
function findLiteralBlock(source: string, value: string): { firstLine: number; indent: number } | undefined {
  const sourceLines = source.split('\n').map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
  const valueLines = value.split('\n');
  if (valueLines[valueLines.length - 1] === '') valueLines.pop();
  const anchor = valueLines.findIndex((line) => line !== '');
  const anchorText = valueLines[anchor];
  if (anchorText === undefined) return undefined;
  for (let candidate = anchor; candidate < sourceLines.length; candidate += 1) {
    const line = sourceLines[candidate] as string;
    const indent = line.length - anchorText.length;
    if (indent <= 0 || !line.endsWith(anchorText) || line.slice(0, indent).trim() !== '') continue;
    const firstLine = candidate - anchor;
    const padding = line.slice(0, indent);
    const matches = valueLines.every((expected, index) => {
      const actual = sourceLines[firstLine + index];
      return actual !== undefined && (expected === '' ? actual.trim() === '' : actual === padding + expected);
    });
    if (matches) return { firstLine, indent };
  }
  return undefined;
}
