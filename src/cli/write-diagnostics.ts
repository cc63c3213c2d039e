import { formatDiagnostic } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { CliIo } from './io.js';

/** Lines are written in chunks of about this many characters, not one `write` (a system call) each. */
const DIAGNOSTIC_CHUNK_CHARACTERS = 48 * 1024;

/** One line per diagnostic on stderr; a refused ConfigMap of thousands of domains has thousands. */
export function writeDiagnostics(result: { readonly diagnostics: readonly Diagnostic[] }, io: CliIo): void {
  let chunk = '';
  for (const entry of result.diagnostics) {
    chunk += `${formatDiagnostic(entry)}\n`;
    if (chunk.length >= DIAGNOSTIC_CHUNK_CHARACTERS) {
      io.stderr.write(chunk);
      chunk = '';
    }
  }
  if (chunk !== '') io.stderr.write(chunk);
}

