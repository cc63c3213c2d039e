import dgram from 'node:dgram';
import type { Socket } from 'node:dgram';
import net from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import dnsPacket from 'dns-packet';
import type { Answer as DnsRecord, Packet, Question } from 'dns-packet';
import { formatGoIP, parseGoIP } from '../../src/dns/go-net.js';
import { canonicalName, isInZone } from '../../src/dns/names.js';
import { inetAton } from '../../src/kubedns/dnsmasq-options.js';
import { RESOLV_CONF_MEMBER } from '../../src/routing/destination.js';
import type { RouteDestination } from '../../src/routing/destination.js';
import { exchange, onQuestion } from './dns-query.js';

/**
 * Real dnsmasq against real CoreDNS on loopback: the fake servers both sides forward to, the fake
 * kubedns of the dnsmasq side, and the reading of an answer as "who answered".
 *
 * Every address of the inputs (`10.0.0.1`, `[2001:db8::1]:5353`, dnsmasq's `10.0.0.2#5353`) is
 * mapped to a fake server of its own, so that an answer names the server it came from; the same
 * address is the same fake for every input of a test file. The node's resolv.conf is a file naming
 * one more fake, on port 53 of its own loopback address (dnsmasq and CoreDNS read resolv.conf files
 * without ports). A fake answers every query with a record naming itself (TTL 0): A its own
 * address, AAAA that address inside `64:ff9b::/96`, MX an exchange `mx.<address>.fake.`, other
 * types an empty answer; except names whose first label is `nx`: NXDOMAIN with an SOA whose
 * minimum is 300 s, so that a cache keeps it. It counts every query by name.
 *
 * Addresses: a test file claims a /16 of loopback of its own ({@link claimLoopbackRange}), outside
 * the ranges the other labs derive from their process id (127.100–249), so that files running at
 * the same time — in this run or in another checkout's — never share an address.
 */

/** A `127.A.` range this process holds until `release` (see {@link claimLoopbackRange}). */
export interface LoopbackRange {
  /** `127.A.` */
  readonly prefix: string;
  release(): Promise<void>;
}

/** The port of the claim's listener on `127.A.0.1`. */
const CLAIM_PORT = 61_053;

/**
 * Claims a `127.A.` range (A in 2–99) by listening on `127.A.0.1:61053`: a range whose claim is
 * taken (another test file of this kind, here or in another checkout) is skipped. Throws when all
 * are taken.
 */
export async function claimLoopbackRange(): Promise<LoopbackRange> {
  const first = process.pid % 98;
  for (let offset = 0; offset < 98; offset += 1) {
    const a = 2 + ((first + offset) % 98);
    const server = net.createServer();
    const claimed = await new Promise<boolean>((resolve) => {
      server.once('error', () => resolve(false));
      server.listen(CLAIM_PORT, `127.${a}.0.1`, () => resolve(true));
    });
    if (claimed) return { prefix: `127.${a}.`, release: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }
  throw new Error('no free 127.A.0.0/16 range between 127.2 and 127.99 (every claim is taken)');
}

export const NX_LABEL = 'nx';

/** The query types the comparison asks. */
export type QueryType = 'A' | 'AAAA' | 'MX' | 'ANY';

/** A fake's AAAA answer: its IPv4 address inside the NAT64 prefix `64:ff9b::/96`. */
const AAAA_PREFIX = '64:ff9b::';
const AAAA_PREFIX_BYTES = [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

export interface Fake {
  /** What the fake stands for: an address of the inputs (`10.0.0.1:53`), `resolv.conf` or `kubedns`. */
  readonly id: string;
  readonly ip: string;
  readonly port: number;
}

/** Who answered a query, comparable across both sides. */
export type Answer =
  | { readonly kind: 'server'; readonly id: string }
  /** kubedns or the kubernetes plugin answered from the cluster's records (its SOA is `ns.dns.<domain>`). */
  | { readonly kind: 'cluster' }
  | { readonly kind: 'rcode'; readonly rcode: string }
  | { readonly kind: 'timeout' };

export function describeAnswer(answer: Answer): string {
  switch (answer.kind) {
    case 'server':
      return `server ${answer.id}`;
    case 'cluster':
      return 'cluster';
    case 'rcode':
      return answer.rcode;
    case 'timeout':
      return 'timeout';
  }
}

const QUERY_TIMEOUT_MS = 2000;

/** The canonical `ip:port` of an address as CoreDNS reads it (`10.0.0.1`, `[::1]:53`, `10.0.0.1:5353`). */
export function socketKey(text: string): string | undefined {
  const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(text);
  const plain = /^([^:]+)(?::(\d+))?$/.exec(text);
  const [host, port] = bracketed !== null ? [bracketed[1], bracketed[2]] : plain !== null ? [plain[1], plain[2]] : [text, undefined];
  const ip = parseGoIP(host ?? '');
  if (ip === undefined) return undefined;
  return `${formatGoIP(ip)}:${port ?? '53'}`;
}

/** The canonical `ip:port` of a dnsmasq server address (`10.0.0.1`, `10.0.0.1#5353`, `fd00::1#53`; inet_aton for IPv4). */
export function dnsmasqKey(text: string): string | undefined {
  const [host = '', port] = text.split('#');
  const ipv4 = /^[0-9a-fx.]+$/i.test(host) ? inetAton(host) : undefined;
  const ip = parseGoIP(ipv4 ?? host);
  if (ip === undefined) return undefined;
  return `${formatGoIP(ip)}:${port === undefined || port === '' ? '53' : port}`;
}

export class FakeNetwork {
  readonly #prefix: string;
  readonly #sockets = new Set<Socket>();
  readonly #byIp = new Map<string, Fake>();
  /** Queries per fake id and name. */
  readonly hits = new Map<string, Map<string, number>>();
  /** The query IDs per fake and name ({@link queriesFor}). */
  readonly #queryIds = new Map<string, Map<string, Set<number>>>();
  #next = 0;
  /** Fakes being started, by key: two inputs naming one address share one fake. */
  readonly #starting = new Map<string, Promise<Fake>>();

  /** `prefix`: `127.A.`, private to the test file; fakes get `127.A.10.1` onwards. */
  constructor(prefix: string) {
    this.#prefix = prefix;
  }

  /** The next fake's address: 250 a /24 from `127.A.10.`. */
  #nextIp(): string {
    const index = this.#next;
    this.#next += 1;
    return `${this.#prefix}${10 + Math.floor(index / 250)}.${1 + (index % 250)}`;
  }

  /** The fake standing for `key` (an `ip:port` of the inputs, `resolv.conf`), started on first use. */
  fakeFor(key: string): Promise<Fake> {
    const known = this.#starting.get(key);
    if (known !== undefined) return known;
    const ip = this.#nextIp();
    const fake = this.#start(key, ip, key === 'resolv.conf' ? 53 : 0, (query, name) => this.#answer(query, name, ip));
    this.#starting.set(key, fake);
    return fake;
  }

  /** A resolv.conf naming the resolv.conf fake, written in `directory` (readable by dnsmasq after it drops privileges). */
  async resolvConf(directory: string): Promise<string> {
    const fake = await this.fakeFor('resolv.conf');
    const path = join(directory, 'resolv.conf');
    writeFileSync(path, `nameserver ${fake.ip}\n`, { mode: 0o644 });
    return path;
  }

  /**
   * A fake kubedns for `clusterDomain`: answers the cluster's names itself (NXDOMAIN with the
   * cluster's SOA, `kubernetes.default.svc.<domain>` with {@link KUBERNETES_SERVICE_IP}) and
   * forwards everything else — reverse lookups it has no records for, other zones — to `resolver`,
   * as kubedns's SkyDNS does.
   */
  kubedns(clusterDomain: string, resolver: Fake): Promise<Fake> {
    const key = `kubedns ${clusterDomain} ${resolver.id}`;
    const known = this.#starting.get(key);
    if (known !== undefined) return known;
    const fake = this.#start('kubedns', this.#nextIp(), 0, (query, name) => {
      if (isInZone(name, clusterDomain)) return clusterAnswer(query, clusterDomain);
      return this.#relay(query, resolver);
    });
    this.#starting.set(key, fake);
    return fake;
  }

  /** Which fake owns `ip`. */
  fakeAt(ip: string): Fake | undefined {
    return this.#byIp.get(ip);
  }

  /** How often `name` reached a server (the fake kubedns, which answers or relays, is not one). */
  hitsFor(name: string): number {
    let total = 0;
    for (const [id, names] of this.hits) if (id !== 'kubedns') total += names.get(canonicalName(name)) ?? 0;
    return total;
  }

  /**
   * How many distinct queries for `name` reached a server (the fake kubedns is not one): a resend
   * keeps its query ID (dnsmasq resends its forward with the same ID; CoreDNS's forward resends the
   * client's query as it came, 1.2.6 after a read timeout it tunes down to a few milliseconds, so
   * a loaded machine made it resend), so it counts once. A query the cache did not answer is a new ID.
   */
  queriesFor(name: string): number {
    const ids = new Set<number>();
    for (const [id, names] of this.#queryIds) if (id !== 'kubedns') for (const queryId of names.get(canonicalName(name)) ?? []) ids.add(queryId);
    return ids.size;
  }

  async #start(id: string, ip: string, port: number, respond: (query: Packet, name: string) => Promise<Uint8Array | undefined> | Uint8Array | undefined): Promise<Fake> {
    const socket = dgram.createSocket('udp4');
    this.#sockets.add(socket);
    onQuestion(socket, (query, question, remote) => {
      const name = canonicalName(question.name);
      const ids = this.#queryIds.get(id) ?? new Map<string, Set<number>>();
      ids.set(name, (ids.get(name) ?? new Set()).add(query.id ?? 0));
      this.#queryIds.set(id, ids);
      const counts = this.hits.get(id) ?? new Map<string, number>();
      counts.set(name, (counts.get(name) ?? 0) + 1);
      this.hits.set(id, counts);
      void Promise.resolve(respond(query, name)).then((reply) => {
        if (reply !== undefined) socket.send(reply, remote.port, remote.address);
      });
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(port, ip, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    const fake: Fake = { id, ip, port: socket.address().port };
    this.#byIp.set(ip, fake);
    return fake;
  }

  #answer(query: Packet, name: string, ip: string): Uint8Array {
    const question = query.questions?.[0] as Question;
    const flags = dnsPacket.RECURSION_AVAILABLE | dnsPacket.AUTHORITATIVE_ANSWER | ((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED);
    if (name.split('.')[0] === NX_LABEL) {
      // The SOA of the name's parent, which encloses it: dnsmasq keeps only such negative answers.
      return dnsPacket.encode({ id: query.id ?? 0, type: 'response', flags: flags | 3, questions: [question], authorities: [soa(`${name.slice(name.indexOf('.') + 1)}.`, 'ns.fake.')] });
    }
    // ANY gets the A record: who answered stays visible.
    const record: DnsRecord | undefined =
      question.type === 'A' || question.type === 'ANY'
        ? { type: 'A', name: question.name, ttl: 0, class: 'IN', data: ip }
        : question.type === 'AAAA'
          ? { type: 'AAAA', name: question.name, ttl: 0, class: 'IN', data: `${AAAA_PREFIX}${ip}` }
          : question.type === 'MX'
            ? { type: 'MX', name: question.name, ttl: 0, class: 'IN', data: { preference: 10, exchange: `mx.${ip}.fake` } }
            : undefined;
    return dnsPacket.encode({ id: query.id ?? 0, type: 'response', flags, questions: [question], answers: record === undefined ? [] : [record] });
  }

  async #relay(query: Packet, to: Fake): Promise<Uint8Array | undefined> {
    const socket = dgram.createSocket('udp4');
    this.#sockets.add(socket);
    try {
      return await new Promise<Uint8Array | undefined>((resolve) => {
        const timer = setTimeout(() => resolve(undefined), QUERY_TIMEOUT_MS);
        socket.on('message', (message) => {
          clearTimeout(timer);
          resolve(message);
        });
        socket.send(dnsPacket.encode(query), to.port, to.ip);
      });
    } finally {
      this.#sockets.delete(socket);
      socket.close();
    }
  }

  /** Sends a query of type `type` (default A) for `name` to `ip:port` and reads who answered. */
  async query(ip: string, port: number, name: string, type: QueryType = 'A'): Promise<Answer> {
    const reply = await exchange(ip, port, name === '' ? '.' : name, QUERY_TIMEOUT_MS, type);
    return reply === 'timeout' ? { kind: 'timeout' } : this.#read(reply);
  }

  #read(reply: Packet): Answer {
    const record = reply.answers?.find((entry) => entry.type === 'A' || entry.type === 'AAAA' || entry.type === 'MX');
    if (record !== undefined) {
      // The fake's own address, read back from the record of each type.
      const text = record.type === 'MX' ? (record.data as { exchange: string }).exchange : String(record.data);
      const bytes = record.type === 'AAAA' ? parseGoIP(text) : undefined;
      const ip = record.type === 'A' ? text : record.type === 'MX' ? /^mx\.(.+)\.fake\.?$/.exec(text)?.[1] : bytes !== undefined && bytes.length === 16 && bytes.slice(0, 12).every((byte, index) => byte === AAAA_PREFIX_BYTES[index]) ? bytes.slice(12).join('.') : undefined;
      const fake = ip === undefined ? undefined : this.#byIp.get(ip);
      if (fake !== undefined) return { kind: 'server', id: fake.id };
      // Every record of an answer of several (ANY of a name with addresses of both families).
      const shown = (entry: DnsRecord) => {
        const data = String((entry as { data: unknown }).data);
        const parsed = entry.type === 'AAAA' ? parseGoIP(data) : undefined;
        return `${entry.type} ${parsed !== undefined ? formatGoIP(parsed) : data}`;
      };
      const all = (reply.answers ?? []).filter((entry) => entry.type === 'A' || entry.type === 'AAAA');
      // Sorted: dnsmasq lists a family's addresses last written first, a template in its order.
      if (all.length > 1) return { kind: 'rcode', rcode: all.map(shown).sort().join(', ') };
      return { kind: 'rcode', rcode: `${record.type} ${record.type === 'AAAA' && bytes !== undefined ? formatGoIP(bytes) : text}` };
    }
    const authority = reply.authorities?.find((record) => record.type === 'SOA');
    const mname = authority?.type === 'SOA' ? (authority.data as { mname: string }).mname : undefined;
    // The kubernetes plugin and the fake kubedns sign their answers with the cluster's SOA; the fakes' NXDOMAIN with ns.fake.
    if (mname !== undefined && mname.startsWith('ns.dns.')) return { kind: 'cluster' };
    if (mname === 'ns.fake.' || mname === 'ns.fake') return { kind: 'rcode', rcode: `${reply.rcode ?? '?'} from a server` };
    return { kind: 'rcode', rcode: reply.rcode ?? 'UNKNOWN' };
  }

  /** Closes every socket. Never throws. */
  close(): void {
    for (const socket of this.#sockets) {
      try {
        socket.close();
      } catch {
        // already closed
      }
    }
    this.#sockets.clear();
  }
}

function soa(zone: string, mname: string): DnsRecord {
  return { type: 'SOA', name: zone, ttl: 300, data: { mname, rname: 'hostmaster.fake.', serial: 1, refresh: 300, retry: 300, expire: 300, minimum: 300 } } as DnsRecord;
}

/** kubedns's own answer with no Services (as the fake Kubernetes API of CoreDNS has none): NXDOMAIN with the cluster's SOA. */
function clusterAnswer(query: Packet, clusterDomain: string): Uint8Array {
  const question = query.questions?.[0] as Question;
  const flags = dnsPacket.RECURSION_AVAILABLE | dnsPacket.AUTHORITATIVE_ANSWER | ((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED);
  return dnsPacket.encode({ id: query.id ?? 0, type: 'response', flags: flags | 3, questions: [question], authorities: [soa(`${clusterDomain}.`, `ns.dns.${clusterDomain}.`)] });
}

/** Whether `answer` is one the destination allows (a member of a server set, the cluster, its fallthrough…). */
export function fits(answer: Answer, destination: RouteDestination): boolean {
  switch (destination.kind) {
    case 'servers':
      return answer.kind === 'server' && destination.servers.some((server) => (server === RESOLV_CONF_MEMBER ? 'resolv.conf' : (socketKey(server) ?? server)) === answer.id);
    case 'resolv.conf':
      return answer.kind === 'server' && answer.id === 'resolv.conf';
    case 'cluster':
      return answer.kind === 'cluster' || (destination.otherwise !== undefined && fits(answer, destination.otherwise));
    case 'any-of':
      return destination.destinations.some((member) => fits(answer, member));
    case 'plugin':
      return answer.kind === 'rcode' || answer.kind === 'cluster' || (destination.otherwise !== undefined && fits(answer, destination.otherwise));
    case 'refused':
      return answer.kind === 'rcode' && answer.rcode === 'REFUSED';
    case 'servfail':
      return answer.kind === 'rcode' && answer.rcode === 'SERVFAIL';
  }
}
