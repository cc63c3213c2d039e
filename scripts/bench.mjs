// `npm run bench`: measures what the issues set targets for, on the built package (dist/).
// A script, never a timed test: the figures go into docs/performance.md by hand.
//
//   node scripts/bench.mjs [--quick] [--large-inputs-only] [--bin PATH]
//
// It ends with scripts/bench-corefile.mjs, scripts/bench-peer.mjs (issue #22: against the peer
// corefile-tool when KUBE_DNS_TO_COREDNS_PEERS_DIR names the directory holding it) and
// scripts/bench-migrate.mjs, each of which also runs on its own.
//
// --large-inputs-only runs only the large-input shapes (section 7); --bin measures another build's
// executable there (e.g. a copy of dist/ from before a change), so that two builds can be compared
// under the same machine load.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const binOption = process.argv.indexOf('--bin');
const bin = binOption > 0 ? process.argv[binOption + 1] : join(root, 'dist', 'bundle', 'kube-dns-to-coredns.cjs');
const quick = process.argv.includes('--quick');
const largeOnly = process.argv.includes('--large-inputs-only');
const work = mkdtempSync(join(tmpdir(), 'kube-dns-bench-'));

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Wall-clock milliseconds of one run of `node args…`, which must exit 0. */
function timeNode(args, input) {
  const started = process.hrtime.bigint();
  const result = spawnSync(process.execPath, args, { input, maxBuffer: 1 << 30, stdio: ['pipe', 'pipe', 'pipe'] });
  const elapsed = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}: ${result.stderr}`);
  return elapsed;
}

function medianOf(runs, args, input) {
  timeNode(args, input); // warm the file cache
  return median(Array.from({ length: runs }, () => timeNode(args, input)));
}

/** A kube-dns ConfigMap with `count` stub domains of two nameservers each (~64 bytes per domain). */
function kubeDnsConfigMap(count) {
  const stubs = Array.from({ length: count }, (_, index) => {
    const a = (index >> 8) & 255;
    const b = index & 255;
    return `"zone-${index}.team-${index % 97}.corp.example.com": ["10.${a}.${b}.53", "10.${a}.${b}.54:5353"]`;
  });
  return [
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    '  name: kube-dns',
    '  namespace: kube-system',
    'data:',
    '  upstreamNameservers: |',
    '    ["8.8.8.8", "8.8.4.4"]',
    '  stubDomains: |',
    `    {${stubs.join(',\n     ')}}`,
    '',
  ].join('\n');
}

const rows = [];
function record(what, value, target) {
  rows.push({ what, value, target });
  console.error(`  ${what}: ${value}`);
}

console.error(`kube-dns-to-coredns benchmarks (node ${process.version}, ${quick ? 'quick' : 'full'} run)`);
if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`npm run build\` first`);
const runs = quick ? 5 : 15;

/**
 * 7. Large inputs just under the CLI's 32 MiB limit (issue 10), through the default translator:
 * wall time, CPU time (user + system, all threads) and peak resident memory of one run each, at
 * full size and at a quarter of it (the growth ratio shows whether the cost is linear: 4× is).
 * One value per line would push some shapes over 32 MiB, so each value is one line of JSON.
 */
function largeInputShapes(scale) {
  const configMap = (key, value) => ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: kube-dns', '  namespace: kube-system', 'data:', `  ${key}: |`, `    ${value}`, ''].join('\n');
  const list = (count, item) => Array.from({ length: Math.round(count * scale) }, (_, index) => item(index)).join(',');
  return [
    ['1.2 M copies of one stub domain key', configMap('stubDomains', `{${list(1.2e6, () => '"a.example":["1.2.3.4"]')}}`)],
    ['2.5 M upstream nameservers', configMap('upstreamNameservers', `[${list(2.5e6, () => '"8.8.8.8"')}]`)],
    ['one stub domain with 2 M nameservers', configMap('stubDomains', `{"a.example":[${list(2e6, (index) => `"10.0.${(index >> 8) & 255}.${index & 255}"`)}]}`)],
    ['700 k valid stub domains', configMap('stubDomains', `{${list(7e5, (index) => `"z${index}.example.com":["10.${(index >> 8) & 255}.${index & 255}.53"]`)}}`)],
  ];
}

function largeInputs() {
  const gnu = spawnSync('/usr/bin/time', ['-f', '%e', process.execPath, '-e', '0'], { encoding: 'utf8' }).status === 0;
  const scales = quick ? [1 / 16, 1 / 4] : [1 / 4, 1];
  const measured = new Map();
  for (const scale of scales) {
    for (const [what, text] of largeInputShapes(scale)) {
      const file = join(work, 'large.yaml');
      writeFileSync(file, text);
      const started = process.hrtime.bigint();
      const result = gnu
        ? spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', process.execPath, bin, file], { encoding: 'utf8', maxBuffer: 1 << 30 })
        : spawnSync(process.execPath, [bin, file], { encoding: 'utf8', maxBuffer: 1 << 30 });
      const wall = Number(process.hrtime.bigint() - started) / 1e9;
      const [, user = 'NaN', system = 'NaN', kilobytes = 'NaN'] = gnu ? (result.stderr.trim().split('\n').at(-1)?.split(' ') ?? []) : [];
      const cpu = Number(user) + Number(system);
      const peak = Number(kilobytes) / 1024;
      measured.set(`${what}@${scale}`, { wall, cpu, peak });
      const size = `${(Buffer.byteLength(text) / 1048576).toFixed(1)} MiB`;
      record(`large input, ${what}${scale === 1 ? '' : ` × ${scale}`} (${size}) → exit ${result.status}`, `${wall.toFixed(2)} s wall, ${cpu.toFixed(2)} s CPU, peak ${peak.toFixed(0)} MiB`, 'linear, small constant');
    }
  }
  const [small, full] = scales;
  for (const [what] of largeInputShapes(0)) {
    const a = measured.get(`${what}@${small}`);
    const b = measured.get(`${what}@${full}`);
    record(`growth ×4 input, ${what}`, `CPU ${(b.cpu / a.cpu).toFixed(2)}×, memory ${(b.peak / a.peak).toFixed(2)}×`, '≤ 4× (linear)');
  }
}

function printTable() {
  console.log('| measurement | result | target |');
  console.log('|---|---|---|');
  for (const row of rows) console.log(`| ${row.what} | ${row.value} | ${row.target} |`);
}

if (largeOnly) {
  largeInputs();
  rmSync(work, { recursive: true, force: true });
  printTable();
  process.exit(0);
}

// 1. Start-up: a normal ConfigMap through the CLI against bare `node -e 0`.
const example = join(root, 'examples', 'kube-dns-configmap.yaml');
const bare = medianOf(runs * 2, ['-e', '0']);
const startup = medianOf(runs * 2, [bin, '--kubeadm', '1.17', example]);
record('`node -e 0` (median)', `${bare.toFixed(1)} ms`, '');
record('CLI `--kubeadm 1.17` on the bundled example (median)', `${startup.toFixed(1)} ms (+${(startup - bare).toFixed(1)} ms)`, '≤ +40 ms over `node -e 0`');
const startupDefault = medianOf(runs * 2, [bin, example]);
record('CLI default translator on the bundled example (median)', `${startupDefault.toFixed(1)} ms (+${(startupDefault - bare).toFixed(1)} ms)`, '');

// 2. A 1 MiB ConfigMap (~16,000 stub domains) through the CLI, and linearity against 4,000.
const sizes = [4000, 16000];
const timings = {};
for (const count of sizes) {
  const file = join(work, `kube-dns-${count}.yaml`);
  writeFileSync(file, kubeDnsConfigMap(count));
  const bytes = readFileSync(file).length;
  timings[count] = medianOf(quick ? 3 : 7, [bin, '--kubeadm', '1.17', file]);
  record(`CLI, ${count.toLocaleString('en')} stub domains (${(bytes / 1048576).toFixed(2)} MiB)`, `${timings[count].toFixed(0)} ms`, count === 16000 ? '< 500 ms' : '');
}
const ratio = (timings[16000] - bare) / (timings[4000] - bare);
record('growth 16k / 4k (start-up subtracted)', `${ratio.toFixed(2)}×`, '≤ 5× (linear is 4×)');

// 3. --batch over 20,000 reference-corpus cases.
const corpus = readFileSync(join(root, 'golden', 'kubeadm-oracle', 'cases.jsonl'), 'utf8').trimEnd().split('\n');
const batchLines = Array.from({ length: 20000 }, (_, index) => corpus[index % corpus.length]);
const batchFile = join(work, 'batch.jsonl');
writeFileSync(batchFile, `${batchLines.join('\n')}\n`);
for (const profile of ['1.10', '1.19']) {
  const batch = medianOf(quick ? 3 : 5, [bin, '--kubeadm', profile, '--batch', batchFile]);
  record(`--batch, 20,000 corpus cases, kubeadm ${profile}`, `${batch.toFixed(0)} ms`, '< 3 s');
}

// 4. In-process throughput of the library (no start-up, no I/O).
const { translateLikeKubeadm, readConfigMap } = await import(pathToFileURL(join(root, 'dist', 'index.js')).href);
const big = readConfigMap(kubeDnsConfigMap(16000)).data;
const inProcess = median(Array.from({ length: runs }, () => {
  const started = performance.now();
  translateLikeKubeadm('1.17', big, 'cluster.local');
  return performance.now() - started;
}));
record('library `translateLikeKubeadm`, 16,000 stub domains, in process (median)', `${inProcess.toFixed(1)} ms`, '');

const { checkRouting, translateKubeDns } = await import(pathToFileURL(join(root, 'dist', 'index.js')).href);
const thousand = readConfigMap(kubeDnsConfigMap(1000)).data;
const translatedThousand = translateKubeDns(thousand).corefile;
const checkTime = median(Array.from({ length: runs }, () => {
  const started = performance.now();
  checkRouting({ kubeDns: thousand, corefile: translatedThousand });
  return performance.now() - started;
}));
record('library `checkRouting`, 1,000 stub domains, in process (median)', `${checkTime.toFixed(1)} ms`, '');
const defaultTime = median(Array.from({ length: runs }, () => {
  const started = performance.now();
  translateKubeDns(big);
  return performance.now() - started;
}));
record('library `translateKubeDns`, 16,000 stub domains, in process (median)', `${defaultTime.toFixed(1)} ms`, '');

// 4b. The whole kube-dns install: reading a Deployment (the stock manifest, several documents) and
// translating it, in process and through the CLI.
const { readKubeDnsInstall, translateKubeDnsInstall } = await import(pathToFileURL(join(root, 'dist', 'index.js')).href);
const installFile = join(root, 'golden', 'deployment', 'kubernetes-1.25-kube-dns-1.22.20.yaml');
const installText = readFileSync(installFile, 'utf8');
const readInstall = median(Array.from({ length: runs * 10 }, () => {
  const started = performance.now();
  readKubeDnsInstall([{ text: installText }]);
  return performance.now() - started;
}));
record('library `readKubeDnsInstall`, stock kube-dns manifest (Deployment, Service, ConfigMap), in process (median)', `${readInstall.toFixed(2)} ms`, '');
const translateInstall = median(Array.from({ length: runs * 10 }, () => {
  const started = performance.now();
  translateKubeDnsInstall(readKubeDnsInstall([{ text: installText }]));
  return performance.now() - started;
}));
record('library read + `translateKubeDnsInstall`, the same, in process (median)', `${translateInstall.toFixed(2)} ms`, '');
const startupInstall = medianOf(runs * 2, [bin, installFile]);
record('CLI default translator on the stock kube-dns manifest (median)', `${startupInstall.toFixed(1)} ms (+${(startupInstall - bare).toFixed(1)} ms)`, '');

// 5. Hostile inputs: how long until the error, and the peak memory of the process (GNU time).
const gnuTime = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, '-e', '0'], { encoding: 'utf8' });
if (gnuTime.status === 0) {
  const hugeFile = join(work, 'huge.yaml');
  writeFileSync(hugeFile, 'a: b\n'.repeat(20 * 1024 * 1024));
  const bombLines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let level = 1; level < 40; level += 1) bombLines.push(`k${level}: &k${level} [${Array(9).fill(level === 1 ? '*a' : `*k${level - 1}`).join(',')}]`);
  const bombFile = join(work, 'bomb.yaml');
  writeFileSync(bombFile, bombLines.join('\n'));
  const deepFile = join(work, 'deep.yaml');
  writeFileSync(deepFile, `data: ${'['.repeat(200000)}${']'.repeat(200000)}\n`);
  for (const [what, file] of [['100 MiB file', hugeFile], ['alias bomb (9^40 leaves)', bombFile], ['200,000-deep nesting', deepFile]]) {
    const result = spawnSync('/usr/bin/time', ['-f', '%e %M', process.execPath, bin, file], { encoding: 'utf8' });
    const [seconds = '', kilobytes = ''] = result.stderr.trim().split('\n').at(-1)?.split(' ') ?? [];
    record(`hostile input: ${what} → exit ${result.status}`, `${Math.round(Number(seconds) * 1000)} ms, peak ${Math.round(Number(kilobytes) / 1024)} MiB`, 'an error within 1 s, bounded memory');
  }
}

// 6. Start-up in instructions (valgrind, when installed): unlike wall time, the count does not
// depend on what else the machine is doing.
const valgrind = spawnSync('valgrind', ['--version'], { encoding: 'utf8' });
if (valgrind.status === 0 && !quick) {
  const count = (args) => {
    const out = join(work, 'callgrind.out');
    const result = spawnSync('valgrind', ['--tool=callgrind', `--callgrind-out-file=${out}`, process.execPath, ...args], { encoding: 'utf8', cwd: root });
    return Number(/Collected : (\d+)/.exec(result.stderr)?.[1] ?? Number.NaN) / 1e6;
  };
  const base = count(['-e', '0']);
  record('`node -e 0`, instructions', `${base.toFixed(0)} M`, '');
  for (const [what, args] of [
    ['CLI `--kubeadm 1.17` on the example, instructions', [bin, '--kubeadm', '1.17', example]],
    ['CLI default translator on the example, instructions', [bin, example]],
  ]) {
    const instructions = count(args);
    record(what, `${instructions.toFixed(0)} M (+${(instructions - base).toFixed(0)} M)`, '');
  }
}

largeInputs();

rmSync(work, { recursive: true, force: true });

printTable();

const corefileBench = join(root, 'scripts', 'bench-corefile.mjs');
if (existsSync(corefileBench) && existsSync(join(root, 'dist', 'corefile', 'index.js'))) {
  console.log('');
  spawnSync(process.execPath, [corefileBench, ...(quick ? ['--quick'] : [])], { stdio: 'inherit' });
}

// Issue #22: whole processes against the peer corefile-tool (when KUBE_DNS_TO_COREDNS_PEERS_DIR
// names a directory holding it), start-up over `node -e 0`, the 16k-stub translation and batches.
console.log('');
spawnSync(process.execPath, [join(root, 'scripts', 'bench-peer.mjs'), ...(quick ? ['--quick'] : [])], { stdio: 'inherit' });

const migrateBench = join(root, 'scripts', 'bench-migrate.mjs');
if (existsSync(join(root, 'dist', 'migrate', 'index.js'))) {
  console.log('');
  spawnSync(process.execPath, [migrateBench, ...(quick ? ['--quick'] : [])], { stdio: 'inherit' });
}
