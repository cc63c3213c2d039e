import { InternalError } from '../../errors/internal-error.js';
import type { YamlV2Dialect } from './dialect.js';
import { YamlSyntaxError } from './errors.js';
import type { Mark } from './errors.js';
import { Scanner } from './scanner.js';
import { ScalarStyle, TokenKind } from './tokens.js';
import type { Token } from './tokens.js';

/** libyaml's event types, in its order (the names appear in yaml.v2's "expected … event" text). */
export const EventKind = {
  None: 0,
  StreamStart: 1,
  StreamEnd: 2,
  DocumentStart: 3,
  DocumentEnd: 4,
  Alias: 5,
  Scalar: 6,
  SequenceStart: 7,
  SequenceEnd: 8,
  MappingStart: 9,
  MappingEnd: 10,
} as const;
export type EventKind = (typeof EventKind)[keyof typeof EventKind];

/** yaml.v2's `yaml_event_type_t.String()`. */
export const EVENT_NAMES: Readonly<Record<EventKind, string>> = {
  [EventKind.None]: 'none',
  [EventKind.StreamStart]: 'stream start',
  [EventKind.StreamEnd]: 'stream end',
  [EventKind.DocumentStart]: 'document start',
  [EventKind.DocumentEnd]: 'document end',
  [EventKind.Alias]: 'alias',
  [EventKind.Scalar]: 'scalar',
  [EventKind.SequenceStart]: 'sequence start',
  [EventKind.SequenceEnd]: 'sequence end',
  [EventKind.MappingStart]: 'mapping start',
  [EventKind.MappingEnd]: 'mapping end',
};

export interface YamlEvent {
  readonly kind: EventKind;
  readonly start: Mark;
  readonly end: Mark;
  /** ALIAS: the anchor referenced; nodes: their anchor ('' for none). */
  readonly anchor: string;
  /** The resolved tag ('' when the node has none). */
  readonly tag: string;
  readonly value: string;
  /** SCALAR: plain and untagged (or tagged `!`), i.e. subject to implicit typing. */
  readonly implicit: boolean;
  readonly style: ScalarStyle;
}

/** The parser states of libyaml (`yaml_parser_state_t`). */
const State = {
  StreamStart: 0,
  ImplicitDocumentStart: 1,
  DocumentStart: 2,
  DocumentContent: 3,
  DocumentEnd: 4,
  BlockNode: 5,
  BlockNodeOrIndentlessSequence: 6,
  FlowNode: 7,
  BlockSequenceFirstEntry: 8,
  BlockSequenceEntry: 9,
  IndentlessSequenceEntry: 10,
  BlockMappingFirstKey: 11,
  BlockMappingKey: 12,
  BlockMappingValue: 13,
  FlowSequenceFirstEntry: 14,
  FlowSequenceEntry: 15,
  FlowSequenceEntryMappingKey: 16,
  FlowSequenceEntryMappingValue: 17,
  FlowSequenceEntryMappingEnd: 18,
  FlowMappingFirstKey: 19,
  FlowMappingKey: 20,
  FlowMappingValue: 21,
  FlowMappingEmptyValue: 22,
  End: 23,
} as const;
type State = (typeof State)[keyof typeof State];

interface TagDirective {
  readonly handle: string;
  readonly prefix: string;
}

const DEFAULT_TAG_DIRECTIVES: readonly TagDirective[] = [
  { handle: '!', prefix: '!' },
  { handle: '!!', prefix: 'tag:yaml.org,2002:' },
];

function event(kind: EventKind, start: Mark, end: Mark, extra: Partial<YamlEvent> = {}): YamlEvent {
  return { kind, start, end, anchor: '', tag: '', value: '', implicit: false, style: ScalarStyle.Plain, ...extra };
}

/**
 * gopkg.in/yaml.v2's parser (`parserc.go`, libyaml's LL(1) state machine): produces one event per
 * call, pulling tokens from the {@link Scanner} only as far as it needs. Errors are libyaml's
 * (`did not find expected key`, `did not find expected node content`, …) with the problem mark at
 * the offending token's start.
 */
export class Parser {
  private readonly scanner: Scanner;
  private state: State = State.StreamStart;
  private readonly states: State[] = [];
  private readonly marks: Mark[] = [];
  private tagDirectives: TagDirective[] = [];

  constructor(text: string, dialect: YamlV2Dialect) {
    this.scanner = new Scanner(text, dialect);
  }

  /** `yaml_parser_parse`: the next event; NONE after the end of the stream. */
  next(): YamlEvent {
    if (this.scanner.streamEnded || this.state === State.End) return event(EventKind.None, START_OF_NOTHING, START_OF_NOTHING);
    switch (this.state) {
      case State.StreamStart:
        return this.parseStreamStart();
      case State.ImplicitDocumentStart:
        return this.parseDocumentStart(true);
      case State.DocumentStart:
        return this.parseDocumentStart(false);
      case State.DocumentContent:
        return this.parseDocumentContent();
      case State.DocumentEnd:
        return this.parseDocumentEnd();
      case State.BlockNode:
        return this.parseNode(true, false);
      case State.BlockNodeOrIndentlessSequence:
        return this.parseNode(true, true);
      case State.FlowNode:
        return this.parseNode(false, false);
      case State.BlockSequenceFirstEntry:
        return this.parseBlockSequenceEntry(true);
      case State.BlockSequenceEntry:
        return this.parseBlockSequenceEntry(false);
      case State.IndentlessSequenceEntry:
        return this.parseIndentlessSequenceEntry();
      case State.BlockMappingFirstKey:
        return this.parseBlockMappingKey(true);
      case State.BlockMappingKey:
        return this.parseBlockMappingKey(false);
      case State.BlockMappingValue:
        return this.parseBlockMappingValue();
      case State.FlowSequenceFirstEntry:
        return this.parseFlowSequenceEntry(true);
      case State.FlowSequenceEntry:
        return this.parseFlowSequenceEntry(false);
      case State.FlowSequenceEntryMappingKey:
        return this.parseFlowSequenceEntryMappingKey();
      case State.FlowSequenceEntryMappingValue:
        return this.parseFlowSequenceEntryMappingValue();
      case State.FlowSequenceEntryMappingEnd:
        return this.parseFlowSequenceEntryMappingEnd();
      case State.FlowMappingFirstKey:
        return this.parseFlowMappingKey(true);
      case State.FlowMappingKey:
        return this.parseFlowMappingKey(false);
      case State.FlowMappingValue:
        return this.parseFlowMappingValue(false);
      case State.FlowMappingEmptyValue:
        return this.parseFlowMappingValue(true);
      default:
        throw new InternalError('invalid parser state');
    }
  }

  private peek(): Token {
    return this.scanner.peekToken();
  }

  private skip(): void {
    this.scanner.skipToken();
  }

  private popState(): void {
    this.state = this.states.pop() as State;
  }

  private popMark(): Mark {
    return this.marks.pop() as Mark;
  }

  private error(problem: string, problemMark: Mark): YamlSyntaxError {
    return new YamlSyntaxError('parser', problem, problemMark);
  }

  private errorWithContext(context: string, contextMark: Mark, problem: string, problemMark: Mark): YamlSyntaxError {
    return new YamlSyntaxError('parser', problem, problemMark, context, contextMark);
  }

  private emptyScalar(mark: Mark): YamlEvent {
    return event(EventKind.Scalar, mark, mark, { implicit: true });
  }

  private parseStreamStart(): YamlEvent {
    const token = this.peek();
    if (token.kind !== TokenKind.StreamStart) throw this.error('did not find expected <stream-start>', token.start);
    this.state = State.ImplicitDocumentStart;
    this.skip();
    return event(EventKind.StreamStart, token.start, token.end);
  }

  private parseDocumentStart(implicit: boolean): YamlEvent {
    let token = this.peek();
    if (!implicit) {
      while (token.kind === TokenKind.DocumentEnd) {
        this.skip();
        token = this.peek();
      }
    }
    if (
      implicit &&
      token.kind !== TokenKind.VersionDirective &&
      token.kind !== TokenKind.TagDirective &&
      token.kind !== TokenKind.DocumentStart &&
      token.kind !== TokenKind.StreamEnd
    ) {
      this.processDirectives();
      this.states.push(State.DocumentEnd);
      this.state = State.BlockNode;
      return event(EventKind.DocumentStart, token.start, token.end);
    }
    if (token.kind !== TokenKind.StreamEnd) {
      const start = token.start;
      this.processDirectives();
      token = this.peek();
      if (token.kind !== TokenKind.DocumentStart) throw this.error('did not find expected <document start>', token.start);
      this.states.push(State.DocumentEnd);
      this.state = State.DocumentContent;
      const end = token.end;
      this.skip();
      return event(EventKind.DocumentStart, start, end);
    }
    this.state = State.End;
    this.skip();
    return event(EventKind.StreamEnd, token.start, token.end);
  }

  private parseDocumentContent(): YamlEvent {
    const token = this.peek();
    if (
      token.kind === TokenKind.VersionDirective ||
      token.kind === TokenKind.TagDirective ||
      token.kind === TokenKind.DocumentStart ||
      token.kind === TokenKind.DocumentEnd ||
      token.kind === TokenKind.StreamEnd
    ) {
      this.popState();
      return this.emptyScalar(token.start);
    }
    return this.parseNode(true, false);
  }

  private parseDocumentEnd(): YamlEvent {
    const token = this.peek();
    const start = token.start;
    let end = token.start;
    if (token.kind === TokenKind.DocumentEnd) {
      end = token.end;
      this.skip();
    }
    this.tagDirectives = [];
    this.state = State.DocumentStart;
    return event(EventKind.DocumentEnd, start, end);
  }

  private parseNode(block: boolean, indentlessSequence: boolean): YamlEvent {
    let token = this.peek();
    if (token.kind === TokenKind.Alias) {
      this.popState();
      this.skip();
      return event(EventKind.Alias, token.start, token.end, { anchor: token.value });
    }

    let start = token.start;
    let end = token.start;
    let tagToken: Token | undefined;
    let anchor = '';
    let tagMark = token.start;
    if (token.kind === TokenKind.Anchor) {
      anchor = token.value;
      start = token.start;
      end = token.end;
      this.skip();
      token = this.peek();
      if (token.kind === TokenKind.Tag) {
        tagToken = token;
        tagMark = token.start;
        end = token.end;
        this.skip();
        token = this.peek();
      }
    } else if (token.kind === TokenKind.Tag) {
      tagToken = token;
      start = token.start;
      tagMark = token.start;
      end = token.end;
      this.skip();
      token = this.peek();
      if (token.kind === TokenKind.Anchor) {
        anchor = token.value;
        end = token.end;
        this.skip();
        token = this.peek();
      }
    }

    let tag = '';
    if (tagToken !== undefined) {
      if (tagToken.value.length === 0) {
        tag = tagToken.suffix;
      } else {
        const directive = this.tagDirectives.find((candidate) => candidate.handle === tagToken.value);
        if (directive !== undefined) tag = directive.prefix + tagToken.suffix;
        if (tag.length === 0) {
          throw this.errorWithContext('while parsing a node', start, 'found undefined tag handle', tagMark);
        }
      }
    }

    const implicit = tag.length === 0;
    if (indentlessSequence && token.kind === TokenKind.BlockEntry) {
      this.state = State.IndentlessSequenceEntry;
      return event(EventKind.SequenceStart, start, token.end, { anchor, tag, implicit });
    }
    if (token.kind === TokenKind.Scalar) {
      const plainImplicit = (tag.length === 0 && token.style === ScalarStyle.Plain) || tag === '!';
      this.popState();
      this.skip();
      return event(EventKind.Scalar, start, token.end, {
        anchor,
        tag,
        value: token.value,
        implicit: plainImplicit,
        style: token.style,
      });
    }
    if (token.kind === TokenKind.FlowSequenceStart) {
      this.state = State.FlowSequenceFirstEntry;
      return event(EventKind.SequenceStart, start, token.end, { anchor, tag, implicit });
    }
    if (token.kind === TokenKind.FlowMappingStart) {
      this.state = State.FlowMappingFirstKey;
      return event(EventKind.MappingStart, start, token.end, { anchor, tag, implicit });
    }
    if (block && token.kind === TokenKind.BlockSequenceStart) {
      this.state = State.BlockSequenceFirstEntry;
      return event(EventKind.SequenceStart, start, token.end, { anchor, tag, implicit });
    }
    if (block && token.kind === TokenKind.BlockMappingStart) {
      this.state = State.BlockMappingFirstKey;
      return event(EventKind.MappingStart, start, token.end, { anchor, tag, implicit });
    }
    if (anchor.length > 0 || tag.length > 0) {
      this.popState();
      return event(EventKind.Scalar, start, end, { anchor, tag, implicit });
    }
    const context = block ? 'while parsing a block node' : 'while parsing a flow node';
    throw this.errorWithContext(context, start, 'did not find expected node content', token.start);
  }

  private parseBlockSequenceEntry(first: boolean): YamlEvent {
    if (first) {
      this.marks.push(this.peek().start);
      this.skip();
    }
    let token = this.peek();
    if (token.kind === TokenKind.BlockEntry) {
      const mark = token.end;
      this.skip();
      token = this.peek();
      if (token.kind !== TokenKind.BlockEntry && token.kind !== TokenKind.BlockEnd) {
        this.states.push(State.BlockSequenceEntry);
        return this.parseNode(true, false);
      }
      this.state = State.BlockSequenceEntry;
      return this.emptyScalar(mark);
    }
    if (token.kind === TokenKind.BlockEnd) {
      this.popState();
      this.popMark();
      this.skip();
      return event(EventKind.SequenceEnd, token.start, token.end);
    }
    throw this.errorWithContext('while parsing a block collection', this.popMark(), "did not find expected '-' indicator", token.start);
  }

  private parseIndentlessSequenceEntry(): YamlEvent {
    let token = this.peek();
    if (token.kind === TokenKind.BlockEntry) {
      const mark = token.end;
      this.skip();
      token = this.peek();
      if (
        token.kind !== TokenKind.BlockEntry &&
        token.kind !== TokenKind.Key &&
        token.kind !== TokenKind.Value &&
        token.kind !== TokenKind.BlockEnd
      ) {
        this.states.push(State.IndentlessSequenceEntry);
        return this.parseNode(true, false);
      }
      this.state = State.IndentlessSequenceEntry;
      return this.emptyScalar(mark);
    }
    this.popState();
    return event(EventKind.SequenceEnd, token.start, token.start);
  }

  private parseBlockMappingKey(first: boolean): YamlEvent {
    if (first) {
      this.marks.push(this.peek().start);
      this.skip();
    }
    let token = this.peek();
    if (token.kind === TokenKind.Key) {
      const mark = token.end;
      this.skip();
      token = this.peek();
      if (token.kind !== TokenKind.Key && token.kind !== TokenKind.Value && token.kind !== TokenKind.BlockEnd) {
        this.states.push(State.BlockMappingValue);
        return this.parseNode(true, true);
      }
      this.state = State.BlockMappingValue;
      return this.emptyScalar(mark);
    }
    if (token.kind === TokenKind.BlockEnd) {
      this.popState();
      this.popMark();
      this.skip();
      return event(EventKind.MappingEnd, token.start, token.end);
    }
    throw this.errorWithContext('while parsing a block mapping', this.popMark(), 'did not find expected key', token.start);
  }

  private parseBlockMappingValue(): YamlEvent {
    let token = this.peek();
    if (token.kind === TokenKind.Value) {
      const mark = token.end;
      this.skip();
      token = this.peek();
      if (token.kind !== TokenKind.Key && token.kind !== TokenKind.Value && token.kind !== TokenKind.BlockEnd) {
        this.states.push(State.BlockMappingKey);
        return this.parseNode(true, true);
      }
      this.state = State.BlockMappingKey;
      return this.emptyScalar(mark);
    }
    this.state = State.BlockMappingKey;
    return this.emptyScalar(token.start);
  }

  private parseFlowSequenceEntry(first: boolean): YamlEvent {
    if (first) {
      this.marks.push(this.peek().start);
      this.skip();
    }
    let token = this.peek();
    if (token.kind !== TokenKind.FlowSequenceEnd) {
      if (!first) {
        if (token.kind === TokenKind.FlowEntry) {
          this.skip();
          token = this.peek();
        } else {
          throw this.errorWithContext('while parsing a flow sequence', this.popMark(), "did not find expected ',' or ']'", token.start);
        }
      }
      if (token.kind === TokenKind.Key) {
        this.state = State.FlowSequenceEntryMappingKey;
        this.skip();
        return event(EventKind.MappingStart, token.start, token.end, { implicit: true });
      }
      if (token.kind !== TokenKind.FlowSequenceEnd) {
        this.states.push(State.FlowSequenceEntry);
        return this.parseNode(false, false);
      }
    }
    this.popState();
    this.popMark();
    this.skip();
    return event(EventKind.SequenceEnd, token.start, token.end);
  }

  private parseFlowSequenceEntryMappingKey(): YamlEvent {
    const token = this.peek();
    if (token.kind !== TokenKind.Value && token.kind !== TokenKind.FlowEntry && token.kind !== TokenKind.FlowSequenceEnd) {
      this.states.push(State.FlowSequenceEntryMappingValue);
      return this.parseNode(false, false);
    }
    const mark = token.end;
    this.skip();
    this.state = State.FlowSequenceEntryMappingValue;
    return this.emptyScalar(mark);
  }

  private parseFlowSequenceEntryMappingValue(): YamlEvent {
    let token = this.peek();
    if (token.kind === TokenKind.Value) {
      this.skip();
      token = this.peek();
      if (token.kind !== TokenKind.FlowEntry && token.kind !== TokenKind.FlowSequenceEnd) {
        this.states.push(State.FlowSequenceEntryMappingEnd);
        return this.parseNode(false, false);
      }
    }
    this.state = State.FlowSequenceEntryMappingEnd;
    return this.emptyScalar(token.start);
  }

  private parseFlowSequenceEntryMappingEnd(): YamlEvent {
    const token = this.peek();
    this.state = State.FlowSequenceEntry;
    return event(EventKind.MappingEnd, token.start, token.start);
  }

  private parseFlowMappingKey(first: boolean): YamlEvent {
    if (first) {
      this.marks.push(this.peek().start);
      this.skip();
    }
    let token = this.peek();
    if (token.kind !== TokenKind.FlowMappingEnd) {
      if (!first) {
        if (token.kind === TokenKind.FlowEntry) {
          this.skip();
          token = this.peek();
        } else {
          throw this.errorWithContext('while parsing a flow mapping', this.popMark(), "did not find expected ',' or '}'", token.start);
        }
      }
      if (token.kind === TokenKind.Key) {
        this.skip();
        token = this.peek();
        if (token.kind !== TokenKind.Value && token.kind !== TokenKind.FlowEntry && token.kind !== TokenKind.FlowMappingEnd) {
          this.states.push(State.FlowMappingValue);
          return this.parseNode(false, false);
        }
        this.state = State.FlowMappingValue;
        return this.emptyScalar(token.start);
      }
      if (token.kind !== TokenKind.FlowMappingEnd) {
        this.states.push(State.FlowMappingEmptyValue);
        return this.parseNode(false, false);
      }
    }
    this.popState();
    this.popMark();
    this.skip();
    return event(EventKind.MappingEnd, token.start, token.end);
  }

  private parseFlowMappingValue(empty: boolean): YamlEvent {
    let token = this.peek();
    if (empty) {
      this.state = State.FlowMappingKey;
      return this.emptyScalar(token.start);
    }
    if (token.kind === TokenKind.Value) {
      this.skip();
      token = this.peek();
      if (token.kind !== TokenKind.FlowEntry && token.kind !== TokenKind.FlowMappingEnd) {
        this.states.push(State.FlowMappingKey);
        return this.parseNode(false, false);
      }
    }
    this.state = State.FlowMappingKey;
    return this.emptyScalar(token.start);
  }

  /** `%YAML` / `%TAG` directives before a document, then the default tag handles. */
  private processDirectives(): void {
    let versionSeen = false;
    let token = this.peek();
    while (token.kind === TokenKind.VersionDirective || token.kind === TokenKind.TagDirective) {
      if (token.kind === TokenKind.VersionDirective) {
        if (versionSeen) throw this.error('found duplicate %YAML directive', token.start);
        if (token.major !== 1 || token.minor !== 1) throw this.error('found incompatible YAML document', token.start);
        versionSeen = true;
      } else {
        this.appendTagDirective({ handle: token.value, prefix: token.suffix }, false, token.start);
      }
      this.skip();
      token = this.peek();
    }
    for (const directive of DEFAULT_TAG_DIRECTIVES) this.appendTagDirective(directive, true, token.start);
  }

  private appendTagDirective(directive: TagDirective, allowDuplicates: boolean, mark: Mark): void {
    if (this.tagDirectives.some((existing) => existing.handle === directive.handle)) {
      if (allowDuplicates) return;
      throw this.error('found duplicate %TAG directive', mark);
    }
    this.tagDirectives.push(directive);
  }
}

const START_OF_NOTHING: Mark = { index: 0, line: 0, column: 0 };
