import type { Severity } from './diagnostic.js';

/**
 * Every diagnostic code the package can emit, with its standard severity and hint. Codes are a
 * stable, public contract (docs/diagnostics.md lists each with an example): never rename or reuse
 * one; retire it instead.
 */
/** Who emits a code: reading the kube-dns ConfigMap, translating it, or linting a Corefile. */
export type DiagnosticArea = 'kube-dns' | 'translate' | 'lint';

interface CodeEntry {
  readonly area: DiagnosticArea;
  readonly severity: Severity;
  /** What the code means, for docs and tooling. */
  readonly summary: string;
  readonly hint: string;
}

function kubeDns(severity: Severity, summary: string, hint: string): CodeEntry {
  return { area: 'kube-dns', severity, summary, hint };
}

function translate(severity: Severity, summary: string, hint: string): CodeEntry {
  return { area: 'translate', severity, summary, hint };
}

export const DIAGNOSTIC_CODES = {
  // Reading the kube-dns ConfigMap (what kube-dns itself would have made of it).
  'json-syntax': kubeDns('error', 'A stubDomains or upstreamNameservers value is not valid JSON.', 'Fix the JSON text; kube-dns ignored the whole ConfigMap because of it.'),
  'json-type': kubeDns('error', 'A value is valid JSON of the wrong shape.', 'stubDomains is an object of string arrays, upstreamNameservers an array of strings.'),
  'federations-format': kubeDns('error', 'federations is not a comma-separated list of name=domain pairs.', 'Write federations as `name=domain,other=domain2`, the format kube-dns reads.'),
  'federations-json': kubeDns(
    'warning',
    'federations is a JSON object: kubeadm read it that way, kube-dns rejected it.',
    'kube-dns ignored this ConfigMap; it was read as JSON the way kubeadm did. Rewrite it as name=domain pairs.',
  ),
  'unrelated-key': kubeDns('info', 'A data key that kube-dns does not read.', 'Only stubDomains, upstreamNameservers and federations are translated.'),
  'kube-dns-invalid-domain': kubeDns('error', 'A stub domain is not a DNS-1123 subdomain, so kube-dns rejected the ConfigMap.', 'Use a lower-case domain without a trailing dot; non-ASCII names must be punycode (xn--…).'),
  'kube-dns-invalid-nameserver': kubeDns('error', 'A stub domain nameserver kube-dns would not accept.', 'Use an IP, IP:port, [IPv6]:port or a hostname without a port.'),
  'kube-dns-invalid-upstream': kubeDns('error', 'An upstream nameserver kube-dns would not accept.', 'Use an IP address, optionally with a port (1-65535); kube-dns allows no hostnames here.'),
  'kube-dns-too-many-upstreams': kubeDns('error', 'More than three upstreamNameservers.', 'kube-dns accepts at most three upstream nameservers.'),
  'kube-dns-invalid-federation': kubeDns('error', 'A federation name or domain kube-dns would not accept.', 'Names are DNS-1123 labels, domains DNS-1123 subdomains.'),
  'kube-dns-would-ignore': kubeDns(
    'error',
    'kube-dns validates all keys together and ignored this ConfigMap: it ran with its defaults (or kept the previous configuration).',
    'Translating it would change DNS behaviour; fix the errors listed, or pass --force to translate what is written.',
  ),
  // Translating to CoreDNS.
  'invalid-zone': translate('error', 'A stub domain cannot become a CoreDNS zone.', 'Stub domains must be DNS names with labels of at most 63 letters, digits, hyphens or underscores.'),
  'zone-normalized': translate('info', 'A stub domain was rewritten into the form CoreDNS matches (lower case, no trailing dot, punycode).', 'Write it that way in the ConfigMap to silence this.'),
  'duplicate-zone': translate('error', 'Two stub domains are the same zone once normalised.', 'Keep one entry per domain; CoreDNS refuses to start with the same zone twice.'),
  'stub-equals-cluster-domain': translate(
    'error',
    'A stub domain equals the cluster domain.',
    'kube-dns mixed both servers for it (flaky cluster DNS); in CoreDNS the stub would capture every cluster name. Remove it or use a subdomain.',
  ),
  'stub-equals-reverse-zone': translate(
    'error',
    'A stub domain equals in-addr.arpa or ip6.arpa, which the kubernetes plugin serves.',
    'Forward a narrower reverse zone (e.g. 10.in-addr.arpa) instead.',
  ),
  'stub-under-cluster-domain': translate('warning', 'A stub domain lies inside the cluster domain.', 'Its names go to the stub, not to Kubernetes, in kube-dns and CoreDNS alike; check that this is intended.'),
  'main-block-key-added': translate(
    'info',
    'A stub domain is a parent of a zone the kubernetes plugin serves, so that zone was added as a key of the main block.',
    'Without it, the stub block would capture cluster names; kube-dns sent them to the cluster because the more specific domain wins.',
  ),
  'empty-stub-domain': translate('info', 'A stub domain has no nameservers.', 'kube-dns sent its names upstream, and so does the translation: no server block is emitted.'),
  'invalid-nameserver': translate('error', 'A nameserver is neither an IP address (with an optional port) nor a hostname.', 'Use IP, IP:port, [IPv6]:port or a hostname.'),
  'port-out-of-range': translate('error', 'A nameserver port is not 1–65535.', 'CoreDNS does not check ports when it starts; the forwarder would fail at query time. Fix the port.'),
  'ip-rewritten': translate('warning', 'An IP address was written in a form CoreDNS reads differently, and was rewritten.', 'Write the address in canonical form (e.g. 10.0.0.1, not 010.0.0.1).'),
  'loop-nameserver': translate(
    'error',
    'A nameserver is a loopback address or the cluster DNS Service IP: CoreDNS would forward to itself and its loop plugin would stop it.',
    "In the kube-dns pod 127.0.0.1 was kube-dns's own process; point at the real server's address instead.",
  ),
  'hostname-nameserver': translate(
    'warning',
    'A nameserver is a hostname; the target CoreDNS resolves it once at startup, and does not start if that fails.',
    'Prefer IP addresses; kube-dns also resolved the name only when its configuration changed.',
  ),
  'hostname-nameserver-dropped': translate(
    'warning',
    'A hostname nameserver was dropped: the target CoreDNS accepts only IP addresses (hostnames from 1.14.4).',
    'Replace the hostname by its IP addresses, or target CoreDNS 1.14.4 or later.',
  ),
  'cluster-hostname-nameserver': translate(
    'error',
    'A nameserver is a name inside the cluster domain; CoreDNS resolves forward hostnames through the node, which cannot see cluster names.',
    "Use the Service's ClusterIP instead.",
  ),
  'stub-without-nameservers': translate(
    'error',
    'Every nameserver of a stub domain was dropped; its names would silently go upstream instead.',
    'Give the stub domain at least one IP address nameserver.',
  ),
  'no-upstream-left': translate('error', 'Every upstream nameserver was dropped.', 'Give upstreamNameservers at least one IP address.'),
  'too-many-nameservers': translate('error', 'More than 15 nameservers for one zone, the most CoreDNS forwards to.', 'Keep at most 15.'),
  'upstream-resolv-conf': translate(
    'info',
    "No upstreamNameservers: names outside the cluster and the stub domains go to the node's /etc/resolv.conf, as with kube-dns.",
    'If the node uses a local resolver (127.0.0.53), CoreDNS loop detection stops it: set upstreamNameservers or fix the node.',
  ),
  'unrepresentable-value': translate('error', 'A value cannot be written as a Corefile token (CoreDNS would read something else).', 'A lone `{` or `}`, or a backslash before a quote, has no Corefile spelling; change the value.'),
  'federation-semantics': translate(
    'warning',
    "CoreDNS's federation plugin answers differently from kube-dns.",
    "It CNAMEs to the remote name whenever the local service does not exist, uses the labels of CoreDNS's own node, and needs RBAC to get nodes.",
  ),
  'federation-unsupported': translate(
    'error',
    'The target CoreDNS has no federation plugin (removed in 1.7.0).',
    'Pass --drop-federations to translate without them (federated names then stop resolving), or target CoreDNS 1.6.x.',
  ),
  'federations-dropped': translate(
    'warning',
    'Federations were dropped: names `<service>.<namespace>.<federation>.svc.<cluster domain>` no longer resolve.',
    'Clients must use the federated services’ DNS names directly.',
  ),
  'merge-conflict': translate(
    'error',
    'An existing block serves a translated zone but is not a plain stub block, so merging would rewrite it.',
    'Merge that block by hand (or remove it), then merge again.',
  ),
  'merge-main-block-added': translate('info', 'The existing Corefile had no block for the root zone on port 53; the translated main block was added.', 'Check that the new main block fits the rest of the file.'),
  'merge-upstream-replaced': translate('info', "The main block's forwarding line was set to the translated upstreams.", 'Its options and comments are kept.'),
  'merge-key-added': translate('info', 'A zone was added to the main block’s keys so that a parent stub domain does not capture it.', 'See main-block-key-added.'),
  'merge-block-added': translate('info', 'A translated stub block was added to the existing Corefile.', 'Nothing to do.'),
  'merge-block-updated': translate('info', "An existing stub block's forwarding line was set to the translated nameservers.", 'Its other plugins and comments are kept.'),
} as const satisfies Record<string, CodeEntry>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;
