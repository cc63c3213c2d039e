/**
 * `JSON.stringify(value, null, 2)` for plain data (objects, arrays, strings, numbers, booleans,
 * null; `undefined` members left out and `undefined` array items written as `null`, as
 * JSON.stringify does), without recursion: a route through thousands of chained `fallthrough`
 * plugins nests that deep, and JSON.stringify overflows the call stack on it.
 *
 * Containers nested deeper than {@link INDENTED_LEVELS} are written compactly (no line breaks,
 * like `JSON.stringify(value)`): indenting every level would make the text grow with the square of
 * the depth. The data is the same; only the whitespace differs, and only below that depth.
 *
 * Pure: no Node APIs.
 */

interface Frame {
  readonly items: readonly unknown[] | undefined;
  readonly record: Record<string, unknown> | undefined;
  readonly keys: readonly string[];
  index: number;
  readonly level: number;
}

/** Levels written with line breaks and indentation; deeper containers are written compactly. */
export const INDENTED_LEVELS = 64;

const STEP = '  ';

export function stringifyPrettyJson(value: unknown): string {
  const chunks: string[] = [];
  writePrettyJson(value, (chunk) => chunks.push(chunk));
  return chunks.join('');
}

/** Pieces written per chunk by {@link writePrettyJson}. */
const PARTS_PER_CHUNK = 4096;

/**
 * {@link stringifyPrettyJson}'s text, handed to `write` in chunks as it is made: the whole text
 * is never one string, so an output longer than a string can be (2^29 − 24 characters: the
 * migration of a 16 MiB Corefile with a notice per line) is still written.
 */
export function writePrettyJson(value: unknown, write: (chunk: string) => void): void {
  const parts: string[] = [];
  const flush = (): void => {
    if (parts.length === 0) return;
    write(parts.join(''));
    parts.length = 0;
  };
  const stack: Frame[] = [];
  const indents: string[] = [''];
  const indent = (level: number): string => {
    while (indents.length <= level) indents.push(indents[indents.length - 1] + STEP);
    return indents[level] as string;
  };
  /** Writes a scalar, or opens a container at `level` (pushed on the stack). */
  const open = (item: unknown, level: number): void => {
    if (item === null || typeof item !== 'object') {
      parts.push(JSON.stringify(item ?? null) ?? 'null');
      return;
    }
    if (Array.isArray(item)) {
      parts.push(item.length === 0 ? '[]' : '[');
      if (item.length > 0) stack.push({ items: item, record: undefined, keys: [], index: 0, level });
      return;
    }
    const record = item as Record<string, unknown>;
    const keys = Object.keys(record).filter((key) => record[key] !== undefined && typeof record[key] !== 'function');
    parts.push(keys.length === 0 ? '{}' : '{');
    if (keys.length > 0) stack.push({ items: undefined, record, keys, index: 0, level });
  };
  open(value, 0);
  while (stack.length > 0) {
    if (parts.length >= PARTS_PER_CHUNK) flush();
    const frame = stack[stack.length - 1] as Frame;
    const compact = frame.level >= INDENTED_LEVELS;
    const size = frame.items === undefined ? frame.keys.length : frame.items.length;
    if (frame.index === size) {
      const close = frame.items === undefined ? '}' : ']';
      parts.push(compact ? close : `\n${indent(frame.level)}${close}`);
      stack.pop();
      continue;
    }
    const separator = frame.index === 0 ? '' : ',';
    const lead = compact ? separator : `${separator}\n${indent(frame.level + 1)}`;
    if (frame.items !== undefined) {
      const item = frame.items[frame.index];
      frame.index += 1;
      parts.push(lead);
      open(item, frame.level + 1);
    } else {
      const key = frame.keys[frame.index] as string;
      frame.index += 1;
      parts.push(`${lead}${JSON.stringify(key)}:${compact ? '' : ' '}`);
      open((frame.record as Record<string, unknown>)[key], frame.level + 1);
    }
  }
  flush();
}
