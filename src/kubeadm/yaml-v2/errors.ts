import { KubeDnsToCoreDnsError } from '../../errors/kube-dns-to-coredns-error.js';
import type { YamlV2Dialect } from './dialect.js';

/**
 * A position in the decoded character stream, as libyaml counts it: `index` in characters (Unicode
 * code points; CRLF counts as two), `line` and `column` 0-based.
 */
export interface Mark {
  readonly index: number;
  readonly line: number;
  readonly column: number;
}

/** Which stage of the libyaml port set the error; yaml.v2 numbers the lines of each differently. */
export type SyntaxStage = 'reader' | 'scanner' | 'parser';

/**
 * An error recorded by the reader, scanner or parser (libyaml's `parser.error`, `problem`,
 * `problem_mark`, `context`, `context_mark`). The marks are absent where libyaml leaves them zero
 * (reader errors). The marks are libyaml's, kept to word the message as yaml.v2 did
 * ({@link formatSyntaxError}); they point into the manifest kubeadm rendered, not into any input,
 * so the error has no `position`.
 */
export class YamlSyntaxError extends KubeDnsToCoreDnsError {
  override readonly name = 'YamlSyntaxError';
  readonly category = 'input';
  declare readonly code: 'yaml-syntax';

  constructor(
    readonly stage: SyntaxStage,
    readonly problem: string,
    readonly problemMark: Mark | undefined,
    readonly context: string = '',
    readonly contextMark: Mark | undefined = undefined,
  ) {
    super('yaml-syntax', problem);
  }
}

/**
 * A `failf` of yaml.v2's node builder or decoder (unknown anchor, invalid map key, a tag that does
 * not fit its value, …). `message` is the text after `yaml: `.
 */
export class YamlDecodeError extends KubeDnsToCoreDnsError {
  override readonly name = 'YamlDecodeError';
  readonly category = 'input';
  declare readonly code: 'yaml-decode';

  constructor(message: string) {
    super('yaml-decode', message);
  }
}

/**
 * A Go runtime panic inside yaml.v2 that its `handleErr` does not turn into an error: kubeadm
 * itself would crash. `message` is the panic value.
 */
export class GoPanicError extends KubeDnsToCoreDnsError {
  override readonly name = 'GoPanicError';
  readonly category = 'input';
  declare readonly code: 'go-panic';

  constructor(message: string) {
    super('go-panic', message);
  }
}

/**
 * yaml.v2's `parser.fail()`: `yaml: line N: <problem>`. The line is the problem mark's line, plus
 * one for scanner errors from v2.2 on; when that line is 0 the context mark's line is used as is;
 * when both are 0 (always for reader errors) there is no `line N: ` part.
 */
export function formatSyntaxError(error: YamlSyntaxError, dialect: YamlV2Dialect): string {
  let line = 0;
  const problemLine = error.problemMark?.line ?? 0;
  const contextLine = error.contextMark?.line ?? 0;
  if (problemLine !== 0) {
    line = problemLine + (error.stage === 'scanner' ? dialect.scannerErrorLineOffset : 0);
  } else if (contextLine !== 0) {
    line = contextLine;
  }
  const where = line !== 0 ? `line ${line}: ` : '';
  const message = error.problem.length > 0 ? error.problem : 'unknown problem parsing YAML content';
  return `yaml: ${where}${message}`;
}
