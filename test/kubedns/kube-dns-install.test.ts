import { describe, expect, it } from 'vitest';
import { ConfigMapInputError } from '../../src/configmap/config-map-data.js';
import { KubernetesObjectInputError } from '../../src/configmap/read-kubernetes-objects.js';
import { formatDiagnostic } from '../../src/diagnostics/diagnostic.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';
import { readKubeDnsInstall } from '../../src/kubedns/kube-dns-install.js';
import { readKubeDnsConfigMap } from '../../src/kubedns/read-kube-dns-configmap.js';
import { configMapYaml, deploymentYaml, serviceYaml, STOCK_DNSMASQ_ARGS } from '../support/kube-dns-manifests.js';
import { thrown } from '../support/thrown.js';

describe('readKubeDnsInstall', () => {
  it('reads the three objects from separate texts, each container as its program reads it', () => {
    const install = readKubeDnsInstall([
      { text: configMapYaml({ stubDomains: '{"acme.local": ["1.2.3.4"]}' }), filename: 'cm.yaml' },
      { text: deploymentYaml(), filename: 'deploy.yaml' },
      { text: serviceYaml('10.0.0.10'), filename: 'svc.yaml' },
    ]);
    expect(install.configMap?.data).toEqual({ stubDomains: '{"acme.local": ["1.2.3.4"]}' });
    expect(install.service?.clusterIP).toBe('10.0.0.10');
    const deployment = install.deployment;
    expect(deployment?.kubedns?.args.values).toMatchObject({ domain: 'cluster.local.', dnsPort: 10053, configDir: '/kube-dns-config' });
    expect(deployment?.dnsmasq?.nanny?.configDir).toBe('/etc/k8s/dns/dnsmasq-nanny');
    expect(deployment?.dnsmasq?.dnsmasqArgs).toEqual(STOCK_DNSMASQ_ARGS);
    expect(deployment?.dnsmasq?.dnsmasq.noNegcache).toBe(true);
    expect(deployment?.sidecar?.args.probes.map((entry) => entry.probe.name)).toEqual(['kubernetes.default.svc.cluster.local.', 'kubernetes.default.svc.cluster.local.']);
    expect(install.diagnostics).toEqual([]);
  });

  it('reads them from one List, naming what it does not use', () => {
    const text = `kind: List\nitems:\n${[deploymentYaml({ kind: 'ReplicationController' }), 'apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: kube-dns}\n', serviceYaml()]
      .map((document) => document.trimEnd().replace(/^/gm, '  ').replace(/^ {2}/, '- '))
      .join('\n')}\n`;
    const install = readKubeDnsInstall([{ text, filename: 'all.yaml' }]);
    expect(install.deployment?.kind).toBe('ReplicationController');
    expect(install.configMap).toBeUndefined();
    expect(install.diagnostics.map(formatDiagnostic)).toEqual([
      "info unused-object all.yaml:19:3: ServiceAccount kube-dns plays no part in kube-dns's DNS settings; not read",
    ]);
  });

  it('runs dnsmasq directly when the image is dnsmasq itself (manifests before the nanny)', () => {
    const text = deploymentYaml().replace('k8s-dns-dnsmasq-nanny:1.26.7', 'kube-dnsmasq-amd64:1.4').replace(/args: \["-v=2", "-logtostderr", "-configDir=[^"]*", "-restartDnsmasq=true", "--", /, 'args: [');
    const install = readKubeDnsInstall([{ text }]);
    expect(install.deployment?.dnsmasq?.nanny).toBeUndefined();
    expect(install.deployment?.dnsmasq?.dnsmasq.cacheSize).toBe(1000);
  });

  it('reports unknown containers, references known only at run time and arguments a program refuses', () => {
    const text = deploymentYaml({ kubedns: ['--domain=$(DOMAIN)', '--no-such-flag'] }).replace(
      '      - name: sidecar',
      '      - name: healthz\n        image: registry.k8s.io/exechealthz-amd64:1.2\n      - name: sidecar',
    );
    const install = readKubeDnsInstall([{ text, filename: 'd.yaml' }]);
    // Each points at the argument as written (the item in args): the workload is the key, the place in the file its location.
    const at = (entry: Diagnostic) => (entry.location === undefined ? '' : `${entry.location.filename}:${entry.location.line}:${entry.location.column}`);
    expect(install.diagnostics.map((entry) => `${entry.severity} ${entry.code} ${at(entry)} ${entry.key ?? ''}${entry.path ?? ''}`)).toEqual([
      'warning container-args-unresolved d.yaml:10:17 Deployment kube-dns[container kubedns].args[0]',
      'info unused-container d.yaml:1:1 Deployment kube-dns[container healthz]',
      'error deployment-program-exits d.yaml:10:39 Deployment kube-dns[container kubedns].args[1]',
      'error deployment-program-exits d.yaml:10:17 Deployment kube-dns[container kubedns].args[0]',
    ]);
    // No key holds a place in a file (a separator mixed into the key).
    for (const entry of install.diagnostics) expect(entry.key ?? '').not.toMatch(/:\d+:\d+/);
    expect(formatDiagnostic(install.diagnostics[2] as Diagnostic)).toMatch(/^error deployment-program-exits d\.yaml:10:39 Deployment kube-dns\[container kubedns\]\.args\[1\]: /);
  });

  it('points a refused dnsmasq argument at its item in command or args, after the nanny\'s --', () => {
    const text = deploymentYaml({ dnsmasq: [...STOCK_DNSMASQ_ARGS, '--server=/a.example/1.2.3.4#99999'] })
      .replace('image: registry.k8s.io/dns/k8s-dns-dnsmasq-nanny:1.26.7', 'image: registry.k8s.io/dns/k8s-dns-dnsmasq-nanny:1.26.7\n        command: ["/dnsmasq-nanny", "-v=2", "--bogus"]');
    const install = readKubeDnsInstall([{ text, filename: 'd.yaml' }]);
    expect(install.diagnostics.map((entry) => `${entry.code} ${entry.location?.line}:${entry.location?.column} ${entry.key} ${entry.path ?? ''}`)).toEqual([
      'deployment-program-exits 13:46 Deployment kube-dns [container dnsmasq].command[2]',
      'deployment-program-exits 14:320 Deployment kube-dns [container dnsmasq].args[13]',
    ]);
    // Every program argument knows where it is written: command[1:] first, then args.
    expect(install.deployment?.dnsmasq?.written?.[0]).toEqual({ key: 'Deployment kube-dns', path: '[container dnsmasq].command[1]', location: { filename: 'd.yaml', line: 13, column: 38, exact: true } });
    expect(install.deployment?.dnsmasq?.written?.[2]).toEqual({ key: 'Deployment kube-dns', path: '[container dnsmasq].args[0]', location: { filename: 'd.yaml', line: 14, column: 17, exact: true } });
  });

  it('refuses a second, different kube-dns ConfigMap among the texts, at its position', () => {
    const cm = configMapYaml({ upstreamNameservers: '["8.8.8.8"]' });
    const other = configMapYaml({ upstreamNameservers: '["8.8.4.4"]' });
    expect(() => readKubeDnsInstall([{ text: cm }, { text: `${serviceYaml()}---\n${other}`, filename: 'b.yaml' }])).toThrowError(ConfigMapInputError);
    expect(() => readKubeDnsInstall([{ text: cm, filename: 'a.yaml' }, { text: `${serviceYaml()}---\n${other}`, filename: 'b.yaml' }])).toThrowError(
      /^b\.yaml:6:1: a second ConfigMap kube-dns with other data than the one at a\.yaml:1:1; give it once$/,
    );
  });

  it('treats a second kube-dns ConfigMap in the same text as a second Deployment: the same content is read once, a different one refused with both places', () => {
    const cm = configMapYaml({ upstreamNameservers: '["8.8.8.8"]', stubDomains: '{"a.local": ["1.1.1.1"]}' });
    // The same data, its keys in another order: the same content.
    const reordered = configMapYaml({ stubDomains: '{"a.local": ["1.1.1.1"]}', upstreamNameservers: '["8.8.8.8"]' });
    const twice = readKubeDnsInstall([{ text: `${cm}---\n${reordered}`, filename: 'all.yaml' }]);
    expect(twice.configMap?.data).toEqual({ upstreamNameservers: '["8.8.8.8"]', stubDomains: '{"a.local": ["1.1.1.1"]}' });
    expect(twice.diagnostics.map(formatDiagnostic)).toEqual([expect.stringMatching(/^info unused-object all\.yaml:\d+:1: ConfigMap kube-dns again, the same as at all\.yaml:1:1; read once$/)]);
    const other = configMapYaml({ upstreamNameservers: '["8.8.4.4"]' });
    // The second document starts after the first's lines and the --- line.
    const lines = cm.split('\n').length + 1;
    expect(() => readKubeDnsInstall([{ text: `${cm}---\n${other}`, filename: 'all.yaml' }])).toThrowError(
      new RegExp(`^all\\.yaml:${lines}:1: a second ConfigMap kube-dns with other data than the one at all\\.yaml:1:1; give it once$`),
    );
    // The readers of the ConfigMap alone (--kubeadm, node-cache, readKubeDnsConfigMap) refuse it the same way.
    expect(() => readKubeDnsConfigMap(`${cm}---\n${other}`, { filename: 'all.yaml' })).toThrowError(/a second ConfigMap kube-dns with other data than the one at all\.yaml:1:1/);
    // Another namespace is another object: named, not refused.
    const elsewhere = configMapYaml({ upstreamNameservers: '["8.8.4.4"]' }, { namespace: 'default' });
    const both = readKubeDnsInstall([{ text: `${cm}---\n${elsewhere}`, filename: 'all.yaml' }]);
    expect(both.configMap?.data['upstreamNameservers']).toBe('["8.8.8.8"]');
    expect(both.diagnostics.map((entry) => entry.message)).toEqual([expect.stringMatching(/^ConfigMap default\/kube-dns is not the kube-dns ConfigMap/)]);
  });

  it("names a CoreDNS ConfigMap given beside the kube-dns one for what it means: the CoreDNS outputs replace it (#20)", () => {
    const cm = configMapYaml({ upstreamNameservers: '["8.8.8.8"]' });
    const coredns = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: coredns\n  namespace: kube-system\ndata:\n  Corefile: |\n    .:53 {\n        forward . /etc/resolv.conf\n    }\n';
    const install = readKubeDnsInstall([{ text: [deploymentYaml(), serviceYaml(), cm, coredns].join('---\n'), filename: 'all.yaml' }]);
    expect(install.configMap?.data).toEqual({ upstreamNameservers: '["8.8.8.8"]' });
    expect(install.diagnostics.map(formatDiagnostic)).toEqual([
      expect.stringMatching(
        /^warning coredns-configmap-present all\.yaml:\d+:1 ConfigMap kube-system\/coredns: ConfigMap kube-system\/coredns is CoreDNS's \(its data has a Corefile\), not kube-dns's: not read for the translation\. The ConfigMap this package writes for CoreDNS \(-o configmap, -o install, cutover\) is coredns in kube-system: applying it overwrites this one's Corefile/,
      ),
    ]);
    // Another ConfigMap, or a Corefile ConfigMap of another namespace, stays an unused object.
    const other = coredns.replace('namespace: kube-system', 'namespace: dns-test');
    const elsewhere = readKubeDnsInstall([{ text: [deploymentYaml(), cm, other].join('---\n'), filename: 'all.yaml' }]);
    expect(elsewhere.diagnostics.map((entry) => entry.code)).toEqual(['unused-object']);
  });

  it('reads the same object given twice (its own file and a List) once, and says so', () => {
    const cm = configMapYaml({ upstreamNameservers: '["8.8.8.8"]' });
    const all = [deploymentYaml(), serviceYaml(), cm].join('---\n');
    const install = readKubeDnsInstall([
      { text: all, filename: 'all.yaml' },
      { text: deploymentYaml(), filename: 'deploy.yaml' },
      { text: serviceYaml(), filename: 'svc.yaml' },
      { text: cm, filename: 'cm.yaml' },
    ]);
    expect(install.configMap?.data).toEqual({ upstreamNameservers: '["8.8.8.8"]' });
    expect(install.deployment?.source.filename).toBe('all.yaml');
    expect(install.diagnostics.map(formatDiagnostic)).toEqual([
      'info unused-object cm.yaml:1:1: ConfigMap kube-dns again, the same as at all.yaml:23:1; read once',
      'info unused-object deploy.yaml:1:1: Deployment kube-dns again, the same as at all.yaml:1:1; read once',
      'info unused-object svc.yaml:1:1: Service kube-dns again, the same as at all.yaml:18:1; read once',
    ]);
    // The very same file twice (FILE and --kube-dns-deployment) is read once, without notes.
    const sameFile = readKubeDnsInstall([{ text: all, filename: 'all.yaml' }, { text: all, filename: 'all.yaml', holds: 'workload' }, { text: all, filename: 'all.yaml', holds: 'service' }]);
    expect(sameFile.diagnostics).toEqual([]);
    expect(sameFile.configMap?.data).toEqual({ upstreamNameservers: '["8.8.8.8"]' });
    expect(() => readKubeDnsInstall([{ text: all, filename: 'all.yaml' }, { text: serviceYaml(), filename: 'all.yaml', holds: 'workload' }])).toThrowError(/no kube-dns workload/);
    const changed = deploymentYaml({ kubedns: ['--domain=corp.example.'] });
    expect(() => readKubeDnsInstall([{ text: all, filename: 'all.yaml' }, { text: changed, filename: 'deploy.yaml' }])).toThrowError(
      /^deploy\.yaml:1:1: a second Deployment kube-dns with other containers than the one at all\.yaml:1:1; give it once$/,
    );
  });

  it('takes the kube-dns ConfigMap from whichever text holds it; other ConfigMaps are named, not a second kube-dns one', () => {
    // `kubectl get deploy,cm -n kube-system -o yaml` as the Deployment file holds kube-proxy's ConfigMap too.
    const kubeProxy = configMapYaml({ 'config.conf': 'x' }, { name: 'kube-proxy' });
    const install = readKubeDnsInstall([
      { text: configMapYaml({ upstreamNameservers: '["8.8.8.8"]' }), filename: 'cm.yaml' },
      { text: `${deploymentYaml()}---\n${kubeProxy}`, filename: 'deploy.yaml' },
    ]);
    expect(install.configMap?.name).toBe('kube-dns');
    expect(install.diagnostics.map(formatDiagnostic)).toEqual(["info unused-object deploy.yaml:18:1: ConfigMap kube-proxy is not the kube-dns ConfigMap (that is kube-dns); not read"]);
    const swapped = readKubeDnsInstall([
      { text: `${deploymentYaml()}---\n${kubeProxy}`, filename: 'deploy.yaml' },
      { text: configMapYaml({ upstreamNameservers: '["8.8.8.8"]' }), filename: 'cm.yaml' },
    ]);
    expect(swapped.configMap?.data).toEqual({ upstreamNameservers: '["8.8.8.8"]' });
    expect(() => readKubeDnsInstall([{ text: kubeProxy, filename: 'a.yaml' }, { text: kubeProxy.replace('kube-proxy', 'other'), filename: 'b.yaml' }])).toThrowError(
      /^b\.yaml: ConfigMaps in several files, none named kube-dns \(found: kube-proxy in a\.yaml, other in b\.yaml\); give the kube-dns ConfigMap once, or choose it with --name$/,
    );
  });
  it('refuses a text given as the workload or the Service that holds none, naming what it holds', () => {
    const coreDns = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: coredns}\nspec: {template: {spec: {containers: [{name: coredns, image: registry.k8s.io/coredns/coredns:v1.11.1}]}}}\n';
    const cm = { text: configMapYaml({ upstreamNameservers: '["8.8.8.8"]' }), filename: 'cm.yaml' };
    expect(() => readKubeDnsInstall([cm, { text: coreDns, filename: 'deploy.yaml', holds: 'workload' }])).toThrowError(
      /^deploy\.yaml: no kube-dns workload \(a Deployment, ReplicationController or Pod with a kubedns, dnsmasq or sidecar container\) in this file; it holds Deployment coredns \(containers: coredns\)$/,
    );
    expect(() => readKubeDnsInstall([cm, { text: deploymentYaml(), filename: 'svc.yaml', holds: 'service' }])).toThrowError(/^svc\.yaml: no Service in this file; it holds Deployment kube-dns/);
    expect(readKubeDnsInstall([cm, { text: `${deploymentYaml()}---\n${serviceYaml()}`, filename: 'both.yaml', holds: 'service' }]).service?.clusterIP).toBe('10.96.0.10');
    // Without `holds`, a CoreDNS Deployment beside the ConfigMap is named, and what it runs said.
    expect(readKubeDnsInstall([cm, { text: coreDns, filename: 'deploy.yaml' }]).diagnostics.map(formatDiagnostic)).toEqual([
      'info unused-object deploy.yaml:1:1: Deployment coredns runs no kubedns, dnsmasq or sidecar container (containers: coredns); not read',
    ]);
  });
  it("refuses a Service whose clusterIP is not an IP, at the field; a headless Service has none", () => {
    const cm = { text: configMapYaml({ upstreamNameservers: '["8.8.8.8"]' }), filename: 'cm.yaml' };
    expect(() => readKubeDnsInstall([cm, { text: serviceYaml('10.96.0.1O'), filename: 'svc.yaml' }])).toThrowError(/^svc\.yaml:4:8: Service kube-dns: spec\.clusterIP '10\.96\.0\.1O' is not an IP address$/);
    expect(readKubeDnsInstall([cm, { text: serviceYaml('None'), filename: 'svc.yaml' }]).service?.clusterIP).toBeUndefined();
  });
  it('prefers kube-system/kube-dns among workloads of several namespaces (kubectl get deploy -A)', () => {
    const elsewhere = deploymentYaml({ kubedns: ['--domain=test.example.'] }).replace('namespace: kube-system', 'namespace: dns-test');
    const install = readKubeDnsInstall([{ text: `${elsewhere}---\n${deploymentYaml()}`, filename: 'all.yaml' }]);
    expect(install.deployment?.namespace).toBe('kube-system');
    expect(install.diagnostics.map(formatDiagnostic)).toEqual(['info unused-object all.yaml:1:1: Deployment dns-test/kube-dns is not the kube-dns workload (that is kube-system/kube-dns); not read']);
  });
});

describe('a container whose $(NAME) references expand past what Linux passes to a program', () => {
  it('is refused with argument-too-long, quickly, whatever the doubling asks for', () => {
    const env = Array.from({ length: 100 }, (_, index) => `        - name: V${index + 1}\n          value: "$(V${index})$(V${index})"\n`).join('');
    const text = `kind: Deployment\nmetadata:\n  name: kube-dns\n  namespace: kube-system\nspec:\n  template:\n    spec:\n      containers:\n      - name: kubedns\n        args:\n        - --domain=cluster.local.\n        - --v=$(V100)\n        env:\n        - name: V0\n          value: "ab"\n${env}`;
    const error = thrown(() => readKubeDnsInstall([{ text, filename: 'kube-dns.yaml' }]));
    expect(error).toBeInstanceOf(KubernetesObjectInputError);
    expect(error).toMatchObject({ code: 'argument-too-long', category: 'input' });
    // At the env entry's value, not at the Deployment.
    expect((error as Error).message).toMatch(/^kube-dns\.yaml:47:11: container kubedns: env\[16\] \(V16\) is longer than 128 KiB once its \$\(NAME\) references are expanded; .*E2BIG/);
  });

  it('is refused for a literal env value or argument past 128 KiB, at the value, saying it is so as written', () => {
    const big = 'x'.repeat(129 * 1024);
    const head = `kind: Deployment\nmetadata:\n  name: kube-dns\n  namespace: kube-system\nspec:\n  template:\n    spec:\n      containers:\n      - name: kubedns\n        args:\n        - --domain=cluster.local.\n`;
    const env = thrown(() => readKubeDnsInstall([{ text: `${head}        env:\n        - name: BIG\n          value: "${big}"\n`, filename: 'kube-dns.yaml' }]));
    expect(env).toMatchObject({ code: 'argument-too-long', category: 'input' });
    expect((env as Error).message).toMatch(/^kube-dns\.yaml:14:11: container kubedns: env\[0\] \(BIG\) is longer than 128 KiB \(129 KiB\) as written; .*E2BIG/);
    const arg = thrown(() => readKubeDnsInstall([{ text: `${head}        - --v=${big}\n`, filename: 'kube-dns.yaml' }]));
    expect((arg as Error).message).toMatch(/^kube-dns\.yaml:12:11: container kubedns: args\[1\] is longer than 128 KiB \(130 KiB\) as written; /);
    // Just under the bound (NAME=value within 128 KiB) is read.
    expect(() => readKubeDnsInstall([{ text: `${head}        env:\n        - name: BIG\n          value: "${'x'.repeat(128 * 1024 - 4)}"\n`, filename: 'kube-dns.yaml' }])).not.toThrow();
  });
});

describe('YAML merge keys, as kubectl reads them', () => {
  it('reads dnsmasq arguments that come through a merge key (they were dropped, and NXDOMAIN got cached)', () => {
    const text = `kind: Deployment
metadata: {name: kube-dns, namespace: kube-system}
x-dnsmasq: &dnsmasq
  image: registry.k8s.io/dns/k8s-dns-dnsmasq-nanny:1.26.7
  args: ["-v=2", "-configDir=/etc/k8s/dns/dnsmasq-nanny", "--", "-k", "--no-negcache", "--server=/cluster.local/127.0.0.1#10053"]
spec:
  template:
    spec:
      containers:
      - <<: *dnsmasq
        name: dnsmasq
`;
    const install = readKubeDnsInstall([{ text, filename: 'kube-dns.yaml' }]);
    expect(install.deployment?.dnsmasq?.argv.programArguments).toContain('--no-negcache');
  });

  it('lets keys written in the mapping win over merged ones, and the earlier of several merged maps', () => {
    const text = `kind: Deployment
metadata: {name: kube-dns, namespace: kube-system}
spec:
  template:
    spec:
      containers:
      - <<: [{name: kubedns, args: ["--domain=first.local."]}, {args: ["--domain=second.local."], image: x}]
        image: registry.k8s.io/dns/k8s-dns-kube-dns:1.26.7
`;
    const kubedns = readKubeDnsInstall([{ text, filename: 'kube-dns.yaml' }]).deployment?.kubedns;
    expect(kubedns?.args.values.domain).toBe('first.local.');
    expect(kubedns?.image).toBe('registry.k8s.io/dns/k8s-dns-kube-dns:1.26.7');
  });
});

describe('the same Deployment given twice', () => {
  it('is read once when its copies hold the same containers, wherever each starts (positions were compared)', () => {
    const deployment = `kind: Deployment\nmetadata: {name: kube-dns, namespace: kube-system}\nspec:\n  template:\n    spec:\n      containers:\n      - name: kubedns\n        args: ["--domain=cluster.local."]\n`;
    const list = `apiVersion: v1\nkind: List\nitems:\n- ${deployment.replaceAll('\n', '\n  ').trimEnd()}\n`;
    const install = readKubeDnsInstall([
      { text: list, filename: 'all.yaml' },
      { text: `# its own file\n\n${deployment}`, filename: 'deploy.yaml' },
    ]);
    expect(install.deployment?.kubedns?.args.values.domain).toBe('cluster.local.');
    expect(install.diagnostics.map((entry) => entry.message)).toContainEqual(expect.stringMatching(/^Deployment kube-dns again, the same as at all\.yaml:\d+:\d+; read once$/));
  });
});

describe('a Pod given as the workload', () => {
  /** `kubectl get pod -o yaml` of a kube-dns Pod: the Deployment's Pod template under spec, with its labels and owner. */
  const podOf = (deployment: string, name: string, owner?: string): string =>
    deployment
      .replace('kind: Deployment', 'apiVersion: v1\nkind: Pod')
      .replace('apiVersion: apps/v1\n', '')
      .replace('metadata: {name: kube-dns, namespace: kube-system}', `metadata:\n  name: ${name}\n  namespace: kube-system\n  labels: {k8s-app: kube-dns, pod-template-hash: 5c9f8d7b6}${owner === undefined ? '' : `\n  ownerReferences: [{apiVersion: apps/v1, kind: ReplicaSet, name: ${owner}, controller: true}]`}`)
      .replace('spec:\n  template:\n    spec:\n      containers:\n', 'spec:\n  containers:\n')
      .replaceAll('\n      ', '\n  ');
  const withSelector = (deployment: string): string => deployment.replace('spec:\n  template:\n', 'spec:\n  selector: {matchLabels: {k8s-app: kube-dns}}\n  template:\n');
  const corp = deploymentYaml({ dnsmasq: [...STOCK_DNSMASQ_ARGS, '--server=/corp.internal/10.9.9.9'] });

  it("reads a Pod's containers like a Deployment's, with the Pod's own name and namespace (also in a PodList)", () => {
    const pod = podOf(corp, 'kube-dns-5c9f8d7b6-x2x7q');
    for (const text of [pod, `apiVersion: v1\nkind: PodList\nitems:\n- ${pod.replace(/^apiVersion: v1\nkind: Pod\n/, '').trimEnd().replaceAll('\n', '\n  ')}\n`]) {
      const install = readKubeDnsInstall([{ text: `${configMapYaml({ upstreamNameservers: '["8.8.8.8"]' })}---\n${text}`, filename: 'pod.yaml' }]);
      expect(install.deployment).toMatchObject({ kind: 'Pod', name: 'kube-dns-5c9f8d7b6-x2x7q', namespace: 'kube-system' });
      expect(install.deployment?.dnsmasq?.dnsmasq.servers.flatMap((server) => server.domains ?? [])).toContain('corp.internal');
      expect(install.deployment?.kubedns?.image).toBe('registry.k8s.io/dns/k8s-dns-kube-dns:1.26.7');
      expect(install.diagnostics).toEqual([]);
    }
    // Given as --kube-dns-deployment FILE, a Pod is a kube-dns workload.
    expect(readKubeDnsInstall([{ text: pod, filename: 'pod.yaml', holds: 'workload' }]).deployment?.kind).toBe('Pod');
  });

  it('with its Deployment: the Deployment is read and the Pod named, by selector or by owner; a Pod of another rollout says its containers differ', () => {
    const deployment = withSelector(corp);
    const bySelector = readKubeDnsInstall([{ text: `${deployment}---\n${podOf(corp, 'kube-dns-5c9f8d7b6-x2x7q')}`, filename: 'all.yaml' }]);
    expect(bySelector.deployment?.kind).toBe('Deployment');
    expect(bySelector.diagnostics.map(formatDiagnostic)).toEqual([
      expect.stringMatching(/^info unused-object all\.yaml:\d+:1: Pod kube-system\/kube-dns-5c9f8d7b6-x2x7q is a Pod of Deployment kube-system\/kube-dns \(its labels match the Deployment's selector\): the Deployment is read, not the Pod$/),
    ]);
    // The Pod first, the Deployment (without a selector) second: owned through its ReplicaSet.
    const older = podOf(deploymentYaml(), 'kube-dns-6d4b75cb6d-abcde', 'kube-dns-6d4b75cb6d');
    const byOwner = readKubeDnsInstall([{ text: older, filename: 'pod.yaml' }, { text: corp, filename: 'deploy.yaml' }]);
    expect(byOwner.deployment?.kind).toBe('Deployment');
    expect(byOwner.deployment?.dnsmasq?.dnsmasq.servers.flatMap((server) => server.domains ?? [])).toContain('corp.internal');
    expect(byOwner.diagnostics.map((entry) => entry.message)).toEqual([
      "Pod kube-system/kube-dns-6d4b75cb6d-abcde is a Pod of Deployment kube-system/kube-dns (its ownerReferences): the Deployment is read, not the Pod; its containers differ from the Deployment's (a Pod of another rollout?), and the Deployment's are what new Pods run",
    ]);
    // A Pod the Deployment does not select is another workload, named as such.
    const stray = readKubeDnsInstall([{ text: `${deployment}---\n${podOf(corp, 'kube-dns-other').replace('k8s-app: kube-dns,', 'k8s-app: other,')}`, filename: 'all.yaml' }]);
    expect(stray.deployment?.kind).toBe('Deployment');
    expect(stray.diagnostics.map((entry) => entry.message)).toEqual([expect.stringMatching(/^Pod kube-system\/kube-dns-other is not the kube-dns workload \(that is kube-system\/kube-dns\); not read$/)]);
  });
});
