import { expect } from 'vitest';

/**
 * Counts what a property test's runs actually did (a Corefile produced, a refusal, a skipped
 * comparison…), so that the test can assert floors at the end: a law that only ever met its
 * "nothing to check" branch passes without proving anything. With the environment variable
 * KUBE_DNS_TO_COREDNS_SHOW_OUTCOMES set, every check also prints the counts.
 */
export class Outcomes<Name extends string> {
  private readonly counts = new Map<Name, number>();

  /** Records one run with outcome `name`. */
  add(name: Name): void {
    this.counts.set(name, (this.counts.get(name) ?? 0) + 1);
  }

  /** How many runs had outcome `name`. */
  count(name: Name): number {
    return this.counts.get(name) ?? 0;
  }

  /** Every recorded run. */
  get total(): number {
    let total = 0;
    for (const count of this.counts.values()) total += count;
    return total;
  }

  /** The counts, for messages: `produced 231, refused 69`. */
  toString(): string {
    return [...this.counts.entries()].map(([name, count]) => `${name} ${count}`).join(', ') || 'nothing recorded';
  }

  /**
   * Asserts that each outcome occurred at least as often as its floor; the failure message shows
   * every count, so it says what the generator produced instead.
   */
  expectAtLeast(floors: Partial<Record<Name, number>>): void {
    if (process.env['KUBE_DNS_TO_COREDNS_SHOW_OUTCOMES'] !== undefined) console.log(`${expect.getState().currentTestName ?? ''}: ${this.toString()}`);
    for (const [name, floor] of Object.entries(floors) as [Name, number][]) {
      expect(this.count(name), `${name} (outcomes: ${this.toString()})`).toBeGreaterThanOrEqual(floor);
    }
  }
}
