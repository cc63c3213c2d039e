import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { loadAll } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { COREDNS_VERSIONS, compareCoreDnsVersions } from '../../src/coredns/versions.js';
import type { CoreDnsVersion } from '../../src/coredns/versions.js';
import { buildCoreDnsInstall, CoreDnsInstallInputError } from '../../src/install/install.js';
import type { KubernetesObjectValue } from '../../src/install/install.js';
import { coreDnsImage, kubeadmManifestFor, privateRepositoryOf } from '../../src/coredns/kubeadm-coredns-manifests.js';
import { checkCrossObjectRules, InstallValidationError, validateInstallObjects } from '../../src/install/validate-install.js';
import { readKubeDnsInstall } from '../../src/kubedns/kube-dns-install.js';
import { translateKubeDnsInstall } from '../../src/translate/translate.js';
import { kubeDnsData, validKubeDnsInput } from '../support/kube-dns-arbitraries.js';
import { configMapYaml, deploymentYaml } from '../support/kube-dns-manifests.js';
import { Outcomes } from '../support/outcomes.js';

const service = (clusterIP: string, selector: Readonly<Record<string, string>> = { 'k8s-app': 'kube-dns' }) =>
  [
    'apiVersion: v1',
    'kind: Service',
    'metadata: {name: kube-dns, namespace: kube-system}',
    'spec:',
    `  clusterIP: ${clusterIP}`,
    `  selector: ${JSON.stringify(selector)}`,
    '  ports: [{name: dns, port: 53, protocol: UDP}, {name: dns-tcp, port: 53, protocol: TCP}]',
    '',
  ].join('\n');

const readInstall = (...texts: string[]) => readKubeDnsInstall([{ text: texts.join('---\n'), filename: 'kube-dns.yaml' }]);
const byKind = (objects: readonly KubernetesObjectValue[], kind: string) => objects.find((object) => object['kind'] === kind) as Record<string, any>;

describe('buildCoreDnsInstall', () => {
  it('the laws: the ConfigMap holds the translator Corefile, the Service keeps its cluster IP and selector, every object validates', () => {
    const outcomes = new Outcomes<'installed' | 'refused' | 'extra-selector'>();
    const releases = fc.constantFrom<CoreDnsVersion>('1.2.6', '1.5.0', '1.7.0', '1.8.0', '1.8.4', '1.9.3', '1.11.0', '1.12.1', '1.14.7');
    const selectors = fc.oneof(fc.constant({ 'k8s-app': 'kube-dns' }), fc.constant({ 'k8s-app': 'kube-dns', tier: 'dns' }));
    fc.assert(
      fc.property(validKubeDnsInput(), releases, fc.nat(255), selectors, (input, coredns, octet, selector) => {
        const clusterIp = `10.96.${octet}.10`;
        const install = readInstall(deploymentYaml(), service(clusterIp, selector), configMapYaml(kubeDnsData(input)));
        const result = buildCoreDnsInstall(install, { coredns, dropFederations: true });
        const translation = translateKubeDnsInstall(install, { coredns, dropFederations: true });
        expect(result.ok).toBe(translation.ok);
        if (!result.ok) {
          expect(result.objects).toBeUndefined();
          outcomes.add('refused');
          return;
        }
        outcomes.add('installed');
        if (Object.keys(selector).length > 1) outcomes.add('extra-selector');
        expect(byKind(result.objects, 'ConfigMap')['data']['Corefile']).toBe(translation.corefile);
        const svc = byKind(result.objects, 'Service');
        expect(svc['spec']['clusterIP']).toBe(clusterIp);
        expect(svc['spec']['selector']).toEqual(selector);
        expect(() => validateInstallObjects(result.objects)).not.toThrow();
        const deployment = byKind(result.objects, 'Deployment');
        expect(deployment['spec']['template']['spec']['containers'][0]['image']).toBe(coreDnsImage(coredns, kubeadmManifestFor(coredns), undefined));
      }),
      { numRuns: 60 },
    );
    outcomes.expectAtLeast({ installed: 30, refused: 1, 'extra-selector': 10 });
  });

  it('grants what the release reads: Endpoints up to 1.8.0, both from 1.8.1, EndpointSlices only from 1.11.0; no write verbs', () => {
    const install = readInstall(deploymentYaml(), service('10.96.0.10'), configMapYaml({}));
    const seen = new Set<string>();
    for (const coredns of COREDNS_VERSIONS) {
      const result = buildCoreDnsInstall(install, { coredns });
      if (!result.ok) continue;
      const rules = byKind(result.objects, 'ClusterRole')['rules'] as { apiGroups: string[]; resources: string[]; verbs: string[] }[];
      const granted = rules.flatMap((rule) => rule.resources.map((resource) => `${rule.apiGroups[0]}/${resource}`)).sort();
      const slices = compareCoreDnsVersions(coredns, '1.8.1') >= 0;
      const endpoints = compareCoreDnsVersions(coredns, '1.11.0') < 0;
      expect(granted, coredns).toEqual(['/namespaces', '/services', ...(endpoints ? ['/endpoints'] : []), ...(slices ? ['discovery.k8s.io/endpointslices'] : [])].sort());
      expect(rules.flatMap((rule) => rule.verbs).every((verb) => verb === 'list' || verb === 'watch')).toBe(true);
      seen.add(granted.join(','));
    }
    expect(seen.size).toBe(3);
  });

  it('carries the kube-dns scheduling over, with a diagnostic for each setting', () => {
    const deployment = deploymentYaml().replace('    spec:\n      containers:', '    spec:\n      nodeSelector: {pool: dns}\n      priorityClassName: dns-critical\n      hostNetwork: true\n      containers:').replace('  template:', '  replicas: 4\n  template:');
    const result = buildCoreDnsInstall(readInstall(deployment, service('10.0.0.10'), configMapYaml({})), { coredns: '1.14.7' });
    if (!result.ok) throw new Error('refused');
    const pod = byKind(result.objects, 'Deployment')['spec'];
    expect(pod['replicas']).toBe(4);
    expect(pod['template']['spec']['nodeSelector']).toEqual({ 'kubernetes.io/os': 'linux', pool: 'dns' });
    expect(pod['template']['spec']['priorityClassName']).toBe('dns-critical');
    expect(pod['template']['spec']['hostNetwork']).toBeUndefined();
    const codes = result.diagnostics.filter((entry) => entry.code.startsWith('install-')).map((entry) => `${entry.code} ${entry.path ?? ''}`);
    expect(codes).toEqual(
      expect.arrayContaining([
        'install-setting-carried .spec.replicas',
        'install-setting-carried .spec.template.spec.nodeSelector',
        'install-setting-carried .spec.template.spec.priorityClassName',
        'install-setting-dropped .spec.template.spec.hostNetwork',
        'install-service-port-added .spec.ports',
      ]),
    );
  });

  it('a REQUIRED anti-affinity selecting the CoreDNS pods (k8s-app: kube-dns, as kube-dns pods) becomes preferred with a warning; other required terms stay', () => {
    const term = (selector: string, topology = 'kubernetes.io/hostname') => `          - {labelSelector: ${selector}, topologyKey: ${topology}}\n`;
    const affinity = (terms: string) => `      affinity:\n        podAntiAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n${terms}`;
    const build = (terms: string) => {
      const deployment = deploymentYaml().replace('    spec:\n      containers:', `    spec:\n${affinity(terms)}      containers:`);
      const result = buildCoreDnsInstall(readInstall(deployment, service('10.0.0.10'), configMapYaml({})), { coredns: '1.14.7' });
      if (!result.ok) throw new Error('refused');
      const anti = byKind(result.objects, 'Deployment')['spec']['template']['spec']['affinity']['podAntiAffinity'];
      return { anti, relaxed: result.diagnostics.filter((entry) => entry.code === 'install-anti-affinity-relaxed') };
    };
    const own = build(term('{matchLabels: {k8s-app: kube-dns}}'));
    expect(own.anti['requiredDuringSchedulingIgnoredDuringExecution']).toBeUndefined();
    expect(own.anti['preferredDuringSchedulingIgnoredDuringExecution']).toEqual([{ weight: 100, podAffinityTerm: { labelSelector: { matchLabels: { 'k8s-app': 'kube-dns' } }, topologyKey: 'kubernetes.io/hostname' } }]);
    expect(own.relaxed).toHaveLength(1);
    expect(own.relaxed[0]?.severity).toBe('warning');
    const expression = build(term('{matchExpressions: [{key: k8s-app, operator: In, values: [kube-dns, coredns]}]}'));
    expect(expression.relaxed).toHaveLength(1);
    // A term that does not select the CoreDNS pods (another app) stays required, and so does NotIn kube-dns.
    const other = build(term('{matchLabels: {app: ingress}}') + term('{matchExpressions: [{key: k8s-app, operator: NotIn, values: [kube-dns]}]}', 'zone'));
    expect(other.relaxed).toHaveLength(0);
    expect(other.anti['requiredDuringSchedulingIgnoredDuringExecution']).toHaveLength(2);
    const mixed = build(term('{matchLabels: {app: ingress}}') + term('{matchLabels: {k8s-app: kube-dns}}'));
    expect(mixed.anti['requiredDuringSchedulingIgnoredDuringExecution']).toEqual([{ labelSelector: { matchLabels: { app: 'ingress' } }, topologyKey: 'kubernetes.io/hostname' }]);
    expect(mixed.anti['preferredDuringSchedulingIgnoredDuringExecution']).toHaveLength(1);
  });

  it("keeps one of each toleration: kube-dns's own master toleration, as kubectl prints it (effect before key), is not added again", () => {
    const tolerations = '      tolerations:\n      - {effect: NoSchedule, key: node-role.kubernetes.io/master}\n      - {key: CriticalAddonsOnly, operator: Exists}\n      - {effect: NoSchedule, key: node-role.kubernetes.io/master, operator: Exists}\n      - {key: dedicated, operator: Equal, value: dns, effect: NoSchedule}\n';
    const deployment = deploymentYaml().replace('    spec:\n      containers:', `    spec:\n${tolerations}      containers:`);
    for (const coredns of ['1.2.6', '1.6.9', '1.8.0', '1.14.7'] as const) {
      const result = buildCoreDnsInstall(readInstall(deployment, service('10.0.0.10'), configMapYaml({})), { coredns });
      if (!result.ok) throw new Error('refused');
      const keys = (byKind(result.objects, 'Deployment')['spec']['template']['spec']['tolerations'] as Record<string, unknown>[]).map((entry) => `${String(entry['key'])} ${String(entry['operator'] ?? 'Equal')}`);
      // Exists with the same key and effect is another toleration (it matches any value): carried.
      const base = compareCoreDnsVersions(coredns, '1.9.3') < 0 ? ['node-role.kubernetes.io/master Equal'] : [];
      const baseAndKubeDns = compareCoreDnsVersions(coredns, '1.9.3') < 0 ? [] : ['node-role.kubernetes.io/master Equal'];
      expect(keys.filter((key) => key.startsWith('node-role.kubernetes.io/master Equal')), coredns).toHaveLength(1);
      expect(keys, coredns).toEqual(expect.arrayContaining([...base, ...baseAndKubeDns, 'CriticalAddonsOnly Exists', 'node-role.kubernetes.io/master Exists', 'dedicated Equal']));
      expect(new Set(keys).size, coredns).toBe(keys.length);
    }
  });

  it('a merged Corefile that routes differently from kube-dns (no kubernetes plugin) or holds __PILLAR__ placeholders is refused; --force makes the routing one a warning', () => {
    const kubeDns = readInstall(deploymentYaml(), service('10.0.0.10'), configMapYaml({ stubDomains: '{"acme.local": ["10.1.0.1"]}' }));
    const codes = (result: ReturnType<typeof buildCoreDnsInstall>) => result.diagnostics.filter((entry) => entry.code.startsWith('install-merge-')).map((entry) => `${entry.severity} ${entry.code}`);
    // A Corefile without the kubernetes plugin: the cluster domain is forwarded upstream.
    const noKubernetes = '. {\n    forward . 168.63.129.16\n    log\n}\n';
    const refused = buildCoreDnsInstall(kubeDns, { coredns: '1.14.7', merge: noKubernetes });
    expect(refused.ok).toBe(false);
    expect(refused.objects).toBeUndefined();
    expect(codes(refused)).toEqual(['error install-merge-routing-differs']);
    expect(refused.diagnostics.find((entry) => entry.code === 'install-merge-routing-differs')?.message).toMatch(/cluster\.local/);
    const forced = buildCoreDnsInstall(kubeDns, { coredns: '1.14.7', merge: noKubernetes, force: true });
    expect(forced.ok).toBe(true);
    expect(codes(forced)).toEqual(['warning install-merge-routing-differs']);
    // A Corefile that serves the cluster domain as kube-dns did merges without either code.
    const faithful = buildCoreDnsInstall(kubeDns, { coredns: '1.14.7', merge: '.:53 {\n    errors\n    health\n    ready\n    kubernetes cluster.local in-addr.arpa ip6.arpa {\n        fallthrough in-addr.arpa ip6.arpa\n    }\n    forward . /etc/resolv.conf\n    cache 30\n}\n' });
    expect(faithful.ok).toBe(true);
    expect(codes(faithful)).toEqual([]);
    // node-local-dns's template: refused, forced or not.
    const template = '__PILLAR__DNS__DOMAIN__:53 {\n    errors\n    bind __PILLAR__LOCAL__DNS__\n    forward . __PILLAR__CLUSTER__DNS__\n}\n.:53 {\n    errors\n    forward . __PILLAR__UPSTREAM__SERVERS__\n}\n';
    for (const force of [false, true]) {
      const result = buildCoreDnsInstall(kubeDns, { coredns: '1.14.7', merge: template, force });
      expect(result.ok, String(force)).toBe(false);
      expect(codes(result), String(force)).toEqual(['error install-merge-placeholders']);
    }
  });

  it('a merged Corefile without health or ready: a warning naming the probe that would fail, and an install that validates without it', () => {
    const kubeDns = readInstall(deploymentYaml(), service('10.0.0.10'), configMapYaml({ stubDomains: '{"acme.local": ["10.1.0.1"]}' }));
    const container = (objects: readonly KubernetesObjectValue[]) => byKind(objects, 'Deployment')['spec']['template']['spec']['containers'][0] as Record<string, any>;
    const warnings = (result: ReturnType<typeof buildCoreDnsInstall>) => result.diagnostics.filter((entry) => entry.code === 'install-probe-unanswered').map((entry) => entry.message);
    const main = (plugins: string) => `.:53 {\n    errors\n${plugins}    kubernetes cluster.local in-addr.arpa ip6.arpa {\n        fallthrough in-addr.arpa ip6.arpa\n    }\n    forward . /etc/resolv.conf\n    cache 30\n}\n`;
    // Neither: no probe at all on 1.14.7, two warnings.
    const neither = buildCoreDnsInstall(kubeDns, { coredns: '1.14.7', merge: main('') });
    if (!neither.ok) throw new Error('refused');
    expect(neither.translation.corefile).toContain('acme.local');
    expect(byKind(neither.objects, 'ConfigMap')['data']['Corefile']).toBe(neither.translation.corefile);
    expect(container(neither.objects)['livenessProbe']).toBeUndefined();
    expect(container(neither.objects)['readinessProbe']).toBeUndefined();
    expect(warnings(neither)).toEqual([expect.stringMatching(/^the liveness probe \(GET \/health on 8080\) would fail: the Corefile has no health plugin; the install has no liveness probe/), expect.stringMatching(/^the readiness probe \(GET \/ready on 8181\) would fail: the Corefile has no ready plugin; the install has no readiness probe/)]);
    expect(() => validateInstallObjects(neither.objects)).not.toThrow();
    // health only: readiness falls back to health; before 1.5.0 (no ready plugin) nothing is missing.
    const healthOnly = buildCoreDnsInstall(kubeDns, { coredns: '1.14.7', merge: main('    health :8081\n') });
    if (!healthOnly.ok) throw new Error('refused');
    // From the 1.34 era on the probes name their container port.
    expect(container(healthOnly.objects)['livenessProbe']['httpGet']).toEqual({ path: '/health', port: 'liveness-probe', scheme: 'HTTP' });
    expect(container(healthOnly.objects)['readinessProbe']['httpGet']).toEqual({ path: '/health', port: 'liveness-probe', scheme: 'HTTP' });
    expect(container(healthOnly.objects)['ports']).toContainEqual({ containerPort: 8081, name: 'liveness-probe', protocol: 'TCP' });
    expect(warnings(healthOnly)).toEqual([expect.stringMatching(/^the readiness probe \(GET \/ready on 8181\) would fail: .*targets health \(GET \/health on 8081\) instead/)]);
    const old = buildCoreDnsInstall(kubeDns, { coredns: '1.2.6', merge: main('    health\n') });
    expect(old.ok && warnings(old)).toEqual([]);
    // health on loopback only: the kubelet cannot reach it.
    const loopback = buildCoreDnsInstall(kubeDns, { coredns: '1.14.7', merge: main('    health 127.0.0.1:8080\n    ready\n') });
    if (!loopback.ok) throw new Error('refused');
    expect(warnings(loopback)).toEqual([expect.stringMatching(/^the liveness probe \(GET \/health on 8080\) would fail: health listens on 127\.0\.0\.1:8080 only/)]);
    expect(container(loopback.objects)['livenessProbe']).toBeUndefined();
    expect(container(loopback.objects)['readinessProbe']['httpGet']).toEqual({ path: '/ready', port: 'readiness-probe', scheme: 'HTTP' });
    expect(container(loopback.objects)['ports'].map((port: Record<string, unknown>) => port['name'])).not.toContain('liveness-probe');
    // The translation alone never lacks them.
    const plain = buildCoreDnsInstall(kubeDns, { coredns: '1.14.7' });
    expect(plain.ok && warnings(plain)).toEqual([]);
  });

  it('warns when the kube-dns workload shows a cluster too old for the target: extensions/v1beta1 and CoreDNS 1.11.0 on', () => {
    const codes = (deployment: string, coredns: string) => {
      const result = buildCoreDnsInstall(readInstall(deployment, service('10.0.0.10'), configMapYaml({})), { coredns });
      if (!result.ok) throw new Error('refused');
      return result.diagnostics.filter((entry) => entry.code === 'install-coredns-too-new');
    };
    let warned = 0;
    for (const apiVersion of ['extensions/v1beta1', 'apps/v1beta1', 'apps/v1beta2']) {
      const old = deploymentYaml().replace('apiVersion: apps/v1', `apiVersion: ${apiVersion}`);
      expect(old).toContain(apiVersion);
      for (const coredns of COREDNS_VERSIONS) {
        const found = codes(old, coredns);
        const tooNew = compareCoreDnsVersions(coredns, '1.11.0') >= 0;
        expect(found.length, `${apiVersion} ${coredns}`).toBe(tooNew ? 1 : 0);
        if (tooNew) {
          expect(found[0]?.message).toMatch(new RegExp(`^the kube-dns Deployment is ${apiVersion.replace('/', '\\/')}, which Kubernetes stopped serving in 1\\.16: .*CoreDNS ${coredns.replaceAll('.', '\\.')} reads only discovery\\.k8s\\.io/v1 EndpointSlices, served from Kubernetes 1\\.21`));
          warned += 1;
        }
      }
    }
    expect(warned).toBeGreaterThan(30);
    expect(COREDNS_VERSIONS.filter((coredns) => codes(deploymentYaml(), coredns).length > 0)).toEqual([]);
  });

  it('selects nodes by beta.kubernetes.io/os when the kube-dns workload shows Kubernetes 1.15 or older (kubernetes.io/os is set from 1.14 only)', () => {
    const nodeSelector = (deployment: string, coredns: string) => {
      const result = buildCoreDnsInstall(readInstall(deployment, service('10.0.0.10'), configMapYaml({})), { coredns });
      if (!result.ok) throw new Error('refused');
      return { selector: byKind(result.objects, 'Deployment')['spec']['template']['spec']['nodeSelector'], adapted: result.diagnostics.filter((entry) => entry.code === 'install-base-adapted').length };
    };
    const old = deploymentYaml().replace('apiVersion: apps/v1', 'apiVersion: extensions/v1beta1');
    let adapted = 0;
    for (const coredns of COREDNS_VERSIONS) {
      const era = kubeadmManifestFor(coredns).osLabel;
      const fromOld = nodeSelector(old, coredns);
      expect(fromOld.selector, coredns).toEqual(era === undefined ? undefined : { 'beta.kubernetes.io/os': 'linux' });
      expect(fromOld.adapted, coredns).toBe(era === 'kubernetes.io/os' ? 1 : 0);
      adapted += fromOld.adapted;
      // apps/v1 says nothing about the cluster's release: the era's label.
      expect(nodeSelector(deploymentYaml(), coredns).selector, coredns).toEqual(era === undefined ? undefined : { [era]: 'linux' });
    }
    expect(adapted).toBeGreaterThan(30);
  });

  it("warns when --image's tag is not the --coredns release, naming both", () => {
    const kubeDns = readInstall(deploymentYaml(), service('10.0.0.10'), configMapYaml({}));
    const warning = (image: string) => buildCoreDnsInstall(kubeDns, { coredns: '1.14.7', image }).diagnostics.find((entry) => entry.code === 'install-image-tag-mismatch')?.message;
    for (const image of ['mirror.corp/coredns/coredns:v1.14.7', 'mirror.corp:5000/coredns:1.14.7', 'mirror.corp/coredns:v1.14.7-eksbuild.1', 'mirror.corp/coredns@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef', 'mirror.corp/coredns/coredns:v1.14.7@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef']) {
      expect(warning(image), image).toBeUndefined();
    }
    expect(warning('mirror.corp/coredns/coredns:v1.9.3')).toBe('--image mirror.corp/coredns/coredns:v1.9.3 runs tag v1.9.3, but the install is for CoreDNS 1.14.7 (--coredns): its Corefile, ClusterRole and probes follow 1.14.7; give the 1.14.7 image, or --coredns for the release the image holds');
    expect(warning('mirror.corp/coredns:1.14.70')).toMatch(/runs tag 1\.14\.70, but the install is for CoreDNS 1\.14\.7/);
    expect(warning('mirror.corp:5000/coredns')).toMatch(/runs the untagged \(latest\), but the install is for CoreDNS 1\.14\.7/);
    expect(warning('coredns/coredns:latest')).toMatch(/runs tag latest/);
  });

  it("a Pod given on its own (one replica of kube-dns) is read as its template: what the scheduler and admission wrote is not the cluster's choice", () => {
    const stockText = readFileSync(join(import.meta.dirname, '../../golden/install/stock-kube-dns-1.22.20.yaml'), 'utf8');
    const stock = readKubeDnsInstall([{ text: stockText, filename: 'kube-dns.yaml' }]);
    const deployment = stock.deployment as NonNullable<typeof stock.deployment>;
    const template = (deployment.object['spec'] as Record<string, any>)['template'];
    const podObject = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'kube-dns-6d5d8b9f7-abcde', namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns', 'pod-template-hash': '6d5d8b9f7' }, ownerReferences: [{ apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'kube-dns-6d5d8b9f7', uid: 'u', controller: true }] },
      spec: {
        ...template['spec'],
        nodeName: 'node-1',
        priority: 2000001000,
        tolerations: [...template['spec']['tolerations'], { key: 'node.kubernetes.io/not-ready', operator: 'Exists', effect: 'NoExecute', tolerationSeconds: 300 }, { effect: 'NoExecute', key: 'node.kubernetes.io/unreachable', operator: 'Exists', tolerationSeconds: 300 }],
      },
      status: { phase: 'Running', podIP: '10.244.0.7' },
    };
    // The reader gives a Pod as the workload (#18 item 34): kind and name the Pod's, the object the Pod.
    const service = (loadAll(stockText) as { items: Record<string, unknown>[] }[])[0]?.items.find((item) => item['kind'] === 'Service');
    const install = readKubeDnsInstall([{ text: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [podObject, service, stock.configMapObject] }), filename: 'kube-dns.json' }]);
    expect(install.deployment).toMatchObject({ kind: 'Pod', name: 'kube-dns-6d5d8b9f7-abcde' });
    const result = buildCoreDnsInstall(install, { coredns: '1.14.7' });
    if (!result.ok) throw new Error('refused');
    const fromDeployment = buildCoreDnsInstall(stock, { coredns: '1.14.7' });
    if (!fromDeployment.ok) throw new Error('refused');
    // The same CoreDNS pods as from its Deployment: its scheduling carried, the admission's tolerations and the node left out.
    expect(byKind(result.objects, 'Deployment')['spec']['template']).toEqual(byKind(fromDeployment.objects, 'Deployment')['spec']['template']);
    expect(byKind(result.objects, 'Deployment')['spec']['replicas']).toBe(2);
    // (The addon manager's label on the Service is no setting of the pods.)
    const install_ = result.diagnostics.filter((entry) => entry.code.startsWith('install-') && entry.code !== 'install-addon-manager-reconciles');
    const paths = install_.map((entry) => `${entry.code} ${entry.path ?? ''}`);
    expect(paths).toEqual(
      expect.arrayContaining(['install-setting-replaced .spec.replicas', 'install-setting-carried .spec.nodeSelector', 'install-setting-carried .spec.tolerations', 'install-setting-carried .spec.priorityClassName', 'install-setting-replaced .spec.containers']),
    );
    expect(paths.filter((path) => /template|nodeName|priority$|pod-template-hash|labels/.test(path))).toEqual([]);
    expect(install_.find((entry) => entry.path === '.spec.tolerations')?.message).toBe('tolerations: all already in the CoreDNS base');
  });

  it("warns when kube-up's addon manager reconciles the kube-dns objects (#20): it would bring kube-dns back after the switch", () => {
    const stockText = readFileSync(join(import.meta.dirname, '../../golden/install/stock-kube-dns-1.22.20.yaml'), 'utf8');
    const reconciled = (text: string) => {
      const result = buildCoreDnsInstall(readKubeDnsInstall([{ text, filename: 'kube-dns.yaml' }]), { coredns: '1.14.7' });
      return result.diagnostics.filter((entry) => entry.code === 'install-addon-manager-reconciles');
    };
    const found = reconciled(stockText);
    expect(found.map((entry) => [entry.severity, entry.key, entry.path])).toEqual([['warning', 'Deployment kube-dns', '.metadata.labels["addonmanager.kubernetes.io/mode"]']]);
    expect(found[0]?.message).toMatch(/^Deployment kube-dns and Service kube-dns in kube-system carry addonmanager\.kubernetes\.io\/mode: Reconcile: the cluster's addon manager/);
    expect(found[0]?.hint).toMatch(/remove its manifests from the addon manager's directory/);
    // EnsureExists (kube-up's ConfigMap) is only created when missing: no warning; without the label none either.
    expect(reconciled(stockText.replaceAll('addonmanager.kubernetes.io/mode: Reconcile', 'addonmanager.kubernetes.io/mode: EnsureExists'))).toEqual([]);
    expect(reconciled(stockText.replaceAll('addonmanager.kubernetes.io/mode: Reconcile', 'app: dns'))).toEqual([]);
  });

  it('needs the cluster IP: from the Service, or --cluster-dns-ip, never both different', () => {
    const configMap = readInstall(configMapYaml({}));
    expect(() => buildCoreDnsInstall(configMap, {})).toThrow(CoreDnsInstallInputError);
    const created = buildCoreDnsInstall(configMap, { clusterDnsIp: '10.96.0.10' });
    expect(created.ok && byKind(created.objects, 'Service')['spec']['clusterIP']).toBe('10.96.0.10');
    expect(created.diagnostics.map((entry) => entry.code)).toContain('install-service-created');
    const withService = readInstall(service('10.96.0.10'), configMapYaml({}));
    expect(() => buildCoreDnsInstall(withService, { clusterDnsIp: '10.96.0.11' })).toThrow(/cluster IP is 10\.96\.0\.10/);
    expect(() => buildCoreDnsInstall(readInstall(service('None')), {})).toThrow(/headless/);
  });

  it('a broken object is an internal error naming the object and the path', () => {
    const result = buildCoreDnsInstall(readInstall(service('10.96.0.10'), configMapYaml({})), { coredns: '1.14.7' });
    if (!result.ok) throw new Error('refused');
    const edited = (kind: string, edit: (object: any) => void) =>
      result.objects.map((object) => {
        if (object['kind'] !== kind) return object;
        const copy = structuredClone(object) as any;
        edit(copy);
        return copy;
      });
    const cases: [KubernetesObjectValue[], RegExp][] = [
      [edited('Service', (object) => (object.spec.selector = { app: 'other' })), /Service\/kube-dns \/spec\/selector/],
      [edited('Deployment', (object) => (object.spec.template.spec.volumes[0].configMap.name = 'kube-dns')), /Deployment\/coredns \/spec\/template\/spec\/volumes/],
      [edited('Deployment', (object) => (object.spec.template.spec.containers[0].args = ['-conf', '/etc/other/Corefile'])), /volumeMounts/],
      [edited('Deployment', (object) => (object.spec.template.spec.containers[0].readinessProbe.httpGet.port = 'nope')), /readinessProbe\/httpGet\/port/],
      [edited('ConfigMap', (object) => (object.data = { Other: 'x' })), /ConfigMap\/coredns \/data/],
      [edited('Deployment', (object) => (object.spec.template.spec.containers[0].ports[0].protocol = 'ICMP')), /Deployment\/coredns \/spec\/template\/spec\/containers\/0\/ports\/0\/protocol/],
      [edited('Deployment', (object) => (object.spec.template.spec.dnsPolicy2 = 'Default')), /Deployment\/coredns \/spec\/template\/spec.*additional/],
      [edited('ClusterRoleBinding', (object) => (object.subjects[0].name = 'default')), /ClusterRoleBinding\/system:coredns \/subjects\/0/],
      // Names as the API server takes them: a Service's is a DNS-1035 label, the others' DNS-1123 subdomains.
      [edited('Service', (object) => (object.metadata.name = 'kube-dns$(touch /tmp/x)')), /Service\/kube-dns\$\(touch \/tmp\/x\) \/metadata\/name: must match pattern/],
      [edited('Service', (object) => (object.metadata.name = 'kube.dns')), /\/metadata\/name: must match pattern/],
      [edited('Deployment', (object) => (object.metadata.name = 'CoreDNS')), /Deployment\/CoreDNS \/metadata\/name: must match pattern/],
      [edited('ConfigMap', (object) => (object.metadata.name = 'core dns')), /\/metadata\/name: must match pattern/],
    ];
    for (const [objects, message] of cases) {
      const attempt = () => validateInstallObjects(objects);
      expect(attempt).toThrow(InstallValidationError);
      expect(attempt).toThrow(message);
    }
    expect(() => checkCrossObjectRules(result.objects)).not.toThrow();
  });
});

describe('kubeadm manifest eras', () => {
  it('picks the newest era not newer than the target, and the image path and tag of that era', () => {
    expect(kubeadmManifestFor('1.0.0').kubernetes).toBe('1.11');
    expect(kubeadmManifestFor('1.6.9').kubernetes).toBe('1.18');
    expect(kubeadmManifestFor('1.8.0').kubernetes).toBe('1.21');
    expect(kubeadmManifestFor('1.12.0').kubernetes).toBe('1.25');
    expect(kubeadmManifestFor('1.14.7').kubernetes).toBe('1.34');
    expect(coreDnsImage('1.7.0', kubeadmManifestFor('1.7.0'), undefined)).toBe('registry.k8s.io/coredns:1.7.0');
    expect(coreDnsImage('1.8.0', kubeadmManifestFor('1.8.0'), undefined)).toBe('registry.k8s.io/coredns/coredns:v1.8.0');
    expect(coreDnsImage('1.8.0', kubeadmManifestFor('1.8.0'), 'mirror.corp/k8s')).toBe('mirror.corp/k8s/coredns:v1.8.0');
  });

  it('tells a private mirror of the kube-dns images from the public registries', () => {
    expect(privateRepositoryOf('harbor.corp.example/k8s/k8s-dns-kube-dns-amd64:1.14.13')).toBe('harbor.corp.example/k8s');
    expect(privateRepositoryOf('localhost:5000/k8s-dns-kube-dns:1.22.20')).toBe('localhost:5000');
    for (const image of ['registry.k8s.io/dns/k8s-dns-kube-dns:1.22.20', 'k8s.gcr.io/k8s-dns-kube-dns-amd64:1.14.13', 'gcr.io/google_containers/kubedns-amd64:1.9', 'eu.gcr.io/k8s-artifacts-prod/dns/k8s-dns-kube-dns:1.17.0', 'someone/kube-dns:1', 'kube-dns:1', undefined]) {
      expect(privateRepositoryOf(image), String(image)).toBeUndefined();
    }
  });
});
