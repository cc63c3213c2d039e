// Issue #22's measurements (part of `npm run bench`; also on its own):
//
//   node scripts/bench-peer.mjs [--quick] [--runs N] [--bin PATH] [--before PATH] [--only NAME,…]
//
// Whole processes, as a user runs them: each sample is one `/usr/bin/time` (GNU time) around a
// shell loop of K runs of one command, so that CPU time (user + system) and wall time are per run
// with enough resolution for commands of a few milliseconds; max RSS is the largest resident set
// of any run. The two tools' commands alternate sample by sample, and the medians are reported:
// on a shared machine the CPU time and the ratios of alternating runs are the steady figures.
//
// The peer is corefile-tool, the command-line tool of coredns/corefile-migration (the library
// kubeadm and Cluster API migrate Corefiles with). It is measured when the directory named by
// KUBE_DNS_TO_COREDNS_PEERS_DIR holds `corefile-tool-v1.0.31.gz` (or `corefile-tool`); without
// it only our own figures are printed, and the script says so. Nothing in the package or its
// tests needs the peer. `--bin PATH` measures another build's executable (a copy of dist/bundle
// from before a change), to compare two builds under the same load; `--before PATH` runs another
// build's executable too, alternating with this one in the same rounds (the start-up cases), and
// prints both with the ratio after / before.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gunzipSync } from 'node:zlib';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    runs: { type: 'string' },
    bin: { type: 'string' },
    before: { type: 'string' },
    only: { type: 'string' },
  },
});
const quick = values.quick;
const samples = Number(values.runs ?? (quick ? 3 : 7));
const bin = values.bin ?? join(root, 'dist', 'bundle', 'kube-dns-to-coredns.cjs');
const only = values.only === undefined ? undefined : new Set(values.only.split(','));
if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`npm run build\` first`);
const before = values.before;
if (before !== undefined && !existsSync(before)) throw new Error(`--before ${before}: no such executable`);
if (spawnSync('/usr/bin/time', ['-f', '%e', 'true']).status !== 0) throw new Error('GNU time (/usr/bin/time) is needed: it measures CPU time and max RSS of each run');
const work = mkdtempSync(join(tmpdir(), 'kube-dns-bench-peer-'));

/** The peer's executable, unpacked into the work directory, or undefined (with the reason). */
function findPeer() {
  const dir = process.env.KUBE_DNS_TO_COREDNS_PEERS_DIR;
  if (dir === undefined || dir === '') return { reason: 'KUBE_DNS_TO_COREDNS_PEERS_DIR is not set' };
  const packed = join(dir, 'corefile-tool-v1.0.31.gz');
  const plain = join(dir, 'corefile-tool');
  const target = join(work, 'corefile-tool');
  if (existsSync(packed)) writeFileSync(target, gunzipSync(readFileSync(packed)));
  else if (existsSync(plain)) writeFileSync(target, readFileSync(plain));
  else return { reason: `${dir} holds neither corefile-tool-v1.0.31.gz nor corefile-tool` };
  chmodSync(target, 0o755);
  return { path: target };
}

const peer = findPeer();

const shellQuote = (word) => `'${word.replaceAll("'", "'\\''")}'`;

/**
 * One sample: `count` runs of `argv` (stdin from `input` when given, stdout to /dev/null) in one
 * shell loop under GNU time. Per run: wall and CPU seconds; max RSS in MiB over the runs. Every
 * run must exit with `status` (0 by default).
 */
function sample(argv, count, { input, status = 0 } = {}) {
  const command = `${argv.map(shellQuote).join(' ')}${input === undefined ? '' : ` < ${shellQuote(input)}`} > /dev/null`;
  const script = `i=0; while [ $i -lt ${count} ]; do ${command}; s=$?; [ $s -eq ${status} ] || { echo "exit $s" >&2; exit 99; }; i=$((i+1)); done`;
  const result = spawnSync('/usr/bin/time', ['-f', '@@ %e %U %S %M', 'sh', '-c', script], { encoding: 'utf8', maxBuffer: 1 << 26 });
  const line = result.stderr.split('\n').find((text) => text.startsWith('@@ '));
  if (result.status !== 0 || line === undefined) throw new Error(`${argv.join(' ')} failed (status ${result.status}): ${result.stderr.slice(-2000)}`);
  const [, wall, user, system, kilobytes] = line.split(' ').map(Number);
  return { wall: wall / count, cpu: (user + system) / count, rss: kilobytes / 1024 };
}

function median(list) {
  const sorted = [...list].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function medians(list) {
  return { wall: median(list.map((entry) => entry.wall)), cpu: median(list.map((entry) => entry.cpu)), rss: median(list.map((entry) => entry.rss)) };
}

/**
 * Alternating samples of several commands (name → { argv, count, input? }), one warm-up each;
 * the medians per name.
 */
function alternate(commands) {
  const names = Object.keys(commands);
  const taken = Object.fromEntries(names.map((name) => [name, []]));
  for (const name of names) sample(commands[name].argv, 1, commands[name]);
  for (let round = 0; round < samples; round += 1) {
    for (const name of names) taken[name].push(sample(commands[name].argv, commands[name].count, commands[name]));
  }
  return Object.fromEntries(names.map((name) => [name, medians(taken[name])]));
}

const rows = [];
const ms = (seconds) => `${(seconds * 1000).toFixed(seconds < 0.1 ? 1 : 0)} ms`;
const figures = (m) => (m === undefined ? '—' : `${ms(m.cpu)} CPU, ${ms(m.wall)} wall, ${m.rss.toFixed(1)} MiB`);
function record(what, ours, theirs, ratio) {
  rows.push({ what, ours: figures(ours), theirs: figures(theirs), ratio: ratio ?? '' });
  console.error(`  ${what}: ours ${figures(ours)}${theirs === undefined ? '' : `; peer ${figures(theirs)}`}${ratio === undefined ? '' : `; ${ratio}`}`);
}
const times = (a, b) => `${(a / b).toFixed(2)}×`;
const wanted = (name) => only === undefined || only.has(name);

// ── inputs ───────────────────────────────────────────────────────────────────────────────────

/** kubeadm 1.18's default Corefile (CoreDNS 1.6.7), as kubeadm wrote it (golden/migrate has it). */
const kubeadm118 = `${readFileSync(join(root, 'golden', 'migrate', 'kubeadm-default-k8s-1.18.txt'), 'utf8').split('\n## ')[0].split('\n').slice(1).join('\n').trimEnd()}\n`;

/** kubeadm 1.18's default Corefile and `count` stub-domain server blocks of five lines each. */
function withStubBlocks(count) {
  const blocks = Array.from({ length: count }, (_, index) => {
    const address = `10.${(index >> 8) & 255}.${index & 255}.53`;
    return `zone-${index}.team-${index % 97}.corp.example.com:53 {\n    errors\n    cache 30\n    forward . ${address}\n}\n`;
  });
  return kubeadm118 + blocks.join('');
}

/**
 * Cluster `index` of a fleet: kubeadm 1.18's default Corefile with a cluster domain of its own and
 * 0–3 stub-domain blocks (`index % 4`) whose names, addresses and cache TTL are the cluster's own.
 */
function fleetCorefile(index) {
  const teams = ['payments', 'search', 'identity'];
  const net = `10.${(index >> 8) & 255}.${index & 255}`;
  const stubs = Array.from({ length: index % 4 }, (_, stub) => {
    const second = stub === 1 ? ` ${net}.${20 + stub}` : '';
    return `${teams[stub]}.cluster-${index}.corp.example.com:53 {\n    errors\n    cache ${30 + (index % 5) * 15}\n    forward . ${net}.${10 + stub}${second}\n}\n`;
  });
  return kubeadm118.replace('cluster.local', `cluster-${index}.local`) + stubs.join('');
}

/** A kube-dns ConfigMap with `count` stub domains of two nameservers each (as in scripts/bench.mjs). */
function kubeDnsConfigMap(count) {
  const stubs = Array.from({ length: count }, (_, index) => {
    const a = (index >> 8) & 255;
    const b = index & 255;
    return `"zone-${index}.team-${index % 97}.corp.example.com": ["10.${a}.${b}.53", "10.${a}.${b}.54:5353"]`;
  });
  const head = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: kube-dns', '  namespace: kube-system', 'data:'];
  return [...head, '  upstreamNameservers: |', '    ["8.8.8.8", "8.8.4.4"]', '  stubDomains: |', `    {${stubs.join(',\n     ')}}`, ''].join('\n');
}

const file = (name, text) => {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
};
const small = file('kubeadm-1.18.Corefile', kubeadm118);
const large = file('kubeadm-1.18-10000-stubs.Corefile', withStubBlocks(10000));
const quarter = file('kubeadm-1.18-2500-stubs.Corefile', withStubBlocks(2500));
const stubs16k = file('kube-dns-16000-stubs.yaml', kubeDnsConfigMap(16000));
const example = join(root, 'examples', 'kube-dns-configmap.yaml');

const migrateArgs = ['--from', '1.6.7', '--to', '1.11.3'];
const ours = (...args) => [process.execPath, bin, ...args];
const previous = (...args) => [process.execPath, before, ...args];
const theirs = (...args) => [peer.path, ...args];

console.error(`issue #22 benchmarks: node ${process.version}, ${samples} alternating samples per case, load average ${loadavg().map((value) => value.toFixed(1)).join(' ')}`);
console.error(peer.path === undefined ? `  peer not measured: ${peer.reason}` : '  peer: corefile-tool v1.0.31 (coredns/corefile-migration)');

// ── start-up ─────────────────────────────────────────────────────────────────────────────────

const shortRuns = quick ? 5 : 10;
let floor;
if (wanted('startup')) {
  const commands = {
    floor: { argv: [process.execPath, '-e', '0'], count: shortRuns },
    migrate: { argv: ours('migrate', ...migrateArgs, small), count: shortRuns },
    lint: { argv: ours('lint', '--coredns', '1.11.3', small), count: shortRuns },
    translate: { argv: ours(example), count: shortRuns },
    kubeadm: { argv: ours('--kubeadm', '1.17', example), count: shortRuns },
  };
  const cases = ['migrate', 'lint', 'translate', 'kubeadm'];
  if (before !== undefined) for (const name of cases) commands[`before-${name}`] = { ...commands[name], argv: previous(...commands[name].argv.slice(2)) };
  if (peer.path !== undefined) {
    commands.peerFloor = { argv: theirs('--help'), count: shortRuns * 4 };
    commands.peerMigrate = { argv: theirs('migrate', ...migrateArgs, '--corefile', small), count: shortRuns * 4 };
  }
  const m = alternate(commands);
  floor = m.floor;
  const overFloor = (entry) => `+${ms(entry.cpu - floor.cpu)} CPU, +${(entry.rss - floor.rss).toFixed(1)} MiB over \`node -e 0\``;
  // With --before: the other build's figures too, and after / before of the time over the floor.
  const over = (entry) => {
    const name = cases.find((candidate) => m[candidate] === entry);
    const earlier = name === undefined ? undefined : m[`before-${name}`];
    if (earlier === undefined) return overFloor(entry);
    return `${overFloor(entry)} (before: ${figures(earlier)}, ${overFloor(earlier)}; over the floor after / before ${times(entry.cpu - floor.cpu, earlier.cpu - floor.cpu)} CPU)`;
  };
  record('floor: `node -e 0` (peer: `corefile-tool --help`)', m.floor, m.peerFloor);
  record('kubeadm 1.18 default Corefile, migrate 1.6.7 → 1.11.3', m.migrate, m.peerMigrate, `${over(m.migrate)}${m.peerMigrate === undefined ? '' : `; ${times(m.migrate.cpu, m.peerMigrate.cpu)} the peer's CPU`}`);
  record('the same Corefile, `lint --coredns 1.11.3`', m.lint, undefined, over(m.lint));
  record('translation of examples/kube-dns-configmap.yaml (default translator)', m.translate, undefined, over(m.translate));
  record('translation of examples/kube-dns-configmap.yaml (`--kubeadm 1.17`)', m.kubeadm, undefined, over(m.kubeadm));
}

// ── the large Corefile ───────────────────────────────────────────────────────────────────────

if (wanted('large')) {
  const commands = {
    large: { argv: ours('migrate', ...migrateArgs, large), count: 1 },
    quarter: { argv: ours('migrate', ...migrateArgs, quarter), count: 1 },
  };
  if (floor === undefined) commands.floor = { argv: [process.execPath, '-e', '0'], count: shortRuns };
  if (peer.path !== undefined) {
    commands.peerLarge = { argv: theirs('migrate', ...migrateArgs, '--corefile', large), count: 1 };
    commands.peerFloor = { argv: theirs('--help'), count: shortRuns * 4 };
  }
  const m = alternate(commands);
  floor ??= m.floor;
  let ratio = `${((m.large.cpu / 10000) * 1e6).toFixed(0)} µs CPU per block`;
  if (m.peerLarge !== undefined) {
    const mine = m.large.rss - floor.rss;
    const peers = m.peerLarge.rss - m.peerFloor.rss;
    ratio += `; ${times(m.large.cpu, m.peerLarge.cpu)} the peer's CPU; memory above each floor ${mine.toFixed(1)} vs ${peers.toFixed(1)} MiB (${times(mine, peers)})`;
  }
  record('that Corefile + 10,000 stub blocks (50,018 lines), migrate 1.6.7 → 1.11.3', m.large, m.peerLarge, ratio);
  record('… + 2,500 stub blocks: growth ×4 input', m.quarter, undefined, `CPU ${times(m.large.cpu - floor.cpu, m.quarter.cpu - floor.cpu)} (start-up subtracted; linear is 4×)`);
}

// ── the translator against its kubeadm profile ───────────────────────────────────────────────

if (wanted('translate')) {
  const m = alternate({
    translate: { argv: ours(stubs16k), count: 1 },
    kubeadm: { argv: ours('--kubeadm', '1.17', stubs16k), count: 1 },
  });
  record('16,000 stub domains (1.2 MiB ConfigMap): default translator (self-check included)', m.translate, undefined, `${times(m.translate.cpu, m.kubeadm.cpu)} the CPU of \`--kubeadm 1.17\``);
  record('16,000 stub domains: `--kubeadm 1.17`', m.kubeadm);
}

// ── fleets: 1,000 Corefiles in one process ───────────────────────────────────────────────────

if (wanted('batch')) {
  const help = spawnSync(process.execPath, [bin, 'migrate', '--help'], { encoding: 'utf8' }).stdout;
  if (!help.includes('--batch')) {
    console.error('  batch not measured: this build has no `migrate --batch`');
  } else {
    // No two clusters alike, so that nothing kept from one line can answer another: each has its
    // own cluster domain and its own stub domains, addresses and cache TTLs.
    const corefiles = Array.from({ length: 1000 }, (_, index) => fleetCorefile(index));
    if (new Set(corefiles).size !== corefiles.length) throw new Error('the fleet has repeated Corefiles');
    const lines = (fields) => `${corefiles.map((corefile, index) => JSON.stringify({ id: `cluster-${index}`, corefile, ...fields })).join('\n')}\n`;
    const batch = file('batch-1000.jsonl', lines({ from: '1.6.7', to: '1.11.3' }));
    const lintLines = file('lint-batch-1000.jsonl', lines({ coredns: '1.11.3' }));
    const one = file('one-of-1000.Corefile', corefiles[3]);
    const commands = {
      batch: { argv: ours('migrate', '--batch', batch), count: 1 },
      lintBatch: { argv: ours('lint', '--batch', lintLines), count: 1 },
    };
    // 1,000 runs of the peer are one sample (the loop of K runs is what a fleet without batch does).
    if (peer.path !== undefined) commands.peer = { argv: theirs('migrate', ...migrateArgs, '--corefile', one), count: 1000 };
    const m = alternate(commands);
    const perRun = (entry) => (entry === undefined ? undefined : { ...entry, cpu: entry.cpu * 1000, wall: entry.wall * 1000 });
    record('1,000 distinct Corefiles (kubeadm 1.18 + 0–3 stub blocks): `migrate --batch`', m.batch, perRun(m.peer), m.peer === undefined ? undefined : `peer: 1,000 runs; ours ${times(m.peer.wall * 1000, m.batch.wall)} faster (wall), ${times(m.peer.cpu * 1000, m.batch.cpu)} (CPU)`);
    // The peer has no lint: the 1,000 migrate runs are what a fleet without batch pays either way.
    record('the same 1,000: `lint --batch`', m.lintBatch, undefined, m.peer === undefined ? undefined : `${times(m.peer.cpu * 1000, m.lintBatch.cpu)} less CPU than the 1,000 peer runs`);
  }
}

rmSync(work, { recursive: true, force: true });

console.log('| case | ours | corefile-tool | ratio |');
console.log('|---|---|---|---|');
for (const row of rows) console.log(`| ${row.what} | ${row.ours} | ${row.theirs} | ${row.ratio} |`);
