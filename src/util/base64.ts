/**
 * Base64 as Go's `encoding/base64.StdEncoding` decodes it (what go-yaml v2 applies to a `!!binary`
 * scalar, and so kubectl): the standard alphabet with `=` padding required, carriage returns and
 * line feeds skipped, anything else refused.
 *
 * Pure: no Node APIs.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUES: ReadonlyMap<string, number> = new Map([...ALPHABET].map((character, index) => [character, index]));

/** The bytes `text` encodes, or undefined when Go's standard decoder refuses it. */
export function decodeStdBase64(text: string): Uint8Array | undefined {
  const compact = text.replace(/[\r\n]/g, '');
  if (compact.length % 4 !== 0) return undefined;
  const padding = compact.endsWith('==') ? 2 : compact.endsWith('=') ? 1 : 0;
  const body = compact.slice(0, compact.length - padding);
  const bytes = new Uint8Array((compact.length / 4) * 3 - padding);
  let written = 0;
  let buffer = 0;
  let bits = 0;
  for (const character of body) {
    const value = VALUES.get(character);
    if (value === undefined) return undefined;
    buffer = ((buffer << 6) | value) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      bytes[written] = (buffer >> bits) & 0xff;
      written += 1;
    }
  }
  return written === bytes.length ? bytes : undefined;
}
