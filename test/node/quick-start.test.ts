import { describe, expect, inject, it } from 'vitest';
import { E2E_ADMIN_TOKEN } from './global-setup';

const base = inject('gatewayUrl');

describe('the README quick start, against wrangler dev', () => {
  it('answers /health, registers an agent, and its key reads the account', async () => {
    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok' });

    const registered = await fetch(`${base}/agent/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: 'anonymous' }),
    });
    expect(registered.status).toBe(201);
    const { api_key, account_id } = (await registered.json()) as { api_key: string; account_id: string };

    const account = await fetch(`${base}/agent/account`, { headers: { Authorization: `Bearer ${api_key}` } });
    expect(account.status).toBe(200);
    expect(await account.json()).toMatchObject({ account_id, balance_usd: '0.000000' });

    const credited = await fetch(`${base}/admin/accounts/${account_id}/credits`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${E2E_ADMIN_TOKEN}` },
      body: JSON.stringify({ amount_usd: '12.50', reason: 'e2e' }),
    });
    expect(await credited.json()).toEqual({ account_id, balance_usd: '12.500000' });
  });
});
