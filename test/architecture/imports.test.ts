/**
 * The import graph of `src/`: no module imports itself through others (no cycles), and the floors
 * stand in order — the pure core never reaches up into the CLI, the shared floors (`dns/`,
 * `coredns/`, `corefile/`) never reach up into the stages that use them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const srcRoot = resolve(import.meta.dirname, '../../src');

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

const importPattern = /(?:(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*|\bimport\()['"](\.{1,2}\/[^'"]+)['"]/g;

/** Module (path relative to src, `.ts`) → the src modules it imports at run time or for types. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(srcRoot)) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(importPattern)]
      .map((match) => relative(srcRoot, resolve(dirname(file), match[1]!)).replace(/\.js$/, '.ts'))
      .filter((target) => !target.startsWith('generated/') && !target.startsWith('..'));
    graph.set(relative(srcRoot, file), targets);
  }
  return graph;
}

function findCycles(graph: Map<string, string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

/** Each folder and the folders it may import from (itself always allowed). */
const allowedFloors: Record<string, readonly string[]> = {
  util: [],
  // The base class of every error: importable from every folder, like util.
  errors: ['util'],
  diagnostics: ['errors', 'util'],
  dns: ['errors', 'util'],
  corefile: ['errors', 'util'],
  configmap: ['dns', 'errors', 'util'],
  coredns: ['dns', 'corefile', 'errors', 'util'],
  kubedns: ['dns', 'configmap', 'diagnostics', 'errors', 'util'],
  kubeadm: ['kubedns', 'dns', 'corefile', 'configmap', 'errors', 'util'],
  // configmap: the API's lintCorefile refuses a ConfigMap's YAML, as migrateCorefile does (issue 18 L4).
  lint: ['coredns', 'dns', 'corefile', 'configmap', 'diagnostics', 'errors', 'util'],
  // lint: the merged Corefile gets the target check (issue 18 item 7).
  translate: ['lint', 'coredns', 'dns', 'corefile', 'kubedns', 'configmap', 'diagnostics', 'errors', 'util'],
  routing: ['coredns', 'dns', 'corefile', 'kubedns', 'configmap', 'translate', 'diagnostics', 'errors', 'util'],
  migrate: ['lint', 'kubeadm', 'coredns', 'dns', 'corefile', 'configmap', 'diagnostics', 'errors', 'util'],
  nodelocal: ['routing', 'lint', 'kubedns', 'dns', 'corefile', 'configmap', 'coredns', 'diagnostics', 'errors', 'util'],
  // Where platforms keep CoreDNS configuration (coredns-custom overlays, Helm values, the EKS add-on, ConfigMaps written back).
  platform: ['nodelocal', 'migrate', 'routing', 'translate', 'lint', 'kubedns', 'dns', 'corefile', 'configmap', 'coredns', 'diagnostics', 'errors', 'util'],
  // The CoreDNS install and the cut-over plan: above the translator, beside routing and lint (the plan's pre-flight).
  install: ['routing', 'lint', 'translate', 'kubedns', 'dns', 'corefile', 'configmap', 'coredns', 'diagnostics', 'errors', 'util'],
  // verify's pure part: the probe list (from the routing model) and the comparison; the CLI owns the sockets.
  verify: ['routing', 'translate', 'kubedns', 'dns', 'corefile', 'configmap', 'coredns', 'diagnostics', 'errors', 'util'],
};

const folderOf = (module: string): string => (module.includes('/') ? module.slice(0, module.indexOf('/')) : '.');

describe('the import graph of src/', () => {
  const graph = importGraph();

  it('reads every module', () => {
    expect(graph.size).toBeGreaterThan(60);
    expect([...graph.values()].flat().length).toBeGreaterThan(150);
  });

  it('has no cycles', () => {
    expect(findCycles(graph)).toEqual([]);
  });

  it('finds a cycle when there is one (the checker itself works)', () => {
    const sample = new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts']], ['d.ts', []]]);
    expect(findCycles(sample)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  });

  it('keeps each folder on its floor', () => {
    const violations: string[] = [];
    for (const [module, targets] of graph) {
      const folder = folderOf(module);
      const allowed = allowedFloors[folder];
      if (allowed === undefined) continue; // cli/ and the package entry may import anything below them
      for (const target of targets) {
        const targetFolder = folderOf(target);
        if (targetFolder !== folder && !allowed.includes(targetFolder)) violations.push(`${module} → ${target}`);
      }
    }
    expect(violations).toEqual([]);
  });

  it('keeps Node APIs in src/cli and the bin file', () => {
    const offenders = [...graph.keys()].filter((module) => {
      if (module.startsWith('cli/') || module === 'bin.ts') return false;
      return /from\s*['"]node:/.test(readFileSync(join(srcRoot, module), 'utf8'));
    });
    expect(offenders).toEqual([]);
  });

  it('keeps each CLI command on its own: no command imports another, only main and the registry import commands', () => {
    expect(commandViolations(graph)).toEqual([]);
    // The checker itself works: a command that imports a command, a helper that imports one.
    const sample = new Map([
      ['cli/commands/explain.ts', ['cli/commands/check.ts', 'cli/routing/report.ts']],
      ['cli/commands/check.ts', []],
      ['cli/routing/report.ts', ['cli/commands/check.ts']],
      ['cli/registry.ts', ['cli/commands/check.ts']],
    ]);
    expect(commandViolations(sample)).toEqual(['cli/commands/explain.ts → cli/commands/check.ts', 'cli/routing/report.ts → cli/commands/check.ts']);
  });

  it("keeps the translator's data flowing one way: each stage imports only the stages before it", () => {
    expect(stageViolations(graph)).toEqual([]);
    // The checker itself works: a planner that calls back up into the entry point.
    expect(stageViolations(new Map([['translate/plan.ts', ['translate/translate.ts', 'translate/options.ts']]]))).toEqual(['translate/plan.ts → translate/translate.ts']);
  });
});

/**
 * The default translator's stages in order (docs/architecture.md, "The translator"): resolve the
 * options, the Pod's tables and plan, the Corefile plan, render, self-check, and the entry point
 * that runs them. `merge.ts` edits an existing Corefile with a translation's result, after all of them.
 */
const TRANSLATOR_STAGES = [
  'translate/options.ts',
  'translate/deployment-effects.ts',
  'translate/deployment-flags.ts',
  'translate/unqualified-names.ts',
  'translate/plan.ts',
  'translate/render.ts',
  'translate/address-nxdomain.ts',
  'translate/self-check.ts',
  'translate/translate.ts',
  'translate/merge.ts',
];

/** Imports of a translator stage by a stage before it (or a module of translate/ that is no stage). */
function stageViolations(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const violations: string[] = [];
  for (const [module, targets] of graph) {
    if (!module.startsWith('translate/')) continue;
    const stage = TRANSLATOR_STAGES.indexOf(module);
    if (stage === -1) violations.push(`${module}: not a stage of the translator`);
    for (const target of targets) {
      if (target.startsWith('translate/') && TRANSLATOR_STAGES.indexOf(target) >= stage) violations.push(`${module} → ${target}`);
    }
  }
  return violations;
}

/** Imports of a module of cli/commands/ (one file per command) from anywhere but main.ts and registry.ts. */
function commandViolations(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const isCommand = (module: string) => module.startsWith('cli/commands/');
  const violations: string[] = [];
  for (const [module, targets] of graph) {
    if (module === 'cli/main.ts' || module === 'cli/registry.ts') continue;
    for (const target of targets) if (isCommand(target)) violations.push(`${module} → ${target}`);
  }
  return violations;
}
