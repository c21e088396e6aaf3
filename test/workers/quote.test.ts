import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app';
import { findModel } from '../../src/catalog';
import { formatUsd } from '../../src/money';
import { IMAGES_UPSTREAM_KEY } from './global-setup';
import { accountStub, adminCredit, expectError, register } from './helpers';

/**
 * `POST /v1/quote` (D25) as an agent meets it: the route's own validation and worst case, what the
 * key may spend, and nothing held, charged or sent upstream.
 */

const app = createApp();
const chatUrl = inject('chatUpstreamUrl');

interface Quote {
  object: string;
  path: string;
  model: string | null;
  worst_case_usd: string;
  estimated_usd: string;
  available_usd: string;
  affordable: boolean;
  max_tokens_affordable?: number;
}

/** A gateway whose chat upstream is the simulator. */
function gateway(upstreamKey: string) {
  const scoped = { ...env, OPENAI_API_KEY: upstreamKey, OPENAI_BASE_URL: `${chatUrl}/v1` } as Env;
  return async (path: string, apiKey: string, body: unknown) => {
    const ctx = createExecutionContext();
    const res = await app.fetch(
      new Request(`https://gateway.test${path}`, { method: 'POST', headers: { Authorization: `Bearer ${apiKey}` }, body: JSON.stringify(body) }),
      scoped,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    return res;
  };
}

async function fundedAgent(usd: string) {
  const agent = await register();
  if (usd !== '0') expect((await adminCredit(agent.account_id, usd)).status).toBe(200);
  return agent;
}

const chatBody = (extra: Record<string, unknown> = {}) => ({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Say hello' }], ...extra });

/** How many requests the chat simulator received whose last message is `content`. */
async function upstreamCallsWith(content: string): Promise<number> {
  const recorded = (await (await fetch(`${chatUrl}/__recorded`)).json()) as { body?: { messages?: { content?: unknown }[] } }[];
  return recorded.filter((request) => request.body?.messages?.at(-1)?.content === content).length;
}

describe('POST /v1/quote', () => {
  it('prices a chat request as the route would hold it, and holds, charges and sends nothing', async () => {
    const agent = await fundedAgent('2');
    const post = gateway('sk-quote');
    const prompt = `Quote me ${crypto.randomUUID()}`;
    const body = chatBody({ max_tokens: 100, messages: [{ role: 'user', content: prompt }] });
    const stub = accountStub(agent.account_id);
    const before = await stub.snapshot();
    const ledgerBefore = await stub.ledgerPage(100);

    const res = await post('/v1/quote', agent.api_key, { path: '/v1/chat/completions', body });
    expect(res.status).toBe(200);
    const quote = (await res.json()) as Quote;
    expect(quote).toMatchObject({ object: 'quote', path: '/v1/chat/completions', model: 'openai/gpt-4o-mini', available_usd: '2.000000', affordable: true });
    expect(Number(quote.worst_case_usd)).toBeGreaterThan(0);
    expect(Number(quote.estimated_usd)).toBeLessThanOrEqual(Number(quote.worst_case_usd));
    expect(quote.max_tokens_affordable).toBe(16_384); // the model's cap: $2 buys more

    const after = await stub.snapshot();
    expect(after.balanceMicros).toBe(before.balanceMicros);
    expect(after.heldMicros).toBe(0);
    expect((await stub.ledgerPage(100))!.entries).toEqual(ledgerBefore!.entries);
    expect(await upstreamCallsWith(prompt)).toBe(0);

    // The worst case is what the route then holds: the real request's hold row says so.
    const served = await post('/v1/chat/completions', agent.api_key, body);
    expect(served.status).toBe(200);
    const holdRow = (await stub.ledgerPage(100))!.entries.find((entry) => entry.kind === 'hold');
    expect(holdRow?.amountMicros).toBe(Math.round(Number(quote.worst_case_usd) * 1e6));
    expect(await upstreamCallsWith(prompt)).toBe(1);
  });

  it('says what a short balance covers: not affordable with max_tokens, and the largest max_tokens it buys', async () => {
    const agent = await fundedAgent('0.0001');
    const post = gateway('sk-quote');
    const quote = (await (await post('/v1/quote', agent.api_key, { path: '/v1/chat/completions', body: chatBody({ max_tokens: 16_000 }) })).json()) as Quote;
    expect(quote.affordable).toBe(false);
    expect(quote.available_usd).toBe('0.000100');
    // gpt-4o-mini: $0.60 per million output tokens, so $0.0001 less the prompt buys a little under 167 tokens.
    expect(quote.max_tokens_affordable).toBeGreaterThan(100);
    expect(quote.max_tokens_affordable).toBeLessThan(167);

    // Without max_tokens the route lowers the cap to what is held (D5): affordable, though the worst case is not covered.
    const open = (await (await post('/v1/quote', agent.api_key, { path: '/v1/chat/completions', body: chatBody() })).json()) as Quote;
    expect(open.affordable).toBe(true);
    expect(Number(open.worst_case_usd)).toBeGreaterThan(Number(open.available_usd));

    // The route agrees: 402 for that request, 200 with the quoted max_tokens.
    const refused = await post('/v1/chat/completions', agent.api_key, chatBody({ max_tokens: 16_000 }));
    expect(refused.status).toBe(402);
    const served = await post('/v1/chat/completions', agent.api_key, chatBody({ max_tokens: quote.max_tokens_affordable }));
    expect(served.status).toBe(200);
  });

  it("counts the key's own spend limit, which can be tighter than the balance", async () => {
    const agent = await fundedAgent('5');
    const limited = await app.fetch(
      new Request(`https://gateway.test/admin/accounts/${agent.account_id}/keys`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${env.ADMIN_TOKEN}` },
        body: JSON.stringify({ name: 'capped', total_limit_usd: '0.25' }),
      }),
      env,
    );
    expect(limited.status).toBe(201);
    const { api_key } = (await limited.json()) as { api_key: string };
    const quote = (await (await gateway('sk-unused')('/v1/quote', api_key, { path: '/v1/scrape', body: { url: 'https://example.com/' } })).json()) as Quote;
    expect(quote).toMatchObject({ path: '/v1/scrape', model: null, worst_case_usd: '0.002000', estimated_usd: '0.002000', available_usd: '0.250000', affordable: true });
  });

  it("refuses as the route would for a key whose guardrails forbid the route or model (D27)", async () => {
    const agent = await fundedAgent('1');
    const post = gateway('sk-quote');
    const minted = await post('/agent/keys', agent.api_key, { name: 'chat only', allowed_routes: ['chat'], allowed_models: ['openai/gpt-4o-mini'] });
    expect(minted.status).toBe(201);
    const { api_key } = (await minted.json()) as { api_key: string };
    await expectError(await post('/v1/quote', api_key, { path: '/v1/scrape', body: { url: 'https://example.com/' } }), 403, 'guardrail_blocked', 'authorization_error');
    await expectError(await post('/v1/quote', api_key, { path: '/v1/chat/completions', body: chatBody({ model: 'openai/gpt-4o' }) }), 403, 'model_not_allowed', 'authorization_error', 'model');
    expect((await post('/v1/quote', api_key, { path: '/v1/chat/completions', body: chatBody() })).status).toBe(200);
  });

  it.each([
    ['/v1/scrape', { url: 'https://example.com/', stealth: 'auto' }, { worst_case_usd: '0.008000', estimated_usd: '0.002000' }],
    ['/v1/scrape', { url: 'https://example.com/', stealth: true }, { worst_case_usd: '0.008000', estimated_usd: '0.008000' }],
    ['/v1/crawl', { url: 'https://example.com/', limit: 40 }, { worst_case_usd: '0.200000', estimated_usd: '0.200000' }],
    ['/v1/extract', { scraper: 'contact-details', input: { url: 'https://example.com/' }, limit: 7 }, { worst_case_usd: '0.070000' }],
    ['/v1/images/generations', { model: 'openai/gpt-image-1-mini', prompt: 'a cat', size: '1024x1024', quality: 'low', n: 2 }, { model: 'openai/gpt-image-1-mini' }],
    ['/v1/audio/speech', { model: 'openai/tts-1', input: 'x'.repeat(1000), voice: 'alloy' }, { model: 'openai/tts-1', worst_case_usd: '0.015000' }],
  ])('prices %s from its body', async (path, body, expected) => {
    const agent = await fundedAgent('1');
    const scoped = { ...env, OPENAI_API_KEY: IMAGES_UPSTREAM_KEY, OPENAI_BASE_URL: `${inject('imagesUpstreamUrl')}/v1` } as Env;
    const res = await app.fetch(
      new Request('https://gateway.test/v1/quote', { method: 'POST', headers: { Authorization: `Bearer ${agent.api_key}` }, body: JSON.stringify({ path, body }) }),
      scoped,
    );
    expect(res.status).toBe(200);
    const quote = (await res.json()) as Quote;
    expect(quote).toMatchObject({ object: 'quote', path, affordable: true, available_usd: '1.000000', ...expected });
    expect(quote.max_tokens_affordable).toBeUndefined();
    expect((await accountStub(agent.account_id).snapshot()).heldMicros).toBe(0);
  });

  it('prices a video as its route holds it: the price per second at the resolution, times the duration', async () => {
    const agent = await fundedAgent('1');
    const scoped = { ...env, OPENAI_API_KEY: IMAGES_UPSTREAM_KEY, OPENAI_BASE_URL: `${inject('imagesUpstreamUrl')}/v1` } as Env;
    const model = findModel('openai/sora-2');
    if (model?.type !== 'video') throw new Error('openai/sora-2 is not a video model');
    const route = model.routes.find((r) => r.provider === 'openai')!;
    const perSecond = typeof route.perSecond === 'number' ? route.perSecond : route.perSecond['720p']!;
    const res = await app.fetch(
      new Request('https://gateway.test/v1/quote', {
        method: 'POST',
        headers: { Authorization: `Bearer ${agent.api_key}` },
        body: JSON.stringify({ path: '/v1/videos/generations', body: { model: 'openai/sora-2', prompt: 'waves', duration: 4, resolution: '720p' } }),
      }),
      scoped,
    );
    expect(res.status).toBe(200);
    const worst = formatUsd(Math.round(perSecond * 1_000_000 * 4));
    expect(await res.json()).toMatchObject({ object: 'quote', path: '/v1/videos/generations', model: 'openai/sora-2', worst_case_usd: worst, estimated_usd: worst, affordable: true });
    expect((await accountStub(agent.account_id).snapshot()).heldMicros).toBe(0);
  });

  it("answers the route's own 400s and 404s, naming the field, and its own for a path that is not billed", async () => {
    const agent = await fundedAgent('1');
    const post = gateway('sk-unused');
    await expectError(await post('/v1/quote', agent.api_key, { path: '/v1/chat/completions', body: { model: 'openai/gpt-4o-mini' } }), 400, 'invalid_request', 'invalid_request_error', 'messages');
    await expectError(await post('/v1/quote', agent.api_key, { path: '/v1/chat/completions', body: chatBody({ model: 'nobody/nothing' }) }), 404, 'model_not_found', 'invalid_request_error', 'model');
    await expectError(
      await post('/v1/quote', agent.api_key, { path: '/v1/chat/completions', body: chatBody({ max_tokens: 10_000_000 }) }),
      400,
      'invalid_request',
      'invalid_request_error',
      'max_tokens',
    );
    await expectError(await post('/v1/quote', agent.api_key, { path: '/v1/crawl', body: { url: 'https://example.com/', limit: 501 } }), 400, 'invalid_request', 'invalid_request_error', 'limit');
    await expectError(await post('/v1/quote', agent.api_key, { path: '/v1/extract', body: { scraper: 'nope', input: { url: 'https://example.com/' } } }), 400, 'invalid_request', 'invalid_request_error', 'scraper');
    await expectError(await post('/v1/quote', agent.api_key, { path: '/v1/models', body: {} }), 400, 'invalid_request', 'invalid_request_error', 'path');
    await expectError(await post('/v1/quote', 'ak-not-a-key', { path: '/v1/scrape', body: { url: 'https://example.com/' } }), 401, 'invalid_api_key', 'authentication_error');
  });
});
