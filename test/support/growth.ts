import { expect } from 'vitest';

/**
 * Asserts that `run` grows linearly between two input sizes, without a wall-clock bound: on a busy
 * machine a fixed "under a second" fails while the code is fine. Each size is timed three times
 * (after one warm-up run) and the fastest run counts, so a pause of the machine inflates neither.
 * With `scale` = large / small, a linear step takes about `scale` times as long and a quadratic one
 * `scale²` times. The bound is `scale × slack`: the slack absorbs what a larger input costs beyond
 * its size (garbage collection, caches; seen up to 3.3× on a loaded machine), and at scale ≥ 16 the
 * bound stays well below `scale²`.
 */
export function expectLinearGrowth<Input>(
  build: (size: number) => Input,
  run: (input: Input) => void,
  { small, large, slack = 6 }: { readonly small: number; readonly large: number; readonly slack?: number },
): void {
  const scale = large / small;
  if (scale < 16 || slack * scale > (scale * scale) / 2) throw new Error(`expectLinearGrowth: sizes ${small} and ${large} cannot tell linear from quadratic`);
  const fastest = (input: Input): number => {
    let best = Number.POSITIVE_INFINITY;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const started = performance.now();
      run(input);
      best = Math.min(best, performance.now() - started);
    }
    return best;
  };
  const smallInput = build(small);
  run(smallInput);
  const smallTime = Math.max(fastest(smallInput), 0.5);
  const largeTime = fastest(build(large));
  expect(largeTime / smallTime, `${large} items took ${largeTime.toFixed(1)} ms, ${small} took ${smallTime.toFixed(1)} ms`).toBeLessThan(scale * slack);
}
