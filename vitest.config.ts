import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    // Vitest's default on this 2-core machine is one worker (cores − 1), which runs the files one
    // after another. Several files mostly wait on real programs (CoreDNS, dnsmasq, Chromium,
    // npm), so one worker more than there are cores keeps both cores busy while they wait.
    maxWorkers: availableParallelism() + 1,
    // Test files share each worker's module cache instead of importing the package afresh: with 134
    // files, re-importing cost more than the tests (suite 124 s → 80 s wall on this machine). The
    // core is pure and the few spies restore themselves, so no state crosses files.
    isolate: false,
  },
});
