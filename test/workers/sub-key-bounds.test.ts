import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, bearer, call, expectError, json, register } from './helpers';
import { createOrganization, eventually, invite, join } from './org-helpers';
import { chat, chatBody, deleteKey, funded, mint, send, spentOf } from './sub-key-helpers';

/**
 * D35 through the public API: a sub-key is bounded at every request by its parent as the parent
 * is then (guardrails the operator adds to the parent later, its spend limits counting the
 * sub-key's spend, in an account and in an organization), and only an unlimited key that is not a
 * sub-key revokes keys.
 */

/** A key the operator makes on the account (unlimited unless `guardrails` say otherwise), and the operator's PATCH of it. */
async function operatorKey(accountId: string, guardrails: Record<string, unknown> = {}) {
  const res = await call(`/admin/accounts/${accountId}/keys`, bearer(ADMIN_TOKEN, json({ name: 'operator-made', ...guardrails })));
  expect(res.status, await res.clone().text()).toBe(201);
  const { api_key: apiKey, key } = (await res.json()) as { api_key: string; key: { id: string } };
  const patch = async (body: Record<string, unknown>) => {
    const patched = await call(`/admin/accounts/${accountId}/keys/${key.id}`, bearer(ADMIN_TOKEN, { ...json(body), method: 'PATCH' }));
    expect(patched.status, await patched.clone().text()).toBe(200);
  };
  return { apiKey, id: key.id, patch };
}

describe("a sub-key bounded by its parent's guardrails as they are now", () => {
  it('is refused with 401 api_key_expired once its parent is made to expire after the mint', async () => {
    const agent = await funded();
    const parent = await operatorKey(agent.account_id);
    const sub = await mint(parent.apiKey, { name: 'outlives' });
    expect((await chat(sub.api_key)).status).toBe(200);
    const expiresAt = Date.now() + 1_000;
    await parent.patch({ expires_at: new Date(expiresAt).toISOString() });
    await new Promise((resolve) => setTimeout(resolve, expiresAt - Date.now() + 50));
    await expectError(await chat(parent.apiKey), 401, 'api_key_expired', 'authentication_error');
    await expectError(await chat(sub.api_key), 401, 'api_key_expired', 'authentication_error');
    await expectError(await send('/agent/account', sub.api_key), 401, 'api_key_expired', 'authentication_error');
  });

  it("is refused with 429 credit_limit_exceeded once its parent's total limit, set after the mint, is used up by the sub-key's own spend", async () => {
    const agent = await funded();
    const parent = await operatorKey(agent.account_id);
    const sub = await mint(parent.apiKey, { name: 'spender' });
    const first = await chat(sub.api_key);
    expect(first.status).toBe(200);
    const cost = first.headers.get('X-Service-Cost')!;
    await eventually(() => spentOf(agent.api_key, sub.id), cost);
    // The parent's limit is exactly what its sub-key has spent: nothing is left for either.
    await parent.patch({ total_limit_usd: cost });
    await expectError(await chat(sub.api_key), 429, 'credit_limit_exceeded', 'rate_limit_error');
    await expectError(await chat(parent.apiKey), 429, 'credit_limit_exceeded', 'rate_limit_error');
    // The account's other keys are not bound by it.
    expect((await chat(agent.api_key)).status).toBe(200);
    // Lifting the parent's limit frees the sub-key again.
    await parent.patch({ total_limit_usd: null });
    expect((await chat(sub.api_key)).status).toBe(200);
  });

  it("holds no more than its parent's daily room", async () => {
    const agent = await funded();
    const parent = await operatorKey(agent.account_id);
    const sub = await mint(parent.apiKey, { name: 'quoted', limit_usd: '1' });
    await parent.patch({ daily_limit_usd: '0.000300' });
    const quote = await send('/v1/quote', sub.api_key, { body: { path: '/v1/chat/completions', body: chatBody } });
    expect(quote.status, await quote.clone().text()).toBe(200);
    expect(((await quote.json()) as { available_usd: string }).available_usd).toBe('0.000300');
  });

  it("is refused a model or a route class its parent was denied after the mint", async () => {
    const agent = await funded();
    const parent = await operatorKey(agent.account_id);
    const sub = await mint(parent.apiKey, { name: 'narrowed-later' });
    await parent.patch({ allowed_models: ['openai/gpt-4o'] });
    await expectError(await chat(sub.api_key), 403, 'model_not_allowed', 'authorization_error', 'model');
    await parent.patch({ allowed_models: null, allowed_routes: ['web'] });
    await expectError(await chat(sub.api_key), 403, 'guardrail_blocked', 'authorization_error');
    await expectError(await send('/v1/uploads', sub.api_key, { body: { content_type: 'image/png', content_length: 100 } }), 403, 'guardrail_blocked', 'authorization_error');
    await parent.patch({ allowed_routes: null });
    expect((await chat(sub.api_key)).status).toBe(200);
  });

  it('is refused with 401 api_key_revoked on the request right after its parent is revoked, warm caches and all', async () => {
    const agent = await funded();
    const parent = await operatorKey(agent.account_id);
    const sub = await mint(parent.apiKey, { name: 'orphan' });
    expect((await chat(sub.api_key)).status).toBe(200);
    expect((await chat(sub.api_key)).status).toBe(200);
    await parent.patch({ revoked: true });
    await expectError(await chat(sub.api_key), 401, 'api_key_revoked', 'authentication_error');
  });

  it("in an organization, is refused once its parent's limit set after the mint is used up, pool or not", async () => {
    const org = await createOrganization('bounded', '5');
    const member = await register();
    expect((await join(member, await invite(org.organization_id, { auto_approve: true }))).status).toBe(200);
    const parent = await operatorKey(member.account_id);
    const sub = await mint(parent.apiKey, { name: 'member-sub' });
    const first = await chat(sub.api_key);
    expect(first.status, await first.clone().text()).toBe(200);
    const cost = first.headers.get('X-Service-Cost')!;
    await eventually(() => spentOf(member.api_key, sub.id), cost);
    await parent.patch({ total_limit_usd: cost });
    await expectError(await chat(sub.api_key), 429, 'credit_limit_exceeded', 'rate_limit_error');
    await expectError(await chat(parent.apiKey), 429, 'credit_limit_exceeded', 'rate_limit_error');
    expect((await chat(member.api_key)).status).toBe(200);
  });
});

describe('who may revoke keys', () => {
  it("refuses a spend-limited key revoking the account's unlimited key with 403 guardrail_blocked, and the key keeps working", async () => {
    const agent = await funded();
    const capped = await operatorKey(agent.account_id, { total_limit_usd: '1' });
    const [own] = (await (await send('/agent/keys', agent.api_key)).json() as { data: { id: string }[] }).data;
    await expectError(await deleteKey(capped.apiKey, own!.id), 403, 'guardrail_blocked', 'authorization_error');
    expect((await chat(agent.api_key)).status).toBe(200);
  });

  it('lets an unlimited key that is not a sub-key revoke another key of the account', async () => {
    const agent = await funded();
    const other = await operatorKey(agent.account_id);
    expect((await deleteKey(agent.api_key, other.id)).status).toBe(200);
    await expectError(await chat(other.apiKey), 401, 'api_key_revoked', 'authentication_error');
  });
});

