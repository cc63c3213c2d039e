import type { PortParser } from '../dns/go-net.js';

/**
 * The eight kube-dns → CoreDNS translation behaviours kubeadm shipped, named after the first
 * Kubernetes minor that had each (docs/reference/kubeadm-translation.md §7).
 */
export const KUBEADM_PROFILE_IDS = ['v1.10', 'v1.11', 'v1.12', 'v1.14', 'v1.15', 'v1.16', 'v1.17', 'v1.19'] as const;
export type KubeadmProfileId = (typeof KUBEADM_PROFILE_IDS)[number];

/**
 * The gopkg.in/yaml.v2 copy a release vendored: 670d4cfe (v1.10–v1.12), v2.2.4 (v1.14–v1.17, the
 * reference corpus uses it for v1.18 too) or v2.2.8 (v1.19, v1.20). They differ in the line
 * numbers of errors and in when a stale mapping key is detected (src/kubeadm/yaml-v2/dialect.ts).
 */
export type YamlV2Release = 'yaml.v2-2017' | 'yaml.v2.2' | 'yaml.v2.2.8';

export interface KubeadmProfile {
  readonly id: KubeadmProfileId;
  /** Kubernetes minor versions (1.x) whose kubeadm behaved this way. */
  readonly kubernetesMinors: readonly number[];
  /** Plugin of the root block's upstream line and of every stub block. */
  readonly forwarder: 'proxy' | 'forward';
  /** Whether stub blocks carry `loop` (v1.12+). */
  readonly stubLoop: boolean;
  /** v1.15+ check every nameserver and drop hostnames; the port parser changed in v1.19. */
  readonly nameserverCheck: PortParser | undefined;
  /** v1.15+: an empty stub translation is "" instead of a line break plus indentation. */
  readonly emptyStubsStayEmpty: boolean;
  /** v1.10–v1.18 translate `federations`; v1.19+ ignore the key entirely. */
  readonly translatesFederations: boolean;
  /** The CoreDNS ConfigMap manifest kubeadm rendered, with its `{{ .Name }}` placeholders. */
  readonly manifestTemplate: string;
  readonly yamlRelease: YamlV2Release;
  /** Prefix of the error kubeadm returned when the rendered manifest did not decode. */
  readonly decodeErrorPrefix: string;
}

/** What changed in the root server block of the template from one profile to the next. */
interface RootBlockFeatures {
  readonly forwarder: 'proxy' | 'forward';
  readonly reload: boolean;
  readonly loopAndLoadbalance: boolean;
  readonly kubernetesUpstream: boolean;
  readonly kubernetesTtl: boolean;
  readonly ready: boolean;
  readonly healthLameduck: boolean;
  readonly federationPlaceholder: boolean;
  readonly forwardMaxConcurrent: boolean;
}

/**
 * kubeadm's `CoreDNSConfigMap` constant. The Go raw string starts with a line break, which is why
 * yaml.v2's line numbers count one more line than the visible text.
 */
function manifestTemplate(features: RootBlockFeatures): string {
  const lines = [
    '',
    'apiVersion: v1',
    'kind: ConfigMap',
    'metadata:',
    '  name: coredns',
    '  namespace: kube-system',
    'data:',
    '  Corefile: |',
    '    .:53 {',
    '        errors',
    ...(features.healthLameduck ? ['        health {', '           lameduck 5s', '        }'] : ['        health']),
    ...(features.ready ? ['        ready'] : []),
    '        kubernetes {{ .DNSDomain }} in-addr.arpa ip6.arpa {',
    '           pods insecure',
    ...(features.kubernetesUpstream ? ['           upstream'] : []),
    '           fallthrough in-addr.arpa ip6.arpa',
    ...(features.kubernetesTtl ? ['           ttl 30'] : []),
    features.federationPlaceholder ? '        }{{ .Federation }}' : '        }',
    '        prometheus :9153',
    ...(features.forwardMaxConcurrent
      ? [`        ${features.forwarder} . {{ .UpstreamNameserver }} {`, '           max_concurrent 1000', '        }']
      : [`        ${features.forwarder} . {{ .UpstreamNameserver }}`]),
    '        cache 30',
    ...(features.loopAndLoadbalance ? ['        loop'] : []),
    ...(features.reload ? ['        reload'] : []),
    ...(features.loopAndLoadbalance ? ['        loadbalance'] : []),
    '    }{{ .StubDomain }}',
    '',
  ];
  return lines.join('\n');
}

const V1_10_ROOT: RootBlockFeatures = {
  forwarder: 'proxy',
  reload: false,
  loopAndLoadbalance: false,
  kubernetesUpstream: true,
  kubernetesTtl: false,
  ready: false,
  healthLameduck: false,
  federationPlaceholder: true,
  forwardMaxConcurrent: false,
};
// Each release's root block, written as the change from the one before (§7, §9).
const V1_11_ROOT = { ...V1_10_ROOT, reload: true } as const;
const V1_12_ROOT = { ...V1_11_ROOT, loopAndLoadbalance: true } as const;
const V1_14_ROOT = { ...V1_12_ROOT, forwarder: 'forward' } as const;
const V1_15_ROOT = { ...V1_14_ROOT, kubernetesTtl: true } as const;
const V1_16_ROOT = { ...V1_15_ROOT, kubernetesUpstream: false, ready: true } as const;
const V1_17_ROOT = { ...V1_16_ROOT, healthLameduck: true } as const;
const V1_19_ROOT = { ...V1_17_ROOT, federationPlaceholder: false, forwardMaxConcurrent: true } as const;

function profile(
  id: KubeadmProfileId,
  kubernetesMinors: readonly number[],
  root: RootBlockFeatures,
  behaviour: Pick<KubeadmProfile, 'stubLoop' | 'nameserverCheck' | 'yamlRelease' | 'decodeErrorPrefix'>,
): KubeadmProfile {
  const emptyStubsStayEmpty = behaviour.nameserverCheck !== undefined;
  return {
    id,
    kubernetesMinors,
    forwarder: root.forwarder,
    emptyStubsStayEmpty,
    translatesFederations: root.federationPlaceholder,
    manifestTemplate: manifestTemplate(root),
    ...behaviour,
  };
}

/** v1.10–v1.12 wrote the decode error with `fmt.Errorf("… %v")`, without a colon. */
const PREFIX_V1_10 = 'unable to decode CoreDNS configmap ';
/** v1.13–v1.14 wrapped it with github.com/pkg/errors. */
const PREFIX_V1_13 = 'unable to decode CoreDNS configmap: ';
const PREFIX_V1_15 = 'unable to decode CoreDNS ConfigMap: ';

const EARLY = { stubLoop: false, nameserverCheck: undefined, yamlRelease: 'yaml.v2-2017', decodeErrorPrefix: PREFIX_V1_10 } as const;
const CHECKED = { stubLoop: true, nameserverCheck: 'atoi', yamlRelease: 'yaml.v2.2', decodeErrorPrefix: PREFIX_V1_15 } as const;

export const KUBEADM_PROFILES: Readonly<Record<KubeadmProfileId, KubeadmProfile>> = {
  'v1.10': profile('v1.10', [10], V1_10_ROOT, EARLY),
  'v1.11': profile('v1.11', [11], V1_11_ROOT, EARLY),
  'v1.12': profile('v1.12', [12, 13], V1_12_ROOT, { ...EARLY, stubLoop: true }),
  'v1.14': profile('v1.14', [14], V1_14_ROOT, { ...CHECKED, nameserverCheck: undefined, decodeErrorPrefix: PREFIX_V1_13 }),
  'v1.15': profile('v1.15', [15], V1_15_ROOT, CHECKED),
  'v1.16': profile('v1.16', [16], V1_16_ROOT, CHECKED),
  'v1.17': profile('v1.17', [17, 18], V1_17_ROOT, CHECKED),
  'v1.19': profile('v1.19', [19, 20], V1_19_ROOT, { ...CHECKED, nameserverCheck: 'uint16', yamlRelease: 'yaml.v2.2.8' }),
};
