import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import dgram from 'node:dgram';
import type { Socket } from 'node:dgram';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import dnsPacket from 'dns-packet';
import { exchangeA, onQuestion } from '../support/dns-query.js';

/**
 * A loopback-only laboratory for dnsmasq: fake DNS servers that answer every A query with their own
 * address, a dnsmasq started with the flags kube-dns's dnsmasq-nanny would give it, and a client.
 * Every socket and process it creates is registered and stopped by {@link Lab.close}.
 */

export const DNSMASQ_CANDIDATES = ['/usr/sbin/dnsmasq', '/usr/bin/dnsmasq'];

export function findDnsmasq(): string | undefined {
  return DNSMASQ_CANDIDATES.find((path) => existsSync(path));
}

/** A fake DNS server: answers any A query with an A record holding its own address. */
export interface FakeServer {
  readonly ip: string;
  readonly port: number;
  /** `ip:port`, as the routing model writes socket addresses. */
  readonly address: string;
}

const QUERY_TIMEOUT_MS = 1500;
/** The NXDOMAIN rcode in the flags field (RFC 1035 §4.1.1). */
const NXDOMAIN = 3;
/** How long a start may take (only a loaded machine's is slow: probes end the wait as soon as it serves). */
const START_TIMEOUT_MS = 20_000;
/** How long a start-up probe waits for an answer, and the pause between probes. */
const PROBE_TIMEOUT_MS = 25;
const PROBE_INTERVAL_MS = 5;
const STOP_TIMEOUT_MS = 2000;

export class Lab {
  /** `127.A.B.` — a /24 of the loopback range private to this process. */
  readonly prefix: string;
  readonly directory: string;
  readonly #sockets = new Set<Socket>();
  readonly #processes = new Set<ChildProcess>();
  readonly #byIp = new Map<string, FakeServer>();

  /** `prefix`: a `127.A.B.` range the caller claimed (default: one derived from the process id). */
  constructor(prefix?: string) {
    this.prefix = prefix ?? `127.${100 + (process.pid % 100)}.${1 + ((process.pid >> 7) % 250)}.`;
    this.directory = mkdtempSync(join(tmpdir(), 'kube-dns-lab-'));
    // dnsmasq drops root privileges before it reads the resolv file.
    chmodSync(this.directory, 0o755);
  }

  /**
   * Starts a fake server on `<prefix><host>` (port 0: any free port). `nxdomain` picks the queries
   * it answers NXDOMAIN (default none: A gets its address, other types an empty answer); `delayMs`
   * how long it waits before answering a query (default: at once), as a kubedns forwarding a name.
   */
  async fakeServer(host: number, port = 0, nxdomain: (name: string, type: string) => boolean = () => false, delayMs: (name: string) => number = () => 0): Promise<FakeServer> {
    const ip = `${this.prefix}${host}`;
    const socket = dgram.createSocket('udp4');
    this.#sockets.add(socket);
    onQuestion(socket, (query, question, remote) => {
      const missing = nxdomain(question.name, question.type);
      const answers = question.type === 'A' && !missing ? [{ type: 'A', name: question.name, ttl: 0, class: 'IN', data: ip }] : [];
      const reply = dnsPacket.encode({
        id: query.id ?? 0,
        type: 'response',
        flags: dnsPacket.RECURSION_AVAILABLE | dnsPacket.AUTHORITATIVE_ANSWER | ((query.flags ?? 0) & dnsPacket.RECURSION_DESIRED) | (missing ? NXDOMAIN : 0),
        questions: [question],
        answers,
      });
      const delay = delayMs(question.name);
      if (delay === 0) socket.send(reply, remote.port, remote.address);
      else
        setTimeout(() => {
          // The lab may have closed the socket meanwhile.
          try {
            socket.send(reply, remote.port, remote.address);
          } catch {
            // closed: nothing to answer
          }
        }, delay).unref();
    });
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(port, ip, () => {
        socket.off('error', reject);
        resolve();
      });
    });
    const bound = socket.address().port;
    const server = { ip, port: bound, address: `${ip}:${bound}` };
    this.#byIp.set(ip, server);
    return server;
  }

  /** The fake server that owns `ip`. */
  serverAt(ip: string): FakeServer | undefined {
    return this.#byIp.get(ip);
  }

  /** A port that is free on `<prefix>1` right now (for dnsmasq to listen on). */
  async freePort(): Promise<number> {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve) => socket.bind(0, `${this.prefix}1`, resolve));
    const { port } = socket.address();
    await new Promise<void>((resolve) => socket.close(() => resolve()));
    return port;
  }

  /** Writes `name` in the lab directory (readable by dnsmasq after it drops privileges). */
  writeFile(name: string, content: string): string {
    const path = join(this.directory, name);
    writeFileSync(path, content, { mode: 0o644 });
    return path;
  }

  /**
   * Starts dnsmasq with `args` (the nanny's flags) plus the lab's: listen on `<prefix>1:port`
   * only, no hosts file, no cache, no pid file. Resolves once it answers queries.
   */
  async startDnsmasq(binary: string, args: readonly string[]): Promise<Dnsmasq> {
    // freePort probes UDP only, and another program on the machine can take the port (UDP, or TCP,
    // which dnsmasq binds too) before dnsmasq does ("failed to create listening socket …: Address
    // already in use", seen at a load average of 40): such a start is made again on a new port.
    for (let attempt = 1; ; attempt += 1) {
      const { dnsmasq, portTaken } = await this.#startOnce(binary, args);
      if (!portTaken || attempt === 5) return dnsmasq;
    }
  }

  async #startOnce(binary: string, args: readonly string[]): Promise<{ dnsmasq: Dnsmasq; portTaken: boolean }> {
    const port = await this.freePort();
    const listen = `${this.prefix}1`;
    const child = spawn(
      binary,
      ['-k', '--conf-file=/dev/null', `--port=${port}`, `--listen-address=${listen}`, '--bind-interfaces', '--no-hosts', '--pid-file=', '--log-facility=-', ...args],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    this.#processes.add(child);
    let log = '';
    child.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.once('exit', () => this.#processes.delete(child));
    const dnsmasq: Dnsmasq = {
      listen: { ip: listen, port },
      log: () => log,
      exited,
      stop: () => stopProcess(child, exited),
      query: (name) => this.query(listen, port, name),
      address: `${listen}:${port}`,
    };
    const deadline = Date.now() + START_TIMEOUT_MS;
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null) {
        // Its whole log first (stderr can still hold the reason when the exit is seen).
        await closed;
        return { dnsmasq, portTaken: log.includes('Address already in use') };
      }
      // Any answer (even SERVFAIL) means dnsmasq is serving. A probe sent before it listens is lost,
      // so probes are short and frequent: dnsmasq is up a few milliseconds after the spawn, and a
      // long first probe made every start cost its whole timeout (test/routing/dnsmasq.test.ts: 30 starts, 11 s → 3 s).
      const probe = await this.query(listen, port, 'probe.invalid', PROBE_TIMEOUT_MS);
      if (probe.kind !== 'timeout') return { dnsmasq, portTaken: false };
      if (Date.now() > deadline) throw new Error(`dnsmasq did not start within ${START_TIMEOUT_MS} ms:\n${log}`);
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, PROBE_INTERVAL_MS))]);
    }
  }

  /** Sends an A query for `name` to `ip:port`; resolves with who answered. */
  async query(ip: string, port: number, name: string, timeoutMs = QUERY_TIMEOUT_MS): Promise<QueryResult> {
    const reply = await exchangeA(ip, port, name, timeoutMs);
    if (reply === 'timeout') return { kind: 'timeout' };
    const answer = reply.answers?.find((record) => record.type === 'A');
    if (answer === undefined) return { kind: 'rcode', rcode: reply.rcode ?? 'UNKNOWN' };
    const server = this.serverAt(String(answer.data));
    return server === undefined ? { kind: 'rcode', rcode: `A ${String(answer.data)}` } : { kind: 'answered', by: server };
  }

  /** Stops every process and closes every socket; removes the lab directory. Never throws. */
  async close(): Promise<void> {
    await Promise.all([...this.#processes].map((child) => stopProcess(child, new Promise((resolve) => child.once('exit', resolve)))));
    for (const socket of this.#sockets) {
      try {
        socket.close();
      } catch {
        // already closed
      }
    }
    this.#sockets.clear();
    rmSync(this.directory, { recursive: true, force: true });
  }
}

export type QueryResult =
  | { readonly kind: 'answered'; readonly by: FakeServer }
  | { readonly kind: 'rcode'; readonly rcode: string }
  | { readonly kind: 'timeout' };

export interface Dnsmasq {
  /** Where it listens, as address and port. */
  readonly listen: { readonly ip: string; readonly port: number };
  log(): string;
  /** Resolves with the exit code when dnsmasq exits. */
  readonly exited: Promise<number | null>;
  stop(): Promise<void>;
  query(name: string): Promise<QueryResult>;
  /** `ip:port` dnsmasq listens on. */
  readonly address: string;
}

async function stopProcess(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const stopped = await Promise.race([exited.then(() => true), new Promise((resolve) => setTimeout(() => resolve(false), STOP_TIMEOUT_MS))]);
  if (!stopped && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, STOP_TIMEOUT_MS))]);
  }
}

/**
 * What dnsmasq-nanny passes to dnsmasq for a nameserver: `IP:port` becomes `IP#port`,
 * `[IPv6]:port` becomes `[IPv6]#port` (brackets kept), anything else is passed unchanged
 * (docs/reference/kube-dns-and-coredns.md §1.4).
 */
export function nannyMunge(nameserver: string): string {
  const bracketed = /^(\[[^\]]+\]):(\d+)$/.exec(nameserver);
  if (bracketed !== null) return `${bracketed[1] as string}#${bracketed[2] as string}`;
  const ipv4 = /^([0-9.]+):(\d+)$/.exec(nameserver);
  if (ipv4 !== null) return `${ipv4[1] as string}#${ipv4[2] as string}`;
  return nameserver;
}

export interface NannyInput {
  readonly clusterDomain: string;
  /** kubedns's address (127.0.0.1:10053 in the pod). */
  readonly kubedns: FakeServer;
  /** Stub domains in effect (what kube-dns accepted), in the ConfigMap's order. */
  readonly stubDomains: readonly (readonly [string, readonly string[]])[];
  readonly upstreamNameservers: readonly string[];
  /** The resolv file dnsmasq reads when there are no upstreams (the node's resolv.conf). */
  readonly resolvFile: string;
}

/**
 * The dnsmasq flags of a kube-dns pod: the manifest's (`--no-negcache`, the cluster domain and the
 * reverse zones to kubedns), then the nanny's (`--server=/domain/addr` per stub nameserver, upstreams
 * with `--no-resolv`). Differences for the lab: `--cache-size=0` (every query must reach a server)
 * instead of 1000, no `--dns-loop-detect`, and the node's resolv.conf is a lab file.
 */
export function nannyArgs(input: NannyInput): string[] {
  const kubedns = `${input.kubedns.ip}#${input.kubedns.port}`;
  const args = ['--cache-size=0', '--no-negcache', `--server=/${input.clusterDomain}/${kubedns}`, `--server=/in-addr.arpa/${kubedns}`, `--server=/ip6.arpa/${kubedns}`];
  for (const [domain, nameservers] of input.stubDomains) for (const nameserver of nameservers) args.push(`--server=/${domain}/${nannyMunge(nameserver)}`);
  for (const nameserver of input.upstreamNameservers) args.push(`--server=${nannyMunge(nameserver)}`);
  args.push(input.upstreamNameservers.length > 0 ? '--no-resolv' : `--resolv-file=${input.resolvFile}`);
  return args;
}
