import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import { describeDestination } from '../../routing/destination.js';
import type { Route } from '../../routing/destination.js';

/** What `check` and `explain` share in writing their results (tables and JSON). */

/** Warnings about which ConfigMap was read lead the notes (on stderr, or `notes` in the JSON). */
export function withInputNotes<Result extends { readonly notes: readonly string[] }>(result: Result, diagnostics: readonly Diagnostic[]): Result {
  return diagnostics.length === 0 ? result : { ...result, notes: [...diagnostics.map((entry) => `kube-dns: ${entry.message}`), ...result.notes] };
}

/** The formatted text's notes section goes to stderr. */
export function splitNotes(text: string): [string, string] {
  const index = text.indexOf('Notes:\n');
  return index < 0 ? [text, ''] : [text.slice(0, index), text.slice(index)];
}

export function routeJson(route: Route): { destination: unknown; text: string; via: string } {
  return { destination: route.destination, text: describeDestination(route.destination), via: route.via };
}
