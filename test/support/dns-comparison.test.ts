import dgram from 'node:dgram';
import dnsPacket from 'dns-packet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { claimLoopbackRange, FakeNetwork } from './dns-comparison.js';
import type { Fake, LoopbackRange } from './dns-comparison.js';

/** The comparison's counts of what reached a server (test/routing/dnsmasq-coredns-comparison.test.ts). */
describe('FakeNetwork counts', () => {
  let range: LoopbackRange;
  let network: FakeNetwork;
  let fake: Fake;

  beforeAll(async () => {
    range = await claimLoopbackRange();
    network = new FakeNetwork(range.prefix);
    fake = await network.fakeFor('10.0.0.1:53');
  });

  afterAll(async () => {
    network?.close();
    await range?.release();
  });

  /** Sends a query with `id` for `name` and waits for the answer. */
  async function ask(name: string, id: number): Promise<void> {
    const socket = dgram.createSocket('udp4');
    try {
      await new Promise<void>((resolve) => {
        socket.once('message', () => resolve());
        socket.send(dnsPacket.encode({ id, type: 'query', flags: dnsPacket.RECURSION_DESIRED, questions: [{ type: 'A', name, class: 'IN' }] }), fake.port, fake.ip);
      });
    } finally {
      socket.close();
    }
  }

  it('counts a resend (the same query ID: a forwarder retrying under load) once, a new query again', async () => {
    await ask('nx.example.com', 4242);
    await ask('nx.example.com', 4242);
    expect(network.hitsFor('nx.example.com')).toBe(2);
    expect(network.queriesFor('nx.example.com')).toBe(1);
    await ask('nx.example.com', 4343);
    expect(network.queriesFor('nx.example.com')).toBe(2);
  });
});
