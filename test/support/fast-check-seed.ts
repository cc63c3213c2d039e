import fc from 'fast-check';
import { afterEach } from 'vitest';

/**
 * One fast-check seed for the whole run (vitest setupFiles): random unless the environment gives
 * it, so that every property explores new cases from run to run, and printed with the command that
 * replays it whenever a test fails — a failure on a random seed is reproducible, not luck:
 *
 *   KUBE_DNS_TO_COREDNS_SEED=-1357158159 npx vitest run test/corefile/laws.test.ts
 *
 * fast-check's own message names the seed and path of the failing property too; with this seed
 * every property of the file runs exactly as in the failing run.
 */
const given = process.env['KUBE_DNS_TO_COREDNS_SEED'];
const seed = given === undefined || given === '' ? Math.floor(Math.random() * 0x1_0000_0000) - 0x8000_0000 : Number(given);
if (!Number.isSafeInteger(seed)) throw new Error(`KUBE_DNS_TO_COREDNS_SEED must be an integer, not '${given}'`);
fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });

afterEach((context) => {
  if (context.task.result?.state !== 'fail') return;
  const file = context.task.file.name;
  console.error(`fast-check seed of this run: ${seed}; replay it with KUBE_DNS_TO_COREDNS_SEED=${seed} npx vitest run ${file}`);
});
