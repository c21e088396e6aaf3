import { createDohResolver } from './dns';
import { classifyHostname, hostMatches, isOwnHost, normaliseHostname, parseHostEntries } from './host';
import { classifyAddress } from './ip';
import type { GuardOptions } from './options';

export type GuardVerdict = { ok: true; url: URL } | { ok: false; reason: string };

const defaultResolve = createDohResolver();

const refuse = (reason: string): GuardVerdict => ({ ok: false, reason });
const notPublic = (host: string, why: string): GuardVerdict =>
  refuse(`The host ${host} ${why}; only public web addresses can be fetched.`);

/**
 * Decides whether the gateway may fetch a URL: http(s) only, no credentials, not the gateway
 * itself, and a host that is (or resolves only to) public addresses. The host is judged after
 * WHATWG parsing, so every spelling of an IPv4 address (`2130706433`, `0x7f.1`, `0177.0.0.1`)
 * is already a dotted quad here. Hosts in `allowHosts` skip the address checks.
 */
export async function checkUrl(raw: string, options: GuardOptions): Promise<GuardVerdict> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('The URL is not a valid absolute URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return refuse(`The URL uses ${url.protocol.slice(0, -1)}:; only http and https URLs can be fetched.`);
  }
  if (url.username !== '' || url.password !== '') {
    return refuse('The URL contains credentials (user:password@); remove them.');
  }
  const host = url.hostname;
  // Before the allow-list: an entry without a port must not open the gateway's own port.
  if (isOwnHost(url, parseHostEntries(options.ownHosts))) {
    return refuse(`The host ${host} is this gateway; it cannot fetch itself.`);
  }
  if (hostMatches(url, parseHostEntries(options.allowHosts))) return { ok: true, url };

  const literal = classifyAddress(host);
  if (literal !== undefined) return literal === null ? { ok: true, url } : notPublic(host, `is ${literal}`);

  const nameProblem = classifyHostname(host);
  if (nameProblem) return notPublic(host, `is ${nameProblem}`);

  let addresses: string[];
  try {
    addresses = await (options.resolve ?? defaultResolve)(normaliseHostname(host));
  } catch {
    return refuse(`The host ${host} could not be resolved (DNS lookup failed); try again later.`);
  }
  if (addresses.length === 0) return refuse(`The host ${host} does not resolve to any address.`);
  // Every address must be public: a client may connect to any one of them.
  for (const address of addresses) {
    const verdict = classifyAddress(address);
    if (verdict !== null) return notPublic(host, `resolves to ${address}, ${verdict ?? 'which is not an IP address'}`);
  }
  return { ok: true, url };
}
