import { checkArgument } from '../errors/arguments.js';
import { CORE_SCHEMA, EVENT_ID, getScalarValue, mergeTag, parseEvents } from 'js-yaml';
import type { Event } from 'js-yaml';

type ScalarEvent = Extract<Event, { type: typeof EVENT_ID.SCALAR }>;
import { PositionCursor, positionAt } from '../util/source-position.js';
import type { SourcePosition } from '../util/source-position.js';
import { ConfigMapInputError } from './config-map-data.js';
import { DataValueLocator } from './value-positions.js';
import { decodeStdBase64 } from '../util/base64.js';
import { KUBECTL_BINARY_TAG, loadYamlDocuments, MAX_YAML_DEPTH } from './yaml-documents.js';
import type { ValueLocator } from '../util/source-position.js';
import type { ConfigMapData, ConfigMapInputErrorCode } from './config-map-data.js';

export { ConfigMapInputError };
export type { ConfigMapData, ConfigMapInputErrorCode };

/**
 * Reading a ConfigMap the way users hand it to us: what `kubectl get configmap -o yaml|json`
 * prints (also inside a `List` or the API's `ConfigMapList`, or among several YAML documents), or
 * just its `data` map.
 */


export interface ReadConfigMapOptions {
  /** Name used in error messages (`FILE:LINE:COL: …`). Default `<input>`. */
  readonly filename?: string;
  /** Pick the ConfigMap with this `metadata.name` when the input holds several. */
  readonly name?: string;
  /** Names preferred, in order, when the input holds several ConfigMaps and `name` is not given. */
  readonly preferredNames?: readonly string[];
}

export interface ConfigMapDocument {
  /** `metadata.name`, when the input was a whole ConfigMap. */
  readonly name: string | undefined;
  /** `metadata.namespace`, when the input was a whole ConfigMap that names one. */
  readonly namespace: string | undefined;
  readonly data: ConfigMapData;
  /** The keys of `binaryData`, which kube-dns does not read as settings (empty when there is none). */
  readonly binaryDataKeys: readonly string[];
  /**
   * The whole ConfigMap object as parsed (metadata, labels, annotations, every data key), for
   * writing it back with one key replaced (`renderConfigMapWithCorefile`); undefined when the
   * input was a bare data map.
   */
  readonly object: Readonly<Record<string, unknown>> | undefined;
  /**
   * Where the UTF-16 unit `offset` of data key `key`'s value is written in the text (a line and
   * column of the file, for a position Go's JSON decoder reports inside the value): traced through
   * the YAML scalar's indentation, escapes and folding (a `ValueLocation`, `exact` false where
   * that is impossible). Undefined for a key the data does not have.
   */
  readonly locate: ValueLocator;
}


/** Deepest nesting accepted; a ConfigMap is 3 levels deep (yaml-documents.ts says why the bound). */
const MAX_DEPTH = MAX_YAML_DEPTH;

/**
 * Parses `text` (YAML or JSON) and returns the one ConfigMap it holds. Throws
 * {@link ConfigMapInputError} with a `FILE:LINE:COL` message when the text is not YAML, holds no
 * or several candidate ConfigMaps, has fields a ConfigMap does not have at its top level (data
 * keys whose indentation was lost), or a data value is not a string.
 */
export function readConfigMap(text: string, options: ReadConfigMapOptions = {}): ConfigMapDocument {
  checkArgument('readConfigMap', 'text', text, 'string');
  checkArgument('readConfigMap', 'options', options, 'object?');
  const filename = options.filename ?? '<input>';
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const documents = parseDocuments(source, filename);
  const candidates = collectCandidates(documents);
  const chosen = chooseCandidate(candidates, options, filename);
  refuseDifferentTwin(candidates, chosen, source, filename);
  checkTopLevelFields(chosen, source, filename);
  checkMetadataFields(chosen, source, filename);
  const binaryDataKeys = checkBinaryData(chosen, source, filename);
  const data = checkData(chosen, source, filename);
  let paths: PathLocator | undefined;
  const values = new DataValueLocator(source, filename, data, (key) => (paths ??= new PathLocator(source)).valueAt(chosen.documentIndex, [...chosen.pathToData, key]));
  return { name: chosen.name, namespace: chosen.namespace, data, binaryDataKeys, object: chosen.object, locate: (key, offset) => values.locate(key, offset) };
}

interface Candidate {
  readonly name: string | undefined;
  readonly namespace: string | undefined;
  readonly documentIndex: number;
  /** Path from the document root to the ConfigMap object, for error positions. */
  readonly pathToObject: readonly (string | number)[];
  /** Path from the document root to the data map, for error positions. */
  readonly pathToData: readonly (string | number)[];
  readonly data: unknown;
  /** Top-level fields of the ConfigMap object that a ConfigMap does not have, in source order. */
  readonly unknownFields: readonly string[];
  /** The ConfigMap object (for the values of `unknownFields`); undefined for a bare data map. */
  readonly object: Record<string, unknown> | undefined;
}

/** The top-level fields of a ConfigMap (Kubernetes core/v1 `ConfigMap`). */
const CONFIGMAP_FIELDS: ReadonlySet<string> = new Set(['apiVersion', 'kind', 'metadata', 'data', 'binaryData', 'immutable']);

/** Fields of `metadata` (Kubernetes `ObjectMeta`) that a user may write, for the hint on where a lost field belongs. */
const METADATA_FIELDS: ReadonlySet<string> = new Set([
  'name',
  'generateName',
  'namespace',
  'labels',
  'annotations',
  'uid',
  'resourceVersion',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'selfLink',
  'generation',
  'ownerReferences',
  'finalizers',
  'managedFields',
  // Removed from ObjectMeta in Kubernetes 1.25; older API servers printed it.
  'clusterName',
]);

/** List kinds whose `items` are ConfigMaps: kubectl's `List`, and `ConfigMapList` from the API (items without `kind`). */
const LIST_KINDS: ReadonlySet<unknown> = new Set(['List', 'ConfigMapList']);

/**
 * YAML 1.2's core schema with merge keys (`<<: *anchor`, `<<: [*a, *b]`), as kubectl reads them:
 * its decoder (sigs.k8s.io/yaml over go-yaml v2) merges the mapping's entries in, keys written in
 * the mapping win, and in a list of merged maps the earlier one wins. (A `<<` written after a key
 * it repeats: go-yaml v2 lets the merged value win, this reader keeps the written key.) `!!binary`
 * is decoded as kubectl decodes it (yaml-documents.ts).
 */
const SCHEMA = CORE_SCHEMA.withTags(mergeTag, KUBECTL_BINARY_TAG);

/**
 * The YAML (or JSON) documents of `source`; throws {@link ConfigMapInputError} `not-yaml` with the
 * position, or `excessive-aliasing` / `recursive-alias` where kubectl's reader refuses the aliases
 * (configmap/yaml-documents.ts).
 */
export function parseDocuments(source: string, filename: string): unknown[] {
  const trimmed = source.trimStart();
  if (trimmed.startsWith('{')) {
    // JSON is YAML, but JSON.parse is much faster on large inputs; YAML reports the errors.
    try {
      return [JSON.parse(source)];
    } catch {
      // fall through to the YAML parser for a positioned message
    }
  }
  return loadYamlDocuments(source, { schema: SCHEMA, maxDepth: MAX_DEPTH, filename });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function collectCandidates(documents: readonly unknown[]): Candidate[] {
  const candidates: Candidate[] = [];
  documents.forEach((document, documentIndex) => {
    if (!isRecord(document)) return;
    if (LIST_KINDS.has(document['kind']) && Array.isArray(document['items'])) {
      // The API's ConfigMapList leaves `kind` out of its items; kubectl's List keeps it.
      const itemKinds = document['kind'] === 'ConfigMapList' ? [undefined, 'ConfigMap'] : ['ConfigMap'];
      document['items'].forEach((item: unknown, itemIndex) => {
        if (isRecord(item) && itemKinds.includes(item['kind'] as string | undefined)) {
          candidates.push(configMapCandidate(item, documentIndex, ['items', itemIndex]));
        }
      });
    } else if (document['kind'] === 'ConfigMap') {
      candidates.push(configMapCandidate(document, documentIndex, []));
    } else if (document['kind'] === undefined && document['apiVersion'] === undefined) {
      if ('data' in document || 'metadata' in document) {
        // A ConfigMap without its kind, e.g. a fragment that starts at `data:`.
        candidates.push(configMapCandidate(document, documentIndex, []));
      } else {
        // A bare `data` map.
        candidates.push({ name: undefined, namespace: undefined, documentIndex, pathToObject: [], pathToData: [], data: document, unknownFields: [], object: undefined });
      }
    }
  });
  return candidates;
}

function configMapCandidate(object: Record<string, unknown>, documentIndex: number, path: (string | number)[]): Candidate {
  const metadata = object['metadata'];
  const text = (field: string) => (isRecord(metadata) && typeof metadata[field] === 'string' ? metadata[field] : undefined);
  return {
    name: text('name'),
    namespace: text('namespace'),
    documentIndex,
    pathToObject: path,
    pathToData: [...path, 'data'],
    data: object['data'],
    unknownFields: Object.keys(object).filter((field) => !CONFIGMAP_FIELDS.has(field)),
    object,
  };
}

/**
 * Refuses a ConfigMap with fields it cannot have at its top level — typically `name:` or
 * `stubDomains:` whose indentation was lost, which leaves `metadata:` and `data:` empty. Kubernetes
 * would not store such a ConfigMap (kubectl refuses unknown fields), and reading it as having no
 * data would drop the keys without a word.
 */
function checkTopLevelFields(candidate: Candidate, source: string, filename: string): void {
  const { object, unknownFields: fields } = candidate;
  const [first] = fields;
  if (first === undefined || object === undefined) return;
  const toMetadata = fields.filter((field) => METADATA_FIELDS.has(field));
  const toData = fields.filter((field) => !METADATA_FIELDS.has(field) && (typeof object[field] === 'string' || object[field] === null));
  const moves = [toMetadata.length === 0 ? '' : `${listFields(toMetadata)} under metadata:`, toData.length === 0 ? '' : `${listFields(toData)} under data:`];
  const hint = moves.filter((move) => move !== '').join(' and ');
  // `metadata:` or `data:` followed by nothing indented: YAML reads null.
  const empty = ['metadata', 'data'].filter((field) => field in object && object[field] === null);
  const message =
    `${listFields(fields)} ${fields.length === 1 ? 'is' : 'are'} at the top level of the ConfigMap, where only ${[...CONFIGMAP_FIELDS].join(', ')} belong` +
    (empty.length === 0 ? '' : ` (as written, ${empty.join(' and ')} ${empty.length === 1 ? 'is' : 'are'} empty)`) +
    (hint === '' ? '' : `; was the indentation lost? Indent ${hint}`) +
    '. kubectl refuses such a file too';
  throw positionedError(source, filename, candidate.documentIndex, [...candidate.pathToObject, first], 'misplaced-fields', message);
}

/**
 * Refuses `metadata` fields that ObjectMeta does not have — typically data keys indented one level
 * too deep, under `metadata:` instead of `data:`. Kubernetes would not store them (kubectl refuses
 * unknown fields), and reading the ConfigMap without them would drop them without a word.
 */
function checkMetadataFields(candidate: Candidate, source: string, filename: string): void {
  const metadata = candidate.object?.['metadata'];
  if (!isRecord(metadata)) return;
  const fields = Object.keys(metadata).filter((field) => !METADATA_FIELDS.has(field));
  const [first] = fields;
  if (first === undefined) return;
  const toData = fields.filter((field) => typeof metadata[field] === 'string');
  const message =
    `${listFields(fields)} ${fields.length === 1 ? 'is' : 'are'} under metadata:, which has no such field` +
    (toData.length === 0 ? '' : `; was the indentation off? Put ${listFields(toData)} under data:`) +
    '. kubectl refuses such a file too';
  throw positionedError(source, filename, candidate.documentIndex, [...candidate.pathToObject, 'metadata', first], 'misplaced-fields', message);
}

function listFields(fields: readonly string[]): string {
  return fields.join(', ');
}

function chooseCandidate(candidates: readonly Candidate[], options: ReadConfigMapOptions, filename: string): Candidate {
  if (options.name !== undefined) {
    const named = candidates.filter((candidate) => candidate.name === options.name);
    const [first] = named;
    if (first === undefined) {
      throw new ConfigMapInputError('configmap-not-found', `no ConfigMap named '${options.name}' (found: ${describeNames(candidates)})`, { filename });
    }
    return first;
  }
  const [only] = candidates;
  if (only === undefined) {
    throw new ConfigMapInputError('no-configmap', 'no ConfigMap found (expected kind: ConfigMap, a List or ConfigMapList of them, or a data map)', { filename });
  }
  if (candidates.length === 1) return only;
  for (const preferred of options.preferredNames ?? []) {
    const match = candidates.find((candidate) => candidate.name === preferred);
    if (match) return match;
  }
  throw new ConfigMapInputError('several-configmaps', `${candidates.length} ConfigMaps found (${describeNames(candidates)}); choose one with --name`, { filename });
}

/**
 * Refuses a second ConfigMap of the chosen one's name and namespace whose content differs: which of
 * the two the cluster ran is not known (`kubectl apply` of such a file applies both, the last
 * wins), as with two different copies of one Deployment. The same content twice is read once.
 */
function refuseDifferentTwin(candidates: readonly Candidate[], chosen: Candidate, source: string, filename: string): void {
  if (chosen.name === undefined) return;
  const content = configMapContent(chosen);
  for (const other of candidates) {
    if (other === chosen || other.name !== chosen.name || other.namespace !== chosen.namespace || configMapContent(other) === content) continue;
    const first = new PathLocator(source).locate(chosen.documentIndex, chosen.pathToObject);
    const at = first === undefined ? filename : `${filename}:${first.line}:${first.column}`;
    throw positionedError(source, filename, other.documentIndex, other.pathToObject, 'several-configmaps', `a second ConfigMap ${other.name ?? '(unnamed)'} with other data than the one at ${at}; give it once`);
  }
}

/** What a ConfigMap holds, whatever the order its keys are written in: data, binaryData, immutable. */
function configMapContent(candidate: Candidate): string {
  const sorted = (value: unknown): unknown => (isRecord(value) ? Object.fromEntries(Object.keys(value).sort().map((key) => [key, value[key]])) : value);
  return JSON.stringify([sorted(candidate.data), sorted(candidate.object?.['binaryData']), candidate.object?.['immutable']]);
}

function describeNames(candidates: readonly Candidate[]): string {
  if (candidates.length === 0) return 'none';
  return candidates.map((candidate) => candidate.name ?? '(unnamed)').join(', ');
}

function checkData(candidate: Candidate, source: string, filename: string): ConfigMapData {
  const { data } = candidate;
  if (data === undefined || data === null) return {};
  if (!isRecord(data)) {
    throw positionedError(source, filename, candidate.documentIndex, candidate.pathToData, 'data-not-mapping', `data must be a mapping of strings, got ${describeYamlValue(data)}`);
  }
  const result: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [key, value] of Object.entries(data)) {
    if (typeof value !== 'string') {
      throw positionedError(
        source,
        filename,
        candidate.documentIndex,
        [...candidate.pathToData, key],
        'value-not-string',
        `data.${key} must be a string (the JSON text kube-dns reads), got ${describeYamlValue(value)}; quote it or use a '|' block`,
      );
    }
    result[key] = value;
  }
  return result;
}

/**
 * The keys of `binaryData`, a mapping of base64 strings as the API server decodes them (Go's
 * standard encoding; a `null` value is empty): anything else is refused where it is written, since
 * `kubectl apply` of it fails ("illegal base64 data"). A value written `!!binary` is decoded by
 * kubectl first (yaml-documents.ts), so what reaches the API server is no longer base64 unless the
 * bytes happen to be.
 */
function checkBinaryData(candidate: Candidate, source: string, filename: string): string[] {
  const binaryData = candidate.object?.['binaryData'];
  if (binaryData === undefined || binaryData === null) return [];
  const at = [...candidate.pathToObject, 'binaryData'];
  if (!isRecord(binaryData)) throw positionedError(source, filename, candidate.documentIndex, at, 'binary-data-not-base64', `binaryData must be a mapping of base64 strings, got ${describeYamlValue(binaryData)}`);
  for (const [key, value] of Object.entries(binaryData)) {
    if (value === null) continue;
    if (typeof value !== 'string' || decodeStdBase64(value) === undefined) {
      const what = typeof value === 'string' ? 'is not base64 (the standard alphabet, = padding; a !!binary tag is decoded by kubectl before it is sent, so write the base64 text untagged)' : `must be a base64 string, got ${describeYamlValue(value)}`;
      throw positionedError(source, filename, candidate.documentIndex, [...at, key], 'binary-data-not-base64', `binaryData.${key} ${what}; the API server refuses it ("illegal base64 data")`);
    }
  }
  return Object.keys(binaryData);
}

function describeYamlValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a sequence';
  if (typeof value === 'object') return 'a mapping';
  return `a ${typeof value}`;
}

function positionedError(
  source: string,
  filename: string,
  documentIndex: number,
  path: readonly (string | number)[],
  code: ConfigMapInputErrorCode,
  reason: string,
): ConfigMapInputError {
  const offset = locateValue(source, documentIndex, path);
  return new ConfigMapInputError(code, reason, { filename, position: offset === undefined ? undefined : positionAt(source, offset) });
}

function locateValue(source: string, documentIndex: number, path: readonly (string | number)[]): number | undefined {
  return new PathLocator(source).offsetOf(documentIndex, path);
}

/**
 * Line and column of the key (or item) at a path of a document, for error messages and the
 * positions of objects. The text is parsed once, and each mapping's keys
 * and each sequence's items are indexed the first time a path goes through them, so locating every
 * item of a List of n objects costs O(n) in all (a fresh parse and walk per item was O(n²)).
 * Positions asked in source order cost one pass over the text ({@link PositionCursor}).
 */
export class PathLocator {
  private events: Event[] | undefined;
  private failed = false;
  private documentStarts: number[] | undefined;
  private readonly sequenceItems = new Map<number, number[]>();
  private readonly mappingEntries = new Map<number, Map<string, { readonly keyStart: number | undefined; readonly value: number }>>();
  private readonly positions: PositionCursor;

  constructor(private readonly source: string) {
    this.positions = new PositionCursor(source);
  }

  /** Line and column of the key (or item) at `path`; undefined when the text does not parse as events. */
  locate(documentIndex: number, path: readonly (string | number)[]): SourcePosition | undefined {
    const offset = this.offsetOf(documentIndex, path);
    return offset === undefined ? undefined : this.positions.positionAt(offset);
  }

  /**
   * The scalar event of the value at `path` (a data value, say); for a value that is not a scalar
   * written there (an alias, a key brought in by a merge key), the offset of what is written
   * instead: the alias, or the deepest node found. Undefined when the text does not parse as events.
   */
  valueAt(documentIndex: number, path: readonly (string | number)[]): ScalarEvent | number | undefined {
    const walked = this.walk(documentIndex, path);
    if (walked === undefined) return undefined;
    const { events, cursor } = walked;
    const node = events[cursor];
    const start = nodeStart(node);
    if (walked.complete && node?.type === EVENT_ID.ALIAS) return this.anchored(events, cursor) ?? start;
    return walked.complete && node?.type === EVENT_ID.SCALAR ? node : start;
  }

  /** The scalar an alias at `cursor` stands for: the nearest one before it with that anchor. */
  private anchored(events: readonly Event[], cursor: number): ScalarEvent | undefined {
    const alias = events[cursor];
    if (alias?.type !== EVENT_ID.ALIAS) return undefined;
    const name = this.source.slice(alias.anchorStart, alias.anchorEnd);
    for (let index = cursor - 1; index >= 0; index -= 1) {
      const event = events[index];
      if (event === undefined || event.type === EVENT_ID.DOCUMENT) return undefined;
      if (event.type === EVENT_ID.POP || event.type === EVENT_ID.ALIAS || event.anchorStart < 0) continue;
      if (this.source.slice(event.anchorStart, event.anchorEnd) === name) return event.type === EVENT_ID.SCALAR ? event : undefined;
    }
    return undefined;
  }

  /** Source offset of the key (or, for the root, the node) at `path`: the deepest step found. */
  offsetOf(documentIndex: number, path: readonly (string | number)[]): number | undefined {
    return this.walk(documentIndex, path)?.located;
  }

  /**
   * Follows `path` from a document's root: the cursor of the deepest node reached, whether it is
   * the node at the whole path, and where the deepest step is written (a key, or an item).
   */
  private walk(documentIndex: number, path: readonly (string | number)[]): { readonly events: Event[]; readonly cursor: number; readonly complete: boolean; readonly located: number | undefined } | undefined {
    const events = this.parsed();
    if (events === undefined) return undefined;
    let cursor = (this.documents(events)[documentIndex] ?? events.length) + 1;
    let located = nodeStart(events[cursor]);
    for (const step of path) {
      const node = events[cursor];
      if (node === undefined) return { events, cursor, complete: false, located: undefined };
      if (node.type === EVENT_ID.MAPPING && typeof step === 'string') {
        const entry = this.entries(events, cursor).get(step);
        if (entry === undefined) return { events, cursor, complete: false, located };
        located = entry.keyStart;
        cursor = entry.value;
      } else if (node.type === EVENT_ID.SEQUENCE && typeof step === 'number') {
        cursor = this.items(events, cursor)[step] ?? events.length;
        located = nodeStart(events[cursor]);
      } else {
        return { events, cursor, complete: false, located };
      }
    }
    return { events, cursor, complete: true, located };
  }

  private parsed(): Event[] | undefined {
    if (this.events === undefined && !this.failed) {
      try {
        this.events = parseEvents(this.source, { maxDepth: MAX_DEPTH });
      } catch {
        this.failed = true;
      }
    }
    return this.events;
  }

  private documents(events: readonly Event[]): number[] {
    if (this.documentStarts === undefined) {
      this.documentStarts = [];
      for (let cursor = 0; cursor < events.length; cursor += 1) if (events[cursor]?.type === EVENT_ID.DOCUMENT) this.documentStarts.push(cursor);
    }
    return this.documentStarts;
  }

  /** The cursor of each item of the sequence that starts at `cursor`. */
  private items(events: readonly Event[], cursor: number): number[] {
    let items = this.sequenceItems.get(cursor);
    if (items === undefined) {
      items = [];
      for (let item = cursor + 1; events[item] !== undefined && events[item]?.type !== EVENT_ID.POP; item = skipNode(events, item)) items.push(item);
      this.sequenceItems.set(cursor, items);
    }
    return items;
  }

  /** Each key of the mapping that starts at `cursor` (the first of duplicates), with its value's cursor. */
  private entries(events: readonly Event[], cursor: number): Map<string, { readonly keyStart: number | undefined; readonly value: number }> {
    let entries = this.mappingEntries.get(cursor);
    if (entries === undefined) {
      entries = new Map();
      let key = cursor + 1;
      while (events[key] !== undefined && events[key]?.type !== EVENT_ID.POP) {
        const event = events[key];
        const keyText = event?.type === EVENT_ID.SCALAR ? getScalarValue(this.source, event) : undefined;
        const value = skipNode(events, key);
        if (keyText !== undefined && !entries.has(keyText)) entries.set(keyText, { keyStart: nodeStart(event), value });
        key = skipNode(events, value);
      }
      this.mappingEntries.set(cursor, entries);
    }
    return entries;
  }
}

function nodeStart(event: Event | undefined): number | undefined {
  if (event === undefined) return undefined;
  switch (event.type) {
    case EVENT_ID.SCALAR:
      return event.valueStart;
    case EVENT_ID.MAPPING:
    case EVENT_ID.SEQUENCE:
      return event.start;
    case EVENT_ID.ALIAS:
      return event.anchorStart;
    default:
      return undefined;
  }
}

/** Index of the event after the node that starts at `index`. */
function skipNode(events: readonly Event[], index: number): number {
  const event = events[index];
  if (event === undefined) return index;
  if (event.type !== EVENT_ID.MAPPING && event.type !== EVENT_ID.SEQUENCE) return index + 1;
  let depth = 0;
  let cursor = index;
  do {
    const current = events[cursor];
    if (current?.type === EVENT_ID.MAPPING || current?.type === EVENT_ID.SEQUENCE) depth += 1;
    else if (current?.type === EVENT_ID.POP) depth -= 1;
    cursor += 1;
  } while (depth > 0 && cursor < events.length);
  return cursor;
}
