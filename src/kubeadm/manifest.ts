import type { KubeadmPieces } from './translate-pieces.js';
import type { KubeadmProfile } from './profiles.js';
import { decodeYamlV2Manifest } from './yaml-v2/decode-manifest.js';

/**
 * kubeadm's `ParseTemplate`: plain `text/template` substitution, no escaping, so every piece
 * lands in the YAML manifest exactly as the translate functions returned it.
 */
export function renderKubeadmManifest(profile: KubeadmProfile, pieces: KubeadmPieces, dnsDomain: string): string {
  const values: Record<string, string> = {
    DNSDomain: dnsDomain,
    UpstreamNameserver: pieces.upstreamNameservers,
    Federation: pieces.federations ?? '',
    StubDomain: pieces.stubDomains,
  };
  return profile.manifestTemplate.replace(/\{\{ \.(\w+) \}\}/g, (placeholder, name: string) => values[name] ?? placeholder);
}

export type ManifestDecodeOutcome =
  | { readonly ok: true; readonly corefile: string }
  | { readonly ok: false; readonly error: string };

/**
 * Decodes the rendered manifest the way kubeadm did (gopkg.in/yaml.v2, then the ConfigMap's
 * `data`), returning the `Corefile` value CoreDNS would have received or kubeadm's error.
 */
export function decodeKubeadmManifest(profile: KubeadmProfile, manifest: string): ManifestDecodeOutcome {
  const decoded = decodeYamlV2Manifest(manifest, profile.yamlRelease);
  if (!decoded.ok) return { ok: false, error: `${profile.decodeErrorPrefix}${decoded.error}` };
  return { ok: true, corefile: decoded.corefile };
}
