import { InternalError } from '../../errors/internal-error.js';
import type { YamlV2Dialect } from './dialect.js';
import { YamlDecodeError } from './errors.js';
import { goMapKeyIdentity, goSyntax, isGoMap } from './go-values.js';
import type { GoMap, GoValue } from './go-values.js';
import { EVENT_NAMES, EventKind, Parser } from './parser.js';
import type { YamlEvent } from './parser.js';
import { BINARY_TAG, MERGE_TAG, resolveScalar } from './resolve.js';
import type { ResolveOptions } from './resolve.js';
import { excessiveAliasing } from '../../util/yaml-alias-limit.js';

/** A node of yaml.v2's document tree (decode.go's `node`). */
export type YamlNode = ScalarNode | SequenceNode | MappingNode | AliasNode;

interface NodeBase {
  /** 0-based line of the node's first event. */
  readonly line: number;
  readonly column: number;
}

export interface ScalarNode extends NodeBase {
  readonly kind: 'scalar';
  readonly value: string;
  readonly tag: string;
  /** Plain and untagged: subject to implicit typing. */
  readonly implicit: boolean;
}

export interface SequenceNode extends NodeBase {
  readonly kind: 'sequence';
  readonly children: YamlNode[];
}

export interface MappingNode extends NodeBase {
  readonly kind: 'mapping';
  /** Keys and values alternating. */
  readonly children: YamlNode[];
}

export interface AliasNode extends NodeBase {
  readonly kind: 'alias';
  readonly name: string;
  readonly target: YamlNode;
}

/**
 * yaml.v2's node builder (the `parser` type of decode.go): pulls events and builds the tree of the
 * *first* document only — `Unmarshal` never looks further than the event that ends it. An alias
 * must name an anchor defined earlier in the document (`unknown anchor 'x' referenced`); anchors
 * are registered when their node starts, so a collection can refer to itself.
 */
class NodeBuilder {
  private readonly parser: Parser;
  private pending: YamlEvent | undefined;
  private anchors = new Map<string, YamlNode>();

  constructor(text: string, dialect: YamlV2Dialect) {
    this.parser = new Parser(text, dialect);
  }

  /** `Unmarshal`'s `p.parse()`: the first document's root node, or undefined for an empty stream. */
  firstDocument(): YamlNode | undefined {
    this.expect(EventKind.StreamStart);
    const kind = this.peek();
    if (kind === EventKind.StreamEnd) return undefined;
    if (kind !== EventKind.DocumentStart) return this.node();
    this.anchors = new Map();
    this.expect(EventKind.DocumentStart);
    const root = this.node();
    this.expect(EventKind.DocumentEnd);
    return root;
  }

  private peek(): EventKind {
    this.pending ??= this.parser.next();
    return this.pending.kind;
  }

  private current(): YamlEvent {
    this.peek();
    return this.pending as YamlEvent;
  }

  private expect(kind: EventKind): void {
    const got = this.current();
    if (got.kind === EventKind.StreamEnd) throw new YamlDecodeError('attempted to go past the end of stream; corrupted value?');
    if (got.kind !== kind) throw new YamlDecodeError(`expected ${EVENT_NAMES[kind]} event but got ${EVENT_NAMES[got.kind]}`);
    this.pending = undefined;
  }

  /**
   * `p.parse()` for one node and everything inside it. Iterative, with the open collections on an
   * explicit stack, so that deeply nested input cannot exhaust the JavaScript stack (Go's stack
   * simply grows).
   */
  private node(): YamlNode {
    const open: Array<SequenceNode | MappingNode> = [];
    for (;;) {
      const parent = open[open.length - 1];
      // A collection may end before a sequence item or before a mapping key, not before a value.
      if (parent !== undefined && (parent.kind === 'sequence' || parent.children.length % 2 === 0)) {
        const end = parent.kind === 'sequence' ? EventKind.SequenceEnd : EventKind.MappingEnd;
        if (this.peek() === end) {
          this.expect(end);
          open.pop();
          if (open.length === 0) return parent;
          continue;
        }
      }
      const node = this.startNode();
      if (parent !== undefined) parent.children.push(node);
      if (node.kind === 'sequence' || node.kind === 'mapping') open.push(node);
      else if (parent === undefined) return node;
    }
  }

  /** Creates the node the current event starts and consumes that event. */
  private startNode(): YamlNode {
    const event = this.current();
    const line = event.start.line;
    const column = event.start.column;
    switch (event.kind) {
      case EventKind.Scalar: {
        const node: ScalarNode = { kind: 'scalar', line, column, value: event.value, tag: event.tag, implicit: event.implicit };
        this.register(event.anchor, node);
        this.expect(EventKind.Scalar);
        return node;
      }
      case EventKind.Alias: {
        const target = this.anchors.get(event.anchor);
        if (target === undefined) throw new YamlDecodeError(`unknown anchor '${event.anchor}' referenced`);
        this.expect(EventKind.Alias);
        return { kind: 'alias', line, column, name: event.anchor, target };
      }
      case EventKind.SequenceStart: {
        const node: SequenceNode = { kind: 'sequence', line, column, children: [] };
        this.register(event.anchor, node);
        this.expect(EventKind.SequenceStart);
        return node;
      }
      case EventKind.MappingStart: {
        const node: MappingNode = { kind: 'mapping', line, column, children: [] };
        this.register(event.anchor, node);
        this.expect(EventKind.MappingStart);
        return node;
      }
      default:
        throw new InternalError(`attempted to parse unknown event: ${EVENT_NAMES[event.kind]}`);
    }
  }

  private register(anchor: string, node: YamlNode): void {
    if (anchor.length > 0) this.anchors.set(anchor, node);
  }
}

/**
 * `base64.StdEncoding.DecodeString` (padding required, line breaks ignored), with the bytes read as
 * UTF-8 the way the later JSON encoding reads a Go string: each invalid byte becomes U+FFFD.
 */
function decodeBase64(text: string): string | undefined {
  const cleaned = text.replace(/[\r\n]/g, '');
  if (cleaned.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(cleaned)) return undefined;
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const bytes: number[] = [];
  let bits = 0;
  let count = 0;
  for (const ch of cleaned.replace(/=+$/, '')) {
    bits = ((bits << 6) | alphabet.indexOf(ch)) & 0xffffff;
    count += 6;
    if (count >= 8) {
      count -= 8;
      bytes.push((bits >> count) & 0xff);
    }
  }
  return decodeUtf8Lossy(bytes);
}

/** UTF-8 to a string, one U+FFFD per byte that does not start a valid sequence (Go's rule). */
function decodeUtf8Lossy(bytes: readonly number[]): string {
  let out = '';
  for (let i = 0; i < bytes.length; ) {
    const lead = bytes[i] ?? 0;
    const size = lead < 0x80 ? 1 : lead >= 0xc2 && lead < 0xe0 ? 2 : lead >= 0xe0 && lead < 0xf0 ? 3 : lead >= 0xf0 && lead < 0xf5 ? 4 : 0;
    let codePoint = size === 1 ? lead : size === 0 ? -1 : lead & (0xff >> (size + 1));
    for (let k = 1; k < size && codePoint >= 0; k += 1) {
      const next = bytes[i + k];
      codePoint = next !== undefined && (next & 0xc0) === 0x80 ? (codePoint << 6) | (next & 0x3f) : -1;
    }
    const minimum = size === 3 ? 0x800 : size === 4 ? 0x10000 : 0;
    if (codePoint < minimum || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) {
      out += '\ufffd';
      i += 1;
    } else {
      out += String.fromCodePoint(codePoint);
      i += size;
    }
  }
  return out;
}

/** No value delivered yet (`null` is a Go value: nil). */
const NOTHING: unique symbol = Symbol('nothing');
type Delivered = GoValue | typeof NOTHING;

/** Decoding in progress, kept on an explicit stack (see {@link GenericDecoder}). */
type DecodeFrame =
  | { readonly kind: 'alias'; readonly node: AliasNode }
  | { readonly kind: 'sequence'; readonly node: SequenceNode; readonly items: GoValue[]; next: number }
  | {
      readonly kind: 'mapping';
      readonly node: MappingNode;
      readonly out: GoMap;
      /** Index of the key node being decoded. */
      next: number;
      step: 'key' | 'value' | 'merge';
      key: GoValue;
    }
  | { readonly kind: 'merge-sequence'; readonly node: SequenceNode; readonly out: GoMap; next: number };

/**
 * yaml.v2's decoder for an `interface{}` target (decode.go's `decoder.unmarshal`): mappings become
 * `map[interface{}]interface{}` (a later duplicate key wins; `<<` merges mappings into the current
 * one, the merged-in entries overriding earlier keys), sequences `[]interface{}`, scalars their
 * resolved Go values; an alias decodes its anchor's node again. A sequence or mapping as a key fails
 * with `invalid map key: …`. The walk is iterative (an explicit stack), in yaml.v2's order, so that
 * its checks fail where yaml.v2's do.
 */
class GenericDecoder {
  private readonly activeAliases = new Set<AliasNode>();
  private readonly resolveOptions: ResolveOptions;
  /** Starts at 1: yaml.v2 also counts the document node above the root. */
  private decodeCount = 1;
  private aliasCount = 0;
  private aliasDepth = 0;
  private readonly stack: DecodeFrame[] = [];

  constructor(private readonly dialect: YamlV2Dialect) {
    this.resolveOptions = { timestamps: dialect.resolvesTimestamps, numberPrefixes: dialect.goNumberPrefixes };
  }

  decode(root: YamlNode): GoValue {
    const stack = this.stack;
    let delivered: Delivered = this.begin(root, undefined);
    for (;;) {
      const frame = stack[stack.length - 1];
      if (frame === undefined) return delivered === NOTHING ? null : delivered;
      switch (frame.kind) {
        case 'alias':
          // The anchored node has been decoded: its value is the alias's.
          stack.pop();
          this.aliasDepth -= 1;
          this.activeAliases.delete(frame.node);
          break;
        case 'sequence': {
          if (delivered !== NOTHING) frame.items.push(delivered);
          const child = frame.node.children[frame.next];
          if (child !== undefined) {
            frame.next += 1;
            delivered = this.begin(child, undefined);
          } else {
            stack.pop();
            delivered = frame.items;
          }
          break;
        }
        case 'mapping':
          delivered = this.stepMapping(frame, delivered);
          break;
        case 'merge-sequence': {
          // Later mappings first, so that earlier ones win.
          const item = frame.node.children[frame.next];
          if (item === undefined) {
            stack.pop();
            delivered = frame.out;
          } else {
            frame.next -= 1;
            if (item.kind === 'alias' ? item.target.kind !== 'mapping' : item.kind !== 'mapping') throw mergeNeedsMappings();
            delivered = this.begin(item, frame.out);
          }
          break;
        }
      }
    }
  }

  /** Advances a mapping by one step; returns what to deliver to the frame on top afterwards. */
  private stepMapping(frame: Extract<DecodeFrame, { kind: 'mapping' }>, delivered: Delivered): Delivered {
    const children = frame.node.children;
    if (delivered !== NOTHING) {
      if (frame.step === 'key') {
        if (Array.isArray(delivered) || isGoMap(delivered)) throw new YamlDecodeError(`invalid map key: ${goSyntax(delivered)}`);
        frame.key = delivered;
        frame.step = 'value';
        return this.begin(children[frame.next + 1] as YamlNode, undefined);
      }
      if (frame.step === 'value') frame.out.entries.set(goMapKeyIdentity(frame.key), { key: frame.key, value: delivered });
      frame.next += 2;
    }
    const keyNode = children[frame.next];
    if (keyNode === undefined || frame.next + 1 >= children.length) {
      this.stack.pop();
      return frame.out;
    }
    if (keyNode.kind === 'scalar' && keyNode.value === '<<' && (keyNode.implicit || keyNode.tag === MERGE_TAG)) {
      frame.step = 'merge';
      return this.beginMerge(children[frame.next + 1] as YamlNode, frame.out);
    }
    frame.step = 'key';
    return this.begin(keyNode, undefined);
  }

  /**
   * `d.unmarshal(n, out)` up to the point where the node's own work starts: counts the node (and
   * applies v2.2.4's alias-expansion limit), then decodes a scalar at once or opens a frame.
   * `into`: the mapping a merged-in mapping writes to.
   */
  private begin(node: YamlNode, into: GoMap | undefined): Delivered {
    this.decodeCount += 1;
    if (this.aliasDepth > 0) this.aliasCount += 1;
    if (this.dialect.limitsAliasExpansion && excessiveAliasing(this.decodeCount, this.aliasCount)) {
      throw new YamlDecodeError('document contains excessive aliasing');
    }
    switch (node.kind) {
      case 'alias':
        if (this.activeAliases.has(node)) throw new YamlDecodeError(`anchor '${node.name}' value contains itself`);
        this.activeAliases.add(node);
        this.aliasDepth += 1;
        this.stack.push({ kind: 'alias', node });
        // An anchor is never on an alias, so this does not recurse further.
        return this.begin(node.target, into);
      case 'scalar':
        return this.scalar(node);
      case 'sequence':
        this.stack.push({ kind: 'sequence', node, items: [], next: 0 });
        return NOTHING;
      case 'mapping':
        this.stack.push({ kind: 'mapping', node, out: into ?? { kind: 'map', entries: new Map() }, next: 0, step: 'key', key: null });
        return NOTHING;
    }
  }

  /** `<<: *anchor`, `<<: {…}` or `<<: [*a, *b]`: the mappings' entries are set into `out`. */
  private beginMerge(node: YamlNode, out: GoMap): Delivered {
    switch (node.kind) {
      case 'mapping':
        return this.begin(node, out);
      case 'alias':
        if (node.target.kind !== 'mapping') throw mergeNeedsMappings();
        return this.begin(node, out);
      case 'sequence':
        this.stack.push({ kind: 'merge-sequence', node, out, next: node.children.length - 1 });
        return NOTHING;
      default:
        throw mergeNeedsMappings();
    }
  }

  private scalar(node: ScalarNode): GoValue {
    if (node.tag === '' && !node.implicit) return node.value;
    const resolved = resolveScalar(node.tag, node.value, this.resolveOptions);
    if (resolved.tag === BINARY_TAG) {
      const decoded = decodeBase64(typeof resolved.value === 'string' ? resolved.value : '');
      if (decoded === undefined) throw new YamlDecodeError('!!binary value contains invalid base64 data');
      return decoded;
    }
    if (resolved.isTimestamp === true) return node.value;
    return resolved.value;
  }
}

function mergeNeedsMappings(): YamlDecodeError {
  return new YamlDecodeError('map merge requires map or sequence of maps as the value');
}

/**
 * `yaml.Unmarshal(manifest, &obj)` with `obj interface{}`: the Go value of the first document
 * (undefined when there is none). Throws {@link YamlSyntaxError}, {@link YamlDecodeError} or
 * {@link GoPanicError} exactly where yaml.v2 would stop.
 */
export function unmarshalFirstDocument(text: string, dialect: YamlV2Dialect): { readonly value: GoValue } | undefined {
  // yaml.v2 parses an empty input as a single line break.
  const root = new NodeBuilder(text.length === 0 ? '\n' : text, dialect).firstDocument();
  if (root === undefined) return undefined;
  return { value: new GenericDecoder(dialect).decode(root) };
}
