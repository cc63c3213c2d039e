import { constructFromEvents, CORE_SCHEMA, defineScalarTag, EVENT_ID, getScalarValue, NOT_RESOLVED, parseEvents, SCALAR_STYLE, YAMLException } from 'js-yaml';
import type { Event, Schema } from 'js-yaml';
import { positionAt } from '../util/source-position.js';
import type { SourcePosition } from '../util/source-position.js';
import { decodeStdBase64 } from '../util/base64.js';
import { excessiveAliasing } from '../util/yaml-alias-limit.js';
import { ConfigMapInputError } from './config-map-data.js';

/**
 * The one way user YAML becomes values in this package (ConfigMaps, Deployments, Lists, Helm
 * values, the EKS add-on's configuration): js-yaml's events, checked for alias expansion before any
 * value is built. js-yaml shares an anchored value among its aliases, so building is cheap, but
 * every reader after it (JSON, comparisons, messages, writing back) walks the values as trees, where
 * ten lines of nested aliases are a billion nodes. kubectl's reader refuses such documents; so do we,
 * by the same rule (util/yaml-alias-limit.ts), plus a bound of our own on the whole text.
 */

/**
 * Most nodes the aliases of one text may bring in, summed over its documents. go-yaml's rule
 * bounds each document (about 400,000 aliased nodes for a small one, at most 1.2 million for one
 * of 2.2 million nodes); this bounds the many-documents case, which kubectl reads one document at a
 * time. No manifest written by hand comes near it.
 */
export const MAX_ALIASED_NODES = 1_000_000;

/** Text that is not UTF-8 decoded as Go's JSON encoder writes a string holding it: each bad byte as U+FFFD. */
const BINARY_TEXT = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * `!!binary`, as kubectl reads it: go-yaml v2 decodes the base64 (Go's standard decoder: padding
 * required, line breaks skipped) into a Go string, and kubectl sends that string as JSON, so the
 * object holds the decoded text (a byte that is not UTF-8 becomes U+FFFD). Invalid base64 is
 * refused, as kubectl refuses it ({@link loadYamlDocuments}'s message).
 */
export const KUBECTL_BINARY_TAG = defineScalarTag('tag:yaml.org,2002:binary', {
  resolve: (source) => {
    const bytes = decodeStdBase64(source);
    return bytes === undefined ? NOT_RESOLVED : BINARY_TEXT.decode(bytes);
  },
  identify: () => false,
});

/**
 * The deepest nesting read: no object kubectl prints comes near it (the deepest fields of a
 * Deployment, its `managedFields` entries, are well under 30 levels down), and the readers after the parser walk the
 * values recursively.
 */
export const MAX_YAML_DEPTH = 64;

/** YAML 1.2's core schema with `!!binary` read as kubectl reads it. */
const KUBECTL_SCHEMA = CORE_SCHEMA.withTags(KUBECTL_BINARY_TAG);

export interface YamlDocumentsOptions {
  /** Name used in error messages. */
  readonly filename: string;
  /** Default js-yaml's core schema. */
  readonly schema?: Schema;
  /** Deepest nesting accepted (js-yaml's `maxDepth`). */
  readonly maxDepth?: number;
}

/**
 * The documents of `source`. Throws {@link ConfigMapInputError}: `not-yaml` (with js-yaml's
 * position), `recursive-alias` (an alias inside the node it names, which kubectl refuses: "anchor
 * 'a' value contains itself"), `excessive-aliasing` (see {@link checkAliasExpansion}).
 */
export function loadYamlDocuments(source: string, options: YamlDocumentsOptions): unknown[] {
  const { filename } = options;
  try {
    const events = parseEvents(source, { filename, ...(options.maxDepth === undefined ? {} : { maxDepth: options.maxDepth }) });
    checkAliasExpansion(events, source, filename);
    return constructFromEvents(events, { source, filename, schema: options.schema ?? KUBECTL_SCHEMA });
  } catch (error) {
    if (error instanceof YAMLException) {
      const mark = error.mark;
      const position = mark ? yamlErrorPosition(source, mark) : undefined;
      throw new ConfigMapInputError('not-yaml', `not valid YAML or JSON: ${yamlReason(error.reason)}`, { filename, position });
    }
    throw error;
  }
}

/** js-yaml's reason, in words naming what kubectl would do where the two differ in wording. */
function yamlReason(reason: string): string {
  if (/cannot resolve a node with !<tag:yaml\.org,2002:binary>/.test(reason)) {
    return 'this !!binary value is not base64 (the standard alphabet, = padding); kubectl refuses it too ("!!binary value contains invalid base64 data")';
  }
  const depth = /nesting exceeded maxDepth \((\d+)\)/.exec(reason);
  if (depth !== null) {
    return `nested deeper than ${depth[1]} levels, more than this tool reads; no Kubernetes object kubectl prints is nested that deep (a stray run of '[' or '{'?)`;
  }
  return reason;
}

/**
 * Where a YAML error is shown: js-yaml's mark, except that an error at the end of the text (an
 * unclosed `{`, `[` or quote) is placed just after its last character, not on the line after the
 * final line break, which no editor shows.
 */
function yamlErrorPosition(source: string, mark: { readonly line: number; readonly column: number; readonly position: number }): SourcePosition {
  const trimmed = source.replace(/[\r\n]+$/, '');
  if (mark.position >= trimmed.length && trimmed.length < source.length) return positionAt(source, trimmed.length);
  return { line: mark.line + 1, column: mark.column + 1 };
}

/** An anchor's node: how many nodes decoding it counts (its aliases expanded); undefined while it is still open. */
interface Anchored {
  size: number | undefined;
}

interface Frame {
  readonly mapping: boolean;
  /** The count when the node started, before the node itself. */
  readonly start: number;
  /** The anchor on this node; its size is set when the node ends. */
  readonly anchored: Anchored | undefined;
  /** The sequence after a merge key, whose own node go-yaml does not count (it decodes its items). */
  readonly uncounted: boolean;
  /** In a mapping: the next node is a key. */
  expectKey: boolean;
  /** In a mapping: the next node is the value of a merge key (`<<`). */
  mergeValue: boolean;
}

/**
 * Counts, in one pass over the events (never expanding an alias), what go-yaml's decoder counts
 * for each document: every node decoded, the document node included, and apart the nodes decoded
 * through aliases (an alias decodes its anchor's node again, with the aliases inside it). A merge
 * key (`<<`) is not decoded as a key, and the sequence of mappings after it is not a node of its
 * own there. Throws `excessive-aliasing` at the alias after which go-yaml would stop (the share of
 * aliased nodes rises while an alias is followed and the allowed share only falls, so checking at
 * the end of each alias is checking at every node), or after which the text's aliases have brought
 * in more than {@link MAX_ALIASED_NODES} nodes in all; `recursive-alias` at an alias inside the
 * node it names.
 */
function checkAliasExpansion(events: readonly Event[], source: string, filename: string): void {
  let decoded = 0;
  let aliased = 0;
  let aliasedInText = 0;
  let anchors = new Map<string, Anchored>();
  const frames: Frame[] = [];
  const anchorOf = (event: { readonly anchorStart: number; readonly anchorEnd: number }): Anchored | undefined => {
    if (event.anchorStart < 0) return undefined;
    const anchored: Anchored = { size: undefined };
    anchors.set(source.slice(event.anchorStart, event.anchorEnd), anchored);
    return anchored;
  };
  /** Called after a whole node (scalar, alias, collection) was read inside the frame on top. */
  const nodeDone = (): void => {
    const top = frames[frames.length - 1];
    if (top?.mapping === true) top.expectKey = !top.expectKey;
  };
  for (const event of events) {
    const top = frames[frames.length - 1];
    const mergeValue = top?.mapping === true && !top.expectKey && top.mergeValue;
    if (mergeValue) top.mergeValue = false;
    switch (event.type) {
      case EVENT_ID.DOCUMENT:
        decoded = 1;
        aliased = 0;
        anchors = new Map();
        frames.length = 0;
        break;
      case EVENT_ID.SCALAR: {
        const anchored = anchorOf(event);
        if (anchored !== undefined) anchored.size = 1;
        if (top?.mapping === true && top.expectKey && isMergeKey(event, source)) {
          top.mergeValue = true;
        } else {
          decoded += 1;
        }
        nodeDone();
        break;
      }
      case EVENT_ID.SEQUENCE:
      case EVENT_ID.MAPPING: {
        const uncounted = mergeValue && event.type === EVENT_ID.SEQUENCE;
        frames.push({ mapping: event.type === EVENT_ID.MAPPING, start: decoded, anchored: anchorOf(event), uncounted, expectKey: true, mergeValue: false });
        if (!uncounted) decoded += 1;
        break;
      }
      case EVENT_ID.POP: {
        const frame = frames.pop();
        if (frame === undefined) break; // the document's end
        if (frame.anchored !== undefined) frame.anchored.size = decoded - frame.start + (frame.uncounted ? 1 : 0);
        nodeDone();
        break;
      }
      case EVENT_ID.ALIAS: {
        const name = source.slice(event.anchorStart, event.anchorEnd);
        const anchored = anchors.get(name);
        // An unknown name is js-yaml's error ("unidentified alias"), reported when the values are built.
        if (anchored !== undefined) {
          const at = () => ({ filename, position: positionAt(source, source[event.anchorStart - 1] === '*' ? event.anchorStart - 1 : event.anchorStart) });
          if (anchored.size === undefined) {
            throw new ConfigMapInputError('recursive-alias', `alias '*${name}' is inside the node it names: kubectl refuses it ("anchor '${name}' value contains itself")`, at());
          }
          decoded += 1 + anchored.size;
          aliased += anchored.size;
          aliasedInText += anchored.size;
          if (excessiveAliasing(decoded, aliased)) {
            throw new ConfigMapInputError(
              'excessive-aliasing',
              `alias '*${name}' brings the document to ${decoded} YAML nodes, ${aliased} of them through aliases: more than kubectl's YAML reader allows (it stops with "document contains excessive aliasing"; see docs/performance.md#yaml-aliases)`,
              at(),
            );
          }
          if (aliasedInText > MAX_ALIASED_NODES) {
            throw new ConfigMapInputError(
              'excessive-aliasing',
              `alias '*${name}' brings the nodes read through aliases in this text to ${aliasedInText}, more than the ${MAX_ALIASED_NODES} this tool reads (see docs/performance.md#yaml-aliases)`,
              at(),
            );
          }
        } else {
          decoded += 1;
        }
        nodeDone();
        break;
      }
    }
  }
}

/** go-yaml's merge key: the plain scalar `<<`, or one tagged `!!merge`. */
function isMergeKey(event: Extract<Event, { type: typeof EVENT_ID.SCALAR }>, source: string): boolean {
  const tag = event.tagStart < 0 ? undefined : source.slice(event.tagStart, event.tagEnd);
  if (tag === undefined ? event.style !== SCALAR_STYLE.PLAIN : tag !== '!!merge') return false;
  return getScalarValue(source, event) === '<<';
}
