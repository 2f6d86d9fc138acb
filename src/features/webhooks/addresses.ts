import { isIP } from 'node:net';

/**
 * Which network addresses a webhook may never reach (the SSRF guard, docs/adr/0037-webhook-ssrf-guard.md):
 * anything that is not a public unicast address, nor a cloud platform's internal endpoint (169.254.0.0/16,
 * Azure's 168.63.129.16). IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d), IPv4-translated
 * (::ffff:0:a.b.c.d) and well-known-prefix NAT64 (64:ff9b::a.b.c.d) IPv6 addresses are judged by the IPv4
 * address they carry, so each of the IPv4 refusals holds through them; local-use NAT64 (64:ff9b:1::/48) is refused
 * whole, since its IPv4 side is the local network's choice.
 * Answers why an address is refused, or null when it may be reached.
 */
export function forbiddenAddressReason(address: string): string | null {
  const literal = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  // A zone index (fe80::1%eth0) only exists on link-local addresses.
  const bare = literal.split('%', 1)[0]!;
  const version = isIP(bare);
  if (version === 4) return ipv4Reason(ipv4Bytes(bare));
  if (version === 6) return ipv6Reason(ipv6Bytes(bare));
  return 'not an IP address';
}

const IPV4_RANGES: readonly [number[], number, string][] = [
  [[0, 0, 0, 0], 8, 'unspecified ("this network")'],
  [[10, 0, 0, 0], 8, 'private'],
  [[100, 64, 0, 0], 10, 'shared address space (carrier-grade NAT)'],
  [[127, 0, 0, 0], 8, 'loopback'],
  [[169, 254, 0, 0], 16, 'link-local (cloud metadata)'],
  [[172, 16, 0, 0], 12, 'private'],
  [[192, 0, 0, 0], 24, 'IETF protocol assignments'],
  [[192, 0, 2, 0], 24, 'documentation'],
  [[192, 88, 99, 0], 24, '6to4 relay anycast'],
  [[192, 168, 0, 0], 16, 'private'],
  [[198, 18, 0, 0], 15, 'benchmarking'],
  [[198, 51, 100, 0], 24, 'documentation'],
  [[203, 0, 113, 0], 24, 'documentation'],
  [[224, 0, 0, 0], 4, 'multicast'],
  [[240, 0, 0, 0], 4, 'reserved (and broadcast)'],
  // Public, but inside every Azure VM's network: the platform's wire server (DHCP, DNS, health, extensions).
  [[168, 63, 129, 16], 32, 'cloud platform endpoint (Azure wire server)'],
];

const IPV6_RANGES: readonly [number[], number, string][] = [
  [[0xfc], 7, 'unique local (private)'],
  [[0xfe, 0x80], 10, 'link-local'],
  [[0xfe, 0xc0], 10, 'site-local'],
  [[0xff], 8, 'multicast'],
  [[0x20, 0x01, 0x0d, 0xb8], 32, 'documentation'],
  [[0x01, 0x00, 0, 0, 0, 0, 0, 0], 64, 'discard-only'],
  // Local-use NAT64 (RFC 8215): a network's own translator prefix, whose IPv4 side is whatever that network routes.
  [[0x00, 0x64, 0xff, 0x9b, 0x00, 0x01], 48, 'local-use NAT64'],
  [[0x20, 0x01, 0, 0], 32, 'Teredo'],
  [[0x20, 0x02], 16, '6to4'],
];

function inPrefix(bytes: Uint8Array, prefix: readonly number[], bits: number): boolean {
  for (let bit = 0; bit < bits; bit++) {
    const byte = bit >> 3;
    const mask = 0x80 >> (bit & 7);
    if ((bytes[byte]! & mask) !== ((prefix[byte] ?? 0) & mask)) return false;
  }
  return true;
}

function ipv4Reason(bytes: Uint8Array): string | null {
  for (const [prefix, bits, reason] of IPV4_RANGES) if (inPrefix(bytes, prefix, bits)) return reason;
  return null;
}

function ipv6Reason(bytes: Uint8Array): string | null {
  const zero = (from: number, to: number) => bytes.subarray(from, to).every((byte) => byte === 0);
  if (zero(0, 16)) return 'unspecified';
  if (zero(0, 15) && bytes[15] === 1) return 'loopback';
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible, deprecated): the IPv4 address decides.
  if (zero(0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return ipv4Reason(bytes.subarray(12));
  // ::ffff:0:a.b.c.d (IPv4-translated, RFC 2765): the IPv4 address decides as well.
  if (zero(0, 8) && bytes[8] === 0xff && bytes[9] === 0xff && zero(10, 12)) return ipv4Reason(bytes.subarray(12));
  if (zero(0, 12)) return ipv4Reason(bytes.subarray(12)) ?? 'IPv4-compatible (deprecated)';
  // 64:ff9b::/96 (NAT64): the IPv4 address it translates to decides.
  if (inPrefix(bytes, [0x00, 0x64, 0xff, 0x9b], 32) && zero(4, 12)) return ipv4Reason(bytes.subarray(12));
  for (const [prefix, bits, reason] of IPV6_RANGES) if (inPrefix(bytes, prefix, bits)) return reason;
  return null;
}

const ipv4Bytes = (text: string): Uint8Array => Uint8Array.from(text.split('.').map(Number));

/** 16 bytes of a valid IPv6 text (isIP said so): hex groups, at most one "::", maybe a dotted IPv4 tail. */
function ipv6Bytes(text: string): Uint8Array {
  let groups = text;
  const tail: number[] = [];
  if (groups.includes('.')) {
    const cut = groups.lastIndexOf(':');
    const v4 = ipv4Bytes(groups.slice(cut + 1));
    tail.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
    const prefix = groups.slice(0, cut + 1);
    groups = prefix.endsWith('::') ? prefix : prefix.slice(0, -1);
  }
  const [head = '', rest] = groups.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const left = parse(head);
  const right = rest === undefined ? [] : parse(rest);
  const missing = 8 - tail.length - left.length - right.length;
  const words = [...left, ...Array<number>(Math.max(0, missing)).fill(0), ...right, ...tail];
  const bytes = new Uint8Array(16);
  words.slice(0, 8).forEach((word, i) => {
    bytes[i * 2] = word >> 8;
    bytes[i * 2 + 1] = word & 0xff;
  });
  return bytes;
}
