import { InternalError } from '../errors/internal-error.js';

/**
 * JSON text in the layout of Python's `json.dumps` defaults — `", "` and `": "` separators and
 * every non-ASCII character escaped — which is the layout of the kubeadm reference corpus. Batch
 * output in this layout can be compared with `diff` against the corpus files.
 *
 * `--batch` writes one of these per input line (tens of megabytes for a large corpus), so the
 * text is built by plain concatenation, and every string it returns is stored one byte per
 * character: a single two-byte piece (an escaped `…`) would otherwise make V8 store the whole
 * joined output two bytes per character and encode it to UTF-8 the slow way.
 *
 * The batch writes only JSON values it built itself: anything else (a bigint, a function, a
 * symbol) is the package's own bug, an {@link InternalError}.
 */
export function stringifyAsciiJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'number') return JSON.stringify(value);
  if (typeof value === 'string') return asciiString(value);
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index += 1) {
      if (index > 0) text += ', ';
      // A hole prints as nothing, like `join` does for it.
      if (index in value) text += stringifyAsciiJson(value[index]);
    }
    return `${text}]`;
  }
  if (typeof value === 'object') {
    const record = value as Record<string, unknown>;
    let text = '{';
    let first = true;
    for (const key of Object.keys(record)) {
      const member = record[key];
      if (member === undefined) continue;
      if (!first) text += ', ';
      first = false;
      text += `${asciiString(key)}: ${stringifyAsciiJson(member)}`;
    }
    return `${text}}`;
  }
  throw new InternalError(`cannot represent a ${typeof value} as JSON`);
}

/** Printable ASCII other than `"` and `\`: such a string is its own JSON body. */
const NEEDS_NO_ESCAPE = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
/** What `JSON.stringify` leaves unescaped but the ASCII layout must escape: DEL and beyond. */
const BEYOND_ASCII = /[^\x00-\x7e]/;
const NON_ASCII = /[^\x20-\x7e]/g;
/** Characters per `String.fromCharCode` call (far below any engine's argument limit). */
const CHARACTERS_PER_CALL = 4096;

function asciiString(text: string): string {
  if (NEEDS_NO_ESCAPE.test(text)) return `"${text}"`;
  // JSON.stringify already escapes quotes, backslashes, controls and lone surrogates.
  if (!BEYOND_ASCII.test(text)) return JSON.stringify(text);
  const escaped = JSON.stringify(text).replace(NON_ASCII, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return oneBytePerCharacter(escaped);
}

/**
 * The same ASCII text, rebuilt so that V8 stores it one byte per character (a replacement on a
 * two-byte string yields a two-byte string even when every character is ASCII).
 */
function oneBytePerCharacter(ascii: string): string {
  let text = '';
  for (let start = 0; start < ascii.length; start += CHARACTERS_PER_CALL) {
    const end = Math.min(ascii.length, start + CHARACTERS_PER_CALL);
    const codes = new Array<number>(end - start);
    for (let index = start; index < end; index += 1) codes[index - start] = ascii.charCodeAt(index);
    text += String.fromCharCode(...codes);
  }
  return text;
}
