import type { YamlV2Release } from '../profiles.js';

export type YamlV2DecodeOutcome = { readonly ok: true; readonly corefile: string } | { readonly ok: false; readonly error: string };

/**
 * PLACEHOLDER (to be replaced by a gopkg.in/yaml.v2 emulation): reads the literal block of the
 * manifest by indentation only.
 */
export function decodeYamlV2Manifest(manifest: string, release: YamlV2Release): YamlV2DecodeOutcome {
  void release;
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/.test(manifest)) return { ok: false, error: 'yaml: control characters are not allowed' };
  const lines = manifest.split(/\r\n|\r|\n|\u0085|\u2028|\u2029/);
  const start = lines.indexOf('  Corefile: |') + 1;
  const content: string[] = [];
  for (let index = start; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (line.startsWith('    ')) content.push(line.slice(4));
    else if (line.trim() === '') content.push('');
    else return { ok: false, error: `yaml: line ${index}: could not find expected ':'` };
  }
  while (content.length > 0 && content[content.length - 1] === '') content.pop();
  return { ok: true, corefile: `${content.join('\n')}\n` };
}
