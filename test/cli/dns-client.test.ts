import dgram from 'node:dgram';
import { describe, expect, it } from 'vitest';
import { DnsUnreachable, queryDns } from '../../src/cli/dns-client.js';

/** A server that never answers, on loopback: the error names it as an address one could paste back. */
async function silentServer(type: 'udp4' | 'udp6', address: string): Promise<{ port: number; close: () => void }> {
  const socket = dgram.createSocket(type);
  await new Promise<void>((resolve) => socket.bind(0, address, () => resolve()));
  return { port: socket.address().port, close: () => socket.close() };
}

describe('queryDns', () => {
  it('names a silent server as IP:PORT ([IPv6]:PORT) and counts its tries', async () => {
    for (const [type, host, shown] of [['udp4', '127.0.0.1', '127.0.0.1'], ['udp6', '::1', '[::1]']] as const) {
      const silent = await silentServer(type, host);
      try {
        for (const [tries, word] of [[1, 'try'], [2, 'tries']] as const) {
          const failure = await queryDns({ host, port: silent.port }, 'x.example.', 'A', { timeoutMs: 50, tries }).catch((error: unknown) => error);
          expect(failure).toBeInstanceOf(DnsUnreachable);
          expect((failure as Error).message).toBe(`${shown}:${silent.port} did not answer x.example. A (${tries} ${word} of 50 ms)`);
        }
      } finally {
        silent.close();
      }
    }
  });
});
