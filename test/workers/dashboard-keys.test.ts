import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/accounts/credentials';
import { accountWith, firstKeyId, shownKey, signedInOwner } from './dashboard-helpers';
import { accountStub, expectError } from './helpers';

/**
 * Keys in the dashboard: made, named, limited, rotated and revoked through the account's Durable
 * Object, whose checks every billed route applies; the full key is on the page that made it and
 * nowhere else.
 */

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
const inAYear = () => new Date(Date.now() + 366 * 86_400_000).toISOString().slice(0, 10);

/** What the account's Durable Object answers a billed request of `apiKey` for `model`. */
async function holdFor(accountId: string, apiKey: string, model: string, micros = 5) {
  return accountStub(accountId).authorizeHold({ keyHash: await sha256Hex(apiKey), model, minMicros: micros, maxMicros: micros, purpose: `chat:${model}` });
}

describe('creating a key', () => {
  it('shows the full key once, and the key obeys its allowlist and daily limit at once', async () => {
    const { agent, visitor } = await signedInOwner('5');
    await visitor.get('/dashboard/keys');
    const { res, html } = await visitor.post('/dashboard/keys', {
      name: 'research bot',
      daily_limit_usd: '0.000010',
      allowed_models: 'openai/gpt-4o-mini',
      expires_on: inAYear(),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
    const apiKey = shownKey(html)!;
    expect(apiKey).toHaveLength(48);
    expect(html).toContain('daily $0.00001 · models: openai/gpt-4o-mini · expires');

    // It works, for its model only, up to its daily limit.
    expect((await accountWith(apiKey)).status).toBe(200);
    expect(await holdFor(agent.account_id, apiKey, 'openai/gpt-4o')).toMatchObject({ ok: false, reason: 'model_not_allowed' });
    const hold = await holdFor(agent.account_id, apiKey, 'openai/gpt-4o-mini', 8);
    expect(hold.ok).toBe(true);
    if (hold.ok) await accountStub(agent.account_id).settle(hold.holdId, 8);
    expect(await holdFor(agent.account_id, apiKey, 'openai/gpt-4o-mini', 5)).toMatchObject({ ok: false, reason: 'daily_limit' });

    // Listed by its hint, never again in full.
    const key = (await accountStub(agent.account_id).keys()).find((candidate) => candidate.name === 'research bot')!;
    expect(key).toMatchObject({ dailyLimitMicros: 10, allowedModels: ['openai/gpt-4o-mini'], hint: `ak-…${apiKey.slice(-4)}` });
    for (const path of ['/dashboard/keys', `/dashboard/keys/${key.id}`]) {
      const page = await visitor.get(path);
      expect(page.html).toContain(key.hint);
      expect(page.html).not.toContain(apiKey);
    }
  });

  it('shows what is wrong with the form inline, and makes no key', async () => {
    const { agent, visitor } = await signedInOwner();
    await visitor.get('/dashboard/keys');
    const { res, html } = await visitor.post('/dashboard/keys', { name: 'x', daily_limit_usd: 'lots', allowed_models: 'nobody/model' });
    expect(res.status).toBe(400);
    expect(html).toContain('id="daily_limit_usd-error"');
    expect(html).toContain('Not in the catalog: nobody/model.');
    expect(html).toContain('value="lots"');
    expect(shownKey(html)).toBeUndefined();
    expect(await accountStub(agent.account_id).keys()).toHaveLength(1);
  });
});

describe('a key’s page', () => {
  it('renames the key', async () => {
    const { agent, visitor } = await signedInOwner();
    const id = await firstKeyId(agent.account_id);
    await visitor.get(`/dashboard/keys/${id}`);
    const { res } = await visitor.post(`/dashboard/keys/${id}/name`, { name: 'laptop, "old"' });
    expect(res.status).toBe(303);
    expect(res.headers.get('Location')).toBe(`/dashboard/keys/${id}?renamed`);
    const page = await visitor.get(res.headers.get('Location')!);
    expect(page.html).toContain('Key renamed.');
    expect(page.html).toContain('laptop, &quot;old&quot;');
    const refused = await visitor.post(`/dashboard/keys/${id}/name`, { name: '' });
    expect(refused.res.status).toBe(400);
    expect((await accountStub(agent.account_id).keys())[0]!.name).toBe('laptop, "old"');
  });

  it('sets guardrails and clears them, the agent’s key obeying each at once', async () => {
    const { agent, visitor } = await signedInOwner();
    const id = await firstKeyId(agent.account_id);
    await visitor.get(`/dashboard/keys/${id}`);
    const set = await visitor.post(`/dashboard/keys/${id}/guardrails`, { monthly_limit_usd: '3', total_limit_usd: '7.5', allowed_models: 'openai/gpt-4o', expires_on: tomorrow() });
    expect(set.res.status).toBe(303);
    expect((await accountStub(agent.account_id).keys())[0]).toMatchObject({ monthlyLimitMicros: 3_000_000, totalLimitMicros: 7_500_000, dailyLimitMicros: null, allowedModels: ['openai/gpt-4o'] });
    expect(await holdFor(agent.account_id, agent.api_key, 'openai/gpt-4o-mini')).toMatchObject({ ok: false, reason: 'model_not_allowed' });
    const page = await visitor.get(`/dashboard/keys/${id}?saved`);
    expect(page.html).toContain('Guardrails saved');
    expect(page.html).toMatch(/value="openai\/gpt-4o" checked/);

    const cleared = await visitor.post(`/dashboard/keys/${id}/guardrails`, {});
    expect(cleared.res.status).toBe(303);
    expect((await accountStub(agent.account_id).keys())[0]).toMatchObject({ monthlyLimitMicros: null, totalLimitMicros: null, allowedModels: null, expiresAt: null });
    expect((await holdFor(agent.account_id, agent.api_key, 'openai/gpt-4o-mini')).ok).toBe(true);
  });

  it('revokes the key: the API refuses it at once', async () => {
    const { agent, visitor } = await signedInOwner();
    const id = await firstKeyId(agent.account_id);
    await visitor.get(`/dashboard/keys/${id}`);
    const { res } = await visitor.post(`/dashboard/keys/${id}/revoke`, {});
    expect(res.status).toBe(303);
    await expectError(await accountWith(agent.api_key), 401, 'api_key_revoked', 'authentication_error');
    const page = await visitor.get(`/dashboard/keys/${id}?revoked`);
    expect(page.html).toContain('<span class="badge revoked">revoked</span>');
    expect(page.html).not.toContain('Rotate key');
  });

  it('rotates the key: a new key with the same name and guardrails, shown once, and the old one revoked', async () => {
    const { agent, visitor } = await signedInOwner();
    const id = await firstKeyId(agent.account_id);
    await visitor.get(`/dashboard/keys/${id}`);
    await visitor.post(`/dashboard/keys/${id}/guardrails`, { daily_limit_usd: '1.5', allowed_models: 'openai/gpt-4o-mini' });
    const { res, html } = await visitor.post(`/dashboard/keys/${id}/rotate`, {});
    expect(res.status).toBe(200);
    const rotated = shownKey(html)!;
    expect(html).toContain(`The old key ak-…${agent.api_key.slice(-4)} is revoked.`);
    expect((await accountWith(rotated)).status).toBe(200);
    await expectError(await accountWith(agent.api_key), 401, 'api_key_revoked', 'authentication_error');
    const [old, fresh] = await accountStub(agent.account_id).keys();
    expect(old).toMatchObject({ id, revokedAt: expect.any(Number) });
    expect(fresh).toMatchObject({ name: old!.name, dailyLimitMicros: 1_500_000, allowedModels: ['openai/gpt-4o-mini'], revokedAt: null, hint: `ak-…${rotated.slice(-4)}` });

    // A revoked key is not rotated again.
    const again = await visitor.post(`/dashboard/keys/${id}/rotate`, {});
    expect(again.res.status).toBe(400);
    expect(shownKey(again.html)).toBeUndefined();
    expect(await accountStub(agent.account_id).keys()).toHaveLength(2);
  });

  it('answers 404 for a key id that is not one', async () => {
    const { visitor } = await signedInOwner();
    for (const id of ['nope', 'key_AAAAAAAAAAAAAAAAAAAA', '..%2F..%2Fadmin']) expect((await visitor.get(`/dashboard/keys/${id}`)).res.status).toBe(404);
  });
});
