import { FEDERATION_REMOVED_IN } from '../coredns/migration-facts.js';
import { NEWEST_COREDNS_VERSION } from '../coredns/versions.js';

/** Help text of the main command; subcommands keep theirs next to their code. */
export const MAIN_HELP = `Usage:
  kube-dns-to-coredns [options] [FILE|-]
  kube-dns-to-coredns --kubeadm VERSION [--dns-domain DOMAIN] [FILE|-]
  kube-dns-to-coredns [--kubeadm VERSION] --batch [FILE|-]
  kube-dns-to-coredns --node-local-dns RELEASE --local-ip IP[,IP] --upstream-ip IP [FILE|-]
  kube-dns-to-coredns fmt [FILE|-]  |  fmt --check [FILE|-]...
  kube-dns-to-coredns lint [--coredns VERSION] [FILE|-]
  kube-dns-to-coredns lint --platform aks|k3s|k3s-legacy | --base FILE [CUSTOM|-]
  kube-dns-to-coredns compose --platform aks|k3s|k3s-legacy | --base FILE [CUSTOM|-]
  kube-dns-to-coredns migrate --from VERSION --to VERSION [FILE|-]
  kube-dns-to-coredns check --kube-dns FILE --corefile FILE [--cluster-domain DOMAIN]
  kube-dns-to-coredns explain NAME --kube-dns FILE [--corefile FILE] [--namespace NS]
  kube-dns-to-coredns cutover --coredns VERSION INSTALL [-o text|json|script]
  kube-dns-to-coredns verify --kube-dns INSTALL --old ADDR --new ADDR [--names FILE] [-o json]

Translate a kube-dns install into a CoreDNS Corefile: its ConfigMap (stubDomains,
upstreamNameservers, federations) and, best, its Deployment and Service. FILE is what
'kubectl -n kube-system get deploy/kube-dns svc/kube-dns cm/kube-dns -o yaml' (or -o json)
prints, a List or several YAML documents holding them, the ConfigMap alone, or just its data map;
'-' or no FILE reads standard input. Without the Deployment, the stock kube-dns manifest is
assumed (dnsmasq with --no-negcache). A CoreDNS ConfigMap is refused; another name or namespace
than kube-system/kube-dns is translated with a warning.

Commands:
  (none)     translate FILE
  fmt        print a Corefile in canonical form ('fmt --help')
  lint       check a Corefile against a CoreDNS release, or a coredns-custom overlay as it
             composes with a platform's base Corefile ('lint --help')
  compose    print the Corefile a coredns-custom overlay and its base make ('compose --help')
  migrate    rewrite a Corefile for another CoreDNS release ('migrate --help')
  check      compare who answers each name under kube-dns and under a Corefile; with
             --node-local-dns, the pre-flight or the two-tier check ('check --help')
  explain    show a pod's search-path candidates for a name and who answers each ('explain --help')
  cutover    the switch from kube-dns to CoreDNS as ordered steps with their kubectl commands,
             and the rollback ('cutover --help')
  verify     ask a live kube-dns and a live CoreDNS the same names and compare the answers
             ('verify --help')

Default translator: keeps what kube-dns did, for the CoreDNS version you run, and refuses with
an explanation where that is impossible.
  --coredns VERSION          target CoreDNS release (default: the newest known, ${NEWEST_COREDNS_VERSION})
  --cluster-domain DOMAIN    the cluster domain (default: cluster.local); alias --dns-domain
  -o, --output FORMAT        corefile (default), configmap (a CoreDNS ConfigMap for
                             'kubectl apply'), json ({corefile, coredns, diagnostics}),
                             eks-addon (the EKS CoreDNS add-on's configurationValues:
                             {"corefile": …}), helm-values (the CoreDNS Helm chart's
                             servers: values), or coredns-custom with --platform
                             aks|k3s|k3s-legacy (the overlay for that platform's base),
                             or install: the whole CoreDNS install (ServiceAccount, RBAC,
                             ConfigMap, Deployment, the kube-dns Service kept as it is)
  --image REF                with -o install: the CoreDNS image to run (a mirror)
  --merge FILE               merge into an existing Corefile (or CoreDNS ConfigMap): add or
                             update the stub blocks and the main block's upstream, keep
                             everything else; a block it would have to rewrite is a conflict
  --drop-federations         translate without federations when the target has no
                             federation plugin (CoreDNS ${FEDERATION_REMOVED_IN} and later)
  --kube-dns-version VERSION validate with the rules of this kube-dns release (default 1.26.7),
                             or gke-coredns: GKE's kube-dns on CoreDNS (up to 15 upstreams)
  --force                    translate a ConfigMap that kube-dns itself rejected
  --cluster-dns-ip IP        refuse nameservers equal to the cluster DNS Service IP
  --kube-dns-deployment FILE the kube-dns Deployment (or ReplicationController): its kubedns,
                             dnsmasq and sidecar arguments are translated too
  --kube-dns-service FILE    the kube-dns Service: its clusterIP feeds the loop check
  --repair QUIRK[,QUIRK]     repair a kube-dns quirk instead of keeping it (default: every
                             name goes where it went): unserved-cluster-zones (zones of the
                             cluster dnsmasq sent upstream, e.g. kops's in6.arpa typo),
                             kubedns-upstreams (names kubedns forwarded with its own resolver),
                             trailing-dot-domains (names without a dot dnsmasq 2.86+ answered
                             for a domain list like --local=/internal./local./lc./),
                             raced-default-servers (every name to kubedns through dnsmasq's
                             default server beside the nanny's upstreamNameservers)

kubeadm profiles:
  --kubeadm VERSION          reproduce what kubeadm VERSION (1.10 to 1.20, e.g. 1.13 or v1.18.6)
                             stored as the Corefile, byte for byte, or fail with its exact error
  --dns-domain DOMAIN        kubeadm's networking.dnsDomain (default: cluster.local)

node-local-dns profile (docs/node-local-dns.md):
  --node-local-dns RELEASE   print the Corefile node-cache RELEASE (1.15.6 to 1.26.8) writes
                             from the ConfigMap (stub blocks sorted), or exit 1 with the
                             reason it refuses the update (every node keeps its Corefile)
  --local-ip IP[,IP]         node-cache's -localip (required)
  --upstream-ip IP           the kube-dns-upstream Service ClusterIP (required)
  --node-local-dns-base FILE the node-local-dns ConfigMap (its Corefile key) or the bare
                             Corefile (default: the nodelocaldns.yaml template of RELEASE)
  --port PORT                the port node-cache serves on (default: 53)
  --cluster-domain DOMAIN    fills the template's cluster domain (default: cluster.local)

Both (not --node-local-dns):
  --name NAME                the ConfigMap to read when FILE holds several (default: kube-dns)
  --out FILE                 write the output to FILE instead of stdout, only on success:
                             a file is replaced atomically (mode and owner kept), a FIFO
                             or device written to; '-' is stdout; works for every command
  --batch                    read JSON lines {"id", "data", "dnsDomain"} and write one JSON
                             result line per input line (blank ones too), in order, each as
                             soon as it is answered
  -q, --quiet                warnings and errors only: no infos, notes or summaries
  --verbose                  each diagnostic followed by its code's hint
  -h, --help                 show this help
  -V, --version              show the version

Output: the Corefile on stdout; diagnostics ('severity code path: message') and warnings on stderr.
Exit status: 0 Corefile written (warnings allowed), 1 translation refused or failed, 2 bad usage
or unreadable input.

Examples:
  kubectl -n kube-system get configmap kube-dns -o yaml | kube-dns-to-coredns --coredns 1.8.0
  kube-dns-to-coredns -o configmap kube-dns.yaml | kubectl apply -f -
  kube-dns-to-coredns --coredns 1.14.7 -o install kube-dns.yaml > coredns-install.yaml
  kube-dns-to-coredns --kubeadm v1.19.4 --dns-domain corp.internal kube-dns.yaml
  kube-dns-to-coredns --kubeadm 1.15 --batch fleet.jsonl > results.jsonl
  kube-dns-to-coredns --node-local-dns 1.26.7 --local-ip 169.254.20.10,10.96.0.10 --upstream-ip 10.96.0.20 kube-dns.yaml
`;
