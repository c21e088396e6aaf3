import { describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, bearer, call, expectError, json, register } from './helpers';

async function createKey(accountId: string, body: Record<string, unknown>) {
  const res = await call(`/admin/accounts/${accountId}/keys`, bearer(ADMIN_TOKEN, json(body)));
  expect(res.status).toBe(201);
  return (await res.json()) as { api_key: string; key: { id: string } };
}

describe('API key authentication', () => {
  it('answers a request without a key with 401 missing_api_key', async () => {
    await expectError(await call('/agent/account'), 401, 'missing_api_key', 'authentication_error');
  });

  it.each([
    ['a non-bearer scheme', 'Basic abc'],
    ['an empty bearer', 'Bearer '],
  ])('answers %s with 401 missing_api_key', async (_, header) => {
    await expectError(await call('/agent/account', { headers: { Authorization: header } }), 401, 'missing_api_key', 'authentication_error');
  });

  it.each([
    ['a malformed key', 'sk-not-ours'],
    ['a key of the wrong length', `ak-${'a'.repeat(44)}`],
    ['a well-formed key for an account that does not exist', `ak-${'0'.repeat(22)}${'x'.repeat(23)}`],
  ])('answers %s with 401 invalid_api_key', async (_, key) => {
    await expectError(await call('/agent/account', bearer(key)), 401, 'invalid_api_key', 'authentication_error');
  });

  it('answers a right account with a wrong secret with 401 invalid_api_key', async () => {
    const { api_key } = await register();
    const forged = api_key.slice(0, 25) + (api_key.slice(25).startsWith('A') ? 'B' : 'A') + api_key.slice(26);
    await expectError(await call('/agent/account', bearer(forged)), 401, 'invalid_api_key', 'authentication_error');
  });

  it('answers a revoked key with 401 api_key_revoked, and leaves the other keys working', async () => {
    const account = await register();
    const second = await createKey(account.account_id, { name: 'ci' });
    const revoke = await call(
      `/admin/accounts/${account.account_id}/keys/${second.key.id}`,
      bearer(ADMIN_TOKEN, { ...json({ revoked: true }), method: 'PATCH' }),
    );
    expect(revoke.status).toBe(200);
    await expectError(await call('/agent/account', bearer(second.api_key)), 401, 'api_key_revoked', 'authentication_error');
    expect((await call('/agent/account', bearer(account.api_key))).status).toBe(200);
  });

  it('answers an expired key with 401 api_key_expired', async () => {
    const account = await register();
    const expired = await createKey(account.account_id, { expires_at: new Date(Date.now() - 1000).toISOString() });
    await expectError(await call('/agent/account', bearer(expired.api_key)), 401, 'api_key_expired', 'authentication_error');
  });

  it('accepts a key before its expiry', async () => {
    const account = await register();
    const key = await createKey(account.account_id, { expires_at: new Date(Date.now() + 3_600_000).toISOString() });
    expect((await call('/agent/account', bearer(key.api_key))).status).toBe(200);
  });
});
