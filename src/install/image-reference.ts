/**
 * Container image references, as a container runtime reads them: `[REGISTRY[:PORT]/]PATH[:TAG][@DIGEST]`.
 * The install writes the image it is given into a Deployment (and the cut-over plan into its
 * commands), so a value the runtime could never pull — a space, a `$(…)`, a quote, an empty tag —
 * is refused where it is given rather than found as a pod stuck in `InvalidImageName`.
 *
 * The grammar, part by part:
 * - the registry (first part, when followed by `/`): host names of letters, digits and inner
 *   hyphens separated by dots, or an IPv6 address in brackets, with an optional `:PORT`;
 * - each path part: lower-case letters and digits, runs of them joined by one `.`, one or two `_`,
 *   or any number of `-`; the registry and path together at most 255 characters;
 * - the tag: a letter, digit or `_`, then up to 127 of letters, digits, `_`, `.` and `-`;
 * - the digest: `ALGORITHM:HEX`, the algorithm letters and digits (starting with a letter) joined by
 *   `+`, `.`, `_` or `-`, the hex at least 32 digits (`sha256`: 64 lower-case, `sha512`: 128).
 *
 * Pure: no Node APIs.
 */
import { printable } from '../util/printable-text.js';
import { CoreDnsInstallInputError } from './install-input-error.js';

const DOMAIN_PART = /^(?:[A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9])(?:\.(?:[A-Za-z0-9]|[A-Za-z0-9][A-Za-z0-9-]*[A-Za-z0-9]))*(?::[0-9]+)?$/;
const IPV6_DOMAIN = /^\[[0-9A-Fa-f:.]+\](?::[0-9]+)?$/;
const PATH_PART = /^[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*$/;
const TAG = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;
const DIGEST = /^[A-Za-z][A-Za-z0-9]*(?:[+._-][A-Za-z][A-Za-z0-9]*)*:[0-9A-Fa-f]{32,}$/;
const DIGEST_HEX: Readonly<Record<string, RegExp>> = { sha256: /^[0-9a-f]{64}$/, sha512: /^[0-9a-f]{128}$/ };
const MAX_NAME_LENGTH = 255;

/**
 * Why `reference` is not an image reference a runtime pulls, in words naming the part that is
 * wrong; undefined when it is one.
 */
export function imageReferenceProblem(reference: string): string | undefined {
  if (reference === '') return 'it is empty';
  const at = reference.indexOf('@');
  const named = at < 0 ? reference : reference.slice(0, at);
  const digest = at < 0 ? undefined : reference.slice(at + 1);
  if (digest !== undefined) {
    if (!DIGEST.test(digest)) return `the digest '${digest}' is not ALGORITHM:HEX (sha256:, then 64 hex digits)`;
    const [algorithm = '', hex = ''] = digest.split(':');
    const expected = DIGEST_HEX[algorithm];
    if (expected !== undefined && !expected.test(hex)) return `the ${algorithm} digest must be ${algorithm === 'sha256' ? 64 : 128} lower-case hex digits, not ${hex.length === 0 ? 'none' : `'${hex}'`}`;
  }
  const slash = named.lastIndexOf('/');
  const colon = named.lastIndexOf(':');
  const tag = colon > slash ? named.slice(colon + 1) : undefined;
  const name = tag === undefined ? named : named.slice(0, colon);
  if (tag !== undefined && !TAG.test(tag)) {
    return tag === '' ? "the tag after ':' is empty" : `the tag '${tag}' is not a tag (a letter, digit or '_', then at most 127 letters, digits, '_', '.' or '-')`;
  }
  if (name === '') return 'it names no image (the part before the tag or digest is empty)';
  if (name.length > MAX_NAME_LENGTH) return `the name is ${name.length} characters long, more than ${MAX_NAME_LENGTH}`;
  const parts = name.split('/');
  const [first = ''] = parts;
  const registry = parts.length > 1 && (DOMAIN_PART.test(first) || IPV6_DOMAIN.test(first));
  for (const [index, part] of parts.entries()) {
    if (index === 0 && registry) continue;
    if (!PATH_PART.test(part)) {
      return part === ''
        ? `the name '${name}' has an empty part between '/'`
        : `'${part}' is not a ${index === 0 && parts.length > 1 ? 'registry host or ' : ''}path part of an image name (lower-case letters and digits, joined by '.', '_', '__' or '-')`;
    }
  }
  return undefined;
}

/**
 * Throws {@link CoreDnsInstallInputError} `invalid-field` when `image` is not an image reference a
 * container runtime pulls: the install writes it into the Deployment and the cut-over plan into
 * its commands.
 */
export function checkImageReference(image: string): void {
  const problem = imageReferenceProblem(image);
  if (problem !== undefined) throw new CoreDnsInstallInputError('invalid-field', `'${printable(image)}' is not an image reference ([REGISTRY/]NAME[:TAG][@DIGEST]): ${printable(problem)}`);
}
