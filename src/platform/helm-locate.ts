/**
 * Findings about a Corefile the Helm chart renders, placed where the user writes it: at the values
 * path (`servers[0].plugins[3].parameters`) and its line and column in the values file (or in an
 * RKE2 HelmChartConfig, inside its `spec.valuesContent`), instead of a line of a Corefile nobody
 * wrote. See docs/platforms.md#the-helm-chart.
 *
 * Pure: no Node APIs.
 */
import { PathLocator } from '../configmap/read-configmap.js';
import { scalarSourceMap } from '../configmap/value-positions.js';
import { loadYamlDocuments } from '../configmap/yaml-documents.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { PositionCursor, positionAt } from '../util/source-position.js';
import type { ValueLocation } from '../util/source-position.js';
import { goPrint, helmValuesPath, helmValuesSteps } from './helm-values.js';
import type { HelmRender, HelmValueOrigin, HelmValuesStep } from './helm-values.js';

/** Where the value at `path` of the values is written in the file: its UTF-16 unit `offset` when given, else its key (or item). */
export type HelmValueLocator = (path: readonly HelmValuesStep[], offset?: number) => ValueLocation | undefined;

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function valueAt(root: unknown, path: readonly HelmValuesStep[]): unknown {
  let value = root;
  for (const step of path) {
    if (typeof step === 'number' ? !Array.isArray(value) : !isRecord(value)) return undefined;
    value = (value as Record<string | number, unknown>)[step];
  }
  return value;
}

/**
 * Offsets in `text` (a values text, or a HelmChartConfig holding one as `spec.valuesContent`) of the
 * values' nodes: `offsetOf(path, offset)` is where unit `offset` of the string at `path` is written
 * (`exact` false when only the node's start is known).
 */
function valueOffsets(text: string): ((path: readonly HelmValuesStep[], offset: number | undefined) => { readonly at: number; readonly exact: boolean } | undefined) | undefined {
  let root: unknown;
  try {
    const documents = loadYamlDocuments(text, { filename: '<values>' });
    if (documents.length !== 1) return undefined;
    root = documents[0];
  } catch {
    return undefined;
  }
  const locator = new PathLocator(text);
  const content = isRecord(root) && root['kind'] === 'HelmChartConfig' ? valueAt(root, ['spec', 'valuesContent']) : undefined;
  if (typeof content === 'string') {
    // The values are a YAML text inside a string of the HelmChartConfig: placed in it, then traced out of it.
    const inner = valueOffsets(content);
    const scalar = locator.valueAt(0, ['spec', 'valuesContent']);
    if (inner === undefined || scalar === undefined) return undefined;
    const map = typeof scalar === 'number' ? undefined : scalarSourceMap(text, scalar, content);
    return (path, offset) => {
      const found = inner(path, offset);
      if (found === undefined) return undefined;
      if (map === undefined) return { at: scalar as number, exact: false };
      return { at: map.offsetOf(found.at), exact: found.exact && map.exact };
    };
  }
  return (path, offset) => {
    // Without an offset, the finding is about the node: placed at its key (or item).
    if (offset === undefined) {
      const at = locator.offsetOf(0, path);
      return at === undefined ? undefined : { at, exact: true };
    }
    const scalar = locator.valueAt(0, path);
    if (scalar === undefined) return undefined;
    if (typeof scalar === 'number') return { at: scalar, exact: false };
    const value = valueAt(root, path);
    if (typeof value !== 'string') return { at: Math.max(0, scalar.valueStart), exact: offset === 0 };
    const map = scalarSourceMap(text, scalar, value);
    return { at: map.offsetOf(offset), exact: map.exact };
  };
}

/** A {@link HelmValueLocator} for the values text `text` read from `filename`. */
export function helmValueLocator(text: string, filename: string): HelmValueLocator {
  const offsets = valueOffsets(text);
  let cursor: PositionCursor | undefined;
  return (path, offset) => {
    const found = offsets?.(path, offset);
    if (found === undefined) return undefined;
    cursor ??= new PositionCursor(text);
    const { line, column } = cursor.positionAt(found.at);
    return { filename, line, column, exact: found.exact };
  };
}

/** `entry` placed at `key` (a values path), `position` inside that value and `location` in the file, its other fields kept. */
function placed<Entry extends Diagnostic>(entry: Entry, key: string, path: string | undefined, inside: HelmValueOrigin | undefined, values: unknown, location: ValueLocation): Entry {
  const { code, severity, key: _key, path: _path, position: _position, location: _location, message, hint, ...extra } = entry;
  const text = inside?.offset === undefined ? undefined : goPrint(valueAt(values, inside.path));
  const position = text === undefined || inside?.offset === undefined ? undefined : positionAt(text, inside.offset);
  return {
    code,
    severity,
    key,
    ...(path === undefined || path === '' ? {} : { path }),
    ...(position === undefined ? {} : { position }),
    location,
    message,
    hint,
    ...extra,
  } as unknown as Entry;
}

/**
 * `diagnostics` about the rendered Corefile (key `Corefile`, a position in it) moved to the value
 * that wrote the position: key the values path, path what followed the Corefile position (`[.:53]
 * forward`), position inside the value's text, location in the file. Findings keyed by a values
 * path (the chart's traps) gain their value's location. Others are returned as they are.
 */
export function locateHelmDiagnostics<Entry extends Diagnostic>(diagnostics: readonly Entry[], render: Pick<HelmRender, 'origin'>, values: unknown, locate: HelmValueLocator): Entry[] {
  return diagnostics.map((entry) => {
    if (entry.location !== undefined || entry.key === undefined) return entry;
    if (entry.key === 'Corefile') {
      const origin = entry.position === undefined ? undefined : render.origin(entry.position);
      const location = origin === undefined ? undefined : locate(origin.path, origin.offset);
      if (origin === undefined || location === undefined) return entry;
      return placed(entry, helmValuesPath(origin.path), entry.path?.replace(/^:\d+:\d+/, ''), origin, values, location);
    }
    if (entry.position !== undefined || !/^(?:servers|extraConfig)\b/.test(entry.key)) return entry;
    const location = locate(helmValuesSteps(entry.key));
    return location === undefined ? entry : placed(entry, entry.key, entry.path, undefined, values, location);
  });
}
