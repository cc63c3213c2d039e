import dgram from 'node:dgram';
import dnsPacket from 'dns-packet';
import type { Packet, Question } from 'dns-packet';

/**
 * One DNS query over UDP for the tests that ask real servers (dnsmasq, CoreDNS) on loopback: sends
 * an A query (recursion desired) for `name` to `ip:port` and resolves with the decoded reply that
 * carries its id, or `timeout` when none came within `timeoutMs` (one try; a reply that does not
 * decode is ignored).
 */
export function exchangeA(ip: string, port: number, name: string, timeoutMs: number): Promise<Packet | 'timeout'> {
  return exchange(ip, port, name, timeoutMs, 'A');
}

/** {@link exchangeA} for a query of class IN and type `type` (`A`, `AAAA`, `MX`…). */
export async function exchange(ip: string, port: number, name: string, timeoutMs: number, type: Question['type']): Promise<Packet | 'timeout'> {
  const socket = dgram.createSocket('udp4');
  const id = Math.floor(Math.random() * 65_535) + 1;
  try {
    return await new Promise<Packet | 'timeout'>((resolve) => {
      const timer = setTimeout(() => resolve('timeout'), timeoutMs);
      socket.on('message', (message) => {
        let reply;
        try {
          reply = dnsPacket.decode(message);
        } catch {
          return;
        }
        if (reply.id !== id) return;
        clearTimeout(timer);
        resolve(reply);
      });
      socket.on('error', () => {
        clearTimeout(timer);
        resolve('timeout');
      });
      socket.send(dnsPacket.encode({ id, type: 'query', flags: dnsPacket.RECURSION_DESIRED, questions: [{ type, name, class: 'IN' }] }), port, ip);
    });
  } finally {
    socket.close();
  }
}

/**
 * What a server answered an A query: its rcode, the addresses of its A records (sorted) and the
 * owner names of its authority records (the zone whose SOA came with a negative answer: the
 * kubernetes plugin sends its zone's, a `template` block none), or no answer in time.
 */
export type AAnswer = { readonly rcode: string; readonly addresses: readonly string[]; readonly authority: readonly string[] } | { readonly rcode: 'timeout' };

/** Asks `ip:port` for the A records of `name` (one try, `timeoutMs`). */
export async function askA(ip: string, port: number, name: string, timeoutMs = 2000): Promise<AAnswer> {
  const reply = await exchangeA(ip, port, name, timeoutMs);
  if (reply === 'timeout') return { rcode: 'timeout' };
  const addresses = (reply.answers ?? []).filter((record) => record.type === 'A').map((record) => String(record.data));
  return { rcode: reply.rcode ?? 'UNKNOWN', addresses: addresses.sort(), authority: (reply.authorities ?? []).map((record) => record.name) };
}

/** Calls `handle` with each query `socket` receives that decodes and has a question (others are dropped), for the tests' fake servers. */
export function onQuestion(socket: dgram.Socket, handle: (query: Packet, question: Question, remote: dgram.RemoteInfo) => void): void {
  socket.on('message', (message, remote) => {
    let query: Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (question !== undefined) handle(query, question, remote);
  });
}
