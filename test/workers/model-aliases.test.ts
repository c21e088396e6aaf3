import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app';
import { adminCredit, expectError, register } from './helpers';

/**
 * D32 through the public API: every model route takes the slug, the maker's own id without the
 * prefix (dated where the catalog knows the date) and other gateways' spelling of the slug, and
 * answers with the slug; an id no model answers to is a 404 naming the closest slugs. (An id two
 * models answer to is refused the same way: no such id exists in the catalog, so
 * `src/catalog/aliases.test.ts` shows it on a catalog that has one.)
 */
const app = createApp();
const chatUrl = inject('chatUpstreamUrl');
const gateway = {
  ...env,
  OPENAI_API_KEY: 'sk-aliases',
  OPENAI_BASE_URL: `${chatUrl}/v1`,
  ANTHROPIC_API_KEY: 'sk-ant-aliases',
  ANTHROPIC_BASE_URL: `${inject('anthropicUpstreamUrl')}/v1`,
} as Env;

async function post(path: string, apiKey: string, body: unknown) {
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request(`https://gateway.test${path}`, { method: 'POST', headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
    gateway,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return res;
}

async function funded() {
  const agent = await register();
  expect((await adminCredit(agent.account_id, '5')).status).toBe(200);
  return agent;
}

const bodies = {
  '/v1/chat/completions': (model: string) => ({ model, max_tokens: 5, messages: [{ role: 'user', content: 'Hi' }] }),
  '/v1/images/generations': (model: string) => ({ model, prompt: 'a lighthouse' }),
  '/v1/videos/generations': (model: string) => ({ model, prompt: 'a lighthouse', duration: 4 }),
  '/v1/audio/speech': (model: string) => ({ model, input: 'Hello there', voice: 'alloy' }),
};
type Path = keyof typeof bodies;

describe('model ids as clients write them (D32)', () => {
  it.each([
    ['/v1/chat/completions', 'anthropic/claude-sonnet-4-5', 'anthropic/claude-sonnet-4-5'],
    ['/v1/chat/completions', 'claude-sonnet-4-5', 'anthropic/claude-sonnet-4-5'],
    ['/v1/chat/completions', 'claude-sonnet-4-5-20250929', 'anthropic/claude-sonnet-4-5'],
    ['/v1/chat/completions', 'anthropic/claude-sonnet-4.5', 'anthropic/claude-sonnet-4-5'],
    ['/v1/chat/completions', 'gpt-4o-mini', 'openai/gpt-4o-mini'],
    ['/v1/chat/completions', 'openai/gpt-5-1', 'openai/gpt-5.1'],
    ['/v1/images/generations', 'gpt-image-1-mini', 'openai/gpt-image-1-mini'],
    ['/v1/videos/generations', 'sora-2', 'openai/sora-2'],
    ['/v1/audio/speech', 'tts-1', 'openai/tts-1'],
  ] as [Path, string, string][])('%s takes %s as %s (the quote names the slug)', async (path, id, slug) => {
    const agent = await funded();
    const res = await post('/v1/quote', agent.api_key, { path, body: bodies[path](id) });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(((await res.json()) as { model: string }).model).toBe(slug);
  });

  it.each([
    ['gpt-4o-mini', 'openai/gpt-4o-mini'],
    ['claude-sonnet-4.5', 'anthropic/claude-sonnet-4-5'],
  ])('serves a chat completion asked as %s, answered as %s', async (id, slug) => {
    const agent = await funded();
    const res = await post('/v1/chat/completions', agent.api_key, bodies['/v1/chat/completions'](id));
    expect(res.status, await res.clone().text()).toBe(200);
    expect(((await res.json()) as { model: string }).model).toBe(slug);
  });

  it.each([
    ['/v1/chat/completions', 'claude-sonet-4-5', 'anthropic/claude-sonnet-4-5'],
    ['/v1/chat/completions', 'gpt-4o-mimi', 'openai/gpt-4o-mini'],
    ['/v1/images/generations', 'gpt-image-1-mni', 'openai/gpt-image-1-mini'],
    ['/v1/videos/generations', 'sora-3', 'openai/sora-2'],
    ['/v1/audio/speech', 'tts-2', 'openai/tts-1'],
  ] as [Path, string, string][])('%s answers the unknown %s with 404 model_not_found naming the closest slugs, %s first', async (path, id, nearest) => {
    const agent = await funded();
    const body = await expectError(await post(path, agent.api_key, bodies[path](id)), 404, 'model_not_found', 'invalid_request_error', 'model');
    const named = /Closest: (.+)\.$/.exec(body.error.message)?.[1]?.split(', ') ?? [];
    expect(named[0]).toBe(nearest);
    expect(named.length).toBeLessThanOrEqual(3);
  });

  it("holds a key's model allowlist to the model an alias names: an alias neither widens nor narrows it", async () => {
    const agent = await funded();
    const minted = await post('/agent/keys', agent.api_key, { name: 'mini only', allowed_models: ['openai/gpt-4o-mini'] });
    expect(minted.status, await minted.clone().text()).toBe(201);
    const { api_key: subKey } = (await minted.json()) as { api_key: string };
    const allowed = await post('/v1/chat/completions', subKey, bodies['/v1/chat/completions']('GPT-4o-mini'));
    expect(allowed.status).toBe(200);
    await allowed.body?.cancel();
    await expectError(await post('/v1/chat/completions', subKey, bodies['/v1/chat/completions']('claude-sonnet-4.5')), 403, 'model_not_allowed', 'authorization_error', 'model');
  });

  it('names no slug for an id like none of them', async () => {
    const agent = await funded();
    const body = await expectError(await post('/v1/chat/completions', agent.api_key, bodies['/v1/chat/completions']('nobody/nothing-at-all')), 404, 'model_not_found', 'invalid_request_error', 'model');
    expect(body.error.message).not.toContain('Closest');
  });
});
