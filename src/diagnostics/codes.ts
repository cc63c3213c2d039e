/** How much a diagnostic matters: an error stops the translation (or fails lint). */
export type Severity = 'error' | 'warning' | 'info';

/** Who emits a code: reading the kube-dns ConfigMap, translating it, or linting a Corefile. */
export type DiagnosticArea = 'kube-dns' | 'translate' | 'lint' | 'migrate' | 'platform' | 'install';

/** What the catalogue says about one code. */
export interface DiagnosticCodeEntry {
  readonly area: DiagnosticArea;
  readonly severity: Severity;
  /** What the code means, for docs and tooling. */
  readonly summary: string;
  readonly hint: string;
}

function kubeDns(severity: Severity, summary: string, hint: string): DiagnosticCodeEntry {
  return { area: 'kube-dns', severity, summary, hint };
}

function translate(severity: Severity, summary: string, hint: string): DiagnosticCodeEntry {
  return { area: 'translate', severity, summary, hint };
}

function lint(severity: Severity, summary: string, hint: string): DiagnosticCodeEntry {
  return { area: 'lint', severity, summary, hint };
}

function install(severity: Severity, summary: string, hint: string): DiagnosticCodeEntry {
  return { area: 'install', severity, summary, hint };
}

function migrate(severity: Severity, summary: string, hint: string): DiagnosticCodeEntry {
  return { area: 'migrate', severity, summary, hint };
}

function platform(severity: Severity, summary: string, hint: string): DiagnosticCodeEntry {
  return { area: 'platform', severity, summary, hint };
}

/**
 * Every diagnostic code the package can emit, with its standard severity and hint. Codes are a
 * stable, public contract (docs/diagnostics.md lists each with an example): never rename or reuse
 * one; retire it instead.
 */
export const DIAGNOSTIC_CODES = {
  // Reading the kube-dns ConfigMap (what kube-dns itself would have made of it).
  'json-syntax': kubeDns('error', 'A stubDomains or upstreamNameservers value is not valid JSON.', 'Fix the JSON text; kube-dns ignored the whole ConfigMap because of it.'),
  'json-type': kubeDns('error', 'A value is valid JSON of the wrong shape.', 'stubDomains is an object of string arrays, upstreamNameservers an array of strings.'),
  'federations-format': kubeDns('error', 'federations is not a comma-separated list of name=domain pairs.', 'Write federations as `name=domain,other=domain2`, the format kube-dns reads.'),
  'federations-json': kubeDns(
    'warning',
    'federations is a JSON object: kubeadm read it that way, kube-dns rejected it.',
    'kube-dns ignored the whole ConfigMap, so none of it was in effect; rewrite it as name=domain pairs (or pass --force to translate it as kubeadm read it).',
  ),
  'configmap-not-kube-dns': kubeDns(
    'warning',
    'The ConfigMap read is not kube-system/kube-dns, the only one kube-dns reads: another name, or another namespace.',
    'Translate the ConfigMap kube-dns ran with: `kubectl -n kube-system get configmap kube-dns -o yaml`.',
  ),
  'binary-data-key': kubeDns(
    'warning',
    'A binaryData key: not read. A kube-dns setting there is an error, since kube-dns (which mounts the ConfigMap as a volume) read it as a file.',
    'Move kube-dns settings to data: as JSON text; other binaryData keys play no part in kube-dns.',
  ),
  'unrelated-key': kubeDns('info', 'A data key that kube-dns does not read.', 'Only stubDomains, upstreamNameservers and federations are translated.'),
  'settings-in-other-key': kubeDns(
    'warning',
    'A data key whose text sets stubDomains, upstreamNameservers or federations, as when the ConfigMap was made with `kubectl create configmap --from-file=FILE`: kube-dns ignored it.',
    'Make each setting a data key of its own (`--from-file=stubDomains=stub-domains.json`, or a ConfigMap written in YAML with the keys under data:).',
  ),
  'kube-dns-invalid-domain': kubeDns('error', 'A stub domain is not a DNS-1123 subdomain, so kube-dns rejected the ConfigMap.', 'Use a lower-case domain without a trailing dot; non-ASCII names must be punycode (xn--…).'),
  'kube-dns-invalid-nameserver': kubeDns('error', 'A stub domain nameserver kube-dns would not accept.', 'Use an IP, IP:port, [IPv6]:port or a hostname without a port.'),
  'kube-dns-invalid-upstream': kubeDns('error', 'An upstream nameserver kube-dns would not accept.', 'Use an IP address, optionally with a port (1-65535); kube-dns allows no hostnames here.'),
  'kube-dns-too-many-upstreams': kubeDns('error', 'More than three upstreamNameservers.', 'kube-dns accepts at most three upstream nameservers.'),
  'long-list-not-examined': kubeDns(
    'warning',
    'A nameserver list of more than 256 entries: the first 256 were read and checked, the rest only counted and checked to be strings (kube-dns\'s rules were not applied to them).',
    'No such list can be translated: kube-dns took at most 3 upstream nameservers and CoreDNS forwards to at most 15 per zone. Shorten the list.',
  ),
  'kube-dns-invalid-federation': kubeDns('error', 'A federation name or domain kube-dns would not accept.', 'Names are DNS-1123 labels, domains DNS-1123 subdomains.'),
  'kube-dns-would-ignore': kubeDns(
    'error',
    'kube-dns validates all keys together and ignored this ConfigMap: it ran with its defaults (or kept the previous configuration).',
    'Translating it would change DNS behaviour; fix the errors listed, or pass --force to translate what is written.',
  ),
  // Reading the CoreDNS release of the translator and of lint (`--coredns`, options.coredns).
  'release-resolved': translate('info', 'How the CoreDNS release text (--coredns, options.coredns of translateKubeDns and lintCorefile) was read: a v prefix, a build suffix or an image reference.', 'Nothing to do; give the plain release (1.8.7) to silence it.'),
  'release-assumed': translate(
    'warning',
    'The CoreDNS release text was read with an assumption that may not hold: a release newer than the newest known one (the newest known is used), or an image that does not look like CoreDNS.',
    'Check the release; anything a newer release changed is not taken into account.',
  ),
  // Translating to CoreDNS.
  'translation-target-refuses': translate(
    'error',
    'The translated Corefile has something lint says the target CoreDNS refuses (a value the input carries that the release does not take, such as --dns-forward-max beyond what max_concurrent reads): no Corefile is written.',
    'Fix the input value the finding names (the flag or key it comes from), or translate for a release that takes it.',
  ),
  'invalid-zone': translate('error', 'A stub domain cannot become a CoreDNS zone.', 'Stub domains must be DNS names with labels of at most 63 letters, digits, hyphens or underscores.'),
  'zone-normalized': translate('info', 'A stub domain was rewritten into the form CoreDNS matches (lower case, no trailing dot, punycode).', 'Write it that way in the ConfigMap to silence this.'),
  'duplicate-zone': translate('error', 'Two stub domains are the same zone once normalized.', 'Keep one entry per domain; CoreDNS refuses to start with the same zone twice.'),
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
    'A stub domain, or a zone the Deployment\'s dnsmasq answered itself (`--local=/zone/`, `--address=/zone/`), is a parent of a zone the kubernetes plugin serves, so that zone was added as a key of the main block.',
    'Without it, the stub or template block would capture cluster names; kube-dns sent them to the cluster because the more specific domain wins.',
  ),
  'main-block-split': translate(
    'info',
    'The zones added to the main block were given a block of their own, a copy of the main block without health: the target CoreDNS (1.1.0–1.6.5) sets plugins up once per key, and a second health listener on the same address stops it.',
    'Nothing to do: both blocks answer alike. Targeting CoreDNS 1.6.6 or later keeps one main block.',
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
  'reverse-lookups-not-forwarded': translate(
    'warning',
    'Reverse lookups of addresses outside the cluster end in NXDOMAIN: the target CoreDNS cannot let the kubernetes plugin fall through for reverse zones (1.0.3+ can).',
    'kube-dns forwarded them upstream; target CoreDNS 1.0.3 or later to keep that.',
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
  'merge-block-updated': translate(
    'info',
    "An existing block was updated: a stub block's forwarding line set to the same servers written another way (proxy → forward, another order), a copy of the main block given its upstream, or a cache made to cache as kube-dns did.",
    'Its other plugins and comments are kept.',
  ),
  'merge-stub-server-replaced': translate(
    'warning',
    "An existing stub block forwarded to other servers than kube-dns did: its forwarding line was set to kube-dns's nameservers, so the running CoreDNS and the merged Corefile send that zone to different servers.",
    'Check which servers are right before applying: the running CoreDNS disagreed with kube-dns for this zone.',
  ),
  'merge-target-refuses': translate(
    'error',
    'The merged Corefile fails lint for the target CoreDNS (a plugin, option or line it refuses, typically kept from an existing Corefile written for another release): nothing is written.',
    'Migrate the existing Corefile for the target release first (the migrate command: `migrate --from RUNNING --to TARGET FILE`), or fix the line lint names, then merge again.',
  ),
  // node-cache (NodeLocal DNSCache) reading the kube-dns ConfigMap (src/nodelocal; facts in docs/node-local-dns.md).
  'node-cache-rejects-update': translate(
    'error',
    'node-cache (NodeLocal DNSCache) of the given release refuses this ConfigMap: it writes nothing, logs an error, and every node keeps the Corefile it had.',
    'Use IP addresses as nameservers (node-cache 1.22.10+ checks them the way CoreDNS\'s forward plugin reads them); the message names the values.',
  ),
  'node-cache-bind-commas': translate(
    'error',
    'node-cache writes the -localip flag into a bind line as given, commas and all (stub blocks before 1.15.7, the template before 1.15.13): CoreDNS reads it as one address that is not an IP, and does not load the Corefile. The profile prints the Corefile all the same (exit status 0): it is what node-cache writes; the pre-flight fails on it.',
    'Run node-cache 1.15.7 or later (1.15.13 or later when the template has __PILLAR__LOCAL__DNS__), or give -localip a single IP.',
  ),
  'node-cache-variable-left': translate(
    'error',
    'A __PILLAR__…__ variable of the node-local-dns template is left in the Corefile node-cache writes: this release does not fill it in, and CoreDNS reads it as an address or a zone and does not load the Corefile. The profile prints the Corefile all the same (exit status 0); the pre-flight fails on it.',
    'Replace it in the node-local-dns ConfigMap (the install instructions fill __PILLAR__DNS__SERVER__ with the kube-dns ClusterIP), or run node-cache 1.15.13 or later, which removes __PILLAR__DNS__SERVER__.',
  ),
  // Linting a Corefile against a CoreDNS release (src/lint; facts in docs/lint.md).
  'plugin-removed': lint('error', 'A plugin the target CoreDNS no longer has: it stops with "Unknown directive".', 'Replace it (proxy → forward) or remove it; see the message for what replaced it.'),
  'plugin-not-yet-added': lint('error', 'A plugin the target CoreDNS does not have yet: it stops with "Unknown directive".', 'Remove it, or target the release named in the message or a later one.'),
  'plugin-deprecated': lint('info', 'A plugin that still works in the target CoreDNS but is deprecated and removed later.', 'Move to its replacement before upgrading past the release named in the message.'),
  'unknown-directive': lint(
    'error',
    'A directive no CoreDNS release has in its default build (a typo, or an external plugin), or one the custom build linted against does not list: CoreDNS stops with "Unknown directive".',
    'Fix the name (the message suggests the closest plugins); for an external plugin, lint against your build\'s plugin list (`--plugin-cfg FILE` or `--plugins LIST`).',
  ),
  'plugin-without-facts': lint(
    'info',
    'A plugin of the custom build linted against that the default build of the target CoreDNS lacks: this linter has no facts about it, so its arguments and options were not checked.',
    'Nothing to do if your build really has it; check its options against that plugin\'s own documentation.',
  ),
  'findings-not-listed': lint(
    'info',
    'One code was found more than 1,000 times: the rest are counted, not listed. Its severity is the worst among those not listed. `lint` counts its findings so; every command\'s text output also lists at most 1,000 diagnostics of one code (JSON output lists them all).',
    'Fix the listed findings (they are usually one mistake repeated), then lint again; `-o json` lists every diagnostic.',
  ),
  'version-caveat': lint('info', 'A plugin or option works in the target CoreDNS with a caveat worth knowing.', 'Read the caveat; nothing to change if it does not affect you.'),
  'option-removed': lint('error', 'A plugin option the target CoreDNS no longer accepts: it stops with a parse error.', 'Remove the option (the message says what replaced it, if anything).'),
  'option-not-yet-added': lint('error', 'A plugin option the target CoreDNS does not accept yet: it stops with a parse error.', 'Remove the option, or target the release named in the message or a later one.'),
  'option-deprecated': lint('info', 'A plugin option that is deprecated or has no effect in the target CoreDNS.', 'Remove it before upgrading past the release named in the message.'),
  // Plugin arguments and options as the target release's setup reads them (src/coredns/plugin-syntax.ts).
  'option-unknown': lint('error', 'A line in a plugin block that the target CoreDNS does not know as an option of that plugin (or a block on a plugin that reads none): it stops with "unknown property" or a parse error.', 'Check the spelling against the plugin\'s options for that release (the message suggests close names), or remove the line.'),
  'argument-count': lint('error', 'A plugin line or option with more or fewer arguments than the target CoreDNS accepts: it stops with "Wrong argument count" or reads the extra word as an option.', 'Give the number of arguments the message names.'),
  'argument-invalid': lint('error', 'An argument the target CoreDNS refuses: not a duration, not an integer, out of the accepted range, or not one of the accepted words.', 'Use a value of the kind and range the message names.'),
  'plugin-repeated': lint('error', 'A plugin twice in one server block where the target CoreDNS allows it once: it stops with "this plugin can only be used once per Server Block".', 'Keep one line of the plugin per block (merge the two), or move one into a block of its own.'),
  'option-repeated': lint('error', 'An option given twice in one plugin block where the target CoreDNS refuses it.', 'Keep one line of the option.'),
  'requirement-missing': lint('error', 'A plugin or option that needs another plugin or option of the same block, which is missing: the target CoreDNS does not start.', 'Add what the message names, or remove the line.'),
  'option-ignored': lint('warning', 'A plugin block line or option the target CoreDNS reads past without effect: it starts, but the line does nothing.', 'Remove the line, or target a release that reads it.'),
  'upstream-address-required': lint('error', "The kubernetes plugin's `upstream` without an address: CoreDNS before 1.0.6 stops with an argument error.", 'Give it the addresses to resolve ExternalName targets with (e.g. `upstream /etc/resolv.conf`), or target CoreDNS 1.0.6 or later.'),
  'upstream-addresses-ignored': lint('warning', "The kubernetes plugin's `upstream` lists addresses the target CoreDNS ignores (1.4.0–1.6.9): ExternalName targets are resolved through CoreDNS itself.", 'Remove the addresses (and, from 1.5.2 on, the option): they have no effect.'),
  'forward-without-destination': lint('error', 'A forward or proxy line without a destination: CoreDNS stops with "Wrong argument count".', 'Name at least one destination, e.g. `forward . /etc/resolv.conf` or an IP address.'),
  'too-many-destinations': lint('error', 'More than 15 destinations on one forward or proxy line: CoreDNS stops with "more than 15 TOs configured".', 'Keep at most 15 destinations.'),
  'forward-once-per-block': lint('error', 'A second forward in one server block: CoreDNS before 1.9.4 stops with "this plugin can only be used once per Server Block".', 'Move the other zones into server blocks of their own, or target CoreDNS 1.9.4 or later.'),
  'forward-from-outside-zones': lint('warning', "A forward's FROM zone shares no name with the zones of its server block, so it never handles a query.", 'Use a FROM inside the block\'s zones (usually `.`), or move the line to a block for that zone.'),
  'destination-not-ip': lint('error', 'A destination that is not an IP address: the target CoreDNS reads it as a file name and stops with "not an IP address or file".', 'Use IP addresses (host names need forward in CoreDNS 1.14.4 or later; proxy never takes them).'),
  'destination-hostname': lint('warning', 'A destination host name: CoreDNS resolves it once at startup (and reload) and does not start when that fails.', 'Prefer IP addresses; a name inside the cluster domain cannot be resolved through the node.'),
  'destination-invalid': lint('error', 'A destination CoreDNS cannot read as an IP address, a file or a host name, so it does not start.', 'Write an IP address, IP:port, [IPv6]:port, a resolv.conf path or a host name.'),
  'destination-port-invalid': lint('warning', 'A destination port that is not a number from 1 to 65535: CoreDNS starts (checked with the real 1.2.6, 1.6.9, 1.8.0, 1.14.7), but every query to it fails.', 'CoreDNS does not check ports when it starts; fix the port.'),
  'https-destination-unsupported': lint('error', 'An https:// (DNS over HTTPS) destination: forward accepts them from CoreDNS 1.14.5 on.', 'Use tls:// (DNS over TLS) or a plain address, or target CoreDNS 1.14.5 or later.'),
  'grpc-destination-unsupported': lint('error', "A grpc:// destination: forward refuses it from CoreDNS 1.7.0 on (\"'grpc' is not supported as a destination protocol\").", 'Use the grpc plugin for gRPC upstreams, or a dns:// or tls:// destination.'),
  'loopback-destination': lint('error', 'A destination on the loopback address: inside the CoreDNS pod that is CoreDNS itself, or a server beside it.', 'Point at the real server\'s address; forwarding to itself makes the loop plugin stop CoreDNS (or queries circle until they time out).'),
  'resolv-conf-loop-risk': lint('info', 'Forwarding to a resolv.conf file in a block with loop: if the node uses a local resolver (127.0.0.53), loop detection stops CoreDNS.', 'Make sure the file names real upstream servers, or forward to them directly.'),
  'invalid-server-key': lint('error', 'A server block key CoreDNS refuses, so it does not start.', 'Write the key as ZONE[:PORT], e.g. `example.org:53`.'),
  'zone-served-twice': lint('error', 'The same zone and port twice among the server block keys: CoreDNS stops with "it is already defined".', 'Merge the two blocks, or give each its own port or `bind` address.'),
  'upper-case-zone': lint('error', 'A server block key with upper-case letters: CoreDNS 1.6.4–1.14.6 lower-cases query names but not keys, so the block is never used.', 'Write the zone in lower case.'),
  'zone-on-other-port': lint('warning', 'A server block on another port than the root (.) block: queries that arrive on the root block\'s port never reach it.', 'Give it the root block\'s port (e.g. `acme.local:53`), unless clients really query that port.'),
  'zone-captures-kubernetes': lint('error', 'A server block is the most specific match for a zone the kubernetes plugin of another block serves, so cluster names are answered by that block.', 'Add the zone as a key of the kubernetes block too (e.g. `.:53 cluster.local:53 {`), so that the more specific zone wins.'),
  'health-not-listening': lint(
    'warning',
    'A health address that never listens: CoreDNS 1.0.x opens one health listener per process, for the first block with health.',
    'Give every block the same health address (or health in one block only), or upgrade: each block listens from 1.1.0 on.',
  ),
  'health-bound-twice': lint(
    'error',
    'health listens twice on one address: CoreDNS 1.1.0–1.6.5 sets it up once per key of a block (and once per block), and the second listener stops it with "bind: address already in use".',
    'Keep health in one block with a single key (give the other zones a block of their own), or give each health its own address; CoreDNS 1.6.6 and later share the address.',
  ),
  'federation-without-kubernetes': lint('warning', 'A federation plugin in a server block without the kubernetes plugin: it has no effect.', 'Put federation in the block that holds the kubernetes plugin.'),
  'bind-interface-not-checked': lint(
    'warning',
    'A bind argument (or except name) that is no IP address: from CoreDNS 1.8.4 it names a network interface, which CoreDNS looks up on the machine it starts on and refuses to start without ("not a valid IP address or interface name"); lint cannot see that machine. Before 1.8.4 bind takes IP addresses only (argument-invalid).',
    'Check that every node running CoreDNS has that interface (ip link), or bind its IP address instead.',
  ),
  'import-not-checked': lint(
    'info',
    'An import of files (or of a snippet defined later) that lint did not read; the message says what the release does with the pattern.',
    'Lint the Corefile as a file next to the files it imports (`lint FILE` reads them), or lint the imported files too; a snippet must be defined before it is imported.',
  ),
  'import-refused': lint(
    'error',
    'An import the release stops at: a glob with more than one wildcard (1.2.3+), a file that is not there, a directory, an import cycle, or an imported file that does not parse.',
    'Give the import one wildcard, or name a file that exists (relative to the file the import is written in).',
  ),
  'import-matches-nothing': lint(
    'info',
    'A glob import that matches no file next to the Corefile: the release imports nothing and logs a warning.',
    'Nothing to do if the files are optional (an overlay directory); otherwise check the pattern.',
  ),
  'snippet-expansion-limit': lint(
    'error',
    'Snippet imports stand for more than 10,000 imports (CoreDNS 1.13.0 and later refuse to start; earlier releases expand them without a bound, which can exhaust memory) or more than 200,000 directives: the expansion stops there and what lies beyond was not linted.',
    'Import fewer snippets, or snippets that do not import each other over and over: every import copies the whole snippet.',
  ),
  'configmap-key-not-checked': lint(
    'info',
    'A data key of the input ConfigMap other than Corefile (a *.server or *.override fragment, k3s\'s NodeHosts): not linted; only the Corefile entry is.',
    'If the key holds Corefile text, lint it on its own (save the value to a file); a hosts file (NodeHosts) needs nothing.',
  ),
  'placeholder-not-checked': lint(
    'info',
    'A key, directive or destination holding an environment placeholder ({$NAME}), or the template variables (__PILLAR__…__) of a node-local-dns or kube-up addon template, named once for the whole Corefile: they were not checked.',
    'Lint the Corefile with the values substituted to check them (for node-local-dns, the Corefile node-cache writes).',
  ),
  'syntax-warning': lint('warning', 'CoreDNS reads this Corefile text, but not the way it looks.', 'See the message; the `fmt` command shows how CoreDNS groups the tokens.'),

  // Migrating a Corefile between CoreDNS releases (`migrate`, migrateCorefile).
  'migrate-release-resolved': migrate('info', 'How a --from or --to text was read as a CoreDNS release.', 'Nothing to do; give the exact release to silence it.'),
  'migrate-release-assumed': migrate(
    'warning',
    'A --from or --to text was read with an assumption that may not hold: a release newer than the newest known one, or an image that does not look like CoreDNS.',
    'Check the release; anything a newer release changed is not taken into account.',
  ),
  'migrate-proxy-to-forward': migrate('info', 'proxy (deprecated in 1.4.0, gone in 1.5.0) was replaced by forward with the same destinations.', 'Review the forward line; options were mapped as the notices say.'),
  'migrate-proxy-option-mapped': migrate('info', 'A proxy option was rewritten as the forward option that does the same (policy first → policy sequential, protocol dns force_tcp → force_tcp).', 'Nothing to do.'),
  'migrate-proxy-option-dropped': migrate('warning', 'A proxy option forward has no equivalent for was dropped.', 'Check that forward\'s own behaviour is acceptable (see the message).'),
  'migrate-proxy-unmappable': migrate(
    'error',
    'A proxy that forward cannot replace: protocol https_google or grpc, or an option forward cannot take.',
    'Rewrite it by hand (grpc for gRPC upstreams; forward to a DNS-over-TLS upstream instead of https_google), then migrate again.',
  ),
  'migrate-forward-split': migrate(
    'info',
    'A stub forward was moved into a server block of its own, because the target release allows one forward per server block (several from 1.9.4).',
    'Review the new block: it carries the forward, loop, errors and cache 30, as corefile-migration makes it.',
  ),
  'migrate-forward-split-refused': migrate(
    'error',
    'A server block would hold two forward lines, which the target release refuses (several per block from 1.9.4), and its stub cannot be split out automatically.',
    'Move the stub forward into a server block of its own for its zone, then migrate again.',
  ),
  'migrate-option-removed': migrate('info', 'A kubernetes option with no effect (or none left) in the target release was removed.', 'Nothing to do; the message says since when it does nothing.'),
  'migrate-option-trimmed': migrate('info', 'Extra arguments the target release ignores were removed (kubernetes endpoint keeps its first address).', 'Nothing to do.'),
  'migrate-option-deprecated': migrate('info', 'A deprecated option or plugin still works in the target release and was kept.', 'Pass --deprecations to replace it now.'),
  'migrate-transfer-moved': migrate('info', 'The kubernetes transfer option became the transfer plugin (1.8.0).', 'Nothing to do; the transfer plugin serves the kubernetes plugin\'s zones.'),
  'migrate-transfer-folded': migrate('info', 'The transfer plugin (1.8.0+) was folded back into the kubernetes plugin\'s transfer option for an older release.', 'Nothing to do.'),
  'migrate-transfer-refused': migrate(
    'error',
    'The transfer plugin cannot be expressed in the target release (before 1.8.0 only the kubernetes plugin\'s transfer option exists, for its own zones).',
    'Remove the transfer plugin or keep a release from 1.8.0 on.',
  ),
  'migrate-federation-removed': migrate(
    'error',
    'federation is not in the target release (removed in 1.7.0): CoreDNS would refuse to start.',
    'Pass --drop-federations to remove it (federated names then stop resolving), or stay on a release before 1.7.0.',
  ),
  'migrate-federation-dropped': migrate('warning', 'federation was removed (--drop-federations): federated service names no longer resolve.', 'Make sure nothing still queries federated names.'),
  'migrate-new-default': migrate(
    'info',
    'A plugin or option corefile-migration and kubeadm add when an upgrade crosses the release where it became a default (loop, ready, health lameduck 5s, forward max_concurrent 1000).',
    'Pass --no-new-defaults to leave them out.',
  ),
  'migrate-upstream-added': migrate(
    'info',
    "A downgrade below 1.5.2 added kubernetes `upstream`: before 1.5.2 the plugin resolves an ExternalName Service's target outside the cluster only with it (kubeadm's defaults of those releases have it).",
    'Nothing to do; without it those names would get the CNAME alone.',
  ),
  'migrate-default-removed': migrate('info', 'A plugin or option the target release does not have yet (ready, loop, forward max_concurrent) was removed for the downgrade.', 'Nothing to do.'),
  'migrate-plugin-unavailable': migrate(
    'error',
    'A plugin the target release does not have (not yet, or any more): CoreDNS would refuse to start.',
    'See the message for the release where it arrives or left and what replaces it.',
  ),
  'migrate-plugin-unknown': migrate(
    'warning',
    'A directive no release\'s default build has (an external plugin, or a typo): left as written.',
    'Check that the CoreDNS build you run has it; `lint --plugins` checks a custom build.',
  ),
  'migrate-option-unavailable': migrate('error', 'A plugin option the target release does not accept: CoreDNS would refuse to start.', 'Remove or replace the option by hand, then migrate again.'),
  'migrate-option-approximated': migrate(
    'warning',
    'An option the target release does not accept was replaced by the closest form it accepts, which does not do quite the same (cache `disable denial` below 1.9.4 becomes `denial 9984 1`: NXDOMAIN kept for at most 1 s instead of never).',
    'Accept the difference, or stay on a release that has the option.',
  ),
  'migrate-approximation-undone': migrate(
    'info',
    "cache `denial 9984 1` — how releases before 1.9.4 approximate switching NXDOMAIN caching off, as the translator and migrate write kube-dns's `--no-negcache` for them — became `disable denial`, which the target release has (1.9.4+): NXDOMAIN is no longer kept for up to 1 s.",
    'Nothing to do: the Corefile now caches as the translator writes it for the target release.',
  ),
  'migrate-import-not-migrated': migrate(
    'warning',
    'An import of files or a glob (not of a snippet defined before it): the Corefile text in those files is not migrated.',
    'Migrate each imported file with the same --from and --to (for a ConfigMap, its other data keys), or inline them.',
  ),
  'migrate-configmap-key-not-migrated': migrate(
    'info',
    'A data key of the input ConfigMap other than Corefile (a *.server or *.override fragment, k3s\'s NodeHosts): not migrated; only the Corefile entry is.',
    'If the key holds Corefile text, migrate it on its own (save the value to a file); a hosts file (NodeHosts) needs nothing.',
  ),
  'migrate-target-refuses': migrate(
    'error',
    'The migrated Corefile has an error for the target release that migrate does not rewrite (lint\'s finding is quoted: a destination, server key or health address the release refuses, a zone it never reaches, or a line the input already had wrong for the source release, such as a bare `except`): it would not start, and nothing was written.',
    'Change that line by hand as the quoted lint finding says (or pick another target release), then migrate again.',
  ),
  'migrate-not-in-place': migrate(
    'error',
    'A change is needed on a line that holds more than the node to change (several directives or braces on one line), so it cannot be made without re-printing.',
    'Put the directive on a line of its own (`npx kube-dns-to-coredns fmt` does for most layouts), then migrate again.',
  ),

  // The kube-dns install outside the ConfigMap: its Deployment (container arguments) and Service (docs/kube-dns-deployment.md).
  'unused-object': kubeDns('info', 'An object of the input that plays no part (another kind, a second workload or Service, the same object again, anything but the ConfigMap for --node-local-dns and --kubeadm, a document that is not an object): not read.', 'Nothing to do if it is not the kube-dns Deployment, Service or ConfigMap; give those as kubectl prints them.'),
  'coredns-configmap-present': kubeDns(
    'warning',
    "A CoreDNS ConfigMap (a Corefile, or named coredns) beside the kube-dns one: not read; the ConfigMap -o configmap, -o install and cutover write replaces it when applied.",
    'If a CoreDNS already runs with it, merge the translation into its Corefile (--merge FILE) so that what it serves stays; otherwise leave it out of the input.',
  ),
  'unused-container': kubeDns('info', 'A container of the kube-dns Pod other than kubedns, dnsmasq and sidecar (a health checker, say): its settings are not read.', 'Nothing to do unless it serves DNS; then say so in an issue.'),
  'container-args-unresolved': kubeDns(
    'warning',
    'A container argument refers to an environment variable known only in the running Pod, or the container sets no arguments: read as written.',
    'Give the Deployment as the cluster runs it, with the values filled in (`kubectl get deploy kube-dns -o yaml` shows the spec, not the expansion: check the Pod).',
  ),
  'deployment-program-exits': kubeDns(
    'error',
    'A kube-dns container argument its program refuses (an unknown flag, an invalid value): the program exits, so the Pod never served with these arguments.',
    'Give the Deployment the cluster really runs; pass --force to translate the arguments that could be read.',
  ),
  'kube-dns-release-assumed': translate(
    'warning',
    "The kubedns image's tag names no kube-dns release whose rules are known (no tag, a tag that is no release, a release before 1.14.0 or after the newest known): the rules of the release the message names are assumed.",
    'Give the release the cluster ran with --kube-dns-version; before 1.14 kubedns had no stubDomains or upstreamNameservers, so a ConfigMap with them was never in effect.',
  ),
  'kube-dns-deployment-assumed': translate(
    'info',
    'No kube-dns Deployment was given: the stock manifest of the kube-dns release is assumed (cluster domain from the options, dnsmasq with --no-negcache).',
    'Give the Deployment too (`kubectl -n kube-system get deploy/kube-dns svc/kube-dns cm/kube-dns -o yaml`) so that its arguments are translated.',
  ),
  'kube-dns-configmap-assumed': translate(
    'warning',
    'The input holds the kube-dns Deployment or Service but no ConfigMap: translated as if the ConfigMap had no data (no stub domains; upstreams from the node\'s /etc/resolv.conf).',
    'Give the ConfigMap too (`kubectl -n kube-system get deploy/kube-dns svc/kube-dns cm/kube-dns -o yaml`); when the cluster has none, the result is right as it is.',
  ),
  'cluster-domain-from-deployment': translate('info', "The cluster domain is taken from kubedns's --domain flag (or the sidecar's probes).", 'Nothing to do; --cluster-domain must agree with it if given.'),
  'cluster-domain-conflict': translate(
    'error',
    "--cluster-domain disagrees with the cluster domain of the Deployment (kubedns's --domain, or the sidecar's probes).",
    'Drop --cluster-domain, or pass --force to translate with it anyway.',
  ),
  'negative-caching-disabled': translate('info', 'dnsmasq ran with --no-negcache: NXDOMAIN and NODATA answers were never cached; every cache gets `disable denial`.', 'Nothing to do: names created after a failed lookup resolve at once, as under kube-dns.'),
  'negative-caching-shortened': translate(
    'warning',
    'dnsmasq ran with --no-negcache, but the target CoreDNS cannot switch denial caching off (`disable denial` came in 1.9.4): NXDOMAIN is cached for at most 1 s (`denial 9984 1`).',
    'Target CoreDNS 1.9.4 or later to keep NXDOMAIN uncached.',
  ),
  'address-nxdomain-not-kept': translate(
    'warning',
    "The Pod's dnsmasq (2.86+, kube-dns 1.22.1+) answered NOERROR without records where a server answered NXDOMAIN for a name under the domain of an `--address` with an address (a more specific stub domain, the cluster domain, the address's other query types); the target CoreDNS cannot rewrite a response code (`rewrite rcode` came in 1.11.3), so those names get NXDOMAIN.",
    'Target CoreDNS 1.11.3 or later (the translation then rewrites NXDOMAIN to NOERROR for those names), or accept NXDOMAIN for names that do not exist there.',
  ),
  'any-query-one-family': translate(
    'warning',
    'dnsmasq answered an ANY query under an `--address` of `#` alone with both 0.0.0.0 and ::; a `template` answers ANY with the first template that matches (every release), so the Corefile gives one.',
    'Nothing to do for A and AAAA queries; an ANY query gets one null address.',
  ),
  'cache-disabled': translate('info', 'dnsmasq ran with --cache-size=0: it cached nothing, so no block gets a cache.', 'Nothing to do; add `cache` later if you want CoreDNS to cache.'),
  'deployment-stub-server': translate(
    'info',
    "A `--server=/zone/address` of the Deployment's dnsmasq arguments becomes a stub block, merged with the ConfigMap's servers for the same zone (dnsmasq used them all).",
    'Nothing to do; the manifest flag can go once kube-dns is gone.',
  ),
  'deployment-upstream-server': translate(
    'info',
    "dnsmasq ran with --no-resolv and `--server=address` flags: those servers, not the node's resolv.conf, were the upstreams.",
    'Nothing to do; they become the forward destinations of the main block.',
  ),
  'dnsmasq-option-translated': translate('info', 'A dnsmasq option with a CoreDNS equivalent (`--log-queries` → log, `--strict-order` → policy sequential, `--dns-forward-max` → max_concurrent, `--address` → template; `--address=//IP` and `--local=//`, for names without a dot → a template of the main block matching names of one label).', 'Nothing to do.'),
  'deployment-flag': translate(
    'info',
    'A flag of the Deployment whose effect the Corefile already has, or which does not bear on answers (servers to kubedns for its own zones, logging, ports inside the Pod).',
    'Nothing to do.',
  ),
  'octal-address': translate(
    'warning',
    "A nameserver with a leading-zero IPv4 octet: kube-dns's Go validation read it as decimal, but dnsmasq, which forwarded the queries, reads such an octet as octal (010 is 8).",
    'Translated to the address dnsmasq used; write that address (or the one you meant) in canonical form.',
  ),
  'address-refused-by-dnsmasq': translate(
    'error',
    "A nameserver dnsmasq refuses (a leading-zero octet with an 8 or a 9: not octal), so kube-dns's dnsmasq did not start with this ConfigMap.",
    'Write the address in canonical form (no leading zeros); the message gives both readings.',
  ),
  'single-label-hostname-nameserver': translate(
    'error',
    "A nameserver that is a single-label host name (a Service name, say): CoreDNS 1.14.4+ resolves it at start-up through the node's resolver, where it does not resolve, and exits.",
    "Use the server's IP address, or a fully qualified name the node can resolve.",
  ),
  'configmap-not-applied': translate(
    'warning',
    "A key of the ConfigMap the kube-dns Pod never applied: its dnsmasq ran without dnsmasq-nanny (Kubernetes 1.5 and older manifests), or the Pod had no dnsmasq. stubDomains were then never in effect (kubedns only validates them), nor upstreamNameservers, except where kube-dns 1.14.10+'s kubedns forwarded with them.",
    'The Corefile routes as the Pod did, without them. If you meant them to apply, add the stub domains to the Corefile yourself after checking where those names go today.',
  ),
  'kube-dns-quirk-kept': translate(
    'warning',
    'kube-dns routed some names in a way that may be a mistake (a kube-dns quirk), and the translation keeps it so that every name goes where it went: the message names the quirk (unserved-cluster-zones, kubedns-upstreams, trailing-dot-domains, raced-default-servers). As an error: the quirk cannot be kept (the cluster domain never reached kubedns, or dnsmasq picked among kubedns and the upstreams for it).',
    'If the cluster was meant to work otherwise, repair the quirk on purpose: translate with --repair QUIRK, and check with the same --repair, which then reports the changed names as expected.',
  ),
  'kube-dns-quirk-repaired': translate(
    'info',
    'A kube-dns quirk was repaired as asked (--repair QUIRK): some names now go elsewhere than under kube-dns, on purpose.',
    'Run check with the same --repair: it lists those names as expected differences.',
  ),
  'deployment-address-every-name': translate(
    'error',
    "dnsmasq's --address=/#/IP (or --address=/#/) answered every name no more specific --server, --local or --address domain held with that address (or NXDOMAIN): leaving it out would send every outside name upstream, so the translation is refused.",
    'Remove the flag from the Deployment given to the translator if the cluster is to resolve outside names again, or write the catch-all template by hand (docs/kube-dns-deployment.md).',
  ),
  'deployment-default-servers-not-kept': translate(
    'error',
    "dnsmasq's --server=/zone/# sent the zone's names to its default servers (those of no domain), and the Corefile cannot send them the same way: the default server was kubedns, or the zone holds or is inside a zone of the cluster kubedns served.",
    'Remove the flag from the Deployment given to the translator and write the zone\'s block by hand after checking where its names should go (docs/kube-dns-deployment.md, "The default servers for a zone").',
  ),
  'deployment-forwards-nothing': translate(
    'error',
    "dnsmasq's --dns-forward-max=0 let no query be in flight: dnsmasq answered REFUSED to every query it would have forwarded, the cluster's own names (sent to kubedns) included, so the Pod resolved only what dnsmasq answered itself; the translation is refused.",
    'The cluster never resolved through this Pod: remove the flag from the Deployment given to the translator (or give it a limit) if the CoreDNS install is to resolve names.',
  ),
  'deployment-flag-not-translated': translate(
    'warning',
    'A flag of the Deployment that changed what kube-dns answered or where it forwarded, with no translation for the target CoreDNS (e.g. `--server=//IP`: names without a dot to other servers; CoreDNS has no zone for them, and `check` lists those names as expected).',
    'Read the message: add the equivalent by hand (the migration guide lists the options), or accept the difference.',
  ),
  // Building the CoreDNS install (-o install, docs/migration-guide.md).
  'install-setting-carried': install(
    'info',
    "A setting the cluster chose for kube-dns (replicas, nodeSelector, tolerations, affinity, priorityClassName, imagePullSecrets, topologySpreadConstraints, a private image repository, a Service selector with more labels) carried over to the CoreDNS install.",
    'Nothing to do if CoreDNS should be scheduled like kube-dns; edit the install otherwise.',
  ),
  'install-setting-replaced': install(
    'info',
    "A field of the kube-dns Pod that the CoreDNS Deployment sets itself (containers, volumes, service account, dnsPolicy): kube-dns's value is not used.",
    'Nothing to do: the CoreDNS base (kubeadm\'s manifest for the target release) sets it.',
  ),
  'install-setting-dropped': install(
    'warning',
    'A setting of the kube-dns workload that the CoreDNS install does not carry over (hostNetwork, init containers, pod annotations, a replica count of 0, …).',
    'Decide whether CoreDNS needs it; add it to the Deployment of the install by hand if so.',
  ),
  'install-base-adapted': install(
    'info',
    "A field of kubeadm's Deployment for the target release that the inputs show the cluster cannot honour, written the way the cluster can: for a kube-dns workload in an API version Kubernetes 1.16 stopped serving, the OS nodeSelector beta.kubernetes.io/os instead of kubernetes.io/os (set by the kubelet only from 1.14).",
    'Nothing to do; once the cluster is 1.14 or newer either label selects the same nodes.',
  ),
  'install-anti-affinity-relaxed': install(
    'warning',
    "kube-dns's affinity has a REQUIRED pod anti-affinity term that selects the CoreDNS pods too (they carry k8s-app: kube-dns, as the kube-dns pods do): kept required, no CoreDNS pod could be scheduled on a node that runs a kube-dns pod during the overlap, and the rollback could not bring kube-dns back on the nodes CoreDNS holds. The install carries the term as a preferred anti-affinity (weight 100).",
    'Nothing to do for the switch; once kube-dns is deleted, make the term required again in the coredns Deployment if replicas must never share a node (and the cluster has a node per replica).',
  ),
  'install-merge-routing-differs': install(
    'error',
    "The Corefile of --merge (the existing Corefile with the translation merged in; every output: -o install, cutover, -o corefile, configmap, json, …) routes a checked name differently from kube-dns — a Corefile without the kubernetes plugin forwards the cluster domain upstream, a kubernetes line without fallthrough answers the reverse names kube-dns forwarded, say: while kube-dns and CoreDNS pods share the Service, and after, such names get other answers. Nothing is written (a warning under --force, and the Corefile or install is written).",
    'Run `check` on the merged Corefile (`-o corefile --merge FILE --force`) to see every name; fix the existing Corefile (add `fallthrough in-addr.arpa ip6.arpa` to its kubernetes line, say), merge into the one the cluster runs, or pass --force to write it anyway.',
  ),
  'install-merge-placeholders': install(
    'error',
    "The Corefile of -o install --merge is a template: it holds __PILLAR__ placeholders, which its installer fills in (node-cache at start-up for node-local-dns, the addon scripts for Kubernetes' cluster/addons manifests) and CoreDNS reads as they are (a zone named __PILLAR__DNS__DOMAIN__, a bind to a name, a forward to no address). No install is written.",
    'Merge into the CoreDNS Corefile the cluster runs (kubectl -n kube-system get configmap coredns -o yaml); node-local-dns has --node-local-dns.',
  ),
  'install-addon-manager-reconciles': install(
    'warning',
    "kube-dns objects carry addonmanager.kubernetes.io/mode: Reconcile: kube-up's addon manager re-applies them from its files, so after the switch it recreates kube-dns and sets the Service back.",
    "Before the cut-over, take kube-dns out of the addon manager: remove its manifests from the addon manager's directory on the control-plane nodes (/etc/kubernetes/addons on kube-up clusters; the mode is read from those files), or switch the cluster's DNS addon to CoreDNS there.",
  ),
  'install-coredns-too-new': install(
    'warning',
    'The inputs show a cluster older than the target CoreDNS release needs: a kube-dns workload in extensions/v1beta1, apps/v1beta1 or apps/v1beta2 (not served from Kubernetes 1.16) while CoreDNS 1.11.0 and later read only discovery.k8s.io/v1 EndpointSlices (served from Kubernetes 1.21): the kubernetes plugin never syncs and no CoreDNS pod becomes Ready.',
    'Target a CoreDNS release before 1.11.0 (--coredns), which falls back to Endpoints, or upgrade the cluster before the switch.',
  ),
  'install-image-release-assumed': install(
    'warning',
    'The --coredns release is newer than the package knows: the install is built, and its image chosen, for the newest release it knows.',
    'Give --image with the newer release\'s image to run it; the Corefile, ClusterRole and probes stay those of the release the package knows.',
  ),
  'install-image-tag-mismatch': install(
    'warning',
    "The --image tag is not the --coredns release (or the image has no tag): the install's Corefile, ClusterRole and probes are for --coredns, the pods run the image.",
    'Give the image of the --coredns release, or --coredns for the release the image holds.',
  ),
  'install-probe-unanswered': install(
    'warning',
    "The Corefile of the install (a merged one, say) has no `health` listener the kubelet can reach, or no `ready` on a release that has the plugin: the probe kubeadm's manifest has would fail. The install leaves the liveness probe out, and readiness falls back to `health` (or is left out).",
    'Add `health` (and `ready` from CoreDNS 1.5.0 on) to the main server block, listening on all addresses, and build the install again.',
  ),
  'install-service-port-added': install(
    'info',
    "The Corefile listens on a port the kube-dns Service does not expose (prometheus' 9153, another server block's port): the install's Service gains it.",
    'Nothing to do; the Service keeps its cluster IP, selector and other ports.',
  ),
  'install-service-created': install(
    'warning',
    "No kube-dns Service in the input: the install writes kubeadm's Service with the --cluster-dns-ip; applied over the cluster's Service it replaces that Service's ports and selector.",
    'Give the kube-dns Service in the input (kubectl -n kube-system get svc/kube-dns -o yaml) so that it is kept as it is.',
  ),

  // Where platforms keep CoreDNS configuration: ConfigMaps written back, coredns-custom overlays (docs/platforms.md).
  'configmap-server-fields-dropped': platform(
    'info',
    'The ConfigMap written back leaves out the fields the API server sets (resourceVersion, uid, managedFields, creationTimestamp, the last-applied annotation); everything else is kept.',
    'Nothing to do: the API server sets them again, and a stale resourceVersion would make the update a conflict.',
  ),
  'configmap-immutable': platform(
    'warning',
    'The ConfigMap is marked immutable: true and its data changed: the API server refuses the update.',
    'Delete the ConfigMap and create it again (`kubectl replace --force -f FILE`), or drop immutable from it.',
  ),
  'overlay-syntax-error': platform(
    'error',
    'The base Corefile composed with the coredns-custom overlay is not one CoreDNS reads (a syntax error in a key, a file to import that is not there, an import cycle): CoreDNS does not start, or keeps its old configuration on reload.',
    'Fix the key the message points at; `compose` prints the composed Corefile.',
  ),
  'overlay-key-folded': platform(
    'error',
    'A key of the coredns-custom ConfigMap is written as a multi-line plain (or folded, or quoted) YAML scalar: YAML joins its lines with spaces, and CoreDNS, whose syntax is line by line, reads one line.',
    'Write the value as a literal block: `KEY: |` followed by the indented lines.',
  ),
  'overlay-key-not-imported': platform(
    'warning',
    "A key of the coredns-custom ConfigMap that no import of the base Corefile reads: it is only a file in the custom directory (the platform's rule for other keys is in the message).",
    'Name Corefile fragments KEY.server (extra server blocks) or KEY.override (inside the .:53 block); keep other keys only for files a plugin reads (file /etc/coredns/custom/KEY).',
  ),
  'overlay-override-refused': platform(
    'error',
    'An .override adds a plugin the base\'s block already has once, where CoreDNS allows one per block (cache and hosts always, forward before 1.9.4): CoreDNS stops with "this plugin can only be used once per Server Block".',
    'Do not repeat the plugin in an .override: put the setting in a .server block of its own zone (e.g. `example.com:53 { forward . 10.0.0.1 }`), or target CoreDNS 1.9.4+ for a second forward.',
  ),
  'overlay-forward-shadowed': platform(
    'warning',
    "An .override's forward comes after a forward of the same block whose FROM covers its zone (the base's `forward .`): from CoreDNS 1.9.4 several forwards are tried in the order written, so this one never sees a query.",
    'Put the zone in a .server block of its own (`example.com:53 { forward . 10.0.0.1 }`), or use a base that imports the overrides before its `forward .` (k3s after k3s-io/k3s#12980).',
  ),
  'overlay-zone-redefined': platform(
    'error',
    'A .server key defines a zone and port the base Corefile already serves (usually `.:53`): CoreDNS stops with "cannot serve dns://.:53 - it is already defined".',
    'Put settings for the root zone in an .override key; a .server block must serve another zone (or port).',
  ),
  'platform-base-must-change': platform(
    'error',
    "What kube-dns did cannot be written as a coredns-custom overlay for this platform: the base's own directive decides (its forward . comes before the overrides, or CoreDNS before 1.9.4 takes one forward per block; cache and the kubernetes plugin cannot be given twice).",
    'Change what the base reads instead (AKS: the virtual network\'s DNS servers, which the node\'s resolv.conf lists; k3s: --resolv-conf), or run a base that imports overrides before its forward (k3s after k3s-io/k3s#12980); --force writes the overlay without it.',
  ),
  'platform-base-answers': platform(
    'warning',
    "The platform's base Corefile answers some names itself that kube-dns sent upstream (AKS: NXDOMAIN for reddog.microsoft.com and for names under internal.cloudapp.net with more than four labels before it).",
    'Accept the difference, or apply the platform\'s documented opt-out (a .server block forwarding the zone upstream), as -o coredns-custom does.',
  ),
  'eks-addon-property-unknown': platform(
    'error',
    "A property of the EKS CoreDNS add-on's configurationValues that its schema does not have: the schema allows no other properties (additionalProperties: false), so EKS refuses the whole configuration.",
    'Remove the property, or check the schema of your add-on version: `aws eks describe-addon-configuration --addon-name coredns --addon-version VERSION`.',
  ),
  'eks-addon-probe-unanswered': platform(
    'warning',
    "The Corefile of an EKS add-on configuration has no plugin answering one of the add-on's probes: readiness asks ready on :8181 (from v1.10.1-eksbuild.3, aws/containers-roadmap#2152), liveness asks health on :8080; without it the Pods stay NotReady or are restarted.",
    'Add `ready` (and `health`) to the root server block, as the add-on\'s default Corefile has them.',
  ),
  'helm-port-missing': platform(
    'error',
    "A server of the CoreDNS Helm chart's values without port: the chart renders `ZONE{` with no space before the brace, which CoreDNS reads as the key `ZONE{` and refuses (\"zone is not a valid domain name\", checked with CoreDNS 1.14.7); the chart's Service and container ports come out '<nil>' too (coredns/helm#67).",
    'Give every server a port (53).',
  ),
  'helm-port-last-zone-only': platform(
    'warning',
    "A server of the Helm chart's values with several zones and a port: the chart writes the port after the last zone only (`a b:5353 {`), so the other zones are served on port 53.",
    'Give each zone on another port a server of its own, or keep the port at 53.',
  ),
  'helm-value-breaks-corefile': platform(
    'error',
    "A name or parameters value of the Helm chart's values holding a brace, '#' or a line break: the chart pastes it into the Corefile as it is (no quoting), so CoreDNS reads another configuration, or the rendered ConfigMap is not YAML.",
    'Put sub-directives in configBlock, and quote (with \\") what must stay one token.',
  ),
  'helm-value-printed-otherwise': platform(
    'error',
    "A number in the Helm chart's values that Helm prints in exponent form: values are read as float64 and text/template prints 1000000 as `1e+06`.",
    'Quote the number in values.yaml ("1000000").',
  ),
  'helm-template-braces': platform(
    'warning',
    "`{{` in a value of the Helm chart's values (a template plugin's answer): the chart pastes it as it is, but values that pass through another template engine first (an umbrella chart's tpl, helmfile's .gotmpl values) are evaluated there (coredns/helm#159).",
    'Where the values are templated, write `{{ "{{" }}` for each `{{`; with plain helm install nothing is needed.',
  ),
} as const satisfies Record<string, DiagnosticCodeEntry>;

export type DiagnosticCode = keyof typeof DIAGNOSTIC_CODES;
