/**
 * The EKS CoreDNS add-on's `configurationValues`: a JSON document validated against the add-on
 * version's schema, whose `corefile` property is the whole Corefile as one string (there is no
 * import or coredns-custom hook on EKS). Facts (docs/platforms.md#eks-add-on): the schema of
 * v1.10.1-eksbuild.11 (draft-06, `additionalProperties: false`); the readiness probe on ready's
 * :8181 from v1.10.1-eksbuild.3 (aws/containers-roadmap#2152); liveness on health's :8080.
 *
 * Pure: no Node APIs.
 */
import { ConfigMapInputError } from '../configmap/config-map-data.js';
import { loadYamlDocuments } from '../configmap/yaml-documents.js';
import { parseCorefile } from '../corefile/parser.js';
import { serverBlocks } from '../corefile/model.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import type { Diagnostic } from '../diagnostics/diagnostic.js';
import { checkArgument } from '../errors/arguments.js';

/** The top-level properties of the add-on's configuration schema (v1.10.1-eksbuild.11). */
export const EKS_ADDON_PROPERTIES: readonly string[] = [
  'affinity',
  'autoScaling',
  'computeType',
  'corefile',
  'nodeSelector',
  'podAnnotations',
  'podDisruptionBudget',
  'podLabels',
  'replicaCount',
  'resources',
  'tolerations',
  'topologySpreadConstraints',
];


/** `-o eks-addon`: the configurationValues for `aws eks update-addon --configuration-values file://FILE`. */
export function renderEksAddonConfiguration(corefile: string): string {
  checkArgument('renderEksAddonConfiguration', 'corefile', corefile, 'string');
  return `${JSON.stringify({ corefile }, null, 2)}\n`;
}

export interface EksAddonConfiguration {
  readonly corefile: string;
  /** The other properties (replicaCount, resources…): not read. */
  readonly otherProperties: readonly string[];
  /** `eks-addon-property-unknown` for each property the schema does not have. */
  readonly diagnostics: readonly Diagnostic[];
}

/**
 * Reads configurationValues (JSON, or the YAML form the console and Terraform also take); undefined
 * when the text is not an object with a `corefile` string. Throws `ConfigMapInputError` where its
 * aliases expand past kubectl's bound (`excessive-aliasing`, `recursive-alias`).
 */
export function readEksAddonConfiguration(text: string, filename = '<input>'): EksAddonConfiguration | undefined {
  checkArgument('readEksAddonConfiguration', 'text', text, 'string');
  checkArgument('readEksAddonConfiguration', 'filename', filename, 'string');
  let value: unknown;
  try {
    const documents = loadYamlDocuments(text, { filename });
    if (documents.length !== 1) return undefined;
    value = documents[0];
  } catch (error) {
    // Aliases past kubectl's bound are refused, not taken for another kind of input.
    if (error instanceof ConfigMapInputError && error.code !== 'not-yaml') throw error;
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const corefile = record['corefile'];
  if (typeof corefile !== 'string') return undefined;
  const keys = Object.keys(record);
  const diagnostics = keys
    .filter((key) => !EKS_ADDON_PROPERTIES.includes(key))
    .map((key) =>
      diagnostic('eks-addon-property-unknown', {
        key,
        message: `'${key}' is not a property of the CoreDNS add-on's configuration schema (${EKS_ADDON_PROPERTIES.join(', ')}): EKS refuses the configuration`,
      }),
    );
  return { corefile, otherProperties: keys.filter((key) => key !== 'corefile' && EKS_ADDON_PROPERTIES.includes(key)), diagnostics };
}

/** `eks-addon-probe-unanswered` for a Corefile without `ready` or without `health` in any block. */
export function eksProbeDiagnostics(corefile: string): Diagnostic[] {
  checkArgument('eksProbeDiagnostics', 'corefile', corefile, 'string');
  let names: Set<string>;
  try {
    names = new Set(serverBlocks(parseCorefile(corefile).corefile).flatMap((block) => block.directives.map((directive) => directive.name)));
  } catch {
    return []; // a Corefile that does not parse is reported as such by the command
  }
  const probes = [
    ['ready', "the add-on's readiness probe (GET :8181/ready, from v1.10.1-eksbuild.3) gets no answer: the Pods stay NotReady and the kube-dns Service sends them no queries"],
    ['health', "the add-on's liveness probe (GET :8080/health) gets no answer: the kubelet restarts the Pods"],
  ] as const;
  return probes
    .filter(([plugin]) => !names.has(plugin))
    .map(([plugin, effect]) => diagnostic('eks-addon-probe-unanswered', { key: 'corefile', message: `no server block has ${plugin}: ${effect}` }));
}
