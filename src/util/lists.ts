/**
 * List helpers that take any number of items. Spreading a list into a call (`push(...items)`,
 * `Math.max(...items)`) puts every item on the stack: about 130,000 items overflow it, and a
 * large input (a Deployment with that many arguments, a Corefile with that many keys) gets there.
 *
 * Pure: no Node APIs.
 */

/** Appends `items` to `target`, one at a time. */
export function pushAll<T>(target: T[], items: Iterable<T>): void {
  for (const item of items) target.push(item);
}

/** The largest of `values`; `empty` when there is none. */
export function maxOf(values: Iterable<number>, empty = Number.NEGATIVE_INFINITY): number {
  let max = empty;
  let any = false;
  for (const value of values) {
    max = any ? Math.max(max, value) : value;
    any = true;
  }
  return max;
}
