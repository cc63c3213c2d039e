import { checkArgument } from '../errors/arguments.js';
import { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';
import { KUBEADM_PROFILE_IDS, KUBEADM_PROFILES } from './profiles.js';
import type { KubeadmProfile, KubeadmProfileId } from './profiles.js';

/** Why a version has no kubeadm profile: not a Kubernetes version at all, or one kubeadm never translated kube-dns in. */
export type UnsupportedKubernetesVersionCode = 'syntax' | 'out-of-range';

/** A Kubernetes version kubeadm never translated kube-dns in, or text that is not a version. */
export class UnsupportedKubernetesVersionError extends KubeDnsToCoreDnsError {
  override readonly name = 'UnsupportedKubernetesVersionError';
  readonly category = 'input';
  declare readonly code: UnsupportedKubernetesVersionCode;
  readonly version: string;

  constructor(code: UnsupportedKubernetesVersionCode, version: string, detail: string) {
    super(code, `unsupported kubeadm version '${version}': ${detail}`);
    this.version = version;
  }
}

const VERSION = /^v?1\.(\d{1,3})(?:\.(\d{1,4}))?(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;
const FIRST_MINOR = 10;
const LAST_MINOR = 20;
const SUPPORTED = 'kubeadm translated kube-dns only in Kubernetes 1.10 to 1.20 (1.21 removed it)';

/**
 * Maps a Kubernetes version (`1.13`, `v1.18.6`, `1.20.0-rc.1`) or a profile name (`v1.15`) to
 * the kubeadm behaviour profile of that release.
 *
 * Two pre-releases are special (docs/reference/kubeadm-translation.md §7): the translation
 * arrived in v1.10.0-beta.2, and v1.12.0-beta.0 still carried the v1.11 code.
 */
export function kubeadmProfileFor(version: string): KubeadmProfile {
  checkArgument('kubeadmProfileFor', 'version', version, 'string');
  const trimmed = version.trim();
  if ((KUBEADM_PROFILE_IDS as readonly string[]).includes(trimmed)) return KUBEADM_PROFILES[trimmed as KubeadmProfileId];
  const match = VERSION.exec(trimmed);
  if (match === null) throw new UnsupportedKubernetesVersionError('syntax', version, `expected a Kubernetes version such as 1.17 or v1.18.6; ${SUPPORTED}`);
  const minor = Number(match[1]);
  const patch = match[2] === undefined ? undefined : Number(match[2]);
  const prerelease = match[3];
  if (minor < FIRST_MINOR || minor > LAST_MINOR) throw new UnsupportedKubernetesVersionError('out-of-range', version, SUPPORTED);
  if (minor === 10 && patch === 0 && prerelease !== undefined && isBefore(prerelease, 'beta', 2)) {
    throw new UnsupportedKubernetesVersionError('out-of-range', version, 'the translation first shipped in v1.10.0-beta.2');
  }
  if (minor === 12 && patch === 0 && prerelease !== undefined && isBefore(prerelease, 'beta', 1)) {
    return KUBEADM_PROFILES['v1.11'];
  }
  const profile = Object.values(KUBEADM_PROFILES).find((candidate) => candidate.kubernetesMinors.includes(minor));
  if (profile === undefined) throw new UnsupportedKubernetesVersionError('out-of-range', version, SUPPORTED);
  return profile;
}

/** Whether a pre-release tag (`alpha.3`, `beta.1`, `rc.0`) comes before `<stage>.<number>`. */
function isBefore(prerelease: string, stage: 'alpha' | 'beta' | 'rc', number: number): boolean {
  const order = ['alpha', 'beta', 'rc'];
  const [name = '', count = '0'] = prerelease.split('.');
  const nameRank = order.indexOf(name);
  const stageRank = order.indexOf(stage);
  if (nameRank < 0) return false;
  return nameRank < stageRank || (nameRank === stageRank && Number(count) < number);
}
