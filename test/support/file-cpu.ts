import { appendFileSync, readFileSync } from 'node:fs';
import { afterAll, expect } from 'vitest';

/**
 * The CPU time each test file costs (vitest setupFiles), for the suite's time budget
 * (docs/performance.md, "The time budget"): with KUBE_DNS_TO_COREDNS_FILE_CPU=PATH set, every file
 * appends one JSON line to PATH — its user and system time in the worker and in the child
 * processes it waited for (CoreDNS, dnsmasq, npm, the CLI), and its wall time. On a shared machine
 * the wall time of a file depends on the load; its CPU time much less. `node
 * scripts/file-cpu-table.mjs PATH` sorts and sums the lines. Linux only (/proc/self/stat); unset,
 * it does nothing.
 */
const output = process.env['KUBE_DNS_TO_COREDNS_FILE_CPU'];

/** utime, stime, cutime, cstime of this process, in seconds (proc(5): fields 14-17, in clock ticks of 1/100 s). */
function times(): readonly number[] {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  return stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .slice(11, 15)
    .map((ticks) => Number(ticks) / 100);
}

if (output !== undefined && output !== '') {
  // A setup file runs before its test file is imported: the import is counted too.
  const start = times();
  const started = performance.now();
  afterAll(() => {
    const [user = 0, system = 0, childUser = 0, childSystem = 0] = times().map((value, index) => value - (start[index] ?? 0));
    const file = (expect.getState().testPath ?? '').replace(/^.*?\/(test\/)/, '$1');
    const round = (value: number) => Math.round(value * 100) / 100;
    appendFileSync(output, `${JSON.stringify({ file, user: round(user), system: round(system), childUser: round(childUser), childSystem: round(childSystem), wall: round((performance.now() - started) / 1000) })}\n`);
  });
}
