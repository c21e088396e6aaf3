/**
 * IP address parsing and the public/non-public verdict for the URL guard.
 *
 * IPv4 is checked against a deny list of special-purpose blocks (IANA special registry).
 * IPv6 is checked against an allow list: only global unicast 2000::/3 passes, minus the
 * special blocks inside it; forms that embed an IPv4 address are judged by that address.
 */

/** Why an address may not be fetched, or `null` when it is an ordinary public address. */
export type AddressVerdict = string | null;

/** Parses a dotted-quad IPv4 address (the only form WHATWG URL serialises) into four bytes. */
export function parseIPv4(text: string): Uint8Array | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes = new Uint8Array(4);
  for (const [i, part] of parts.entries()) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const value = Number(part);
    if (value > 255) return null;
    bytes[i] = value;
  }
  return bytes;
}

/** Parses an IPv6 address (with or without brackets, `::` and a trailing dotted IPv4) into 16 bytes. */
export function parseIPv6(text: string): Uint8Array | null {
  let s = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  if (s.includes('%')) return null; // zone ids never name a public address
  const bytes = new Uint8Array(16);

  // A trailing dotted IPv4 fills the last two groups.
  let tail: Uint8Array | null = null;
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    tail = parseIPv4(s.slice(lastColon + 1));
    if (!tail) return null;
    s = `${s.slice(0, lastColon + 1)}0:0`;
  }

  const halves = s.split('::');
  if (halves.length > 2) return null;
  const groups = (half: string | undefined): string[] | null => {
    if (!half) return [];
    const parts = half.split(':');
    return parts.every((p) => /^[0-9a-f]{1,4}$/i.test(p)) ? parts : null;
  };
  const head = groups(halves[0]);
  const rest = halves.length === 2 ? groups(halves[1]) : [];
  if (!head || !rest) return null;
  const missing = 8 - head.length - rest.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return null;

  const all = [...head, ...Array<string>(missing).fill('0'), ...rest];
  for (const [i, group] of all.entries()) {
    const value = parseInt(group, 16);
    bytes[i * 2] = value >> 8;
    bytes[i * 2 + 1] = value & 0xff;
  }
  if (tail) bytes.set(tail, 12);
  return bytes;
}

interface Block {
  bytes: Uint8Array;
  bits: number;
  label: string;
  cidr: string;
}

function block(cidr: string, label: string): Block {
  const [address = '', bits = ''] = cidr.split('/');
  const bytes = address.includes(':') ? parseIPv6(address) : parseIPv4(address);
  if (!bytes) throw new Error(`bad CIDR ${cidr}`);
  return { bytes, bits: Number(bits), label, cidr };
}

function inBlock(bytes: Uint8Array, { bytes: prefix, bits }: Block): boolean {
  if (bytes.length !== prefix.length) return false;
  for (let i = 0; i < bits; i += 8) {
    const take = Math.min(8, bits - i);
    const mask = (0xff << (8 - take)) & 0xff;
    if (((bytes[i / 8] ?? 0) & mask) !== ((prefix[i / 8] ?? 0) & mask)) return false;
  }
  return true;
}

/** Parsed on first use, not at startup (every Worker start evaluates this module, docs/contributors/architecture.md, "Startup"). */
function once<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

const IPV4_DENIED = once((): readonly Block[] => [
  block('255.255.255.255/32', 'the broadcast address'),
  block('0.0.0.0/8', 'a "this network" address'),
  block('10.0.0.0/8', 'a private address'),
  block('100.64.0.0/10', 'a carrier-grade NAT address'),
  block('127.0.0.0/8', 'a loopback address'),
  block('169.254.0.0/16', 'a link-local address (cloud metadata lives here)'),
  block('172.16.0.0/12', 'a private address'),
  block('192.0.0.0/24', 'an IETF protocol assignment'),
  block('192.0.2.0/24', 'a documentation address'),
  block('192.88.99.0/24', 'a deprecated 6to4 relay address'),
  block('192.168.0.0/16', 'a private address'),
  block('198.18.0.0/15', 'a benchmarking address'),
  block('198.51.100.0/24', 'a documentation address'),
  block('203.0.113.0/24', 'a documentation address'),
  block('224.0.0.0/4', 'a multicast address'),
  block('240.0.0.0/4', 'a reserved address'),
]);

/** Why an IPv4 address is not public, or null. */
export function classifyIPv4(bytes: Uint8Array): AddressVerdict {
  const hit = IPV4_DENIED().find((b) => inBlock(bytes, b));
  return hit ? `${hit.label} (${hit.cidr})` : null;
}

const formatIPv4 = (bytes: Uint8Array): string => Array.from(bytes).join('.');

// Forms whose last 32 bits (or bits 16..48 for 6to4) carry an IPv4 address that decides.
const IPV6_FORMS = once(() => ({
  IPV4_MAPPED: block('::ffff:0:0/96', 'IPv4-mapped'),
  NAT64: block('64:ff9b::/96', 'NAT64'),
  SIX_TO_FOUR: block('2002::/16', '6to4'),
  IPV4_COMPATIBLE: block('::/96', 'IPv4-compatible'),
  GLOBAL_UNICAST: block('2000::/3', 'global unicast'),
}));
const IPV6_DENIED = once((): readonly Block[] => [
  block('::/128', 'the unspecified address'),
  block('::1/128', 'a loopback address'),
  block('64:ff9b:1::/48', 'a local-use NAT64 address'),
  block('100::/64', 'a discard-only address'),
  block('2001::/23', 'an IETF protocol assignment (Teredo, benchmarking, ORCHID)'),
  block('2001:db8::/32', 'a documentation address'),
  block('3fff::/20', 'a documentation address'),
  block('5f00::/16', 'a segment-routing address'),
  block('fc00::/7', 'a unique-local (private) address'),
  block('fe80::/10', 'a link-local address'),
  block('fec0::/10', 'a deprecated site-local address'),
  block('ff00::/8', 'a multicast address'),
]);

/** Why an IPv6 address is not public, or null. */
export function classifyIPv6(bytes: Uint8Array): AddressVerdict {
  const denied = IPV6_DENIED().find((b) => inBlock(bytes, b));
  if (denied) return `${denied.label} (${denied.cidr})`;
  const { IPV4_MAPPED, NAT64, SIX_TO_FOUR, IPV4_COMPATIBLE, GLOBAL_UNICAST } = IPV6_FORMS();

  for (const form of [IPV4_MAPPED, NAT64]) {
    if (!inBlock(bytes, form)) continue;
    const v4 = bytes.slice(12, 16);
    const inner = classifyIPv4(v4);
    return inner ? `${form.label} ${formatIPv4(v4)}, ${inner}` : null;
  }
  if (inBlock(bytes, IPV4_COMPATIBLE)) {
    const v4 = bytes.slice(12, 16);
    const inner = classifyIPv4(v4);
    // Deprecated (RFC 4291) and never routed: refused even when the embedded address is public.
    return `${IPV4_COMPATIBLE.label} ${formatIPv4(v4)}, ${inner ?? 'a deprecated form (::/96)'}`;
  }
  if (inBlock(bytes, SIX_TO_FOUR)) {
    const v4 = bytes.slice(2, 6);
    const inner = classifyIPv4(v4);
    return inner ? `${SIX_TO_FOUR.label} for ${formatIPv4(v4)}, ${inner}` : null;
  }
  return inBlock(bytes, GLOBAL_UNICAST) ? null : 'a reserved address (outside global unicast 2000::/3)';
}

/**
 * Classifies an IP address written as text (a DNS answer or a URL host).
 * Returns `undefined` when the text is no IP address at all.
 */
export function classifyAddress(text: string): AddressVerdict | undefined {
  const v4 = parseIPv4(text);
  if (v4) return classifyIPv4(v4);
  const v6 = parseIPv6(text);
  if (v6) return classifyIPv6(v6);
  return undefined;
}
