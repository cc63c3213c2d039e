/**
 * kubeadm's decode step for the CoreDNS ConfigMap manifest: an emulation of gopkg.in/yaml.v2 as
 * kubeadm v1.10–v1.20 vendored it, plus the YAML → JSON → `v1.ConfigMap` conversion after it.
 *
 * Stages, one module each:
 *
 * * `reader.ts` — validates characters lazily, in yaml.v2's 512-byte chunks;
 * * `scanner.ts` — tokens, simple keys, block scalars, with libyaml's laziness and error marks;
 * * `parser.ts` — events (libyaml's state machine) and the parser's errors;
 * * `compose.ts` — the node tree of the first document and its decoding into Go values
 *   (`resolve.ts`: implicit types and tags; `go-values.ts`: the values and Go's printing of them);
 * * `yaml-to-json.ts` — ghodss/yaml and encoding/json; `configmap.ts` — the ConfigMap and its
 *   `data.Corefile`;
 * * `dialect.ts` — what differs between the vendored copies; `errors.ts` — errors and
 *   `parser.fail()`'s `line N:` numbering.
 */
import { unmarshalFirstDocument } from './compose.js';
import { corefileFromDocument } from './configmap.js';
import { dialectForRelease } from './dialect.js';
import type { YamlV2Dialect } from './dialect.js';
import type { YamlV2Release } from '../profiles.js';
import { GoPanicError, YamlDecodeError, YamlSyntaxError, formatSyntaxError } from './errors.js';
import type { GoValue } from './go-values.js';
import { JsonConversionError, encodeJson, yamlValueToJson } from './yaml-to-json.js';

export type YamlV2DecodeResult = { readonly ok: true; readonly corefile: string } | { readonly ok: false; readonly error: string };

/**
 * Decodes kubeadm's rendered CoreDNS ConfigMap manifest the way kubeadm did — gopkg.in/yaml.v2
 * (reader, scanner, parser, node builder, decoder into `interface{}`), then the YAML → JSON →
 * `v1.ConfigMap` step — and returns `data.Corefile`, or the error text.
 *
 * A yaml.v2 error is returned exactly as yaml.v2 words it (`yaml: line 21: could not find
 * expected ':'`, `yaml: control characters are not allowed`, …); the caller adds kubeadm's prefix.
 * Errors after a successful YAML parse (the structure was changed by pasted text) are described in
 * {@link corefileFromDocument}: ghodss/yaml's and encoding/json's messages are kept, the
 * apimachinery checks use this library's own wording. A Go panic inside yaml.v2 — which would crash
 * kubeadm rather than return an error — is reported as `yaml.v2 panic: <value>`.
 */
export function decodeYamlV2Manifest(manifest: string, release: YamlV2Release): YamlV2DecodeResult {
  return decodeYamlV2ManifestAs(manifest, dialectForRelease(release));
}

/** {@link decodeYamlV2Manifest} for an explicit {@link YamlV2Dialect} (e.g. v2.2.8). */
export function decodeYamlV2ManifestAs(manifest: string, dialect: YamlV2Dialect): YamlV2DecodeResult {
  const document = unmarshal(manifest, dialect);
  if ('error' in document) return { ok: false, error: document.error };
  return corefileFromDocument(document.value);
}

/**
 * `yaml.YAMLToJSON(manifest)` (ghodss/yaml over gopkg.in/yaml.v2): the JSON text apimachinery
 * decodes the ConfigMap from, or the error of yaml.v2 or of the conversion. `null` for an empty
 * stream.
 */
export function yamlV2ToJson(manifest: string, dialect: YamlV2Dialect): { readonly ok: true; readonly json: string } | { readonly ok: false; readonly error: string } {
  const document = unmarshal(manifest, dialect);
  if ('error' in document) return { ok: false, error: document.error };
  if (document.value === undefined) return { ok: true, json: 'null' };
  try {
    return { ok: true, json: encodeJson(yamlValueToJson(document.value)) };
  } catch (error) {
    if (error instanceof JsonConversionError) return { ok: false, error: error.message };
    throw error;
  }
}

/** yaml.v2's `Unmarshal` into `interface{}`, with its error text. */
function unmarshal(manifest: string, dialect: YamlV2Dialect): { readonly value: GoValue | undefined } | { readonly error: string } {
  try {
    return { value: unmarshalFirstDocument(manifest, dialect)?.value };
  } catch (error) {
    if (error instanceof YamlSyntaxError) return { error: formatSyntaxError(error, dialect) };
    if (error instanceof YamlDecodeError) return { error: `yaml: ${error.message}` };
    if (error instanceof GoPanicError) return { error: `yaml.v2 panic: ${error.message}` };
    throw error;
  }
}
