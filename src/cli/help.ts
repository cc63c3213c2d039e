/** Help text of the main command; subcommands keep theirs next to their code. */
export const MAIN_HELP = `Usage:
  kube-dns-to-coredns --kubeadm VERSION [--dns-domain DOMAIN] [--name NAME] [FILE|-]
  kube-dns-to-coredns --kubeadm VERSION --batch [FILE|-]
  kube-dns-to-coredns fmt [--check] [FILE|-]

Translate a kube-dns ConfigMap (stubDomains, upstreamNameservers, federations) into a CoreDNS
Corefile. FILE is what 'kubectl -n kube-system get configmap kube-dns -o yaml' (or -o json)
prints, a List or several YAML documents holding it, or just its data map; '-' or no FILE reads
standard input.

Commands:
  (none)     translate FILE (see the options below)
  fmt        print a Corefile in canonical form ('fmt --help')

Options:
  --kubeadm VERSION    reproduce what kubeadm VERSION (1.10 to 1.20, e.g. 1.13 or v1.18.6)
                       stored as the Corefile, byte for byte, or fail with its exact error
  --dns-domain DOMAIN  kubeadm's networking.dnsDomain (default: cluster.local)
  --name NAME          the ConfigMap to read when FILE holds several (default: kube-dns)
  --batch              read JSON lines {"id", "data", "dnsDomain"} and write one JSON result
                       line per input, in order
  -h, --help           show this help
  -V, --version        show the version

Output: the Corefile on stdout, warnings on stderr.
Exit status: 0 Corefile written (warnings allowed), 1 translation failed, 2 bad usage or
unreadable input.

Examples:
  kubectl -n kube-system get configmap kube-dns -o yaml | kube-dns-to-coredns --kubeadm 1.17
  kube-dns-to-coredns --kubeadm v1.19.4 --dns-domain corp.internal kube-dns.yaml
  kube-dns-to-coredns --kubeadm 1.15 --batch fleet.jsonl > results.jsonl
`;
