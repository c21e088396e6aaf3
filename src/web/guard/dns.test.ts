import { describe, expect, it } from 'vitest';
import { addressesOf, createDohResolver } from './dns';

function dohServer(answers: Record<string, unknown>, requests: Request[] = []): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    requests.push(request);
    const url = new URL(request.url);
    const body = answers[`${url.searchParams.get('name')} ${url.searchParams.get('type')}`];
    return body === undefined ? new Response('no', { status: 500 }) : Response.json(body);
  };
}

describe('the DNS-over-HTTPS resolver', () => {
  it('asks for A and AAAA records in JSON and returns both', async () => {
    const requests: Request[] = [];
    const resolve = createDohResolver({
      fetcher: dohServer(
        {
          'example.com A': { Status: 0, Answer: [{ name: 'example.com', type: 1, TTL: 60, data: '93.184.215.14' }] },
          'example.com AAAA': { Status: 0, Answer: [{ name: 'example.com', type: 28, TTL: 60, data: '2606:2800:21f:cb07:6820:80da:af6b:3c96' }] },
        },
        requests,
      ),
    });
    expect(await resolve('example.com')).toEqual(['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:3c96']);
    expect(requests.map((r) => r.url)).toEqual([
      'https://cloudflare-dns.com/dns-query?name=example.com&type=A',
      'https://cloudflare-dns.com/dns-query?name=example.com&type=AAAA',
    ]);
    expect(requests[0]?.headers.get('accept')).toBe('application/dns-json');
  });

  it('skips CNAME records and keeps the addresses they lead to', () => {
    const body = {
      Status: 0,
      Answer: [
        { name: 'www.example.com', type: 5, data: 'example.com.' },
        { name: 'example.com', type: 1, data: '10.0.0.1' },
      ],
    };
    expect(addressesOf(body, 1)).toEqual(['10.0.0.1']);
  });

  it('returns nothing for a name that does not exist or has no records', async () => {
    const resolve = createDohResolver({ fetcher: dohServer({ 'gone.example A': { Status: 3 }, 'gone.example AAAA': { Status: 0 } }) });
    expect(await resolve('gone.example')).toEqual([]);
  });

  it.each([
    ['a SERVFAIL', { 'x.example A': { Status: 2 }, 'x.example AAAA': { Status: 0 } }],
    ['an HTTP error', { 'x.example A': { Status: 0 } }],
    ['a malformed answer', { 'x.example A': [], 'x.example AAAA': { Status: 0 } }],
  ])('throws on %s, so the guard fails closed', async (_, answers) => {
    await expect(createDohResolver({ fetcher: dohServer(answers) })('x.example')).rejects.toThrow();
  });

  it('gives up after its timeout', async () => {
    const hanging: typeof fetch = (_input, init) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)));
    await expect(createDohResolver({ fetcher: hanging, timeoutMs: 20 })('slow.example')).rejects.toThrow();
  });
});
