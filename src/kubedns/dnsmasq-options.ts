/**
 * dnsmasq's command line as dnsmasq 2.90 reads it (GNU getopt_long over its option table, then
 * its own value syntax). Typed results for the options that decide where queries go; every other
 * option is named with its value, and whatever dnsmasq would refuse is reported with the reason.
 */

/**
 * dnsmasq 2.90's options: `long:short:argument` with the argument `n` none, `r` required, `o`
 * optional (given only as `--name=value` or `-xvalue`). Listed by `dnsmasq --help` of that release;
 * `log-queries` takes an optional `=extra` the help text does not show.
 */
const OPTION_TABLE =
  'listen-address:a:r address:A:r bogus-priv:b:n bogus-nxdomain:B:r cache-size:c:r conf-file:C:r ' +
  'no-daemon:d:n domain-needed:D:n selfmx:e:n expand-hosts:E:n filterwin2k:f:n filter-A::n filter-AAAA::n ' +
  'filter-rr::r dhcp-range:F:r group:g:r dhcp-host:G:r dhcp-hostsfile::r dhcp-optsfile::r dhcp-hostsdir::r ' +
  'dhcp-optsdir::r tag-if::r no-hosts:h:n addn-hosts:H:r hostsdir::r interface:i:r except-interface:I:r ' +
  'dhcp-userclass:j:r dhcp-circuitid::r dhcp-remoteid::r dhcp-subscrid::r dhcp-pxe-vendor::r dhcp-ignore:J:r ' +
  'dhcp-broadcast::o keep-in-foreground:k:n dhcp-authoritative:K:n dhcp-leasefile:l:r localmx:L:n mx-host:m:r ' +
  'dhcp-boot:M:r no-poll:n:n no-negcache:N:n use-stale-cache::o strict-order:o:n dhcp-option:O:r ' +
  'dhcp-option-force::r port:p:r edns-packet-max:P:r log-queries:q:o query-port:Q:r port-limit::r ' +
  'no-resolv:R:n resolv-file:r:r servers-file::r server:S:r rev-server::r local::r domain:s:r mx-target:t:r ' +
  'local-ttl:T:r neg-ttl::r max-ttl::r max-cache-ttl::r min-cache-ttl::r fast-dns-retry::r user:u:r ' +
  'dhcp-vendorclass:U:r version:v:n alias:V:r srv-host:W:r help:w:n pid-file:x:r dhcp-lease-max:X:r ' +
  'localise-queries:y:n txt-record:Y:r ptr-record::r interface-name::r bind-interfaces:z:n read-ethers:Z:n ' +
  'enable-dbus:1:o enable-ubus::o no-dhcp-interface:2:r no-dhcpv6-interface::r no-dhcpv4-interface::r ' +
  'bootp-dynamic:3:o dhcp-mac:4:r bridge-interface::r shared-network::r no-ping:5:n dhcp-script:6:r ' +
  'dhcp-luascript::r dhcp-scriptuser::r script-arp::n conf-dir:7:r conf-script::r log-facility:8:r ' +
  'leasefile-ro:9:n dns-forward-max:0:r clear-on-reload::n dhcp-ignore-names::o dhcp-no-override::n ' +
  'enable-tftp::o tftp-root::r tftp-unique-root::o tftp-secure::n tftp-no-fail::n tftp-max::r tftp-mtu::r ' +
  'tftp-no-blocksize::n tftp-lowercase::n tftp-port-range::r tftp-single-port::n log-dhcp::n log-async::o ' +
  'stop-dns-rebind::n rebind-localhost-ok::n rebind-domain-ok::r all-servers::n dhcp-match::r ' +
  'dhcp-name-match::r dhcp-alternate-port::o naptr-record::r min-port::r max-port::r dhcp-fqdn::n ' +
  'dhcp-generate-names::o dhcp-proxy::o dhcp-relay::r cname::r pxe-prompt::r pxe-service::r test::n ' +
  'add-mac::o strip-mac::n add-subnet::r strip-subnet::n add-cpe-id::r proxy-dnssec::n dhcp-sequential-ip::n ' +
  'dhcp-ignore-clid::n conntrack::n dhcp-client-update::n enable-ra::n dhcp-duid::r host-record::r ' +
  'dynamic-host::r caa-record::r dns-rr::r bind-dynamic::n auth-server::r auth-zone::r auth-ttl::r ' +
  'auth-soa::r auth-sec-servers::r auth-peer::r ipset::r nftset::r connmark-allowlist-enable::o ' +
  'connmark-allowlist::r synth-domain::r dnssec::n trust-anchor::r dnssec-debug::n dnssec-check-unsigned::n ' +
  'dnssec-no-timecheck::n dnssec-timestamp::r dnssec-limits::r ra-param::r quiet-dhcp::n quiet-dhcp6::n ' +
  'quiet-ra::n log-debug::n local-service::n dns-loop-detect::n ignore-address::r dhcp-ttl::r ' +
  'dhcp-reply-delay::r dhcp-rapid-commit::n dumpfile::r dumpmask::r script-on-renewal::n umbrella::o ' +
  'quiet-tftp::n no-round-robin::n no-ident::n cache-rr::r max-tcp-connections::r';
type ArgumentKind = 'none' | 'required' | 'optional';

interface OptionSpec {
  readonly name: string;
  readonly short: string | undefined;
  readonly argument: ArgumentKind;
}

/** The table read into specs, by long and short name: made the first time dnsmasq arguments are read (a ConfigMap alone has none). */
interface OptionIndex {
  readonly all: readonly OptionSpec[];
  readonly byName: ReadonlyMap<string, OptionSpec>;
  readonly byShort: ReadonlyMap<string, OptionSpec>;
}

let optionIndex: OptionIndex | undefined;

function optionSpecs(): OptionIndex {
  if (optionIndex === undefined) {
    const all: readonly OptionSpec[] = OPTION_TABLE.split(' ').map((entry) => {
      const [name, short, argument] = entry.split(':') as [string, string, string];
      return { name, short: short === '' ? undefined : short, argument: argument === 'n' ? 'none' : argument === 'r' ? 'required' : 'optional' };
    });
    const byName = new Map(all.map((option) => [option.name, option]));
    const byShort = new Map(all.filter((option) => option.short !== undefined).map((option) => [option.short as string, option]));
    optionIndex = { all, byName, byShort };
  }
  return optionIndex;
}

/** One option as getopt hands it over: the long name, the value if any, where it was. */
export interface DnsmasqOption {
  readonly name: string;
  readonly value: string | undefined;
  /** Index of the token that names the option. */
  readonly index: number;
  /** The token(s) as written. */
  readonly text: string;
}

/** Where a `--server` sends queries. */
export type ServerTarget =
  /** An upstream: IPv4 read the way inet_aton reads it (octal, hex, short forms), IPv6 as written. */
  | {
      readonly kind: 'upstream';
      readonly address: string;
      readonly port: number;
      readonly source: string | undefined;
      /** The address as written (before `#port` and `@source`): `127.0.0.010` where `address` is `127.0.0.8`. */
      readonly written: string;
    }
  /** `/domain/` with nothing after it (or `--local`): answer from local data only, never forward. */
  | { readonly kind: 'local-only' }
  /** `/domain/#`: use the ordinary upstreams for these domains. */
  | { readonly kind: 'default-upstreams' }
  /** `--server=` with nothing at all: dnsmasq accepts it; what it does is not modelled here. */
  | { readonly kind: 'empty' };

export interface ServerEntry {
  readonly option: DnsmasqOption;
  /** The domains between slashes; undefined for a server without domains (used for all names). `''` is unqualified names. */
  readonly domains: readonly string[] | undefined;
  readonly target: ServerTarget;
  /** dnsmasq 2.86+ also applies this entry to names without a dot (see {@link trailingDotUnqualified}). */
  readonly trailingDotUnqualified: boolean;
}

export interface AddressEntry {
  readonly option: DnsmasqOption;
  /** Undefined when the value has no `/domain/` part (dnsmasq accepts `--address=1.2.3.4`; its meaning is not modelled). */
  readonly domains: readonly string[] | undefined;
  /** The address answered; undefined: `/domain/` alone (NXDOMAIN for those names), `#`: the null address. */
  readonly address: string | undefined;
  /** dnsmasq 2.86+ also applies this entry to names without a dot (see {@link trailingDotUnqualified}). */
  readonly trailingDotUnqualified: boolean;
}

export interface DnsmasqSettings {
  readonly servers: readonly ServerEntry[];
  readonly addresses: readonly AddressEntry[];
  readonly noResolv: boolean;
  readonly noNegcache: boolean;
  readonly strictOrder: boolean;
  readonly allServers: boolean;
  readonly logQueries: boolean;
  readonly domainNeeded: boolean;
  readonly cacheSize: number | undefined;
  readonly dnsForwardMax: number | undefined;
  readonly port: number | undefined;
  /** Known options not modelled here, with their values. */
  readonly otherOptions: readonly DnsmasqOption[];
  /** Options whose value dnsmasq refuses: it does not start. */
  readonly invalid: readonly { readonly option: DnsmasqOption; readonly reason: string }[];
  /** The first command-line error (unknown or ambiguous option, missing value, non-option token): dnsmasq does not start. */
  readonly problem: { readonly index: number; readonly token: string; readonly reason: string } | undefined;
  /**
   * Every option read, by its long name, as written (`-N` or `--no-negcache`, a value joined or in
   * the next token), in command-line order, whether its value was valid or not: how each setting
   * above was spelled, so that nothing splits the arguments again.
   */
  readonly spellings: ReadonlyMap<string, readonly DnsmasqOption[]>;
}

function findLong(name: string): OptionSpec | 'ambiguous' | undefined {
  const { all, byName } = optionSpecs();
  const exact = byName.get(name);
  if (exact !== undefined) return exact;
  // getopt_long accepts an unambiguous prefix of a long name.
  const matches = all.filter((option) => option.name.startsWith(name));
  if (matches.length === 1) return matches[0];
  return matches.length > 1 ? 'ambiguous' : undefined;
}

/**
 * The options dnsmasq 2.90 takes once on its command line (`ARG_ONE` in `src/option.c`'s usage
 * table): given twice, it stops with "illegal repeated flag" (checked with the real 2.90:
 * `--cache-size=1 --cache-size=2`, `--log-async --log-async`). `dhcp-lease` is `dhcp-leasefile`.
 */
const ONCE_ON_COMMAND_LINE: ReadonlySet<string> = new Set([
  'dns-forward-max', 'enable-dbus', 'dhcp-script', 'log-facility', 'edns-packet-max', 'query-port', 'local-ttl', 'dhcp-lease-max', 'cache-size',
  'group', 'dhcp-leasefile', 'port', 'mx-target', 'user', 'pid-file', 'add-subnet', 'dhcp-alternate-port', 'auth-server', 'auth-soa', 'auth-ttl',
  'connmark-allowlist-enable', 'add-cpe-id', 'dhcp-ttl', 'dnssec-limits', 'dnssec-timestamp', 'dhcp-duid', 'dumpfile', 'dumpmask', 'fast-dns-retry',
  'local-service', 'max-cache-ttl', 'max-port', 'max-ttl', 'log-async', 'max-tcp-connections', 'min-cache-ttl', 'min-port', 'neg-ttl', 'port-limit',
  'dhcp-reply-delay', 'dhcp-scriptuser', 'servers-file', 'use-stale-cache', 'tftp-port-range', 'tftp-max', 'tftp-mtu', 'enable-ubus', 'umbrella',
]);

/** dnsmasq reads the options in order: a second one of an option it takes once stops it there. */
function stopAtRepeated(split: { options: DnsmasqOption[]; problem: DnsmasqSettings['problem'] }): { options: DnsmasqOption[]; problem: DnsmasqSettings['problem'] } {
  const seen = new Set<string>();
  for (const [position, option] of split.options.entries()) {
    const name = option.name === 'dhcp-lease' ? 'dhcp-leasefile' : option.name;
    if (!ONCE_ON_COMMAND_LINE.has(name)) continue;
    if (seen.has(name)) return { options: split.options.slice(0, position), problem: { index: option.index, token: option.text, reason: `illegal repeated flag (--${name} is taken once)` } };
    seen.add(name);
  }
  return split;
}

/** The options in `args` (dnsmasq's argv without its name), as getopt_long splits them. */
export function splitDnsmasqOptions(args: readonly string[]): { options: DnsmasqOption[]; problem: DnsmasqSettings['problem'] } {
  const options: DnsmasqOption[] = [];
  let index = 0;
  while (index < args.length) {
    const token = args[index] as string;
    if (token === '--') {
      // Anything after `--` is a non-option argument, which dnsmasq refuses.
      if (index + 1 < args.length) return { options, problem: { index: index + 1, token: args[index + 1] as string, reason: 'junk found in command line' } };
      break;
    }
    if (token.startsWith('--')) {
      const body = token.slice(2);
      const equals = body.indexOf('=');
      const name = equals === -1 ? body : body.slice(0, equals);
      const spec = findLong(name);
      if (spec === undefined || spec === 'ambiguous') {
        return { options, problem: { index, token, reason: spec === 'ambiguous' ? `--${name} is ambiguous` : `unknown option --${name}` } };
      }
      if (equals !== -1) {
        if (spec.argument === 'none') return { options, problem: { index, token, reason: `--${spec.name} takes no value` } };
        options.push({ name: spec.name, value: body.slice(equals + 1), index, text: token });
        index += 1;
      } else if (spec.argument === 'required') {
        if (index + 1 >= args.length) return { options, problem: { index, token, reason: `--${spec.name} needs a value` } };
        options.push({ name: spec.name, value: args[index + 1], index, text: `${token} ${args[index + 1] as string}` });
        index += 2;
      } else {
        options.push({ name: spec.name, value: undefined, index, text: token });
        index += 1;
      }
      continue;
    }
    if (token.startsWith('-') && token.length > 1) {
      // Short options cluster (`-kq`); one taking a value takes the rest of the token or the next one.
      let position = 1;
      let consumed = 1;
      while (position < token.length) {
        const letter = token[position] as string;
        const spec = optionSpecs().byShort.get(letter);
        if (spec === undefined) return { options, problem: { index, token, reason: `unknown option -${letter}` } };
        const rest = token.slice(position + 1);
        if (spec.argument === 'none') {
          options.push({ name: spec.name, value: undefined, index, text: token });
          position += 1;
          continue;
        }
        if (rest !== '') options.push({ name: spec.name, value: rest, index, text: token });
        else if (spec.argument === 'optional') options.push({ name: spec.name, value: undefined, index, text: token });
        else if (index + 1 < args.length) {
          options.push({ name: spec.name, value: args[index + 1], index, text: `${token} ${args[index + 1] as string}` });
          consumed = 2;
        } else return { options, problem: { index, token, reason: `-${letter} needs a value` } };
        break;
      }
      index += consumed;
      continue;
    }
    // getopt moves non-options to the end; dnsmasq then refuses them.
    return { options, problem: { index, token, reason: 'junk found in command line' } };
  }
  return { options, problem: undefined };
}

/**
 * An IPv4 address as glibc's inet_aton reads it, which dnsmasq's `--server` uses: one to four
 * dot-separated numbers, each decimal, octal with a leading `0` or hex with `0x`; the last number
 * fills the remaining bytes (`127.1` is 127.0.0.1). `127.0.0.010` is 127.0.0.8; `08` is refused.
 */
export function inetAton(text: string): string | undefined {
  const parts = text.split('.');
  if (parts.length > 4) return undefined;
  const numbers: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0[xX][0-9a-fA-F]+$/.test(part)) value = Number.parseInt(part.slice(2), 16);
    else if (/^0[0-7]*$/.test(part)) value = part.length === 1 ? 0 : Number.parseInt(part.slice(1), 8);
    else if (/^[1-9][0-9]*$/.test(part)) value = Number.parseInt(part, 10);
    else return undefined;
    if (!Number.isFinite(value) || value > 0xffffffff) return undefined;
    numbers.push(value);
  }
  const last = numbers.pop() as number;
  if (numbers.some((value) => value > 0xff) || last >= 2 ** (8 * (4 - numbers.length))) return undefined;
  const bytes = [...numbers];
  for (let shift = 8 * (3 - numbers.length); shift >= 0; shift -= 8) bytes.push(Math.floor(last / 2 ** shift) % 256);
  return bytes.join('.');
}

/** An IPv6 literal in inet_pton's syntax (hex groups, one `::`, an optional dotted IPv4 tail). */
function isIPv6(text: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(text) || !text.includes(':')) return false;
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groups = halves.flatMap((half) => (half === '' ? [] : half.split(':')));
  let count = 0;
  for (const [position, group] of groups.entries()) {
    if (position === groups.length - 1 && group.includes('.')) {
      if (!/^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/.test(group)) return false;
      count += 2;
    } else if (/^[0-9a-fA-F]{1,4}$/.test(group)) count += 1;
    else return false;
  }
  return halves.length === 2 ? count <= 7 : count === 8;
}

/** dnsmasq's unsigned decimal reading (digits only) of option values such as `--cache-size`. */
function readDecimal(text: string | undefined): number | undefined {
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined;
}

/** Splits `/a/b/rest` into its domains and the rest; undefined domains when the value does not start with `/`. */
function splitDomains(value: string): { domains: string[] | undefined; rest: string } {
  if (!value.startsWith('/')) return { domains: undefined, rest: value };
  const last = value.lastIndexOf('/');
  if (last === 0) return { domains: [value.slice(1)], rest: '' };
  return { domains: value.slice(1, last).split('/'), rest: value.slice(last + 1) };
}

/**
 * Whether dnsmasq 2.86 and later apply a `--server`/`--local`/`--address` with these domains to
 * names without a dot too (docs/kube-dns-deployment.md, "Domains that end in a dot"): it walks the
 * domains in the buffer it split them in, and dropping a domain's trailing dot there leaves an empty
 * domain before the next one, which it reads as `//` (names without a dot). So any domain but the
 * last that ends in a dot (after leading dots, or one leading `*`) counts; the last does not, and
 * `#` is left alone.
 */
function trailingDotUnqualified(domains: readonly string[] | undefined): boolean {
  if (domains === undefined) return false;
  return domains.slice(0, -1).some((domain) => {
    const stripped = domain.startsWith('.') ? domain.replace(/^\.+/, '') : domain.startsWith('*') ? domain.slice(1) : domain;
    return domain !== '#' && stripped !== '' && stripped.endsWith('.');
  });
}

/** A `--server` value's address part: `addr[#port][@source]`. */
function readUpstream(text: string): ServerTarget | { reason: string } {
  const [addressPart, ...sources] = text.split('@') as [string, ...string[]];
  const hash = addressPart.lastIndexOf('#');
  const host = hash === -1 ? addressPart : addressPart.slice(0, hash);
  const portText = hash === -1 ? '' : addressPart.slice(hash + 1);
  let port = 53;
  if (portText !== '') {
    const value = readDecimal(portText);
    if (value === undefined || value > 65535) return { reason: `bad port "${portText}"` };
    port = value;
  }
  const address = isIPv6(host) ? host.toLowerCase() : inetAton(host);
  if (address === undefined) return { reason: `"${host}" is not an IP address dnsmasq reads (it refuses names and bracketed IPv6 here)` };
  return { kind: 'upstream', address, port, source: sources.length === 0 ? undefined : sources.join('@'), written: host };
}

/** `--server` and its alias `--local` read their value the same way. */
function readServer(option: DnsmasqOption): ServerEntry | { reason: string } {
  const { domains, rest } = splitDomains(option.value ?? '');
  const unqualified = trailingDotUnqualified(domains);
  if (rest === '') return { option, domains, target: domains === undefined ? { kind: 'empty' } : { kind: 'local-only' }, trailingDotUnqualified: unqualified };
  if (rest === '#' && domains !== undefined) return { option, domains, target: { kind: 'default-upstreams' }, trailingDotUnqualified: unqualified };
  const target = readUpstream(rest);
  return 'reason' in target ? target : { option, domains, target, trailingDotUnqualified: unqualified };
}

function readAddress(option: DnsmasqOption): AddressEntry | { reason: string } {
  const { domains, rest } = splitDomains(option.value ?? '');
  const unqualified = trailingDotUnqualified(domains);
  if (rest === '' || rest === '#') return { option, domains, address: rest === '' ? undefined : '#', trailingDotUnqualified: unqualified };
  const address = isIPv6(rest) ? rest.toLowerCase() : inetAton(rest);
  if (address === undefined) return { reason: `"${rest}" is not an IP address` };
  return { option, domains, address, trailingDotUnqualified: unqualified };
}

/** dnsmasq's arguments (without the program name), read as dnsmasq 2.90 reads them. */
export function parseDnsmasqArgs(args: readonly string[]): DnsmasqSettings {
  const { options, problem } = stopAtRepeated(splitDnsmasqOptions(args));
  const servers: ServerEntry[] = [];
  const addresses: AddressEntry[] = [];
  const otherOptions: DnsmasqOption[] = [];
  const invalid: { option: DnsmasqOption; reason: string }[] = [];
  const flags = { noResolv: false, noNegcache: false, strictOrder: false, allServers: false, logQueries: false, domainNeeded: false };
  const numbers: { cacheSize?: number; dnsForwardMax?: number; port?: number } = {};
  const FLAG_OPTIONS: Record<string, keyof typeof flags> = {
    'no-resolv': 'noResolv',
    'no-negcache': 'noNegcache',
    'strict-order': 'strictOrder',
    'all-servers': 'allServers',
    'log-queries': 'logQueries',
    'domain-needed': 'domainNeeded',
  };
  const NUMBER_OPTIONS: Record<string, keyof typeof numbers> = { 'cache-size': 'cacheSize', 'dns-forward-max': 'dnsForwardMax', port: 'port' };
  const spellings = new Map<string, DnsmasqOption[]>();
  for (const option of options) {
    // Appended in place: copying the list per option was quadratic (20,000 --server flags: 13 s).
    const spelled = spellings.get(option.name);
    if (spelled === undefined) spellings.set(option.name, [option]);
    else spelled.push(option);
    const flag = FLAG_OPTIONS[option.name];
    const number = NUMBER_OPTIONS[option.name];
    if (option.name === 'server' || option.name === 'local') {
      const entry = readServer(option);
      if ('reason' in entry) invalid.push({ option, reason: entry.reason });
      else servers.push(entry);
    } else if (option.name === 'address') {
      const entry = readAddress(option);
      if ('reason' in entry) invalid.push({ option, reason: entry.reason });
      else addresses.push(entry);
    } else if (flag !== undefined) {
      flags[flag] = true;
    } else if (number !== undefined) {
      const value = readDecimal(option.value);
      if (value === undefined || (number === 'port' && value > 65535)) invalid.push({ option, reason: `"${option.value ?? ''}" is not a decimal number in range` });
      else numbers[number] = value;
    } else {
      otherOptions.push(option);
    }
  }
  return {
    servers,
    addresses,
    ...flags,
    cacheSize: numbers.cacheSize,
    dnsForwardMax: numbers.dnsForwardMax,
    port: numbers.port,
    otherOptions,
    invalid,
    problem,
    spellings,
  };
}
