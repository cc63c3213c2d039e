import type { Severity } from './diagnostic.js';

/**
 * Every diagnostic code the package can emit, with its standard severity and hint. Codes are a
 * stable, public contract (docs/diagnostics.md lists each with an example): never rename or reuse
 * one; retire it instead.
 */
interface CodeEntry {
  readonly severity: Severity;
  /** What the code means, for docs and tooling. */
  readonly summary: string;
  readonly hint: string;
}

function entry(severity: Severity, summary: string, hint: string): CodeEntry {
  return { severity, summary, hint };
}

export const DIAGNOSTIC_CODES = {
  // Reading the kube-dns ConfigMap (what kube-dns itself would have made of it).
  'json-syntax': entry('error', 'A stubDomains or upstreamNameservers value is not valid JSON.', 'Fix the JSON text; kube-dns ignored the whole ConfigMap because of it.'),
  'json-type': entry('error', 'A value is valid JSON of the wrong shape.', 'stubDomains is an object of string arrays, upstreamNameservers an array of strings.'),
  'federations-format': entry('error', 'federations is not a comma-separated list of name=domain pairs.', 'Write federations as `name=domain,other=domain2`, the format kube-dns reads.'),
  'federations-json': entry(
    'warning',
    'federations is a JSON object: kubeadm read it that way, kube-dns rejected it.',
    'kube-dns ignored this ConfigMap; it was read as JSON the way kubeadm did. Rewrite it as name=domain pairs.',
  ),
  'unrelated-key': entry('info', 'A data key that kube-dns does not read.', 'Only stubDomains, upstreamNameservers and federations are translated.'),
  'kube-dns-invalid-domain': entry('error', 'A stub domain is not a DNS-1123 subdomain, so kube-dns rejected the ConfigMap.', 'Use a lower-case domain without a trailing dot; non-ASCII names must be punycode (xn--…).'),
  'kube-dns-invalid-nameserver': entry('error', 'A stub domain nameserver kube-dns would not accept.', 'Use an IP, IP:port, [IPv6]:port or a hostname without a port.'),
  'kube-dns-invalid-upstream': entry('error', 'An upstream nameserver kube-dns would not accept.', 'Use an IP address, optionally with a port (1-65535); kube-dns allows no hostnames here.'),
  'kube-dns-too-many-upstreams': entry('error', 'More than three upstreamNameservers.', 'kube-dns accepts at most three upstream nameservers.'),
  'kube-dns-invalid-federation': entry('error', 'A federation name or domain kube-dns would not accept.', 'Names are DNS-1123 labels, domains DNS-1123 subdomains.'),
  'kube-dns-would-ignore': entry(
    'error',
    'kube-dns validates all keys together and ignored this ConfigMap: it ran with its defaults (or kept the previous configuration).',
    'Translating it would change DNS behaviour; fix the errors listed, or pass --force to translate what is written.',
  ),
  'kube-dns-version-unsupported-value': entry(
    'error',
    'A value the chosen kube-dns version did not support yet (ports, IPv6 or hostnames).',
    'Check which kube-dns version the cluster ran (--kube-dns-version); newer versions accept more.',
  ),
} as const satisfies Record<string, CodeEntry>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;
