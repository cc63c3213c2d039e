import { checkArgument } from '../errors/arguments.js';
import { formatGoIP } from '../dns/go-net.js';
import { readForwardTarget } from '../coredns/forward-targets.js';
import { displayName } from '../dns/names.js';

/**
 * Who answers a query name: the vocabulary shared by the kube-dns model and the CoreDNS model, so
 * that the two can be compared.
 *
 * Equivalence ({@link sameDestination}) is equality of {@link destinationKey}:
 * - `cluster`: kubedns under kube-dns, the `kubernetes` plugin under CoreDNS. `otherwise` is where
 *   a name the cluster does not know goes next (kubedns forwards reverse lookups it cannot answer to
 *   its upstreams; CoreDNS's `fallthrough` passes NXDOMAIN to the next plugin); absent, the
 *   cluster's NXDOMAIN is final. `federation` is set for a federation-shaped name answered with a
 *   CNAME into that federation domain.
 * - `servers`: a set of nameservers, compared as a set of socket addresses (`1.2.3.4:53`,
 *   `[2001:db8::1]:53`, `ns.example.com:53` for a name resolved at startup, `tls://1.2.3.4:853`),
 *   because dnsmasq and CoreDNS's `forward` both pick among them. The member `resolv.conf` stands
 *   for the node's resolv.conf nameservers when mixed with addresses.
 * - `resolv.conf`: the nameservers of the node's `/etc/resolv.conf` (kube-dns without
 *   upstreamNameservers, CoreDNS `forward . /etc/resolv.conf`; both pods run with
 *   `dnsPolicy: Default`, so it is the same file).
 * - `any-of`: several destinations that dnsmasq chooses among (a stub domain equal to the cluster
 *   domain); equal when the members are.
 * - `plugin`: another CoreDNS plugin answers (hosts, file, template…), by name.
 * - `refused`, `servfail`: CoreDNS has no server block for the name, or a block where no plugin
 *   answers it.
 *
 * Pure: no Node APIs.
 */
export type RouteDestination =
  | ClusterDestination
  | ServersDestination
  | ResolvConfDestination
  | AnyOfDestination
  | PluginDestination
  | RefusedDestination
  | ServfailDestination;

export interface ClusterDestination {
  readonly kind: 'cluster';
  /** The cluster domain the name is answered in; absent for the reverse zones. */
  readonly zone?: string;
  /** Where names the cluster does not know go next; absent when the cluster's NXDOMAIN is final. */
  readonly otherwise?: RouteDestination;
  /** The federation domain the answer points into, for a federation query. */
  readonly federation?: string;
}

export interface ServersDestination {
  readonly kind: 'servers';
  /** Socket addresses, sorted and without duplicates. */
  readonly servers: readonly string[];
}

export interface ResolvConfDestination {
  readonly kind: 'resolv.conf';
}

export interface AnyOfDestination {
  readonly kind: 'any-of';
  /** Sorted by key, without duplicates. */
  readonly destinations: readonly RouteDestination[];
}

export interface PluginDestination {
  readonly kind: 'plugin';
  readonly plugin: string;
  /** Where names the plugin does not answer go (its `fallthrough`); absent when its answer is final. */
  readonly otherwise?: RouteDestination;
}

export interface RefusedDestination {
  readonly kind: 'refused';
}

export interface ServfailDestination {
  readonly kind: 'servfail';
}

/** A destination with the reason it was chosen (`stub domain acme.local`, `block acme.local:53 > forward`). */
export interface Route {
  readonly destination: RouteDestination;
  readonly via: string;
}

export const RESOLV_CONF: ResolvConfDestination = Object.freeze({ kind: 'resolv.conf' });
export const REFUSED: RefusedDestination = Object.freeze({ kind: 'refused' });
export const SERVFAIL: ServfailDestination = Object.freeze({ kind: 'servfail' });

/** The member of a server set that stands for the node's resolv.conf. */
export const RESOLV_CONF_MEMBER = 'resolv.conf';

/** A server set; a set holding only {@link RESOLV_CONF_MEMBER} is {@link RESOLV_CONF}. */
export function serversDestination(servers: Iterable<string>): ServersDestination | ResolvConfDestination {
  const unique = [...new Set(servers)].sort();
  if (unique.length === 1 && unique[0] === RESOLV_CONF_MEMBER) return RESOLV_CONF;
  return { kind: 'servers', servers: unique };
}

/** Several destinations dnsmasq chooses among; a single one is itself. */
export function anyOf(destinations: readonly RouteDestination[]): RouteDestination {
  const byKey = new Map(destinations.map((destination) => [destinationKey(destination), destination]));
  const keys = [...byKey.keys()].sort();
  if (keys.length === 1) return byKey.get(keys[0] as string) as RouteDestination;
  return { kind: 'any-of', destinations: keys.map((key) => byKey.get(key) as RouteDestination) };
}

/**
 * The links of a chain of `otherwise` (a destination, what it passes on to, …), first to last:
 * walked with a loop, as a block may chain any number of plugins that fall through.
 */
function chain(destination: RouteDestination): RouteDestination[] {
  const links: RouteDestination[] = [destination];
  for (let link = destination; (link.kind === 'cluster' || link.kind === 'plugin') && link.otherwise !== undefined; link = link.otherwise) {
    links.push(link.otherwise);
  }
  return links;
}

/** A canonical text for `destination`: two destinations are the same exactly when their keys are. */
export function destinationKey(destination: RouteDestination): string {
  checkArgument('destinationKey', 'destination', destination, 'object');
  return chain(destination).map(linkKey).join('>');
}

/** The key of one link, without what it passes on to. */
function linkKey(destination: RouteDestination): string {
  switch (destination.kind) {
    case 'cluster': {
      const zone = destination.zone === undefined ? '' : `@${displayName(destination.zone)}`;
      const federation = destination.federation === undefined ? '' : `[federation=${destination.federation}]`;
      return `cluster${zone}${federation}`;
    }
    case 'servers':
      return `servers(${destination.servers.join(',')})`;
    case 'any-of':
      return `any-of(${destination.destinations.map(destinationKey).join('|')})`;
    case 'plugin':
      return `plugin:${destination.plugin}`;
    default:
      return destination.kind;
  }
}

/** Whether two destinations are the same (see {@link RouteDestination} for the rules). */
export function sameDestination(a: RouteDestination, b: RouteDestination): boolean {
  checkArgument('sameDestination', 'a', a, 'object');
  checkArgument('sameDestination', 'b', b, 'object');
  return destinationKey(a) === destinationKey(b);
}

/** One line for people: `cluster, else 8.8.8.8:53`, `10.0.0.1:53 10.0.0.2:53`, `REFUSED`. */
export function describeDestination(destination: RouteDestination): string {
  checkArgument('describeDestination', 'destination', destination, 'object');
  return chain(destination).map(describeLink).join(', else ');
}

/** One link of {@link describeDestination}, without what it passes on to. */
function describeLink(destination: RouteDestination): string {
  switch (destination.kind) {
    case 'cluster': {
      const cluster = destination.zone === undefined ? 'cluster' : `cluster ${displayName(destination.zone)}`;
      return destination.federation === undefined ? cluster : `${cluster} (federation CNAME into ${destination.federation})`;
    }
    case 'servers':
      return destination.servers.length === 0 ? 'no servers' : destination.servers.join(' ');
    case 'resolv.conf':
      return 'resolv.conf';
    case 'any-of':
      return `one of {${destination.destinations.map(describeDestination).join(' | ')}}`;
    case 'plugin':
      return `plugin ${destination.plugin}`;
    case 'refused':
      return 'REFUSED';
    case 'servfail':
      return 'SERVFAIL';
  }
}

/** A nameserver read from a kube-dns ConfigMap or a Corefile, as a socket address. */
export interface SocketAddress {
  /** `1.2.3.4:53`, `[2001:db8::1]:53`, `ns.example.com:53`, or the text itself when unreadable. */
  readonly address: string;
  readonly kind: 'ip' | 'hostname' | 'unreadable';
  /** An IPv6 address written with brackets and a port (`[2001:db8::1]:53`). */
  readonly bracketedWithPort: boolean;
}

/**
 * `text` (a kube-dns nameserver, or a forward TO without scheme) as a socket address; the port
 * defaults to `defaultPort`. Reuses the translator's reading (`readForwardTarget`), so both models
 * and the translator agree on what an address is.
 */
export function socketAddress(text: string, defaultPort = 53): SocketAddress {
  const reading = readForwardTarget(text);
  if (!reading.ok) return { address: text.toLowerCase(), kind: 'unreadable', bracketedWithPort: false };
  const { target } = reading;
  const port = target.port ?? defaultPort;
  if (target.kind === 'hostname') return { address: `${target.name}:${port}`, kind: 'hostname', bracketedWithPort: false };
  const host = formatGoIP(target.address);
  const v6 = target.family === 6;
  return { address: v6 ? `[${host}]:${port}` : `${host}:${port}`, kind: 'ip', bracketedWithPort: v6 && target.port !== undefined };
}
