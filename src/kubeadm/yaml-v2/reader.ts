import { YamlSyntaxError } from './errors.js';

/**
 * Size of yaml.v2's raw input buffer (`input_raw_buffer_size`). `yaml_parser_update_raw_buffer`
 * always refills it to capacity, so the k-th refill leaves the input consumed up to byte
 * `RAW_CHUNK_BYTES * k`.
 */
export const RAW_CHUNK_BYTES = 512;

const BYTE_ORDER_MARK = 0xfeff;

/** Length of the UTF-8 encoding of a code point. */
function utf8Length(codePoint: number): number {
  if (codePoint < 0x80) return 1;
  if (codePoint < 0x800) return 2;
  if (codePoint < 0x10000) return 3;
  return 4;
}

/**
 * The characters yaml.v2's reader accepts (YAML 1.1 `c-printable`): TAB, LF, CR, 0x20–0x7E, NEL,
 * 0xA0–0xD7FF, 0xE000–0xFFFD and the supplementary planes. Everything else — the other C0
 * controls, DEL, the C1 controls except NEL, U+FFFE and U+FFFF — stops decoding with
 * `control characters are not allowed`. (Surrogates cannot reach it: they are not UTF-8.)
 */
export function isAllowedYamlCharacter(codePoint: number): boolean {
  if (codePoint >= 0x20 && codePoint <= 0x7e) return true;
  if (codePoint === 0x09 || codePoint === 0x0a || codePoint === 0x0d || codePoint === 0x85) return true;
  if (codePoint >= 0xa0 && codePoint <= 0xd7ff) return true;
  if (codePoint >= 0xe000 && codePoint <= 0xfffd) return true;
  return codePoint >= 0x10000 && codePoint <= 0x10ffff;
}

/**
 * gopkg.in/yaml.v2's input reader (`readerc.go`) for an in-memory document, reduced to what can be
 * observed from outside: *when* a character is decoded and validated.
 *
 * yaml.v2 does not validate its input up front. `Unmarshal` reads the bytes through a 512-byte raw
 * buffer; whenever the scanner asks for more decoded characters than are buffered
 * (`cache(parser, n)`), the reader refills the raw buffer to 512 bytes and decodes *all* complete
 * characters in it at once. A forbidden character anywhere in that chunk fails the whole refill,
 * even if the characters before it would have satisfied the request. So an invalid character is
 * reported exactly when the scanner first needs a character beyond the previous 512-byte chunk
 * boundary — and a syntax error found earlier in the text wins. That is why kubeadm reports
 * `control characters are not allowed` for some manifests and a structural error for others.
 *
 * Positions: the text is a JavaScript string and the scanner walks it by UTF-16 code unit
 * (`unit`), while libyaml counts characters (code points) in `mark.index` and in its `unread`
 * counter; both are tracked here. Lone surrogates (which cannot come out of Go's JSON decoder)
 * are treated as U+FFFD, the character `TextEncoder` would write for them.
 *
 * At the end of the input yaml.v2 pads its buffer with NUL bytes; here every position past the end
 * reads as 0 ({@link InputReader.codeUnitAt}).
 *
 * One more buffer detail is observable: yaml.v2's `is_bom` tests the first three bytes of the
 * decoded buffer instead of the current position (a bug in its port of libyaml), and the buffer
 * start moves to the current character on every refill. {@link InputReader.bufferStartsWithBom}
 * reproduces that.
 */
export class InputReader {
  readonly text: string;
  /** Code unit where decoding starts (1 when a leading U+FEFF was consumed as a byte order mark). */
  readonly startUnit: number;
  /** Characters decoded (and validated) so far, counted from {@link startUnit}. */
  decodedChars = 0;
  /** Set once a refill found no more input: every later request is satisfied by NUL padding. */
  atEnd = false;
  private decodedUnits: number;
  private decodedBytes = 0;
  private consumedBytes = 0;
  /** Code unit of the character yaml.v2 holds at the start of its decoded buffer. */
  private bufferStartUnit: number;

  constructor(text: string) {
    this.text = text;
    // yaml_parser_determine_encoding consumes a UTF-8 byte order mark before anything is decoded;
    // it still counts towards the raw chunks (3 bytes).
    const hasBom = text.charCodeAt(0) === BYTE_ORDER_MARK;
    this.startUnit = hasBom ? 1 : 0;
    this.decodedUnits = this.startUnit;
    this.decodedBytes = hasBom ? 3 : 0;
    this.bufferStartUnit = this.startUnit;
  }

  /** The code unit at `unit`, or 0 (NUL padding) past the end of the text. */
  codeUnitAt(unit: number): number {
    return unit < this.text.length ? this.text.charCodeAt(unit) : 0;
  }

  /**
   * `yaml_parser_update_buffer(parser, length)` for a scanner that stands at code unit `unit`,
   * which is its `mark.index`-th character: makes sure `length` characters are available from there.
   * Fails with the reader's error when a chunk that has to be decoded contains a forbidden character.
   */
  fill(unit: number, markIndex: number, length: number): void {
    if (this.atEnd || this.decodedChars - markIndex >= length) return;
    // The unread characters are moved to the start of the buffer, or new ones are decoded there.
    this.bufferStartUnit = unit;
    for (;;) {
      if (this.decodedUnits >= this.text.length) {
        // The refill read nothing: yaml.v2 appends a NUL and pads with more.
        this.atEnd = true;
        return;
      }
      this.decodeChunk();
      if (this.decodedChars - markIndex >= length) return;
    }
  }

  /** Whether yaml.v2's `is_bom` would see a byte order mark (at the start of its buffer). */
  bufferStartsWithBom(): boolean {
    return this.codeUnitAt(this.bufferStartUnit) === BYTE_ORDER_MARK;
  }

  /** Reads the next 512 input bytes and decodes every character that is complete within them. */
  private decodeChunk(): void {
    const text = this.text;
    const limit = this.consumedBytes + RAW_CHUNK_BYTES;
    this.consumedBytes = limit;
    let unit = this.decodedUnits;
    let bytes = this.decodedBytes;
    let chars = this.decodedChars;
    const length = text.length;
    while (unit < length) {
      let codePoint = text.charCodeAt(unit);
      // Fast path: printable ASCII and the three allowed C0 controls.
      if (codePoint < 0x7f && (codePoint >= 0x20 || codePoint === 0x0a || codePoint === 0x09 || codePoint === 0x0d)) {
        if (bytes + 1 > limit) break;
        bytes += 1;
        unit += 1;
        chars += 1;
        continue;
      }
      let width = 1;
      if (codePoint >= 0xd800 && codePoint <= 0xdfff) {
        const low = codePoint <= 0xdbff ? text.charCodeAt(unit + 1) : Number.NaN;
        if (low >= 0xdc00 && low <= 0xdfff) {
          codePoint = ((codePoint - 0xd800) << 10) + (low - 0xdc00) + 0x10000;
          width = 2;
        } else {
          codePoint = 0xfffd;
        }
      }
      const size = utf8Length(codePoint);
      if (bytes + size > limit) break;
      if (!isAllowedYamlCharacter(codePoint)) {
        throw new YamlSyntaxError('reader', 'control characters are not allowed', undefined);
      }
      bytes += size;
      unit += width;
      chars += 1;
    }
    this.decodedUnits = unit;
    this.decodedBytes = bytes;
    this.decodedChars = chars;
  }
}
