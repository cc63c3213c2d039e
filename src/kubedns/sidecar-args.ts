/**
 * The `sidecar` container's arguments, read as the kube-dns sidecar reads them (kubernetes/dns,
 * cmd/sidecar/main.go): spf13/pflag with `_` read as `-`. Its `--probe` flags name the cluster
 * domain a second time (`kubernetes.default.svc.<domain>`).
 */
import { type FlagProblem, type FlagSetting, type FlagSpec, parseGoFlags } from './go-flags.js';
import { LOGGING_FLAGS } from './kubedns-args.js';

const SIDECAR_FLAGS: readonly FlagSpec[] = [
  { name: 'dnsmasq-addr', kind: 'value' },
  { name: 'dnsmasq-port', kind: 'value' },
  { name: 'dnsmasq-poll-interval-ms', kind: 'value' },
  { name: 'probe', kind: 'value' },
  { name: 'prometheus-addr', kind: 'value' },
  { name: 'prometheus-port', kind: 'value' },
  { name: 'prometheus-path', kind: 'value' },
  { name: 'prometheus-namespace', kind: 'value' },
  { name: 'version', kind: 'bool' },
];

export type ProbeType = 'ANY' | 'A' | 'AAAA' | 'SRV';

export interface Probe {
  readonly label: string;
  /** `host:port`; `:53` added when the text holds no `:`. */
  readonly server: string;
  /** The name queried, with a trailing dot added when missing. */
  readonly name: string;
  readonly intervalSeconds: number;
  readonly type: ProbeType;
}

/** The sidecar's reading of one `--probe` value: `label,server,name[,interval][,type]`. */
export function readProbe(value: string): Probe | { reason: string } {
  const parts = value.split(',');
  if (parts.length < 3 || parts.length > 5) return { reason: 'expected label,server,name[,interval_seconds][,type]' };
  const [label, server, name, interval, type] = parts as [string, string, string, string?, string?];
  if (!/^[a-zA-Z0-9_]+$/.test(label)) return { reason: `label "${label}" must be letters, digits and "_"` };
  let intervalSeconds = 5;
  if (interval !== undefined) {
    // Go's strconv.Atoi: optional sign, decimal digits.
    if (!/^[+-]?\d+$/.test(interval)) return { reason: `interval "${interval}" is not an integer` };
    intervalSeconds = Number(interval);
  }
  let probeType: ProbeType = 'ANY';
  if (type !== undefined) {
    if (type !== 'A' && type !== 'AAAA' && type !== 'ANY' && type !== 'SRV') return { reason: `type "${type}" is not one of ANY, A, AAAA, SRV` };
    probeType = type;
  }
  return {
    label,
    server: server.includes(':') ? server : `${server}:53`,
    name: name.endsWith('.') ? name : `${name}.`,
    intervalSeconds,
    type: probeType,
  };
}

export interface SidecarArgs {
  readonly probes: readonly { readonly setting: FlagSetting; readonly probe: Probe }[];
  readonly otherSettings: readonly FlagSetting[];
  /** `--probe` values the sidecar refuses (it exits on them). */
  readonly invalid: readonly { readonly setting: FlagSetting; readonly reason: string }[];
  readonly positional: readonly { readonly index: number; readonly value: string }[];
  readonly problem: FlagProblem | undefined;
}

/** The sidecar's arguments (without the program name). */
export function parseSidecarArgs(args: readonly string[]): SidecarArgs {
  const parsed = parseGoFlags(args, [...SIDECAR_FLAGS, ...LOGGING_FLAGS], 'pflag');
  const probes: { setting: FlagSetting; probe: Probe }[] = [];
  const otherSettings: FlagSetting[] = [];
  const invalid: { setting: FlagSetting; reason: string }[] = [];
  for (const setting of parsed.settings) {
    if (setting.name !== 'probe') {
      otherSettings.push(setting);
      continue;
    }
    const probe = readProbe(setting.value);
    if ('reason' in probe) invalid.push({ setting, reason: probe.reason });
    else probes.push({ setting, probe });
  }
  return { probes, otherSettings, invalid, positional: parsed.positional, problem: parsed.problem };
}
