import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { coreDnsOptionAvailability, isUsable } from '../../src/coredns/availability.js';
import { CACHE_DEFAULT_CAPACITY, coreDnsFeatures, firstReleaseWith, noDenialCaching } from '../../src/coredns/features.js';
import { KUBERNETES_COREDNS_RELEASES } from '../../src/coredns/kubernetes-default-corefile.js';
import {
  FEDERATION_REMOVED_IN,
  KUBERNETES_OPTION_CHANGES,
  KUBERNETES_TRANSFER_MOVED_IN,
  PROXY_DEPRECATED_IN,
  PROXY_REMOVED_IN,
  SEVERAL_FORWARDS_PER_BLOCK_FROM,
} from '../../src/coredns/migration-facts.js';
import { judgeArguments, optionArgumentsAt, optionSyntax } from '../../src/coredns/plugin-syntax.js';
import { COREDNS_RELEASES, COREDNS_VERSIONS, compareCoreDnsVersions, isCoreDnsVersion, NEWEST_COREDNS_VERSION } from '../../src/coredns/versions.js';
import { sourceLiterals } from '../support/source-literals.js';
// @ts-expect-error: a plain .mjs module shared with scripts/update-golden.mjs
import { KUBEADM_COREDNS_RELEASES, MIGRATED_KUBERNETES_RELEASES } from '../../scripts/migrate-golden.mjs';

/**
 * Every CoreDNS release fact is data once, in src/coredns (#19 item 1): the rest of the package
 * asks the table. This file guards it: no CoreDNS release is written as a literal anywhere else in
 * src/, and what must agree with the table (the goldens' release lists, the rules derived from it)
 * does.
 */

const root = join(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(path) : entry.name.endsWith('.ts') ? [path] : [];
  });
}

/**
 * Where version text that may look like a CoreDNS release is not about CoreDNS: other programs'
 * releases. A folder ends with `/`.
 */
const OTHER_VERSION_SPACES: Readonly<Record<string, string>> = {
  'src/kubedns/': 'kube-dns releases (1.14.0–1.26.7: 1.14.x collides with CoreDNS 1.14.x)',
  'src/kubeadm/': 'Kubernetes releases and kubeadm profiles',
  'src/nodelocal/node-cache-releases.ts': 'node-cache releases, and the CoreDNS release each embeds (a fact about node-cache builds)',
  'src/nodelocal/node-local-dns-template.ts': 'node-cache releases',
  'src/nodelocal/translate-like-node-cache.ts': 'node-cache releases',
  'src/generated/version.ts': "this package's own version",
  'src/platform/eks-addon.ts': 'EKS add-on builds (v1.10.1-eksbuild.3 is a build of the add-on, named after the CoreDNS it packages)',
  // The registry's prose is documentation (docs/diagnostics.md is generated from it), and the
  // diagnostics floor is below src/coredns, so it cannot ask the table.
  'src/diagnostics/codes.ts': 'prose of the diagnostics registry',
};

/**
 * A line of help text that is an example: a command the user types (`kube-dns-to-coredns lint
 * --coredns 1.6.7 …`) or the spellings a release may be written in. The version there is a value,
 * not a fact.
 */
const EXAMPLE_LINE = /^\s*(?:kube-dns-to-coredns|kubectl)\s|^VERSION is what you run:|^\(registry\.k8s\.io\//;

/** Text that names a CoreDNS release (`1.9.4`, `v1.9.4`), not part of an address such as `1.2.3.4`. */
const VERSION_TEXT = /(?<![\w.])v?(\d+\.\d+\.\d+)(?![\w]|\.\d)/g;

interface Finding {
  readonly file: string;
  readonly line: number;
  readonly version: string;
  readonly text: string;
}

function coreDnsLiterals(file: string, source: string): Finding[] {
  const findings: Finding[] = [];
  for (const literal of sourceLiterals(source)) {
    literal.text.split('\n').forEach((text, offset) => {
      if (EXAMPLE_LINE.test(text)) return;
      for (const match of text.matchAll(VERSION_TEXT)) {
        const version = match[1] ?? '';
        if (isCoreDnsVersion(version)) findings.push({ file, line: literal.line + offset, version, text: text.trim().slice(0, 100) });
      }
    });
  }
  return findings;
}

describe('CoreDNS release literals', () => {
  it('finds the literals of a source, and only those', () => {
    const source = [
      "// a comment naming 1.9.4 is documentation",
      "/* so is 1.8.0 in a block comment */",
      "const a = '1.9.4';",
      'const b = `from ${version} to 1.14.7: ${f("1.2.6")}`;',
      "const c = /1\\.6\\.7/.test(x) ? 1.5 : '10.0.0.1';",
      "const d = 'registry.k8s.io/coredns/coredns:v1.8.0';",
    ].join('\n');
    expect(coreDnsLiterals('x.ts', source).map((finding) => `${finding.line} ${finding.version}`)).toEqual(['3 1.9.4', '4 1.14.7', '4 1.2.6', '6 1.8.0']);
  });

  it('appear nowhere in src/ outside src/coredns (the release table) and the other programs\' version spaces', () => {
    const findings = sourceFiles(join(root, 'src')).flatMap((path) => {
      const file = relative(root, path).split('\\').join('/');
      if (file.startsWith('src/coredns/')) return [];
      if (Object.keys(OTHER_VERSION_SPACES).some((space) => (space.endsWith('/') ? file.startsWith(space) : file === space))) return [];
      return coreDnsLiterals(file, readFileSync(path, 'utf8'));
    });
    // A fact belongs in src/coredns (versions.ts, plugin-cfg.ts, plugin-syntax.ts, availability.ts,
    // features.ts, migration-facts.ts); ask it from there (e.g. firstReleaseWith in features.ts).
    expect(findings.map((finding) => `${finding.file}:${finding.line}: ${finding.version} in "${finding.text}"`)).toEqual([]);
  });
});

describe('what must agree with the release table', () => {
  it('the kubeadm releases of the migrate goldens hold every CoreDNS that kubernetes-default-corefile.ts says kubeadm shipped', () => {
    const kubeadm = KUBEADM_COREDNS_RELEASES as readonly string[];
    expect(kubeadm.every(isCoreDnsVersion)).toBe(true);
    expect([...kubeadm].sort(compareCoreDnsVersions)).toEqual(kubeadm);
    // Kubernetes 1.10's 1.0.6 predates the migrated defaults (1.11–1.20).
    const shipped = [...new Set(KUBERNETES_COREDNS_RELEASES.filter((entry) => entry.kubernetes !== '1.10').map((entry) => entry.coredns))];
    expect(shipped.filter((version) => !kubeadm.includes(version))).toEqual([]);
    // The order of the Kubernetes releases is the order of their CoreDNS releases.
    const inKubernetesOrder = KUBERNETES_COREDNS_RELEASES.map((entry) => entry.coredns);
    expect([...inKubernetesOrder].sort(compareCoreDnsVersions)).toEqual(inKubernetesOrder);
  });

  it('each migrate golden names the CoreDNS release of its Kubernetes default as the table does', () => {
    for (const kubernetes of MIGRATED_KUBERNETES_RELEASES as readonly string[]) {
      const coredns = KUBERNETES_COREDNS_RELEASES.find((entry) => entry.kubernetes === kubernetes)?.coredns;
      const golden = readFileSync(join(root, 'golden', 'migrate', `kubeadm-default-k8s-${kubernetes}.txt`), 'utf8');
      expect(golden.split('\n', 1)[0]).toBe(`# kubeadm ${kubernetes} default Corefile (CoreDNS ${coredns})`);
    }
    expect(readdirSync(join(root, 'golden', 'migrate'))).toContain(`realworld-to-${NEWEST_COREDNS_VERSION}.txt`);
  });

  it('the no-denial-caching rule writes an option every release accepts, exact exactly where `disable` exists', () => {
    const outcomes = { exact: 0, shortened: 0 };
    for (const version of COREDNS_VERSIONS) {
      const features = coreDnsFeatures(version);
      const rule = noDenialCaching(features);
      const availability = coreDnsOptionAvailability('cache', rule.name, version);
      expect(isUsable(availability), `${version}: cache ${rule.text}`).toBe(true);
      const syntax = optionSyntax('cache', rule.name);
      const shape = syntax === undefined ? undefined : optionArgumentsAt(syntax, version);
      expect(shape && judgeArguments(rule.arguments, shape), `${version}: cache ${rule.text}`).toEqual({ kind: 'ok' });
      expect(rule.exact).toBe(isUsable(coreDnsOptionAvailability('cache', 'disable', version)));
      expect(rule.text).toBe([rule.name, ...rule.arguments].join(' '));
      outcomes[rule.exact ? 'exact' : 'shortened'] += 1;
    }
    expect(outcomes.exact).toBeGreaterThan(10);
    expect(outcomes.shortened).toBeGreaterThan(10);
    expect(noDenialCaching(coreDnsFeatures('1.9.3')).text).toBe(`denial ${CACHE_DEFAULT_CAPACITY} 1`);
    expect(noDenialCaching(coreDnsFeatures('1.9.4')).text).toBe('disable denial');
  });

  it('firstReleaseWith names the first release users could run', () => {
    // max_concurrent is in the 1.6.8 tag, whose images were never published.
    expect(firstReleaseWith((features) => features.forwardMaxConcurrent)).toBe('1.6.9');
    expect(firstReleaseWith((features) => features.multipleForwardPerBlock)).toBe(SEVERAL_FORWARDS_PER_BLOCK_FROM);
    expect(firstReleaseWith(() => false)).toBeUndefined();
    expect(COREDNS_RELEASES.filter((release) => release.unpublished === true).map((release) => release.version)).toEqual(['1.6.8', '1.8.1', '1.8.2']);
  });

  it('the migration facts are read from the plugin and option rows', () => {
    expect(SEVERAL_FORWARDS_PER_BLOCK_FROM).toBe('1.9.4');
    expect([PROXY_DEPRECATED_IN, PROXY_REMOVED_IN, FEDERATION_REMOVED_IN, KUBERNETES_TRANSFER_MOVED_IN]).toEqual(['1.4.0', '1.5.0', '1.7.0', '1.8.0']);
    const byOption = Object.fromEntries(KUBERNETES_OPTION_CHANGES.map((change) => [change.option, change]));
    expect(byOption).toEqual({
      endpoint: { option: 'endpoint', deprecatedIn: '1.3.1', ineffectiveFrom: '1.4.0', ineffective: 'only the first address is used', action: 'keep-first-argument' },
      upstream: {
        option: 'upstream',
        deprecatedIn: '1.4.0',
        ineffectiveFrom: '1.5.2',
        ineffective: 'accepted but has no effect (CoreDNS always resolves ExternalName targets itself)',
        action: 'remove',
        removedIn: '1.7.0',
      },
      resyncperiod: {
        option: 'resyncperiod',
        deprecatedIn: '1.5.0',
        ineffectiveFrom: '1.6.0',
        ineffective: 'ignored, and an argument after it is read as the next option, so CoreDNS refuses to start',
        action: 'remove',
        removedIn: '1.7.0',
      },
    });
    // Each change agrees with the option's own status in lint's table.
    for (const change of KUBERNETES_OPTION_CHANGES) {
      if (change.removedIn !== undefined) expect(coreDnsOptionAvailability('kubernetes', change.option, change.removedIn).status).toBe('removed');
      expect(compareCoreDnsVersions(change.deprecatedIn, change.ineffectiveFrom)).toBeLessThan(0);
    }
  });
});
