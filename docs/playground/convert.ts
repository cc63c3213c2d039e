/**
 * The playground's computation, without the DOM: one ConfigMap text and the chosen options in, the
 * Corefile and everything to tell the user out. Never throws: every failure (unreadable YAML, an
 * invalid cluster domain, a refused translation) becomes part of the result.
 *
 * Uses only the package's pure core, so it runs in the browser and in Node alike.
 */
import { ConfigMapInputError, readKubeDnsInstall, translateKubeDns, translateKubeDnsInstall, translateLikeKubeadm } from '../../src/index.js';
import type { KubeDnsInstall } from '../../src/index.js';
import type { ConfigMapData, Diagnostic } from '../../src/index.js';
import { KUBEADM_PROFILES, NEWEST_COREDNS_VERSION } from '../../src/releases.js';
import type { KubeadmProfileId } from '../../src/releases.js';

export type Mode = 'translator' | 'kubeadm';

export interface PlaygroundInput {
  /** The ConfigMap as pasted: YAML or JSON; blank means "there is no kube-dns ConfigMap". */
  readonly text: string;
  readonly mode: Mode;
  /** Target CoreDNS release of the default translator. */
  readonly coredns: string;
  /** The kubeadm profile whose translation is reproduced. */
  readonly kubeadmProfile: KubeadmProfileId;
  /** Cluster domain (kubeadm's `networking.dnsDomain` in kubeadm mode). */
  readonly clusterDomain: string;
  readonly dropFederations: boolean;
  readonly force: boolean;
}

/** Something the page lists: a translator diagnostic, or one made up here for other failures. */
export interface Message {
  readonly severity: Diagnostic['severity'];
  readonly code: string;
  /** `key` and `path` of the diagnostic (`stubDomains["acme.local"][0]`), when known. */
  readonly where: string;
  readonly message: string;
  readonly hint: string;
}

export interface PlaygroundOutput {
  /** `ok`: a Corefile; `refused`: the translation stopped; `input-error`: the text is no ConfigMap. */
  readonly status: 'ok' | 'refused' | 'input-error';
  readonly corefile: string | undefined;
  /** The ConfigMap data read from the text (`null`: none), for the routing panel. */
  readonly data: ConfigMapData | null | undefined;
  /** The cluster domain as used (trimmed; the default when the field is blank). */
  readonly clusterDomain: string;
  readonly messages: readonly Message[];
  /** One line about what was produced (`CoreDNS 1.14.7`, `kubeadm profile v1.12 (Kubernetes 1.12, 1.13)`). */
  readonly target: string;
}

export const DEFAULT_INPUT: Omit<PlaygroundInput, 'text'> = {
  mode: 'translator',
  coredns: NEWEST_COREDNS_VERSION,
  kubeadmProfile: 'v1.19',
  clusterDomain: 'cluster.local',
  dropFederations: false,
  force: false,
};

/** `v1.12 (Kubernetes 1.12, 1.13)`. */
export function describeProfile(id: KubeadmProfileId): string {
  const minors = KUBEADM_PROFILES[id].kubernetesMinors.map((minor) => `1.${minor}`);
  return `${id} (Kubernetes ${minors.join(', ')})`;
}

export function convert(input: PlaygroundInput): PlaygroundOutput {
  const clusterDomain = input.clusterDomain.trim() === '' ? DEFAULT_INPUT.clusterDomain : input.clusterDomain.trim();
  const target = input.mode === 'kubeadm' ? `kubeadm profile ${describeProfile(input.kubeadmProfile)}` : `CoreDNS ${input.coredns}`;
  const base = { clusterDomain, target };

  let data: ConfigMapData | null;
  let install: KubeDnsInstall | undefined;
  // Warnings about which ConfigMap was pasted (another name or namespace than kube-system/kube-dns).
  let inputMessages: Message[] = [];
  try {
    // The whole install, as the docs recommend pasting it (a kubectl List of the Deployment, Service
    // and ConfigMap): the Deployment's flags are translated too.
    install = input.text.trim() === '' ? undefined : readKubeDnsInstall([{ text: input.text, filename: 'input' }]);
    if (install !== undefined && install.configMap === undefined && install.deployment === undefined && install.service === undefined) {
      throw new ConfigMapInputError('no-configmap', 'no kube-dns ConfigMap, Deployment or Service found', { filename: 'input' });
    }
    data = install?.configMap?.data ?? null;
    // kubeadm read the ConfigMap alone: the install's own notes are for the default translator.
    inputMessages = input.mode === 'kubeadm' ? (install?.configMap?.diagnostics ?? []).map(fromDiagnostic) : [];
  } catch (error) {
    return { ...base, status: 'input-error', corefile: undefined, data: undefined, messages: [failure('input', error, 'Paste the output of `kubectl -n kube-system get configmap kube-dns -o yaml` (or -o json).')] };
  }

  try {
    if (input.mode === 'kubeadm') {
      const outcome = translateLikeKubeadm(input.kubeadmProfile, data, clusterDomain);
      const warnings = [
        ...inputMessages,
        ...outcome.warnings.map((warning): Message => ({ severity: 'warning', code: 'kubeadm-warning', where: '', message: warning, hint: 'kubeadm printed this and went on.' })),
      ];
      if (outcome.ok) {
        const unrequested = outcome.unrequested.map(
          (finding): Message => ({ severity: 'warning', code: 'kubeadm-unrequested', where: '', message: finding, hint: 'kubeadm pasted the values into its manifest unescaped; the input asked for no such thing.' }),
        );
        return { ...base, status: 'ok', corefile: outcome.corefile, data, messages: [...warnings, ...unrequested] };
      }
      const stopped: Message = {
        severity: 'error',
        code: `kubeadm-${outcome.stage}-error`,
        where: '',
        message: outcome.error,
        hint: outcome.stage === 'decode' ? 'kubeadm rendered a CoreDNS manifest it could not decode, and the upgrade stopped.' : 'kubeadm stopped the upgrade with this error.',
      };
      return { ...base, status: 'refused', corefile: undefined, data, messages: [...warnings, stopped] };
    }
    const options = {
      coredns: input.coredns,
      clusterDomain,
      dropFederations: input.dropFederations,
      force: input.force,
    };
    const translation = install === undefined ? translateKubeDns(null, options) : translateKubeDnsInstall(install, options);
    const messages = [...inputMessages, ...translation.diagnostics.map(fromDiagnostic)];
    if (translation.ok && translation.corefile !== undefined) return { ...base, status: 'ok', corefile: translation.corefile, data, messages };
    return { ...base, status: 'refused', corefile: undefined, data, messages };
  } catch (error) {
    // Bad options (cluster domain, versions) and internal self-check failures.
    return { ...base, status: 'refused', corefile: undefined, data, messages: [failure('options', error, 'Check the options above.')] };
  }
}

function fromDiagnostic(entry: Diagnostic): Message {
  const position = entry.position === undefined ? '' : ` (line ${entry.position.line}, column ${entry.position.column})`;
  return { severity: entry.severity, code: entry.code, where: `${entry.key ?? ''}${entry.path ?? ''}${position}`, message: entry.message, hint: entry.hint };
}

function failure(code: string, error: unknown, hint: string): Message {
  const name = error instanceof Error ? error.name : 'Error';
  const message = error instanceof Error ? error.message : String(error);
  // Named errors of the package (ConfigMapInputError, TranslateOptionsError, …) are their own code.
  return { severity: 'error', code: name === 'Error' ? `${code}-error` : name, where: '', message, hint };
}
