/**
 * The three kube-dns ConfigMap values decoded the way kubeadm decoded them, with Go's
 * `encoding/json` (go-json.ts): `stubDomains` into `map[string][]string`, `upstreamNameservers`
 * into `[]string` and `federations` into `map[string]string`. Maps come back as `Map`s in
 * first-appearance key order (the last duplicate's value wins), Go's nil as `null`.
 *
 * @module
 */
import { checkArgument } from '../errors/arguments.js';
import { decodeGoJson, goMap, goSlice, goString } from './go-json.js';
import type { GoJsonResult } from './go-json.js';

/** kube-dns `stubDomains`: `map[string][]string`. */
export const STUB_DOMAINS_TYPE = goMap(goSlice(goString));
/** kube-dns `upstreamNameservers`: `[]string`. */
export const UPSTREAM_NAMESERVERS_TYPE = goSlice(goString);
/** kube-dns `federations`: `map[string]string`. */
export const FEDERATIONS_TYPE = goMap(goString);

/**
 * Decodes a kube-dns `stubDomains` value as kubeadm did (`map[string][]string`). `null` gives
 * `null`; a `null` list gives a `null` entry; a `null` list element gives `""`.
 */
export function decodeStubDomains(text: string): GoJsonResult<Map<string, string[] | null> | null> {
  checkArgument('decodeStubDomains', 'text', text, 'string');
  return decodeGoJson(text, STUB_DOMAINS_TYPE);
}

/** Decodes a kube-dns `upstreamNameservers` value as kubeadm did (`[]string`). */
export function decodeUpstreamNameservers(text: string): GoJsonResult<string[] | null> {
  checkArgument('decodeUpstreamNameservers', 'text', text, 'string');
  return decodeGoJson(text, UPSTREAM_NAMESERVERS_TYPE);
}

/** Decodes a kube-dns `federations` value as kubeadm did (`map[string]string`). */
export function decodeFederations(text: string): GoJsonResult<Map<string, string> | null> {
  checkArgument('decodeFederations', 'text', text, 'string');
  return decodeGoJson(text, FEDERATIONS_TYPE);
}
