/**
 * The CoreDNS Helm chart's `servers:` values (coredns/helm, chart 1.46.2): rendered into the
 * Corefile the way the chart's `templates/configmap.yaml` renders it, with its traps as findings;
 * and the translator's Corefile written as such values (`-o helm-values`). What the template does,
 * read from chart 1.46.2 (docs/platforms.md#the-helm-chart):
 *
 * - each `extraConfig` key, in sorted order, is a top-level line `KEY PARAMETERS`;
 * - each server is `ZONES[:PORT ]{`: its zones joined by spaces, each `SCHEME` + `ZONE` (`.` when
 *   empty; no zones at all is `.`), the port after the last zone only, and no space before `{`
 *   when there is no port;
 * - each plugin is `NAME[ PARAMETERS][ {` + CONFIGBLOCK indented by 12 + `}]`, the strings pasted as
 *   they are: nothing is quoted or checked;
 * - the whole is a `|-` literal block of the ConfigMap (indented by 4), so the Corefile has no final
 *   line feed, and a value holding a line feed at a lower indentation ends the block;
 * - values are printed as Go's text/template prints them: Helm reads numbers as float64, so 1000000
 *   prints as `1e+06`.
 *
 * Pure: no Node APIs.
 */
import { ConfigMapInputError } from '../configmap/config-map-data.js';
import { loadYamlDocuments } from '../configmap/yaml-documents.js';
import type { Directive, ServerBlock } from '../corefile/model.js';
import { serverBlocks } from '../corefile/model.js';
import { parseCorefile } from '../corefile/parser.js';
import { formatToken, printCorefile } from '../corefile/printer.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { SourcePosition } from '../util/source-position.js';
import { checkArgument } from '../errors/arguments.js';

/** The chart release whose template is modelled. */
const HELM_CHART_RELEASE = 'coredns/helm chart 1.46.2';

export interface HelmRender {
  /** The Corefile the chart writes; undefined when the rendered ConfigMap is not YAML. */
  readonly corefile: string | undefined;
  readonly diagnostics: readonly Diagnostic[];
  /**
   * The value that wrote the Corefile's character at `position` (1-based line and column, in code
   * points); undefined for a position outside it, or when a value broke the template's block.
   */
  origin(position: SourcePosition): HelmValueOrigin | undefined;
}

/** Parsed values of the chart (a values.yaml as YAML reads it). */
export type HelmValues = Readonly<Record<string, unknown>>;

function isRecord(value: unknown): value is HelmValues {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Go text/template truthiness: false, 0, nil, "" and empty collections are false. */
function truthy(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isRecord(value)) return Object.keys(value).length > 0;
  return true;
}

/**
 * The one YAML document of `text`; undefined when it is not YAML or holds another number of
 * documents. Aliases that expand past the bound (configmap/yaml-documents.ts) are thrown.
 */
function readOneDocument(text: string, filename: string): unknown {
  try {
    const documents = loadYamlDocuments(text, { filename });
    return documents.length === 1 ? documents[0] : undefined;
  } catch (error) {
    if (error instanceof ConfigMapInputError && error.code !== 'not-yaml') throw error;
    return undefined;
  }
}

/** How text/template prints a value read by Helm (numbers are float64, printed by %v). */
export function goPrint(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return goFloat(value);
  if (value === undefined || value === null) return '<no value>';
  return JSON.stringify(value);
}

/**
 * Go's %v of a float64 (strconv's 'g' with the shortest digits): exponent form when the decimal
 * exponent is below -4 or at least 6 (`1e+06`, `1.5e-05`), the exponent with at least two digits.
 */
function goFloat(value: number): string {
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : value < 0 ? '-Inf' : 'NaN';
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  const [mantissa, exponentText] = value.toExponential().split('e') as [string, string];
  const exponent = Number(exponentText);
  if (exponent >= -4 && exponent < 6) return String(value);
  return `${mantissa}e${exponent < 0 ? '-' : '+'}${String(Math.abs(exponent)).padStart(2, '0')}`;
}

/** A step of a path into the values: a mapping key or a sequence index. */
export type HelmValuesStep = string | number;

/**
 * Where a character of the rendered Corefile comes from: the value at `path` (`servers`, 0,
 * `plugins`, 3, `parameters`), and `offset`, the UTF-16 index into the text the template printed
 * for it, when the character is part of that text (undefined for what the template writes around
 * the values: spaces, braces, the `.` of a server without zones).
 */
export interface HelmValueOrigin {
  readonly path: readonly HelmValuesStep[];
  readonly offset?: number;
}

/** A run of the rendered ConfigMap text and the value that wrote it. */
interface Segment {
  /** Offset in the rendered ConfigMap text. */
  readonly start: number;
  readonly end: number;
  readonly path: readonly HelmValuesStep[];
  /** Offset of the run's first character in the value's printed text; undefined for structure. */
  readonly valueOffset: number | undefined;
}

/** `servers[0].plugins[3].parameters`: a values path as the chart's documentation writes one. */
export function helmValuesPath(path: readonly HelmValuesStep[]): string {
  checkArgument('helmValuesPath', 'path', path, 'array');
  let text = '';
  for (const step of path) text += typeof step === 'number' ? `[${step}]` : text === '' ? step : `.${step}`;
  return text;
}

/** The steps of a {@link helmValuesPath} text (`servers[0].port` → servers, 0, port). */
export function helmValuesSteps(text: string): HelmValuesStep[] {
  return [...text.matchAll(/\[(\d+)\]|([^.[\]]+)/g)].map((match) => (match[1] === undefined ? (match[2] as string) : Number(match[1])));
}

/**
 * The `data:` of the ConfigMap the chart renders from `values`, as the template writes it (the
 * Corefile's literal block only); its YAML is what Kubernetes stores. With the value behind each
 * run of it.
 */
function renderHelmConfigMapData(values: HelmValues): { readonly text: string; readonly segments: readonly Segment[] } {
  let out = 'data:\n  Corefile: |-';
  const segments: Segment[] = [];
  /** Appends `text`, written by the value at `path` (`value`: text printed for the value itself, from its offset `from`). */
  const emit = (text: string, path: readonly HelmValuesStep[], value?: { readonly from: number }) => {
    if (text === '') return;
    segments.push({ start: out.length, end: out.length + text.length, path, valueOffset: value?.from });
    out += text;
  };
  const extraConfig = isRecord(values['extraConfig']) ? values['extraConfig'] : {};
  for (const name of Object.keys(extraConfig).sort()) {
    const conf = extraConfig[name];
    const parameters = isRecord(conf) ? conf['parameters'] : undefined;
    out += '\n    ';
    emit(name, ['extraConfig', name]);
    if (truthy(parameters)) {
      emit(' ', ['extraConfig', name]);
      emit(goPrint(parameters), ['extraConfig', name, 'parameters'], { from: 0 });
    }
  }
  out += '\n    ';
  const servers = Array.isArray(values['servers']) ? values['servers'] : [];
  servers.forEach((server: unknown, serverIndex) => {
    const at = ['servers', serverIndex];
    const entry = isRecord(server) ? server : {};
    const zones = Array.isArray(entry['zones']) ? entry['zones'] : [];
    if (zones.length === 0) emit('.', at);
    zones.forEach((zone: unknown, index) => {
      const record = isRecord(zone) ? zone : {};
      const zoneAt = [...at, 'zones', index];
      if (index > 0) emit(' ', at);
      if (truthy(record['scheme'])) emit(goPrint(record['scheme']), [...zoneAt, 'scheme'], { from: 0 });
      if (truthy(record['zone'])) emit(goPrint(record['zone']), [...zoneAt, 'zone'], { from: 0 });
      else emit('.', zoneAt);
    });
    if (truthy(entry['port'])) {
      emit(':', at);
      emit(goPrint(entry['port']), [...at, 'port'], { from: 0 });
      emit(' ', at);
    }
    emit('{', at);
    const plugins = Array.isArray(entry['plugins']) ? entry['plugins'] : [];
    plugins.forEach((plugin: unknown, pluginIndex) => {
      const record = isRecord(plugin) ? plugin : {};
      const pluginAt = [...at, 'plugins', pluginIndex];
      out += '\n        ';
      emit(goPrint(record['name']), [...pluginAt, 'name'], { from: 0 });
      if (truthy(record['parameters'])) {
        emit(' ', pluginAt);
        emit(goPrint(record['parameters']), [...pluginAt, 'parameters'], { from: 0 });
      }
      if (truthy(record['configBlock'])) {
        emit(' {', pluginAt);
        // Sprig's indent: every line of the block prefixed with 12 spaces.
        let from = 0;
        for (const line of goPrint(record['configBlock']).split('\n')) {
          out += `\n${' '.repeat(12)}`;
          emit(line, [...pluginAt, 'configBlock'], { from });
          from += line.length + 1;
        }
        out += '\n        ';
        emit('}', pluginAt);
      }
    });
    out += '\n    ';
    emit('}', at);
    out += '\n    ';
  });
  return { text: `${out}\n`, segments };
}

/** The segment holding offset `at` (segments are in order and do not overlap). */
function segmentAt(segments: readonly Segment[], at: number): Segment | undefined {
  let low = 0;
  let high = segments.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const segment = segments[middle] as Segment;
    if (at < segment.start) high = middle - 1;
    else if (at >= segment.end) low = middle + 1;
    else return segment;
  }
  return undefined;
}

/**
 * Maps a position of `corefile` (as the ConfigMap's YAML gave it) to the value that wrote it, when
 * the Corefile is the literal block's text as rendered (every line indented by 4 under the two
 * header lines); undefined otherwise (a value broke the block, and YAML read something else).
 */
function originMap(rendered: { readonly text: string; readonly segments: readonly Segment[] }, corefile: string): ((position: SourcePosition) => HelmValueOrigin | undefined) | undefined {
  const renderedLines = rendered.text.split('\n');
  const lines = corefile.split('\n');
  const lineStarts: number[] = [];
  let offset = 0;
  for (const line of renderedLines) {
    lineStarts.push(offset);
    offset += line.length + 1;
  }
  const matches = lines.every((line, index) => {
    const written = renderedLines[index + 2];
    return written !== undefined && (written === `    ${line}` || (line === '' && written.trim() === ''));
  });
  if (!matches) return undefined;
  return (position) => {
    const line = lines[position.line - 1];
    const start = lineStarts[position.line + 1];
    if (line === undefined || start === undefined) return undefined;
    // Columns count code points.
    const column = [...line].slice(0, Math.max(0, position.column - 1)).join('').length;
    const at = start + 4 + column;
    const segment = segmentAt(rendered.segments, at);
    if (segment === undefined) return undefined;
    return segment.valueOffset === undefined ? { path: segment.path } : { path: segment.path, offset: segment.valueOffset + (at - segment.start) };
  };
}

/** Renders `values` (a values.yaml text, or parsed) as chart 1.46.2 does, with the chart's traps as findings. */
export function renderHelmValues(values: HelmValues): HelmRender {
  checkArgument('renderHelmValues', 'values', values, 'object');
  const diagnostics: Diagnostic[] = [];
  const servers = Array.isArray(values['servers']) ? values['servers'] : [];
  servers.forEach((server, index) => {
    const entry = isRecord(server) ? server : {};
    const where = `servers[${index}]`;
    const zones = Array.isArray(entry['zones']) ? entry['zones'] : [];
    const zoneNames = zones.map((zone) => (isRecord(zone) && truthy(zone['zone']) ? goPrint(zone['zone']) : '.'));
    if (!truthy(entry['port'])) {
      diagnostics.push(
        diagnostic('helm-port-missing', {
          key: where,
          message: `no port: the chart renders '${zoneNames.join(' ') || '.'}{' with no space before the brace, which CoreDNS reads as the server key '${zoneNames[zoneNames.length - 1] ?? '.'}{' and refuses; the chart's Service and container ports come out '<nil>' too (coredns/helm#67)`,
        }),
      );
    } else if (zones.length > 1 && goPrint(entry['port']) !== '53') {
      diagnostics.push(
        diagnostic('helm-port-last-zone-only', {
          key: where,
          message: `the chart writes port ${goPrint(entry['port'])} after the last zone only ('${zoneNames.join(' ')}:${goPrint(entry['port'])} {'): ${zoneNames.slice(0, -1).join(', ')} ${zones.length === 2 ? 'is' : 'are'} served on port 53`,
        }),
      );
    }
    const plugins = Array.isArray(entry['plugins']) ? entry['plugins'] : [];
    plugins.forEach((plugin, pluginIndex) => {
      const record = isRecord(plugin) ? plugin : {};
      for (const field of ['name', 'parameters'] as const) {
        const value = record[field];
        const path = `${where}.plugins[${pluginIndex}].${field}`;
        if (typeof value === 'number' && goPrint(value).includes('e')) {
          diagnostics.push(diagnostic('helm-value-printed-otherwise', { key: path, message: `${value} is a number, which Helm reads as a float64 and the template prints as '${goPrint(value)}'; quote it ("${value}")` }));
        }
        if (typeof value === 'string' && /[{}#\n]/.test(value)) {
          diagnostics.push(
            diagnostic('helm-value-breaks-corefile', {
              key: path,
              message: `${JSON.stringify(value)} is pasted into the Corefile as it is: its ${/\n/.test(value) ? 'line break ends the directive' : /#/.test(value) ? "'#' starts a comment" : 'brace opens or closes a block'}, so CoreDNS reads something else than '${goPrint(record['name'])}' with these parameters`,
            }),
          );
        }
      }
      for (const field of ['parameters', 'configBlock'] as const) {
        const value = record[field];
        if (typeof value === 'string' && value.includes('{{')) {
          diagnostics.push(
            diagnostic('helm-template-braces', {
              key: `${where}.plugins[${pluginIndex}].${field}`,
              message: `'{{' in a value: ${HELM_CHART_RELEASE} pastes it as it is, but values that pass through another template engine first (an umbrella chart's tpl, helmfile's .gotmpl) are evaluated there (coredns/helm#159)`,
            }),
          );
        }
      }
    });
  });
  let corefile: string | undefined;
  const rendered = renderHelmConfigMapData(values);
  try {
    const data = readOneDocument(rendered.text, 'the rendered ConfigMap') as { data?: { Corefile?: unknown } } | null | undefined;
    corefile = typeof data?.data?.Corefile === 'string' ? data.data.Corefile : undefined;
  } catch {
    corefile = undefined;
  }
  if (corefile === undefined) {
    diagnostics.push(diagnostic('helm-value-breaks-corefile', { key: 'servers', message: 'the ConfigMap the chart renders is not YAML (a value with a line break at a lower indentation ends the Corefile block): helm install fails' }));
  }
  const origin = corefile === undefined ? undefined : originMap(rendered, corefile);
  return { corefile, diagnostics, origin: (position) => origin?.(position) };
}

/**
 * Reads a values.yaml text (or an RKE2 HelmChartConfig's spec.valuesContent); undefined when it
 * holds no `servers:` or is not one YAML document. Throws `ConfigMapInputError` where its aliases
 * expand past what Helm's reader (go-yaml, as kubectl's) accepts: `excessive-aliasing`, `recursive-alias`.
 */
export function readHelmValues(text: string, filename = '<input>'): HelmValues | undefined {
  checkArgument('readHelmValues', 'text', text, 'string');
  checkArgument('readHelmValues', 'filename', filename, 'string');
  const value = readOneDocument(text, filename);
  if (isRecord(value) && value['kind'] === 'HelmChartConfig' && isRecord(value['spec']) && typeof value['spec']['valuesContent'] === 'string') {
    return readHelmValues(value['spec']['valuesContent'], `${filename} spec.valuesContent`);
  }
  return isRecord(value) && Array.isArray(value['servers']) ? value : undefined;
}


export interface HelmValuesTranslation {
  /** The values.yaml fragment (`servers:`), undefined when the Corefile cannot be written as values. */
  readonly values: string | undefined;
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * `-o helm-values`: the Corefile as the chart's `servers:` values, such that the chart renders it
 * back to the same configuration: one server per block (its keys as zones; every key on the same
 * port, which goes once), one plugin per directive (arguments as `parameters`, a block's lines as
 * `configBlock`). A block whose keys have different ports cannot be written so (the chart writes one
 * port, after the last zone): `helm-port-last-zone-only`, as an error.
 */
export function helmValuesFromCorefile(corefile: string): HelmValuesTranslation {
  checkArgument('helmValuesFromCorefile', 'corefile', corefile, 'string');
  const diagnostics: Diagnostic[] = [];
  const servers = serverBlocks(parseCorefile(corefile).corefile).map((block, index) => {
    const keys = block.keys.map(splitKey);
    const ports = [...new Set(keys.map((key) => key.port))];
    if (ports.length > 1) {
      diagnostics.push(diagnostic('helm-port-last-zone-only', { key: `servers[${index}]`, severity: 'error', message: `block '${block.keys.join(' ')}' has keys on different ports; the chart writes one port, after the last zone` }));
    }
    const port = ports[0] ?? '53';
    return {
      zones: keys.map((key) => ({ zone: key.zone })),
      port: Number(port),
      plugins: block.directives.map(plugin),
    };
  });
  if (diagnostics.length > 0) return { values: undefined, diagnostics };
  return { values: renderValues(servers), diagnostics };
}

function splitKey(key: string): { zone: string; port: string } {
  const match = /^(.*?)(?::(\d+))?$/.exec(key);
  return { zone: match?.[1] === '' || match?.[1] === undefined ? '.' : match[1], port: match?.[2] ?? '53' };
}

function plugin(directive: Directive): { name: string; parameters?: string; configBlock?: string } {
  const parameters = directive.arguments.map(formatToken).join(' ');
  const configBlock = directive.block === undefined ? undefined : blockLines(directive);
  return { name: directive.name, ...(parameters === '' ? {} : { parameters }), ...(configBlock === undefined ? {} : { configBlock }) };
}

/** The lines inside a directive's block, without their indentation under the directive. */
function blockLines(directive: Directive): string {
  const printed = printCorefile({ items: [{ kind: 'server-block', keys: ['.'], directives: [directive] } as ServerBlock] });
  const lines = printed.split('\n').slice(2, -3);
  return lines.map((line) => line.replace(/^ {8}/, '')).join('\n');
}

/** The values as YAML: strings quoted where YAML would read another type, blocks as `|-`. */
function renderValues(servers: readonly { zones: readonly { zone: string }[]; port: number; plugins: readonly { name: string; parameters?: string; configBlock?: string }[] }[]): string {
  const lines = ['servers:'];
  for (const server of servers) {
    lines.push('- zones:');
    for (const zone of server.zones) lines.push(`  - zone: ${yamlString(zone.zone)}`);
    lines.push(`  port: ${server.port}`, '  plugins:');
    for (const entry of server.plugins) {
      lines.push(`  - name: ${yamlString(entry.name)}`);
      if (entry.parameters !== undefined) lines.push(`    parameters: ${yamlString(entry.parameters)}`);
      if (entry.configBlock !== undefined) lines.push('    configBlock: |-', ...entry.configBlock.split('\n').map((line) => (line === '' ? '' : `      ${line}`)));
    }
  }
  return `${lines.join('\n')}\n`;
}

/** A scalar YAML (Helm's reader, YAML 1.1 rules through sigs.k8s.io/yaml) reads back as this string. */
function yamlString(text: string): string {
  return /^[A-Za-z_./][A-Za-z0-9_./:-]*$/.test(text) && !/^(?:y|n|yes|no|on|off|true|false|null|~)$/i.test(text) ? text : JSON.stringify(text);
}
