/**
 * Kubernetes objects for tests, as YAML text: kube-dns Deployments built from the stock argument
 * lists (kubernetes/kubernetes `cluster/addons/dns/kube-dns/kube-dns.yaml.in`) with changes, the
 * kube-dns Service, and ConfigMaps (kube-dns's, CoreDNS's) in the shapes kubectl prints. Tests build
 * their inputs here instead of writing the YAML by hand, unless the exact text is what they test.
 */

export const STOCK_KUBEDNS_ARGS = ['--domain=cluster.local.', '--dns-port=10053', '--config-dir=/kube-dns-config', '--v=2'];
export const STOCK_NANNY_ARGS = ['-v=2', '-logtostderr', '-configDir=/etc/k8s/dns/dnsmasq-nanny', '-restartDnsmasq=true', '--'];
export const STOCK_DNSMASQ_ARGS = [
  '-k',
  '--cache-size=1000',
  '--no-negcache',
  '--dns-loop-detect',
  '--log-facility=-',
  '--server=/cluster.local/127.0.0.1#10053',
  '--server=/in-addr.arpa/127.0.0.1#10053',
  '--server=/ip6.arpa/127.0.0.1#10053',
];
export const STOCK_SIDECAR_ARGS = [
  '--v=2',
  '--logtostderr',
  '--probe=kubedns,127.0.0.1:10053,kubernetes.default.svc.cluster.local,5,SRV',
  '--probe=dnsmasq,127.0.0.1:53,kubernetes.default.svc.cluster.local,5,SRV',
];

const list = (items: readonly string[]) => `[${items.map((item) => JSON.stringify(item)).join(', ')}]`;

export interface DeploymentParts {
  readonly kubedns?: readonly string[] | undefined;
  readonly dnsmasq?: readonly string[] | undefined;
  readonly sidecar?: readonly string[] | undefined;
  readonly kind?: string;
  /** false: dnsmasq runs without dnsmasq-nanny (Kubernetes ≤1.5 manifests), `dnsmasq` being its whole argument list. */
  readonly nanny?: boolean;
  /** false: the Pod has no dnsmasq container (kubedns answers clients itself). */
  readonly withDnsmasq?: boolean;
  /** The kubedns image (its tag is the kube-dns release whose rules apply). */
  readonly kubeDnsImage?: string;
}

/** A Deployment (one YAML document) with the given arguments; `dnsmasq` lists dnsmasq's own (after the nanny's `--`). */
export function deploymentYaml(parts: DeploymentParts = {}): string {
  const kubedns = parts.kubedns ?? STOCK_KUBEDNS_ARGS;
  const dnsmasq = parts.dnsmasq ?? STOCK_DNSMASQ_ARGS;
  const sidecar = parts.sidecar ?? STOCK_SIDECAR_ARGS;
  return [
    `apiVersion: ${parts.kind === 'ReplicationController' ? 'v1' : 'apps/v1'}`,
    `kind: ${parts.kind ?? 'Deployment'}`,
    'metadata: {name: kube-dns, namespace: kube-system}',
    'spec:',
    '  template:',
    '    spec:',
    '      containers:',
    '      - name: kubedns',
    `        image: ${parts.kubeDnsImage ?? 'registry.k8s.io/dns/k8s-dns-kube-dns:1.26.7'}`,
    `        args: ${list(kubedns)}`,
    ...(parts.withDnsmasq === false
      ? []
      : parts.nanny === false
        ? ['      - name: dnsmasq', '        image: gcr.io/google_containers/kube-dnsmasq-amd64:1.4', `        args: ${list(dnsmasq)}`]
        : ['      - name: dnsmasq', '        image: registry.k8s.io/dns/k8s-dns-dnsmasq-nanny:1.26.7', `        args: ${list([...STOCK_NANNY_ARGS, ...dnsmasq])}`]),
    '      - name: sidecar',
    '        image: registry.k8s.io/dns/k8s-dns-sidecar:1.26.7',
    `        args: ${list(sidecar)}`,
    '',
  ].join('\n');
}

export function serviceYaml(clusterIP = '10.96.0.10'): string {
  return `apiVersion: v1\nkind: Service\nmetadata: {name: kube-dns, namespace: kube-system}\nspec: {clusterIP: ${clusterIP}}\n`;
}

/** How {@link configMapYaml} writes a ConfigMap. */
export interface ConfigMapParts {
  /** `metadata.name`; default `kube-dns`. */
  readonly name?: string;
  /** `metadata.namespace`; default `kube-system`; `null`: no namespace. */
  readonly namespace?: string | null;
  /** `flow` (default): `metadata: {name: …, namespace: …}` on one line; `block`: one field a line, as kubectl prints it. */
  readonly metadata?: 'flow' | 'block';
  /** `quoted` (default): each value a JSON string on one line; `block`: literal blocks (`key: |`), as kubectl prints multi-line values. */
  readonly values?: 'quoted' | 'block';
  /** Start with `apiVersion: v1` (default true). */
  readonly apiVersion?: boolean;
  /** Top-level fields after `data` (`binaryData: …`), as written. */
  readonly after?: string;
}

function yamlValue(key: string, value: string, style: 'quoted' | 'block'): string[] {
  // A literal block cannot start with spaces, hold only line breaks, a carriage return or a control
  // character; such values stay quoted.
  if (style === 'quoted' || /^\n*$/.test(value) || /^\n*[ \t]/.test(value) || /[\x00-\x08\x0b-\x1f\x7f]/.test(value)) return [`  ${key}: ${JSON.stringify(value)}`];
  const chomp = value.endsWith('\n\n') ? '+' : value.endsWith('\n') ? '' : '-';
  return [`  ${key}: |${chomp}`, ...value.replace(/\n$/, '').split('\n').map((line) => (line === '' ? '' : `    ${line}`))];
}

/** A ConfigMap (one YAML document) holding `data`: by default kube-system/kube-dns, values quoted. */
export function configMapYaml(data: Readonly<Record<string, string>>, parts: ConfigMapParts = {}): string {
  const name = parts.name ?? 'kube-dns';
  const namespace = parts.namespace === undefined ? 'kube-system' : parts.namespace;
  const metadata =
    parts.metadata === 'block'
      ? ['metadata:', `  name: ${name}`, ...(namespace === null ? [] : [`  namespace: ${namespace}`])]
      : [`metadata: {name: ${name}${namespace === null ? '' : `, namespace: ${namespace}`}}`];
  const values = Object.entries(data).flatMap(([key, value]) => yamlValue(key, value, parts.values ?? 'quoted'));
  const after = parts.after === undefined ? [] : [parts.after.replace(/\n$/, '')];
  return [...(parts.apiVersion === false ? [] : ['apiVersion: v1']), 'kind: ConfigMap', ...metadata, 'data:', ...values, ...after, ''].join('\n');
}

/** A CoreDNS ConfigMap (kube-system/coredns) with `corefile` as a literal block, and other data keys after it. */
export function coreDnsConfigMapYaml(corefile: string, parts: ConfigMapParts & { readonly otherKeys?: Readonly<Record<string, string>> } = {}): string {
  const { otherKeys, ...rest } = parts;
  return configMapYaml({ Corefile: corefile, ...otherKeys }, { name: 'coredns', metadata: 'block', values: 'block', ...rest });
}

/**
 * A `kubectl get deploy/kube-dns [svc/kube-dns] cm/kube-dns -o yaml`-like List in flow style: a
 * Deployment whose dnsmasq runs `dnsmasqArgs`, the Service when `service` is given, and the
 * ConfigMap with `upstreamNameservers: ["8.8.8.8"]`.
 */
export function installListYaml(dnsmasqArgs: readonly string[], service?: string): string {
  return [
    'apiVersion: v1',
    'kind: List',
    'items:',
    '- apiVersion: apps/v1',
    '  kind: Deployment',
    '  metadata: {name: kube-dns, namespace: kube-system}',
    `  spec: {template: {spec: {containers: [{name: dnsmasq, args: ${JSON.stringify(dnsmasqArgs)}}]}}}`,
    ...(service === undefined ? [] : ['- apiVersion: v1', '  kind: Service', '  metadata: {name: kube-dns, namespace: kube-system}', `  spec: {clusterIP: ${service}}`]),
    '- apiVersion: v1',
    '  kind: ConfigMap',
    '  metadata: {name: kube-dns, namespace: kube-system}',
    `  data: {upstreamNameservers: '["8.8.8.8"]'}`,
    '',
  ].join('\n');
}
