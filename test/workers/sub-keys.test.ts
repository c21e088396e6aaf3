import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app';
import { MAX_LIVE_KEYS } from '../../durable-objects/account/sub-keys';
import { signedInOwner } from './dashboard-helpers';
import { ADMIN_TOKEN, adminCredit, bearer, call, expectError, json, register } from './helpers';

/**
 * D27 through the public API: an agent mints keys for its sub-agents (`POST /agent/keys`), lists
 * them with their spend and revokes them; the account's own checks enforce a sub-key's limit,
 * expiry, models and route classes on every request.
 */

const app = createApp();
const gateway = {
  ...env,
  OPENAI_API_KEY: 'sk-sub-keys',
  OPENAI_BASE_URL: `${inject('chatUpstreamUrl')}/v1`,
} as Env;

interface Minted {
  api_key: string;
  id: string;
  name: string;
  limit_usd: string | null;
  expires_at: string | null;
  allowed_models: string[] | null;
  allowed_routes: string[] | null;
  parent_key_id: string | null;
}

/** A request through the app with upstreams configured; the whole answer read and its waitUntil work done. */
async function send(path: string, apiKey: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const headers: Record<string, string> = { Authorization: `Bearer ${apiKey}` };
  if (init.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await app.fetch(
    new Request(`https://gateway.test${path}`, { method: init.method ?? (init.body === undefined ? 'GET' : 'POST'), headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) }),
    gateway,
    ctx,
  );
  await res.clone().arrayBuffer();
  await waitOnExecutionContext(ctx);
  return res;
}

const chat = (apiKey: string, model = 'openai/gpt-4o-mini') => send('/v1/chat/completions', apiKey, { body: { model, max_tokens: 5, messages: [{ role: 'user', content: 'Hi' }] } });

async function mint(apiKey: string, body: Record<string, unknown>): Promise<Minted> {
  const res = await send('/agent/keys', apiKey, { body });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

async function funded(usd = '5') {
  const agent = await register();
  expect((await adminCredit(agent.account_id, usd)).status).toBe(200);
  return agent;
}

async function listed(apiKey: string) {
  const res = await send('/agent/keys', apiKey);
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: (Minted & { spent_usd: string })[] }).data;
}

describe('POST /agent/keys', () => {
  it('mints a sub-key shown once, with its guardrails and the key that minted it', async () => {
    const agent = await funded();
    const before = Date.now();
    const sub = await mint(agent.api_key, { name: 'researcher', limit_usd: '0.50', expires_in: 3600, allowed_models: ['openai/gpt-4o-mini'], allowed_routes: ['chat', 'web'] });
    expect(sub.api_key).toMatch(/^ak-/);
    expect(sub).toMatchObject({ name: 'researcher', limit_usd: '0.500000', allowed_models: ['openai/gpt-4o-mini'], allowed_routes: ['chat', 'web'], parent_key_id: expect.stringMatching(/^key_/) });
    expect(Date.parse(sub.expires_at!)).toBeGreaterThanOrEqual(before + 3_600_000 - 1000);

    const keys = await listed(agent.api_key);
    expect(keys.map((key) => key.id)).toEqual([sub.parent_key_id, sub.id]);
    expect(JSON.stringify(keys)).not.toContain(sub.api_key);
    expect(keys[1]).not.toHaveProperty('api_key');
  });

  it('lets the sub-key chat, and lists what it spent', async () => {
    const agent = await funded();
    const sub = await mint(agent.api_key, { name: 'worker' });
    const res = await chat(sub.api_key);
    expect(res.status, await res.clone().text()).toBe(200);
    const cost = res.headers.get('X-Service-Cost');
    const keys = await listed(agent.api_key);
    expect(keys.find((key) => key.id === sub.id)?.spent_usd).toBe(cost);
    expect(keys.find((key) => key.id === sub.parent_key_id)?.spent_usd).toBe('0.000000');
  });

  it.each([
    ['an unknown model', { name: 'x', allowed_models: ['openai/no-such-model'] }, 'allowed_models.0'],
    ['an unknown route class', { name: 'x', allowed_routes: ['chat', 'mining'] }, 'allowed_routes.1'],
    ['no name', { limit_usd: '1' }, 'name'],
    ['an expiry of 0 seconds', { name: 'x', expires_in: 0 }, 'expires_in'],
    ['a limit with 7 fraction digits', { name: 'x', limit_usd: '0.0000001' }, 'limit_usd'],
    ['a negative limit', { name: 'x', limit_usd: -1 }, 'limit_usd'],
  ])('answers %s with 400 naming the field', async (_, body, param) => {
    const agent = await register();
    await expectError(await send('/agent/keys', agent.api_key, { body }), 400, 'invalid_request', 'invalid_request_error', param);
  });

  it('refuses a sub-key that mints or revokes with 403 guardrail_blocked, and shows it only itself', async () => {
    const agent = await funded();
    const sub = await mint(agent.api_key, { name: 'child' });
    await expectError(await send('/agent/keys', sub.api_key, { body: { name: 'grandchild' } }), 403, 'guardrail_blocked', 'authorization_error');
    await expectError(await send(`/agent/keys/${sub.parent_key_id}`, sub.api_key, { method: 'DELETE' }), 403, 'guardrail_blocked', 'authorization_error');
    expect((await listed(sub.api_key)).map((key) => key.id)).toEqual([sub.id]);
    expect((await chat(agent.api_key)).status).toBe(200);
  });

  it('refuses a key with a spend limit, so its sub-keys cannot escape the limit', async () => {
    const agent = await funded();
    const created = await call(`/admin/accounts/${agent.account_id}/keys`, bearer(ADMIN_TOKEN, json({ name: 'capped', total_limit_usd: '1' })));
    const { api_key: capped } = (await created.json()) as { api_key: string };
    await expectError(await send('/agent/keys', capped, { body: { name: 'escape' } }), 403, 'guardrail_blocked', 'authorization_error');
  });

  it('gives a sub-key no more models or routes than the key that mints it, and no later expiry', async () => {
    const agent = await funded();
    const expiresAt = new Date(Date.now() + 600_000).toISOString();
    const created = await call(
      `/admin/accounts/${agent.account_id}/keys`,
      bearer(ADMIN_TOKEN, json({ name: 'narrow', allowed_models: ['openai/gpt-4o-mini'], allowed_routes: ['chat'], expires_at: expiresAt })),
    );
    const { api_key: narrow } = (await created.json()) as { api_key: string };
    await expectError(await send('/agent/keys', narrow, { body: { name: 'x', allowed_models: ['openai/gpt-4o'] } }), 403, 'guardrail_blocked', 'authorization_error', 'allowed_models');
    await expectError(await send('/agent/keys', narrow, { body: { name: 'x', allowed_routes: ['chat', 'web'] } }), 403, 'guardrail_blocked', 'authorization_error', 'allowed_routes');
    const inherited = await mint(narrow, { name: 'inherits', expires_in: 86_400 });
    expect(inherited).toMatchObject({ allowed_models: ['openai/gpt-4o-mini'], allowed_routes: ['chat'], expires_at: expiresAt });
  });

  it(`caps an account at ${MAX_LIVE_KEYS} working keys, even for mints that race`, async () => {
    const agent = await register();
    // The account's own key and 98 sub-keys: 99 working keys.
    for (let i = 0; i < MAX_LIVE_KEYS - 2; i++) await mint(agent.api_key, { name: `k${i}` });
    const racing = await Promise.all([0, 1].map((i) => send('/agent/keys', agent.api_key, { body: { name: `race${i}` } })));
    expect(racing.map((res) => res.status).sort()).toEqual([201, 403]);
    await expectError(await send('/agent/keys', agent.api_key, { body: { name: 'over' } }), 403, 'guardrail_blocked', 'authorization_error');
    // Revoking one makes room again.
    const [, first] = await listed(agent.api_key);
    expect((await send(`/agent/keys/${first!.id}`, agent.api_key, { method: 'DELETE' })).status).toBe(200);
    await mint(agent.api_key, { name: 'room' });
  });
});

describe('a sub-key on the routes', () => {
  it('is refused beyond its limit with 429 credit_limit_exceeded', async () => {
    const agent = await funded();
    const sub = await mint(agent.api_key, { name: 'tiny', limit_usd: '0.000001' });
    await expectError(await chat(sub.api_key), 429, 'credit_limit_exceeded', 'rate_limit_error');
  });

  it('is refused a model it is not allowed with 403 model_not_allowed', async () => {
    const agent = await funded();
    const sub = await mint(agent.api_key, { name: 'mini-only', allowed_models: ['openai/gpt-4o-mini'] });
    await expectError(await chat(sub.api_key, 'openai/gpt-4o'), 403, 'model_not_allowed', 'authorization_error', 'model');
    expect((await chat(sub.api_key)).status).toBe(200);
  });

  it.each([
    ['scrape', '/v1/scrape', { url: 'https://example.com/' }, 'web'],
    ['crawl', '/v1/crawl', { url: 'https://example.com/', limit: 2 }, 'web'],
    ['an image', '/v1/images/generations', { model: 'openai/gpt-image-1-mini', prompt: 'a fox', size: '1024x1024' }, 'images'],
    ['an upload', '/v1/uploads', { content_type: 'image/png', content_length: 100 }, 'uploads'],
  ])('with only chat allowed, is refused %s with 403 guardrail_blocked naming the route class', async (_, path, body, routeClass) => {
    const agent = await funded();
    const sub = await mint(agent.api_key, { name: 'chat-only', allowed_routes: ['chat'] });
    const res = await send(path, sub.api_key, { body });
    const { error } = (await res.clone().json()) as { error: { message: string } };
    await expectError(res, 403, 'guardrail_blocked', 'authorization_error');
    expect(error.message).toContain(`"${routeClass}"`);
    // Free reads stay allowed, and its own route works.
    expect((await send('/agent/account', sub.api_key)).status).toBe(200);
    expect((await chat(sub.api_key)).status).toBe(200);
  });

  it('with only web allowed, is refused chat', async () => {
    const agent = await funded();
    const sub = await mint(agent.api_key, { name: 'web-only', allowed_routes: ['web'] });
    await expectError(await chat(sub.api_key), 403, 'guardrail_blocked', 'authorization_error');
  });

  it('is refused with 401 api_key_revoked on the request right after its revocation, with its sub-keys', async () => {
    const agent = await funded();
    const sub = await mint(agent.api_key, { name: 'short-lived' });
    // Warm every cache this isolate and the account keep for the key.
    expect((await chat(sub.api_key)).status).toBe(200);
    expect((await chat(sub.api_key)).status).toBe(200);
    const revoked = await send(`/agent/keys/${sub.id}`, agent.api_key, { method: 'DELETE' });
    expect(revoked.status).toBe(200);
    expect(((await revoked.json()) as Minted & { revoked_at: string }).revoked_at).not.toBeNull();
    await expectError(await chat(sub.api_key), 401, 'api_key_revoked', 'authentication_error');
    await expectError(await send('/agent/account', sub.api_key), 401, 'api_key_revoked', 'authentication_error');
    // Revoking again answers the key as it is.
    expect((await send(`/agent/keys/${sub.id}`, agent.api_key, { method: 'DELETE' })).status).toBe(200);
  });

  it('is revoked with the operator key that minted it', async () => {
    const agent = await funded();
    const created = await call(`/admin/accounts/${agent.account_id}/keys`, bearer(ADMIN_TOKEN, json({ name: 'delegator' })));
    const parent = (await created.json()) as { api_key: string; key: { id: string } };
    const sub = await mint(parent.api_key, { name: 'delegate' });
    expect((await send(`/agent/keys/${parent.key.id}`, agent.api_key, { method: 'DELETE' })).status).toBe(200);
    await expectError(await chat(sub.api_key), 401, 'api_key_revoked', 'authentication_error');
    expect((await chat(agent.api_key)).status).toBe(200);
  });

  it('is refused with 401 api_key_expired after its expires_in', async () => {
    const agent = await funded();
    const sub = await mint(agent.api_key, { name: 'one-second', expires_in: 1 });
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(sub.expires_at!) - Date.now()) + 50));
    await expectError(await chat(sub.api_key), 401, 'api_key_expired', 'authentication_error');
  });

  it("answers another account's key id with 404", async () => {
    const agent = await funded();
    const other = await funded();
    const theirs = await mint(other.api_key, { name: 'theirs' });
    await expectError(await send(`/agent/keys/${theirs.id}`, agent.api_key, { method: 'DELETE' }), 404, 'not_found', 'invalid_request_error', 'key_id');
    expect((await chat(theirs.api_key)).status).toBe(200);
  });
});

describe('the operator and the dashboard', () => {
  it('see a sub-key with its routes and the key that minted it', async () => {
    const { agent, visitor } = await signedInOwner();
    const sub = await mint(agent.api_key, { name: 'shown', allowed_routes: ['chat', 'speech'] });
    const res = await call(`/admin/accounts/${agent.account_id}`, { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } });
    const view = (await res.json()) as { keys: { id: string; allowed_routes: string[] | null; parent_key_id: string | null }[] };
    expect(view.keys.find((key) => key.id === sub.id)).toMatchObject({ allowed_routes: ['chat', 'speech'], parent_key_id: sub.parent_key_id });
    // The operator sets allowed_routes on any key; null lifts it.
    const patch = (body: unknown) => call(`/admin/accounts/${agent.account_id}/keys/${sub.parent_key_id}`, bearer(ADMIN_TOKEN, { ...json(body), method: 'PATCH' }));
    expect(((await (await patch({ allowed_routes: ['web'] })).json()) as { allowed_routes: string[] }).allowed_routes).toEqual(['web']);
    await expectError(await chat(agent.api_key), 403, 'guardrail_blocked', 'authorization_error');
    expect((await patch({ allowed_routes: null })).status).toBe(200);
    expect((await chat(agent.api_key)).status).toBe(200);
    const page = await visitor.get('/dashboard/keys');
    expect(page.res.status).toBe(200);
    expect(page.html).toContain('routes: chat, speech');
  });
});
