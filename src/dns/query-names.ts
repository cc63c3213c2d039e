/**
 * Whether a text is a DNS name a pod's resolver can ask, for the names users give (`explain NAME`,
 * `check --name`, a search domain); apart from names.ts, which the translator loads.
 *
 * Pure: no Node APIs.
 */

/** The longest name DNS carries, without its trailing dot (255 octets on the wire). */
const MAX_NAME_LENGTH = 253;
const MAX_LABEL_LENGTH = 63;

/**
 * Why `name` is not a DNS name a pod's resolver can ask (`explain NAME`, `check --name`, a search
 * domain), in words; undefined when it is one. A name is labels separated by dots, with an optional
 * trailing dot (`.` alone is the root, unless `root` is false): no empty label (`..`, a leading
 * dot), labels of 1 to 63 characters, 253 in all, printable ASCII only (no space or control
 * character; an internationalised name is asked in its `xn--` form).
 */
export function dnsNameProblem(name: string, root = true): string | undefined {
  if (name === '.') return root ? undefined : 'it is the root, not a domain';
  const bare = name.endsWith('.') ? name.slice(0, -1) : name;
  if (bare === '') return 'it is empty';
  if (bare.length > MAX_NAME_LENGTH) return `it is ${bare.length} characters long, more than the ${MAX_NAME_LENGTH} a DNS name holds`;
  if (name.includes('..')) return "it has an empty label ('..')";
  const labels = bare.split('.');
  for (const [index, label] of labels.entries()) {
    if (label === '') return index === 0 ? 'it starts with a dot (an empty label)' : "it has an empty label";
    if (label.length > MAX_LABEL_LENGTH) return `its label '${label.slice(0, 20)}…' is ${label.length} characters long, more than the ${MAX_LABEL_LENGTH} a label holds`;
    const bad = /[^\x21-\x7e]/.exec(label);
    if (bad !== null) return `its label ${JSON.stringify(label)} holds ${JSON.stringify(bad[0])}, which no query name holds (printable ASCII only; an internationalised name in its xn-- form)`;
  }
  return undefined;
}
