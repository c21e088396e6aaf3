import { describe, expect, it } from 'vitest';
import { createRobotsChecker, MAX_ROBOTS_BYTES, ROBOTS_CACHE_TTL_MS, ROBOTS_FAILURE_TTL_MS, ROBOTS_USER_AGENT } from './index';

const USER_AGENT = `${ROBOTS_USER_AGENT}/1.0 (+https://gateway.example.net/bot)`;

type Answer = Response | (() => Response | Promise<Response>);

/** One checker over a fake web that serves `answers` by URL and records what was fetched. */
function checkerFor(answers: Record<string, Answer>, extra: { now?: () => number; timeoutMs?: number } = {}) {
  const requests: Request[] = [];
  const fetcher: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    requests.push(request);
    const answer = answers[request.url];
    if (!answer) return new Response('not found', { status: 404 });
    return typeof answer === 'function' ? answer() : answer.clone();
  };
  const resolve = async (name: string) => (name === 'intranet.example.com' ? ['10.0.0.1'] : ['93.184.215.14']);
  const checker = createRobotsChecker({ userAgent: USER_AGENT, guard: { allowHosts: [], ownHosts: [], resolve, fetcher }, ...extra });
  return { checker, requests, fetched: () => requests.map((r) => r.url) };
}

const robots = (text: string) => new Response(text, { headers: { 'content-type': 'text/plain' } });

async function verdicts(robotsTxt: string, paths: string[]): Promise<boolean[]> {
  const { checker } = checkerFor({ 'https://site.example.com/robots.txt': robots(robotsTxt) });
  return Promise.all(paths.map((p) => checker.allowed(`https://site.example.com${p}`)));
}

describe('robots.txt rules', () => {
  it('uses the AIGatewayBot product token', () => {
    expect(ROBOTS_USER_AGENT).toBe('AIGatewayBot');
  });

  it('obeys a Disallow in our own group over the * group', async () => {
    const txt = 'User-agent: *\nDisallow: /\n\nUser-agent: AIGatewayBot\nDisallow: /private\n';
    expect(await verdicts(txt, ['/private', '/private/x', '/public', '/'])).toEqual([false, false, true, true]);
  });

  it.each(['aigatewaybot', 'AIGATEWAYBOT/2.0', 'AIGatewayBot'])('matches the group %s case-insensitively, ignoring a version', async (agent) => {
    expect(await verdicts(`User-agent: ${agent}\nDisallow: /x\n`, ['/x', '/y'])).toEqual([false, true]);
  });

  it("ignores other agents' groups", async () => {
    expect(await verdicts('User-agent: Googlebot\nDisallow: /\n', ['/', '/page'])).toEqual([true, true]);
  });

  it('falls back to the * group', async () => {
    const txt = 'User-agent: Googlebot\nDisallow: /\n\nUser-agent: *\nDisallow: /admin\n';
    expect(await verdicts(txt, ['/admin', '/admin/users', '/page'])).toEqual([false, false, true]);
  });

  it('lets the longest match win, Allow overriding a shorter Disallow', async () => {
    const txt = 'User-agent: *\nDisallow: /docs\nAllow: /docs/public\nAllow: /shop\nDisallow: /shop/cart\n';
    expect(await verdicts(txt, ['/docs/secret', '/docs/public/page', '/shop/item', '/shop/cart/1'])).toEqual([false, true, true, false]);
  });

  it('prefers Allow when an Allow and a Disallow match equally long', async () => {
    expect(await verdicts('User-agent: *\nDisallow: /page\nAllow: /page\n', ['/page'])).toEqual([true]);
  });

  it('treats * in a path as any run of characters', async () => {
    const txt = 'User-agent: *\nDisallow: /*/drafts/\nDisallow: /*.pdf\n';
    expect(await verdicts(txt, ['/team/drafts/1', '/drafts/1', '/files/a.pdf', '/files/a.pdf?dl=1', '/files/a.html'])).toEqual([false, true, false, false, true]);
  });

  it('anchors a pattern ending in $ at the end of the URL', async () => {
    const txt = 'User-agent: *\nDisallow: /exact$\nDisallow: /*.pdf$\n';
    expect(await verdicts(txt, ['/exact', '/exact/more', '/exact?x=1', '/a.pdf', '/a.pdf?x=1'])).toEqual([false, true, true, false, true]);
  });

  it('matches the query string too', async () => {
    expect(await verdicts('User-agent: *\nDisallow: /*?session=\n', ['/page?session=1', '/page?q=1'])).toEqual([false, true]);
  });

  it('allows everything for an empty Disallow', async () => {
    expect(await verdicts('User-agent: AIGatewayBot\nDisallow:\n\nUser-agent: *\nDisallow: /\n', ['/a'])).toEqual([true]);
  });

  it('reads a file with a byte-order mark and CRLF lines', async () => {
    expect(await verdicts('\ufeffUser-agent: *\r\nDisallow: /x\r\n', ['/x', '/y'])).toEqual([false, true]);
  });

  it(`ignores whatever follows the first ${MAX_ROBOTS_BYTES} bytes`, async () => {
    const txt = `User-agent: *\nDisallow: /early\n${'#'.repeat(MAX_ROBOTS_BYTES)}\nDisallow: /late\n`;
    expect(await verdicts(txt, ['/early', '/late'])).toEqual([false, true]);
  });
});

describe('robots.txt fetching', () => {
  it('fetches {origin}/robots.txt with our User-Agent', async () => {
    const { checker, requests } = checkerFor({});
    await checker.allowed('https://site.example.com:8443/a/b?c=d#e');
    expect(requests.map((r) => [r.url, r.method, r.headers.get('user-agent')])).toEqual([['https://site.example.com:8443/robots.txt', 'GET', USER_AGENT]]);
  });

  it.each([404, 401, 403, 410])('allows everything when robots.txt answers %i', async (status) => {
    const { checker } = checkerFor({ 'https://site.example.com/robots.txt': new Response('no', { status }) });
    expect(await checker.allowed('https://site.example.com/anything')).toBe(true);
  });

  it.each([500, 502, 503, 429])('disallows everything while robots.txt answers %i (Google: temporary full disallow)', async (status) => {
    const { checker } = checkerFor({ 'https://site.example.com/robots.txt': new Response('down', { status }) });
    expect(await checker.allowed('https://site.example.com/anything')).toBe(false);
  });

  it('disallows everything when robots.txt is unreachable', async () => {
    const { checker } = checkerFor({ 'https://site.example.com/robots.txt': () => Promise.reject(new TypeError('connection refused')) });
    expect(await checker.allowed('https://site.example.com/page')).toBe(false);
  });

  it('disallows everything when robots.txt times out', async () => {
    const { checker } = checkerFor({ 'https://site.example.com/robots.txt': () => new Promise<Response>(() => {}) }, { timeoutMs: 20 });
    expect(await checker.allowed('https://site.example.com/page')).toBe(false);
  });

  it('stops waiting for a robots.txt whose body never ends, and tries again on the next check', async () => {
    const endless = () => new Response(new ReadableStream({ start: (c) => c.enqueue(new TextEncoder().encode('User-agent: *\n')) }));
    const { checker, fetched } = checkerFor({ 'https://site.example.com/robots.txt': endless }, { timeoutMs: 20 });
    expect(await checker.allowed('https://site.example.com/page')).toBe(false);
    expect(await checker.allowed('https://site.example.com/page')).toBe(false);
    expect(fetched()).toHaveLength(2);
  });

  it('follows a redirect of robots.txt and applies it to the original origin', async () => {
    const { checker, fetched } = checkerFor({
      'http://site.example.com/robots.txt': new Response(null, { status: 301, headers: { location: 'https://www.site.example.com/robots.txt' } }),
      'https://www.site.example.com/robots.txt': robots('User-agent: *\nDisallow: /no\n'),
    });
    expect(await checker.allowed('http://site.example.com/no')).toBe(false);
    expect(await checker.allowed('http://site.example.com/yes')).toBe(true);
    expect(fetched()).toEqual(['http://site.example.com/robots.txt', 'https://www.site.example.com/robots.txt']);
  });

  it('never fetches a robots.txt the guard refuses, and disallows', async () => {
    const { checker, fetched } = checkerFor({
      'https://site.example.com/robots.txt': new Response(null, { status: 302, headers: { location: 'http://169.254.169.254/robots.txt' } }),
    });
    expect(await checker.allowed('https://site.example.com/page')).toBe(false);
    expect(await checker.allowed('https://intranet.example.com/page')).toBe(false);
    expect(fetched()).toEqual(['https://site.example.com/robots.txt']);
  });

  it.each(['not a url', 'ftp://site.example.com/file'])('refuses %j without fetching', async (url) => {
    const { checker, fetched } = checkerFor({});
    expect(await checker.allowed(url)).toBe(false);
    expect(fetched()).toEqual([]);
  });
});

describe('the robots.txt cache', () => {
  const ROBOTS = 'https://site.example.com/robots.txt';

  it('fetches robots.txt once for two checks on one origin', async () => {
    const { checker, fetched } = checkerFor({ [ROBOTS]: robots('User-agent: *\nDisallow: /x\n') });
    expect(await checker.allowed('https://site.example.com/x')).toBe(false);
    expect(await checker.allowed('https://site.example.com/y')).toBe(true);
    expect(fetched()).toEqual([ROBOTS]);
  });

  it('shares one fetch between concurrent checks', async () => {
    const { checker, fetched } = checkerFor({ [ROBOTS]: robots('') });
    await Promise.all([checker.allowed('https://site.example.com/1'), checker.allowed('https://site.example.com/2')]);
    expect(fetched()).toEqual([ROBOTS]);
  });

  it('keeps one entry per origin (scheme, host and port)', async () => {
    const { checker, fetched } = checkerFor({});
    for (const url of ['https://site.example.com/', 'http://site.example.com/', 'https://site.example.com:8443/', 'https://other.example.com/', 'https://site.example.com/again']) {
      await checker.allowed(url);
    }
    expect(fetched()).toEqual([ROBOTS, 'http://site.example.com/robots.txt', 'https://site.example.com:8443/robots.txt', 'https://other.example.com/robots.txt']);
  });

  it('fetches robots.txt again once the entry is 10 minutes old', async () => {
    let clock = 0;
    const { checker, fetched } = checkerFor({ [ROBOTS]: robots('') }, { now: () => clock });
    await checker.allowed('https://site.example.com/a');
    clock = ROBOTS_CACHE_TTL_MS - 1;
    await checker.allowed('https://site.example.com/b');
    expect(fetched()).toHaveLength(1);
    clock = ROBOTS_CACHE_TTL_MS;
    await checker.allowed('https://site.example.com/c');
    expect(fetched()).toHaveLength(2);
  });

  it('retries a 5xx robots.txt after a minute', async () => {
    let clock = 0;
    let status = 503;
    const { checker, fetched } = checkerFor({ [ROBOTS]: () => new Response('x', { status }) }, { now: () => clock });
    expect(await checker.allowed('https://site.example.com/a')).toBe(false);
    clock = ROBOTS_FAILURE_TTL_MS - 1;
    expect(await checker.allowed('https://site.example.com/a')).toBe(false);
    expect(fetched()).toHaveLength(1);
    clock = ROBOTS_FAILURE_TTL_MS;
    status = 404;
    expect(await checker.allowed('https://site.example.com/a')).toBe(true);
    expect(fetched()).toHaveLength(2);
  });
});
