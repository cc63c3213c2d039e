#!/usr/bin/env node
// Benchmark of `migrate` (part of `npm run bench`; run after the build):
//   node scripts/bench-migrate.mjs [--quick]
// 1. one ~10 MB Corefile of proxy-era server blocks migrated 1.3.1 → 1.8.0 (every block changes:
//    proxy → forward, max_concurrent 1000, loop), and the same text migrated 1.8.0 → 1.8.0;
// 2. 10,000 small Corefiles (kubeadm 1.13's default with a stub proxy, each a little different)
//    migrated 1.2.6 → 1.14.7 in one process, one call each.
// Medians of the runs (3 with --quick, else 5), wall-clock and CPU time.
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false } } });
const RUNS = values.quick ? 3 : 5;
const { migrateCorefile } = await import('../dist/migrate/index.js');

function block(index) {
  const comment = index % 10 === 0 ? `# stub domain ${index}\n` : '';
  return `${comment}zone-${String(index).padStart(6, '0')}.example.org:53 {\n    errors\n    cache 30\n    proxy . 10.0.${index % 256}.1 {\n        policy round_robin\n    }\n}\n`;
}

function small(index) {
  return `.:53 {
    errors
    health
    kubernetes cluster${index % 7}.local in-addr.arpa ip6.arpa {
        pods insecure
        upstream
        fallthrough in-addr.arpa ip6.arpa
    }
    prometheus :9153
    proxy . 10.${index % 256}.0.1
    cache 30
    loop
    reload
    loadbalance
}
stub${index}.example.org:53 {
    errors
    cache 30
    proxy . 10.0.0.${index % 250}
}
`;
}

function median(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function measure(action) {
  action();
  const wall = [];
  const cpu = [];
  for (let run = 0; run < RUNS; run += 1) {
    const cpuStart = process.cpuUsage();
    const start = performance.now();
    action();
    wall.push(performance.now() - start);
    const used = process.cpuUsage(cpuStart);
    cpu.push((used.user + used.system) / 1000);
  }
  return `${Math.round(median(wall))} ms (CPU ${Math.round(median(cpu))} ms)`;
}

const blocks = [];
let size = 0;
for (let index = 0; size < 10 * 1024 * 1024; index += 1) {
  const text = block(index);
  blocks.push(text);
  size += text.length + 1;
}
const big = blocks.join('\n');
let bigResult;
const bigTime = measure(() => {
  bigResult = migrateCorefile(big, { from: '1.3.1', to: '1.8.0' });
});
if (!bigResult.ok || !bigResult.changed) throw new Error('the large Corefile did not migrate');
const sameTime = measure(() => migrateCorefile(big, { from: '1.8.0', to: 'v1.8.0' }));

const batch = Array.from({ length: 10_000 }, (_, index) => small(index));
let notices = 0;
const batchTime = measure(() => {
  notices = 0;
  for (const corefile of batch) {
    const result = migrateCorefile(corefile, { from: '1.2.6', to: '1.14.7' });
    if (!result.ok) throw new Error('a batch Corefile was refused');
    notices += result.notices.length;
  }
});

console.log('| measurement | result |');
console.log('|---|---|');
console.log(`| \`migrateCorefile\`, ${(big.length / 1024 / 1024).toFixed(1)} MiB, ${blocks.length.toLocaleString('en')} server blocks, 1.3.1 → 1.8.0 (${bigResult.notices.length.toLocaleString('en')} notices) | ${bigTime} |`);
console.log(`| \`migrateCorefile\`, the same text, 1.8.0 → 1.8.0 (returned as is) | ${sameTime} |`);
console.log(`| \`migrateCorefile\`, 10,000 Corefiles of ${batch[0].length} bytes, 1.2.6 → 1.14.7, one call each (${notices.toLocaleString('en')} notices) | ${batchTime} |`);
