// The golden files of `migrate` (shared by scripts/update-golden.mjs, which writes them, and
// test/migrate/golden.test.ts, which only compares): kubeadm's default Corefile of every
// Kubernetes release 1.11–1.20 migrated to every later CoreDNS release kubeadm shipped, and the
// real-world Corefiles migrated to the newest release.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The CoreDNS releases kubeadm installed, oldest first, as coredns/deployment's "CoreDNS version
 * in Kubernetes" table (kubernetes/CoreDNS-k8s_version.md, January 2025) records them: 1.1.3
 * (Kubernetes 1.11) to 1.8.6 (1.23, 1.24), 1.9.3 (1.25, 1.26), 1.10.1 (1.27, 1.28), 1.11.1
 * (1.29, 1.30), 1.11.3 (1.31, 1.32); then 1.12.0, kubeadm's `CoreDNSVersion` constant of
 * Kubernetes 1.33, which that table predates.
 */
export const KUBEADM_COREDNS_RELEASES = ['1.1.3', '1.2.2', '1.2.6', '1.3.1', '1.6.2', '1.6.5', '1.6.7', '1.7.0', '1.8.0', '1.8.4', '1.8.6', '1.9.3', '1.10.1', '1.11.1', '1.11.3', '1.12.0'];

/** The Kubernetes releases whose kubeadm default Corefile is migrated. */
export const MIGRATED_KUBERNETES_RELEASES = ['1.11', '1.12', '1.13', '1.14', '1.15', '1.16', '1.17', '1.18', '1.19', '1.20'];


function renderDirectives(directives, indent) {
  return directives.flatMap((directive) => {
    const head = `${indent}${[directive.name, ...directive.args].join(' ')}`;
    if (directive.block === undefined) return [head];
    return [`${head} {`, ...renderDirectives(directive.block, `${indent}    `), `${indent}}`];
  });
}

/** kubeadm's default Corefile for a Kubernetes release (cluster.local, /etc/resolv.conf), as kubeadm wrote it. */
export function kubeadmDefaultCorefile(kubernetes, library) {
  const release = library.KUBERNETES_COREDNS_RELEASES.find((entry) => entry.kubernetes === kubernetes);
  const block = library.kubernetesDefaultMainBlock(release.coredns, { clusterDomain: 'cluster.local', upstreams: ['/etc/resolv.conf'] });
  return { coredns: release.coredns, corefile: `${block.keys.join(' ')} {\n${renderDirectives(block.directives, '    ').join('\n')}\n}\n` };
}

function section(title, result, formatDiagnostic) {
  const notices = result.notices.filter((notice) => notice.code !== 'migrate-release-resolved').map((notice) => `${formatDiagnostic(notice)}\n`);
  const body = result.ok ? (result.changed ? result.corefile : '(unchanged)\n') : '(refused)\n';
  return `## ${title}: ${result.ok ? (result.changed ? 'migrated' : 'unchanged') : 'refused'}\n${body}### notices\n${notices.join('') || '(none)\n'}`;
}

/**
 * Every migrate golden file: path (relative to the root) → content. `library` holds
 * `migrateCorefile`, `formatDiagnostic`, `lintCorefile`, `kubernetesDefaultMainBlock`,
 * `KUBERNETES_COREDNS_RELEASES` (from src/ in the tests, dist/ in the update script).
 */
export function migrateGoldenFiles(root, library) {
  /** The release the real-world Corefiles are migrated to: the newest the library knows. */
  const NEWEST = library.NEWEST_COREDNS_VERSION;
  const files = new Map();
  for (const kubernetes of MIGRATED_KUBERNETES_RELEASES) {
    const { coredns, corefile } = kubeadmDefaultCorefile(kubernetes, library);
    const later = KUBEADM_COREDNS_RELEASES.filter((version) => library.compareCoreDnsVersions(version, coredns) > 0);
    const sections = later.map((to) => section(`CoreDNS ${coredns} → ${to}`, library.migrateCorefile(corefile, { from: coredns, to }), library.formatDiagnostic));
    files.set(`golden/migrate/kubeadm-default-k8s-${kubernetes}.txt`, `# kubeadm ${kubernetes} default Corefile (CoreDNS ${coredns})\n${corefile}\n${sections.join('\n')}`);
  }
  const corefiles = join(root, 'golden', 'realworld', 'corefiles');
  const sections = [];
  for (const file of readdirSync(corefiles).filter((name) => name.endsWith('.Corefile')).sort()) {
    const text = readFileSync(join(corefiles, file), 'utf8');
    let from;
    try {
      from = KUBEADM_COREDNS_RELEASES.find((version) => library.lintCorefile(text, { coredns: version }).ok);
    } catch (error) {
      if (!(error instanceof library.CorefileSyntaxError)) throw error;
      sections.push(`## ${file}: syntax error\n${error.message}\n`);
      continue;
    }
    if (from === undefined) {
      sections.push(`## ${file}: not migrated (lint finds errors for every kubeadm release, so no release to start from)\n`);
      continue;
    }
    sections.push(section(`${file} (from ${from}, the oldest kubeadm release it lints clean for) → ${NEWEST}`, library.migrateCorefile(text, { from, to: NEWEST }), library.formatDiagnostic));
  }
  files.set(`golden/migrate/realworld-to-${NEWEST}.txt`, sections.join('\n'));
  return files;
}
