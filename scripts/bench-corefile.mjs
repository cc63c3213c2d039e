#!/usr/bin/env node
// Benchmark of the Corefile model: scan, parse and print a ~10 MB Corefile of 100,000 server
// blocks, and check that time grows linearly with size. Run after `npx tsc -p tsconfig.build.json`:
//   node scripts/bench-corefile.mjs [--blocks N] [--runs N] [--quick]   (--quick: 3 runs instead of 7)
// Every measurement runs in a fresh Node process (one warm-up call, then the median of the runs),
// so that one stage's heap does not slow down the next. Wall-clock and CPU time (user + system)
// are reported: on a shared machine the CPU time is the steadier figure.
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: { blocks: { type: 'string', default: '100000' }, runs: { type: 'string' }, stage: { type: 'string' }, quick: { type: 'boolean', default: false } },
});
const BLOCKS = Number(values.blocks);
const RUNS = Number(values.runs ?? (values.quick ? 3 : 7));

/** One realistic server block (~110 bytes): a stub domain with a nested block, now and then comments and quotes. */
function block(index) {
  const zone = `zone-${String(index).padStart(6, '0')}.example.org:53`;
  const comment = index % 10 === 0 ? `# stub domain ${index}\n` : '';
  const quoted = index % 7 === 0 ? ' "a b"' : '';
  return `${comment}${zone} {\n    errors\n    cache 30${quoted}\n    forward . 10.0.${index % 256}.1 {\n        max_concurrent 1000\n    }\n}\n`;
}

function corefileOf(blocks) {
  const parts = new Array(blocks);
  for (let index = 0; index < blocks; index += 1) parts[index] = block(index);
  return parts.join('\n');
}

function median(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** In a child process: time one stage and print `{ wall, cpu }` as JSON. */
async function runStage(stage) {
  const { parseCorefile, printCorefile } = await import('../dist/corefile/index.js');
  const { Scanner } = await import('../dist/corefile/lexer.js');
  const text = corefileOf(BLOCKS);
  const parsed = parseCorefile(text).corefile;
  const printed = printCorefile(parsed);
  if (printCorefile(parseCorefile(printed).corefile) !== printed) throw new Error('print is not idempotent on the benchmark input');
  const actions = {
    scan: () => {
      const scanner = new Scanner(text, 'bench');
      while (scanner.next());
    },
    parse: () => parseCorefile(text),
    print: () => printCorefile(parsed),
    both: () => printCorefile(parseCorefile(text).corefile),
  };
  const action = actions[stage];
  action();
  const wall = [];
  const cpu = [];
  for (let run = 0; run < RUNS; run += 1) {
    const cpuStart = process.cpuUsage();
    const started = process.hrtime.bigint();
    action();
    wall.push(Number(process.hrtime.bigint() - started) / 1e6);
    const used = process.cpuUsage(cpuStart);
    cpu.push((used.user + used.system) / 1000);
  }
  process.stdout.write(JSON.stringify({ wall: median(wall), cpu: median(cpu), bytes: text.length }));
}

function measure(stage, blocks) {
  const output = execFileSync(process.execPath, [fileURLToPath(import.meta.url), '--stage', stage, '--blocks', String(blocks), '--runs', String(RUNS)], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(output);
}

if (values.stage !== undefined) {
  await runStage(values.stage);
} else {
  const rows = [
    ['scan (lexer only)', measure('scan', BLOCKS)],
    ['parse (scan + parse)', measure('parse', BLOCKS)],
    ['print', measure('print', BLOCKS)],
    ['parse + print', measure('both', BLOCKS)],
  ];
  const mib = rows[0][1].bytes / (1024 * 1024);
  console.log(`Corefile: ${BLOCKS.toLocaleString('en')} server blocks, ${mib.toFixed(1)} MiB; median of ${RUNS} runs after a warm-up, one process per row`);
  console.log(`Node ${process.version}, load average at start ${loadavg().map((load) => load.toFixed(2)).join(' ')}\n`);
  console.log('| stage | wall ms | CPU ms | MiB/s (wall) |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const [stage, { wall, cpu }] of rows) console.log(`| ${stage} | ${wall.toFixed(0)} | ${cpu.toFixed(0)} | ${(mib / (wall / 1000)).toFixed(1)} |`);

  // Linearity: the time per block must not grow with the number of blocks.
  const sizes = [4000, 16000, 64000];
  const times = sizes.map((size) => measure('both', size));
  console.log('\n| parse + print of | wall ms | CPU ms | µs per block (CPU) | CPU ratio to previous (linear ≈ 4) |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  sizes.forEach((size, index) => {
    const previous = times[index - 1];
    const ratio = previous === undefined ? '' : (times[index].cpu / previous.cpu).toFixed(2);
    console.log(`| ${size.toLocaleString('en')} blocks | ${times[index].wall.toFixed(0)} | ${times[index].cpu.toFixed(0)} | ${((times[index].cpu * 1000) / size).toFixed(1)} | ${ratio} |`);
  });
}
