import { KubeDnsToCoreDnsError, locatedMessage } from '../errors/kube-dns-to-coredns-error.js';
import { formatAt } from '../util/source-position.js';
import type { SourcePosition } from '../util/source-position.js';

/**
 * Errors and warnings of the Corefile model. Every problem carries a closed-union `code` (stable,
 * for programs), a `reason` (the bare sentence, worded like CoreDNS's own messages where CoreDNS
 * has one) and, when it comes from source text, a 1-based `position`.
 */

/** Reasons {@link parseCorefile} refuses a text. */
export type CorefileSyntaxErrorCode =
  /** A `}` on a directive's line at the top level of a server block (CoreDNS: same message). */
  | 'unexpected-closing-brace'
  /** A snippet definition without `{` (CoreDNS: `Syntax error: Unexpected token …, expecting '{'`). */
  | 'expected-opening-brace'
  /** End of input inside a server block or snippet whose last token is not `}`. */
  | 'expected-closing-brace'
  /** End of input inside a nested block, or after a trailing comma in the key list. */
  | 'unexpected-eof'
  /** A key list ending in `,` followed by `{`. */
  | 'extra-comma'
  /** `{` where a directive name belongs, or a name not in `knownDirectives`. */
  | 'unknown-directive'
  /** `import` without an argument, with more than one, or with an empty one. */
  | 'invalid-import'
  /** The same snippet name defined twice. */
  | 'snippet-redeclared'
  /** A snippet that imports itself (rejected by CoreDNS ≥ 1.13). */
  | 'snippet-self-import'
  /**
   * Accepted by CoreDNS's parser, but not representable in this model without expanding imports
   * or changing what plugins read; see the message (documented deviations).
   */
  | 'unsupported-construct'
  /** The text holds a lone UTF-16 surrogate, which no UTF-8 file can contain. */
  | 'invalid-text';

/** Reasons {@link printCorefile} refuses a model. */
export type CorefilePrintErrorCode =
  /** A token no quoting can reproduce (odd backslash run before a `"` or the end, lone surrogate). */
  | 'unrepresentable-token'
  /** A token that is exactly `{` or `}`: CoreDNS always reads it as a brace, quoted or not. */
  | 'brace-token'
  /** A server key that cannot be written where it stands (empty, trailing `,`, first-key `import`, lone `(name)`). */
  | 'unrepresentable-key'
  /** A comment containing a line break or a lone surrogate. */
  | 'unrepresentable-comment'
  /** A combination the parser can never produce (e.g. a layout flag that contradicts the content). */
  | 'invalid-model'
  /** The text would be longer than 2^27 characters, the most the printer writes (deep nesting indents a lot). */
  | 'output-too-large';

/** Reasons {@link parseServerKey} refuses a key, with CoreDNS's own wording. */
export type ServerKeyErrorCode =
  | 'missing-port'
  | 'zone-too-long'
  | 'invalid-domain-name'
  | 'invalid-cidr';

/** Reasons {@link expandSnippetsOrThrow} refuses a model. */
export type CorefileExpansionErrorCode =
  /** Snippet imports past the expansion bounds (docs/corefile-model.md, "Snippet expansion"). */
  'expansion-limit';

export type CorefileErrorCode = CorefileSyntaxErrorCode | CorefilePrintErrorCode | ServerKeyErrorCode | CorefileExpansionErrorCode;

/** Base class of every error of the Corefile model: the text or model given is unusable (`input`). */
export class CorefileError extends KubeDnsToCoreDnsError {
  override readonly name: string = 'CorefileError';
  readonly category = 'input';
  declare readonly code: CorefileErrorCode;

  constructor(code: CorefileErrorCode, reason: string, message: string, position?: SourcePosition, filename?: string) {
    super(code, reason, { message, position, filename });
  }
}

/** The text is not a Corefile CoreDNS would read. `message` is `FILE:LINE:COL: reason`. */
export class CorefileSyntaxError extends CorefileError {
  override readonly name = 'CorefileSyntaxError';
  declare readonly code: CorefileSyntaxErrorCode;
  declare readonly position: SourcePosition;
  declare readonly filename: string;

  constructor(code: CorefileSyntaxErrorCode, reason: string, position: SourcePosition, filename: string) {
    super(code, reason, formatAt(filename, position, reason), position, filename);
  }
}

/**
 * The model cannot be printed as a Corefile that reads back as itself. `path` names the node
 * (`server block 2 > directive 'forward' > argument 3`); `position` is the node's source position
 * when the model came from the parser.
 */
export class CorefilePrintError extends CorefileError {
  override readonly name = 'CorefilePrintError';
  declare readonly code: CorefilePrintErrorCode;
  readonly path: string;

  constructor(code: CorefilePrintErrorCode, reason: string, path: string, position?: SourcePosition) {
    const where = position === undefined ? path : `${path} (line ${position.line}, column ${position.column})`;
    super(code, reason, `cannot print ${where}: ${reason}`, position);
    this.path = path;
  }
}

/**
 * Snippet imports stand for more than the package follows (more than 10,000 imports, which newer
 * CoreDNS releases refuse too, or more than 200,000 directives brought in). `position` is the
 * import that went past the bound.
 */
export class CorefileExpansionError extends CorefileError {
  override readonly name = 'CorefileExpansionError';
  declare readonly code: CorefileExpansionErrorCode;

  constructor(reason: string, position?: SourcePosition, filename?: string) {
    super('expansion-limit', reason, locatedMessage(reason, { position, filename }), position, filename);
  }
}

/** CoreDNS would refuse to start with this server key. `message` is CoreDNS's own sentence. */
export class ServerKeyError extends CorefileError {
  override readonly name = 'ServerKeyError';
  declare readonly code: ServerKeyErrorCode;
  readonly key: string;

  constructor(code: ServerKeyErrorCode, reason: string, key: string) {
    super(code, reason, reason);
    this.key = key;
  }
}

/** Things CoreDNS accepts but that rarely mean what their author intended. */
export type CorefileWarningCode =
  /** A quote was never closed; the token ran to the end of the input. */
  | 'unterminated-quote'
  /** A `\r` not followed by `\n` outside quotes: CoreDNS deletes it (`ab\rcd` reads `abcd`). */
  | 'carriage-return'
  /** `#` in the middle of a word cut the word and hid text up to the next space. */
  | 'comment-inside-word'
  /** `"{"` or `"}"`: quoting does not stop a brace from being a brace. */
  | 'quoted-brace'
  /** A nested block's `{` starts its own line; plugins expect it on the directive's line. */
  | 'brace-on-own-line'
  /** A nested block's `}` shares a line with other tokens, so plugins read it as an argument. */
  | 'closing-brace-after-tokens'
  /** Tokens follow a nested block's `}` on its line; plugins read them as a new occurrence. */
  | 'tokens-after-closing-brace'
  /** The server block's final `}` is missing; a nested block's `}` took its place. */
  | 'missing-closing-brace'
  /** A server block without braces: every following line belongs to it. */
  | 'block-without-braces'
  /** A `}` at the top level became a server key named `}`. */
  | 'closing-brace-as-key'
  /** An empty key (`""`) is dropped; a lone `,` yields an empty key CoreDNS then rejects. */
  | 'empty-key'
  /** A block whose keys are all empty: CoreDNS ignores the whole block. */
  | 'block-without-keys'
  /** A comma inside a key (`a.org,b.org`) does not separate keys; only a trailing comma does. */
  | 'comma-inside-key';

export interface CorefileWarning {
  readonly code: CorefileWarningCode;
  readonly reason: string;
  readonly position: SourcePosition;
  /** `FILE:LINE:COL: warning: reason`. */
  readonly message: string;
}

export function makeWarning(code: CorefileWarningCode, reason: string, position: SourcePosition, filename: string): CorefileWarning {
  return { code, reason, position, message: formatAt(filename, position, `warning: ${reason}`) };
}
