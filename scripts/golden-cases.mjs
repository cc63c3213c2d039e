// The golden files that are written from the code (shared by scripts/update-golden.mjs, which
// writes them, and the tests, which only compare): the CLI cases (arguments, input file, file
// holding the expected result) and the lint report of the real-world Corefiles.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const TARGET_VERSIONS = ['1.0.4', '1.2.6', '1.6.9', '1.14.7'];

/** node-cache releases with a golden run each: every behaviour change, the template switch, either side of the gate, the last before and the first with timeouts (CoreDNS 1.13.2). */
export const NODE_LOCAL_RELEASES = ['1.15.6', '1.15.7', '1.15.13', '1.15.14', '1.22.9', '1.22.10', '1.26.7', '1.26.8'];
/** Real-world kube-dns ConfigMaps run through node-cache too. */
const NODE_LOCAL_REALWORLD = ['01-k8s-docs-acme-stub-and-upstream.yaml', '02-k8s-docs-consul-stub-only.yaml', '26-issue-dns-539-hostname-as-stub-server.yaml'];
/** iptables mode, as the Kubernetes documentation installs it: the link-local IP and the kube-dns ClusterIP. */
const NODE_LOCAL_IPTABLES = ['--local-ip', '169.254.20.10,10.96.0.10', '--upstream-ip', '10.96.0.20'];
/** Before `disable denial` (1.9.4) and the newest. */
const DEPLOYMENT_TARGET_VERSIONS = ['1.8.0', '1.14.7'];

/**
 * Releases on both sides of each change the install follows: kubeadm's manifest eras (1.3.1, 1.6.7,
 * 1.7.0, 1.8.0, 1.9.3, 1.12.1), `ready` (1.5.0), the plugin's Endpoints / EndpointSlices (1.8.1,
 * 1.11.0).
 */
const INSTALL_RELEASES = ['1.2.6', '1.3.1', '1.4.0', '1.5.0', '1.6.5', '1.6.7', '1.6.9', '1.7.0', '1.8.0', '1.8.1', '1.8.7', '1.9.3', '1.10.1', '1.11.0', '1.12.0', '1.12.1', '1.14.7'];
/** The other installs: the old image path and Endpoints, and the newest. */
const INSTALL_SAMPLE_RELEASES = ['1.8.0', '1.14.7'];

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
  // node-local-dns: what each node-cache release writes after the bundled template (docs/node-local-dns.md).
  const nodeLocal = join(root, 'golden', 'node-local-dns');
  const nodeLocalInputs = [
    ...NODE_LOCAL_REALWORLD.map((file) => ({ input: join(realworld, file), options: NODE_LOCAL_IPTABLES })),
    ...readdirSync(join(nodeLocal, 'cases'))
      .filter((name) => name.endsWith('.yaml'))
      .sort()
      .map((file) => {
        const input = join(nodeLocal, 'cases', file);
        return { input, options: /^# options:(.*)$/m.exec(readFileSync(input, 'utf8'))?.[1]?.trim().split(/\s+/) ?? NODE_LOCAL_IPTABLES };
      }),
  ];
  for (const { input, options } of nodeLocalInputs) {
    const stem = input.slice(input.lastIndexOf('/') + 1).replace(/\.yaml$/, '');
    for (const release of NODE_LOCAL_RELEASES) {
      cases.push({ name: `node-local-dns/${stem} @${release}`, args: ['--node-local-dns', release, ...options], input, expected: join(nodeLocal, stem, `node-cache-${release}.expected`) });
    }
  }
  // Whole kube-dns installs (Deployment, Service, ConfigMap): stock manifests and distributions'.
  const deployments = join(root, 'golden', 'deployment');
  for (const file of readdirSync(deployments).filter((name) => name.endsWith('.yaml')).sort()) {
    for (const version of DEPLOYMENT_TARGET_VERSIONS) {
      const stem = file.replace(/\.yaml$/, '');
      cases.push({ name: `deployment/${stem} @${version}`, args: ['--coredns', version], input: join(deployments, file), expected: join(deployments, stem, `coredns-${version}.expected`) });
    }
  }
  // Platforms (docs/platforms.md): ConfigMaps written back, coredns-custom overlays. Each case's
  // first `# options:` line holds the whole command line before FILE.
  const platform = join(root, 'golden', 'platform');
  for (const file of readdirSync(platform, { recursive: true }).filter((name) => name.endsWith('.yaml')).sort()) {
    const input = join(platform, file);
    const options = /^# options:(.*)$/m.exec(readFileSync(input, 'utf8'))?.[1]?.trim() ?? '';
    cases.push({ name: `platform/${file}`, args: options === '' ? [] : options.split(/\s+/), input, expected: input.replace(/\.yaml$/, '.expected') });
  }
  // -o install: the whole CoreDNS install (docs/migration-guide.md), on both sides of every change it follows.
  const installs = join(root, 'golden', 'install');
  const installInputs = [
    ...readdirSync(installs).filter((name) => name.endsWith('.yaml')).sort().map((file) => join(installs, file)),
    ...readdirSync(deployments).filter((name) => name.endsWith('.yaml')).sort().map((file) => join(deployments, file)),
  ];
  for (const input of installInputs) {
    const stem = input.slice(input.lastIndexOf('/') + 1).replace(/\.yaml$/, '');
    const stock = stem === 'stock-kube-dns-1.22.20';
    for (const version of stock ? INSTALL_RELEASES : INSTALL_SAMPLE_RELEASES) {
      cases.push({ name: `install/${stem} @${version}`, args: ['--coredns', version, '-o', 'install'], input, expected: join(installs, stem, `coredns-${version}.expected`) });
    }
  }
  // cutover: the plan for the stock install, in each format.
  const stockInstall = join(installs, 'stock-kube-dns-1.22.20.yaml');
  for (const format of ['text', 'json', 'script']) {
    cases.push({ name: `cutover/stock-kube-dns-1.22.20 -o ${format}`, args: ['cutover', '--coredns', '1.14.7', '-o', format], input: stockInstall, expected: join(installs, 'stock-kube-dns-1.22.20', `cutover-1.14.7-${format}.expected`) });
  }
  const lint = join(root, 'golden', 'lint');
  for (const file of readdirSync(lint).filter((name) => name.endsWith('.Corefile')).sort()) {
    const input = join(lint, file);
    cases.push({ name: `lint/${file}`, args: lintCaseArgs(readFileSync(input, 'utf8')), input, expected: input.replace(/\.Corefile$/, '.expected') });
  }
  return cases;
}

/**
 * The `lint` arguments of a golden lint case, from its first comment lines: `# coredns: X` when it
 * is not linted against the newest release, `# plugins: NAME,NAME` for a custom build.
 */
export function lintCaseArgs(text) {
  const version = /^# coredns: (\S+)/m.exec(text)?.[1];
  const plugins = /^# plugins: (\S+)/m.exec(text)?.[1];
  return ['lint', ...(version === undefined ? [] : ['--coredns', version]), ...(plugins === undefined ? [] : ['--plugins', plugins])];
}

/** The CoreDNS releases the real-world Corefiles are linted against (proxy era, last with federation, newest). */
export const REALWORLD_LINT_VERSIONS = ['1.2.6', '1.6.7', '1.14.7'];

/**
 * The reviewed lint report of every golden/realworld/corefiles file against CoreDNS `version`
 * (golden/lint/realworld/coredns-VERSION.txt). `library` is the package's exports, from src/ in
 * the tests and from dist/ in the update script.
 */
export function realworldLintReport(root, version, library) {
  const { CorefileSyntaxError, formatDiagnostic, lintCorefile } = library;
  const corefiles = join(root, 'golden', 'realworld', 'corefiles');
  const sections = [];
  for (const file of readdirSync(corefiles).filter((name) => name.endsWith('.Corefile')).sort()) {
    const text = readFileSync(join(corefiles, file), 'utf8');
    try {
      const result = lintCorefile(text, { coredns: version });
      const body = result.diagnostics.map((entry) => `${formatDiagnostic(entry)}\n`).join('');
      sections.push(`## ${file} (${result.ok ? 'ok' : 'errors'})\n${body}`);
    } catch (error) {
      if (!(error instanceof CorefileSyntaxError)) throw error;
      sections.push(`## ${file} (syntax error)\n${error.message}\n`);
    }
  }
  return `# kube-dns-to-coredns lint --coredns ${version}, every golden/realworld/corefiles file\n${sections.join('')}`;
}

/** Where {@link realworldLintReport} is kept for `version`. */
export function realworldLintReportPath(root, version) {
  return join(root, 'golden', 'lint', 'realworld', `coredns-${version}.txt`);
}

/** The reviewed form of one CLI run. */
export function describeRun(status, stdout, stderr) {
  return `# exit ${status}\n## stdout\n${stdout}## stderr\n${stderr}`;
}
