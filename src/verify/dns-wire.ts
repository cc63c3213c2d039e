/**
 * The DNS wire format (RFC 1035 §4), just what `verify` needs: a query for one name and type, and
 * the header, rcode and answer records of a response, each record's data as text in presentation
 * form (names lower-case and fully qualified, TTL kept apart). Pure: bytes in, values out.
 */
import { KubeDnsToCoreDnsError } from '../errors/kube-dns-to-coredns-error.js';

/** The query types `verify` asks. */
export type QueryType = 'A' | 'NS' | 'CNAME' | 'SOA' | 'PTR' | 'MX' | 'TXT' | 'AAAA' | 'SRV';

/** Each query type's code (RFC 1035 §3.2.2, RFC 3596, RFC 2782). */
export const QUERY_TYPES: Readonly<Record<QueryType, number>> = { A: 1, NS: 2, CNAME: 5, SOA: 6, PTR: 12, MX: 15, TXT: 16, AAAA: 28, SRV: 33 };

const TYPE_NAMES = new Map<number, string>(Object.entries(QUERY_TYPES).map(([name, code]) => [code, name]));
const RCODES = ['NOERROR', 'FORMERR', 'SERVFAIL', 'NXDOMAIN', 'NOTIMP', 'REFUSED', 'YXDOMAIN', 'YXRRSET', 'NXRRSET', 'NOTAUTH', 'NOTZONE'];

export interface DnsRecord {
  /** Owner name, lower case, with the trailing dot. */
  readonly name: string;
  /** `A`, `SRV`, … or `TYPE65` for a type this codec does not name. */
  readonly type: string;
  readonly ttl: number;
  /** The data in presentation form (`10.0.0.1`, `0 100 53 kube-dns.kube-system.svc.cluster.local.`, `"text"`). */
  readonly data: string;
}

export interface DnsResponse {
  readonly id: number;
  readonly rcode: string;
  /** The TC bit: the answer did not fit the UDP message. */
  readonly truncated: boolean;
  readonly answers: readonly DnsRecord[];
}

/** A message that is not a DNS response this codec can read. */
export class DnsWireError extends KubeDnsToCoreDnsError {
  override readonly name = 'DnsWireError';
  readonly category = 'input';
  declare readonly code: 'malformed';

  constructor(reason: string) {
    super('malformed', reason);
  }
}

/** Encodes a query: one question, recursion desired, no EDNS. Throws for a name that cannot be encoded. */
export function encodeQuery(id: number, name: string, type: QueryType): Uint8Array {
  const trimmed = name.replace(/\.$/, '');
  const labels = trimmed === '' ? [] : trimmed.split('.');
  const bytes: number[] = [(id >> 8) & 0xff, id & 0xff, 0x01, 0x00, 0, 1, 0, 0, 0, 0, 0, 0];
  let length = 1;
  for (const label of labels) {
    const encoded = new TextEncoder().encode(label);
    if (encoded.length === 0 || encoded.length > 63) throw new DnsWireError(`'${name}': a label must have 1 to 63 octets`);
    length += encoded.length + 1;
    bytes.push(encoded.length, ...encoded);
  }
  if (length > 255) throw new DnsWireError(`'${name}': a name has at most 255 octets`);
  const code = QUERY_TYPES[type];
  bytes.push(0, code >> 8, code & 0xff, 0, 1);
  return Uint8Array.from(bytes);
}

class Reader {
  constructor(private readonly bytes: Uint8Array) {}

  u8(offset: number): number {
    const value = this.bytes[offset];
    if (value === undefined) throw new DnsWireError('the message ends early');
    return value;
  }

  u16(offset: number): number {
    return (this.u8(offset) << 8) | this.u8(offset + 1);
  }

  u32(offset: number): number {
    return this.u16(offset) * 65536 + this.u16(offset + 2);
  }

  /** A (possibly compressed) name at `offset`: the name and the offset after it. */
  name(offset: number): { readonly name: string; readonly next: number } {
    const labels: string[] = [];
    let position = offset;
    let next: number | undefined;
    for (let jumps = 0; ; ) {
      const length = this.u8(position);
      if (length === 0) {
        next ??= position + 1;
        break;
      }
      if ((length & 0xc0) === 0xc0) {
        next ??= position + 2;
        jumps += 1;
        if (jumps > 64) throw new DnsWireError('a compression loop');
        position = ((length & 0x3f) << 8) | this.u8(position + 1);
        continue;
      }
      if ((length & 0xc0) !== 0) throw new DnsWireError('an unknown label type');
      const label = this.bytes.subarray(position + 1, position + 1 + length);
      if (label.length !== length) throw new DnsWireError('the message ends early');
      labels.push([...label].map((byte) => (byte === 0x2e || byte === 0x5c ? `\\${String.fromCharCode(byte)}` : byte > 0x20 && byte < 0x7f ? String.fromCharCode(byte).toLowerCase() : `\\${String(byte).padStart(3, '0')}`)).join(''));
      position += 1 + length;
    }
    return { name: labels.length === 0 ? '.' : `${labels.join('.')}.`, next };
  }

  slice(start: number, end: number): Uint8Array {
    if (end > this.bytes.length) throw new DnsWireError('the message ends early');
    return this.bytes.subarray(start, end);
  }
}

function characterStrings(data: Uint8Array): string {
  const parts: string[] = [];
  for (let offset = 0; offset < data.length; ) {
    const length = data[offset] as number;
    const text = data.subarray(offset + 1, offset + 1 + length);
    if (text.length !== length) throw new DnsWireError('a TXT string runs past its record');
    parts.push(`"${[...text].map((byte) => (byte === 0x22 || byte === 0x5c ? `\\${String.fromCharCode(byte)}` : byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : `\\${String(byte).padStart(3, '0')}`)).join('')}"`);
    offset += 1 + length;
  }
  return parts.join(' ');
}

function ipv6(data: Uint8Array): string {
  const groups: string[] = [];
  for (let index = 0; index < 16; index += 2) groups.push((((data[index] as number) << 8) | (data[index + 1] as number)).toString(16));
  // The longest run of two or more zero groups becomes `::` (RFC 5952).
  let best = { start: -1, length: 0 };
  for (let start = 0; start < 8; ) {
    let end = start;
    while (end < 8 && groups[end] === '0') end += 1;
    if (end - start > best.length && end - start >= 2) best = { start, length: end - start };
    start = end === start ? start + 1 : end;
  }
  if (best.start < 0) return groups.join(':');
  return `${groups.slice(0, best.start).join(':')}::${groups.slice(best.start + best.length).join(':')}`;
}

function recordData(reader: Reader, type: number, start: number, end: number): string {
  const data = reader.slice(start, end);
  switch (TYPE_NAMES.get(type)) {
    case 'A':
      if (data.length !== 4) throw new DnsWireError('an A record without 4 octets');
      return [...data].join('.');
    case 'AAAA':
      if (data.length !== 16) throw new DnsWireError('an AAAA record without 16 octets');
      return ipv6(data);
    case 'NS':
    case 'CNAME':
    case 'PTR':
      return reader.name(start).name;
    case 'MX':
      return `${reader.u16(start)} ${reader.name(start + 2).name}`;
    case 'SRV':
      return `${reader.u16(start)} ${reader.u16(start + 2)} ${reader.u16(start + 4)} ${reader.name(start + 6).name}`;
    case 'SOA': {
      const mname = reader.name(start);
      const rname = reader.name(mname.next);
      const numbers = [0, 4, 8, 12, 16].map((offset) => reader.u32(rname.next + offset));
      return `${mname.name} ${rname.name} ${numbers.join(' ')}`;
    }
    case 'TXT':
      return characterStrings(data);
    default:
      return `\\# ${data.length} ${[...data].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
  }
}

/** Decodes a response: header, rcode, the answer section. Throws {@link DnsWireError} for a malformed message. */
export function decodeResponse(bytes: Uint8Array): DnsResponse {
  const reader = new Reader(bytes);
  const id = reader.u16(0);
  const flags = reader.u16(2);
  if ((flags & 0x8000) === 0) throw new DnsWireError('a query, not a response');
  const questions = reader.u16(4);
  const answerCount = reader.u16(6);
  let offset = 12;
  for (let index = 0; index < questions; index += 1) offset = reader.name(offset).next + 4;
  const answers: DnsRecord[] = [];
  for (let index = 0; index < answerCount; index += 1) {
    const owner = reader.name(offset);
    const type = reader.u16(owner.next);
    const ttl = reader.u32(owner.next + 4);
    const length = reader.u16(owner.next + 8);
    const start = owner.next + 10;
    answers.push({ name: owner.name, type: TYPE_NAMES.get(type) ?? `TYPE${type}`, ttl, data: recordData(reader, type, start, start + length) });
    offset = start + length;
  }
  return { id, rcode: RCODES[flags & 0x0f] ?? `RCODE${flags & 0x0f}`, truncated: (flags & 0x0200) !== 0, answers };
}
