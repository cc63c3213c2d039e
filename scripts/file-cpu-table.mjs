// The CPU time of each test file, most first, from the lines test/support/file-cpu.ts wrote:
//
//   KUBE_DNS_TO_COREDNS_FILE_CPU=/tmp/cpu.jsonl npm test && node scripts/file-cpu-table.mjs /tmp/cpu.jsonl [COUNT]
//
// Columns: CPU in all (seconds), of it in the worker and in child processes, wall time, the file.
import { readFileSync } from 'node:fs';

const [path, count = '40'] = process.argv.slice(2);
if (path === undefined) {
  console.error('usage: node scripts/file-cpu-table.mjs FILE [COUNT]');
  process.exit(2);
}
const rows = readFileSync(path, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line))
  .map((row) => ({ ...row, own: row.user + row.system, children: row.childUser + row.childSystem }))
  .map((row) => ({ ...row, cpu: row.own + row.children }))
  .sort((a, b) => b.cpu - a.cpu);
const total = (key) => rows.reduce((sum, row) => sum + row[key], 0);
const seconds = (value, width) => value.toFixed(1).padStart(width);
console.log(`${rows.length} files: ${total('cpu').toFixed(1)} s CPU (workers ${total('own').toFixed(1)} s: user ${total('user').toFixed(1)}, system ${total('system').toFixed(1)}; child processes ${total('children').toFixed(1)} s)`);
console.log(`${'cpu'.padStart(6)} ${'worker'.padStart(6)} ${'child'.padStart(6)} ${'wall'.padStart(6)}  file`);
for (const row of rows.slice(0, Number(count))) console.log(`${seconds(row.cpu, 6)} ${seconds(row.own, 6)} ${seconds(row.children, 6)} ${seconds(row.wall, 6)}  ${row.file}`);
