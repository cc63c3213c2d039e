/**
 * The `kubedns` container's arguments, read as kube-dns reads them (kubernetes/dns,
 * cmd/kube-dns/app/options/options.go and cmd/kube-dns/dns.go): spf13/pflag with `_` read as `-`.
 * Every setting lands in one place: a typed value, a known flag this tool does not translate, a
 * value kube-dns refuses, or the first token that stops the program.
 */
import { isDns1123Label, isDns1123Subdomain } from '../dns/go-net.js';
import { type FlagProblem, type FlagSetting, type FlagSpec, goParseBool, goParseInt, parseGoFlags } from './go-flags.js';

/** The flags that decide where names are served and where queries go. */
const TRANSLATED: readonly FlagSpec[] = [
  { name: 'domain', kind: 'value' },
  { name: 'nameservers', kind: 'value' },
  { name: 'dns-port', kind: 'value' },
  { name: 'dns-bind-address', kind: 'value' },
  { name: 'federations', kind: 'value' },
  { name: 'config-dir', kind: 'value' },
  { name: 'config-map', kind: 'value' },
  { name: 'config-map-namespace', kind: 'value' },
];

/** kube-dns's other flags: how it reaches the API server, its probes, its timers. */
const OTHER: readonly FlagSpec[] = [
  { name: 'kubecfg-file', kind: 'value' },
  { name: 'kube-master-url', kind: 'value' },
  { name: 'healthz-port', kind: 'value' },
  { name: 'initial-sync-timeout', kind: 'value' },
  { name: 'config-period', kind: 'value' },
  { name: 'profiling', kind: 'bool' },
  { name: 'version', kind: 'bool' },
];

/**
 * Logging flags. Release 1.26.7 registers `v`, `vmodule` and `log-flush-frequency` (k8s.io/component-base
 * logs); older releases registered all of klog's (or glog's) flags, which manifests still pass
 * (`--logtostderr`). All are accepted here as logging settings.
 */
export const LOGGING_FLAGS: readonly FlagSpec[] = [
  { name: 'v', kind: 'value' },
  { name: 'vmodule', kind: 'value' },
  { name: 'log-flush-frequency', kind: 'value' },
  { name: 'logtostderr', kind: 'bool' },
  { name: 'alsologtostderr', kind: 'bool' },
  { name: 'log-dir', kind: 'value' },
  { name: 'log-file', kind: 'value' },
  { name: 'log-file-max-size', kind: 'value' },
  { name: 'stderrthreshold', kind: 'value' },
  { name: 'log-backtrace-at', kind: 'value' },
  { name: 'add-dir-header', kind: 'bool' },
  { name: 'skip-headers', kind: 'bool' },
  { name: 'skip-log-headers', kind: 'bool' },
  { name: 'one-output', kind: 'bool' },
];

export interface KubeDnsFlagValues {
  /** `--domain`, as kube-dns stores it: with one trailing dot. */
  readonly domain?: string;
  /** `--nameservers`: the comma-separated list as written. */
  readonly nameservers?: string;
  readonly dnsPort?: number;
  readonly dnsBindAddress?: string;
  /** `--federations`: name → domain; repeated flags add to one map. */
  readonly federations?: ReadonlyMap<string, string>;
  readonly configDir?: string;
  readonly configMap?: string;
  readonly configMapNamespace?: string;
}

/** A setting kube-dns refuses: it exits before serving. */
export interface InvalidSetting {
  readonly setting: FlagSetting;
  readonly reason: string;
}

export interface KubeDnsArgs {
  /** The last value of each flag that decides serving and forwarding. */
  readonly values: KubeDnsFlagValues;
  /** Known flags that do not bear on the Corefile (API access, probes, timers, logging). */
  readonly otherSettings: readonly FlagSetting[];
  readonly invalid: readonly InvalidSetting[];
  /** Arguments that are not flags: kube-dns accepts and ignores them. */
  readonly positional: readonly { readonly index: number; readonly value: string }[];
  /** An unknown flag, a flag without its value, bad syntax or `--help`: kube-dns exits on it. */
  readonly problem: FlagProblem | undefined;
  /**
   * The last setting of each flag, valid or not, by its declared name: how and where it was written
   * (`index` into the arguments, `separateValue`), so that nothing splits the arguments again.
   */
  readonly lastSettings: ReadonlyMap<string, FlagSetting>;
}

/** kube-dns's reading of `--domain`: drop one trailing dot, every label a DNS-1123 label, store with a dot. */
export function readDomainFlag(value: string): { domain: string } | { reason: string } {
  const trimmed = value.endsWith('.') ? value.slice(0, -1) : value;
  const bad = trimmed.split('.').find((label) => !isDns1123Label(label));
  if (bad !== undefined) return { reason: `"${bad}" is not a DNS-1123 label (lower-case letters, digits and "-", 1-63 characters)` };
  return { domain: `${trimmed}.` };
}

/** kube-dns's reading of one `--federations` value into `into`: `name=domain` pairs separated by commas. */
export function readFederationsFlag(value: string, into: Map<string, string>): string | undefined {
  if (value.trim() === '') return undefined;
  for (const pair of value.split(',')) {
    const trimmed = pair.trim();
    const equals = trimmed.indexOf('=');
    if (equals === -1) return `"${trimmed}" is not name=domain`;
    const name = trimmed.slice(0, equals).trim();
    const domain = trimmed.slice(equals + 1).trim();
    if (!isDns1123Label(name)) return `"${name}" is not a valid federation name (a DNS-1123 label)`;
    if (!isDns1123Subdomain(domain)) return `"${domain}" is not a valid federation domain (a DNS-1123 subdomain)`;
    into.set(name, domain);
  }
  return undefined;
}

/** kube-dns's arguments (without the program name). */
export function parseKubeDnsArgs(args: readonly string[]): KubeDnsArgs {
  const parsed = parseGoFlags(args, [...TRANSLATED, ...OTHER, ...LOGGING_FLAGS], 'pflag');
  const values: { -readonly [K in keyof KubeDnsFlagValues]: KubeDnsFlagValues[K] } = {};
  const otherSettings: FlagSetting[] = [];
  const invalid: InvalidSetting[] = [];
  const federations = new Map<string, string>();
  const port = (setting: FlagSetting): number | undefined => {
    const value = goParseInt(setting.value);
    if (value === undefined) invalid.push({ setting, reason: `"${setting.value}" is not an integer` });
    return value;
  };
  const lastSettings = new Map<string, FlagSetting>();
  for (const setting of parsed.settings) {
    lastSettings.set(setting.name, setting);
    switch (setting.name) {
      case 'domain': {
        const domain = readDomainFlag(setting.value);
        if ('reason' in domain) invalid.push({ setting, reason: domain.reason });
        else values.domain = domain.domain;
        break;
      }
      case 'nameservers':
        values.nameservers = setting.value;
        break;
      case 'dns-port': {
        const value = port(setting);
        if (value !== undefined) values.dnsPort = value;
        break;
      }
      case 'dns-bind-address':
        values.dnsBindAddress = setting.value;
        break;
      case 'federations': {
        const reason = readFederationsFlag(setting.value, federations);
        if (reason !== undefined) invalid.push({ setting, reason });
        values.federations = federations;
        break;
      }
      case 'config-dir':
        values.configDir = setting.value;
        break;
      case 'config-map':
        values.configMap = setting.value;
        break;
      case 'config-map-namespace':
        values.configMapNamespace = setting.value;
        break;
      case 'profiling':
        if (goParseBool(setting.value) === undefined) invalid.push({ setting, reason: `"${setting.value}" is not a boolean` });
        otherSettings.push(setting);
        break;
      default:
        otherSettings.push(setting);
    }
  }
  return { values, otherSettings, invalid, positional: parsed.positional, problem: parsed.problem, lastSettings };
}
