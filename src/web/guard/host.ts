/** Host-name rules of the URL guard: special-use names, and matching against configured host lists. */

/** Lower case without trailing dots: `LocalHost.` and `localhost` are one host. */
export function normaliseHostname(hostname: string): string {
  return hostname.toLowerCase().replace(/\.+$/, '');
}

/**
 * Suffixes that only ever name machines on a private network (RFC 6761, RFC 6762, RFC 8375,
 * ICANN's `.internal`, and common home-router conventions). None is delegated in the public DNS.
 */
const PRIVATE_SUFFIXES = [
  'localhost',
  'local',
  'localdomain',
  'internal',
  'home.arpa',
  'lan',
  'home',
  'corp',
  'intranet',
  'private',
  'test',
  'invalid',
  'onion',
  'alt',
] as const;

/** Why a host name (not an IP literal) may not be fetched by its name alone, or null. */
export function classifyHostname(hostname: string): string | null {
  const name = normaliseHostname(hostname);
  if (name === '') return 'an empty host name';
  const suffix = PRIVATE_SUFFIXES.find((s) => name === s || name.endsWith(`.${s}`));
  if (suffix) return `a private-network name (.${suffix})`;
  if (!name.includes('.')) return 'a single-label name, which only resolves on a local network';
  return null;
}

interface HostEntry {
  hostname: string;
  /** Set when the entry names a port; then it matches that port only. */
  port?: string;
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/**
 * Parses a configured host (`example.com`, `127.0.0.1:8787`, `::1`, `[::1]:9000`) with the
 * same WHATWG rules as the URLs it is compared with, so `0x7f.1` and `127.0.0.1` agree.
 */
export function parseHostEntry(entry: string): HostEntry | null {
  let text = entry.trim();
  if (text === '') return null;
  // A bare IPv6 address has several colons and needs brackets to parse as a host.
  if (!text.startsWith('[') && (text.match(/:/g) ?? []).length > 1) text = `[${text}]`;
  try {
    const url = new URL(`http://${text}`);
    const hostname = normaliseHostname(url.hostname);
    // `http://host:80` serialises without its port; keep the port the entry spelled out.
    const port = /:(\d+)$/.exec(text)?.[1];
    return port === undefined ? { hostname } : { hostname, port: String(Number(port)) };
  } catch {
    return null;
  }
}

/** Whether a URL's host is one of the entries (an entry without a port matches any port). */
export function hostMatches(url: URL, entries: readonly HostEntry[]): boolean {
  const hostname = normaliseHostname(url.hostname);
  const port = url.port || DEFAULT_PORTS[url.protocol] || '';
  return entries.some((e) => e.hostname === hostname && (e.port === undefined || e.port === port));
}

export function parseHostEntries(entries: readonly string[]): HostEntry[] {
  return entries.map(parseHostEntry).filter((e): e is HostEntry => e !== null);
}

/** Whether a host name or IP names this machine's loopback interface (`localhost`, 127.0.0.0/8, ::1, the unspecified addresses). */
export function isLoopbackHost(hostname: string): boolean {
  const name = normaliseHostname(hostname).replace(/^\[|\]$/g, '');
  return name === 'localhost' || name.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(name) || name === '0.0.0.0' || name === '::1' || name === '::';
}

/**
 * Whether a URL names the gateway itself: one of its own hosts, or, when the gateway answers on
 * a loopback address, any loopback spelling with its port (`localhost:8787` is `127.0.0.1:8787`).
 */
export function isOwnHost(url: URL, ownEntries: readonly HostEntry[]): boolean {
  if (hostMatches(url, ownEntries)) return true;
  if (!isLoopbackHost(url.hostname)) return false;
  const port = url.port || DEFAULT_PORTS[url.protocol] || '';
  return ownEntries.some((entry) => isLoopbackHost(entry.hostname) && (entry.port ?? '80') === port);
}
