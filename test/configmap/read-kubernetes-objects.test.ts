import { describe, expect, it } from 'vitest';
import { ConfigMapInputError } from '../../src/configmap/config-map-data.js';
import { KubernetesObjectInputError, readKubernetesObjects } from '../../src/configmap/read-kubernetes-objects.js';
import { expectDoublingGrowth } from '../support/growth.js';
import { configMapYaml, deploymentYaml, serviceYaml } from '../support/kube-dns-manifests.js';

describe('readKubernetesObjects', () => {
  it('reads workloads, Services and ConfigMaps from several YAML documents, with positions', () => {
    const text = [deploymentYaml(), serviceYaml(), configMapYaml({ upstreamNameservers: '["8.8.8.8"]' })].join('---\n');
    const objects = readKubernetesObjects(text, { filename: 'all.yaml' });
    expect(objects.workloads.map((workload) => [workload.kind, workload.name, workload.containers.map((container) => container.name)])).toEqual([
      ['Deployment', 'kube-dns', ['kubedns', 'dnsmasq', 'sidecar']],
    ]);
    expect(objects.workloads[0]?.containers[0]?.args?.[0]).toBe('--domain=cluster.local.');
    expect(objects.services.map((service) => [service.name, service.clusterIP, service.source.position?.line])).toEqual([['kube-dns', '10.96.0.10', 18]]);
    expect(objects.configMaps.map((configMap) => [configMap.name, configMap.source.position?.line])).toEqual([['kube-dns', 23]]);
    expect(objects.others).toEqual([]);
  });

  it('reads a kubectl List and the API lists whose items have no kind, and lists other objects', () => {
    const json = JSON.stringify({
      kind: 'List',
      items: [
        { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'kube-dns' } },
        { kind: 'ReplicationController', metadata: { name: 'kube-dns-v20' }, spec: { template: { spec: { containers: [{ name: 'kubedns', args: ['--domain=x.'] }] } } } },
      ],
    });
    const objects = readKubernetesObjects(json);
    expect(objects.workloads.map((workload) => workload.kind)).toEqual(['ReplicationController']);
    expect(objects.others.map((other) => [other.kind, other.name])).toEqual([['ServiceAccount', 'kube-dns']]);
    const apiList = readKubernetesObjects('kind: DeploymentList\nitems:\n- metadata: {name: kube-dns}\n  spec: {template: {spec: {containers: []}}}\n');
    expect(apiList.workloads.map((workload) => workload.kind)).toEqual(['Deployment']);
  });

  it('lists documents and List items that are not objects (a string, a sequence, null), but not empty documents', () => {
    const text = '---\n---\nhello\n---\n- a\n---\nkind: List\nitems:\n- null\n- "x"\n- {kind: ConfigMap, metadata: {name: kube-dns}}\n---\n';
    const objects = readKubernetesObjects(text, { filename: 'all.yaml' });
    expect(objects.others.map((other) => [other.notAnObject, other.source.position?.line])).toEqual([
      ['a string', 3],
      ['a sequence', 5],
      ['null', 9],
      ['a string', 10],
    ]);
    expect(objects.configMaps.map((configMap) => configMap.name)).toEqual(['kube-dns']);
  });

  it('keeps env values and valueFrom entries apart, and envFrom as a flag', () => {
    const objects = readKubernetesObjects(
      'kind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n      - name: kubedns\n        envFrom: [{configMapRef: {name: x}}]\n        env:\n        - {name: A, value: "1"}\n        - name: B\n          valueFrom: {fieldRef: {fieldPath: status.podIP}}\n',
    );
    const container = objects.workloads[0]?.containers[0];
    expect(container?.env).toEqual([{ name: 'A', value: '1' }, { name: 'B' }]);
    expect(container?.envFrom).toBe(true);
  });

  it('refuses malformed containers at FILE:LINE:COL, and text that is not YAML', () => {
    const numberArg = 'kind: Deployment\nspec:\n  template:\n    spec:\n      containers:\n      - name: kubedns\n        args: ["--v", 2]\n';
    expect(() => readKubernetesObjects(numberArg, { filename: 'd.yaml' })).toThrowError(/^d\.yaml:7:\d+: args\[1\] must be a string \(quote it\), got number$/);
    expect(() => readKubernetesObjects(numberArg)).toThrowError(KubernetesObjectInputError);
    expect(() => readKubernetesObjects('kind: Deployment\nspec: {}\n', { filename: 'd.yaml' })).toThrowError(/^d\.yaml:1:1: Deployment has no spec\.template\.spec/);
    expect(() => readKubernetesObjects('kind: [', { filename: 'd.yaml' })).toThrowError(ConfigMapInputError);
  });
  it('refuses, at their position, names, namespaces and labels the API server never took; takes the ones it takes', () => {
    const deployment = (metadata: string, labels = 'k8s-app: kube-dns') =>
      `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  ${metadata}\nspec:\n  selector:\n    matchLabels: {${labels}}\n  template:\n    metadata:\n      labels: {${labels}}\n    spec:\n      containers: []\n`;
    const service = (metadata: string, selector = 'k8s-app: kube-dns') => `apiVersion: v1\nkind: Service\nmetadata:\n  ${metadata}\nspec:\n  clusterIP: 10.0.0.10\n  selector: {${selector}}\n`;
    const cases: [string, RegExp][] = [
      // Shell syntax, upper case, '_', a Service name with a dot or a leading digit.
      [deployment('name: kube-dns$(touch /tmp/x)'), /^d\.yaml:4:3: metadata\.name 'kube-dns\$\(touch \/tmp\/x\)' is not a Deployment name the API server takes: a Deployment's name is a DNS-1123 subdomain/],
      [deployment('name: Kube-DNS'), /^d\.yaml:4:3: metadata\.name 'Kube-DNS' is not a Deployment name/],
      [deployment(`name: ${'a'.repeat(254)}`), /is not a Deployment name/],
      [deployment('name: 7'), /^d\.yaml:4:3: metadata\.name must be a string, got 7$/],
      [service('name: kube-dns$(touch /tmp/x)'), /^d\.yaml:4:3: metadata\.name 'kube-dns\$\(touch \/tmp\/x\)' is not a Service name the API server takes: a Service's name is a DNS-1035 label/],
      [service('name: kube.dns'), /is not a Service name/],
      [service('name: 1dns'), /is not a Service name/],
      ['apiVersion: v1\nkind: ConfigMap\nmetadata: {name: "kube dns"}\ndata: {}\n', /^d\.yaml:3:\d+: metadata\.name 'kube dns' is not a ConfigMap name/],
      [deployment('namespace: kube_system'), /^d\.yaml:4:3: metadata\.namespace 'kube_system' is not a namespace name: a namespace's name is a DNS-1123 label/],
      [service('namespace: kube-system.x'), /metadata\.namespace 'kube-system\.x' is not a namespace name/],
      // Label values: a space, a slash, a leading '-', 64 characters; label keys; a value that is no string.
      [deployment('name: kube-dns', 'k8s-app: "kube dns"'), /^d\.yaml:7:\d+: spec\.selector\.matchLabels k8s-app: 'kube dns' is not a label value: a label value is empty or at most 63 characters/],
      [deployment('name: kube-dns', 'k8s-app: a/b'), /spec\.selector\.matchLabels k8s-app: 'a\/b' is not a label value/],
      [deployment('name: kube-dns', 'k8s-app: "-x"'), /'-x' is not a label value/],
      [deployment('name: kube-dns', `k8s-app: ${'a'.repeat(64)}`), /is not a label value/],
      [deployment('labels: {"k8s app": kube-dns}'), /^d\.yaml:4:\d+: metadata\.labels: 'k8s app' is not a label key/],
      [deployment('labels: {"Example.com/app": x}'), /'Example\.com\/app' is not a label key: its prefix 'Example\.com' is not a DNS-1123 subdomain/],
      [deployment('labels: {"a/b/c": x}'), /'a\/b\/c' is not a label key/],
      [deployment('labels: {cluster-service: true}'), /^d\.yaml:4:\d+: metadata\.labels cluster-service must be a string \(quote it\), got true$/],
      [service('name: kube-dns', 'k8s-app: "kube dns"'), /^d\.yaml:7:\d+: spec\.selector k8s-app: 'kube dns' is not a label value/],
      ['apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: kube-dns}\nspec:\n  template:\n    metadata:\n      labels: {k8s-app: "kube dns"}\n    spec: {containers: []}\n', /^d\.yaml:7:\d+: spec\.template\.metadata\.labels k8s-app: 'kube dns' is not a label value/],
      ['apiVersion: v1\nkind: ReplicationController\nmetadata: {name: kube-dns-v20}\nspec:\n  selector: {k8s-app: "kube dns"}\n  template: {spec: {containers: []}}\n', /^d\.yaml:5:\d+: spec\.selector k8s-app: 'kube dns' is not a label value/],
    ];
    for (const [text, refusal] of cases) {
      expect(() => readKubernetesObjects(text, { filename: 'd.yaml' }), text).toThrowError(refusal);
      expect(() => readKubernetesObjects(text), text).toThrowError(KubernetesObjectInputError);
    }
    const fine = [
      deployment('name: kube-dns.v1-2', 'k8s-app: kube-dns, kubernetes.io/cluster-service: "true", empty: "", a_b.C-9: X_y.z'),
      deployment(`name: ${'a'.repeat(253)}`, `example.com/${'n'.repeat(63)}: ${'v'.repeat(63)}`),
      service('name: kube-dns\n  namespace: kube-system\n  labels: {kubernetes.io/name: KubeDNS}'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: kube-dns.conf, namespace: kube-system}\ndata: {}\n',
      // Objects that play no part are not checked: they reach nothing the install writes.
      'apiVersion: v1\nkind: Endpoints\nmetadata: {name: "Not A Name"}\n',
    ];
    for (const text of fine) expect(() => readKubernetesObjects(text), text).not.toThrow();
  });

  it('refuses, at their position, scheduling fields, replicas, Service ports and cluster IPs of a shape the API server never took', () => {
    // Each case: the field as written in the Pod spec (or the Deployment spec, or the Service), and the refusal.
    const pod = (field: string) => deploymentYaml().replace('    spec:\n      containers:', `    spec:\n      ${field}\n      containers:`);
    const cases: [string, RegExp][] = [
      [pod('tolerations: all'), /^d\.yaml:7:7: tolerations must be a list of tolerations, got 'all'$/],
      [pod("tolerations: ['x']"), /^d\.yaml:7:\d+: tolerations\[0\] must be a mapping, got 'x'$/],
      [pod("affinity: {podAntiAffinity: 'yes'}"), /^d\.yaml:7:\d+: affinity\.podAntiAffinity must be a mapping/],
      [pod('affinity: {podAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {a: 1}}}'), /affinity\.podAffinity\.requiredDuringSchedulingIgnoredDuringExecution must be a list of pod affinity terms/],
      [pod('affinity: [1]'), /affinity must be a mapping/],
      [pod('priorityClassName: 7'), /^d\.yaml:7:7: priorityClassName must be the name of a PriorityClass \(a string\), got 7$/],
      [pod('imagePullSecrets: [{nom: x}]'), /^d\.yaml:7:\d+: imagePullSecrets\[0\] must name a Secret/],
      [pod("nodeSelector: ['a']"), /^d\.yaml:7:7: nodeSelector must be a mapping of node labels to values, got \["a"\]$/],
      [pod('nodeSelector: {pool: 1}'), /nodeSelector pool must be a string \(quote it\), got 1$/],
      [pod('topologySpreadConstraints: x'), /topologySpreadConstraints must be a list/],
      [deploymentYaml().replace('spec:\n  template:', 'spec:\n  replicas: three\n  template:'), /^d\.yaml:5:3: spec\.replicas must be a whole number of replicas, got 'three'$/],
      [deploymentYaml().replace('spec:\n  template:', 'spec:\n  replicas: -1\n  template:'), /spec\.replicas must be a whole number/],
      ['kind: Service\nspec:\n  clusterIP: 10.0.0.10\n  ports:\n  - {port: fifty-three}\n', /^d\.yaml:5:\d+: spec\.ports\[0\]\.port must be a port number \(1-65535\), got 'fifty-three'$/],
      ['kind: Service\nspec:\n  clusterIP: 10.0.0.10\n  ports: dns\n', /spec\.ports must be a list of ports/],
      ['kind: Service\nspec:\n  clusterIP: 10.0.0.10\n  clusterIPs: [10.0.0.11]\n', /^d\.yaml:4:\d+: spec\.clusterIPs\[0\] '10\.0\.0\.11' is not spec\.clusterIP '10\.0\.0\.10'/],
    ];
    for (const [text, refusal] of cases) {
      expect(() => readKubernetesObjects(text, { filename: 'd.yaml' }), text).toThrowError(refusal);
      expect(() => readKubernetesObjects(text), text).toThrowError(KubernetesObjectInputError);
    }
    // The shapes the API server takes are read; null is no value.
    const fine = pod("nodeSelector: {pool: dns}\n      tolerations: [{key: a, operator: Exists}]\n      affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: []}}}\n      priorityClassName: x\n      imagePullSecrets: [{name: s}]\n      topologySpreadConstraints: null").replace('spec:\n  template:', 'spec:\n  replicas: 0\n  template:');
    expect(readKubernetesObjects(fine).workloads).toHaveLength(1);
    expect(readKubernetesObjects('kind: Service\nspec:\n  clusterIP: 10.0.0.10\n  clusterIPs: [10.0.0.10, fd00::a]\n  ports: [{port: 53, protocol: UDP}]\n').services).toHaveLength(1);
  });

  it('reads a List of 20,000 objects in linear time, each with its position', async () => {
    // `kubectl get all -A -o yaml` of a large cluster; positions were found by a fresh parse per object (quadratic: 4,000 objects took two minutes).
    const count = 20_000;
    // Endpoints: objects that play no part (a Pod is a workload now, read like a Deployment's Pod template).
    const list = (size: number) => `apiVersion: v1\nkind: List\nitems:\n${Array.from({ length: size }, (_, index) => `- {apiVersion: v1, kind: Endpoints, metadata: {name: p${index}}}\n`).join('')}`;
    const objects = readKubernetesObjects(list(count), { filename: 'all.yaml' });
    expect(objects.others).toHaveLength(count);
    expect(objects.others[count - 1]?.source.position).toEqual({ line: count + 3, column: 3 });
    expect(objects.others[0]?.source.position).toEqual({ line: 4, column: 3 });
    // Doubling the List at most triples the CPU time (a parse per object quadruples it).
    await expectDoublingGrowth(list, (text) => readKubernetesObjects(text, { filename: 'all.yaml' }), { size: 2_000 });
  });
});
