import dgram from 'node:dgram';
import net from 'node:net';
import { decodeResponse, encodeQuery } from '../verify/dns-wire.js';
import type { DnsResponse, QueryType } from '../verify/dns-wire.js';

/**
 * A small DNS client for `verify`: one query over UDP, again over TCP when the answer is
 * truncated, a timeout per try and a bounded number of tries. Nothing else reads the network.
 */
export interface DnsServerAddress {
  readonly host: string;
  readonly port: number;
}

export interface DnsClientOptions {
  /** Per try, in milliseconds. */
  readonly timeoutMs: number;
  /** Tries per query (the first included). */
  readonly tries: number;
}

/** The server did not answer within the tries. */
export class DnsUnreachable extends Error {
  override readonly name = 'DnsUnreachable';
}

let nextId = Math.floor(Math.random() * 65535);
const newId = () => (nextId = (nextId + 1) % 65536);

function udpOnce(server: DnsServerAddress, name: string, type: QueryType, timeoutMs: number): Promise<DnsResponse | undefined> {
  const id = newId();
  const query = encodeQuery(id, name, type);
  const socket = dgram.createSocket(net.isIPv6(server.host) ? 'udp6' : 'udp4');
  return new Promise<DnsResponse | undefined>((resolve) => {
    const done = (value: DnsResponse | undefined) => {
      clearTimeout(timer);
      socket.close();
      resolve(value);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    socket.on('error', () => done(undefined));
    socket.on('message', (message) => {
      try {
        const response = decodeResponse(message);
        if (response.id === id) done(response);
      } catch {
        // Not an answer to this query: keep waiting.
      }
    });
    socket.send(query, server.port, server.host);
  });
}

function tcpOnce(server: DnsServerAddress, name: string, type: QueryType, timeoutMs: number): Promise<DnsResponse | undefined> {
  const id = newId();
  const query = encodeQuery(id, name, type);
  return new Promise<DnsResponse | undefined>((resolve) => {
    const socket = net.connect({ host: server.host, port: server.port });
    let received = Buffer.alloc(0);
    const done = (value: DnsResponse | undefined) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(value);
    };
    const timer = setTimeout(() => done(undefined), timeoutMs);
    socket.on('error', () => done(undefined));
    socket.on('connect', () => socket.write(Buffer.concat([Buffer.from([query.length >> 8, query.length & 0xff]), query])));
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < 2) return;
      const length = received.readUInt16BE(0);
      if (received.length < 2 + length) return;
      try {
        const response = decodeResponse(received.subarray(2, 2 + length));
        done(response.id === id ? response : undefined);
      } catch {
        done(undefined);
      }
    });
  });
}

/** Asks `server` for `name` `type`: UDP, TCP when truncated; throws {@link DnsUnreachable} after the tries. */
export async function queryDns(server: DnsServerAddress, name: string, type: QueryType, options: DnsClientOptions): Promise<DnsResponse> {
  for (let attempt = 0; attempt < options.tries; attempt += 1) {
    const response = await udpOnce(server, name, type, options.timeoutMs);
    if (response === undefined) continue;
    if (!response.truncated) return response;
    const overTcp = await tcpOnce(server, name, type, options.timeoutMs);
    if (overTcp !== undefined) return overTcp;
  }
  const host = server.host.includes(':') ? `[${server.host}]` : server.host;
  throw new DnsUnreachable(`${host}:${server.port} did not answer ${name} ${type} (${options.tries} ${options.tries === 1 ? 'try' : 'tries'} of ${options.timeoutMs} ms)`);
}

/** Runs `work` over `items` with at most `limit` at a time, results in order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const runners = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index] as T);
    }
  });
  await Promise.all(runners);
  return results;
}
