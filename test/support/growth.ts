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

/**
 * Asserts that doubling the input multiplies the time `run` takes by less than `bound` (linear:
 * 2×; quadratic: 4×): the doubling-ratio check of issue #18's hostile inputs, for paths too slow
 * to run at sixteen times a size. Each size runs twice first (so that the compiler has done its
 * work and the young generation has grown), then `attempts` times, alternating and in turn first
 * (so that neither pays more often for the other's garbage); the fastest run of each size counts.
 * A ratio at or above `bound` is measured again, up to `rounds` times, and the lowest counts: a
 * pause of a loaded machine fails nothing, while a super-linear step, slow every time, still does.
 * (Process CPU time was tried and is no steadier: it counts the collector's helper threads.)
 * Returns the ratio.
 */
export async function expectDoublingGrowth<Input>(
  build: (size: number) => Input | Promise<Input>,
  run: (input: Input) => unknown,
  { size, bound = 3, attempts = 3, rounds = 5 }: { readonly size: number; readonly bound?: number; readonly attempts?: number; readonly rounds?: number },
): Promise<number> {
  const small = await build(size);
  const large = await build(2 * size);
  const timed = async (input: Input): Promise<number> => {
    const started = performance.now();
    await run(input);
    return performance.now() - started;
  };
  for (let warmUp = 0; warmUp < 2; warmUp += 1) {
    await timed(small);
    await timed(large);
  }
  let best = { ratio: Number.POSITIVE_INFINITY, small: 0, large: 0 };
  for (let round = 0; round < rounds && best.ratio >= bound; round += 1) {
    let smallTime = Number.POSITIVE_INFINITY;
    let largeTime = Number.POSITIVE_INFINITY;
    for (let attempt = 0; attempt < attempts; attempt += 1) {
      if (attempt % 2 === 0) {
        smallTime = Math.min(smallTime, await timed(small));
        largeTime = Math.min(largeTime, await timed(large));
      } else {
        largeTime = Math.min(largeTime, await timed(large));
        smallTime = Math.min(smallTime, await timed(small));
      }
    }
    const ratio = largeTime / Math.max(smallTime, 0.5);
    if (ratio < best.ratio) best = { ratio, small: smallTime, large: largeTime };
  }
  expect(best.ratio, `${2 * size} items took ${best.large.toFixed(1)} ms, ${size} took ${best.small.toFixed(1)} ms`).toBeLessThan(bound);
  return best.ratio;
}
