import dgram from 'node:dgram';
import type { Socket } from 'node:dgram';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import dnsPacket from 'dns-packet';
import type { Answer as DnsRecord, Packet, Question } from 'dns-packet';
import { formatGoIP, parseGoIP } from '../../src/dns/go-net.js';
import { canonicalName, isInZone } from '../../src/dns/names.js';
import { inetAton } from '../../src/kubedns/dnsmasq-options.js';
import { RESOLV_CONF_MEMBER } from '../../src/routing/destination.js';
import type { RouteDestination } from '../../src/routing/destination.js';

/**
 * Real dnsmasq against real CoreDNS on loopback: the fake servers both sides forward to, the fake
 * kubedns of the dnsmasq side, and the reading of an answer as "who answered".
 *
 * Every address of the inputs (`10.0.0.1`, `[2001:db8::1]:5353`, dnsmasq's `10.0.0.2#5353`) is
 * mapped to a fake server of its own on 127.x.y.z, so that an answer names the server it came
 * from. The node's resolv.conf is a file naming one more fake, on port 53 of its own loopback
 * address (dnsmasq and CoreDNS read resolv.conf files without ports). A fake answers every query
 * with an A record holding its own address (TTL 0), except names whose first label is `nx`:
 * NXDOMAIN with an SOA whose minimum is 300 s, so that a cache keeps it; it counts every query.
 */

export const NX_LABEL = 'nx';
/** The address the fake Kubernetes API and the fake kubedns give `kubernetes.default.svc.<domain>`. */
export const KUBERNETES_SERVICE_IP = '10.96.0.1';

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
  | { readonly kind: 'cluster'; readonly address?: string }
  | { readonly kind: 'rcode'; readonly rcode: string }
  | { readonly kind: 'timeout' };

export function describeAnswer(answer: Answer): string {
  switch (answer.kind) {
    case 'server':
      return `server ${answer.id}`;
    case 'cluster':
      return answer.address === undefined ? 'cluster' : `cluster ${answer.address}`;
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
  readonly #byKey = new Map<string, Fake>();
  readonly #byIp = new Map<string, Fake>();
  /** Queries per fake id and name. */
  readonly hits = new Map<string, Map<string, number>>();
  #next = 10;
  #queryId = 1;

  /** `prefix`: `127.A.B.`, private to the test file. */
  constructor(prefix: string) {
    this.#prefix = prefix;
  }

  /** The fake standing for `key` (an `ip:port` of the inputs, `resolv.conf`), started on first use. */
  async fakeFor(key: string): Promise<Fake> {
    const known = this.#byKey.get(key);
    if (known !== undefined) return known;
    const host = this.#next;
    this.#next += 1;
    const fake = await this.#start(key, `${this.#prefix}${host}`, key === 'resolv.conf' ? 53 : 0, (query, name) => this.#answer(query, name, `${this.#prefix}${host}`));
    return fake;
  }

  /** A resolv.conf naming the resolv.conf fake, written in `directory`. */
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
  async kubedns(clusterDomain: string, resolver: Fake, withKubernetesService = false): Promise<Fake> {
    const host = this.#next;
    this.#next += 1;
    return this.#start('kubedns', `${this.#prefix}${host}`, 0, (query, name) => {
      if (isInZone(name, clusterDomain)) return clusterAnswer(query, name, clusterDomain, withKubernetesService);
      return this.#relay(query, resolver);
    });
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

  async #start(id: string, ip: string, port: number, respond: (query: Packet, name: string) => Promise<Uint8Array | undefined> | Uint8Array | undefined): Promise<Fake> {
    const socket = dgram.createSocket('udp4');
    this.#sockets.add(socket);
    socket.on('message', (message, remote) => {
      let query: Packet;
      try {
        query = dnsPacket.decode(message);
      } catch {
        return;
      }
      const question = query.questions?.[0];
      if (question === undefined) return;
      const name = canonicalName(question.name);
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
    if (id !== 'kubedns') this.#byKey.set(id, fake);
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
    return dnsPacket.encode({ id: query.id ?? 0, type: 'response', flags, questions: [question], answers: [{ type: 'A', name: question.name, ttl: 0, class: 'IN', data: ip }] });
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

  /** Sends an A query for `name` to `ip:port` and reads who answered. */
  async query(ip: string, port: number, name: string): Promise<Answer> {
    const socket = dgram.createSocket('udp4');
    this.#sockets.add(socket);
    const id = (this.#queryId = (this.#queryId % 65535) + 1);
    try {
      return await new Promise<Answer>((resolve) => {
        const timer = setTimeout(() => resolve({ kind: 'timeout' }), QUERY_TIMEOUT_MS);
        socket.on('message', (message) => {
          let reply: Packet;
          try {
            reply = dnsPacket.decode(message);
          } catch {
            return;
          }
          if (reply.id !== id) return;
          clearTimeout(timer);
          resolve(this.#read(reply));
        });
        socket.send(dnsPacket.encode({ id, type: 'query', flags: dnsPacket.RECURSION_DESIRED, questions: [{ type: 'A', name: name === '' ? '.' : name, class: 'IN' }] }), port, ip);
      });
    } finally {
      this.#sockets.delete(socket);
      socket.close();
    }
  }

  #read(reply: Packet): Answer {
    const a = reply.answers?.find((record) => record.type === 'A');
    if (a !== undefined) {
      const fake = this.#byIp.get(String(a.data));
      if (fake !== undefined) return { kind: 'server', id: fake.id };
      return String(a.data) === KUBERNETES_SERVICE_IP ? { kind: 'cluster', address: KUBERNETES_SERVICE_IP } : { kind: 'rcode', rcode: `A ${String(a.data)}` };
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

/** kubedns's own answer: the kubernetes Service, else NXDOMAIN with the cluster's SOA. */
function clusterAnswer(query: Packet, name: string, clusterDomain: string, withKubernetesService: boolean): Uint8Array {
  const question = query.questions?.[0] as Question;
  const flags = dnsPacket.RECURSION_AVAILABLE | dnsPacket.AUTHORITATIVE_ANSWER | ((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED);
  if (withKubernetesService && name === `kubernetes.default.svc.${clusterDomain}`) {
    return dnsPacket.encode({ id: query.id ?? 0, type: 'response', flags, questions: [question], answers: [{ type: 'A', name: question.name, ttl: 5, class: 'IN', data: KUBERNETES_SERVICE_IP }] });
  }
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
