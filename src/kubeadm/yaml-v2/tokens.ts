import type { Mark } from './errors.js';

/** libyaml's token types (`yaml_token_type_t`), in its order. */
export const TokenKind = {
  StreamStart: 0,
  StreamEnd: 1,
  VersionDirective: 2,
  TagDirective: 3,
  DocumentStart: 4,
  DocumentEnd: 5,
  BlockSequenceStart: 6,
  BlockMappingStart: 7,
  BlockEnd: 8,
  FlowSequenceStart: 9,
  FlowSequenceEnd: 10,
  FlowMappingStart: 11,
  FlowMappingEnd: 12,
  BlockEntry: 13,
  FlowEntry: 14,
  Key: 15,
  Value: 16,
  Alias: 17,
  Anchor: 18,
  Tag: 19,
  Scalar: 20,
} as const;
export type TokenKind = (typeof TokenKind)[keyof typeof TokenKind];

/** The presentation style of a scalar; only plain vs. the rest matters to the resolver. */
export const ScalarStyle = {
  Plain: 0,
  SingleQuoted: 1,
  DoubleQuoted: 2,
  Literal: 3,
  Folded: 4,
} as const;
export type ScalarStyle = (typeof ScalarStyle)[keyof typeof ScalarStyle];

export interface Token {
  readonly kind: TokenKind;
  readonly start: Mark;
  readonly end: Mark;
  /** Scalar text, anchor/alias name, tag handle (TAG) or directive handle (TAG-DIRECTIVE). */
  readonly value: string;
  /** TAG: the suffix; TAG-DIRECTIVE: the prefix. */
  readonly suffix: string;
  readonly style: ScalarStyle;
  /** VERSION-DIRECTIVE numbers. */
  readonly major: number;
  readonly minor: number;
}

export function makeToken(kind: TokenKind, start: Mark, end: Mark, value = '', suffix = '', style: ScalarStyle = ScalarStyle.Plain): Token {
  return { kind, start, end, value, suffix, style, major: 0, minor: 0 };
}
