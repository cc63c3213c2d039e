import { checkArgument } from '../errors/arguments.js';
import type { KubeadmPieces } from './translate-pieces.js';
import type { KubeadmProfile } from './profiles.js';
import { decodeYamlV2Manifest } from './yaml-v2/decode-manifest.js';

/**
 * kubeadm's `ParseTemplate`: plain `text/template` substitution, no escaping, so every piece
 * lands in the YAML manifest exactly as the translate functions returned it.
 */
export function renderKubeadmManifest(profile: KubeadmProfile, pieces: KubeadmPieces, dnsDomain: string): string {
  checkArgument('renderKubeadmManifest', 'profile', profile, 'object');
  checkArgument('renderKubeadmManifest', 'pieces', pieces, 'object');
  checkArgument('renderKubeadmManifest', 'dnsDomain', dnsDomain, 'string');
  const values: Record<string, string> = {
    DNSDomain: dnsDomain,
    UpstreamNameserver: pieces.upstreamNameservers,
    Federation: pieces.federations ?? '',
    StubDomain: pieces.stubDomains,
  };
  return profile.manifestTemplate.replace(/\{\{ \.(\w+) \}\}/g, (placeholder, name: string) => values[name] ?? placeholder);
}

export type ManifestDecodeResult =
  | { readonly ok: true; readonly corefile: string }
  | { readonly ok: false; readonly error: string };

/**
 * Decodes the rendered manifest the way kubeadm did (gopkg.in/yaml.v2, then the ConfigMap's
 * `data`), returning the `Corefile` value CoreDNS would have received or kubeadm's error.
 */
export function decodeKubeadmManifest(profile: KubeadmProfile, manifest: string): ManifestDecodeResult {
  const plain = plainLiteralBlock(manifest);
  if (plain !== undefined) return { ok: true, corefile: plain };
  const decoded = decodeYamlV2Manifest(manifest, profile.yamlRelease);
  if (!decoded.ok) return { ok: false, error: `${profile.decodeErrorPrefix}${decoded.error}` };
  return { ok: true, corefile: decoded.corefile };
}

/** Where every profile's manifest opens the literal block; nothing before it depends on input. */
const BLOCK_START = '\n  Corefile: |\n';

/**
 * What disqualifies the text after the block start: a character yaml.v2 could read as a line break
 * or refuse (anything but printable ASCII and LF), or a line that is neither empty nor indented by
 * four spaces (it could end the block).
 */
const NOT_PLAIN = /[^\x20-\x7e\n]|\n(?! {4}|\n|$)/;
const BLOCK_INDENTATION = /^ {4}/gm;

/**
 * The Corefile of a manifest in which the pasted text cannot have touched the YAML structure, read
 * without running the yaml.v2 emulation (which costs more than the translation itself for a
 * 1 MiB ConfigMap): each line loses the block's four-space indentation, blank lines at the end go,
 * and exactly one final line break stays (clip). `undefined` for anything else, which the
 * emulation then decodes. Agreement with the emulation is a law in the tests.
 */
export function plainLiteralBlock(manifest: string): string | undefined {
  const start = manifest.indexOf(BLOCK_START);
  if (start < 0 || manifest.indexOf(BLOCK_START, start + 1) >= 0) return undefined;
  const body = manifest.slice(start + BLOCK_START.length);
  if (!body.startsWith('    ') || NOT_PLAIN.test(body)) return undefined;
  // Lines of at most the indentation are blank: after dedenting they are empty.
  const dedented = body.replace(BLOCK_INDENTATION, '');
  let end = dedented.length;
  while (end > 0 && dedented.charCodeAt(end - 1) === 0x0a) end -= 1;
  return end === 0 ? undefined : `${dedented.slice(0, end)}\n`;
}
