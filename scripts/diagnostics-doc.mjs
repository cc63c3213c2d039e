// docs/diagnostics.md is generated from the code registry (src/diagnostics/codes.ts) and the
// reviewed golden case of each code (golden/translate/codes/<code>.yaml + .expected; for the
// linter's codes golden/lint/<code>.Corefile + .expected), so that it lists every code with a real
// example. `node scripts/diagnostics-doc.mjs --write` rewrites it;
// test/docs/diagnostics-doc.test.ts fails when it is out of date.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { lintCaseArgs } from './golden-cases.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function renderDiagnosticsDoc(codes) {
  const hasLint = Object.values(codes).some((entry) => entry.area === 'lint');
  const lines = [
    '# Diagnostics',
    '',
    'Every decision of the default translator — a refusal, a drop, a rewrite, an assumption — is a',
    'diagnostic with a stable code. On the command line they go to stderr, one per line:',
    '',
    '```',
    'severity code key[json path]: message',
    '```',
    '',
    '`--output json` gives each one as `{code, severity, key, path, position?, message, hint}`. An',
    '`error` means no Corefile is written (exit status 1); `warning` and `info` accompany a Corefile.',
    'Codes are a public contract: a code is never renamed or reused.',
    '',
    ...(hasLint
      ? [
          'The linter (`npx kube-dns-to-coredns lint`, see docs/lint.md) reports with the same codes registry. Its',
          'findings go to stdout, one per line, with the location in the Corefile:',
          '',
          '```',
          'severity code Corefile:LINE:COL [BLOCK] DIRECTIVE: message',
          '```',
          '',
          'and its exit status is 1 when one of them is an `error`.',
          '',
        ]
      : []),
    '| code | severity | meaning |',
    '|---|---|---|',
    ...Object.entries(codes).map(([code, entry]) => `| [\`${code}\`](#${code}) | ${entry.severity} | ${entry.summary} |`),
    '',
  ];
  for (const [code, entry] of Object.entries(codes)) {
    if (entry.area === 'lint') {
      lines.push(...lintSection(code, entry));
      continue;
    }
    if (entry.area === 'migrate') {
      lines.push(...migrateSection(code, entry));
      continue;
    }
    if (entry.area === 'platform') {
      lines.push(...platformSection(code, entry));
      continue;
    }
    const input = readFileSync(join(root, 'golden', 'translate', 'codes', `${code}.yaml`), 'utf8');
    const expected = readFileSync(join(root, 'golden', 'translate', 'codes', `${code}.expected`), 'utf8');
    const options = /^# options:(.*)$/m.exec(input)?.[1]?.trim() ?? '';
    const configMap = input.replace(/^#.*\n/gm, '');
    const stderr = shownLocations(expected.slice(expected.indexOf('## stderr\n') + '## stderr\n'.length), code, input);
    const status = /^# exit (\d+)/.exec(expected)?.[1];
    lines.push(
      `## ${code}`,
      '',
      `**${entry.severity}** — ${entry.summary}`,
      '',
      `What to do: ${entry.hint}`,
      '',
      `Example: \`npx kube-dns-to-coredns${options === '' ? '' : ` ${options}`} kube-dns.yaml\` (exit status ${status}) with`,
      '',
      '```yaml',
      configMap.trimEnd(),
      '```',
      '',
      'prints on stderr:',
      '',
      '```',
      stderr.trimEnd(),
      '```',
      '',
    );
  }
  return lines.join('\n');
}

/**
 * The golden case's file locations (`golden/translate/codes/CODE.yaml:LINE:COL`) as the example
 * shows the file: named kube-dns.yaml, its comment lines left out.
 */
function shownLocations(stderr, code, input) {
  const lines = input.split('\n');
  return stderr.replaceAll(new RegExp(`golden/translate/codes/${code}\\.yaml:(\\d+):(\\d+)`, 'g'), (_, line, column) => {
    const removed = lines.slice(0, Number(line) - 1).filter((text) => text.startsWith('#')).length;
    return `kube-dns.yaml:${Number(line) - removed}:${column}`;
  });
}

/** A long output as its first and last lines, with how many were left out between them. */
function elided(text, keep = 6) {
  const lines = text.split('\n');
  if (lines.length <= 2 * keep + 1) return text;
  return [...lines.slice(0, keep), `… (${lines.length - 2 * keep} more lines)`, ...lines.slice(-keep)].join('\n');
}

/** A lint code's section, from golden/lint/<code>.Corefile (first lines `# coredns: X`, `# plugins: LIST`: the arguments) and its .expected run. */
function lintSection(code, entry) {
  const corefile = readFileSync(join(root, 'golden', 'lint', `${code}.Corefile`), 'utf8');
  const expected = readFileSync(join(root, 'golden', 'lint', `${code}.expected`), 'utf8');
  const status = /^# exit (\d+)/.exec(expected)?.[1];
  const stdout = expected.slice(expected.indexOf('## stdout\n') + '## stdout\n'.length, expected.indexOf('## stderr\n'));
  return [
    `## ${code}`,
    '',
    `**${entry.severity}** — ${entry.summary}`,
    '',
    `What to do: ${entry.hint}`,
    '',
    `Example: \`npx kube-dns-to-coredns ${lintCaseArgs(corefile).join(' ')} Corefile\` (exit status ${status}) with`,
    '',
    '```',
    elided(corefile.trimEnd()),
    '```',
    '',
    'prints on stdout:',
    '',
    '```',
    elided(stdout.trimEnd()),
    '```',
    '',
  ];
}

/** A platform code's section, from golden/platform/codes/<code>.yaml (its `# options:` line: the command) and its .expected run. */
function platformSection(code, entry) {
  const input = readFileSync(join(root, 'golden', 'platform', 'codes', `${code}.yaml`), 'utf8');
  const expected = readFileSync(join(root, 'golden', 'platform', 'codes', `${code}.expected`), 'utf8');
  const options = /^# options:(.*)$/m.exec(input)?.[1]?.trim() ?? '';
  const status = /^# exit (\d+)/.exec(expected)?.[1];
  const [head, stderr = ''] = expected.split('## stderr\n');
  const stdout = head.slice(head.indexOf('## stdout\n') + '## stdout\n'.length);
  const example = ['```yaml', elided(input.replace(/^# options:.*\n/m, '').trimEnd()), '```', ''];
  const printed = [
    ['stdout', stdout],
    ['stderr', stderr],
  ].flatMap(([name, text]) => (text.trim() === '' ? [] : [`prints on ${name}:`, '', '```', elided(text.trimEnd()), '```', '']));
  return [`## ${code}`, '', `**${entry.severity}** — ${entry.summary}`, '', `What to do: ${entry.hint}`, '', `Example: \`npx kube-dns-to-coredns ${options} FILE\` (exit status ${status}) with FILE`, '', ...example, ...printed];
}

// The migrate codes: docs/migrate.md shows them at work (`migrate` prints them on stderr).
function migrateSection(code, entry) {
  return [`## ${code}`, '', `**${entry.severity}** — ${entry.summary} (\`migrate\`, see docs/migrate.md)`, '', `What to do: ${entry.hint}`, ''];
}

if (process.argv.includes('--write')) {
  const { DIAGNOSTIC_CODES } = await import(pathToFileURL(join(root, 'dist', 'diagnostics', 'codes.js')).href);
  writeFileSync(join(root, 'docs', 'diagnostics.md'), renderDiagnosticsDoc(DIAGNOSTIC_CODES));
}
