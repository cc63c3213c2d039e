import { checkArgument } from '../errors/arguments.js';
import type { CorefileWarning } from './errors.js';
import { parseCorefile } from './parser.js';
import type { ParseOptions } from './parser.js';
import { printCorefile } from './printer.js';

export interface FormatResult {
  /** The canonical text. */
  readonly text: string;
  /** True when the input already was exactly the canonical text. */
  readonly unchanged: boolean;
  readonly warnings: readonly CorefileWarning[];
}

/**
 * Parses and prints: the canonical form of a Corefile text (what `kube-dns-to-coredns fmt`
 * prints). Throws the parser's or the printer's error.
 */
export function formatCorefile(text: string, options: ParseOptions = {}): FormatResult {
  checkArgument('formatCorefile', 'text', text, 'string');
  checkArgument('formatCorefile', 'options', options, 'object?');
  const { corefile, warnings } = parseCorefile(text, options);
  const canonical = printCorefile(corefile);
  return { text: canonical, unchanged: canonical === text, warnings };
}
