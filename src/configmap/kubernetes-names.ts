/**
 * The names and labels of Kubernetes objects as the API server takes them (kubernetes/apimachinery
 * `pkg/util/validation/validation.go`: IsDNS1123Subdomain, IsDNS1123Label, IsDNS1035Label,
 * IsQualifiedName, IsValidLabelValue; kubernetes/kubernetes `pkg/apis/core/validation`: a Service's
 * name is a DNS-1035 label, a Deployment's, ReplicationController's, Pod's or ConfigMap's a DNS-1123
 * subdomain, a namespace a DNS-1123 label). An object that breaks them was never in a cluster.
 */
import { isDns1035Label, isDns1123Label, isDns1123Subdomain } from '../dns/go-net.js';

const NAME_PART_MAX_LENGTH = 63;
const NAME_PART = /^[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;
const LABEL_VALUE_MAX_LENGTH = 63;

/** Why `name` is not a `metadata.name` of `kind`; undefined when it is one. */
export function objectNameProblem(kind: string, name: string): string | undefined {
  if (kind === 'Service') {
    return isDns1035Label(name) ? undefined : `a Service's name is a DNS-1035 label: lower-case letters, digits and '-', starting with a letter and ending with a letter or digit, at most 63 characters`;
  }
  return isDns1123Subdomain(name) ? undefined : `a ${kind}'s name is a DNS-1123 subdomain: lower-case letters, digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters`;
}

/** Why `namespace` is not a namespace's name; undefined when it is one. */
export function namespaceProblem(namespace: string): string | undefined {
  return isDns1123Label(namespace) ? undefined : "a namespace's name is a DNS-1123 label: lower-case letters, digits and '-', starting and ending with a letter or digit, at most 63 characters";
}

/** Why `key` is not a label key (`[PREFIX/]NAME`, IsQualifiedName); undefined when it is one. */
export function labelKeyProblem(key: string): string | undefined {
  const slash = key.indexOf('/');
  const prefix = slash < 0 ? undefined : key.slice(0, slash);
  const name = slash < 0 ? key : key.slice(slash + 1);
  if (prefix !== undefined && !isDns1123Subdomain(prefix)) return `its prefix '${prefix}' is not a DNS-1123 subdomain (lower-case letters, digits, '-' and '.', at most 253 characters)`;
  if (name.length > NAME_PART_MAX_LENGTH || !NAME_PART.test(name)) return "a label key's name is 1-63 characters: letters, digits, '-', '_' and '.', starting and ending with a letter or digit, after an optional DNS-1123 subdomain and '/'";
  return undefined;
}

/** Why `value` is not a label value (IsValidLabelValue); undefined when it is one. */
export function labelValueProblem(value: string): string | undefined {
  return value === '' || (value.length <= LABEL_VALUE_MAX_LENGTH && NAME_PART.test(value)) ? undefined : "a label value is empty or at most 63 characters: letters, digits, '-', '_' and '.', starting and ending with a letter or digit";
}
