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
    const distance = editDistance(lower, candidate.toLowerCase());
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
