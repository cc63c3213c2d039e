/**
 * The Corefile model: read, write and compare CoreDNS Corefiles without losing comments, nesting
 * or meaning. Stages in data-flow order: `lexCorefile` → `parseCorefile` → model → `printCorefile`;
 * `parseServerKey` explains a server block key. Pure: no Node APIs.
 */
export { lexCorefile } from './lexer.js';
export type { Lexeme, WordLexeme, CommentLexeme, LexResult, LexOptions } from './lexer.js';

export { parseCorefile } from './parser.js';
export type { ParseOptions, ParseResult } from './parser.js';

export { printCorefile, classifyToken, formatToken } from './printer.js';
export type { TokenForm } from './printer.js';

export { formatCorefile } from './format.js';
export type { FormatResult } from './format.js';

export { comparableCorefile, corefilesEqual } from './compare.js';

export { serverBlocks } from './model.js';
export type {
  AfterBlock,
  Block,
  Comment,
  Corefile,
  CorefileItem,
  Directive,
  DirectiveList,
  ImportStatement,
  ServerBlock,
  SnippetDefinition,
  TopLevelTrivia,
} from './model.js';

export { parseServerKey, zoneAddressKeys } from './server-key.js';
export type { ServerAddress, ServerTransport, ParseServerKeyOptions } from './server-key.js';

export { expandSnippets, MAX_EXPANDED_DIRECTIVES, MAX_SNIPPET_EXPANSIONS } from './expand.js';
export type { ExpandedDirective, ExpandedServerBlock, ExpansionLimit, SnippetExpansion, UnexpandedImport } from './expand.js';

export { CorefileError, CorefileExpansionError, CorefileSyntaxError, CorefilePrintError, ServerKeyError } from './errors.js';
export type {
  CorefileErrorCode,
  CorefileExpansionErrorCode,
  CorefileSyntaxErrorCode,
  CorefilePrintErrorCode,
  ServerKeyErrorCode,
  CorefileWarning,
  CorefileWarningCode,
} from './errors.js';

// The base class of every error (see the main entry).
export { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';
export type { ErrorCategory, ErrorLocation, KubeDnsToCoreDnsErrorOptions } from '../errors/kube-dns-to-coredns-error.js';
export type { SourcePosition } from '../util/source-position.js';
