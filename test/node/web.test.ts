import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Upstream } from '../upstreams/server';
import { startStealthRail, startWebsite } from '../upstreams/website';
import { startGateway, type RunningGateway } from './gateway-process';

const ADMIN = 'web-admin-token-0123456789';
const STEALTH_KEY = 'stealth-key-test';
let site: Upstream;
let stealth: Upstream;
let gateway: RunningGateway;

beforeAll(async () => {
  [site, stealth] = await Promise.all([startWebsite(), startStealthRail(STEALTH_KEY)]);
  gateway = await startGateway({
    ADMIN_TOKEN: ADMIN,
    WEB_ALLOW_PRIVATE_HOSTS: '127.0.0.1,localhost',
    WEB_BLOCKED_DOMAINS: 'localhost',
    STEALTH_API_KEY: STEALTH_KEY,
    STEALTH_BASE_URL: `${stealth.url}/client/v4/accounts/test/browser-rendering`,
  });
});
afterAll(async () => {
  await gateway?.stop();
  await Promise.all([site?.stop(), stealth?.stop()]);
});

const micros = (usd: string) => Math.round(Number(usd) * 1e6);

async function account(usd = '1') {
  // Each account registers from its own address: the per-IP registration limit is not under test here.
  const ip = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
  const registered = await fetch(`${gateway.url}/agent/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'CF-Connecting-IP': ip },
    body: '{"type":"anonymous"}',
  });
  const { api_key, account_id } = (await registered.json()) as { api_key: string; account_id: string };
  if (usd !== '0') {
    await fetch(`${gateway.url}/admin/accounts/${account_id}/credits`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${ADMIN}` },
      body: JSON.stringify({ amount_usd: usd, reason: 'web tests' }),
    });
  }
  const call = (path: string, body?: unknown) =>
    fetch(`${gateway.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { Authorization: `Bearer ${api_key}`, 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  const balance = async () => micros(((await (await call('/agent/account')).json()) as { balance_usd: string }).balance_usd);
  return { call, balance, accountId: account_id, apiKey: api_key };
}

async function waitForJob(call: (path: string) => Promise<Response>, path: string) {
  for (let i = 0; i < 300; i++) {
    const job = (await (await call(path)).json()) as Record<string, unknown>;
    if (job.status !== 'running') return job;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${path} still running after 30 s`);
}

describe('POST /v1/scrape', () => {
  it('returns markdown that keeps headings, tables, lists and code, with metadata, for $0.002', async () => {
    const { call, balance } = await account();
    const before = await balance();
    const res = await call('/v1/scrape', { url: `${site.url}/article` });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, any>;
    expect(body).toMatchObject({ url: `${site.url}/article`, final_url: `${site.url}/article`, status: 200, format: 'markdown', tier: 'standard', cost: 0.002 });
    expect(body.content).toContain('# Understanding Tables');
    expect(body.content).toContain('## Prices');
    expect(body.content).toMatch(/\|\s*Plan\s*\|\s*Price\s*\|/);
    expect(body.content).toMatch(/1\.\s+First step/);
    expect(body.content).toContain('```js');
    expect(body.content).toContain(`(${site.url}/about)`);
    expect(body.content).not.toContain('Copyright Example Site');
    expect(body.metadata).toMatchObject({ title: 'Tables!', description: 'How tables survive conversion.', language: 'en', canonical_url: `${site.url}/article` });
    expect(res.headers.get('x-service-cost')).toBe('0.002000');
    expect(before - (await balance())).toBe(2000);
  });

  it.each([
    ['html', /<table>[\s\S]*<td>Basic<\/td>/],
    ['text', /Understanding Tables[\s\S]*Basic/],
  ])('returns %s', async (format, pattern) => {
    const { call } = await account();
    const body = (await (await call('/v1/scrape', { url: `${site.url}/article`, format })).json()) as { content: string; format: string };
    expect(body.format).toBe(format);
    expect(body.content).toMatch(pattern);
    expect(body.content).not.toContain('<script');
  });

  it('follows redirects and reports the final URL', async () => {
    const { call } = await account();
    const body = (await (await call('/v1/scrape', { url: `${site.url}/redirect` })).json()) as Record<string, unknown>;
    expect(body.final_url).toBe(`${site.url}/article`);
  });

  it.each([
    ['a redirect to a private address', '/redirect-private', 400, 'invalid_request'],
    ['a path robots.txt disallows', '/private/secret', 403, 'robots_disallowed'],
    ['a page with no content', '/empty', 422, 'no_content'],
    ['a server error', '/broken', 502, 'fetch_failed'],
    ['an anti-bot block on the standard rail', '/challenge', 502, 'scrape_blocked'],
    ['a 200 challenge page', '/soft-challenge', 502, 'scrape_blocked'],
  ])('answers %s with %i %s and charges nothing', async (_, path, status, code) => {
    const { call, balance } = await account();
    const before = await balance();
    const res = await call('/v1/scrape', { url: `${site.url}${path}` });
    expect(res.status).toBe(status);
    const body = (await res.json()) as { error: { code: string; param?: string } };
    expect(body.error.code).toBe(code);
    if (code === 'invalid_request') expect(body.error.param).toBe('url');
    expect(await balance()).toBe(before);
  });

  it('times out a slow page with 502 fetch_failed, free', async () => {
    const { call, balance } = await account();
    const before = await balance();
    const res = await call('/v1/scrape', { url: `${site.url}/slow`, timeout_ms: 1000 });
    expect(res.status).toBe(502);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('fetch_failed');
    expect(await balance()).toBe(before);
  });

  it.each([
    ['loopback by name', 'http://localhost.localdomain/'],
    ['cloud metadata', 'http://169.254.169.254/latest/meta-data/'],
    ['a private network', 'http://10.0.0.1/'],
    ['credentials in the URL', `http://user:pass@127.0.0.1/`],
    ['a non-http scheme', 'file:///etc/passwd'],
  ])('refuses %s with 400 naming url', async (_, url) => {
    const { call, balance } = await account();
    const before = await balance();
    const res = await call('/v1/scrape', { url });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { param: string } }).error.param).toBe('url');
    expect(await balance()).toBe(before);
  });

  it('refuses an operator-blocked domain with 403 blocked_domain', async () => {
    const { call } = await account();
    const port = new URL(site.url).port;
    const res = await call('/v1/scrape', { url: `http://localhost:${port}/article` });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('blocked_domain');
  });

  it('escalates a blocked page to the stealth rail under auto, at the stealth price', async () => {
    const { call, balance } = await account();
    const before = await balance();
    const res = await call('/v1/scrape', { url: `${site.url}/challenge`, stealth: 'auto' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, any>;
    expect(body).toMatchObject({ tier: 'stealth', cost: 0.008 });
    expect(body.content).toContain('Protected Article');
    expect(before - (await balance())).toBe(8000);
  });

  it('stays on the standard rail under auto when the page is not blocked', async () => {
    const { call, balance } = await account();
    const before = await balance();
    const body = (await (await call('/v1/scrape', { url: `${site.url}/about`, stealth: 'auto' })).json()) as Record<string, unknown>;
    expect(body).toMatchObject({ tier: 'standard', cost: 0.002 });
    expect(before - (await balance())).toBe(2000);
  });

  it('goes straight to the stealth rail with stealth: true', async () => {
    const { call } = await account();
    const before = stealth.requests.length;
    const body = (await (await call('/v1/scrape', { url: `${site.url}/about`, stealth: true })).json()) as Record<string, unknown>;
    expect(body).toMatchObject({ tier: 'stealth', cost: 0.008 });
    expect(stealth.requests.length).toBe(before + 1);
  });

  it('answers 402 when the balance cannot pay for the page', async () => {
    const { call } = await account('0');
    const res = await call('/v1/scrape', { url: `${site.url}/about` });
    expect(res.status).toBe(402);
  });

  it('measures the latency the gateway adds over a direct fetch', async () => {
    const { call } = await account('5');
    const time = async (fn: () => Promise<unknown>) => {
      const samples: number[] = [];
      for (let i = 0; i < 30; i++) {
        const start = performance.now();
        await fn();
        samples.push(performance.now() - start);
      }
      return samples.sort((a, b) => a - b)[15]!;
    };
    const direct = await time(() => fetch(`${site.url}/article`).then((r) => r.text()));
    const scraped = await time(() => call('/v1/scrape', { url: `${site.url}/article` }).then((r) => r.text()));
    console.log(`scrape latency: direct fetch p50 ${direct.toFixed(2)} ms, through the gateway p50 ${scraped.toFixed(2)} ms, added ${(scraped - direct).toFixed(2)} ms`);
    expect(scraped).toBeGreaterThan(direct);
  });
});

describe('the gateway never fetches itself', () => {
  // WEB_ALLOW_PRIVATE_HOSTS here is `127.0.0.1,localhost`: entries without a port, which open every local port.
  const own = () => new URL(gateway.url);

  it.each([
    ['127.0.0.1', (port: string) => `http://127.0.0.1:${port}/health`],
    ['localhost', (port: string) => `http://localhost:${port}/health`],
    ['[::1] (not on the allow-list)', (port: string) => `http://[::1]:${port}/health`],
  ])('refuses its own port on %s for scrape, crawl and extract, free', async (_, ownUrl) => {
    const { call, balance } = await account();
    const before = await balance();
    const url = ownUrl(own().port);
    for (const [path, body] of [
      ['/v1/scrape', { url }],
      ['/v1/crawl', { url, limit: 2 }],
    ] as const) {
      const res = await call(path, body);
      expect(res.status, path).toBe(400);
      const error = ((await res.json()) as { error: { message: string; param?: string } }).error;
      expect(error.message, path).toMatch(/this gateway|not public|private/);
    }
    // An extract job admits each input URL as it works: the job fails, free.
    const { id } = (await (await call('/v1/extract', { scraper: 'product-page', input: { url } })).json()) as { id: string };
    const job = await waitForJob(call, `/v1/extract/${id}`);
    expect(job).toMatchObject({ status: 'failed', cost: 0 });
    expect(String(job.error)).toMatch(/this gateway|not public|private/);
    expect(await balance()).toBe(before);
  });

  it('refuses itself even when the client sends another Host header', async () => {
    const { apiKey, balance } = await account();
    const before = await balance();
    // fetch() cannot set Host; node:http sends it as given.
    const body = JSON.stringify({ url: `http://127.0.0.1:${own().port}/health` });
    const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = request(`${gateway.url}/v1/scrape`, {
        method: 'POST',
        headers: { Host: 'gateway.example.net', Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
      });
      req.on('response', (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on('error', reject);
      req.end(body);
    });
    expect(answer.status).toBe(400);
    expect((JSON.parse(answer.text) as { error: { message: string } }).error.message).toMatch(/127\.0\.0\.1:\d+ is this gateway/);
    expect(await balance()).toBe(before);
  });
});

describe('crawl', () => {
  it('returns exactly limit pages, charges $0.005 each and hosts the page set', async () => {
    const { call, balance } = await account();
    const before = await balance();
    const submitted = await call('/v1/crawl', { url: `${site.url}/`, limit: 3 });
    expect(submitted.status).toBe(202);
    const { id, status } = (await submitted.json()) as { id: string; status: string };
    expect(status).toBe('running');
    const job = (await waitForJob(call, `/v1/crawl/${id}`)) as Record<string, any>;
    expect(job).toMatchObject({ id, status: 'completed', page_count: 3, cost: 0.015 });
    expect(job.pages).toHaveLength(3);
    expect(job.pages[0]).toMatchObject({ url: `${site.url}/`, title: 'Example Home', status: 200 });
    for (const page of job.pages) {
      expect(page.markdown.length).toBeGreaterThan(50);
      expect(page.url).not.toContain('/private/');
    }
    expect(before - (await balance())).toBe(15_000);
    const hosted = (await (await fetch(job.result_url)).json()) as { pages: unknown[] };
    expect(hosted.pages).toEqual(job.pages);
  });

  it('crawls the whole small site when the limit is larger, never leaving it or entering robots-disallowed paths', async () => {
    const { call } = await account();
    const { id } = (await (await call('/v1/crawl', { url: `${site.url}/`, limit: 50 })).json()) as { id: string };
    const job = (await waitForJob(call, `/v1/crawl/${id}`)) as { page_count: number; pages: { url: string }[]; cost: number };
    const urls = job.pages.map((page) => new URL(page.url).pathname).sort();
    expect(urls).toEqual(['/', '/about', '/article', '/products/1', '/products/2']);
    expect(job.cost).toBe(0.025);
  });

  it('ends at the cap on a site that never stops linking', async () => {
    const { call } = await account();
    const { id } = (await (await call('/v1/crawl', { url: `${site.url}/endless/0`, limit: 12 })).json()) as { id: string };
    const job = (await waitForJob(call, `/v1/crawl/${id}`)) as { status: string; page_count: number; cost: number };
    expect(job).toMatchObject({ status: 'completed', page_count: 12, cost: 0.06 });
  });

  it('charges nothing for a crawl that fails', async () => {
    const { call, balance } = await account();
    const before = await balance();
    const { id } = (await (await call('/v1/crawl', { url: `${site.url}/broken`, limit: 5 })).json()) as { id: string };
    const job = (await waitForJob(call, `/v1/crawl/${id}`)) as Record<string, unknown>;
    expect(job).toMatchObject({ status: 'failed', cost: 0, result_url: null });
    expect(job.error).toMatch(/500/);
    expect(await balance()).toBe(before);
    expect(((await (await call('/agent/account')).json()) as { held_usd: string }).held_usd).toBe('0.000000');
  });

  it('refuses a robots-disallowed seed at submission, free', async () => {
    const { call, balance } = await account();
    const before = await balance();
    const res = await call('/v1/crawl', { url: `${site.url}/private/secret` });
    expect(res.status).toBe(403);
    expect(await balance()).toBe(before);
  });

  it("answers 404 for another account's crawl", async () => {
    const owner = await account();
    const { id } = (await (await owner.call('/v1/crawl', { url: `${site.url}/about`, limit: 1 })).json()) as { id: string };
    const stranger = await account();
    const res = await stranger.call(`/v1/crawl/${id}`);
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('not_found');
  });
});

describe('extract', () => {
  it('lists at least 8 scrapers across the four categories', async () => {
    const { call } = await account();
    const { scrapers } = (await (await call('/v1/extract/scrapers')).json()) as { scrapers: { name: string; category: string; input_hint: string }[] };
    expect(scrapers.length).toBeGreaterThanOrEqual(8);
    expect(new Set(scrapers.map((s) => s.category))).toEqual(new Set(['ecommerce', 'business', 'local', 'real-estate']));
    for (const scraper of scrapers) expect(scraper.input_hint.length).toBeGreaterThan(5);
  });

  it('extracts product records and charges $0.01 per record', async () => {
    const { call, balance } = await account();
    const before = await balance();
    const submitted = await call('/v1/extract', { scraper: 'product-page', input: [{ url: `${site.url}/products/1` }, { url: `${site.url}/products/2` }] });
    expect(submitted.status).toBe(202);
    const { id } = (await submitted.json()) as { id: string };
    const job = (await waitForJob(call, `/v1/extract/${id}`)) as Record<string, any>;
    expect(job).toMatchObject({ status: 'completed', scraper: 'product-page', record_count: 2, cost: 0.02 });
    expect(job.records[0]).toMatchObject({ name: 'Trail Shoe 1', brand: 'Northwind', sku: 'NW-1', price: 10, currency: 'EUR', availability: 'in_stock', rating: 4.5, review_count: 11 });
    expect(job.records[0].images).toEqual([`${site.url}/images/shoe-1.jpg`]);
    expect(before - (await balance())).toBe(20_000);
  });

  it('caps records at limit', async () => {
    const { call, balance } = await account();
    const before = await balance();
    const input = [1, 2, 3].map((n) => ({ url: `${site.url}/products/${n}` }));
    const { id } = (await (await call('/v1/extract', { scraper: 'product-page', input, limit: 2 })).json()) as { id: string };
    const job = (await waitForJob(call, `/v1/extract/${id}`)) as Record<string, unknown>;
    expect(job).toMatchObject({ record_count: 2, cost: 0.02 });
    expect(before - (await balance())).toBe(20_000);
  });

  it.each([
    [undefined, 4],
    [3, 3],
  ])('finds every product of a JSON-LD array on one listing page, capped by limit %s', async (limit, records) => {
    const { call, balance } = await account();
    const before = await balance();
    const { id } = (await (await call('/v1/extract', { scraper: 'product-listing', input: { url: `${site.url}/listing-json-ld` }, ...(limit ? { limit } : {}) })).json()) as { id: string };
    const job = (await waitForJob(call, `/v1/extract/${id}`)) as { record_count: number; records: { name: string }[] };
    expect(job).toMatchObject({ status: 'completed', record_count: records });
    expect(job.records.map((record) => record.name)).toEqual(['Trail Shoe 1', 'Trail Shoe 2', 'Trail Shoe 3', 'Trail Shoe 4'].slice(0, records));
    expect(before - (await balance())).toBe(records * 10_000);
  });

  it('charges nothing for an empty extraction', async () => {
    const { call, balance } = await account();
    const before = await balance();
    const { id } = (await (await call('/v1/extract', { scraper: 'product-page', input: { url: `${site.url}/about` } })).json()) as { id: string };
    const job = (await waitForJob(call, `/v1/extract/${id}`)) as Record<string, unknown>;
    expect(job).toMatchObject({ status: 'completed', record_count: 0, cost: 0 });
    expect(await balance()).toBe(before);
  });

  it('refuses an unknown scraper with 400 naming scraper', async () => {
    const { call } = await account();
    const res = await call('/v1/extract', { scraper: 'nope', input: { url: `${site.url}/about` } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { param: string } }).error.param).toBe('scraper');
  });

  it("answers 404 for another account's extract job", async () => {
    const owner = await account();
    const { id } = (await (await owner.call('/v1/extract', { scraper: 'product-page', input: { url: `${site.url}/products/1` } })).json()) as { id: string };
    const res = await (await account()).call(`/v1/extract/${id}`);
    expect(res.status).toBe(404);
  });
});
