import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { relative } from 'node:path';
import { BaseSequencer } from 'vitest/node';
import type { TestSpecification } from 'vitest/node';
import { defineConfig } from 'vitest/config';

/**
 * The test files that are not part of the everyday suite (`npm run test:unit`): those that need the
 * build (dist/, the CLI bundle, the packed tarball), run real programs (CoreDNS, dnsmasq, Chromium,
 * npm, tsc, knip) or push inputs to the package's size limits. `npm test` runs them too, after the
 * build. Each was measured (docs/performance.md, "The test suite"); a new file this slow belongs
 * here.
 */
export const INTEGRATION_TESTS = [
  // The build and the package: dist/, the bundle, the tarball, the API reports, unused code.
  'test/package/**/*.test.ts',
  'test/architecture/unused-code.test.ts',
  'test/cli/batch.test.ts',
  'test/cli/bin.test.ts',
  'test/cli/deep-corefile.test.ts',
  'test/cli/hostile-input.test.ts',
  'test/cli/output-file.test.ts',
  'test/cli/start-up.test.ts',
  'test/install/cutover-script.test.ts',
  // Real programs: CoreDNS, dnsmasq, Chromium, the TypeScript compiler, a bundler.
  'test/**/real-coredns.test.ts',
  'test/routing/dnsmasq*.test.ts',
  'test/routing/docs.test.ts',
  'test/playground/**/*.test.ts',
  'test/types/results.test.ts',
  'test/kubeadm/oracle.test.ts',
  // Inputs at the size limits (`*.stress.test.ts`: the large cases of a unit's tests), and the laws
  // with the most runs.
  'test/**/*.stress.test.ts',
  'test/corefile/deep-nesting.test.ts',
  'test/corefile/laws.test.ts',
  'test/corefile/shortcuts.property.test.ts',
  'test/kubedns/shortcuts.property.test.ts',
  'test/kubeadm/unrequested-content.test.ts',
  'test/kubeadm/yaml-v2/decode-manifest.test.ts',
];

/**
 * The files that take longest from start to end (real programs they wait on, or many runs), in
 * the order they start: first, so that none of them is the tail of a run that is otherwise done,
 * and those that start many CoreDNS processes apart (with three workers the first three start
 * together). The other files follow, larger first. Measured from the per-file durations of
 * clean-clone runs (docs/performance.md, "The time budget"); vitest's own order uses the durations
 * of the previous run, which a clean clone does not have.
 */
const LONGEST_FIRST = [
  'test/routing/dnsmasq-coredns-comparison.test.ts',
  'test/package/pack.test.ts',
  'test/architecture/unused-code.test.ts',
  'test/translate/real-coredns.test.ts',
  'test/cli/deep-corefile.test.ts',
  'test/corefile/laws.test.ts',
  'test/lint/real-coredns.test.ts',
  'test/corefile/shortcuts.property.test.ts',
  'test/cli/bin.test.ts',
  'test/routing/docs.test.ts',
  'test/playground/playground.test.ts',
  'test/cli/hostile-input.test.ts',
  'test/kubeadm/yaml-v2/decode-manifest.test.ts',
  'test/cli/start-up.test.ts',
  'test/install/install.test.ts',
];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = LONGEST_FIRST.indexOf(relative(file.project.config.root, file.moduleId));
      return index === -1 ? LONGEST_FIRST.length : index;
    };
    const size = (file: TestSpecification) => statSync(file.moduleId).size;
    return [...files].sort((a, b) => rank(a) - rank(b) || size(b) - size(a));
  }
}

export default defineConfig({
  test: {
    testTimeout: 60_000,
    // One fast-check seed per run, printed when a test fails (KUBE_DNS_TO_COREDNS_SEED replays it);
    // each file's CPU time when KUBE_DNS_TO_COREDNS_FILE_CPU names a file to write it to.
    setupFiles: ['test/support/fast-check-seed.ts', 'test/support/file-cpu.ts'],
    // Vitest's default on this 2-core machine is one worker (cores − 1), which runs the files one
    // after another. One worker per core: the suite is CPU-bound (the real programs' own work
    // included), and a third worker only made the two cores share more — clean-clone runs on a quiet
    // machine, 3 workers: vitest 135 s, 243 s user + 45 s sys; 2 workers, five runs: 121–140 s,
    // 205–239 s + 45–50 s. Less CPU, the same wall time within the noise.
    maxWorkers: availableParallelism(),
    // Test files share each worker's module cache instead of importing the package afresh: with 134
    // files, re-importing cost more than the tests (suite 124 s → 80 s wall on this machine). The
    // core is pure and the few spies restore themselves, so no state crosses files.
    isolate: false,
    // One project for every file (`npm test`, CI): its files share the workers and one transform
    // cache (two projects, the everyday files and the integration files, took 6 s more of a 130 s
    // run). `npm run test:unit` runs the everyday files alone, without a build
    // (vitest.unit.config.ts leaves out INTEGRATION_TESTS).
    include: ['test/**/*.test.ts'],
    sequence: { sequencer: LongestFirst },
  },
});
