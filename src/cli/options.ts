import { resolveCoreDnsRelease } from '../coredns/resolve-release.js';
import type { ResolvedCoreDnsRelease } from '../coredns/resolve-release.js';
import { isDns1123Subdomain, parseGoIP } from '../dns/go-net.js';
import { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';
import { GKE_COREDNS_READER, kubeDnsRules } from '../kubedns/kube-dns-versions.js';
import { commandPrefix } from './command.js';
import type { OptionSite, OptionSpec } from './command.js';
import { UsageError } from './usage-error.js';

/**
 * The typed option readers every command shares (docs/cli.md, "Adding a command"). Each is an
 * {@link OptionSpec}: how the option is written (`string` or `boolean`) and how its text becomes
 * the value `run` gets. Values are read once, in the preamble, before any input is read; a bad
 * value is a {@link UsageError} naming the command and the option (`lint: --coredns: …`).
 */

/** `lint: --coredns: message`. */
function refuse(site: OptionSite, message: string): UsageError {
  return new UsageError(`${commandPrefix(site.command)}${site.option}: ${message}`);
}

/**
 * `read(text)` for the text of an option; an input error of the library (an unknown version)
 * becomes a {@link UsageError} naming the option: `lint: --coredns: message`.
 */
function readWith<T>(site: OptionSite, text: string, read: (text: string) => T): T {
  try {
    return read(text);
  } catch (error) {
    if (!(error instanceof KubeDnsToCoreDnsError) || error.category !== 'input') throw error;
    throw refuse(site, error.message);
  }
}

/** A string option: `read` turns its text into the value; absent, the value is `undefined`. */
export function stringOption<T>(read: (text: string, site: OptionSite) => T, short?: string): OptionSpec<T | undefined> {
  return { type: 'string', ...(short === undefined ? {} : { short }), parse: (given, site) => (typeof given === 'string' ? read(given, site) : undefined) };
}

/** A string option taken as written (a FILE, a NAME): `undefined` when absent. */
export function text(short?: string): OptionSpec<string | undefined> {
  return stringOption((value) => value, short);
}

/** A switch: `true` when given. */
export function flag(short?: string): OptionSpec<boolean> {
  return { type: 'boolean', ...(short === undefined ? {} : { short }), parse: (given) => given === true };
}

/** A string option that may be given several times: its values in order (none when absent). */
export function repeated(): OptionSpec<readonly string[]> {
  return { type: 'string', multiple: true, parse: (given) => (Array.isArray(given) ? given : []) };
}

/**
 * A CoreDNS release (`--coredns`, `--from`, `--to`), in the one grammar the library reads too
 * ({@link resolveCoreDnsRelease}): `1.8.0`, `v1.8.0`, `1.8.7-eksbuild.3`, an image reference, a
 * release newer than the newest known. The resolved release is passed on as it is, so that the
 * library does not read the text again and reports the same notices.
 */
export function release(): OptionSpec<ResolvedCoreDnsRelease | undefined> {
  return stringOption((value, site) => {
    const resolved = resolveCoreDnsRelease(value);
    if (!resolved.ok) throw refuse(site, resolved.error.message);
    return resolved;
  });
}

/** A cluster domain as kube-dns accepts it (`--domain`): a DNS-1123 subdomain, trailing dot allowed (and dropped). */
export function clusterDomain(): OptionSpec<string | undefined> {
  return stringOption((domain, site) => {
    const bare = domain.endsWith('.') ? domain.slice(0, -1) : domain;
    if (!isDns1123Subdomain(bare.toLowerCase())) throw new UsageError(`${commandPrefix(site.command)}${site.option} '${domain}' is not a DNS-1123 subdomain`);
    return bare;
  });
}

/** A port, 1 to 65535, in canonical form (`053` → `53`). */
export function port(): OptionSpec<string | undefined> {
  return stringOption((value, site) => {
    if (!/^[0-9]{1,5}$/.test(value) || Number(value) < 1 || Number(value) > 65535) {
      throw new UsageError(`${commandPrefix(site.command)}${site.option} must be a number from 1 to 65535, not '${value}'`);
    }
    return String(Number(value));
  });
}

/** `--kube-dns-version`: a release whose rules are known, normalised (`v1.14.13` → `1.14.13`), or `gke-coredns`. */
export function kubeDnsVersion(): OptionSpec<string | undefined> {
  return stringOption((value, site) => readWith(site, value, (version) => (kubeDnsRules(version).reader === 'kube-dns' ? kubeDnsRules(version).version : GKE_COREDNS_READER)));
}

/** An IP address (`--upstream-ip`). */
export function ipAddress(): OptionSpec<string | undefined> {
  return stringOption((value, site) => {
    if (parseGoIP(value) === undefined) throw refuse(site, `'${value}' is not an IP address`);
    return value;
  });
}

/** IP addresses separated by commas (`--local-ip`, node-cache's `-localip`): every part an IP address (node-cache does not start otherwise). */
export function ipAddressList(): OptionSpec<string | undefined> {
  return stringOption((value, site) => {
    for (const part of value.split(',')) {
      if (parseGoIP(part) === undefined) throw refuse(site, `'${part}' is not an IP address (node-cache does not start with it)`);
    }
    return value;
  });
}

/** A number from `min` to `max` (`--ndots`). */
export function integer(min: number, max: number): OptionSpec<number | undefined> {
  return stringOption((value, site) => {
    if (!/^[0-9]{1,6}$/.test(value) || Number(value) < min || Number(value) > max) {
      throw new UsageError(`${commandPrefix(site.command)}${site.option} must be a number from ${min} to ${max}, not '${value}'`);
    }
    return Number(value);
  });
}

/** A value checked by a library reader (`--kubeadm-default-for` by the kubeadm profiles), kept as written. */
export function checkedText(check: (text: string) => unknown): OptionSpec<string | undefined> {
  return stringOption((value, site) => {
    readWith(site, value, check);
    return value;
  });
}

/** `read` for the value of an option outside the preamble (a release read once its mode is known): errors name the option. */
export function optionValue<T>(command: string, option: string, value: string, read: (text: string) => T): T {
  return readWith({ command, option }, value, read);
}
