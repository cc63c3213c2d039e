/**
 * The switch from kube-dns to CoreDNS as ordered steps, each with its kubectl commands and what to
 * wait for (docs/migration-guide.md): pre-flight (lint and the routing check: while kube-dns and
 * CoreDNS pods are endpoints of the same Service a name is answered by either, so the overlap is
 * safe only when they route alike), apply, wait, live check, scale kube-dns down, what to delete
 * later; and the rollback, with the kube-dns objects exactly as they were read.
 */
import { checkArgument, checkOptions } from '../errors/arguments.js';
import type { CoreDnsVersion } from '../coredns/versions.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import type { KubeDnsInstall } from '../kubedns/kube-dns-install.js';
import { lintCorefile } from '../lint/lint.js';
import { SLICES_ONLY_FROM } from '../coredns/kubeadm-coredns-manifests.js';
import { formatRoutingCheck } from '../routing/check.js';
import type { RoutingCheck } from '../routing/check.js';
import { buildCoreDnsInstall, CoreDnsInstallInputError, renderInstallYaml, replicaCount, withoutServerFields } from './install.js';
import { installRoutingCheck } from './merge-check.js';
import type { CoreDnsInstallOptions, KubernetesObjectValue } from './install.js';

export interface CutoverOptions extends CoreDnsInstallOptions {
  /** How the kube-dns install file is named in the commands (the live check reads it). Default `kube-dns.yaml`. */
  readonly kubeDnsFile?: string;
}

/** One step of the plan. */
export interface CutoverStep {
  readonly id: string;
  readonly title: string;
  /** Why the step is there and what it changes. */
  readonly why: string;
  /** The shell commands, in order; each must succeed. */
  readonly commands: readonly string[];
  /** What to wait for before the next step (also a command among `commands` where it can be). */
  readonly waitFor?: string;
  /** A step a script does not run by itself (the live check needs the pod network; deleting kube-dns comes days later). */
  readonly manual?: boolean;
}

/** A file the plan's commands read; the plan writes it (`-o script`: a here-document). */
export interface CutoverFile {
  readonly name: string;
  readonly content: string;
}

export type CutoverPlan =
  | {
      readonly ok: true;
      readonly coredns: CoreDnsVersion;
      readonly namespace: string;
      readonly files: readonly CutoverFile[];
      readonly steps: readonly CutoverStep[];
      readonly rollback: readonly CutoverStep[];
      readonly check: RoutingCheck;
      readonly diagnostics: readonly Diagnostic[];
    }
  | {
      readonly ok: false;
      readonly coredns: CoreDnsVersion;
      /** Why there is no plan: the translation was refused, lint found errors, or the routing check failed. */
      readonly refusal: string;
      readonly check: RoutingCheck | undefined;
      readonly diagnostics: readonly Diagnostic[];
    };

const FILES = { corefile: 'Corefile', rbac: 'coredns-rbac.yaml', configMap: 'coredns-configmap.yaml', deployment: 'coredns-deployment.yaml', service: 'coredns-service.yaml', rollback: 'kube-dns-rollback.yaml' } as const;
const ROLLOUT_TIMEOUT = '--timeout=5m';
/** How the plan's commands run this tool (docs: installed in the project, run with npx); the script puts a variable in its place. */
const TOOL = 'npx kube-dns-to-coredns';

/**
 * Plans the cut-over for a kube-dns install. A refused translation, a Corefile the target refuses
 * (lint errors) or a routing difference between kube-dns and the Corefile gives `ok: false` with the
 * reason: the overlap of both would answer some names differently. Throws what
 * {@link buildCoreDnsInstall} throws, and `CoreDnsInstallInputError` (`workload-is-pod`) when the
 * kube-dns workload is a Pod given on its own (there is nothing to scale down and bring back).
 */
export function planCutover(install: KubeDnsInstall, options: CutoverOptions = {}): CutoverPlan {
  checkOptions('planCutover', 'install', install, { configMap: 'object?', deployment: 'object?', service: 'object?', diagnostics: 'array' }, true);
  checkArgument('planCutover', 'options', options, 'object?');
  const { kubeDnsFile = 'kube-dns.yaml', ...installOptions } = options;
  if (install.deployment?.kind === 'Pod') {
    const name = `${install.deployment.namespace ?? 'kube-system'}/${install.deployment.name ?? '(unnamed)'}`;
    throw new CoreDnsInstallInputError(
      'workload-is-pod',
      `kube-dns is given as Pod ${name}: the cut-over scales kube-dns's workload to 0 and its rollback brings that workload back, and a Pod is one replica of it; give the Deployment (or ReplicationController) the Pod belongs to (kubectl -n ${install.deployment.namespace ?? 'kube-system'} get deploy/kube-dns svc/kube-dns cm/kube-dns -o yaml)`,
    );
  }
  const built = buildCoreDnsInstall(install, installOptions);
  if (!built.ok) return { ok: false, coredns: built.coredns, refusal: 'the translation was refused (see the errors): there is no CoreDNS configuration to switch to', check: undefined, diagnostics: built.diagnostics };
  const { translation, coredns } = built;
  // A cluster too old for the target: no CoreDNS pod would become Ready, so the rollout never finishes.
  if (built.diagnostics.some((entry) => entry.code === 'install-coredns-too-new')) {
    return { ok: false, coredns, refusal: `the cluster is too old for CoreDNS ${coredns} (install-coredns-too-new above): its pods would never become Ready and the rollout could not finish; target a release before ${SLICES_ONLY_FROM}, or upgrade the cluster first`, check: undefined, diagnostics: built.diagnostics };
  }
  const lint = lintCorefile(translation.corefile, { coredns });
  const lintErrors = lint.diagnostics.filter((entry) => entry.severity === 'error');
  const diagnostics = [...built.diagnostics, ...lint.diagnostics];
  if (lintErrors.length > 0) return { ok: false, coredns, refusal: `CoreDNS ${coredns} would refuse the Corefile (lint errors above)`, check: undefined, diagnostics };
  const check = installRoutingCheck(install, options, translation.model);
  // Routing must agree: during the overlap either server answers. NXDOMAIN caching that differs is a
  // behaviour change the translator already reported (negative-caching-shortened); it does not stop the plan.
  if (check.differences.length > 0) {
    return { ok: false, coredns, refusal: `the check failed: during the overlap kube-dns and CoreDNS would answer these names differently\n${formatRoutingCheck(check)}`, check, diagnostics };
  }
  const objects = built.objects;
  const kind = (name: string) => objects.filter((object) => object['kind'] === name);
  const namespace = String((kind('Deployment')[0]?.['metadata'] as { namespace?: string } | undefined)?.namespace ?? 'kube-system');
  const rollbackObjects = rollbackOf(install);
  const files: CutoverFile[] = [
    { name: FILES.corefile, content: translation.corefile },
    { name: FILES.rbac, content: renderInstallYaml([...kind('ServiceAccount'), ...kind('ClusterRole'), ...kind('ClusterRoleBinding')]) },
    { name: FILES.configMap, content: renderInstallYaml(kind('ConfigMap')) },
    { name: FILES.deployment, content: renderInstallYaml(kind('Deployment')) },
    { name: FILES.service, content: renderInstallYaml(kind('Service')) },
    ...(rollbackObjects.length === 0 ? [] : [{ name: FILES.rollback, content: renderInstallYaml(rollbackObjects) }]),
  ];
  // check and verify read the kube-dns objects the plan writes (the rollback file), with the options of this plan.
  // Every value from the input or the options is one shell word in the commands (shellWord), even
  // where the reader has already checked it (names as Kubernetes takes them): the commands are run
  // by a shell, as the script or pasted, and a value must never become shell syntax there.
  const kubeDnsInput = rollbackObjects.length === 0 ? shellWord(kubeDnsFile) : FILES.rollback;
  const sameOptions = [
    `--coredns ${shellWord(coredns)}`,
    ...(options.clusterDomain === undefined ? [] : [`--cluster-domain ${shellWord(options.clusterDomain)}`]),
    ...(options.kubeDnsVersion === undefined ? [] : [`--kube-dns-version ${shellWord(options.kubeDnsVersion)}`]),
  ].join(' ');
  const kubectl = `kubectl -n ${shellWord(namespace)}`;
  const kubeDnsName = install.deployment?.name ?? 'kube-dns';
  const kubeDnsKind = (install.deployment?.kind ?? 'Deployment').toLowerCase();
  /** `kind/name` of the kube-dns workload, as one word. */
  const kubeDnsWorkload = shellWord(`${kubeDnsKind}/${kubeDnsName}`);
  const serviceName = install.service?.name ?? 'kube-dns';
  const autoscaler = install.autoscaler === undefined ? undefined : shellWord(`${install.autoscaler.kind.toLowerCase()}/${install.autoscaler.name ?? 'kube-dns-autoscaler'}`);
  const replicas = replicasOf(install.deployment);
  // A ReplicationController has no rollout status; its pods cannot be told from CoreDNS's by labels
  // (both carry k8s-app: kube-dns), so the wait reads the controller's own counts.
  const waitForReplicationController = (field: 'replicas' | 'readyReplicas', count: number) =>
    `${kubectl} wait --for=jsonpath='{.status.${field}}'=${count} ${kubeDnsWorkload} ${ROLLOUT_TIMEOUT}`;
  // The pods the Service selects (its own selector, which the install keeps), told apart by name as
  // the endpoints wait does: kube-dns's are named after its workload, CoreDNS's after the coredns
  // Deployment. (A first container named `kubedns` missed kube-dns pods that name it otherwise.)
  const serviceSelector = Object.entries(record(record(kind('Service')[0]?.['spec'])['selector']))
    .map(([label, value]) => `${label}=${String(value)}`)
    .join(',');
  const podIps = (workload: string) =>
    `${kubectl} get pods -l ${shellWord(serviceSelector === '' ? 'k8s-app=kube-dns' : serviceSelector)} -o jsonpath='{range .items[*]}{.metadata.name} {.status.podIP}{"\\n"}{end}' | awk -v prefix=${shellWord(`${workload}-`)} 'index($1, prefix) == 1 { print $2 }'`;
  // The Service's ready endpoints, by pod name: CoreDNS's pods are named after the coredns
  // Deployment, kube-dns's after its workload; both must be listed before kube-dns goes.
  const endpointTries = 60;
  const endpointsListBoth = [
    `BOTH=no; i=0; while [ "$i" -lt ${endpointTries} ]; do EP=" $(${kubectl} get endpoints ${shellWord(serviceName)} -o jsonpath='{.subsets[*].addresses[*].targetRef.name}') "; case "$EP" in *" coredns-"*) case "$EP" in *${shellWord(` ${kubeDnsName}-`)}*) BOTH=yes; break ;; esac ;; esac; i=$((i + 1)); sleep 5; done`,
    `test "$BOTH" = yes || { echo ${shellWord(`kube-dns-to-coredns: after ${(endpointTries * 5) / 60} minutes the endpoints of Service ${serviceName} do not list both a ${kubeDnsName} and a coredns pod (listed:`)}"$EP"'); stop here' >&2; false; }`,
  ];
  const steps: CutoverStep[] = [
    {
      id: 'pre-flight',
      title: `Pre-flight: the Corefile loads on CoreDNS ${coredns} and routes every name as kube-dns does`,
      why: `While kube-dns and CoreDNS pods are both endpoints of the kube-dns Service, each query goes to either; the overlap is safe only because the check passed (${check.names.length} names routed alike). Nothing named coredns may exist yet: the apply would replace it.`,
      commands: [
        `${TOOL} lint --coredns ${coredns} ${FILES.corefile}`,
        `${TOOL} check ${sameOptions} --kube-dns ${kubeDnsInput} --corefile ${FILES.corefile}`,
        `FOUND=$(${kubectl} get deployment/coredns configmap/coredns -o name --ignore-not-found)`,
        `test -z "$FOUND" || { echo "kube-dns-to-coredns: $FOUND already in "${shellWord(`${namespace}: the apply would replace it; remove it first or stop here`)} >&2; false; }`,
      ],
      waitFor: 'lint and check exit 0, and so does the test: FOUND is empty (no coredns Deployment or ConfigMap exists; otherwise stop, the apply would replace it)',
    },
    {
      id: 'apply-rbac',
      title: 'Apply the ServiceAccount, ClusterRole and ClusterRoleBinding',
      why: `What CoreDNS ${coredns}'s kubernetes plugin lists and watches; nothing else, no write verbs.`,
      commands: [`kubectl apply -f ${FILES.rbac}`],
    },
    {
      id: 'apply-configmap',
      title: 'Apply the CoreDNS ConfigMap',
      why: "The translator's Corefile as the coredns ConfigMap; the kube-dns ConfigMap stays as it is.",
      commands: [`kubectl apply -f ${FILES.configMap}`],
    },
    {
      id: 'apply-deployment',
      title: 'Apply the CoreDNS Deployment and wait for its rollout',
      why: 'Its pods carry k8s-app: kube-dns, so they join the kube-dns Service as each becomes Ready (its readiness probe); kube-dns keeps answering meanwhile.',
      commands: [`kubectl apply -f ${FILES.deployment}`, `${kubectl} rollout status deployment/coredns ${ROLLOUT_TIMEOUT}`],
      waitFor: 'every CoreDNS pod Ready (rollout status exits 0)',
    },
    {
      id: 'apply-service',
      title: 'Apply the kube-dns Service and wait until its endpoints list both kube-dns and CoreDNS pods',
      why: `The same Service, cluster IP and selector: only ports for the Corefile listeners it lacked are added. Its endpoints never empty. The wait reads the Service's ready endpoints (Endpoints, served by every Kubernetes release) every 5 s, at most ${endpointTries} times.`,
      commands: [`kubectl apply -f ${FILES.service}`, ...endpointsListBoth],
      waitFor: `the endpoints of Service ${serviceName} list both a ${kubeDnsName} pod and a coredns pod (the loop above; it fails after ${(endpointTries * 5) / 60} minutes)`,
    },
    {
      id: 'live-check',
      title: 'Live check: ask a kube-dns pod and a CoreDNS pod the same names',
      why: 'From a place that reaches the pod network (a Job in the cluster, see the migration guide): exit 0 when the answers agree or every difference is expected.',
      commands: [`OLD=$(${podIps(kubeDnsName)} | head -n 1)`, `NEW=$(${podIps('coredns')} | head -n 1)`, `${TOOL} verify ${sameOptions} --kube-dns ${kubeDnsInput} --old "$OLD" --new "$NEW"`],
      waitFor: 'verify exits 0',
      manual: true,
    },
    {
      id: 'scale-down-kube-dns',
      title: 'Scale kube-dns to 0, keeping its objects',
      why:
        autoscaler === undefined
          ? `CoreDNS alone answers for the Service from now on. A kube-dns-autoscaler would scale kube-dns back up: if the cluster has one it is scaled to 0 first (INSTALL does not hold it, so the rollback leaves it at 0: give it in INSTALL to have it restored). ${AUTOSCALER_TARGET} The kube-dns objects stay for the rollback.`
          : `CoreDNS alone answers for the Service from now on. ${install.autoscaler?.name ?? 'The autoscaler'} would scale kube-dns back up: it is scaled to 0 first (the rollback restores it as read). ${AUTOSCALER_TARGET} The kube-dns objects stay for the rollback.`,
      commands: [
        autoscaler === undefined
          ? `if ${kubectl} get deployment/kube-dns-autoscaler >/dev/null 2>&1; then ${kubectl} scale deployment/kube-dns-autoscaler --replicas=0; fi`
          : `${kubectl} scale ${autoscaler} --replicas=0`,
        `${kubectl} scale ${kubeDnsWorkload} --replicas=0`,
        kubeDnsKind === 'deployment' ? `${kubectl} rollout status ${kubeDnsWorkload} ${ROLLOUT_TIMEOUT}` : waitForReplicationController('replicas', 0),
      ],
      waitFor: 'no kube-dns pod left; the endpoints list only CoreDNS pods',
    },
    {
      id: 'delete-later',
      title: 'Later, once CoreDNS has run long enough: delete the kube-dns objects',
      why: 'Only when no rollback can be needed any more; keep the rollback file until then.',
      commands: [`${kubectl} delete ${kubeDnsWorkload} configmap/kube-dns --ignore-not-found`, `${kubectl} delete serviceaccount/kube-dns ${autoscaler ?? 'deployment/kube-dns-autoscaler'} --ignore-not-found`],
      manual: true,
    },
  ];
  const rollback: CutoverStep[] = [
    {
      id: 'restore-kube-dns',
      title: 'Bring kube-dns back as it was read, and wait until it is Ready',
      why: [
        rollbackObjects.length === 0
          ? `INSTALL held no kube-dns object to restore: kube-dns is scaled back to ${replicas}.`
          : `${FILES.rollback} holds the kube-dns objects exactly as they were read (without the fields the API server and kubectl write: status, uid, resourceVersion, creationTimestamp, generation, managedFields, the revision and last-applied annotations), written by this tool, never fetched. The scale makes sure of ${replicas} replica${replicas === 1 ? '' : 's'} (an apply keeps the count the cut-over set when the object names none).`,
        autoscaler === undefined
          ? 'INSTALL held no kube-dns-autoscaler: the rollback leaves it alone (if the cut-over scaled one to 0, scale it back to its count yourself).'
          : `${install.autoscaler?.name ?? 'The autoscaler'} comes back with the file, as it was read, and its ${replicasOf(install.autoscaler)} replica${replicasOf(install.autoscaler) === 1 ? '' : 's'}.`,
        'kube-dns must answer before CoreDNS goes.',
      ].join(' '),
      commands: [
        ...(rollbackObjects.length === 0 ? [] : [`kubectl apply -f ${FILES.rollback}`]),
        `${kubectl} scale ${kubeDnsWorkload} --replicas=${replicas}`,
        kubeDnsKind === 'deployment' ? `${kubectl} rollout status ${kubeDnsWorkload} ${ROLLOUT_TIMEOUT}` : waitForReplicationController('readyReplicas', replicas),
        ...(autoscaler === undefined ? [] : [`${kubectl} scale ${autoscaler} --replicas=${replicasOf(install.autoscaler)}`]),
      ],
      waitFor: 'every kube-dns pod Ready',
    },
    {
      id: 'scale-down-coredns',
      title: 'Then scale CoreDNS to 0',
      why: 'The Service keeps kube-dns pods as endpoints throughout.',
      commands: [`${kubectl} scale deployment/coredns --replicas=0`],
    },
  ];
  return { ok: true, coredns, namespace, files, steps, rollback, check, diagnostics };
}

/** What an autoscaler of kube-dns does not do by itself: scale CoreDNS, which starts at the install's replica count. */
const AUTOSCALER_TARGET =
  'Nothing scales CoreDNS then: it keeps the replica count of the install. To have the cluster-proportional-autoscaler scale it, run one whose --target is deployment/coredns (and, once it works, delete the kube-dns one).';

/**
 * The replica count kube-dns (or its autoscaler) comes back with: its `spec.replicas` as read, else (a manifest that
 * names none) the count its status showed, else 1, as the API server defaults it; never 0.
 */
function replicasOf(workload: { readonly object: KubernetesObjectValue } | undefined): number {
  return replicaCount(workload?.object['spec']) ?? replicaCount(workload?.object['status']) ?? 1;
}

/** The kube-dns objects as read, without what the API server wrote: the workload (with its replica count), the Service, the ConfigMap, the autoscaler. */
function rollbackOf(install: KubeDnsInstall): KubernetesObjectValue[] {
  return [install.deployment?.object, install.service?.object, install.configMapObject, install.autoscaler?.object].filter((object): object is KubernetesObjectValue => object !== undefined).map(withoutServerFields);
}

const PLAN_FIELDS = { steps: 'array', rollback: 'array', files: 'array', coredns: 'string', namespace: 'string' } as const;

/** The plan as text: numbered steps, their commands and waits, the rollback, the files. */
export function formatCutoverText(plan: CutoverPlan & { readonly ok: true }): string {
  checkOptions('formatCutoverText', 'plan', plan, PLAN_FIELDS, true);
  const step = (entry: CutoverStep, index: number) =>
    [`${index + 1}. ${entry.title}${entry.manual === true ? ' (by hand)' : ''}`, `   ${entry.why}`, ...entry.commands.map((command) => `     $ ${command}`), ...(entry.waitFor === undefined ? [] : [`   Wait for: ${entry.waitFor}`]), ''].join('\n');
  return [
    `Cut-over from kube-dns to CoreDNS ${plan.coredns} (namespace ${plan.namespace})`,
    '',
    `Files (write them first; -o script writes them itself): ${plan.files.map((file) => file.name).join(', ')}`,
    '',
    ...plan.steps.map(step),
    'Rollback (in this order):',
    '',
    ...plan.rollback.map(step),
    ...plan.files.flatMap((file) => [`--- ${file.name}`, file.content.replace(/\n?$/, '\n')]),
  ].join('\n');
}

/**
 * The plan as a POSIX shell script (`sh cutover.sh` runs the cut-over, `sh cutover.sh rollback`
 * the rollback): `set -eu`; the files as here-documents written next to the script (`$DIR`), and
 * the commands naming them there, so the script runs from any folder; the tool run as
 * `$KUBE_DNS_TO_COREDNS` (default `npx --offline kube-dns-to-coredns`: the copy installed where the
 * script runs, never one fetched from a registry), checked before the first step; each step's
 * commands and waits. The live check is skipped with `SKIP_VERIFY=1`; deleting kube-dns is left as
 * comments.
 */
export function formatCutoverScript(plan: CutoverPlan & { readonly ok: true }): string {
  checkOptions('formatCutoverScript', 'plan', plan, PLAN_FIELDS, true);
  const names = new Set(plan.files.map((file) => file.name));
  // The plan's commands name its files as written in the current folder and run the tool with npx:
  // here each file is "$DIR/NAME" and the tool $KUBE_DNS_TO_COREDNS.
  const scripted = (command: string) =>
    shellWords(command.startsWith(`${TOOL} `) ? `$KUBE_DNS_TO_COREDNS ${command.slice(TOOL.length + 1)}` : command)
      .map((word) => (names.has(word) ? `"$DIR/${word}"` : word))
      .join(' ');
  const heredoc = (file: CutoverFile) => {
    let marker = 'KUBE_DNS_TO_COREDNS_EOF';
    while (file.content.split('\n').includes(marker)) marker += '_';
    return `cat > "$DIR/${file.name}" <<'${marker}'\n${file.content.replace(/\n?$/, '\n')}${marker}`;
  };
  const echo = (text: string) => `echo '${oneLine(text).replaceAll("'", '')}'`;
  // A comment is one line: a line break in a value (the reader refuses one in a name) would end it.
  const comment = (text: string) => `# ${oneLine(text)}`;
  const lines = [
    '#!/bin/sh',
    comment(`Cut-over from kube-dns to CoreDNS ${plan.coredns}, written by kube-dns-to-coredns cutover.`),
    '#   sh cutover.sh            the cut-over: the steps in order, stopping at the first failure',
    '#   sh cutover.sh rollback   the rollback: kube-dns back and Ready, then CoreDNS scaled to 0',
    '# The files are written next to this script. The live check needs the pod network: run this where',
    '# it is reachable, or set SKIP_VERIFY=1 after running `verify` yourself. KUBE_DNS_TO_COREDNS is the',
    '# command that runs kube-dns-to-coredns (default: the copy installed in the project you run this',
    '# from, see its README; never fetched).',
    'set -eu',
    'DIR=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)',
    'KUBE_DNS_TO_COREDNS=${KUBE_DNS_TO_COREDNS:-npx --offline kube-dns-to-coredns}',
    'ACTION=${1:-cutover}',
    'case "$ACTION" in cutover | rollback) ;; *) echo "usage: sh $0 [cutover|rollback]" >&2; exit 2 ;; esac',
    '',
    ...plan.files.map(heredoc),
    '',
    'if [ "$ACTION" = rollback ]; then',
  ];
  for (const step of plan.rollback) lines.push(`  ${comment(step.why)}`, `  ${echo(`== Rollback: ${step.title}`)}`, ...step.commands.map((command) => `  ${scripted(command)}`));
  lines.push(
    `  ${echo(`kube-dns is back and CoreDNS is scaled to 0.`)}`,
    '  exit 0',
    'fi',
    '',
    '$KUBE_DNS_TO_COREDNS --version >/dev/null 2>&1 || { echo "kube-dns-to-coredns: cannot run \'$KUBE_DNS_TO_COREDNS\': install the package in the project you run this script from (see its README), or set KUBE_DNS_TO_COREDNS to a command that runs it" >&2; exit 1; }',
    '',
  );
  plan.steps.forEach((step, index) => {
    lines.push(comment(`${index + 1}. ${step.title}`), comment(`   ${step.why}`));
    if (step.id === 'delete-later') {
      lines.push('#    Not run here; later:', ...step.commands.map((command) => comment(`   ${command}`)), '');
      return;
    }
    if (step.manual === true) {
      lines.push('if [ "${SKIP_VERIFY:-}" != 1 ]; then', ...step.commands.map((command) => `  ${scripted(command)}`), 'fi', '');
      return;
    }
    lines.push(echo(`== ${index + 1}. ${step.title}`), ...step.commands.map(scripted), '');
  });
  lines.push(`echo "kube-dns is scaled to 0; its objects are kept. To go back: sh $0 rollback"`);
  return `${lines.join('\n')}\n`;
}

/** The plan as JSON: the steps in order, each with its commands, the rollback, the files. */
export function formatCutoverJson(plan: CutoverPlan): string {
  checkOptions('formatCutoverJson', 'plan', plan, { ok: 'boolean', diagnostics: 'array' }, true);
  const body = plan.ok
    ? { ok: true, coredns: plan.coredns, namespace: plan.namespace, steps: plan.steps, rollback: plan.rollback, files: plan.files, diagnostics: plan.diagnostics }
    : { ok: false, coredns: plan.coredns, refusal: plan.refusal, differences: plan.check?.differences ?? [], diagnostics: plan.diagnostics };
  return `${JSON.stringify(body, null, 2)}\n`;
}

function record(value: unknown): Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * A command split at the spaces outside quotes (the plan's commands separate words by one space):
 * a quoted value holding a space and a file's name stays one word, so only a file named on its
 * own is taken as the file.
 */
function shellWords(command: string): string[] {
  const words: string[] = [];
  let word = '';
  let quote: "'" | '"' | undefined;
  for (let index = 0; index < command.length; index += 1) {
    const char = command[index] as string;
    if (quote === undefined && char === ' ') {
      words.push(word);
      word = '';
      continue;
    }
    word += char;
    if (quote === undefined && char === '\\' && index + 1 < command.length) {
      word += command[index + 1] as string;
      index += 1;
    } else if (quote === '"' && char === '\\' && index + 1 < command.length) {
      word += command[index + 1] as string;
      index += 1;
    } else if (quote === undefined && (char === "'" || char === '"')) quote = char;
    else if (char === quote) quote = undefined;
  }
  words.push(word);
  return words;
}

/** `text` on one line: each run of line breaks a space. */
function oneLine(text: string): string {
  return text.replace(/[\r\n\u2028\u2029]+/g, ' ');
}

/** `text` as one word of the script: as it is when it holds only characters the shell leaves alone, else single-quoted. */
function shellWord(text: string): string {
  return /^[A-Za-z0-9_./=,:-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
