import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, inject, it } from 'vitest';
import { createApp } from '../../src/app';
import { signedInOwner } from './dashboard-helpers';
import { ADMIN_TOKEN, accountStub, adminCredit, bearer, call, expectError, json, register } from './helpers';

/**
 * D28 through the operator API and the routes an agent calls: a suspended account's every key gets
 * 403 `account_suspended` (the spending routes and the ones that spend nothing), its funding still
 * works, each change leaves an audit ledger row with its reason, and unsuspending restores the keys.
 */

const app = createApp();
const withUpstream = { ...env, OPENAI_API_KEY: 'sk-suspension', OPENAI_BASE_URL: `${inject('chatUpstreamUrl')}/v1` } as Env;

const admin = (path: string, body?: unknown) =>
  call(path, body === undefined ? { headers: { Authorization: `Bearer ${ADMIN_TOKEN}` } } : bearer(ADMIN_TOKEN, json(body)));

async function chat(apiKey: string): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request('https://gateway.test/v1/chat/completions', {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'openai/gpt-4o-mini', max_tokens: 5, messages: [{ role: 'user', content: 'Hi' }] }),
    }),
    withUpstream,
    ctx,
  );
  await res.clone().arrayBuffer();
  await waitOnExecutionContext(ctx);
  return res;
}

describe('suspending an account (D28)', () => {
  it('refuses every key with 403 account_suspended, keeps funding open, and unsuspending restores the keys', async () => {
    const agent = await register();
    expect((await adminCredit(agent.account_id, '2')).status).toBe(200);
    const second = (await (await admin(`/admin/accounts/${agent.account_id}/keys`, { name: 'sub' })).json()) as { api_key: string };
    expect((await chat(agent.api_key)).status).toBe(200);

    const suspended = await admin(`/admin/accounts/${agent.account_id}/suspend`, { reason: 'chargeback review' });
    expect(suspended.status).toBe(200);
    expect(await suspended.json()).toMatchObject({ account_id: agent.account_id, suspended: { reason: 'chargeback review', suspended_at: expect.any(String) } });

    for (const key of [agent.api_key, second.api_key]) {
      await expectError(await call('/agent/account', bearer(key)), 403, 'account_suspended', 'authorization_error');
      await expectError(await chat(key), 403, 'account_suspended', 'authorization_error');
    }
    // A key that is not the account's is still told it is invalid, not that an account is suspended.
    await expectError(await call('/agent/account', bearer(`${agent.api_key.slice(0, -4)}zzzz`)), 401, 'invalid_api_key', 'authentication_error');

    // Funding still works, and the balance is kept.
    expect(await (await adminCredit(agent.account_id, '3')).json()).toMatchObject({ balance_usd: expect.stringMatching(/^4\.9/) });

    const view = (await (await admin(`/admin/accounts/${agent.account_id}`)).json()) as { suspended: { reason: string } | null };
    expect(view.suspended).toMatchObject({ reason: 'chargeback review' });

    const lifted = await admin(`/admin/accounts/${agent.account_id}/unsuspend`, { reason: 'evidence accepted' });
    expect(await lifted.json()).toEqual({ account_id: agent.account_id, suspended: null });
    expect((await call('/agent/account', bearer(agent.api_key))).status).toBe(200);
    expect((await chat(second.api_key)).status).toBe(200);

    const ledger = (await (await admin(`/admin/accounts/${agent.account_id}/ledger`)).json()) as { data: { kind: string; amount_usd: string; source: string | null; note: string }[] };
    expect(ledger.data.filter((row) => row.kind === 'audit')).toEqual([
      expect.objectContaining({ amount_usd: '0.000000', source: 'operator', note: 'unsuspended: evidence accepted' }),
      expect.objectContaining({ amount_usd: '0.000000', source: 'operator', note: 'suspended: chargeback review' }),
      expect.objectContaining({ amount_usd: '0.000000', source: 'operator', note: 'key created by the operator: sub' }),
    ]);
  });

  it('keeps the first reason when suspended twice, and writes one audit row', async () => {
    const agent = await register();
    await admin(`/admin/accounts/${agent.account_id}/suspend`, { reason: 'first' });
    const again = await admin(`/admin/accounts/${agent.account_id}/suspend`, { reason: 'second' });
    expect(await again.json()).toMatchObject({ suspended: { reason: 'first' } });
    const audits = (await accountStub(agent.account_id).ledgerEntries(10)).filter((row) => row.kind === 'audit');
    expect(audits).toHaveLength(1);
  });

  it('answers 404 for an unknown account and 400 without a reason', async () => {
    await expectError(await admin(`/admin/accounts/${crypto.randomUUID()}/suspend`, { reason: 'x' }), 404, 'not_found', 'invalid_request_error');
    const agent = await register();
    await expectError(await admin(`/admin/accounts/${agent.account_id}/unsuspend`, {}), 400, 'invalid_request', 'invalid_request_error', 'reason');
    const anonymous = await call(`/admin/accounts/${agent.account_id}/suspend`, json({ reason: 'x' }));
    expect(anonymous.status).toBe(401);
  });

  it('is said on the dashboard and on the fund page', async () => {
    const { visitor, agent } = await signedInOwner();
    expect((await visitor.get('/dashboard')).html).not.toContain('id="suspended"');
    await admin(`/admin/accounts/${agent.account_id}/suspend`, { reason: 'chargeback review' });
    const overview = await visitor.get('/dashboard');
    expect(overview.res.status).toBe(200);
    expect(overview.html).toMatch(/id="suspended"[^>]*>\s*This account is suspended \(chargeback review\)/);
    const fund = await call(new URL(agent.fund_url).pathname);
    expect(fund.status).toBe(200);
    const html = await fund.text();
    expect(html).toContain('This account is suspended');
  });

  it('is listed in /openapi.json', async () => {
    const paths = ((await (await call('/openapi.json')).json()) as { paths: Record<string, unknown> }).paths;
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(['/admin/accounts/{account_id}/suspend', '/admin/accounts/{account_id}/unsuspend']));
  });
});

describe('a card payment taken back (the account Durable Object)', () => {
  it('debits once per key, takes the balance below zero and suspends when it cannot cover it; a negative balance refuses holds', async () => {
    const agent = await register();
    await adminCredit(agent.account_id, '10');
    const stub = accountStub(agent.account_id);
    const reversal = { amountMicros: 25_000_000, idempotencyKey: 'dispute:du_test_1', note: 'card dispute $25', suspendReason: 'dispute du_test_1 exceeded the balance' };
    const results = await Promise.all([stub.reverseCardPayment(reversal), stub.reverseCardPayment(reversal), stub.reverseCardPayment(reversal)]);
    expect(results.filter((r) => r?.applied)).toHaveLength(1);
    expect(await stub.snapshot()).toMatchObject({ balanceMicros: -15_000_000, suspended: { reason: 'dispute du_test_1 exceeded the balance' } });
    await expectError(await chat(agent.api_key), 403, 'account_suspended', 'authorization_error');

    // Unsuspended while still negative: the key is accepted and the hold refused, as for any empty balance.
    await admin(`/admin/accounts/${agent.account_id}/unsuspend`, { reason: 'repaid later' });
    await expectError(await chat(agent.api_key), 402, 'insufficient_credits', 'insufficient_credits_error');

    // The dispute is won: credited back once, only because it was debited.
    const back = { amountMicros: 25_000_000, idempotencyKey: 'dispute-won:du_test_1', ofKey: 'dispute:du_test_1', note: 'won' };
    await Promise.all([stub.restoreCardPayment(back), stub.restoreCardPayment(back)]);
    expect((await stub.snapshot()).balanceMicros).toBe(10_000_000);
    expect(await stub.restoreCardPayment({ ...back, idempotencyKey: 'dispute-won:du_never', ofKey: 'dispute:du_never' })).toMatchObject({ applied: false });
  });

  it('does not suspend an account whose balance covers the debit', async () => {
    const agent = await register();
    await adminCredit(agent.account_id, '10');
    const result = await accountStub(agent.account_id).reverseCardPayment({ amountMicros: 4_000_000, idempotencyKey: 'refund:re_small', note: 'refund', suspendReason: 'x' });
    expect(result).toMatchObject({ applied: true, balanceMicros: 6_000_000, suspended: null });
    expect((await call('/agent/account', bearer(agent.api_key))).status).toBe(200);
  });
});
