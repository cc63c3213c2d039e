import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { formatCutoverJson, formatCutoverScript, formatCutoverText, planCutover } from '../../src/install/cutover.js';
import type { CutoverPlan, CutoverStep } from '../../src/install/cutover.js';
import { readKubeDnsInstall } from '../../src/kubedns/kube-dns-install.js';
import { translateKubeDnsInstall } from '../../src/translate/translate.js';
import { main } from '../../src/cli/main.js';
import { memoryIo } from '../support/memory-io.js';

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
      expect(at(steps, /check --coredns .* --kube-dns kube-dns-rollback\.yaml/)).toBeLessThan(at(steps, /kubectl apply -f coredns-rbac\.yaml/));
      expect(at(steps, /apply -f coredns-rbac/)).toBeLessThan(at(steps, /apply -f coredns-configmap/));
      expect(at(steps, /apply -f coredns-configmap/)).toBeLessThan(at(steps, /apply -f coredns-deployment/));
      expect(at(steps, /apply -f coredns-deployment/)).toBeLessThan(at(steps, /rollout status deployment\/coredns/));
      expect(at(steps, /rollout status deployment\/coredns/)).toBeLessThan(at(steps, /apply -f coredns-service/));
      // The endpoints are read until they list both kube-dns and CoreDNS pods, before the live check and the scale-down.
      expect(at(steps, /apply -f coredns-service/)).toBeLessThan(at(steps, /get endpoints kube-dns .*\*" coredns-"\*.*\*' kube-dns-'\*\) BOTH=yes/));
      expect(at(steps, /get endpoints kube-dns/)).toBeLessThan(at(steps, /test "\$BOTH" = yes \|\|/));
      expect(at(steps, /test "\$BOTH" = yes/)).toBeLessThan(at(steps, /verify --coredns/));
      expect(at(steps, /verify --coredns/)).toBeLessThan(at(steps, /scale deployment\/kube-dns --replicas=0/));
      expect(at(steps, /scale deployment\/kube-dns-autoscaler --replicas=0/)).toBeLessThan(at(steps, /scale deployment\/kube-dns --replicas=0/));
      const rollback = json.rollback;
      expect(at(rollback, /apply -f kube-dns-rollback\.yaml/)).toBeLessThan(at(rollback, /scale deployment\/kube-dns --replicas=2$/));
      expect(at(rollback, /scale deployment\/kube-dns --replicas=2$/)).toBeLessThan(at(rollback, /rollout status deployment\/kube-dns/));
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

  it('the rollback file holds the kube-dns objects exactly as read, less what the API server and kubectl wrote', () => {
    const plan = planned();
    const file = plan.files.find((entry) => entry.name === 'kube-dns-rollback.yaml');
    const objects = loadAll(file?.content ?? '') as Record<string, any>[];
    const list = (loadAll(stock) as { items: Record<string, any>[] }[])[0]?.items ?? [];
    expect(objects.map((object) => object['kind'])).toEqual(['Deployment', 'Service', 'ConfigMap']);
    for (const object of objects) {
      const read = structuredClone(list.find((item) => item['kind'] === object['kind'])) as Record<string, any>;
      for (const field of ['uid', 'resourceVersion', 'creationTimestamp', 'generation', 'managedFields']) delete read['metadata'][field];
      // The Deployment's revision and kubectl's last-applied copy were their only annotations.
      delete read['metadata']['annotations'];
      delete read['status'];
      expect(object).toEqual(read);
    }
    // What was stripped was there to strip.
    expect(stock).toContain('deployment.kubernetes.io/revision');
    expect(stock).toContain('kubectl.kubernetes.io/last-applied-configuration');
    expect(file?.content).not.toMatch(/kubernetes.io\/revision|last-applied|resourceVersion|uid:|creationTimestamp|generation:|managedFields|status:/);
    expect(objects[0]?.['spec']['replicas']).toBe(2);
    // Other annotations stay.
    const annotated = planned(stock.replace('      deployment.kubernetes.io/revision: "1"', '      deployment.kubernetes.io/revision: "1"\n      team: dns'));
    expect(loadAll(annotated.files.find((entry) => entry.name === 'kube-dns-rollback.yaml')?.content ?? '')[0]).toMatchObject({ metadata: { annotations: { team: 'dns' } } });
  });

  it('the rollback file, read back as the input, gives the same Corefile (check and verify read it in place of INSTALL)', () => {
    const inputs = [
      ...readdirSync(join(root, 'golden/deployment')).filter((name) => name.endsWith('.yaml')).map((name) => `golden/deployment/${name}`),
      ...readdirSync(join(root, 'golden/install')).filter((name) => name.endsWith('.yaml')).map((name) => `golden/install/${name}`),
    ];
    let compared = 0;
    for (const input of inputs) {
      for (const coredns of ['1.2.6', '1.8.0', '1.14.7']) {
        let plan: CutoverPlan;
        try {
          plan = planCutover(readInstall(readFileSync(join(root, input), 'utf8')), { coredns });
        } catch {
          continue; // an install the tool refuses (a Service without selector): no plan, nothing to compare
        }
        if (!plan.ok) continue;
        const rollback = plan.files.find((file) => file.name === 'kube-dns-rollback.yaml')?.content ?? '';
        const again = translateKubeDnsInstall(readInstall(rollback), { coredns });
        expect(again.corefile, `${input} ${coredns}`).toBe(plan.files.find((file) => file.name === 'Corefile')?.content);
        compared += 1;
      }
    }
    // The installs of Kubernetes 1.15 or older get no plan at 1.14.7 (install-coredns-too-new).
    expect(compared).toBeGreaterThanOrEqual(16);
  });

  it('starts CoreDNS with the count kube-dns ran when its manifest names none, the count the rollback brings kube-dns back to; says the autoscaler is not re-pointed', () => {
    // An autoscaler sets the count: the manifest has no spec.replicas, its status shows 3 running.
    const scaled = stock.replace('    progressDeadlineSeconds: 600\n    replicas: 2\n', '    progressDeadlineSeconds: 600\n').replace('    readyReplicas: 2\n    replicas: 2\n', '    readyReplicas: 3\n    replicas: 3\n');
    expect(scaled).not.toContain('    replicas: 2\n');
    const plan = planned(scaled, '1.14.7');
    const deployment = loadAll(plan.files.find((entry) => entry.name === 'coredns-deployment.yaml')?.content ?? '') as Record<string, any>[];
    expect(deployment[0]?.['spec']['replicas']).toBe(3);
    expect(plan.rollback.flatMap((step) => step.commands)).toContain('kubectl -n kube-system scale deployment/kube-dns --replicas=3');
    expect(plan.diagnostics.map((entry) => `${entry.code} ${entry.message}`)).toContainEqual(expect.stringMatching(/^install-setting-carried replicas: 3, the count kube-dns ran/));
    expect(plan.steps.find((step) => step.id === 'scale-down-kube-dns')?.why).toMatch(/--target is deployment\/coredns/);
  });

  it('scales the kube-dns-autoscaler given in INSTALL to 0 first and restores it as read; without one it says the rollback leaves it alone', () => {
    const kops = readFileSync(join(root, 'golden/deployment/kops-1.12-kube-dns-1.14.13.yaml'), 'utf8');
    const plan = planned(kops, '1.8.0');
    const down = plan.steps.find((step) => step.id === 'scale-down-kube-dns');
    expect(down?.commands.slice(0, 2)).toEqual(['kubectl -n kube-system scale deployment/kube-dns-autoscaler --replicas=0', 'kubectl -n kube-system scale deployment/kube-dns --replicas=0']);
    const rollbackFile = loadAll(plan.files.find((entry) => entry.name === 'kube-dns-rollback.yaml')?.content ?? '') as Record<string, any>[];
    expect(rollbackFile.map((object) => `${object['kind']}/${object['metadata']['name']}`)).toEqual(['Deployment/kube-dns', 'Service/kube-dns', 'Deployment/kube-dns-autoscaler']);
    // Neither names a replica count (a manifest): the scale brings kube-dns back with 1, as the API server would have defaulted it, then the autoscaler.
    const rollback = plan.rollback.flatMap((step) => step.commands);
    expect(rollback).toEqual([
      'kubectl apply -f kube-dns-rollback.yaml',
      'kubectl -n kube-system scale deployment/kube-dns --replicas=1',
      'kubectl -n kube-system rollout status deployment/kube-dns --timeout=5m',
      'kubectl -n kube-system scale deployment/kube-dns-autoscaler --replicas=1',
      'kubectl -n kube-system scale deployment/coredns --replicas=0',
    ]);
    expect(plan.rollback[0]?.why).toMatch(/kube-dns-autoscaler comes back with the file, as it was read/);
    expect(plan.diagnostics.map((entry) => entry.message)).toContainEqual(expect.stringMatching(/^Deployment kube-dns-autoscaler scales kube-dns \(--target=Deployment\/kube-dns\)/));
    // Not given: scaled to 0 only if the cluster has one, and left alone by the rollback, which says so.
    const without = planned();
    expect(without.steps.find((step) => step.id === 'scale-down-kube-dns')?.commands[0]).toMatch(/^if kubectl -n kube-system get deployment\/kube-dns-autoscaler .* then kubectl -n kube-system scale deployment\/kube-dns-autoscaler --replicas=0; fi$/);
    expect(without.rollback.flatMap((step) => step.commands).join('\n')).not.toContain('autoscaler');
    expect(without.rollback[0]?.why).toMatch(/INSTALL held no kube-dns-autoscaler: the rollback leaves it alone/);
  });

  it("the live check finds the pods by the Service's selector and tells kube-dns's from CoreDNS's by their workload's name, whatever their first container", async () => {
    // A Service that selects one more label, and kube-dns pods whose first container is dnsmasq (the step looked for a first container named kubedns).
    const text = stock.replace('"selector":{"k8s-app":"kube-dns"}', '"selector":{"k8s-app":"kube-dns","tier":"dns"}').replace('    selector:\n      k8s-app: kube-dns\n    sessionAffinity', '    selector:\n      k8s-app: kube-dns\n      tier: dns\n    sessionAffinity');
    const plan = planned(text);
    const live = plan.steps.find((step) => step.id === 'live-check')?.commands ?? [];
    expect(live[0]).toMatch(/^OLD=\$\(kubectl -n kube-system get pods -l k8s-app=kube-dns,tier=dns -o jsonpath=.* \| awk -v prefix=kube-dns- .* \| head -n 1\)$/);
    // Run against a kubectl that lists both kinds of pods (and an autoscaler's, which the selector would not list anyway).
    const bin = mkdtempSync(join(scratch, 'live-'));
    writeFileSync(join(bin, 'kubectl'), `#!/bin/sh\nprintf '%s ' "$@" > "${bin}/args"\nprintf 'coredns-5d78c9869d-abcde 10.244.0.7\\nkube-dns-86f4d74b45-xyz12 10.244.0.5\\nkube-dns-86f4d74b45-qrs34 10.244.1.9\\n'\n`);
    chmodSync(join(bin, 'kubectl'), 0o755);
    const output = await new Promise<string>((resolve, reject) =>
      execFile('sh', ['-c', `set -eu\n${live[0]}\n${live[1]}\necho "$OLD $NEW"`], { env: { ...process.env, PATH: `${bin}:${process.env['PATH'] ?? ''}` } }, (error, stdout) => (error === null ? resolve(stdout) : reject(error))),
    );
    expect(output).toBe('10.244.0.5 10.244.0.7\n');
    expect(readFileSync(join(bin, 'args'), 'utf8')).toMatch(/^-n kube-system get pods -l k8s-app=kube-dns,tier=dns -o jsonpath=/);
    // The stock Service selects k8s-app: kube-dns only.
    expect(planned().steps.find((step) => step.id === 'live-check')?.commands[0]).toContain('get pods -l k8s-app=kube-dns -o');
  });

  it('check and verify read the rollback file with the options of the plan: the target release, the cluster domain, the kube-dns version', () => {
    const plan = planCutover(readInstall(stock), { coredns: '1.8.0', kubeDnsVersion: '1.14.10' });
    if (!plan.ok) throw new Error(plan.refusal);
    const commands = plan.steps.flatMap((step) => step.commands);
    expect(commands).toContain('npx kube-dns-to-coredns check --coredns 1.8.0 --kube-dns-version 1.14.10 --kube-dns kube-dns-rollback.yaml --corefile Corefile');
    expect(commands).toContainEqual(expect.stringMatching(/^npx kube-dns-to-coredns verify --coredns 1\.8\.0 --kube-dns-version 1\.14\.10 --kube-dns kube-dns-rollback\.yaml --old "\$OLD" --new "\$NEW"$/));
    const configMapOnly = planCutover(readInstall('kind: ConfigMap\nmetadata: {name: kube-dns, namespace: kube-system}\ndata: {}\n'), { coredns: '1.14.7', clusterDnsIp: '10.0.0.10', clusterDomain: 'corp.internal' });
    if (!configMapOnly.ok) throw new Error(configMapOnly.refusal);
    expect(configMapOnly.steps.flatMap((step) => step.commands)).toContain('npx kube-dns-to-coredns check --coredns 1.14.7 --cluster-domain corp.internal --kube-dns kube-dns-rollback.yaml --corefile Corefile');
  });

  it('refuses a Pod given on its own: there is no workload to scale down and bring back', () => {
    const list = (loadAll(stock) as { items: Record<string, any>[] }[])[0]?.items ?? [];
    const template = list[0]?.['spec']['template'];
    const podObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'kube-dns-6d5d8b9f7-abcde', namespace: 'kube-system', labels: template['metadata']['labels'] }, spec: template['spec'] };
    const pod = readInstall(JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [podObject, ...list.slice(1)] }));
    expect(pod.deployment?.kind).toBe('Pod');
    expect(() => planCutover(pod, { coredns: '1.14.7' })).toThrow(expect.objectContaining({ name: 'CoreDnsInstallInputError', code: 'workload-is-pod', category: 'input' }));
    expect(() => planCutover(pod, { coredns: '1.14.7' })).toThrow(/kube-dns is given as Pod kube-system\/kube-dns-6d5d8b9f7-abcde: .* give the Deployment \(or ReplicationController\) the Pod belongs to/);
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

  it('--merge FILE: the plan carries the merged Corefile, and stops when it routes differently from kube-dns or is a template (exit 1), as -o install --merge does', async () => {
    const run = async (corefile: string, extra: string[] = []) => {
      const io = memoryIo({ files: { 'kube-dns.yaml': stock, Corefile: corefile } });
      const status = await main(['cutover', '--coredns', '1.14.7', '-o', 'json', '--merge', 'Corefile', ...extra, 'kube-dns.yaml'], io);
      return { status, json: JSON.parse(io.out()) as { ok: boolean; files?: { name: string; content: string }[]; diagnostics: { code: string; severity: string }[] } };
    };
    const faithful = await run('.:53 {\n    errors\n    health\n    ready\n    kubernetes cluster.local in-addr.arpa ip6.arpa {\n        fallthrough in-addr.arpa ip6.arpa\n    }\n    hosts /etc/coredns/extra.hosts {\n        fallthrough\n    }\n    forward . /etc/resolv.conf\n    cache 30\n}\n');
    expect(faithful.status).toBe(0);
    expect(faithful.json.files?.find((file) => file.name === 'Corefile')?.content).toContain('hosts /etc/coredns/extra.hosts');
    const noKubernetes = await run('. {\n    forward . 168.63.129.16\n    log\n}\n');
    expect(noKubernetes.status).toBe(1);
    expect(noKubernetes.json.ok).toBe(false);
    expect(noKubernetes.json.diagnostics.map((entry) => `${entry.severity} ${entry.code}`)).toContain('error install-merge-routing-differs');
    // --force lets -o install write it; the cut-over still stops: during the overlap both answer.
    const forced = await run('. {\n    forward . 168.63.129.16\n    log\n}\n', ['--force']);
    expect(forced.status).toBe(1);
    const template = await run('__PILLAR__DNS__DOMAIN__:53 {\n    bind __PILLAR__LOCAL__DNS__\n    forward . __PILLAR__CLUSTER__DNS__\n}\n');
    expect(template.status).toBe(1);
    expect(template.json.diagnostics.map((entry) => entry.code)).toContain('install-merge-placeholders');
  });

  it('refuses, exit 2 at FILE:LINE:COL, a Deployment or Service name that is shell syntax and labels the API server never took, for cutover and -o install alike (they were pasted into the commands, or an internal error)', async () => {
    const lines = stock.split('\n');
    const line = (pattern: RegExp, from = 0) => lines.findIndex((text, index) => index >= from && pattern.test(text)) + 1;
    const deploymentName = line(/^ {4}name: kube-dns$/);
    const serviceName = line(/^ {4}name: kube-dns$/, line(/^ {2}kind: Service$/));
    const renamed = (at: number) => lines.map((text, index) => (index + 1 === at ? text.replace('kube-dns', 'kube-dns$(touch /tmp/pwned)') : text)).join('\n');
    // Only the pod labels, the Deployment's matchLabels and the Service's selector: they agree, and are no label value.
    const relabelled = (value: string) => stock.replace(/^( +)k8s-app: kube-dns$/gm, (text, indent: string, offset: number) => (/\n( {6}(labels|matchLabels)| {4}selector):\n$/.test(stock.slice(Math.max(0, offset - 40), offset)) || indent.length > 6 ? `${indent}k8s-app: ${value}` : text));
    const cases: [string, RegExp][] = [
      [renamed(deploymentName), new RegExp(`^kube-dns-to-coredns: kube-dns\\.yaml:${deploymentName}:5: metadata\\.name 'kube-dns\\$\\(touch /tmp/pwned\\)' is not a Deployment name`)],
      [renamed(serviceName), new RegExp(`^kube-dns-to-coredns: kube-dns\\.yaml:${serviceName}:5: metadata\\.name 'kube-dns\\$\\(touch /tmp/pwned\\)' is not a Service name`)],
      [relabelled('"kube dns"'), /^kube-dns-to-coredns: kube-dns\.yaml:\d+:\d+: spec\.(selector\.matchLabels|template\.metadata\.labels|selector) k8s-app: 'kube dns' is not a label value/],
      [relabelled('a/b'), /'a\/b' is not a label value/],
      [relabelled('"-x"'), /'-x' is not a label value/],
      [relabelled('a'.repeat(64)), /is not a label value/],
    ];
    for (const [text, refusal] of cases) {
      for (const args of [['cutover', '--coredns', '1.14.7', '-o', 'script', 'kube-dns.yaml'], ['cutover', '--coredns', '1.14.7', 'kube-dns.yaml'], ['-o', 'install', 'kube-dns.yaml']]) {
        const io = memoryIo({ files: { 'kube-dns.yaml': text } });
        const status = await main(args, io);
        expect(status, `${args.join(' ')}\n${io.err()}`).toBe(2);
        expect(io.out()).toBe('');
        expect(io.err().split('\n').filter((entry) => !entry.startsWith('info ')).join('\n')).toMatch(refusal);
        expect(io.err()).not.toContain('internal error');
      }
    }
  });

  it('refuses a target the cluster is too old for (install-coredns-too-new): the rollout could never finish', () => {
    const old = readFileSync(join(root, 'golden/translate/codes/install-coredns-too-new.yaml'), 'utf8');
    const refused = planCutover(readInstall(old), { coredns: '1.14.7' });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.refusal).toMatch(/too old for CoreDNS 1\.14\.7.*before 1\.11\.0/);
    expect(refused.diagnostics.map((entry) => entry.code)).toContain('install-coredns-too-new');
    // A release before 1.11.0 falls back to Endpoints: planned.
    expect(planCutover(readInstall(old), { coredns: '1.10.1' }).ok).toBe(true);
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
  interface Run {
    readonly status: number;
    readonly log: string[];
    readonly folder: string;
    readonly stderr: string;
  }
  interface RunOptions {
    /** A kubectl or npx call containing this fails. */
    readonly failing?: string;
    readonly environment?: Record<string, string>;
    /** What `get deployment/coredns configmap/coredns -o name` prints. */
    readonly found?: string;
    /** The pod names `get endpoints` prints. */
    readonly endpoints?: string;
    readonly action?: string;
    /** The cluster has a kube-dns-autoscaler (default: not). */
    readonly autoscaler?: boolean;
  }

  /**
   * Runs the script from another folder than its own, with logging stand-ins for kubectl, npx and
   * sleep on PATH.
   */
  function run(script: string, { failing, environment = { SKIP_VERIFY: '1' }, found = '', endpoints = 'coredns-5d78c9869d-7xk2p kube-dns-6d5d8b9f7-abcde', action, autoscaler = false }: RunOptions = {}): Promise<Run> {
    const folder = mkdtempSync(join(scratch, 'run-'));
    const elsewhere = mkdtempSync(join(scratch, 'cwd-'));
    const log = join(folder, 'calls.log');
    const stand = (name: string, answers = '') => {
      const path = join(folder, name);
      writeFileSync(path, `#!/bin/sh\necho "${name} $*" >> '${log}'\n${failing === undefined ? '' : `case "$*" in *'${failing}'*) exit 1;; esac\n`}${answers}exit 0\n`);
      chmodSync(path, 0o755);
    };
    stand(
      'kubectl',
      [
        found === '' ? '' : `case "$*" in *'get deployment/coredns configmap/coredns -o name'*) echo '${found}';; esac\n`,
        `case "$*" in *'get endpoints'*) echo '${endpoints}';; esac\n`,
        autoscaler ? '' : 'case "$*" in *kube-dns-autoscaler*) exit 1;; esac\n',
      ].join(''),
    );
    stand('npx');
    stand('sleep');
    writeFileSync(join(folder, 'cutover.sh'), script);
    return new Promise((resolve) => {
      execFile('sh', [join(folder, 'cutover.sh'), ...(action === undefined ? [] : [action])], { cwd: elsewhere, timeout: 20_000, env: { PATH: `${folder}:/usr/bin:/bin`, ...environment } }, (error, _stdout, stderr) => {
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
  const index = (done: Run, pattern: RegExp) => {
    const found = done.log.findIndex((line) => pattern.test(line));
    expect(found, `${String(pattern)} in\n${done.log.join('\n')}`).toBeGreaterThanOrEqual(0);
    return found;
  };

  it('is a shell script bash and dash read, for every input and release of the goldens', async () => {
    const inputs = [stock, readFileSync(join(root, 'golden/install/private-registry-scheduling.yaml'), 'utf8'), readFileSync(join(root, 'golden/deployment/kops-1.12-kube-dns-1.14.13.yaml'), 'utf8')];
    let checked = 0;
    for (const input of inputs) {
      for (const coredns of ['1.2.6', '1.8.0', '1.14.7']) {
        const path = join(scratch, `syntax-${checked}.sh`);
        writeFileSync(path, formatCutoverScript(planned(input, coredns)));
        for (const shell of ['bash', 'dash']) {
          const status = await new Promise<number>((resolve) => execFile(shell, ['-n', path], (error) => resolve(error === null ? 0 : 1)));
          expect(status, `${shell} -n ${coredns}`).toBe(0);
        }
        checked += 1;
      }
    }
    expect(checked).toBe(9);
  });

  it('quotes every value it takes from the input: names that are shell syntax run as words, never as commands (the reader refuses them; this is the second line of defence)', async () => {
    // Names past the reader's checks (a library caller's own install): $( ), ;, backquotes, quotes, a space and a line break.
    const marks = ['m1', 'm2', 'm3'].map((name) => join(scratch, `injected-${name}`));
    const read = readInstall(stock);
    const deploymentName = `kube-dns$(touch ${marks[0]})"x`;
    const serviceName = `kube-dns;touch ${marks[1]};'\n\`touch ${marks[2]}\``;
    const hostile = {
      ...read,
      deployment: read.deployment === undefined ? undefined : { ...read.deployment, name: deploymentName },
      service: read.service === undefined ? undefined : { ...read.service, name: serviceName },
    };
    const plan = planCutover(hostile, { coredns: '1.14.7', clusterDomain: 'cluster.local', kubeDnsVersion: '1.22.20' });
    if (!plan.ok) throw new Error(plan.refusal);
    const script = formatCutoverScript(plan);
    const path = join(scratch, 'hostile.sh');
    writeFileSync(path, script);
    for (const shell of ['bash', 'dash']) {
      const status = await new Promise<number>((resolve) => execFile(shell, ['-n', path], (error) => resolve(error === null ? 0 : 1)));
      expect(status, `${shell} -n`).toBe(0);
    }
    const done = await run(script, { endpoints: `coredns-5d78c9869d-7xk2p ${deploymentName}-abcde` });
    expect(done.status, done.stderr).toBe(0);
    const back = await run(script, { action: 'rollback' });
    expect(back.status, back.stderr).toBe(0);
    for (const mark of marks) expect(existsSync(mark), mark).toBe(false);
    // kubectl got each name as it is, in one argument with the kind.
    expect(done.log).toContain(`kubectl -n kube-system scale deployment/${deploymentName} --replicas=0`);
    expect(back.log).toContain(`kubectl -n kube-system scale deployment/${deploymentName} --replicas=2`);
    expect(done.log.some((line) => line.includes(`get endpoints kube-dns;touch ${marks[1]};`))).toBe(true);
  });

  it('writes the files next to itself, runs the steps in order and stops at the first failure (set -eu)', async () => {
    const plan = planned();
    const script = formatCutoverScript(plan);
    const done = await run(script);
    expect(done.status, done.stderr).toBe(0);
    for (const file of plan.files) expect(readFileSync(join(done.folder, file.name), 'utf8')).toBe(file.content);
    const file = (name: string) => join(done.folder, name).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    // The tool, by default the copy installed where the script runs (npx --offline: never fetched), is tried first.
    expect(done.log[0]).toBe('npx --offline kube-dns-to-coredns --version');
    expect(index(done, new RegExp(`^npx --offline kube-dns-to-coredns lint --coredns 1\\.14\\.7 ${file('Corefile')}$`))).toBe(1);
    expect(index(done, new RegExp(`^npx --offline kube-dns-to-coredns check --coredns 1\\.14\\.7 --kube-dns ${file('kube-dns-rollback.yaml')} --corefile ${file('Corefile')}$`))).toBe(2);
    expect(index(done, /rollout status deployment\/coredns/)).toBeGreaterThan(index(done, new RegExp(`apply -f ${file('coredns-deployment.yaml')}$`)));
    expect(index(done, /get endpoints kube-dns/)).toBeGreaterThan(index(done, new RegExp(`apply -f ${file('coredns-service.yaml')}$`)));
    expect(index(done, /scale deployment\/kube-dns --replicas=0/)).toBeGreaterThan(index(done, /get endpoints kube-dns/));
    expect(done.log.some((line) => line.includes('verify'))).toBe(false);
    expect(done.log.some((line) => line.includes('delete'))).toBe(false);
    expect(done.log.some((line) => line.startsWith('sleep'))).toBe(false);
    // The rollout of CoreDNS fails: kube-dns is never scaled down.
    const stopped = await run(script, { failing: 'rollout status deployment/coredns' });
    expect(stopped.status).not.toBe(0);
    expect(stopped.log.some((line) => line.includes('--replicas=0'))).toBe(false);
    // Without SKIP_VERIFY the live check runs, and its failure stops the script too.
    const unverified = await run(script, { failing: 'verify', environment: {} });
    expect(unverified.status, unverified.log.join('\n')).not.toBe(0);
    index(unverified, new RegExp(`^npx --offline kube-dns-to-coredns verify --coredns 1\\.14\\.7 --kube-dns ${file('kube-dns-rollback.yaml').replace(done.folder, unverified.folder)} --old .* --new`));
    expect(unverified.log.some((line) => line.includes('--replicas=0'))).toBe(false);
    // KUBE_DNS_TO_COREDNS replaces the command.
    const own = await run(script, { environment: { SKIP_VERIFY: '1', KUBE_DNS_TO_COREDNS: 'npx my-mirror/kube-dns-to-coredns' } });
    expect(own.log[0]).toBe('npx my-mirror/kube-dns-to-coredns --version');
  });

  it('stops, naming the variable, when the tool does not run; nothing is applied', async () => {
    const stopped = await run(formatCutoverScript(planned()), { failing: '--version' });
    expect(stopped.status).toBe(1);
    expect(stopped.stderr).toMatch(/cannot run 'npx --offline kube-dns-to-coredns': install the package .* or set KUBE_DNS_TO_COREDNS/);
    expect(stopped.log.some((line) => line.startsWith('kubectl'))).toBe(false);
  });

  it('waits until the endpoints list both kube-dns and CoreDNS pods, a bounded number of times, and stops before the scale-down when they never do', async () => {
    const script = formatCutoverScript(planned());
    for (const endpoints of ['kube-dns-6d5d8b9f7-abcde kube-dns-6d5d8b9f7-fghij', 'coredns-5d78c9869d-7xk2p', '']) {
      const stopped = await run(script, { endpoints });
      expect(stopped.status, endpoints).not.toBe(0);
      expect(stopped.log.filter((line) => /get endpoints kube-dns/.test(line))).toHaveLength(60);
      expect(stopped.log.filter((line) => line === 'sleep 5')).toHaveLength(60);
      expect(stopped.stderr).toMatch(/after 5 minutes the endpoints of Service kube-dns do not list both a kube-dns and a coredns pod/);
      expect(stopped.log.some((line) => line.includes('--replicas=0'))).toBe(false);
    }
    // In either order.
    const done = await run(script, { endpoints: 'kube-dns-6d5d8b9f7-abcde coredns-5d78c9869d-7xk2p' });
    expect(done.status, done.stderr).toBe(0);
  });

  it('stops before any apply when a coredns Deployment or ConfigMap already exists', async () => {
    const script = formatCutoverScript(planned());
    for (const found of ['deployment.apps/coredns', 'configmap/coredns', 'deployment.apps/coredns\nconfigmap/coredns']) {
      const stopped = await run(script, { found });
      expect(stopped.status, stopped.log.join('\n')).not.toBe(0);
      expect(stopped.stderr).toMatch(/coredns already in kube-system: the apply would replace it/);
      expect(stopped.log.some((line) => line.includes('apply'))).toBe(false);
    }
  });

  it("'rollback' brings kube-dns back and waits until it is Ready before CoreDNS is scaled down, and runs nothing of the cut-over", async () => {
    const plan = planned(readFileSync(join(root, 'golden/deployment/kops-1.12-kube-dns-1.14.13.yaml'), 'utf8'), '1.8.0');
    const script = formatCutoverScript(plan);
    const done = await run(script, { action: 'rollback', autoscaler: true });
    expect(done.status, done.stderr).toBe(0);
    expect(done.log).toEqual([
      `kubectl apply -f ${join(done.folder, 'kube-dns-rollback.yaml')}`,
      'kubectl -n kube-system scale deployment/kube-dns --replicas=1',
      'kubectl -n kube-system rollout status deployment/kube-dns --timeout=5m',
      'kubectl -n kube-system scale deployment/kube-dns-autoscaler --replicas=1',
      'kubectl -n kube-system scale deployment/coredns --replicas=0',
    ]);
    expect(readFileSync(join(done.folder, 'kube-dns-rollback.yaml'), 'utf8')).toBe(plan.files.find((file) => file.name === 'kube-dns-rollback.yaml')?.content);
    // kube-dns never becomes Ready: CoreDNS stays.
    const stuck = await run(script, { action: 'rollback', failing: 'rollout status deployment/kube-dns' });
    expect(stuck.status).not.toBe(0);
    expect(stuck.log.some((line) => line.includes('deployment/coredns'))).toBe(false);
    const wrong = await run(script, { action: 'rolback' });
    expect(wrong.status).toBe(2);
    expect(wrong.log).toEqual([]);
  });
});
