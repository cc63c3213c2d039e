/**
 * JSON text in the layout of Python's `json.dumps` defaults — `", "` and `": "` separators and
 * every non-ASCII character escaped — which is the layout of the kubeadm reference corpus. Batch
 * output in this layout can be compared with `diff` against the corpus files.
 */
export function stringifyAsciiJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return JSON.stringify(value);
  if (typeof value === 'string') return asciiString(value);
  if (Array.isArray(value)) return `[${value.map(stringifyAsciiJson).join(', ')}]`;
  if (typeof value === 'object') {
    const members = Object.entries(value as Record<string, unknown>)
      .filter(([, member]) => member !== undefined)
      .map(([key, member]) => `${asciiString(key)}: ${stringifyAsciiJson(member)}`);
    return `{${members.join(', ')}}`;
  }
  throw new TypeError(`cannot represent a ${typeof value} as JSON`);
}

const NON_ASCII = /[^\x20-\x7e]/g;

function asciiString(text: string): string {
  // JSON.stringify already escapes quotes, backslashes, controls and lone surrogates.
  return JSON.stringify(text).replace(NON_ASCII, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
