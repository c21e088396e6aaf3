/** Name resolution for the URL guard: DNS over HTTPS in Cloudflare's JSON format. */

export const DOH_ENDPOINT = 'https://cloudflare-dns.com/dns-query';
const DEFAULT_DNS_TIMEOUT_MS = 3_000;

const RECORD_TYPES = { A: 1, AAAA: 28 } as const;
const NOERROR = 0;
const NXDOMAIN = 3;

export interface DohResolverOptions {
  endpoint?: string;
  timeoutMs?: number;
  fetcher?: typeof fetch;
}

/**
 * A resolver returning every A and AAAA address of a name (CNAMEs followed by the resolver).
 * A name that does not exist, or has no address, resolves to `[]`; a lookup that fails
 * (timeout, SERVFAIL, bad answer) throws, so the guard fails closed rather than guessing.
 */
export function createDohResolver(options: DohResolverOptions = {}): (hostname: string) => Promise<string[]> {
  const endpoint = options.endpoint ?? DOH_ENDPOINT;
  const timeoutMs = options.timeoutMs ?? DEFAULT_DNS_TIMEOUT_MS;
  const fetcher = options.fetcher ?? ((input, init) => fetch(input, init));

  async function query(hostname: string, type: keyof typeof RECORD_TYPES): Promise<string[]> {
    const url = new URL(endpoint);
    url.searchParams.set('name', hostname);
    url.searchParams.set('type', type);
    const response = await fetcher(url, {
      headers: { accept: 'application/dns-json' },
      signal: AbortSignal.timeout(timeoutMs),
    });
    if (!response.ok) throw new Error(`DNS over HTTPS answered ${response.status}`);
    return addressesOf(await response.json(), RECORD_TYPES[type]);
  }

  return async (hostname) => {
    const [a, aaaa] = await Promise.all([query(hostname, 'A'), query(hostname, 'AAAA')]);
    return [...a, ...aaaa];
  };
}

/** The addresses of one record type in a `application/dns-json` answer. */
export function addressesOf(body: unknown, type: number): string[] {
  if (typeof body !== 'object' || body === null || !('Status' in body)) throw new Error('malformed DNS answer');
  if (body.Status === NXDOMAIN) return [];
  if (body.Status !== NOERROR) throw new Error(`DNS lookup failed with status ${String(body.Status)}`);
  const answers = 'Answer' in body && Array.isArray(body.Answer) ? (body.Answer as unknown[]) : [];
  const addresses: string[] = [];
  for (const record of answers) {
    if (typeof record !== 'object' || record === null || !('type' in record) || !('data' in record)) continue;
    if (record.type === type && typeof record.data === 'string') addresses.push(record.data);
  }
  return addresses;
}
