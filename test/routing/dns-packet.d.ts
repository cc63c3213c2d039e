/**
 * The part of dns-packet 5.x (a CommonJS module without bundled types) that the dnsmasq test uses.
 * Declared here rather than adding @types/dns-packet: one DNS wire-format dev dependency only.
 */
declare module 'dns-packet' {
  interface Question {
    type: string;
    name: string;
    class?: string;
  }
  interface Answer {
    type: string;
    name: string;
    ttl?: number;
    class?: string;
    data?: unknown;
  }
  interface Packet {
    id?: number;
    type?: 'query' | 'response';
    flags?: number;
    rcode?: string;
    questions?: Question[];
    answers?: Answer[];
    authorities?: Answer[];
    additionals?: Answer[];
  }
  const dnsPacket: {
    encode(packet: Packet): Uint8Array;
    decode(message: Uint8Array): Packet;
    readonly RECURSION_DESIRED: number;
    readonly RECURSION_AVAILABLE: number;
    readonly AUTHORITATIVE_ANSWER: number;
    readonly TRUNCATED_RESPONSE: number;
  };
  export type { Answer, Packet, Question };
  export default dnsPacket;
}
