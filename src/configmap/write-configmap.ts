import { load } from 'js-yaml';

/** `kube-system/coredns`, the ConfigMap the CoreDNS Deployment of Kubernetes mounts. */
const COREDNS_CONFIGMAP = { name: 'coredns', namespace: 'kube-system' } as const;

/**
 * A CoreDNS ConfigMap holding `corefile`, ready for `kubectl apply -f -`. The Corefile is written
 * as a literal block (readable, diffable); should a line defeat that (leading spaces on the first
 * line, characters YAML cannot hold raw), a double-quoted scalar is used instead. Either way the
 * result is checked to load back to exactly `corefile`.
 */
export function renderCoreDnsConfigMap(corefile: string, metadata: { name: string; namespace: string } = COREDNS_CONFIGMAP): string {
  const header = ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', `  name: ${metadata.name}`, `  namespace: ${metadata.namespace}`, 'data:'];
  const literal = `${[...header, '  Corefile: |', ...corefile.replace(/\n$/, '').split('\n').map((line) => (line === '' ? '' : `    ${line}`))].join('\n')}\n`;
  if (loadsBackTo(literal, corefile)) return literal;
  const quoted = `${[...header, `  Corefile: ${JSON.stringify(corefile)}`].join('\n')}\n`;
  if (loadsBackTo(quoted, corefile)) return quoted;
  throw new Error('the Corefile cannot be written into a ConfigMap');
}

function loadsBackTo(yaml: string, corefile: string): boolean {
  try {
    const document = load(yaml, { maxAliases: 0 }) as { data?: { Corefile?: unknown } };
    return document.data?.Corefile === corefile;
  } catch {
    return false;
  }
}
