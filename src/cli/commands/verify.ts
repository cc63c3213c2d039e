import { translateKubeDnsInstall } from '../../translate/translate.js';
import { clusterDomainOf, compareProbe, formatProbeNames, formatVerifyReport, parseProbeNames, verifyProbes, verifyReport } from '../../verify/probes.js';
import type { LiveAnswer, VerifyProbe } from '../../verify/probes.js';
import { parseGoIP } from '../../dns/go-net.js';
import { defineCommand } from '../command.js';
import type { CommandContext, OptionSite } from '../command.js';
import { DnsUnreachable, mapLimited, queryDns } from '../dns-client.js';
import type { DnsServerAddress } from '../dns-client.js';
import { readKubeDnsInstallInput } from '../input/install.js';
import { clusterDomain, flag, integer, kubeDnsVersion, release, stringOption, text } from '../options.js';
import { INPUT_LIMITS, readSource } from '../read-source.js';
import { ExitCode, UsageError } from '../usage-error.js';

export const VERIFY_HELP = `Usage: kube-dns-to-coredns verify --kube-dns INSTALL --old ADDR --new ADDR [options]

Asks a live kube-dns (--old) and a live CoreDNS (--new) the same names and compares their
answers: the names the routing model derives from the configuration (every stub domain and a
child, the cluster domain's Service names, reverse zones, external names, a missing name twice
for negative caching), over UDP (TCP when truncated). rcode and answer sets are compared, order
and TTL ignored. Each difference is expected (a change the translator reported, by its code,
or a documented way kubedns and the kubernetes plugin differ: SRV layout, the zone apex's SOA,
kube-dns's dns-version TXT) or not. ADDR is IP or IP:PORT (port 53 by default).

  --kube-dns INSTALL        the kube-dns install ('kubectl get deploy/kube-dns svc/kube-dns
                            cm/kube-dns -o yaml'), as for the translation
  --old ADDR, --new ADDR    the kube-dns and the CoreDNS server to ask (pod IPs)
  --names FILE              more names, one 'NAME [TYPE]' per line
  --print-names             print the probe list ('NAME TYPE' per line, a dnsperf query
                            file) and exit; --old and --new are not needed
  --coredns VERSION         the CoreDNS release the translation was for (default: newest)
  --cluster-domain DOMAIN   the cluster domain (default: the Deployment's, else cluster.local)
  --kube-dns-version V      the kube-dns release whose rules apply, as for the translation
  --timeout MS              per query and try (default 2000); --tries N (default 3)
  -o, --output FORMAT       text (default) or json
  -q, --quiet               warnings and errors only
  --verbose                 each diagnostic followed by its code's hint
  --out FILE                write the output to FILE, only on success (see the main --help)
  -h, --help                show this help

At most 300 names, 8 queries at a time. Exit status: 0 every answer agrees or every
difference is expected, 1 an unexpected difference, a SERVFAIL or REFUSED from --new, or no
A record from --new for a name every cluster has (kubernetes.default.svc.DOMAIN, the kube-dns
Service's own name), even when --old answered the same, 2 bad usage, unreadable input, or a
server that does not answer (after the tries).
`;

const CONCURRENCY = 8;

function serverAddress(text: string, site: OptionSite): DnsServerAddress {
  const option = site.option;
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  const plain = bracketed === null ? /^([^:]+)(?::(\d+))?$/.exec(text) : null;
  const host = bracketed?.[1] ?? plain?.[1];
  const port = Number(bracketed?.[2] ?? plain?.[2] ?? 53);
  const unbracketedV6 = bracketed === null && plain === null && parseGoIP(text) !== undefined;
  if (unbracketedV6) return { host: text, port: 53 };
  if (host === undefined || parseGoIP(host) === undefined || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new UsageError(`verify: ${option} must be IP or IP:PORT ([IPv6]:PORT), not '${text}'`);
  }
  return { host, port };
}

/** The same address and port (`::ffff:10.0.0.1` is `10.0.0.1`). */
function sameServer(a: DnsServerAddress, b: DnsServerAddress): boolean {
  const key = (host: string) => {
    const bytes = parseGoIP(host) ?? [];
    return (bytes.length === 4 ? [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...bytes] : [...bytes]).join('.');
  };
  return a.port === b.port && key(a.host) === key(b.host);
}

const options = {
  'kube-dns': text(),
  old: stringOption(serverAddress),
  new: stringOption(serverAddress),
  names: text(),
  'print-names': flag(),
  coredns: release(),
  'cluster-domain': clusterDomain(),
  'kube-dns-version': kubeDnsVersion(),
  timeout: integer(1, 60_000),
  tries: integer(1, 10),
} as const;

/** `kube-dns-to-coredns verify`: see {@link VERIFY_HELP}. */
export const verifyCommand = defineCommand({
  name: 'verify',
  help: VERIFY_HELP,
  options,
  outputs: { kinds: ['text', 'json'] },
  run: runVerify,
});

async function runVerify(context: CommandContext<typeof options, 'text' | 'json'>): Promise<number> {
  const { io, options: values, report: reporter } = context;
  if (values['kube-dns'] === undefined) throw new UsageError("verify: --kube-dns INSTALL is required; see 'verify --help'");
  const printNames = values['print-names'];
  const old = values.old;
  const current = values.new;
  if (!printNames && (old === undefined || current === undefined)) throw new UsageError("verify: --old ADDR and --new ADDR are required (or --print-names); see 'verify --help'");
  if (old !== undefined && current !== undefined && sameServer(old, current)) {
    throw new UsageError(`verify: --old and --new are the same server (${current.host} port ${current.port}): every answer would agree with itself; give a kube-dns pod and a CoreDNS pod`);
  }
  const timeoutMs = values.timeout ?? 2000;
  const tries = values.tries ?? 3;
  const install = await readKubeDnsInstallInput(values['kube-dns'], {}, undefined, io);
  const namesSource = values.names === undefined ? undefined : await readSource(values.names, io, INPUT_LIMITS.configMap);
  const extra = namesSource === undefined ? [] : parseProbeNames(namesSource.text, namesSource.name);
  const translation = translateKubeDnsInstall(install, {
    ...(values.coredns === undefined ? {} : { coredns: values.coredns }),
    ...(values['cluster-domain'] === undefined ? {} : { clusterDomain: values['cluster-domain'] }),
    ...(values['kube-dns-version'] === undefined ? {} : { kubeDnsVersion: values['kube-dns-version'] }),
  });
  if (!translation.ok) {
    reporter.diagnostics(translation.diagnostics);
    io.stderr.write('verify: the translation is refused, so there is no CoreDNS configuration to compare with (see the errors above)\n');
    return ExitCode.failed;
  }
  const clusterDomainName = clusterDomainOf(install, values['cluster-domain']);
  const probes = verifyProbes(install, translation, { clusterDomain: clusterDomainName, names: extra });
  if (printNames) {
    io.stdout.write(formatProbeNames(probes));
    return ExitCode.ok;
  }
  const ask = async (server: DnsServerAddress, probe: VerifyProbe): Promise<LiveAnswer> => {
    const response = await queryDns(server, probe.name, probe.type, { timeoutMs, tries });
    return { rcode: response.rcode, answers: response.answers };
  };
  // First occurrences at up to CONCURRENCY at a time; a repeated probe (the missing names) after them.
  const seen = new Set<string>();
  const order = probes.map((probe) => {
    const key = `${probe.name} ${probe.type}`;
    const repeat = seen.has(key);
    seen.add(key);
    return repeat;
  });
  const compareOne = async (probe: VerifyProbe) => {
    const [kubeDnsAnswer, coreDnsAnswer] = await Promise.all([ask(old as DnsServerAddress, probe), ask(current as DnsServerAddress, probe)]);
    return compareProbe(probe, kubeDnsAnswer, coreDnsAnswer, clusterDomainName, translation.diagnostics);
  };
  let comparisons;
  try {
    const first = await mapLimited(probes.filter((_, index) => !order[index]), CONCURRENCY, compareOne);
    const again = await mapLimited(probes.filter((_, index) => order[index]), CONCURRENCY, compareOne);
    comparisons = [...first, ...again];
  } catch (error) {
    if (error instanceof DnsUnreachable) {
      io.stderr.write(`kube-dns-to-coredns: verify: ${error.message}\n`);
      return ExitCode.usage;
    }
    throw error;
  }
  const report = verifyReport(comparisons);
  if (context.output === 'json') io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else io.stdout.write(formatVerifyReport(report));
  return report.ok ? ExitCode.ok : ExitCode.failed;
}
