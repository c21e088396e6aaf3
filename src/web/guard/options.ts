/** Configuration of the URL guard, shared by `checkUrl` and `guardedFetch`. */
export interface GuardOptions {
  /** Host names or IPs exempt from the private-address checks (WEB_ALLOW_PRIVATE_HOSTS, comma-separated, for local tests). */
  allowHosts: readonly string[];
  /** The gateway's own host(s): never fetched. */
  ownHosts: readonly string[];
  /** Resolves a name to its A and AAAA addresses; default: DNS over HTTPS (https://cloudflare-dns.com/dns-query, application/dns-json) with a short timeout. Injected in tests. */
  resolve?: (hostname: string) => Promise<string[]>;
}

/**
 * The guard's options for one request: `WEB_ALLOW_PRIVATE_HOSTS` (comma-separated hosts, each
 * optionally with a port) and the host the gateway itself answers on (`new URL(c.req.url).host`).
 */
export function guardOptionsFromEnv(env: { WEB_ALLOW_PRIVATE_HOSTS?: string }, ownHost: string): GuardOptions {
  const allowHosts = (env.WEB_ALLOW_PRIVATE_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '');
  return { allowHosts, ownHosts: ownHost.trim() === '' ? [] : [ownHost.trim()] };
}
