import { describe, expect, it } from 'vitest';
import { expectError } from './helpers';
import { anthropicUrl, chatUrl, funded, lookup, received, send } from './routing-helpers';

/**
 * D34's routing members (`models`, `provider`) in every chat format: checked with a 400 naming the
 * member, never sent upstream, steering which routes are tried, and counted by the hold and the
 * quote at the dearest attempt.
 */
const hello = (nonce: string) => [{ role: 'user', content: `Say hello ${nonce}` }];
const chat = (extra: Record<string, unknown>, nonce = crypto.randomUUID()) => ({ model: 'openai/gpt-4o-mini', messages: hello(nonce), ...extra });
const messages = (extra: Record<string, unknown>, nonce = crypto.randomUUID()) => ({ model: 'anthropic/claude-haiku-4-5', max_tokens: 100, messages: hello(nonce), ...extra });
const responses = (extra: Record<string, unknown>) => ({ model: 'openai/gpt-4o-mini', input: 'Say hello', ...extra });

const FORMATS = [
  ['/v1/chat/completions', chat],
  ['/v1/messages', messages],
  ['/v1/responses', responses],
] as const;

describe('routing members are checked in every chat format', () => {
  const invalid: [string, Record<string, unknown>, string][] = [
    ['more than 5 models', { models: Array.from({ length: 6 }, () => 'openai/gpt-4o-mini') }, 'models'],
    ['an unknown model', { models: ['openai/gpt-4o-mini', 'nobody/no-such-model'] }, 'models.1'],
    ['a model of another kind', { models: ['openai/gpt-image-1'] }, 'models.0'],
    ['an unknown provider', { provider: { order: ['openai', 'acme'] } }, 'provider.order.1'],
    ['an unknown provider to ignore', { provider: { ignore: ['acme'] } }, 'provider.ignore.0'],
    ['an unknown sort', { provider: { sort: 'fastest' } }, 'provider.sort'],
    ['a max_price that is not a number', { provider: { max_price: { prompt: 'cheap' } } }, 'provider.max_price.prompt'],
    ['an unknown preference', { provider: { quantizations: ['fp8'] } }, 'provider'],
  ];
  for (const [path, body] of FORMATS) {
    it.each(invalid)(`${path}: %s is a 400 naming it`, async (_, extra, param) => {
      const agent = await funded();
      const res = await send(path, agent.api_key, body(extra));
      expect(res.status).toBe(400);
      const error = ((await res.json()) as { error: { param?: string; type: string } }).error;
      expect(error.param).toBe(param);
    });
  }

  it('provider preferences that leave no route are a 400 naming provider', async () => {
    const agent = await funded();
    await expectError(await send('/v1/chat/completions', agent.api_key, chat({ provider: { only: ['groq'] } })), 400, 'invalid_request', 'invalid_request_error', 'provider');
    await expectError(await send('/v1/chat/completions', agent.api_key, chat({ provider: { max_price: { completion: 0.1 } } })), 400, 'invalid_request', 'invalid_request_error', 'provider');
  });
});

describe('routing members never reach an upstream', () => {
  it('a translated body (Chat Completions to OpenAI) carries neither, and neither is announced as unsupported', async () => {
    const agent = await funded();
    const nonce = crypto.randomUUID();
    const res = await send('/v1/chat/completions', agent.api_key, chat({ models: ['anthropic/claude-haiku-4-5'], provider: { sort: 'price', allow_fallbacks: true } }, nonce));
    expect(res.status).toBe(200);
    expect(res.headers.get('x-service-unsupported-params')).toBeNull();
    const [body] = await received(chatUrl, nonce);
    expect(body).toBeDefined();
    expect(body).not.toHaveProperty('models');
    expect(body).not.toHaveProperty('provider');
  });

  it("a native body (Messages to Anthropic) goes through intact but for them", async () => {
    const agent = await funded();
    const nonce = crypto.randomUUID();
    const res = await send('/v1/messages', agent.api_key, messages({ models: ['openai/gpt-4o-mini'], provider: { require_parameters: false } }, nonce));
    expect(res.status).toBe(200);
    const [body] = await received(anthropicUrl, nonce);
    expect(body).toBeDefined();
    expect(body).not.toHaveProperty('models');
    expect(body).not.toHaveProperty('provider');
  });

  it("Anthropic's free count (count_tokens) gets the body without them", async () => {
    const agent = await funded();
    const nonce = crypto.randomUUID();
    const res = await send('/v1/messages/count_tokens', agent.api_key, { model: 'anthropic/claude-haiku-4-5', messages: hello(nonce), models: ['openai/gpt-4o-mini'], provider: { sort: 'price' } });
    expect(res.status).toBe(200);
    const [body] = await received(anthropicUrl, nonce);
    expect(body).toBeDefined();
    expect(body).not.toHaveProperty('models');
    expect(body).not.toHaveProperty('provider');
  });
});

describe('provider preferences steer the routes', () => {
  // zai/glm-4.5-air: Together first in the catalog, Fireworks (cheaper, refusing connections here) second.
  const glm = (provider: Record<string, unknown>) => ({ model: 'zai/glm-4.5-air', max_tokens: 50, messages: hello(crypto.randomUUID()), provider });

  it.each([
    ['catalog order', {}, ['together']],
    ['sort by price: the cheaper Fireworks first, then Together', { sort: 'price' }, ['fireworks', 'together']],
    ['order names Fireworks first', { order: ['fireworks'] }, ['fireworks', 'together']],
    ['latency keeps the catalog order (speed is not measured)', { sort: 'latency' }, ['together']],
  ])('%s', async (_, provider, called) => {
    const agent = await funded();
    const res = await send('/v1/chat/completions', agent.api_key, glm(provider));
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Service-Provider')).toBe('together');
    const record = await lookup(agent.api_key, res);
    expect((record.attempts ?? [{ provider: record.provider }]).map((attempt) => attempt.provider)).toEqual(called);
  });

  it.each([
    ['only', { only: ['fireworks'] }],
    ['ignore', { ignore: ['together'] }],
    ['allow_fallbacks false after order', { order: ['fireworks'], allow_fallbacks: false }],
  ])('%s leaves Fireworks alone: its failure is the answer', async (_, provider) => {
    const agent = await funded();
    const res = await send('/v1/chat/completions', agent.api_key, glm(provider));
    expect(res.status).toBe(503);
    expect(res.headers.get('X-Service-Provider')).toBe('fireworks');
  });

  it('max_price skips a route dearer than it, and a model entirely', async () => {
    const agent = await funded();
    // Claude Haiku's output is $5 per million: over the cap, so GPT-4o mini ($0.60) serves at once.
    const res = await send('/v1/messages', agent.api_key, messages({ models: ['openai/gpt-4o-mini'], provider: { max_price: { completion: 1 } } }));
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Service-Model')).toBe('openai/gpt-4o-mini');
    expect((await lookup(agent.api_key, res)).attempts).toBeUndefined();
  });

  it('require_parameters serves only where every parameter applies, else a 400 naming it', async () => {
    const agent = await funded();
    // Anthropic's models apply no `seed`; GPT-4o mini does.
    const seeded = { model: 'anthropic/claude-haiku-4-5', seed: 7, messages: hello(crypto.randomUUID()), max_tokens: 50, provider: { require_parameters: true } };
    await expectError(await send('/v1/chat/completions', agent.api_key, seeded), 400, 'invalid_request', 'invalid_request_error', 'seed');
    const res = await send('/v1/chat/completions', agent.api_key, { ...seeded, models: ['openai/gpt-4o-mini'] });
    expect(res.status).toBe(200);
    expect(res.headers.get('X-Service-Model')).toBe('openai/gpt-4o-mini');
    // Without it, the seed is dropped and announced on Anthropic, as before.
    const loose = await send('/v1/chat/completions', agent.api_key, { ...seeded, provider: {} });
    expect(loose.status).toBe(200);
    expect(loose.headers.get('x-service-unsupported-params')).toContain('seed');
  });
});

describe('a sub-key limited to some models (D35)', () => {
  it('may not name a fallback model outside its allowlist: a 403 before any call', async () => {
    const agent = await funded();
    const minted = await send('/agent/keys', agent.api_key, { name: 'mini-only', allowed_models: ['openai/gpt-4o-mini'] });
    expect(minted.status).toBe(201);
    const sub = ((await minted.json()) as { api_key: string }).api_key;
    const nonce = crypto.randomUUID();
    const res = await send('/v1/chat/completions', sub, chat({ max_tokens: 20, models: ['anthropic/claude-haiku-4-5'] }, nonce));
    await expectError(res, 403, 'model_not_allowed', 'authorization_error', 'model');
    expect(await received(chatUrl, nonce)).toEqual([]);
    expect((await send('/v1/chat/completions', sub, chat({ max_tokens: 20, models: ['openai/gpt-4o-mini'] }))).status).toBe(200);
  });
});

describe('the hold and the quote cover the dearest attempt (D33, D34)', () => {
  const quote = async (apiKey: string, path: string, body: unknown) => {
    const res = await send('/v1/quote', apiKey, { path, body });
    expect(res.status).toBe(200);
    return (await res.json()) as { worst_case_usd: string; estimated_usd: string };
  };

  it('a quote with a dearer fallback model answers for its worst case, and estimates on the first', async () => {
    const agent = await funded();
    const alone = await quote(agent.api_key, '/v1/chat/completions', chat({ max_tokens: 1000 }));
    const claude = await quote(agent.api_key, '/v1/chat/completions', chat({ max_tokens: 1000, model: 'anthropic/claude-haiku-4-5' }));
    const both = await quote(agent.api_key, '/v1/chat/completions', chat({ max_tokens: 1000, models: ['anthropic/claude-haiku-4-5'] }));
    expect(Number(claude.worst_case_usd)).toBeGreaterThan(Number(alone.worst_case_usd));
    expect(both.worst_case_usd).toBe(claude.worst_case_usd);
    expect(both.estimated_usd).toBe(alone.estimated_usd);
    // The same in the other formats.
    const viaMessages = await quote(agent.api_key, '/v1/messages', messages({ model: 'openai/gpt-4o-mini', max_tokens: 1000, models: ['anthropic/claude-haiku-4-5'] }));
    expect(Number(viaMessages.worst_case_usd)).toBeGreaterThan(Number(alone.worst_case_usd));
  });

  it('a balance that covers the first model but not the fallback is refused before any call', async () => {
    // GPT-4o mini's 1,000 output tokens cost $0.0006; Claude Haiku's $0.005.
    const agent = await funded('0.002');
    const nonce = crypto.randomUUID();
    const fixed = chat({ max_tokens: 1000 }, nonce);
    expect((await send('/v1/chat/completions', agent.api_key, fixed)).status).toBe(200);
    const res = await send('/v1/chat/completions', agent.api_key, { ...fixed, models: ['anthropic/claude-haiku-4-5'] });
    expect(res.status).toBe(402);
    expect(await received(anthropicUrl, nonce)).toEqual([]);
  });
});

describe('/v1/models lists each chat model’s endpoints (D34)', () => {
  it('names each configured route’s provider as the preferences take it, with its price, context and applied parameters', async () => {
    const agent = await funded();
    const res = await send('/v1/models', agent.api_key, undefined, { method: 'GET' });
    expect(res.status).toBe(200);
    type Endpoint = { provider: string; pricing: { input: number; output: number }; context_length: number; parameters: string[]; status: string };
    const { data } = (await res.json()) as { data: { id: string; type: string; endpoints?: Endpoint[] }[] };
    const of = (id: string) => data.find((model) => model.id === id)!.endpoints!;
    expect(of('zai/glm-4.5-air').map((endpoint) => endpoint.provider)).toEqual(['together', 'fireworks']);
    expect(of('zai/glm-4.5-air')[1]).toMatchObject({ pricing: { input: 0.22e-6, output: 0.88e-6 }, context_length: 131_072, status: 'ok' });
    const [openai] = of('openai/gpt-4o-mini');
    const [anthropic] = of('anthropic/claude-haiku-4-5');
    expect(openai).toMatchObject({ provider: 'openai', context_length: 128_000, status: 'ok' });
    // What require_parameters goes by: OpenAI applies `seed`, Anthropic does not.
    expect(openai!.parameters).toEqual(expect.arrayContaining(['temperature', 'seed', 'tools']));
    expect(anthropic!.parameters).toContain('temperature');
    expect(anthropic!.parameters).not.toContain('seed');
    expect(data.filter((model) => model.type !== 'chat').every((model) => model.endpoints === undefined)).toBe(true);
  });
});
