import type { Context } from 'hono';
import type { AppEnv } from './env';

/**
 * The bucket every per-IP limit counts in when the address is missing or unreadable: all such
 * callers share one allowance (Cloudflare always sends a valid address; local runs send none).
 */
export const UNKNOWN_IP_KEY = 'unknown';

/**
 * The key a per-IP limit counts under, for an address as Cloudflare reports it. IPv4 is the whole
 * address; IPv6 is its /64 (`2001:db8:1:2::/64`), since one subscriber or server is given a whole
 * /64 and may send from any of its 2^64 addresses; an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`)
 * is the IPv4 address it carries. Anything else is `UNKNOWN_IP_KEY`.
 */
export function ipLimitKey(address: string | null | undefined): string {
  const text = address?.trim() ?? '';
  const v4 = parseIpv4(text);
  if (v4) return v4.join('.');
  const v6 = parseIpv6(text);
  if (!v6) return UNKNOWN_IP_KEY;
  // ::ffff:0:0/96 carries an IPv4 address in its last 32 bits.
  if (v6.slice(0, 5).every((group) => group === 0) && v6[5] === 0xffff) {
    return [v6[6]! >> 8, v6[6]! & 0xff, v6[7]! >> 8, v6[7]! & 0xff].join('.');
  }
  return `${v6
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** The limit key of the caller of this request (`ipLimitKey` of `CF-Connecting-IP`). */
export function clientIpKey(c: Context<AppEnv>): string {
  return ipLimitKey(c.req.header('CF-Connecting-IP'));
}

/** `a.b.c.d`, each part 0 to 255 in decimal, or null. */
function parseIpv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part))) return null;
  const octets = parts.map(Number);
  return octets.every((octet) => octet <= 255) ? octets : null;
}

/** The eight 16-bit groups of an IPv6 address (full, `::`-compressed, dotted IPv4 tail, zone dropped), or null. */
function parseIpv6(text: string): number[] | null {
  const address = text.replace(/%[^%]*$/, '').toLowerCase();
  if (!address.includes(':') || address.length > 45) return null;
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const head = groupsOf(halves[0]!, halves.length === 1);
  const tail = halves.length === 2 ? groupsOf(halves[1]!, true) : [];
  if (!head || !tail) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const missing = 8 - head.length - tail.length;
  return missing >= 1 ? [...head, ...new Array<number>(missing).fill(0), ...tail] : null;
}

/** The groups of one side of `::` (`mayEndInIpv4`: its last part may be a dotted IPv4 address). */
function groupsOf(side: string, mayEndInIpv4: boolean): number[] | null {
  if (side === '') return [];
  const parts = side.split(':');
  const groups: number[] = [];
  for (const [index, part] of parts.entries()) {
    if (mayEndInIpv4 && index === parts.length - 1 && part.includes('.')) {
      const v4 = parseIpv4(part);
      if (!v4) return null;
      groups.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
    } else if (/^[0-9a-f]{1,4}$/.test(part)) {
      groups.push(parseInt(part, 16));
    } else {
      return null;
    }
  }
  return groups;
}
