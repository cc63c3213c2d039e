/**
 * Characters that must not reach a terminal or a log line raw from a message for people: C0
 * controls (line feed, carriage return, tab, escape, …), DEL and the C1 controls, the Unicode line
 * and paragraph separators (which some viewers break lines at), and the bidirectional formatting
 * characters (which reorder what a reader sees). Input text such as a ConfigMap key can hold any of
 * them; quoted raw, a line feed would start a fake message line and an escape could drive the
 * terminal.
 */
const UNPRINTABLE = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/g;
const HAS_UNPRINTABLE = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/;

const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeCharacter(character: string): string {
  return SHORT_ESCAPES[character] ?? `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * `text` made safe for one line of a message for people: every character of {@link UNPRINTABLE}
 * becomes a visible escape (`\n`, `\r`, `\t`, otherwise `\uXXXX`, as in JSON); everything else is
 * kept. The result never contains a line break, so one message stays one line. Text without such
 * characters is returned as it is.
 */
export function printable(text: string): string {
  return HAS_UNPRINTABLE.test(text) ? text.replace(UNPRINTABLE, escapeCharacter) : text;
}

/**
 * A multi-line message for people whose line breaks are meant (a table, a stack trace): each line
 * made {@link printable}, the `\n` between them kept.
 */
export function printableLines(text: string): string {
  return HAS_UNPRINTABLE.test(text) ? text.split('\n').map(printable).join('\n') : text;
}
