// The golden cases of the CLI (shared by scripts/update-golden.mjs and test/cli/golden.test.ts):
// for every case, the arguments, the input file and the file that holds the expected result.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const TARGET_VERSIONS = ['1.0.4', '1.6.9', '1.14.7'];

/** @returns {{ name: string, args: string[], input: string, expected: string }[]} */
export function goldenCases(root) {
  const cases = [];
  const codes = join(root, 'golden', 'translate', 'codes');
  for (const file of readdirSync(codes).filter((name) => name.endsWith('.yaml')).sort()) {
    const input = join(codes, file);
    const options = /^# options:(.*)$/m.exec(readFileSync(input, 'utf8'))?.[1]?.trim() ?? '';
    cases.push({ name: `codes/${file}`, args: options === '' ? [] : options.split(/\s+/), input, expected: input.replace(/\.yaml$/, '.expected') });
  }
  const realworld = join(root, 'golden', 'realworld', 'kube-dns');
  const results = join(root, 'golden', 'translate', 'realworld');
  for (const file of readdirSync(realworld).filter((name) => name.endsWith('.yaml')).sort()) {
    for (const version of TARGET_VERSIONS) {
      const stem = file.replace(/\.yaml$/, '');
      cases.push({ name: `realworld/${stem} @${version}`, args: ['--coredns', version], input: join(realworld, file), expected: join(results, stem, `coredns-${version}.expected`) });
    }
  }
  return cases;
}

/** The reviewed form of one CLI run. */
export function describeRun(status, stdout, stderr) {
  return `# exit ${status}\n## stdout\n${stdout}## stderr\n${stderr}`;
}
