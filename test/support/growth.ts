import { expect } from 'vitest';

/**
 * Growth checks without a wall-clock bound: on a busy machine a fixed "under a second" fails while
 * the code is fine, and so does a ratio of wall times — a run of a few milliseconds can finish
 * inside one time slice while a run sixteen times as long is interrupted by the other jobs every
 * time (a lexer at 1,600 and 25,600 blocks measured 1.5 ms against 218 ms, 145×, at a load average
 * of 14 on 2 cores). These helpers measure the CPU time of this process instead (user + system,
 * `process.cpuUsage`), which the time other jobs hold the cores does not inflate, and repeat each
 * run until a sample holds at least `SAMPLE_MS` of CPU, so that a sample is many clock ticks long.
 * The fastest of several samples counts. The bound stays far from what a quadratic step costs, so
 * that a super-linear step, slow on every sample, still fails. With KUBE_DNS_TO_COREDNS_SHOW_OUTCOMES
 * set, every check prints what it measured.
 */

/** The least CPU time one sample holds: runs are repeated until they add up to it. */
export const SAMPLE_MS = 60;

/** The CPU time this process has used, in milliseconds (user + system, every thread). */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** How often `run` must run for one sample to hold `SAMPLE_MS` of CPU (measured once, warm). */
async function repetitions(run: () => unknown): Promise<number> {
  const started = cpuMs();
  await run();
  const once = cpuMs() - started;
  return Math.min(1000, Math.max(1, Math.ceil(SAMPLE_MS / Math.max(once, 0.05))));
}

/** The CPU time of one run of `run`, from a sample of `times` runs. */
async function perRun(run: () => unknown, times: number): Promise<number> {
  const started = cpuMs();
  for (let time = 0; time < times; time += 1) await run();
  return (cpuMs() - started) / times;
}

/**
 * The CPU time one run of `run` takes: the fastest of `attempts` samples, each of enough runs to
 * hold `SAMPLE_MS` of CPU (after one warm-up run). For comparing two measures in the same process.
 */
export async function cpuPerRun(run: () => unknown, { attempts = 3 }: { readonly attempts?: number } = {}): Promise<number> {
  await run();
  const times = await repetitions(run);
  let best = Number.POSITIVE_INFINITY;
  for (let attempt = 0; attempt < attempts; attempt += 1) best = Math.min(best, await perRun(run, times));
  return best;
}

/**
 * Asserts that `run` grows linearly between two input sizes. Each size is measured three times
 * (after one warm-up run) and the fastest sample counts. With `scale` = large / small, a linear step
 * costs about `scale` times as much and a quadratic one `scale²` times. The bound is
 * `scale × slack`: the slack absorbs what a larger input costs beyond its size (garbage
 * collection, caches), and at scale ≥ 16 the bound stays well below `scale²`.
 */
export function expectLinearGrowth<Input>(
  build: (size: number) => Input,
  run: (input: Input) => void,
  { small, large, slack = 6 }: { readonly small: number; readonly large: number; readonly slack?: number },
): void {
  const scale = large / small;
  if (scale < 16 || slack * scale > (scale * scale) / 2) throw new Error(`expectLinearGrowth: sizes ${small} and ${large} cannot tell linear from quadratic`);
  const measure = (input: Input): number => {
    run(input);
    const started = cpuMs();
    run(input);
    const times = Math.min(1000, Math.max(1, Math.ceil(SAMPLE_MS / Math.max(cpuMs() - started, 0.05))));
    let best = Number.POSITIVE_INFINITY;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const begun = cpuMs();
      for (let time = 0; time < times; time += 1) run(input);
      best = Math.min(best, (cpuMs() - begun) / times);
    }
    return best;
  };
  const smallTime = measure(build(small));
  const largeTime = measure(build(large));
  if (process.env['KUBE_DNS_TO_COREDNS_SHOW_OUTCOMES'] !== undefined) console.log(`linear ${(largeTime / smallTime).toFixed(2)} of ${scale * slack} (${smallTime.toFixed(2)} → ${largeTime.toFixed(2)} ms)`);
  expect(largeTime / Math.max(smallTime, 0.001), `${large} items took ${largeTime.toFixed(2)} ms of CPU, ${small} took ${smallTime.toFixed(2)} ms`).toBeLessThan(scale * slack);
}

/**
 * Asserts that doubling the input multiplies the CPU time `run` takes by less than `bound`
 * (linear: 2×; quadratic: 4×): the doubling-ratio check of issue #18's hostile inputs, for paths
 * too slow to run at sixteen times a size. Each size runs twice first (so that the compiler has
 * done its work and the young generation has grown), then `attempts` samples, alternating and in
 * turn first (so that neither pays more often for the other's garbage); the fastest sample of each
 * size counts. A ratio at or above `bound` is measured again, up to `rounds` times, and the lowest
 * counts: a super-linear step, slow on every sample, still fails. Returns the ratio.
 */
export async function expectDoublingGrowth<Input>(
  build: (size: number) => Input | Promise<Input>,
  run: (input: Input) => unknown,
  { size, bound = 3, attempts = 3, rounds = 5 }: { readonly size: number; readonly bound?: number; readonly attempts?: number; readonly rounds?: number },
): Promise<number> {
  const small = await build(size);
  const large = await build(2 * size);
  for (let warmUp = 0; warmUp < 2; warmUp += 1) {
    await run(small);
    await run(large);
  }
  // The same number of runs for both sizes, enough for the small one to fill a sample.
  const times = await repetitions(() => run(small));
  let best = { ratio: Number.POSITIVE_INFINITY, small: 0, large: 0 };
  for (let round = 0; round < rounds && best.ratio >= bound; round += 1) {
    let smallTime = Number.POSITIVE_INFINITY;
    let largeTime = Number.POSITIVE_INFINITY;
    for (let attempt = 0; attempt < attempts; attempt += 1) {
      if (attempt % 2 === 0) {
        smallTime = Math.min(smallTime, await perRun(() => run(small), times));
        largeTime = Math.min(largeTime, await perRun(() => run(large), times));
      } else {
        largeTime = Math.min(largeTime, await perRun(() => run(large), times));
        smallTime = Math.min(smallTime, await perRun(() => run(small), times));
      }
    }
    const ratio = largeTime / Math.max(smallTime, 0.001);
    if (ratio < best.ratio) best = { ratio, small: smallTime, large: largeTime };
  }
  if (process.env['KUBE_DNS_TO_COREDNS_SHOW_OUTCOMES'] !== undefined) console.log(`doubling ${best.ratio.toFixed(2)} (${best.small.toFixed(2)} → ${best.large.toFixed(2)} ms, ${times} runs a sample)`);
  expect(best.ratio, `${2 * size} items took ${best.large.toFixed(2)} ms of CPU, ${size} took ${best.small.toFixed(2)} ms`).toBeLessThan(bound);
  return best.ratio;
}
