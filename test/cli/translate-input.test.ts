import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { memoryIo } from '../support/memory-io.js';
import { configMapYaml, coreDnsConfigMapYaml, deploymentYaml, STOCK_DNSMASQ_ARGS } from '../support/kube-dns-manifests.js';

// What every command that reads the kube-dns ConfigMap (translate, --kubeadm, check, explain) makes
// of input that is not plainly kube-system/kube-dns.

/** metadata: and data: lost their indentation (a real file from a public repository looks like this). */
const FLATTENED = `apiVersion: v1
kind: ConfigMap
metadata:
name: kube-dns
namespace: kube-system
data:
stubDomains: |
  {"acme.local": ["1.2.3.4"]}
upstreamNameservers: |
  ["8.8.8.8", "8.8.4.4"]
`;

const COREDNS = coreDnsConfigMapYaml('.:53 {\n    forward . /etc/resolv.conf\n}\n');

const ELSEWHERE = configMapYaml({ upstreamNameservers: '["8.8.8.8"]\n' }, { name: 'dns-settings', namespace: 'default', metadata: 'block', values: 'block' });

/** \`kubectl get --raw /api/v1/namespaces/kube-system/configmaps\`: items carry no kind. */
const CONFIGMAP_LIST = JSON.stringify({
  kind: 'ConfigMapList',
  apiVersion: 'v1',
  metadata: { resourceVersion: '812' },
  items: [
    { metadata: { name: 'coredns', namespace: 'kube-system' }, data: { Corefile: '.:53 {\n    forward . /etc/resolv.conf\n}\n' } },
    { metadata: { name: 'kube-dns', namespace: 'kube-system' }, data: { upstreamNameservers: '["8.8.8.8"]' } },
  ],
});

/** `kubectl create configmap kube-dns --from-file=kube-dns.yaml`. */
const FROM_FILE = `apiVersion: v1
kind: ConfigMap
metadata:
  name: kube-dns
  namespace: kube-system
data:
  kube-dns.yaml: |
    stubDomains: |
      {"acme.local": ["1.2.3.4"]}
    upstreamNameservers: |
      ["8.8.8.8"]
`;

const WRONG_PLACE = 'cm.yaml:4:1: name, namespace, stubDomains, upstreamNameservers are at the top level of the ConfigMap';
const NOT_KUBE_DNS =
  'warning configmap-not-kube-dns: read ConfigMap default/dns-settings, not kube-system/kube-dns: kube-dns reads only that one, so this may not be what it ran with';

async function run(args: readonly string[], files: Record<string, string>) {
  const io = memoryIo({ files });
  const status = await main([...args], io);
  return { status, out: io.out(), err: io.err() };
}

describe('reading the kube-dns ConfigMap', () => {
  it('refuses keys whose indentation was lost (exit 2), in every command', async () => {
    for (const args of [['cm.yaml'], ['--kubeadm', '1.19', 'cm.yaml'], ['explain', 'example.com.', '--kube-dns', 'cm.yaml']]) {
      const result = await run(args, { 'cm.yaml': FLATTENED });
      expect(result.status).toBe(2);
      expect(result.out).toBe('');
      expect(result.err).toContain(WRONG_PLACE);
      expect(result.err).toContain('Indent name, namespace under metadata: and stubDomains, upstreamNameservers under data:. kubectl refuses such a file too');
    }
  });

  it('refuses a CoreDNS ConfigMap given for the kube-dns one (exit 2), pointing to lint and check', async () => {
    for (const args of [['cm.yaml'], ['--kubeadm', '1.19', 'cm.yaml'], ['check', '--kube-dns', 'cm.yaml', '--corefile', 'cm.yaml']]) {
      const result = await run(args, { 'cm.yaml': COREDNS });
      expect(result.status).toBe(2);
      expect(result.out).toBe('');
      expect(result.err).toContain("cm.yaml: ConfigMap 'coredns' is a CoreDNS ConfigMap (its data has a Corefile), not the kube-dns one");
      expect(result.err).toContain('to check a Corefile, use lint, or check with --corefile');
    }
  });

  it('translates a ConfigMap with another name or namespace, with a warning naming it (stderr and JSON)', async () => {
    const text = await run(['cm.yaml'], { 'cm.yaml': ELSEWHERE });
    expect(text.status).toBe(0);
    expect(text.out).toContain('forward . 8.8.8.8');
    expect(text.err.split('\n')[0]).toBe(NOT_KUBE_DNS);
    const json = await run(['cm.yaml', '-o', 'json'], { 'cm.yaml': ELSEWHERE });
    const diagnostics = (JSON.parse(json.out) as { diagnostics: { code: string; severity: string; message: string }[] }).diagnostics;
    expect(diagnostics[0]).toMatchObject({ code: 'configmap-not-kube-dns', severity: 'warning' });
    expect(json.err).toBe('');
    const kubeadm = await run(['--kubeadm', '1.19', 'cm.yaml'], { 'cm.yaml': ELSEWHERE });
    expect(kubeadm.status).toBe(0);
    expect(kubeadm.err).toBe(`${NOT_KUBE_DNS}\n`);
  });

  it('names the ConfigMap read in the notes of check and explain', async () => {
    const corefile = '.:53 {\n    kubernetes cluster.local in-addr.arpa ip6.arpa\n    forward . 8.8.8.8\n}\n';
    const check = await run(['check', '--kube-dns', 'cm.yaml', '--corefile', 'Corefile'], { 'cm.yaml': ELSEWHERE, Corefile: corefile });
    expect(check.err).toContain('- kube-dns: read ConfigMap default/dns-settings, not kube-system/kube-dns');
    const explain = await run(['explain', 'example.com.', '--kube-dns', 'cm.yaml', '-o', 'json'], { 'cm.yaml': ELSEWHERE });
    expect(explain.status).toBe(0);
    expect((JSON.parse(explain.out) as { notes: string[] }).notes[0]).toMatch(/^kube-dns: read ConfigMap default\/dns-settings, not kube-system\/kube-dns/);
  });

  it('reads the ConfigMapList the API returns, taking kube-dns from it', async () => {
    const result = await run(['list.json'], { 'list.json': CONFIGMAP_LIST });
    expect(result.status).toBe(0);
    expect(result.out).toContain('forward . 8.8.8.8');
    // The CoreDNS ConfigMap of the list is named as not read and as what the CoreDNS outputs replace,
    // then the assumption every translation without a Deployment states.
    expect(result.err.trimEnd().split('\n').map((line) => line.split(/[ :]/).slice(0, 2).join(' '))).toEqual(['warning coredns-configmap-present', 'info kube-dns-deployment-assumed']);
    expect(result.err).toMatch(/ConfigMap kube-system\/coredns is CoreDNS's \(its data has a Corefile\), not kube-dns's: not read for the translation/);
  });

  it('warns about a data key that holds a whole kube-dns configuration', async () => {
    const result = await run(['cm.yaml'], { 'cm.yaml': FROM_FILE });
    expect(result.status).toBe(0);
    // Located at the `stubDomains:` line inside the key's value: line 8 of the file.
    expect(result.err.split('\n')[0]).toBe(
      "warning settings-in-other-key cm.yaml:8:5 kube-dns.yaml: data key 'kube-dns.yaml' holds kube-dns settings (stubDomains, upstreamNameservers) in its text; kube-dns reads only data keys of those names, so it ignored them, and they are not translated",
    );
  });
});

describe('the kube-dns install on the command line', () => {
  const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: {name: kube-dns, namespace: kube-system}
spec:
  template:
    spec:
      containers:
      - name: kubedns
        args: ["--domain=corp.example.", "--dns-port=10053"]
      - name: dnsmasq
        image: registry.k8s.io/dns/k8s-dns-dnsmasq-nanny:1.26.7
        args: ["--", "-k", "--no-negcache", "--server=/corp.example/127.0.0.1#10053", "--server=/consul/10.0.0.7#8600"]
`;
  const service = 'apiVersion: v1\nkind: Service\nmetadata: {name: kube-dns}\nspec: {clusterIP: 10.0.0.10}\n';
  const configMap = configMapYaml({ upstreamNameservers: '["10.0.0.10"]' }, { apiVersion: false });

  it('reads --kube-dns-deployment and --kube-dns-service beside the ConfigMap', async () => {
    const io = memoryIo({ files: { 'cm.yaml': configMap, 'deploy.yaml': deployment, 'svc.yaml': service } });
    // The Service IP is an upstream of the ConfigMap: CoreDNS would forward to itself.
    expect(await main(['--kube-dns-deployment', 'deploy.yaml', '--kube-dns-service', 'svc.yaml', 'cm.yaml'], io)).toBe(1);
    expect(io.err()).toContain("error loop-nameserver upstreamNameservers[0]: '10.0.0.10' would make CoreDNS forward to itself");
    const withoutService = memoryIo({ files: { 'cm.yaml': configMap, 'deploy.yaml': deployment } });
    expect(await main(['--kube-dns-deployment', 'deploy.yaml', 'cm.yaml'], withoutService)).toBe(0);
    // dnsmasq sent no reverse zone to kubedns: their names went upstream, and still do.
    expect(withoutService.out()).toContain('    kubernetes corp.example {');
    expect(withoutService.out()).toContain('consul:53 {');
  });

  it('reads all three from one file or standard input, as kubectl prints them', async () => {
    const io = memoryIo({ stdin: [deployment, configMap.replace('10.0.0.10', '192.0.2.1')].join('---\n') });
    expect(await main(['-'], io)).toBe(0);
    expect(io.out()).toContain('    forward . 192.0.2.1 {');
    expect(io.err()).toContain('info cluster-domain-from-deployment container kubedns[--domain]: cluster domain corp.example');
  });

  it('refuses input without any kube-dns object, two readers of standard input, and --batch with a Deployment', async () => {
    const empty = memoryIo({ files: { 'sa.yaml': 'apiVersion: v1\nkind: ServiceAccount\n' } });
    expect(await main(['sa.yaml'], empty)).toBe(2);
    expect(empty.err()).toContain('sa.yaml: no ConfigMap found');
    expect(await main(['--kube-dns-deployment', '-'], memoryIo({ stdin: deployment }))).toBe(2);
    expect(await main(['--batch', '--kube-dns-deployment', 'deploy.yaml'], memoryIo())).toBe(2);
  });

  it('names the objects node-cache and kubeadm do not read: the Deployment and Service of a List, another ConfigMap', async () => {
    const list = `kind: List\nitems:\n${[deployment, service, configMap.replace('10.0.0.10', '192.0.2.1'), configMapYaml({ a: 'b' }, { name: 'kube-proxy', namespace: null, apiVersion: false })]
      .map((document) => document.trimEnd().replace(/^/gm, '  ').replace(/^ {2}/, '- '))
      .join('\n')}\n`;
    const nodeLocal = memoryIo({ files: { 'all.yaml': list } });
    expect(await main(['--node-local-dns', '1.26.7', '--local-ip', '169.254.20.10', '--upstream-ip', '10.96.0.20', 'all.yaml'], nodeLocal)).toBe(0);
    expect(nodeLocal.err().split('\n').filter((line) => line.startsWith('info unused-object'))).toEqual([
      'info unused-object all.yaml:3:3: Deployment kube-dns: node-cache reads only the kube-dns ConfigMap; not read',
      'info unused-object all.yaml:15:3: Service kube-dns: node-cache reads only the kube-dns ConfigMap; not read',
      'info unused-object all.yaml:23:3: ConfigMap kube-proxy: node-cache reads only the kube-dns ConfigMap; not read',
    ]);
    const preflight = memoryIo({ files: { 'all.yaml': list } });
    expect(await main(['check', '--node-local-dns', '1.26.7', '--kube-dns', 'all.yaml'], preflight)).toBe(0);
    expect(preflight.err()).toContain('info unused-object all.yaml:3:3: Deployment kube-dns: node-cache reads only the kube-dns ConfigMap; not read');
    const kubeadm = memoryIo({ files: { 'all.yaml': list } });
    expect(await main(['--kubeadm', '1.19', 'all.yaml'], kubeadm)).toBe(0);
    expect(kubeadm.err()).toContain('info unused-object all.yaml:15:3: Service kube-dns: kubeadm reads only the kube-dns ConfigMap; not read');
    const alone = memoryIo({ files: { 'cm.yaml': configMap } });
    expect(await main(['--node-local-dns', '1.26.7', '--local-ip', '169.254.20.10', '--upstream-ip', '10.96.0.20', 'cm.yaml'], alone)).toBe(0);
    expect(alone.err()).not.toContain('unused-object');
  });

  it('refuses a --kube-dns-deployment file without a kube-dns workload (a CoreDNS Deployment) and a --kube-dns-service file without a Service', async () => {
    const coreDns = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: coredns}\nspec: {template: {spec: {containers: [{name: coredns}]}}}\n';
    const io = memoryIo({ files: { 'cm.yaml': configMap, 'coredns.yaml': coreDns, 'svc.yaml': service } });
    expect(await main(['--kube-dns-deployment', 'coredns.yaml', 'cm.yaml'], io)).toBe(2);
    expect(io.out()).toBe('');
    expect(io.err()).toMatch(/^kube-dns-to-coredns: coredns\.yaml: no kube-dns workload .* it holds Deployment coredns \(containers: coredns\)\n$/);
    const check = memoryIo({ files: { 'cm.yaml': configMap, 'coredns.yaml': coreDns, 'Corefile': '.:53 {\n    forward . 10.0.0.10\n}\n' } });
    expect(await main(['check', '--kube-dns', 'cm.yaml', '--kube-dns-deployment', 'coredns.yaml', '--corefile', 'Corefile'], check)).toBe(2);
    expect(check.err()).toContain('coredns.yaml: no kube-dns workload');
    const noService = memoryIo({ files: { 'cm.yaml': configMap, 'deploy.yaml': deployment } });
    expect(await main(['--kube-dns-service', 'deploy.yaml', 'cm.yaml'], noService)).toBe(2);
    expect(noService.err()).toContain('deploy.yaml: no Service in this file; it holds Deployment kube-dns');
  });
});

describe('a JSON error inside a ConfigMap value points into the file', () => {
  // Line 8 is `    {"acme.local": ["1.2.3.4"],, "x": []}`: the second comma is column 32 of the file, 28 of the value.
  const broken = configMapYaml({ stubDomains: '{"acme.local": ["1.2.3.4"],, "x": []}\n' }, { metadata: 'block', values: 'block', after: `  upstreamNameservers: '["8.8.8.8", 8.8.4.4]'` });

  it('in the text output, with the hint under --verbose', async () => {
    const { status, err } = await run(['kube-dns.yaml'], { 'kube-dns.yaml': broken });
    expect(status).toBe(1);
    expect(err.split('\n').slice(0, 2)).toEqual([
      "error json-syntax kube-dns.yaml:8:32 stubDomains: not valid JSON: invalid character ',' looking for beginning of object key string",
      "error json-syntax kube-dns.yaml:9:40 upstreamNameservers: not valid JSON: invalid character '.' after array element",
    ]);
    const verbose = await run(['--verbose', 'kube-dns.yaml'], { 'kube-dns.yaml': broken });
    expect(verbose.err).toContain("kube-dns.yaml:8:32 stubDomains: not valid JSON: invalid character ','");
    expect(verbose.err).toContain('\n  hint: Fix the JSON text; kube-dns ignored the whole ConfigMap because of it.\n');
  });

  it('in the JSON output: the position inside the value and the location in the file', async () => {
    const { status, out } = await run(['-o', 'json', 'kube-dns.yaml'], { 'kube-dns.yaml': broken });
    expect(status).toBe(1);
    const [stub] = (JSON.parse(out) as { diagnostics: Record<string, unknown>[] }).diagnostics;
    expect(stub).toMatchObject({
      code: 'json-syntax',
      key: 'stubDomains',
      position: { line: 1, column: 28 },
      location: { filename: 'kube-dns.yaml', line: 8, column: 32, exact: true },
    });
  });

  it('where only the value start is known (a key a merge key brings in), says so', async () => {
    const merged = 'kind: ConfigMap\nmetadata:\n  name: kube-dns\ndata:\n  <<: {upstreamNameservers: \'["8.8.8.8", x]\'}\n';
    const { err } = await run(['cm.yaml'], { 'cm.yaml': merged });
    expect(err).toContain("error json-syntax cm.yaml:5:3 upstreamNameservers (value start; 1:13 inside it): not valid JSON: invalid character 'x'");
  });

  it('in the note of check and explain, and with --node-local-dns', async () => {
    const files = { 'kube-dns.yaml': broken, Corefile: '.:53 {\n    forward . /etc/resolv.conf\n}\n' };
    const check = await run(['check', '--kube-dns', 'kube-dns.yaml', '--corefile', 'Corefile'], files);
    expect(check.err).toContain("first: not valid JSON: invalid character ',' looking for beginning of object key string (kube-dns.yaml:8:32))");
    const explain = await run(['explain', '--kube-dns', 'kube-dns.yaml', 'x.com'], files);
    expect(explain.err).toContain('(kube-dns.yaml:8:32))');
    const nodeLocal = await run(['--node-local-dns', '1.26.8', '--local-ip', '169.254.20.10', '--upstream-ip', '10.96.0.10', 'kube-dns.yaml'], files);
    expect(nodeLocal.err).toContain('error json-syntax kube-dns.yaml:8:32 stubDomains: not valid JSON');
  });
});

describe('a kube-dns Pod given as FILE', () => {
  it('is translated like its Deployment: its containers carry the dnsmasq flags', async () => {
    const deployment = deploymentYaml({ dnsmasq: [...STOCK_DNSMASQ_ARGS, '--server=/corp.internal/10.9.9.9'] });
    const pod = deployment
      .replace('apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: kube-dns, namespace: kube-system}', 'apiVersion: v1\nkind: Pod\nmetadata: {name: kube-dns-5c9f8d7b6-x2x7q, namespace: kube-system, labels: {k8s-app: kube-dns}}')
      .replace('spec:\n  template:\n    spec:\n      containers:\n', 'spec:\n  containers:\n')
      .replaceAll('\n      ', '\n  ');
    const files = { 'cm.yaml': configMapYaml({ upstreamNameservers: '["8.8.8.8"]' }), 'pod.yaml': pod };
    const fromPod = await run(['--kube-dns-deployment', 'pod.yaml', 'cm.yaml'], files);
    const fromDeployment = await run(['--kube-dns-deployment', 'deploy.yaml', 'cm.yaml'], { ...files, 'deploy.yaml': deployment });
    expect(fromPod.status).toBe(0);
    expect(fromPod.out).toContain('corp.internal:53 {');
    expect(fromPod.out).toBe(fromDeployment.out);
    expect(fromPod.err).not.toContain('plays no part');
    // -o install from a Pod ends normally (what it carries over from a Pod is the install's to decide).
    const service = 'apiVersion: v1\nkind: Service\nmetadata: {name: kube-dns, namespace: kube-system}\nspec: {clusterIP: 10.96.0.10, selector: {k8s-app: kube-dns}}\n';
    const install = await run(['-o', 'install', '--kube-dns-deployment', 'pod.yaml', '--kube-dns-service', 'svc.yaml', 'cm.yaml'], { ...files, 'svc.yaml': service });
    expect(install.status).toBe(0);
    expect(install.out).toContain('kind: Deployment');
  });
});
