import { EVENT_ID, getScalarValue, parseEvents, SCALAR_STYLE } from 'js-yaml';
import type { Event } from 'js-yaml';

/**
 * The `data` keys of a ConfigMap text whose value YAML folded: written over several source lines
 * as a plain, quoted or folded (`>`) scalar, which YAML joins with spaces, so the value has fewer
 * lines than the text shows. A `|` literal block keeps every line and is never folded. Keys of
 * every `data` mapping in the text (a List's items too), in source order; none when the text is
 * not YAML (the reader reports that).
 */
export function foldedDataKeys(text: string): string[] {
  let events: Event[];
  try {
    events = parseEvents(text, { maxDepth: 64 });
  } catch {
    return [];
  }
  interface Frame {
    readonly mapping: boolean;
    /** The key this mapping or sequence is the value of. */
    readonly name: string | undefined;
    key: string | undefined;
    expectKey: boolean;
  }
  const stack: Frame[] = [];
  const folded: string[] = [];
  const valueDone = (): void => {
    const top = stack[stack.length - 1];
    if (top?.mapping === true) top.expectKey = true;
  };
  for (const event of events) {
    const top = stack[stack.length - 1];
    if (event.type === EVENT_ID.MAPPING || event.type === EVENT_ID.SEQUENCE) {
      stack.push({ mapping: event.type === EVENT_ID.MAPPING, name: top?.mapping === true ? top.key : undefined, key: undefined, expectKey: true });
    } else if (event.type === EVENT_ID.POP) {
      if (stack.pop() !== undefined) valueDone();
    } else if (event.type === EVENT_ID.SCALAR) {
      if (top?.mapping === true && top.expectKey) {
        top.key = getScalarValue(text, event);
        top.expectKey = false;
        continue;
      }
      if (top?.mapping === true && top.name === 'data' && top.key !== undefined && event.style !== SCALAR_STYLE.LITERAL_BLOCK) {
        const written = text.slice(event.valueStart, event.valueEnd).replace(/\n+$/, '').split('\n').length;
        const read = getScalarValue(text, event).replace(/\n+$/, '').split('\n').length;
        if (written > read) folded.push(top.key);
      }
      valueDone();
    } else if (event.type === EVENT_ID.ALIAS) {
      valueDone();
    }
  }
  return folded;
}
