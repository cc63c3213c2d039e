import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { formatCutoverJson, formatCutoverScript, formatCutoverText, planCutover } from '../../src/install/cutover.js';
import type { CutoverPlan, CutoverStep } from '../../src/install/cutover.js';
import { readKubeDnsInstall } from '../../src/kubedns/kube-dns-install.js';

const root = join(import.meta.dirname, '../..');
const stock = readFileSync(join(root, 'golden/install/stock-kube-dns-1.22.20.yaml'), 'utf8');
const readInstall = (text: string) => readKubeDnsInstall([{ text, filename: 'kube-dns.yaml' }]);
const scratch = mkdtempSync(join(tmpdir(), 'kube-dns-to-coredns-cutover-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function planned(text = stock, coredns = '1.14.7'): CutoverPlan & { ok: true } {
  const plan = planCutover(readInstall(text), { coredns });
  if (!plan.ok) throw new Error(plan.refusal);
  return plan;
}

/** The position of the first command matching `pattern` among the steps' commands, in order. */
function at(steps: readonly CutoverStep[], pattern: RegExp): number {
  const index = steps.flatMap((step) => step.commands).findIndex((command) => pattern.test(command));
  expect(index, String(pattern)).toBeGreaterThanOrEqual(0);
  return index;
}

describe('planCutover', () => {
  it('applies and waits for CoreDNS before it scales kube-dns down; the rollback brings kube-dns back before CoreDNS goes', () => {
    for (const coredns of ['1.8.0', '1.14.7']) {
      const json = JSON.parse(formatCutoverJson(planned(stock, coredns))) as { steps: CutoverStep[]; rollback: CutoverStep[] };
      const steps = json.steps;
      expect(at(steps, /lint --coredns/)).toBeLessThan(at(steps, /kubectl apply -f coredns-rbac\.yaml/));
      expect(at(steps, /check --kube-dns/)).toBeLessThan(at(steps, /kubectl apply -f coredns-rbac\.yaml/));
      expect(at(steps, /apply -f coredns-rbac/)).toBeLessThan(at(steps, /apply -f coredns-configmap/));
      expect(at(steps, /apply -f coredns-configmap/)).toBeLessThan(at(steps, /apply -f coredns-deployment/));
      expect(at(steps, /apply -f coredns-deployment/)).toBeLessThan(at(steps, /rollout status deployment\/coredns/));
      expect(at(steps, /rollout status deployment\/coredns/)).toBeLessThan(at(steps, /verify --kube-dns/));
      expect(at(steps, /verify --kube-dns/)).toBeLessThan(at(steps, /scale deployment\/kube-dns --replicas=0/));
      expect(at(steps, /scale deployment\/kube-dns-autoscaler --replicas=0/)).toBeLessThan(at(steps, /scale deployment\/kube-dns --replicas=0/));
      const rollback = json.rollback;
      expect(at(rollback, /apply -f kube-dns-rollback\.yaml/)).toBeLessThan(at(rollback, /rollout status deployment\/kube-dns/));
      expect(at(rollback, /rollout status deployment\/kube-dns/)).toBeLessThan(at(rollback, /scale deployment\/coredns --replicas=0/));
    }
  });

  it('with a ReplicationController kube-dns, waits on its counts where a Deployment has a rollout status', () => {
    const rc = stock.replace('- apiVersion: apps/v1\n  kind: Deployment', '- apiVersion: v1\n  kind: ReplicationController').replace('    selector:\n      matchLabels:\n        k8s-app: kube-dns\n    strategy:', '    selector:\n      k8s-app: kube-dns\n    strategy:');
    expect(rc).toContain('kind: ReplicationController');
    const plan = planned(rc);
    const down = plan.steps.find((step) => step.id === 'scale-down-kube-dns')?.commands ?? [];
    expect(down.slice(1)).toEqual(['kubectl -n kube-system scale replicationcontroller/kube-dns --replicas=0', "kubectl -n kube-system wait --for=jsonpath='{.status.replicas}'=0 replicationcontroller/kube-dns --timeout=5m"]);
    const rollback = plan.rollback;
    expect(at(rollback, /apply -f kube-dns-rollback\.yaml/)).toBeLessThan(at(rollback, /wait --for=jsonpath='\{\.status\.readyReplicas\}'=2 replicationcontroller\/kube-dns --timeout=5m$/));
    expect(at(rollback, /wait --for=jsonpath/)).toBeLessThan(at(rollback, /scale deployment\/coredns --replicas=0/));
    expect(plan.files.find((file) => file.name === 'kube-dns-rollback.yaml')?.content).toContain('kind: ReplicationController');
  });

  it('the rollback file holds the kube-dns objects exactly as read, less what the API server wrote', () => {
    const plan = planned();
    const file = plan.files.find((entry) => entry.name === 'kube-dns-rollback.yaml');
    const objects = loadAll(file?.content ?? '') as Record<string, any>[];
    const list = (loadAll(stock) as { items: Record<string, any>[] }[])[0]?.items ?? [];
    expect(objects.map((object) => object['kind'])).toEqual(['Deployment', 'Service', 'ConfigMap']);
    for (const object of objects) {
      const read = structuredClone(list.find((item) => item['kind'] === object['kind'])) as Record<string, any>;
      for (const field of ['uid', 'resourceVersion', 'creationTimestamp', 'generation']) delete read['metadata'][field];
      delete read['status'];
      expect(object).toEqual(read);
    }
    expect(objects[0]?.['spec']['replicas']).toBe(2);
    expect(objects[1]?.['metadata']['annotations']['kubectl.kubernetes.io/last-applied-configuration']).toBeDefined();
  });

  it('stops when kube-dns and the Corefile would route a name differently during the overlap', () => {
    // kube-dns rejects the whole ConfigMap (one bad value): it runs with defaults, while --force translates the stubs.
    const rejected = stock.replace('["8.8.8.8", "8.8.4.4"]', '["8.8.8.8", "8.8.4.4", "1.1.1.1", "9.9.9.9"]');
    const plan = planCutover(readInstall(rejected), { coredns: '1.14.7', force: true });
    expect(plan.ok).toBe(false);
    if (plan.ok) return;
    expect(plan.refusal).toMatch(/the check failed/);
    expect(plan.refusal).toMatch(/acme\.local/);
    expect(plan.check?.differences.length).toBeGreaterThan(0);
    expect(JSON.parse(formatCutoverJson(plan))).toMatchObject({ ok: false });
  });

  it('the text plan names every step, command and file', () => {
    const plan = planned();
    const text = formatCutoverText(plan);
    for (const step of [...plan.steps, ...plan.rollback]) {
      expect(text).toContain(step.title);
      for (const command of step.commands) expect(text).toContain(`$ ${command}`);
    }
    for (const file of plan.files) expect(text).toContain(`--- ${file.name}\n${file.content}`);
  });
});

describe('the cut-over script', () => {
  /** Runs the script in a folder with logging stand-ins for kubectl and npx; `failing` makes one kubectl call fail. */
  function run(script: string, failing: string | undefined, environment: Record<string, string>, found = ''): Promise<{ status: number; log: string[]; folder: string; stderr: string }> {
    const folder = mkdtempSync(join(scratch, 'run-'));
    const log = join(folder, 'calls.log');
    const stand = (name: string) => {
      const path = join(folder, name);
      const existing = found === '' ? '' : `case "$*" in *'get deployment/coredns configmap/coredns -o name'*) echo '${found}';; esac\n`;
      writeFileSync(path, `#!/bin/sh\necho "${name} $*" >> '${log}'\n${existing}${failing === undefined ? '' : `case "$*" in *'${failing}'*) exit 1;; esac\n`}case "$*" in *kube-dns-autoscaler*) exit 1;; esac\nexit 0\n`);
      chmodSync(path, 0o755);
    };
    stand('kubectl');
    stand('npx');
    writeFileSync(join(folder, 'cutover.sh'), script);
    return new Promise((resolve) => {
      execFile('sh', ['cutover.sh'], { cwd: folder, timeout: 20_000, env: { PATH: `${folder}:/usr/bin:/bin`, ...environment } }, (error, _stdout, stderr) => {
        const calls = (() => {
          try {
            return readFileSync(log, 'utf8').trim().split('\n');
          } catch {
            return [];
          }
        })();
        resolve({ status: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, log: calls, folder, stderr });
      });
    });
  }

  it('writes the files, runs the steps in order and stops at the first failure (set -eu)', async () => {
    const plan = planned();
    const script = formatCutoverScript(plan);
    const done = await run(script, undefined, { SKIP_VERIFY: '1' });
    expect(done.status).toBe(0);
    for (const file of plan.files) expect(readFileSync(join(done.folder, file.name), 'utf8')).toBe(file.content);
    const index = (pattern: RegExp) => done.log.findIndex((line) => pattern.test(line));
    expect(index(/^npx kube-dns-to-coredns lint/)).toBe(0);
    expect(index(/rollout status deployment\/coredns/)).toBeGreaterThan(index(/apply -f coredns-deployment\.yaml/));
    expect(index(/scale deployment\/kube-dns --replicas=0/)).toBeGreaterThan(index(/apply -f coredns-service\.yaml/));
    expect(done.log.some((line) => line.includes('verify'))).toBe(false);
    expect(done.log.some((line) => line.includes('delete'))).toBe(false);
    // The rollout of CoreDNS fails: kube-dns is never scaled down.
    const stopped = await run(script, 'rollout status deployment/coredns', { SKIP_VERIFY: '1' });
    expect(stopped.status).not.toBe(0);
    expect(stopped.log.some((line) => line.includes('--replicas=0'))).toBe(false);
    // Without SKIP_VERIFY the live check runs, and its failure stops the script too.
    const unverified = await run(script, 'verify', {});
    expect(unverified.status, unverified.log.join('\n')).not.toBe(0);
    expect(unverified.log.some((line) => /^npx kube-dns-to-coredns verify --kube-dns kube-dns\.yaml --old .* --new/.test(line)), unverified.log.join('\n')).toBe(true);
    expect(unverified.log.some((line) => line.includes('--replicas=0'))).toBe(false);
  });

  it('stops before any apply when a coredns Deployment or ConfigMap already exists', async () => {
    const script = formatCutoverScript(planned());
    for (const found of ['deployment.apps/coredns', 'configmap/coredns', 'deployment.apps/coredns\nconfigmap/coredns']) {
      const stopped = await run(script, undefined, { SKIP_VERIFY: '1' }, found);
      expect(stopped.status, stopped.log.join('\n')).not.toBe(0);
      expect(stopped.stderr).toMatch(/coredns already in kube-system: the apply would replace it/);
      expect(stopped.log.some((line) => line.includes('apply'))).toBe(false);
    }
  });
});
