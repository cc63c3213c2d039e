/**
 * "Did you mean": the known names closest to a misspelt one.
 *
 * Pure: no Node APIs.
 */

/**
 * The optimal string alignment distance of two strings: insertions, deletions, substitutions
 * and swaps of two neighbouring characters each cost one (`forwrad` is one swap from `forward`).
 */
export function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const columns = b.length + 1;
  const distance: number[][] = Array.from({ length: rows }, (_, row) => Array.from({ length: columns }, (_, column) => (row === 0 ? column : column === 0 ? row : 0)));
  for (let row = 1; row < rows; row += 1) {
    for (let column = 1; column < columns; column += 1) {
      const cost = a[row - 1] === b[column - 1] ? 0 : 1;
      let best = Math.min(distance[row - 1]![column]! + 1, distance[row]![column - 1]! + 1, distance[row - 1]![column - 1]! + cost);
      if (row > 1 && column > 1 && a[row - 1] === b[column - 2] && a[row - 2] === b[column - 1]) {
        best = Math.min(best, distance[row - 2]![column - 2]! + 1);
      }
      distance[row]![column] = best;
    }
  }
  return distance[a.length]![b.length]!;
}

/** How far a name may be from a suggestion: one edit for names of up to five characters, two above. */
function allowedDistance(name: string): number {
  return name.length <= 5 ? 1 : 2;
}

/**
 * {@link editDistance} when it is at most `max`, else some number above `max`: only the cells
 * within `max` of the diagonal are worked out, and a row whose cells all exceed `max` ends it, so
 * a long name costs `O(length × max)` per candidate, not `O(length²)`.
 */
export function editDistanceWithin(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const over = max + 1;
  const width = 2 * max + 1;
  // Row r keeps columns r - max … r + max: cell (r, c) is at index c - r + max.
  const band = (): number[] => new Array<number>(width).fill(over);
  let previous2 = band();
  let previous = band();
  for (let column = 0; column <= Math.min(max, b.length); column += 1) previous[column + max] = column;
  for (let row = 1; row <= a.length; row += 1) {
    const current = band();
    let rowBest = over;
    for (let column = Math.max(0, row - max); column <= Math.min(b.length, row + max); column += 1) {
      const at = column - row + max;
      let best: number;
      if (column === 0) best = row;
      else {
        const cost = a[row - 1] === b[column - 1] ? 0 : 1;
        // (row-1, column) is at+1 in the previous row, (row, column-1) at-1 here, (row-1, column-1) at in the previous row.
        best = Math.min((previous[at + 1] ?? over) + 1, (current[at - 1] ?? over) + 1, (previous[at] ?? over) + cost);
        if (row > 1 && column > 1 && a[row - 1] === b[column - 2] && a[row - 2] === b[column - 1]) best = Math.min(best, (previous2[at] ?? over) + 1);
      }
      current[at] = Math.min(best, over);
      if (best < rowBest) rowBest = best;
    }
    if (rowBest > max) return over;
    previous2 = previous;
    previous = current;
  }
  return Math.min(previous[b.length - a.length + max] ?? over, over);
}

/**
 * The candidates closest to `name` (letter case ignored), at most three, sorted; none when the
 * closest is further than a typo (one edit for short names, two for longer ones).
 */
export function closestNames(name: string, candidates: readonly string[]): string[] {
  const lower = name.toLowerCase();
  const allowed = allowedDistance(name);
  let best = Number.POSITIVE_INFINITY;
  let closest: string[] = [];
  for (const candidate of candidates) {
    if (candidate === name) continue;
    const distance = editDistanceWithin(lower, candidate.toLowerCase(), allowed);
    if (distance > allowed) continue;
    if (distance < best) {
      best = distance;
      closest = [candidate];
    } else if (distance === best) {
      closest.push(candidate);
    }
  }
  return closest.sort().slice(0, 3);
}
