import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, adminCredit, bearer, call, expectError, json, register } from './helpers';

describe('the operator API', () => {
  it('credits an account and the key sees the new balance', async () => {
    const account = await register();
    const res = await adminCredit(account.account_id, '12.50');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ account_id: account.account_id, balance_usd: '12.500000' });
    const seen = (await (await call('/agent/account', bearer(account.api_key))).json()) as Record<string, unknown>;
    expect(seen.balance_usd).toBe('12.500000');
    // Funding lifts the expiry: a funded account never expires.
    expect(seen.expires_unless_funded_at).toBeNull();
  });

  it('applies a negative correction', async () => {
    const account = await register();
    await adminCredit(account.account_id, '5');
    const res = await adminCredit(account.account_id, '-1.250001');
    expect(await res.json()).toMatchObject({ balance_usd: '3.749999' });
  });

  it('credits once per Idempotency-Key', async () => {
    const account = await register();
    const key = crypto.randomUUID();
    await Promise.all([adminCredit(account.account_id, '2', key), adminCredit(account.account_id, '2', key)]);
    const again = await adminCredit(account.account_id, '2', key);
    expect(await again.json()).toMatchObject({ balance_usd: '2.000000' });
  });

  it.each([
    ['more than 6 fraction digits', '1.0000001'],
    ['not a number', 'ten'],
    ['a JSON-ish float', '1e3'],
  ])('refuses an amount with %s', async (_, amount) => {
    const account = await register();
    const res = await adminCredit(account.account_id, amount);
    await expectError(res, 400, 'invalid_request', 'invalid_request_error', 'amount_usd');
  });

  it('refuses a zero amount', async () => {
    const account = await register();
    await expectError(await adminCredit(account.account_id, '0.000'), 400, 'invalid_request', 'invalid_request_error', 'amount_usd');
  });

  it('answers 404 for an account that does not exist', async () => {
    await expectError(await adminCredit(crypto.randomUUID(), '1'), 404, 'not_found', 'invalid_request_error');
    const res = await call(`/admin/accounts/${crypto.randomUUID()}`, bearer(ADMIN_TOKEN));
    await expectError(res, 404, 'not_found', 'invalid_request_error');
  });

  it('shows the account, its keys without secrets and its ledger', async () => {
    const account = await register();
    await adminCredit(account.account_id, '3');
    const res = await call(`/admin/accounts/${account.account_id}`, bearer(ADMIN_TOKEN));
    expect(res.status).toBe(200);
    const body = (await res.json()) as { balance_usd: string; keys: Record<string, unknown>[]; ledger: Record<string, unknown>[] };
    expect(body.balance_usd).toBe('3.000000');
    expect(body.keys).toHaveLength(1);
    expect(body.keys[0]).toMatchObject({ name: 'default', hint: `ak-…${account.api_key.slice(-4)}`, revoked_at: null });
    expect(JSON.stringify(body)).not.toContain(account.api_key);
    expect(JSON.stringify(body)).not.toMatch(/[0-9a-f]{64}/); // no hashes either
    expect(body.ledger[0]).toMatchObject({ kind: 'credit', amount_usd: '3.000000', balance_after_usd: '3.000000', source: 'operator', note: 'test' });
  });

  it.each([
    ['no token', {}],
    ['a wrong token', { Authorization: 'Bearer not-the-token' }],
  ])('refuses %s with 401', async (_, headers) => {
    const res = await call(`/admin/accounts/${crypto.randomUUID()}/credits`, { ...json({ amount_usd: '1', reason: 'x' }), headers: { 'Content-Type': 'application/json', ...headers } });
    await expectError(res, 401, 'invalid_admin_token', 'authentication_error');
  });
});
