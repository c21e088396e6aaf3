import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { accountStub } from './helpers';
import { createApp } from '../../src/app';
import { anthropicUrl, chatUrl, funded, lookup, received, routingEnv, send } from './routing-helpers';

/**
 * D34's failover: an attempt that fails before the first byte (5xx, 429, 402, 401, no answer)
 * moves on to the next route or model, free; a 400 naming the request's own fault, and anything
 * after the first byte, does not. Every answer names what served (X-Service-Model and
 * X-Service-Provider); the request lookup records each attempt; only the serving one is charged.
 */
const user = (text: string) => [{ role: 'user', content: text }];
/** GPT-4o mini (OpenAI) first, Claude Haiku (Anthropic) as the fallback model. */
const toClaude = (text: string, extra: Record<string, unknown> = {}) => ({ model: 'openai/gpt-4o-mini', models: ['anthropic/claude-haiku-4-5'], messages: user(text), max_tokens: 50, ...extra });
/** Claude Haiku's price: $1 in, $5 out per million tokens = 1 and 5 micro-dollars a token. */
const claudeMicros = (usage: { prompt_tokens: number; completion_tokens: number }) => usage.prompt_tokens + 5 * usage.completion_tokens;

async function charges(accountId: string) {
  return (await accountStub(accountId).ledgerEntries(20)).filter((row) => row.kind === 'charge');
}

describe('failover before the first byte', () => {
  it.each([
    ['a 500', '[fail-openai]', 500],
    ['a 429', '[fail-openai=429]', 429],
    ['a 402 (the provider account ran dry)', '[fail-openai=402]', 402],
    ['a 401 (its key revoked)', '[fail-openai=401]', 401],
  ])('%s from OpenAI moves to the fallback model; only the serving attempt is charged, at its price', async (_, tag, status) => {
    const agent = await funded();
    const nonce = crypto.randomUUID();
    const res = await send('/v1/chat/completions', agent.api_key, toClaude(`${tag} ${nonce}`));
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Service-Model')).toBe('anthropic/claude-haiku-4-5');
    expect(res.headers.get('X-Service-Provider')).toBe('anthropic');
    const answer = (await res.json()) as { model: string; usage: { prompt_tokens: number; completion_tokens: number } };
    expect(answer.model).toBe('anthropic/claude-haiku-4-5');
    expect(await received(chatUrl, nonce)).toHaveLength(1);

    const record = await lookup(agent.api_key, res);
    expect(record).toMatchObject({ model: 'anthropic/claude-haiku-4-5', provider: 'anthropic', status: 'succeeded' });
    expect(record.attempts?.map(({ provider, model, status }) => ({ provider, model, status }))).toEqual([
      { provider: 'openai', model: 'openai/gpt-4o-mini', status },
      { provider: 'anthropic', model: 'anthropic/claude-haiku-4-5', status: 200 },
    ]);
    const cost = claudeMicros(answer.usage);
    expect(res.headers.get('X-Service-Cost')).toBe((cost / 1e6).toFixed(6));
    expect((await charges(agent.account_id)).map((row) => -row.amountMicros)).toEqual([cost]);
  });

  it("the request's log line names the model and provider that served", async () => {
    const agent = await funded();
    const log = vi.spyOn(console, 'log');
    try {
      const res = await send('/v1/chat/completions', agent.api_key, toClaude(`[fail-openai] ${crypto.randomUUID()}`));
      expect(res.status).toBe(200);
      const id = res.headers.get('X-Service-Request-Id');
      const lines = log.mock.calls.flatMap(([line]) => (typeof line === 'string' && line.startsWith('{"event":"request"') ? [JSON.parse(line) as Record<string, unknown>] : []));
      expect(lines.find((line) => line.request_id === id)).toMatchObject({ model: 'anthropic/claude-haiku-4-5', provider: 'anthropic' });
    } finally {
      log.mockRestore();
    }
  });

  it('a refused connection moves to the next route of the same model', async () => {
    const agent = await funded();
    // zai/glm-4.5-air by price: Fireworks (refusing connections here) first, then Together.
    const res = await send('/v1/chat/completions', agent.api_key, { model: 'zai/glm-4.5-air', messages: user('hello'), max_tokens: 20, provider: { sort: 'price' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Service-Provider')).toBe('together');
    expect(res.headers.get('X-Service-Model')).toBe('zai/glm-4.5-air');
    const record = await lookup(agent.api_key, res);
    expect(record.attempts?.map(({ provider, status }) => ({ provider, status }))).toEqual([
      { provider: 'fireworks', status: null },
      { provider: 'together', status: 200 },
    ]);
  });

  it('streams fail over before their headers, and the stream names what served', async () => {
    const agent = await funded();
    const res = await send('/v1/chat/completions', agent.api_key, toClaude(`[fail-openai] ${crypto.randomUUID()}`, { stream: true }));
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toMatch(/text\/event-stream/);
    expect(res.headers.get('X-Service-Model')).toBe('anthropic/claude-haiku-4-5');
    expect(res.headers.get('X-Service-Provider')).toBe('anthropic');
    expect(await res.text()).toContain('[DONE]');
    const record = await lookup(agent.api_key, res);
    expect(record.attempts?.map((attempt) => attempt.provider)).toEqual(['openai', 'anthropic']);
  });

  it('never switches once a byte of the answer reached the client (a stream that dies mid-way)', async () => {
    const agent = await funded();
    const nonce = crypto.randomUUID();
    const res = await send('/v1/chat/completions', agent.api_key, toClaude(`[die] ${nonce}`, { stream: true }));
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Service-Provider')).toBe('openai');
    expect(await res.text()).toContain('Partial');
    expect(await received(anthropicUrl, nonce)).toEqual([]);
    expect((await lookup(agent.api_key, res)).attempts).toBeUndefined();
  });

  it("returns an upstream 400 that names the request's own fault, without failing over", async () => {
    const agent = await funded();
    const nonce = crypto.randomUUID();
    // The Anthropic simulator answers `[tool]` without tools with a 400.
    const res = await send('/v1/messages', agent.api_key, { model: 'anthropic/claude-haiku-4-5', models: ['openai/gpt-4o-mini'], max_tokens: 50, messages: user(`[tool] ${nonce}`) });
    expect(res.status).toBe(400);
    expect(res.headers.get('X-Service-Provider')).toBe('anthropic');
    expect(await received(chatUrl, nonce)).toEqual([]);
    expect(await charges(agent.account_id)).toEqual([]);
  });

  it('when every attempt fails: the last error, naming what was called last, free, each attempt recorded', async () => {
    const agent = await funded();
    const res = await send('/v1/chat/completions', agent.api_key, toClaude(`[500] ${crypto.randomUUID()}`));
    expect(res.status).toBe(502);
    expect(res.headers.get('X-Service-Model')).toBe('anthropic/claude-haiku-4-5');
    expect(res.headers.get('X-Service-Provider')).toBe('anthropic');
    const record = await lookup(agent.api_key, res);
    expect(record).toMatchObject({ status: 'failed', cost_usd: '0.000000', provider: 'anthropic' });
    expect(record.attempts?.map(({ provider, status }) => ({ provider, status }))).toEqual([
      { provider: 'openai', status: 500 },
      { provider: 'anthropic', status: 500 },
    ]);
    expect(await charges(agent.account_id)).toEqual([]);
    expect(await accountStub(agent.account_id).snapshot()).toMatchObject({ balanceMicros: 1_000_000, heldMicros: 0 });
  });
});

describe('a model this gateway does not serve', () => {
  // Gemini has no key in this gateway: its models are listed nowhere and serve nothing.
  it.each(['/v1/chat/completions', '/v1/messages', '/v1/responses'])('%s: is skipped for the next of models', async (path) => {
    const agent = await funded();
    const body = { model: 'google/gemini-2.5-flash-lite', models: ['openai/gpt-4o-mini'], max_tokens: 20, messages: user('hi'), ...(path === '/v1/responses' && { input: 'hi', store: false, messages: undefined, max_tokens: undefined }) };
    const res = await send(path, agent.api_key, body);
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Service-Model')).toBe('openai/gpt-4o-mini');
  });

  it('without models stays the 404 it was', async () => {
    const agent = await funded();
    const res = await send('/v1/messages', agent.api_key, { model: 'google/gemini-2.5-flash-lite', max_tokens: 20, messages: user('hi') });
    expect(res.status).toBe(404);
  });
});

describe('every format fails over and names what served', () => {
  it('Messages: Anthropic failing, GPT-4o mini serves (translated)', async () => {
    const agent = await funded();
    const res = await send('/v1/messages', agent.api_key, { model: 'anthropic/claude-haiku-4-5', models: ['openai/gpt-4o-mini'], max_tokens: 50, messages: user('[fail-anthropic=402] hi') });
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Service-Model')).toBe('openai/gpt-4o-mini');
    expect(res.headers.get('X-Service-Provider')).toBe('openai');
    expect(((await res.json()) as { type: string }).type).toBe('message');
  });

  it("Messages: a max_tokens above a translated fallback's cap is read as its cap, as on a translated first model", async () => {
    const agent = await funded('5');
    const nonce = crypto.randomUUID();
    // Claude Code asks 32,000 of any model; GPT-4o mini produces at most 16,384.
    const res = await send('/v1/messages', agent.api_key, { model: 'anthropic/claude-haiku-4-5', models: ['openai/gpt-4o-mini'], max_tokens: 32_000, messages: user(`[fail-anthropic] ${nonce}`) });
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Service-Model')).toBe('openai/gpt-4o-mini');
    const [sent] = await received(chatUrl, nonce);
    // OpenAI's adapter sends the cap as max_completion_tokens.
    expect(sent?.max_completion_tokens ?? sent?.max_tokens).toBe(16_384);
  });

  it.each([false, true])('Responses (stream: %s): OpenAI failing, Claude Haiku serves', async (stream) => {
    const agent = await funded();
    const res = await send('/v1/responses', agent.api_key, { model: 'openai/gpt-4o-mini', models: ['anthropic/claude-haiku-4-5'], input: '[fail-openai] hi', stream, store: false });
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Service-Model')).toBe('anthropic/claude-haiku-4-5');
    expect(res.headers.get('X-Service-Provider')).toBe('anthropic');
  });

  it.each(['/v1/chat/completions', '/v1/messages', '/v1/responses'])('%s without routing members names the model and provider too', async (path) => {
    const agent = await funded();
    const body =
      path === '/v1/responses' ? { model: 'openai/gpt-4o-mini', input: 'hi', store: false } : { model: 'openai/gpt-4o-mini', max_tokens: 20, messages: user('hi') };
    const res = await send(path, agent.api_key, body);
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Service-Model')).toBe('openai/gpt-4o-mini');
    expect(res.headers.get('X-Service-Provider')).toBe('openai');
    expect(await lookup(agent.api_key, res)).toMatchObject({ model: 'openai/gpt-4o-mini', provider: 'openai' });
  });
});

describe('the attempts of one request', () => {
  it('share one wait: hanging upstreams cost at most two timeouts, whatever the fallbacks', async () => {
    const agent = await funded();
    const ctx = createExecutionContext();
    const quick = { ...routingEnv, UPSTREAM_TIMEOUT_MS: '300' } as Env;
    const started = Date.now();
    const res = await createApp().fetch(
      new Request('https://gateway.test/v1/chat/completions', {
        method: 'POST',
        headers: { Authorization: `Bearer ${agent.api_key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ model: 'openai/gpt-4o-mini', models: ['anthropic/claude-haiku-4-5', 'openai/gpt-4.1'], messages: user(`[hang] ${crypto.randomUUID()}`), max_tokens: 20 }),
      }),
      quick,
      ctx,
    );
    await res.text();
    await waitOnExecutionContext(ctx);
    const took = Date.now() - started;
    expect(res.status).toBeGreaterThanOrEqual(500);
    // Two calls of 300 ms, not three.
    expect(took).toBeLessThan(900);
    const record = await lookup(agent.api_key, res);
    expect(record.attempts?.map(({ provider }) => provider)).toEqual(['openai', 'anthropic']);
  });
});
