import { parseCoreDnsVersion } from '../../coredns/versions.js';
import { parseGoIP } from '../../dns/go-net.js';
import { translateKubeDnsInstall } from '../../translate/translate.js';
import { clusterDomainOf, compareProbe, formatProbeNames, formatVerifyReport, parseProbeNames, verifyProbes, verifyReport } from '../../verify/probes.js';
import type { LiveAnswer, VerifyProbe } from '../../verify/probes.js';
import { DnsUnreachable, mapLimited, queryDns } from '../dns-client.js';
import type { DnsServerAddress } from '../dns-client.js';
import { optionValue } from '../errors.js';
import type { CliIo } from '../io.js';
import { parseCommandArgs } from '../parse-command-args.js';
import { INPUT_LIMITS, readSource } from '../read-source.js';
import { ExitCode, UsageError } from '../usage-error.js';
import { writeDiagnostics } from '../write-diagnostics.js';
import { readKubeDnsInstallInput } from './install-input.js';

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
  --timeout MS              per query and try (default 2000); --tries N (default 3)
  -o, --output FORMAT       text (default) or json
  -h, --help                show this help

At most 300 names, 8 queries at a time. Exit status: 0 every answer agrees or every
difference is expected, 1 an unexpected difference, 2 bad usage, unreadable input, or a server
that does not answer (after the tries).
`;

const OUTPUTS = ['text', 'json'] as const;
const CONCURRENCY = 8;

function serverAddress(option: string, text: string): DnsServerAddress {
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

function positiveInteger(option: string, text: string | undefined, fallback: number, maximum: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!/^[0-9]+$/.test(text) || value < 1 || value > maximum) throw new UsageError(`verify: ${option} must be a whole number from 1 to ${maximum}, not '${text}'`);
  return value;
}

/** `kube-dns-to-coredns verify`: see {@link VERIFY_HELP}. */
export async function runVerify(args: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs('verify', args, {
    allowPositionals: false,
    options: {
      'kube-dns': { type: 'string' },
      old: { type: 'string' },
      new: { type: 'string' },
      names: { type: 'string' },
      'print-names': { type: 'boolean', default: false },
      coredns: { type: 'string' },
      'cluster-domain': { type: 'string' },
      timeout: { type: 'string' },
      tries: { type: 'string' },
      output: { type: 'string', short: 'o' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    io.stdout.write(VERIFY_HELP);
    return ExitCode.ok;
  }
  if (values['kube-dns'] === undefined) throw new UsageError("verify: --kube-dns INSTALL is required; see 'verify --help'");
  const output = values.output ?? 'text';
  if (!(OUTPUTS as readonly string[]).includes(output)) throw new UsageError(`verify: --output must be one of ${OUTPUTS.join(', ')}, not '${output}'`);
  const printNames = values['print-names'] === true;
  if (!printNames && (values.old === undefined || values.new === undefined)) throw new UsageError("verify: --old ADDR and --new ADDR are required (or --print-names); see 'verify --help'");
  const old = values.old === undefined ? undefined : serverAddress('--old', values.old);
  const current = values.new === undefined ? undefined : serverAddress('--new', values.new);
  const timeoutMs = positiveInteger('--timeout', values.timeout, 2000, 60_000);
  const tries = positiveInteger('--tries', values.tries, 3, 10);
  const coredns = values.coredns === undefined ? undefined : optionValue('verify', '--coredns', values.coredns, parseCoreDnsVersion);
  const install = await readKubeDnsInstallInput(values['kube-dns'], {}, undefined, io);
  const extra = values.names === undefined ? [] : parseProbeNames((await readSource(values.names, io, INPUT_LIMITS.configMap)).text);
  const translation = translateKubeDnsInstall(install, { ...(coredns === undefined ? {} : { coredns }), ...(values['cluster-domain'] === undefined ? {} : { clusterDomain: values['cluster-domain'] }) });
  if (!translation.ok) {
    writeDiagnostics(translation, io);
    io.stderr.write('verify: the translation is refused, so there is no CoreDNS configuration to compare with (see the errors above)\n');
    return ExitCode.failed;
  }
  const clusterDomain = clusterDomainOf(install, values['cluster-domain']);
  const probes = verifyProbes(install, translation, { clusterDomain, names: extra });
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
    return compareProbe(probe, kubeDnsAnswer, coreDnsAnswer, clusterDomain, translation.diagnostics);
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
  if (output === 'json') io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else io.stdout.write(formatVerifyReport(report));
  return report.ok ? ExitCode.ok : ExitCode.failed;
}
