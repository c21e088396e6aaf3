import { describe, expect, it } from 'vitest';
import { guardedFetch, MAX_REDIRECTS } from './fetch';
import { SELF_FETCH_HEADER, SELF_FETCH_TOKEN, SELF_REFUSAL_HEADER } from './self-fetch';
import type { GuardOptions } from './options';

const DNS: Record<string, string[]> = {
  'a.example.com': ['93.184.215.14'],
  'b.example.com': ['93.184.215.15', '2606:2800:21f:cb07:6820:80da:af6b:3c96'],
  'intranet.example.com': ['10.0.0.1'],
};

type Handler = (request: Request) => Response | Promise<Response>;

/** A fake web: answers by URL and records every request that reached it. */
function web(routes: Record<string, Handler>) {
  const requests: Request[] = [];
  const inits: RequestInit[] = [];
  const fetcher: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    requests.push(request);
    inits.push(init ?? {});
    const handler = routes[request.url];
    return handler ? handler(request) : new Response('not found', { status: 404 });
  };
  const options: GuardOptions & { fetcher: typeof fetch } = {
    allowHosts: [],
    ownHosts: ['gateway.example.net'],
    resolve: async (name) => DNS[name] ?? [],
    fetcher,
  };
  return { options, requests, inits, fetched: () => requests.map((r) => r.url) };
}

const redirect = (location: string, status = 302): Handler => () => new Response(null, { status, headers: { location } });
const ok = (text = 'ok'): Handler => () => new Response(text);

describe('guardedFetch', () => {
  it('fetches a public URL with redirect: manual and its own signal', async () => {
    const { options, inits } = web({ 'https://a.example.com/': ok('hello') });
    const outcome = await guardedFetch('https://a.example.com/', { timeoutMs: 1000, headers: { 'user-agent': 'test' } }, options);
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(await outcome.result.response.text()).toBe('hello');
    expect(outcome.result).toMatchObject({ finalUrl: 'https://a.example.com/', redirects: [] });
    expect(inits[0]).toMatchObject({ redirect: 'manual', method: 'GET' });
    expect(inits[0]?.signal).toBeInstanceOf(AbortSignal);
  });

  it('follows a redirect chain between public hosts', async () => {
    const { options, fetched } = web({
      'https://a.example.com/start': redirect('https://b.example.com/next', 301),
      'https://b.example.com/next': redirect('http://a.example.com/end', 308),
      'http://a.example.com/end': ok('done'),
    });
    const outcome = await guardedFetch('https://a.example.com/start', { timeoutMs: 1000 }, options);
    if (!outcome.ok) throw new Error(outcome.reason);
    expect(outcome.result.finalUrl).toBe('http://a.example.com/end');
    expect(outcome.result.redirects).toEqual(['https://b.example.com/next', 'http://a.example.com/end']);
    expect(await outcome.result.response.text()).toBe('done');
    expect(fetched()).toEqual(['https://a.example.com/start', 'https://b.example.com/next', 'http://a.example.com/end']);
  });

  it.each([
    ['a name resolving to a private address', 'http://intranet.example.com/admin'],
    ['the cloud metadata address', 'http://169.254.169.254/latest/meta-data/'],
    ['the metadata address, IPv4-mapped', 'http://[::ffff:a9fe:a9fe]/'],
    ['the metadata address in decimal', 'http://2852039166/'],
    ['localhost', 'http://localhost:8080/'],
    ['loopback', 'http://127.0.0.1/'],
    ['the gateway itself', 'https://gateway.example.net/v1/keys'],
    ['a non-http scheme', 'file:///etc/passwd'],
    ['a URL with credentials', 'https://admin:admin@b.example.com/'],
  ])('refuses a redirect to %s without fetching it', async (_, location) => {
    const { options, fetched } = web({ 'https://a.example.com/': redirect(location) });
    const outcome = await guardedFetch('https://a.example.com/', { timeoutMs: 1000 }, options);
    expect(outcome).toMatchObject({ ok: false, kind: 'rejected' });
    if (!outcome.ok) expect(outcome.reason).toMatch(/^The page redirected to .*, which cannot be fetched: /);
    expect(fetched()).toEqual(['https://a.example.com/']);
  });

  it('never fetches a refused starting URL', async () => {
    const { options, fetched } = web({});
    const outcome = await guardedFetch('http://169.254.169.254/', { timeoutMs: 1000 }, options);
    expect(outcome).toMatchObject({ ok: false, kind: 'rejected', reason: expect.stringContaining('link-local') });
    expect(fetched()).toEqual([]);
  });

  it(`follows ${MAX_REDIRECTS} redirects`, async () => {
    const routes: Record<string, Handler> = { [`https://a.example.com/${MAX_REDIRECTS}`]: ok() };
    for (let i = 0; i < MAX_REDIRECTS; i++) routes[`https://a.example.com/${i}`] = redirect(`/${i + 1}`);
    const { options, fetched } = web(routes);
    const outcome = await guardedFetch('https://a.example.com/0', { timeoutMs: 1000 }, options);
    expect(outcome.ok).toBe(true);
    expect(fetched()).toHaveLength(MAX_REDIRECTS + 1);
  });

  it(`refuses the ${MAX_REDIRECTS + 1}th redirect without following it`, async () => {
    const routes: Record<string, Handler> = {};
    for (let i = 0; i <= MAX_REDIRECTS + 1; i++) routes[`https://a.example.com/${i}`] = redirect(`/${i + 1}`);
    const { options, fetched } = web(routes);
    const outcome = await guardedFetch('https://a.example.com/0', { timeoutMs: 1000 }, options);
    expect(outcome).toMatchObject({ ok: false, kind: 'too_many_redirects' });
    expect(fetched()).toHaveLength(MAX_REDIRECTS + 1);
    expect(fetched()).not.toContain(`https://a.example.com/${MAX_REDIRECTS + 1}`);
  });

  it.each([
    ['an absolute path', 'https://a.example.com/dir/page', '/other', 'https://a.example.com/other'],
    ['a relative path', 'https://a.example.com/dir/page', '../up?x=1', 'https://a.example.com/up?x=1'],
    ['a query only', 'https://a.example.com/dir/page', '?page=2', 'https://a.example.com/dir/page?page=2'],
    ['a scheme-relative URL', 'https://a.example.com/', '//b.example.com/x', 'https://b.example.com/x'],
  ])('resolves a Location that is %s against the current URL', async (_, from, location, to) => {
    const { options, fetched } = web({ [from]: redirect(location), [to]: ok() });
    const outcome = await guardedFetch(from, { timeoutMs: 1000 }, options);
    expect(outcome).toMatchObject({ ok: true, result: { finalUrl: to, redirects: [to] } });
    expect(fetched()).toEqual([from, to]);
  });

  it('checks a relative Location on a host that became private', async () => {
    const { options, fetched } = web({ 'https://a.example.com/': redirect('//intranet.example.com/') });
    expect(await guardedFetch('https://a.example.com/', { timeoutMs: 1000 }, options)).toMatchObject({ ok: false, kind: 'rejected' });
    expect(fetched()).toEqual(['https://a.example.com/']);
  });

  it.each([301, 302, 303])('turns POST into GET on %i, dropping the body', async (status) => {
    const { options, requests } = web({ 'https://a.example.com/form': redirect('/done', status), 'https://a.example.com/done': ok() });
    const init = { timeoutMs: 1000, method: 'POST', body: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } };
    expect((await guardedFetch('https://a.example.com/form', init, options)).ok).toBe(true);
    expect(requests[1]?.method).toBe('GET');
    expect(requests[1]?.headers.get('content-type')).toBeNull();
    expect(await requests[1]?.text()).toBe('');
  });

  it.each([307, 308])('keeps the method and body on %i', async (status) => {
    const { options, requests } = web({ 'https://a.example.com/form': redirect('/done', status), 'https://a.example.com/done': ok() });
    expect((await guardedFetch('https://a.example.com/form', { timeoutMs: 1000, method: 'POST', body: 'a=1' }, options)).ok).toBe(true);
    expect(requests[1]?.method).toBe('POST');
    expect(await requests[1]?.text()).toBe('a=1');
  });

  it('drops Authorization and Cookie when a redirect leaves the origin', async () => {
    const { options, requests } = web({
      'https://a.example.com/': redirect('/same'),
      'https://a.example.com/same': redirect('https://b.example.com/'),
      'https://b.example.com/': ok(),
    });
    const headers = { authorization: 'Bearer secret', cookie: 'sid=1', 'user-agent': 'AIGatewayBot' };
    expect((await guardedFetch('https://a.example.com/', { timeoutMs: 1000, headers }, options)).ok).toBe(true);
    expect(requests.map((r) => r.headers.get('authorization'))).toEqual(['Bearer secret', 'Bearer secret', null]);
    expect(requests[2]?.headers.get('cookie')).toBeNull();
    expect(requests[2]?.headers.get('user-agent')).toBe('AIGatewayBot');
  });

  it('returns a redirect status without a Location as the final answer', async () => {
    const { options } = web({ 'https://a.example.com/': () => new Response(null, { status: 302 }) });
    expect(await guardedFetch('https://a.example.com/', { timeoutMs: 1000 }, options)).toMatchObject({ ok: true, result: { response: { status: 302 } } });
  });

  it('refuses a Location that is not a URL', async () => {
    const { options } = web({ 'https://a.example.com/': redirect('http://[::1') });
    expect(await guardedFetch('https://a.example.com/', { timeoutMs: 1000 }, options)).toMatchObject({ ok: false, kind: 'rejected' });
  });

  it('times out a server that never answers', async () => {
    const { options } = web({
      'https://a.example.com/': (request) => new Promise((_, reject) => request.signal.addEventListener('abort', () => reject(request.signal.reason))),
    });
    const outcome = await guardedFetch('https://a.example.com/', { timeoutMs: 30 }, options);
    expect(outcome).toMatchObject({ ok: false, kind: 'timeout', reason: 'The page did not answer within 30 ms.' });
  });

  it('counts a slow DNS lookup against the same timeout', async () => {
    const { options, fetched } = web({});
    const outcome = await guardedFetch('https://slow.example.com/', { timeoutMs: 30 }, { ...options, resolve: () => new Promise(() => {}) });
    expect(outcome).toMatchObject({ ok: false, kind: 'timeout' });
    expect(fetched()).toEqual([]);
  });

  it('reports a network failure', async () => {
    const { options } = web({ 'https://a.example.com/': () => Promise.reject(new TypeError('connection reset')) });
    expect(await guardedFetch('https://a.example.com/', { timeoutMs: 1000 }, options)).toMatchObject({
      ok: false,
      kind: 'network',
      reason: 'The page could not be fetched: connection reset',
    });
  });

  it("stops when the caller's signal aborts", async () => {
    const controller = new AbortController();
    const { options } = web({
      'https://a.example.com/': (request) => {
        controller.abort();
        return Promise.reject(request.signal.reason);
      },
    });
    const outcome = await guardedFetch('https://a.example.com/', { timeoutMs: 1000, signal: controller.signal }, options);
    expect(outcome).toMatchObject({ ok: false, kind: 'network', reason: 'The fetch was cancelled.' });
  });
});

describe('guardedFetch and the gateway itself', () => {
  it('marks every request it sends as the gateway’s own fetch', async () => {
    const { options, requests } = web({ 'https://a.example.com/': ok() });
    await guardedFetch('https://a.example.com/', { timeoutMs: 1000 }, options);
    expect(requests[0]!.headers.get(SELF_FETCH_HEADER)).toBe(SELF_FETCH_TOKEN);
  });

  it('refuses an answer in which the gateway refused its own fetch, on any hop', async () => {
    const { options } = web({
      'https://a.example.com/': redirect('https://b.example.com/'),
      'https://b.example.com/': () => new Response('{"error":{}}', { status: 403, headers: { [SELF_REFUSAL_HEADER]: '1' } }),
    });
    const outcome = await guardedFetch('https://a.example.com/', { timeoutMs: 1000 }, options);
    expect(outcome).toMatchObject({ ok: false, kind: 'rejected' });
    if (!outcome.ok) expect(outcome.reason).toMatch(/b\.example\.com is this gateway/);
  });
});
