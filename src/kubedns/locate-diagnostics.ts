import type { ConfigMapDocument } from '../configmap/read-configmap.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { offsetAt } from '../util/source-position.js';
import type { ValueLocation } from '../util/source-position.js';

/**
 * `diagnostics` with a `location` in the file added to each one that has a `position` inside the
 * value of one of `document`'s data keys (the kube-dns reader's and the translator's findings in
 * `stubDomains`, `upstreamNameservers`, `federations`). Others are returned as they are.
 */
export function locateValueDiagnostics(diagnostics: readonly Diagnostic[], document: Pick<ConfigMapDocument, 'data' | 'locate'> | undefined): Diagnostic[] {
  // A document built by hand (an untyped caller's install) may have no locate.
  if (document === undefined || typeof document.locate !== 'function') return [...diagnostics];
  return diagnostics.map((entry) => {
    const { key, position } = entry;
    if (key === undefined || position === undefined || entry.location !== undefined || !Object.hasOwn(document.data, key)) return entry;
    const location = document.locate(key, offsetAt(document.data[key] as string, position));
    return location === undefined ? entry : withLocation(entry, location);
  });
}

/** The diagnostic with `location` after `position`, in the order of the JSON output. */
function withLocation(entry: Diagnostic, location: ValueLocation): Diagnostic {
  const { message, hint, ...before } = entry;
  return { ...before, location, message, hint };
}
